// Every preset loads, shows its explanation and animates (each pane's pixels change across
// frames); side-by-side mode runs its simulations in lock-step on identical traffic.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { paneDigest, setControl, settle, setup } from './page-helpers.mjs';

/** A built-in story document (www/stories/builtin/), and their list in the menu's order. */
const builtin = (name) => JSON.parse(readFileSync(new URL(`../../www/stories/builtin/${name}.json`, import.meta.url), 'utf8'));
const BUILTIN_IDS = builtin('index');

let env;
before(async () => {
  env = await setup();
});
after(async () => {
  await env?.close();
});

test('each preset loads, explains itself and animates every pane', { timeout: 600_000 }, async () => {
  const { page, errors } = await env.open();
  const presets = await page.$$eval('#preset option', (os) => os.map((o) => o.value).filter(Boolean));
  assert.deepEqual(presets, BUILTIN_IDS, "the menu lists every built-in story, in index.json's order");
  for (const id of presets) {
    const doc = builtin(id);
    await page.selectOption('#preset', id);
    await page.waitForFunction((id) => window.hiradix.experiment.preset === id && window.hiradix.panes.length > 0, id);
    assert.equal(await page.isVisible('#story'), true, `${id}: no explanation`);
    assert.equal(await page.textContent('#story-title'), doc.title, `${id}: its title`);
    assert.equal(await page.textContent('#story-point'), doc.point, `${id}: its one-sentence point`);
    // The explanation: every string of the document's structured text, in order, as text.
    const text = (t) => (Array.isArray(t) ? t.map(text).join('') : t !== null && typeof t === 'object' ? text(Object.values(t)[0]) : String(t));
    const shown = await page.textContent('#story-text');
    assert.equal(shown.replace(/\s+/g, ' ').trim(), text(doc.explanation).replace(/\s+/g, ' ').trim(), `${id}: its explanation`);
    const exp = await page.evaluate(() => window.hiradix.experiment);
    const panes = await page.evaluate(() => window.hiradix.panes.length);
    assert.equal(panes, exp.compare.values.length, `${id}: one pane per compared value`);
    // Batch presets are slow motion: wait a few cycles, not frames.
    await page.waitForFunction(() => window.hiradix.sim.now() >= 2, null, { timeout: 60_000 });
    const before = [];
    for (let i = 0; i < panes; i++) before.push(await paneDigest(page, i));
    const t0 = await page.evaluate(() => window.hiradix.sim.now());
    await page.waitForFunction((t) => window.hiradix.sim.now() >= t + 3, t0, { timeout: 120_000 });
    for (let i = 0; i < panes; i++) {
      // A saturated pane may look the same for a few cycles: give it up to 30 s to change.
      let after = await paneDigest(page, i);
      for (let tries = 0; after.hash === before[i].hash && tries < 150; tries++) {
        await page.waitForTimeout(200);
        after = await paneDigest(page, i);
      }
      assert.ok(after.painted > 0.01 * after.size, `${id} pane ${i}: blank canvas`);
      assert.notEqual(after.hash, before[i].hash, `${id} pane ${i}: pixels did not change`);
    }
    assert.equal(await page.isVisible('#error-banner'), false, `${id}: error banner`);
  }
  assert.deepEqual(errors, []);
  await page.close();
});

test('a story shows its point in one sentence; its explanation folds out over the page without moving the picture', { timeout: 120_000 }, async () => {
  const { page, errors } = await env.open('?preset=min-worst-case');
  await page.waitForFunction(() => window.hiradix.panes.length > 0);
  assert.equal(await page.isVisible('#story-point'), true);
  assert.match(await page.textContent('#story-point'), /orange-cased channels i → i\+1/);
  assert.equal(await page.isVisible('#story-text'), false, 'the long explanation is folded at first');
  const box = () => page.$eval('canvas.net', (c) => JSON.stringify(c.getBoundingClientRect()));
  const closed = await box();
  await page.click('#story-more summary');
  assert.equal(await page.isVisible('#story-text'), true, 'explanation not shown');
  assert.ok((await page.textContent('#story-text')).length > 200);
  assert.equal(await box(), closed, 'opening the explanation moved the picture');
  await page.click('#story-more summary');
  assert.equal(await page.isVisible('#story-text'), false, 'explanation not folded again');
  assert.equal(await box(), closed);
  assert.deepEqual(errors, []);
  await page.close();
});

