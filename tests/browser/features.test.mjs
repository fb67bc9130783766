// Inspection, live statistics (incl. Fig. 9 for dragonflies), the load–latency sweep in a
// Web Worker, and the CSV / JSON / PNG exports.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { routerPoint, setup } from './page-helpers.mjs';

let env;
before(async () => {
  env = await setup();
});
after(async () => {
  await env?.close();
});

// A 72-node dragonfly under group shift with UGAL-L: decisions to inspect, Fig. 9 classes.
const SMALL_DF =
  '?topology.type=dragonfly&routing.algorithm=ugal_l&traffic.pattern=group_shift&traffic.load=0.3&router.vcs=3&speed=5&measurement.warmup=300&measurement.measure=300&measurement.drain_limit=2000';

test('hover and click show a router with its VCs, credits and last routing decision', { timeout: 120_000 }, async () => {
  const { page, errors } = await env.open(SMALL_DF);
  await page.waitForFunction(() => window.hiradix.sim.now() > 300);
  const [x, y] = await routerPoint(page, 0);
  await page.mouse.move(x, y);
  await page.waitForSelector('#inspector', { state: 'visible' });
  assert.match(await page.textContent('#inspector-mode'), /hover/);
  await page.mouse.click(x, y);
  await page.waitForFunction(() => /pinned/.test(document.getElementById('inspector-mode').textContent));
  const text = await page.textContent('#inspector-body');
  assert.match(text, /Router 0/);
  assert.match(text, /credits\/VC/);
  assert.match(text, /Last routing decision/);
  assert.match(text, /true queue of the minimal global channel/);
  // The pinned view refreshes while the simulation runs; Escape unpins.
  await page.keyboard.press('Escape');
  await page.mouse.move(5, 5);
  await page.waitForSelector('#inspector', { state: 'hidden' });
  // A channel: its per-VC downstream occupancy and upstream credits.
  await page.evaluate(() => {
    window.hiradix.selection = { pane: 0, kind: 'channel', index: 3 };
  });
  await page.waitForFunction(() => /Channel 3/.test(document.getElementById('inspector-body').textContent), null, { timeout: 10_000 });
  assert.match(await page.textContent('#inspector-body'), /credits upstream/);
  assert.deepEqual(errors, []);
  await page.close();
});

test('live statistics: throughput, latency split, Fig. 9 classes and histogram', { timeout: 120_000 }, async () => {
  const { page, errors } = await env.open(SMALL_DF);
  await page.waitForFunction(() => window.hiradix.sim.now() > 1500, null, { timeout: 60_000 });
  const s = await page.evaluate(() => {
    const st = window.hiradix.panes[0].stats;
    return { recent: st.recent(10), fig9: st.fig9, hist: st.histogram()?.count ?? 0, samples: st.samples.length };
  });
  assert.ok(s.samples > 10, `${s.samples} samples`);
  assert.ok(Math.abs(s.recent.accepted - 0.3) < 0.08, `accepted ${s.recent.accepted}`);
  assert.ok(s.recent.latencyMin > 0 && s.recent.latencyNonmin > 0, 'latency split');
  assert.ok(s.recent.nonminFraction > 0.2, `non-minimal fraction ${s.recent.nonminFraction}`);
  // The default dragonfly: a·h = 8 global channels per group.
  assert.ok(s.fig9 && s.fig9.per_channel.length === 8 && s.fig9.minimal_channels >= 1, JSON.stringify(s.fig9));
  assert.ok(s.fig9.minimal > s.fig9.other, 'the minimal global channel is the busiest under group shift');
  assert.ok(s.hist > 100, 'histogram window holds deliveries');
  assert.equal(await page.isVisible('#fig9-box'), true);
  const table = await page.textContent('#stats-table');
  assert.match(table, /minimally routed/);
  assert.match(table, /same-router channels/);
  assert.deepEqual(errors, []);
  await page.close();
});

