// The page's memory (docs/reliability.md, a page's worker): one budget for everything a
// simulation worker holds (src/web/budget.rs), measured from the worker's own accounting — the bytes its
// simulations reserved and the heap its counting allocator saw at most. Links that used
// to kill the worker: a rewind history growing with the source queues, a table over
// wasm32's 2 GiB allocation limit, three ~1 GiB panes in one worker, and a rewind of a
// ~2 GiB pane.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { advanceBy, settle, setup } from './page-helpers.mjs';

let env;
before(async () => {
  env = await setup();
});
after(async () => {
  await env?.close();
});

const GIB = 2 ** 30;
/** What the module allocates besides its simulations (catalog, glue, per-frame arrays). */
const BASELINE = 64 * 2 ** 20;

/** The first worker's memory and pane 0's rewind state, after the worker answered. */
async function memory(page) {
  await settle(page);
  return page.evaluate(() => ({
    worker: window.hiradix.sims.memory[0],
    rewind: window.hiradix.panes[0]?.sim.rewindable(),
    state: document.body.dataset.state,
    banner: document.getElementById('error-banner').hidden ? null : document.getElementById('error-text').textContent,
  }));
}

/** The heap never went past the most the worker's simulations reserved, nor past its limit. */
function withinBudget(m, what) {
  assert.ok(m.worker, `${what}: no memory report from the worker`);
  assert.ok(m.worker.peak_heap <= m.worker.limit, `${what}: peak heap ${(m.worker.peak_heap / GIB).toFixed(2)} GiB over the limit`);
  assert.ok(
    m.worker.peak_heap <= m.worker.peak_reserved + BASELINE,
    `${what}: peak heap ${(m.worker.peak_heap / GIB).toFixed(3)} GiB over the ${(m.worker.peak_reserved / GIB).toFixed(3)} GiB reserved at most`,
  );
}

test('the rewind history stays inside its budget while the source queues grow', async () => {
  // Before: Chromium grew 1.5 → 4.8 GiB in 4 s and the worker died ("unreachable").
  const { page, errors } = await env.open('?traffic.pattern=router_shift&traffic.load=1&traffic.source_queue_cap=100000&speed=100');
  await advanceBy(page, 20_000, 120_000);
  const m = await memory(page);
  assert.equal(m.banner, null);
  assert.ok(m.rewind.bytes <= m.rewind.budget, `history ${m.rewind.bytes} bytes over its budget ${m.rewind.budget}`);
  assert.ok(m.rewind.snapshots >= 2 && m.rewind.earliest === 0, JSON.stringify(m.rewind));
  withinBudget(m, 'growing source queues');
  // Rewinding (the copy a rewind makes is budgeted too).
  await page.click('#btn-run');
  await page.waitForSelector('body[data-state="paused"]');
  await page.keyboard.press('ArrowLeft');
  const back = await memory(page);
  assert.equal(back.banner, null);
  withinBudget(back, 'after ◀ Back');
  assert.deepEqual(errors, []);
  await page.close();
});

test('a table over one allocation is refused by name, in words, not by a crash', async () => {
  // Before: "capacity overflow" in the worker, and a second later another experiment.
  const link = '?topology.type=flattened_butterfly&topology.k=16&topology.n=3&router.vcs=16&router.buffer_depth=1820&traffic.packet_size=64&traffic.load=0.1';
  const { page, errors } = await env.open(link, { state: 'running' });
  await page.waitForFunction(() => document.getElementById('notice-text').textContent.includes('more than one allocation can hold'), null, { timeout: 30_000 });
  const notice = await page.textContent('#notice-text');
  assert.match(notice, /router\.buffer_depth/);
  assert.match(notice, /Showing the default experiment instead/, 'the visitor is told what runs instead');
  assert.ok(await page.isHidden('#error-banner'), 'no internal-error banner');
  assert.deepEqual(errors, []);
  await page.close();
});

test('panes sharing one worker are budgeted together: the one that does not fit is refused by name', async () => {
  const base = '?topology.type=flattened_butterfly&topology.k=16&topology.n=3&router.vcs=16&router.buffer_depth=550&traffic.packet_size=64';
  const { page } = await env.open(`${base}&vary=traffic.load&values=0.1|0.2|0.3`, {
    state: 'running',
    init: () => {
      globalThis.HIRADIX_WORKERS = 1;
    },
  });
  await page.waitForFunction(() => /this page's worker has/.test(document.body.textContent), null, { timeout: 60_000 });
  assert.ok(await page.isHidden('#error-banner'), 'no internal-error banner');
  const m = await memory(page);
  if (m.worker) withinBudget(m, 'three panes');
  await page.close();
});

test('a ~2 GiB pane runs and rewinds inside the budget', async () => {
  const link =
    '?topology.type=flattened_butterfly&topology.k=16&topology.n=3&router.vcs=16&router.buffer_depth=1150&traffic.packet_size=64&traffic.load=0.1&speed=10';
  const { page, errors } = await env.open(link);
  await advanceBy(page, 300, 120_000);
  await page.click('#btn-run');
  await page.waitForSelector('body[data-state="paused"]');
  await page.keyboard.press('ArrowLeft');
  await page.keyboard.press('ArrowLeft');
  const m = await memory(page);
  assert.equal(m.banner, null);
  assert.notEqual(m.state, 'crashed');
  withinBudget(m, '~2 GiB pane after ◀ Back');
  assert.deepEqual(errors, []);
  await page.close();
});