test('side by side: two simulations, same traffic and seed, one differing parameter, lock-step', { timeout: 180_000 }, async () => {
  const { page, errors } = await env.open();
  await setControl(page, 'topology.n', 2);
  await setControl(page, 'topology.k', 8);
  await page.waitForFunction(() => window.hiradix.experiment.config.topology.k === 8 && window.hiradix.experiment.config.topology.n === 2);
  await setControl(page, 'traffic.pattern', 'router_shift');
  await page.waitForFunction(() => window.hiradix.experiment.config.traffic.pattern === 'router_shift');
  await page.selectOption('#compare-param', 'routing.algorithm');
  await page.fill('#compare-values', 'min | clos_ad');
  await page.dispatchEvent('#compare-values', 'change');
  await page.waitForFunction(() => window.hiradix.panes.map((p) => p.config.routing.algorithm).join() === 'min,clos_ad');
  assert.equal(await page.locator('canvas.net').count(), 2);
  await page.waitForFunction(() => window.hiradix.sim.now() > 200, null, { timeout: 60_000 });
  await page.click('#btn-run');
  await page.waitForSelector('body[data-state="paused"]');
  const state = await page.evaluate(() => window.hiradix.panes.map((p) => ({ now: p.sim.now(), config: p.sim.config(), counters: p.sim.liveCounters() })));
  assert.equal(state[0].now, state[1].now, 'panes are not in lock-step');
  assert.equal(state[0].config.routing.algorithm, 'min');
  assert.equal(state[1].config.routing.algorithm, 'clos_ad');
  const strip = (c) => ({ ...c, routing: { ...c.routing, algorithm: '' } });
  assert.deepEqual(strip(state[0].config), strip(state[1].config), 'configs differ beyond the varied parameter');
  // Same seed and traffic: the same packets were generated in both (the traffic stream does
  // not depend on the routing), but MIN delivered fewer on the worst case.
  assert.equal(state[0].counters.generated, state[1].counters.generated, 'generated packets differ');
  assert.ok(state[1].counters.delivered > state[0].counters.delivered, `CLOS AD should deliver more than MIN on router shift: ${JSON.stringify(state)}`);
  // Both panes' statistics are in the table.
  const head = await page.textContent('#stats-table thead');
  assert.match(head, /A: min/);
  assert.match(head, /B: clos_ad/);
  // Stepping steps both.
  await page.click('#btn-step');
  await settle(page);
  const nows = await page.evaluate(() => window.hiradix.panes.map((p) => p.sim.now()));
  assert.deepEqual(nows, [state[0].now + 1, state[0].now + 1]);
  // A value the engine rejects is reported next to the side-by-side values.
  await page.fill('#compare-values', 'min | no_such_routing');
  await page.dispatchEvent('#compare-values', 'change');
  await page.waitForSelector('#compare-msg', { state: 'visible' });
  assert.match(await page.textContent('#compare-msg'), /no_such_routing/);
  assert.equal(await page.evaluate(() => window.hiradix.panes.length), 2, 'the running panes were kept');
  // Back to one simulation.
  await page.selectOption('#compare-param', '');
  await page.waitForFunction(() => window.hiradix.panes.length === 1);
  assert.deepEqual(errors, []);
  await page.close();
});

test('side by side over several workers: lock-step, and the same results as in one worker', { timeout: 180_000 }, async () => {
  const query =
    '?topology.type=flattened_butterfly&topology.k=8&topology.n=2&traffic.pattern=router_shift&vary=routing.algorithm&values=min|clos_ad|val&paused=1';
  const target = 3000;
  const runs = [];
  for (const workers of [1, 3]) {
    const { page, errors } = await env.open(query, { state: 'paused', init: (n) => (globalThis.HIRADIX_WORKERS = n), initArg: workers });
    await page.waitForFunction(() => window.hiradix.panes.length === 3);
    assert.equal(await page.evaluate(() => window.hiradix.sims.workers.length), workers);
    await page.click('#btn-run');
    await page.waitForFunction(() => window.hiradix.sim.now() > 300, null, { timeout: 60_000 });
    await page.click('#btn-run');
    await page.waitForSelector('body[data-state="paused"]');
    await settle(page);
    const nows = await page.evaluate(() => window.hiradix.panes.map((p) => p.sim.now()));
    assert.ok(
      nows.every((n) => n === nows[0] && n < target),
      `${workers} workers: panes not in lock-step: ${nows}`,
    );
    // Every pane's simulation, advanced to the same cycle, counts the same whatever the spread.
    const counters = await page.evaluate(
      (target) => Promise.all(window.hiradix.panes.map(async (p) => (await p.sim.ask('advance', target - p.sim.now()), await p.sim.ask('liveCounters')))),
      target,
    );
    runs.push(counters);
    assert.deepEqual(errors, []);
    await page.close();
  }
  assert.ok(runs[0][0].delivered > 0, 'nothing delivered');
  assert.deepEqual(runs[1], runs[0], 'results depend on how the panes are spread over workers');
});