test('the load–latency sweep runs in a worker, the page keeps animating, points arrive', { timeout: 240_000 }, async () => {
  const { page, errors } = await env.open(SMALL_DF);
  await page.fill('#sweep-loads', '0.1, 0.3, 0.9');
  await page.click('#btn-sweep');
  await page.waitForFunction(() => window.hiradix.sweep.running);
  const f0 = await page.evaluate(() => window.hiradix.frames);
  await page.waitForFunction(() => window.hiradix.sweep.series[0].points.length >= 1, null, { timeout: 120_000 });
  await page.waitForFunction(() => !window.hiradix.sweep.running, null, { timeout: 200_000 });
  const f1 = await page.evaluate(() => window.hiradix.frames);
  // A frozen page draws no frame at all while the worker runs (the sweep takes a second or
  // two; a loaded machine may draw only a few frames meanwhile).
  assert.ok(f1 > f0 + 3, `the page froze while the sweep ran (${f1 - f0} frames)`);
  const points = await page.evaluate(() => window.hiradix.sweep.series[0].points);
  assert.ok(points.length >= 2, JSON.stringify(points));
  assert.ok(!points[0].saturated && points[0].avg_latency > 0 && Math.abs(points[0].accepted - 0.1) < 0.03, JSON.stringify(points[0]));
  assert.equal(points.at(-1).load, 0.9);
  assert.ok(points.at(-1).saturated, 'UGAL-L on group shift saturates below 0.9');
  assert.match(await page.textContent('#sweep-status'), /done/);
  // Bad input is reported next to the loads.
  await page.fill('#sweep-loads', '0.2:0.1:0');
  await page.click('#btn-sweep');
  await page.waitForSelector('#sweep-msg', { state: 'visible' });
  assert.deepEqual(errors, []);
  await page.close();
});

// The page's sweep applies the CLI's saturation rule (src/saturation.rs, in the same wasm
// engine): on the 72-node dragonfly under group shift MIN's capacity is 1/(ah) = 0.125; at
// 0.13 it accepts 0.125 while its labeled packets drain — saturated, as `hiradix run` says
// (tests/integration/cli.rs, run_and_sweep_agree_on_saturation) — and the table reports where the
// curve saturates, its saturation throughput (what it carried unsaturated, at 0.1) and,
// apart, the peak accepted (0.125, at the saturated point).
test('the sweep marks accepted-below-offered points saturated, as the CLI does', { timeout: 240_000 }, async () => {
  const { page, errors } = await env.open('?topology.type=dragonfly&routing.algorithm=min&traffic.pattern=group_shift&traffic.load=0.1&router.vcs=3&speed=5');
  await page.fill('#sweep-loads', '0.1, 0.13');
  await page.click('#btn-sweep');
  await page.waitForFunction(() => window.hiradix.sweep.series[0]?.points.length === 2 && !window.hiradix.sweep.running, null, { timeout: 200_000 });
  const points = await page.evaluate(() => window.hiradix.sweep.series[0].points);
  assert.equal(points[0].saturated, false, JSON.stringify(points[0]));
  assert.equal(points[1].saturated, true, JSON.stringify(points[1]));
  assert.equal(points[1].saturation, 'backlog_grew', JSON.stringify(points[1]));
  assert.ok(Math.abs(points[1].accepted - 0.125) < 0.003, JSON.stringify(points[1]));
  const table = await page.textContent('#stats-table');
  assert.match(table, /saturation starts at load\s*0\.1–0\.13/);
  assert.match(table, /saturation throughput\s*0\.(09\d|10\d)/);
  assert.match(table, /peak accepted \(any load\)\s*0\.12\d/);
  assert.deepEqual(errors, []);
  await page.close();
});

test('export: statistics as CSV and JSON, the canvas as PNG', { timeout: 120_000 }, async () => {
  const { page, errors } = await env.open(SMALL_DF);
  await page.waitForFunction(() => window.hiradix.panes[0].stats.samples.length > 5);
  const grab = async (button) => {
    const [download] = await Promise.all([page.waitForEvent('download'), page.click(button)]);
    return { name: download.suggestedFilename(), data: await readFile(await download.path()) };
  };
  const csv = await grab('#btn-export-csv');
  assert.equal(csv.name, 'hiradix-stats.csv');
  const lines = csv.data.toString().trim().split('\n');
  assert.match(lines[0], /^variant,cycle,offered,accepted,latency/);
  assert.ok(lines.length > 5);
  const json = await grab('#btn-export-json');
  const doc = JSON.parse(json.data.toString());
  assert.equal(doc.experiment.config.topology.type, 'dragonfly');
  assert.ok(doc.panes[0].samples.length > 5);
  assert.match(doc.url, /topology\.type=dragonfly/);
  const png = await grab('#btn-export-png');
  assert.equal(png.name, 'hiradix-network.png');
  assert.deepEqual([...png.data.subarray(0, 8)], [137, 80, 78, 71, 13, 10, 26, 10]);
  assert.ok(png.data.length > 5000);
  assert.deepEqual(errors, []);
  await page.close();
});
