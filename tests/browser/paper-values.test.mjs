// The papers' stated saturation throughputs beside the sweep's curves (www/paper-values.js):
// every entry of the table is the paper's (its quote is in the paper's text, its value in
// the quote or in the project's claims), names its source and its configuration is one the
// engine runs; a sweep whose configuration matches draws the value as a dashed line with
// its source named, any other sweep draws nothing.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ROOT } from './harness.mjs';
import { setup } from './page-helpers.mjs';
import { DERIVED, PAPER_VALUES, QUANTITY, meets, paperValuesFor } from '../../www/paper-values.js';
import { Model, setPath } from '../../www/experiment.js';
import { PRESETS, presetExperiment } from '../../www/presets.js';
import { checkConfig, catalogJson, initSync } from '../../pkg/hiradix.js';

const PAPERS_DIR = join(ROOT, '..', 'shared', 'papers');
const CLAIMS_DIR = join(ROOT, 'src', 'figures', 'claims');

/** Text with every run of white space (line breaks of the extracted papers) as one space. */
const squeeze = (text) => text.replace(/\s+/g, ' ');

/** The number a stated value writes: "50%", "1/32", "half", "β = 0.5", "2β = 1". */
function statedNumber(stated) {
  const text = stated.slice(stated.lastIndexOf('=') + 1).trim();
  if (text === 'half') return 0.5;
  const percent = text.match(/^(\d+(?:\.\d+)?)\s*%$/);
  if (percent) return Number(percent[1]) / 100;
  const fraction = text.match(/^(\d+)\/(\d+)$/);
  if (fraction) return Number(fraction[1]) / Number(fraction[2]);
  return Number(text);
}

let model;
let env;
before(async () => {
  initSync({ module: await readFile(join(ROOT, 'pkg', 'hiradix_bg.wasm')) });
  model = new Model(JSON.parse(catalogJson()));
  env = await setup();
});
after(async () => {
  await env?.close();
});

/** A complete config meeting an entry's conditions (the first value of each oneOf). */
function configMeeting(when) {
  const partial = {};
  for (const [key, wanted] of Object.entries(when)) {
    if (!DERIVED.has(key)) setPath(partial, key, wanted?.oneOf ? wanted.oneOf[0] : wanted);
  }
  const config = model.complete(partial);
  if (when['flits per VC'] !== undefined) config.router.buffer_depth = when['flits per VC'];
  if (when['flits per port'] !== undefined) config.router.buffer_per_port = when['flits per port'];
  return config;
}

// The papers' texts are the shared reference material next to the repository, not part of
// it: a checkout without them (CI's fresh clone) checks everything but the quotes.
const HAVE_PAPERS = existsSync(PAPERS_DIR);

test("every stated value is the paper's, with its source, for a configuration the engine runs", async () => {
  const texts = new Map();
  const read = async (path) => {
    if (!texts.has(path)) texts.set(path, squeeze(await readFile(path, 'utf8')));
    return texts.get(path);
  };
  assert.ok(PAPER_VALUES.length >= 10, `${PAPER_VALUES.length} entries`);
  for (const e of PAPER_VALUES) {
    const name = `${e.paper.short}, ${e.where}: ${e.cases}`;
    assert.ok(e.paper.citation && e.paper.short && /^Fig\. \d+/.test(e.where) && e.cases, `${name}: names its source`);
    assert.equal(e.quantity, QUANTITY, name);
    assert.ok(e.quote.includes(e.qualifier), `${name}: the qualifier '${e.qualifier}' is the quote's`);
    const claims = await read(join(CLAIMS_DIR, e.paper.claims));
    assert.ok(e.quote.includes(e.stated) || claims.includes(e.stated), `${name}: '${e.stated}' is neither in the quote nor in src/figures/claims/${e.paper.claims}`);
    assert.ok(Math.abs(statedNumber(e.stated) - e.value) < 1e-12, `${name}: '${e.stated}' is not ${e.value}`);
    assert.ok(e.value > 0 && e.value <= 1, `${name}: a fraction of capacity`);
    // Its conditions name config paths of its network (or a derived quantity), and a config
    // meeting them is one the engine builds.
    const type = e.when['topology.type'];
    for (const key of Object.keys(e.when)) assert.ok(DERIVED.has(key) || model.knownPath(key, type), `${name}: '${key}' is no config path of a ${type}`);
    const config = configMeeting(e.when);
    assert.ok(meets(config, e.when), `${name}: no config meets the conditions`);
    assert.deepEqual(checkConfig(JSON.stringify(config)), [], `${name}: the engine refuses its configuration`);
  }
});

