// The "cost" view (www/ui/cost-view.js): the papers' cost, power and design-space models for
// the user's N, radix and β — plots that redraw as the inputs change, the HyperX design
// search in a Web Worker, messages next to a bad input, and the view's state in the URL.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { canvasDigest, setup } from './page-helpers.mjs';

let env;
before(async () => {
  env = await setup();
});
after(async () => {
  await env?.close();
});

/** Pixel digest of one of the cost view's canvases, e.g. 'fb-fig11'. */
const plotDigest = (page, id) => canvasDigest(page, `#cost-plot-${id}`);

/** Types a value into one of the view's inputs (nodes, radix, beta) and commits it. */
async function setInput(page, name, value) {
  await page.fill(`#cost-${name}`, String(value));
  await page.dispatchEvent(`#cost-${name}`, 'change');
}

/** Waits until the worker's search for this problem is shown. */
async function searchDone(page, nodes, radix, beta) {
  const want = `N = ${nodes}, R = ${radix}, β = ${beta}`;
  await page.waitForFunction(
    (want) => {
      const v = document.getElementById('cost-view');
      return v.dataset.search === 'done' && document.getElementById('cost-search-status').textContent.includes(want);
    },
    want,
    { timeout: 60_000 },
  );
}

const PLOTS = ['hx-fig8', 'fb-fig11', 'df-fig19', 'fb-fig15', 'fb-fig10a', 'fb-fig10b', 'fb-fig13', 'df-fig2'];

test('the cost view redraws its plots as N, radix and β change and runs the HyperX search', { timeout: 180_000 }, async () => {
  const { page, errors } = await env.open();
  assert.ok(await page.isHidden('#cost-view'));
  await page.click('#tab-cost');
  await page.waitForSelector('#cost-view', { state: 'visible' });
  assert.ok(await page.isHidden('#sim-view'), 'the simulation is out of the way');
  await searchDone(page, 4096, 64, 0.5);
  // Every plot is drawn.
  const before = {};
  for (const id of PLOTS) {
    before[id] = await plotDigest(page, id);
    assert.ok(before[id].painted > 1000, `${id} is drawn`);
  }
  // While the cost view is open the simulation does not advance.
  const cycle = await page.evaluate(() => window.hiradix.sim.now());
  await page.waitForTimeout(300);
  assert.equal(await page.evaluate(() => window.hiradix.sim.now()), cycle);

  // N: the marker moves on every curve vs N, Fig. 13 shows 16K's flats, the search reruns.
  await setInput(page, 'nodes', '16K');
  await searchDone(page, 16384, 64, 0.5);
  const afterN = {};
  for (const id of PLOTS) afterN[id] = await plotDigest(page, id);
  for (const id of ['fb-fig11', 'df-fig19', 'fb-fig15', 'fb-fig13', 'df-fig2', 'hx-fig8'])
    assert.notEqual(afterN[id].hash, before[id].hash, `${id} changes with N`);
  assert.match(await page.textContent('[data-plot="fb-fig13"] figcaption'), /N = 16K/);

  // Radix: the FB and dragonfly papers' networks are re-priced, Fig. 8 is for the new radix.
  await setInput(page, 'radix', '128');
  await searchDone(page, 16384, 128, 0.5);
  const afterR = {};
  for (const id of PLOTS) afterR[id] = await plotDigest(page, id);
  for (const id of ['fb-fig11', 'df-fig19', 'fb-fig15', 'hx-fig8']) assert.notEqual(afterR[id].hash, afterN[id].hash, `${id} changes with the radix`);
  assert.match(await page.textContent('[data-plot="hx-fig8"] figcaption'), /radix 128/);
  assert.match(await page.textContent('#cost-at-table'), /p = 32, a = 64, h = 32/);

  // β: Fig. 8's curves and the search.
  const tableR = await page.textContent('#cost-search-table');
  await setInput(page, 'beta', '1/4');
  await searchDone(page, 16384, 128, 0.25);
  assert.notEqual((await plotDigest(page, 'hx-fig8')).hash, afterR['hx-fig8'].hash, 'Fig. 8 changes with β');
  assert.notEqual(await page.textContent('#cost-search-table'), tableR);

  // HyperX paper Table 1 (β = 0.5 column): 4096 regular, 3780 general switches.
  await setInput(page, 'nodes', '2^17');
  await setInput(page, 'beta', '0.5');
  await searchDone(page, 131072, 128, 0.5);
  const rows = await page.$$eval('#cost-search-table tbody tr', (trs) => trs.map((tr) => [...tr.children].map((c) => c.textContent.trim())));
  assert.deepEqual(rows[0].slice(0, 6), ['regular', '4096', '3', '16', '2', '32']);
  assert.deepEqual(rows[1].slice(0, 6), ['general', '3780', '3', '(3, 35, 36)', '(12, 1, 1)', '35']);
  assert.match(await page.textContent('#cost-search-note'), /ms in a Web Worker/);

  // The state is in the URL; a fresh page from it opens on the same cost view.
  await page.waitForFunction(() => /view=cost/.test(location.search) && /n=2%5E17/.test(location.search) && /radix=128/.test(location.search));
  const url = new URL(page.url());
  const { page: again, errors: errors2 } = await env.open(url.search);
  await again.waitForSelector('#cost-view', { state: 'visible' });
  assert.equal(await again.inputValue('#cost-nodes'), '2^17');
  await searchDone(again, 131072, 128, 0.5);
  assert.match(await again.textContent('#cost-search-table'), /3780/);
  await again.close();

  // Back to the simulation: it runs again, the cost keys stay out of the way of its URL state.
  await page.click('#tab-sim');
  await page.waitForSelector('#sim-view', { state: 'visible' });
  await page.waitForFunction((c) => window.hiradix.sim.now() > c, cycle);
  assert.deepEqual(errors, []);
  assert.deepEqual(errors2, []);
  await page.close();
});

