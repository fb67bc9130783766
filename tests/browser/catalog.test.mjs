// The page and the CLI take their choices and ranges from one declaration (src/catalog.rs,
// src/config/schema.rs, each algorithm's `Algorithm` in src/routing/): for every topology
// type the page's form offers exactly the CLI's parameters with the CLI's ranges and
// options, and exactly the CLI's routing algorithms for its family.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from './harness.mjs';
import { setControl, setup } from './page-helpers.mjs';

let env;
before(async () => {
  env = await setup();
});
after(async () => {
  await env?.close();
});

/** The catalog as the CLI prints it (`hiradix list --json`). */
function cliCatalog() {
  const bin = join(ROOT, 'target', 'release', 'hiradix');
  const args = ['list', '--json'];
  const out = existsSync(bin)
    ? execFileSync(bin, args, { encoding: 'utf8' })
    : execFileSync('cargo', ['run', '--release', '--quiet', '--', ...args], { cwd: ROOT, encoding: 'utf8' });
  return JSON.parse(out);
}

/** What the page's form offers for each parameter row now: {path: {min, max, options}}. */
const formRows = (page) =>
  page.evaluate(() => {
    const rows = {};
    for (const row of document.querySelectorAll('#controls .ctl[data-path]')) {
      const input = row.querySelector('input[type="number"], select, input[type="text"]');
      if (!input) continue;
      rows[row.dataset.path] = {
        min: input.min === '' || input.min === undefined ? null : Number(input.min),
        max: input.max === '' || input.max === undefined ? null : Number(input.max),
        options: input.tagName === 'SELECT' ? [...input.options].map((o) => o.value) : null,
      };
    }
    return rows;
  });

test('the page offers the CLI’s parameters, ranges, options and algorithms for every topology', { timeout: 240_000 }, async () => {
  const cli = cliCatalog();
  const { page, errors } = await env.open();
  for (const topo of cli.topologies) {
    await setControl(page, 'topology.type', topo.name);
    await page.waitForFunction((t) => window.hiradix.experiment.config.topology.type === t, topo.name);
    const rows = await formRows(page);
    let compared = 0;
    for (const p of [...topo.params, ...cli.params]) {
      const row = rows[p.path];
      if (p.path === 'routing.algorithm' || p.path === 'traffic.pattern') continue;
      // Parameters read only by other configurations are hidden (not built) by design.
      if (!row) {
        assert.ok(p.used_when, `${topo.name}: ${p.path} is missing from the page's form`);
        continue;
      }
      if (p.kind === 'int' || p.kind === 'float') {
        assert.equal(row.min, p.min, `${topo.name}: ${p.path} min`);
        assert.equal(row.max, p.max, `${topo.name}: ${p.path} max`);
        compared++;
      }
      if (p.kind === 'enum') assert.deepEqual(row.options, p.options, `${topo.name}: ${p.path} options`);
    }
    assert.ok(compared >= 15, `${topo.name}: only ${compared} numeric parameters compared`);
    const algorithms = cli.routings.filter((r) => r.family === topo.family).map((r) => r.name);
    assert.deepEqual(rows['routing.algorithm'].options.slice().sort(), algorithms.slice().sort(), `${topo.name}: algorithms`);
  }
  assert.deepEqual(errors, []);
});

test('the page talks to wasm through named structures: counters by name, errors as {path, message}', { timeout: 60_000 }, async () => {
  const { page, errors } = await env.open('?paused=1', { state: 'paused' });
  const r = await page.evaluate(async () => {
    const m = await import('/pkg/hiradix.js');
    await m.default();
    const bad = { topology: { type: 'dragonfly', p: 65, a: 4, h: 2, g: 9 }, router: { vcs: 0 } };
    let thrown = null;
    try {
      new m.WebSim(JSON.stringify(bad));
    } catch (e) {
      thrown = e;
    }
    const sim = new m.WebSim(JSON.stringify({ seed: 3 }));
    sim.advance(300);
    const counters = sim.liveCounters();
    const refused = sim.setLoad(2);
    sim.free();
    return { thrown, counters, check: m.checkConfig(JSON.stringify(bad)), ok: m.checkConfig('{}'), refused };
  });
  assert.ok(Array.isArray(r.thrown), `a config error is thrown as an array: ${JSON.stringify(r.thrown)}`);
  assert.deepEqual(r.thrown.map((e) => e.path).sort(), ['router.vcs', 'topology.p']);
  assert.ok(r.thrown.every((e) => typeof e.message === 'string' && e.message.length > 0));
  assert.deepEqual(r.check, r.thrown, 'checkConfig and the constructor report the same problems');
  assert.deepEqual(r.ok, []);
  assert.deepEqual(
    r.refused.map((e) => e.path),
    ['traffic.load'],
  );
  const c = r.counters;
  assert.ok(c.generated > 0 && c.delivered > 0 && c.delivered_flits >= c.delivered, JSON.stringify(c));
  assert.equal(c.generated, c.delivered + c.dropped + c.unroutable + c.in_network + c.in_sources, 'packets are conserved');
  assert.equal(typeof c.batch_pending, 'boolean');
  assert.deepEqual(errors, []);
  await page.close();
});