test('every quote is in its paper’s text', { skip: !HAVE_PAPERS && `the papers’ texts (${PAPERS_DIR}) are not in this checkout` }, async () => {
  for (const e of PAPER_VALUES) {
    const paper = squeeze(await readFile(join(PAPERS_DIR, e.paper.file), 'utf8'));
    assert.ok(paper.includes(squeeze(e.quote)), `${e.paper.short}, ${e.where}: “${e.quote}” is not in ${e.paper.file}`);
  }
});

test('matching is exact on what the paper fixes and says nothing elsewhere', () => {
  // The dragonfly paper's 1K network (Fig. 8(b)): VAL on group shift, 16-flit buffers.
  const val = model.complete({
    topology: { type: 'dragonfly', p: 4, a: 8, h: 4, g: 33 },
    routing: { algorithm: 'val' },
    traffic: { pattern: 'group_shift' },
    router: { vcs: 3, buffer_depth: 16 },
  });
  const found = paperValuesFor(val);
  assert.equal(found.length, 1);
  assert.equal(found[0].value, 0.5);
  assert.match(found[0].quote, /slightly under 50%/);
  const off = (path, value) => {
    const c = structuredClone(val);
    setPath(c, path, value);
    return paperValuesFor(c);
  };
  for (const [path, value] of [
    ['topology.g', 17],
    ['topology.h', 2],
    ['router.buffer_depth', 8],
    ['traffic.packet_size', 4],
    ['traffic.shift', 2],
    ['traffic.pattern', 'tornado'],
    ['faults.links', [[0, 1]]],
    ['faults.random_fraction', 0.01],
  ]) {
    assert.deepEqual(off(path, value), [], `${path} = ${JSON.stringify(value)} still matches`);
  }
  // What the paper does not fix does not matter; buffering matches however it is spelled.
  assert.equal(off('topology.arrangement', 'palmtree').length, 1);
  assert.equal(off('router.speedup', 4).length, 1);
  const perPort = structuredClone(val);
  perPort.router.buffer_per_port = 48; // 3 VCs × 16 flits
  assert.equal(paperValuesFor(perPort).length, 1);
  assert.equal(off('traffic.pattern', 'uniform')[0].quote, 'VAL achieves approximately half of the network capacity');
  assert.equal(off('routing.algorithm', 'min')[0].stated, '1/32');
  assert.deepEqual(off('routing.algorithm', 'ugal_l'), [], 'UGAL-L on WC: the paper gives no number');
  // The page's default experiment and the 72-node dragonfly: no paper value.
  assert.deepEqual(paperValuesFor(model.complete({})), []);
  assert.deepEqual(paperValuesFor(model.complete({ topology: { type: 'dragonfly' }, routing: { algorithm: 'val' }, traffic: { pattern: 'group_shift' } })), []);
});

test('the presets whose sweeps show a paper value', () => {
  const shown = {};
  for (const p of PRESETS) {
    const variants = model.variants(presetExperiment(model, p));
    const values = variants.map((v) => paperValuesFor(v.config).map((e) => `${e.paper.short} ${e.where}: ${e.value}`));
    if (values.some((v) => v.length)) shown[p.id] = values;
  }
  assert.deepEqual(shown, {
    'greedy-vs-sequential': Array(3).fill(['Flattened butterfly (ISCA 2007) Fig. 4(b), §3.2: 0.5']),
    '2dfb-adaptive': [['Thamarakuzhi & Chandy Fig. 4, §IV-A: 1'], ['Thamarakuzhi & Chandy Fig. 4, §IV-A: 0.5']],
  });
});

/**
 * The sweep plot's canvas columns in `colour`: per column, the share of its rows in that
 * colour and the number of separate runs of them (a dashed vertical line has many).
 */
function columnsIn(page, colour) {
  return page.evaluate((colour) => {
    const c = document.getElementById('plot-sweep');
    const { data, width, height } = c.getContext('2d').getImageData(0, 0, c.width, c.height);
    const rgb = [1, 3, 5].map((i) => parseInt(colour.slice(i, i + 2), 16));
    const columns = [];
    for (let x = 0; x < width; x++) {
      let rows = 0;
      let runs = 0;
      let inRun = false;
      for (let y = 0; y < height; y++) {
        const k = 4 * (y * width + x);
        const hit = rgb.every((v, j) => Math.abs(data[k + j] - v) < 24);
        if (hit && !inRun) runs++;
        if (hit) rows++;
        inRun = hit;
      }
      columns.push({ share: rows / height, runs });
    }
    return columns;
  }, colour);
}