test('a bad N, radix or β gets a message next to its control', { timeout: 120_000 }, async () => {
  const { page, errors } = await env.open('?view=cost');
  await searchDone(page, 4096, 64, 0.5);
  const good = await plotDigest(page, 'fb-fig11');

  await setInput(page, 'nodes', '12.5');
  await page.waitForSelector('#cost-nodes-msg', { state: 'visible' });
  assert.match(await page.textContent('#cost-nodes-msg'), /whole number, got 12\.5/);
  assert.equal(await page.getAttribute('#cost-nodes', 'aria-invalid'), 'true');
  assert.ok(await page.isHidden('#cost-radix-msg'));
  // The last good plots stay (dimmed), nothing crashed.
  assert.equal((await plotDigest(page, 'fb-fig11')).hash, good.hash);
  assert.ok(await page.$eval('#cost-plots', (e) => e.classList.contains('stale')));

  await setInput(page, 'radix', '3');
  await setInput(page, 'beta', '1.5');
  await page.waitForSelector('#cost-radix-msg', { state: 'visible' });
  await page.waitForSelector('#cost-beta-msg', { state: 'visible' });
  assert.match(await page.textContent('#cost-radix-msg'), /radix must be between 4 and 1024 ports, got 3/);
  assert.match(await page.textContent('#cost-beta-msg'), /at most 1/);
  assert.match(await page.textContent('#cost-nodes-msg'), /whole number/);

  await setInput(page, 'nodes', 'lots');
  assert.match(await page.textContent('#cost-nodes-msg'), /'lots' is not a whole number/);

  // Fixing all three clears the messages and redraws.
  await setInput(page, 'nodes', '8192');
  await setInput(page, 'radix', '64');
  await setInput(page, 'beta', '1');
  await searchDone(page, 8192, 64, 1);
  for (const name of ['nodes', 'radix', 'beta']) assert.ok(await page.isHidden(`#cost-${name}-msg`), name);
  assert.ok(!(await page.$eval('#cost-plots', (e) => e.classList.contains('stale'))));
  assert.notEqual((await plotDigest(page, 'fb-fig11')).hash, good.hash);

  // A network that no HyperX of this radix reaches says so instead of failing.
  await setInput(page, 'radix', '4');
  await setInput(page, 'nodes', '100000');
  await searchDone(page, 100000, 4, 1);
  assert.match(await page.textContent('#cost-search-table'), /no HyperX of radix 4 connects 100000 terminals/);
  assert.match(await page.textContent('#cost-at-table'), /cannot be built with radix-4 routers/);

  // A link with a bad value shows the message too.
  const { page: p2, errors: e2 } = await env.open('?view=cost&n=0&radix=64&beta=0.5');
  await p2.waitForSelector('#cost-nodes-msg', { state: 'visible' });
  assert.match(await p2.textContent('#cost-nodes-msg'), /between 2 and 16777216/);
  assert.ok((await plotDigest(p2, 'fb-fig11')).painted > 1000, 'empty axes with a hint, not a blank box');
  await p2.close();
  assert.deepEqual(errors, []);
  assert.deepEqual(e2, []);
  await page.close();
});

test('a cost-view key given twice in a link is reported, the first value used', { timeout: 60_000 }, async () => {
  // Found by the page fuzz campaign (seed 20261121, link #3883): `view=cost&…&view=NaN`.
  const { page, errors } = await env.open('?view=cost&n=4096&view=NaN&n=1');
  await page.waitForFunction(() => /view: given more than once/.test(document.getElementById('notice-text').textContent));
  assert.match(await page.textContent('#notice-text'), /n: given more than once; the first value is used/);
  assert.ok(await page.isVisible('#notice'), 'the notice is shown in the cost view');
  assert.deepEqual(errors, []);
  await page.close();
});