test("the 2DFB story's sweep draws the paper's values as dashed lines, its source named", { timeout: 180_000 }, async () => {
  const { page, errors } = await env.open('?preset=2dfb-adaptive&paused=1', { state: 'paused' });
  await page.fill('#sweep-loads', '0.3, 0.6');
  await page.click('#btn-sweep');
  await page.waitForFunction(() => !window.hiradix.sweep.running && window.hiradix.sweep.series[1]?.points.length === 2, null, { timeout: 150_000 });
  await page.waitForSelector('#sweep-paper-values li >> nth=1', { timeout: 10_000 });
  const items = await page.$$eval('#sweep-paper-values li', (lis) => lis.map((li) => ({ text: li.textContent, title: li.title })));
  assert.equal(items.length, 2);
  assert.match(items[0].text, /^Dashed line at 1 \(100%\) \(A\): “2DFB also provides throughput which is very close to 100%/);
  assert.match(items[1].text, /^Dashed line at 0\.5 \(50%\) \(B\): “it provides 50% throughput for adversarial traffic pattern”/);
  for (const item of items) {
    assert.match(item.text, /Thamarakuzhi, Chandy: “Adaptive Load Balanced Routing for 2-Dilated Flattened Butterfly Switching Network”, Fig\. 4, §IV-A\.$/);
    assert.match(item.title, /saturation throughput, as a fraction of capacity/);
  }
  assert.match(items[1].title, /stated for: Minimal on adversarial traffic, 8-ary 1-dimensional 2DFB \(N = 64\)/);
  const title = await page.getAttribute('#plot-sweep', 'title');
  assert.ok(title.includes(items[0].title) && title.includes(items[1].title), title);
  assert.ok(parseFloat(await page.$eval('#sweep-paper-values', (e) => getComputedStyle(e).fontSize)) >= 12);
  // The lines: B's (orange) at offered load 0.5, A's (blue) at 1, dashed (a run every
  // 10 px from the label band to the axis), where the axes put them: x from 0 to 1 between
  // the left margin (46 px) and the right one (10 px).
  const width = await page.$eval('#plot-sweep', (c) => c.width);
  const column = (columns, x) => {
    const at = Math.round(46 + x * (width - 56));
    return columns.slice(at - 1, at + 2).reduce((a, b) => (b.share > a.share ? b : a));
  };
  const orange = await columnsIn(page, '#e69f00');
  const blue = await columnsIn(page, '#0072b2');
  for (const [name, line] of [['B at 0.5', column(orange, 0.5)], ['A at 1', column(blue, 1)]]) {
    assert.ok(line.share > 0.3 && line.runs >= 10, `${name}: ${JSON.stringify(line)}`);
  }
  assert.ok(column(orange, 0.3).share < 0.1 && column(blue, 0.75).share < 0.1, 'no line elsewhere');
  assert.deepEqual(errors, []);
  await page.close();
});

test("a configuration built in the link, the dragonfly paper's 1K network, shows its Fig. 8(b) values", { timeout: 180_000 }, async () => {
  const query = '?topology.type=dragonfly&topology.p=4&topology.a=8&topology.h=4&topology.g=33&traffic.pattern=group_shift&router.vcs=3&router.buffer_depth=16&vary=routing.algorithm&values=min|val&paused=1';
  const { page, errors } = await env.open(query, { state: 'paused' });
  await page.fill('#sweep-loads', '0.02');
  await page.click('#btn-sweep');
  // The values are known when the sweep starts: no need to wait for a point of the 1K
  // network (closing the page ends the sweep).
  await page.waitForSelector('#sweep-paper-values li >> nth=1', { timeout: 30_000 });
  const texts = await page.$$eval('#sweep-paper-values li', (lis) => lis.map((li) => li.textContent));
  assert.equal(texts.length, 2);
  assert.match(texts[0], /^Dashed line at 0\.031 \(1\/32\) \(A\): “Because MIN forwards all of the traffic from each group across a single channel, its throughput is limited to” \(1\/32\)/);
  assert.match(texts[1], /^Dashed line at 0\.5 \(50%\) \(B\): “VAL achieves slightly under 50% throughput”/);
  for (const t of texts) assert.match(t, /Kim, Dally, Scott, Abts: “Technology-Driven, Highly-Scalable Dragonfly Topology”, ISCA 2008, Fig\. 8\(b\), §4\.2\.$/);
  assert.deepEqual(errors, []);
  await page.close();
});

test('a sweep no paper states a value for draws none and says nothing', { timeout: 120_000 }, async () => {
  const { page, errors } = await env.open('?paused=1', { state: 'paused' });
  await page.fill('#sweep-loads', '0.1');
  await page.click('#btn-sweep');
  await page.waitForFunction(() => !window.hiradix.sweep.running && window.hiradix.sweep.series[0]?.points.length === 1, null, { timeout: 100_000 });
  await page.waitForTimeout(300);
  assert.equal(await page.isVisible('#sweep-paper-values li'), false);
  assert.equal(await page.$eval('#plot-sweep', (c) => c.hasAttribute('title')), false);
  assert.deepEqual(errors, []);
  await page.close();
});
