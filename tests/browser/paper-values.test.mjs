// The papers' stated saturation throughputs beside the sweep's curves (www/stories/paper-values.js):
// every entry of the table is the paper's (its quote is in the paper's text, its value in
// the quote or in the project's claims), names its source and its configuration is one the
// engine runs; every parameter of a configuration is a condition (the paper's value, one
// its words leave open, or the engine's neutral default), so a sweep whose configuration is
// the paper's draws the value as a dashed line with its source named, and any other sweep
// — a sliced, trunked, tapered or failed-link network among them — draws nothing.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ROOT } from './harness.mjs';
import { setup } from './page-helpers.mjs';
import {
  DERIVED,
  FREE,
  NEUTRAL,
  PAPER_VALUES,
  QUANTITY,
  UNCONFIRMED,
  meets,
  paperValuesFor,
  readerOf,
  referenceLabel,
  referenceSource,
  referenceTooltip,
  sweepReferences,
} from '../../www/stories/paper-values.js';
import { Model, flatten, getPath, setPath } from '../../www/model/experiment.js';
import { BUILTIN_STORIES, loadStories, presetExperiment } from '../../www/stories/presets.js';
import { sweptConfig } from '../../www/sim/sweep.js';
import { checkConfig, checkStory, catalog, initSync } from '../../pkg/hiradix.js';

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
let reads;
let env;
before(async () => {
  initSync({ module: await readFile(join(ROOT, 'pkg', 'hiradix_bg.wasm')) });
  model = new Model(catalog());
  reads = readerOf(model);
  env = await setup();
});
after(async () => {
  await env?.close();
});

/** A value a condition accepts: the first of a oneOf, the least of an atLeast; none if open. */
function sample(wanted) {
  if (wanted?.atLeast !== undefined) return wanted.atLeast;
  if (wanted?.oneOf) return wanted.oneOf[0];
  return wanted;
}
const isOpen = (wanted) => Boolean(wanted?.open) && wanted.atLeast === undefined;

/** A complete config meeting an entry's conditions (open ones left at their defaults). */
function configMeeting(when) {
  const partial = {};
  for (const [key, wanted] of Object.entries(when)) {
    if (!DERIVED.has(key) && !isOpen(wanted)) setPath(partial, key, sample(wanted));
  }
  const config = model.complete(partial);
  if (when['flits per VC'] !== undefined) config.router.buffer_depth = when['flits per VC'];
  if (when['flits per port'] !== undefined) config.router.buffer_per_port = when['flits per port'];
  return config;
}

/** `config` with `path` set to `value`. */
function withSetting(config, path, value) {
  const c = structuredClone(config);
  setPath(c, path, value);
  return c;
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
    assert.ok(
      e.quote.includes(e.stated) || claims.includes(e.stated),
      `${name}: '${e.stated}' is neither in the quote nor in src/figures/claims/${e.paper.claims}`,
    );
    assert.ok(Math.abs(statedNumber(e.stated) - e.value) < 1e-12, `${name}: '${e.stated}' is not ${e.value}`);
    assert.ok(e.value > 0 && e.value <= 1, `${name}: a fraction of capacity`);
    // Its conditions name config paths of its network (or a derived quantity), and a config
    // meeting them is one the engine builds.
    const type = e.when['topology.type'];
    for (const key of Object.keys(e.when)) assert.ok(DERIVED.has(key) || model.knownPath(key, type), `${name}: '${key}' is no config path of a ${type}`);
    const config = configMeeting(e.when);
    assert.ok(meets(config, e.when), `${name}: no config meets the conditions`);
    assert.deepEqual(checkConfig(JSON.stringify(config)), [], `${name}: the engine refuses its configuration`);
    assert.deepEqual(paperValuesFor(config, reads), [e], `${name}: its configuration draws exactly this value`);
    // Every open condition says why, in the paper's words (their text: the quotes test).
    for (const [key, wanted] of Object.entries(e.when)) {
      if (wanted?.open) assert.ok(wanted.quote && typeof wanted.open === 'string', `${name}: '${key}' is open without the paper's words`);
    }
    // A contradiction: both readings quoted, the one drawn being the value stated (its quote).
    if (e.readings) {
      assert.ok(e.readings.length >= 2, `${name}: readings`);
      const drawn = e.readings.filter((r) => r.value === e.value);
      assert.equal(drawn.length, 1, `${name}: exactly one reading is the value drawn`);
      assert.ok(drawn[0].quotes.includes(e.quote), `${name}: the reading drawn is the paper's statement of its figure`);
      for (const r of e.readings) assert.ok(r.quotes.length && r.reading && r.where, `${name}: a reading names its words and what it means`);
    }
  }
});

test('every quote is in its paper’s text', { skip: !HAVE_PAPERS && `the papers’ texts (${PAPERS_DIR}) are not in this checkout` }, async () => {
  const texts = new Map();
  const paperText = async (file) => {
    if (!texts.has(file)) texts.set(file, squeeze(await readFile(join(PAPERS_DIR, file), 'utf8')));
    return texts.get(file);
  };
  const check = async (entry, quote, what) => {
    assert.ok(
      (await paperText(entry.paper.file)).includes(squeeze(quote)),
      `${entry.paper.short}, ${entry.where}, ${what}: “${quote}” is not in ${entry.paper.file}`,
    );
  };
  for (const e of PAPER_VALUES) {
    await check(e, e.quote, 'the value');
    // The words that leave a parameter open, or allow several values.
    for (const [key, wanted] of Object.entries(e.when)) if (wanted?.quote) await check(e, wanted.quote, key);
    for (const r of e.readings ?? []) for (const q of r.quotes) await check(e, q, `reading ${r.where}`);
  }
  for (const u of UNCONFIRMED) for (const q of u.quotes) await check(u, q, 'unconfirmed');
});

test('every parameter is a condition: NEUTRAL is the engine’s default, and none is left unclassified', () => {
  const dragonfly = model.complete({ topology: { type: 'dragonfly' } });
  for (const [path, value] of Object.entries(NEUTRAL)) {
    assert.deepEqual(getPath(dragonfly, path), value, `NEUTRAL ${path} is not the engine's default`);
  }
  // Every parameter of every network type is NEUTRAL, FREE or one the entries of that type
  // state (the network's own parameters); the rest of the config likewise.
  const named = new Set(['topology.type', 'routing.algorithm', 'traffic.pattern']);
  for (const t of model.catalog.topologies) {
    const entries = PAPER_VALUES.filter((e) => e.when['topology.type'] === t.name);
    for (const [path] of flatten(model.complete({ topology: { type: t.name } }))) {
      if (Object.hasOwn(NEUTRAL, path) || FREE.has(path) || named.has(path)) continue;
      assert.ok(path.startsWith('topology.'), `${path}: neither NEUTRAL nor FREE`);
      for (const e of entries) assert.ok(Object.hasOwn(e.when, path), `${e.paper.short}, ${e.where}: ${e.cases}: does not state ${path}`);
    }
  }
  // A parameter no rule names (one the engine gains later) matches nothing.
  const val = configMeeting(PAPER_VALUES[0].when);
  assert.equal(paperValuesFor(val, reads).length, 1);
  assert.deepEqual(paperValuesFor(withSetting(val, 'router.future_knob', 3), reads), []);
});

test('matching is exact on what the paper fixes, open where its words leave a setting open, and neutral elsewhere', () => {
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
  const off = (path, value) => paperValuesFor(withSetting(val, path, value), reads);
  for (const [path, value] of [
    // What the paper states.
    ['topology.g', 17],
    ['topology.h', 2],
    ['router.buffer_depth', 8],
    ['router.vcs', 4],
    ['router.pipeline_delay', 2],
    ['traffic.packet_size', 4],
    ['traffic.shift', 2],
    ['traffic.pattern', 'tornado'],
    // What the paper's network has not got, and router settings it does not leave open.
    ['topology.slices', 2],
    ['topology.intra', [2, 4]],
    ['topology.intra_trunking', [2]],
    ['topology.taper', [[0, 1, 1]]],
    ['faults.links', [[0, 1]]],
    ['faults.random_fraction', 0.01],
    ['router.terminal_period', 2],
    ['router.local_latency', 2],
    ['router.global_latency', 10],
    ['router.speedup', 1],
    ['traffic.injection', 'batch'],
  ]) {
    assert.deepEqual(off(path, value), [], `${path} = ${JSON.stringify(value)} still matches`);
  }
  // What the paper leaves open, or allows either way, does not matter; nor does the
  // measurement, nor a setting the configuration does not read (with the catalog's reader).
  for (const [path, value] of [
    ['topology.arrangement', 'palmtree'],
    ['router.speedup', 4],
    ['router.output_queue', 48],
    ['router.switch_allocator', 'islip'],
    ['routing.allocator', 'sequential'],
    ['routing.intermediate_group', 'other'],
    ['topology.slice_policy', 'random'],
    ['seed', 7],
    ['measurement.warmup', 500],
    ['traffic.load', 0.3],
    ['traffic.batch_size', 8],
    ['routing.crt0', 40],
  ]) {
    assert.equal(off(path, value).length, 1, `${path} = ${JSON.stringify(value)} no longer matches`);
  }
  assert.deepEqual(paperValuesFor(withSetting(val, 'routing.crt0', 40)), [], 'without the reader every setting counts as read');
  const perPort = structuredClone(val);
  perPort.router.buffer_per_port = 48; // 3 VCs × 16 flits
  assert.equal(paperValuesFor(perPort).length, 1);
  assert.equal(off('traffic.pattern', 'uniform')[0].quote, 'VAL achieves approximately half of the network capacity');
  assert.equal(off('routing.algorithm', 'min')[0].stated, '1/32');
  assert.equal(paperValuesFor(withSetting(withSetting(val, 'routing.algorithm', 'min'), 'router.vcs', 2), reads)[0].stated, '1/32', 'MIN: 2 VCs or 3');
  assert.deepEqual(off('routing.algorithm', 'ugal_l'), [], 'UGAL-L on WC: the paper gives no number');
  // The page's default experiment and the 72-node dragonfly: no paper value.
  assert.deepEqual(paperValuesFor(model.complete({}), reads), []);
  assert.deepEqual(
    paperValuesFor(model.complete({ topology: { type: 'dragonfly' }, routing: { algorithm: 'val' }, traffic: { pattern: 'group_shift' } }), reads),
    [],
  );
});

test('no paper value on a sliced, trunked, tapered or failed-link network; the same network intact still draws it', () => {
  const dragonfly = model.complete({
    topology: { type: 'dragonfly', p: 4, a: 8, h: 4, g: 33 },
    routing: { algorithm: 'val' },
    traffic: { pattern: 'group_shift' },
    router: { vcs: 3, buffer_depth: 16 },
  });
  const hyperx = model.complete({
    topology: { type: 'hyperx', s: [8, 8, 8], k: [1], t: 8 },
    routing: { algorithm: 'dal' },
    traffic: { pattern: 'swap2' },
    router: { vcs: 6, buffer_depth: 32, pipeline_delay: 4, switch_allocator: 'islip', speedup: 2 },
  });
  const clos = model.complete({
    topology: { type: 'folded_clos', down: [8, 8], up: [8] },
    routing: { algorithm: 'updown_ad' },
    traffic: { pattern: 'benign' },
    router: { terminal_period: 2 },
  });
  const fb = model.complete({ topology: { type: 'flattened_butterfly', k: 32, n: 2 }, routing: { algorithm: 'ugal_s' }, traffic: { pattern: 'router_shift' } });
  const drawn = (config) => sweepReferences([{ name: 'A', config }], reads).map((r) => r.entry.value);
  for (const [name, plain, path, value] of [
    ['a sliced dragonfly (slices = 2)', dragonfly, 'topology.slices', 2],
    ['trunked dragonfly groups (intra_trunking)', dragonfly, 'topology.intra_trunking', [2]],
    ['flattened-butterfly dragonfly groups (intra)', dragonfly, 'topology.intra', [2, 4]],
    ['a tapered dragonfly (taper)', dragonfly, 'topology.taper', [[0, 1, 1]]],
    ['a failed link (faults.links)', dragonfly, 'faults.links', [[0, 1]]],
    ['a random fraction of failed links', dragonfly, 'faults.random_fraction', 0.01],
    ['a trunked HyperX (K = 2)', hyperx, 'topology.k', [2]],
    ['a failed HyperX link', hyperx, 'faults.links', [[0, 1]]],
    ['a tapered folded Clos (up < down)', clos, 'topology.up', [4]],
    ['a failed flattened-butterfly link', fb, 'faults.links', [[0, 1]]],
    ['flattened-butterfly links failing at random', fb, 'faults.random_fraction', 0.05],
  ]) {
    assert.equal(drawn(plain).length, 1, `${name}: the intact network draws its value`);
    const changed = withSetting(plain, path, value);
    assert.deepEqual(checkConfig(JSON.stringify(changed)), [], `${name}: the engine builds it`);
    assert.deepEqual(drawn(changed), [], `${name} draws a paper value`);
  }
});

test('the text’s unconfirmed values are not drawn; a contradiction names both readings', () => {
  // FB Fig. 12(a): the 2-ary 12-flat of Table 4 (n' = 11).
  assert.deepEqual(
    UNCONFIRMED.map((u) => u.cases),
    ['VAL on uniform random traffic, 2-ary 12-flat (N = 4K)'],
  );
  const flat = (k, n) =>
    model.complete({ topology: { type: 'flattened_butterfly', k, n }, routing: { algorithm: 'val' }, router: { vcs: 2, buffer_per_port: 64 } });
  assert.deepEqual(paperValuesFor(flat(2, 12), reads), []);
  assert.deepEqual(
    paperValuesFor(flat(4, 6), reads).map((e) => e.where),
    ['Fig. 12(a), §5.1.1'],
  );
  assert.ok(!PAPER_VALUES.some((e) => e.when['topology.k'] === 2 && e.when['topology.n'] === 12));
  // 2DFB Minimal on adversarial traffic: 50 % (Fig. 4's text) or 2/8 (the pattern's definition).
  const minimal = model.complete({
    topology: { type: 'dilated_flattened_butterfly', k: 8, n: 2 },
    routing: { algorithm: 'min' },
    traffic: { pattern: 'adversarial' },
    router: { terminal_period: 2 },
  });
  const [ref] = sweepReferences([{ name: 'B', config: minimal }], reads);
  assert.deepEqual(
    ref.entry.readings.map((r) => r.value),
    [0.5, 0.25],
  );
  assert.equal(referenceLabel(ref, 2), 'paper, B: 0.5 (50%), one of 2 readings — Thamarakuzhi & Chandy, Fig. 4');
  const source = referenceSource(ref, 2);
  assert.match(
    source,
    /^Dashed line at 0\.5 \(50%\) \(B\): “it provides 50% throughput for adversarial traffic pattern” — .*, Fig\. 4, §IV-A\. One of 2 readings, for the paper contradicts itself: the line is what it states of Fig\. 4, which holds for two links per switch pair/,
  );
  assert.match(
    source,
    /“only two end-terminals which are connected to a switching element can send traffic through the direct link” \(§II-A, §IV\), .*2\/8 = 25 %\.$/,
  );
  assert.ok(referenceTooltip(ref, 2).startsWith(source));
  // Minimal on benign traffic holds under both readings: no caveat.
  const benign = withSetting(minimal, 'traffic.pattern', 'benign');
  assert.doesNotMatch(referenceSource(sweepReferences([{ name: 'A', config: benign }], reads)[0], 1), /readings/);
});

test('the presets whose sweeps show a paper value', async () => {
  const shown = {};
  const { stories, problems } = await loadStories((name) => readFile(new URL(name, BUILTIN_STORIES), 'utf8'), checkStory);
  assert.deepEqual(problems, []);
  assert.equal(stories.length, 7);
  for (const p of stories) {
    const variants = model.variants(presetExperiment(model, p));
    // As the sweep runs them (Bernoulli injection), with the page's reader.
    const values = variants.map((v) => paperValuesFor(sweptConfig(v.config), reads).map((e) => `${e.paper.short} ${e.where}: ${e.value}`));
    if (values.some((v) => v.length)) shown[p.id] = values;
  }
  // Greedy vs sequential (the engine's 4 VCs × 8 flits = 32 per port): UGAL and UGAL-S,
  // whose VCs the FB paper does not count; not CLOS AD, which Table 1 gives 2 VCs.
  const fig4b = ['Flattened butterfly (ISCA 2007) Fig. 4(b), §3.2: 0.5'];
  assert.deepEqual(shown, {
    'greedy-vs-sequential': [fig4b, fig4b, []],
    '2dfb-adaptive': [['Thamarakuzhi & Chandy Fig. 4, §IV-A: 1'], ['Thamarakuzhi & Chandy Fig. 4, §IV-A: 0.5']],
  });
  // The channel-slicing and failed-link stories: none.
  assert.ok(!shown['channel-slicing'] && !shown['dal-failed-links']);
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
    assert.match(item.text, /Thamarakuzhi, Chandy: “Adaptive Load Balanced Routing for 2-Dilated Flattened Butterfly Switching Network”, Fig\. 4, §IV-A\./);
    assert.match(item.title, /saturation throughput, as a fraction of capacity/);
  }
  // B's value is one of the paper's two readings: the list and the tooltip say so.
  assert.match(items[0].text, /§IV-A\.$/);
  for (const text of [items[1].text, items[1].title]) {
    assert.match(text, /One of 2 readings, for the paper contradicts itself/);
    assert.match(text, /“only two end-terminals which are connected to a switching element can send traffic through the direct link”/);
    assert.match(text, /2\/8 = 25 %/);
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
  for (const [name, line] of [
    ['B at 0.5', column(orange, 0.5)],
    ['A at 1', column(blue, 1)],
  ]) {
    assert.ok(line.share > 0.3 && line.runs >= 10, `${name}: ${JSON.stringify(line)}`);
  }
  assert.ok(column(orange, 0.3).share < 0.1 && column(blue, 0.75).share < 0.1, 'no line elsewhere');
  assert.deepEqual(errors, []);
  await page.close();
});

test("a configuration built in the link, the dragonfly paper's 1K network, shows its Fig. 8(b) values", { timeout: 180_000 }, async () => {
  const query =
    '?topology.type=dragonfly&topology.p=4&topology.a=8&topology.h=4&topology.g=33&traffic.pattern=group_shift&router.vcs=3&router.buffer_depth=16&vary=routing.algorithm&values=min|val&paused=1';
  const { page, errors } = await env.open(query, { state: 'paused' });
  await page.fill('#sweep-loads', '0.02');
  await page.click('#btn-sweep');
  // The values are known when the sweep starts: no need to wait for a point of the 1K
  // network (closing the page ends the sweep).
  await page.waitForSelector('#sweep-paper-values li >> nth=1', { timeout: 30_000 });
  const texts = await page.$$eval('#sweep-paper-values li', (lis) => lis.map((li) => li.textContent));
  assert.equal(texts.length, 2);
  assert.match(
    texts[0],
    /^Dashed line at 0\.031 \(1\/32\) \(A\): “Because MIN forwards all of the traffic from each group across a single channel, its throughput is limited to” \(1\/32\)/,
  );
  assert.match(texts[1], /^Dashed line at 0\.5 \(50%\) \(B\): “VAL achieves slightly under 50% throughput”/);
  for (const t of texts) assert.match(t, /Kim, Dally, Scott, Abts: “Technology-Driven, Highly-Scalable Dragonfly Topology”, ISCA 2008, Fig\. 8\(b\), §4\.2\.$/);
  assert.deepEqual(errors, []);
  await page.close();
});

test("beside the dragonfly paper's 1K network, the same network sliced in two draws no paper value", { timeout: 180_000 }, async () => {
  const query =
    '?topology.type=dragonfly&topology.p=4&topology.a=8&topology.h=4&topology.g=33&routing.algorithm=val&traffic.pattern=group_shift&router.vcs=3&router.buffer_depth=16&vary=topology.slices&values=1|2&paused=1';
  const { page, errors } = await env.open(query, { state: 'paused' });
  await page.fill('#sweep-loads', '0.02');
  await page.click('#btn-sweep');
  await page.waitForSelector('#sweep-paper-values li', { timeout: 30_000 });
  await page.waitForTimeout(300);
  const texts = await page.$$eval('#sweep-paper-values li', (lis) => lis.map((li) => li.textContent));
  assert.equal(texts.length, 1, texts.join('\n'));
  assert.match(texts[0], /^Dashed line at 0\.5 \(50%\) \(A\): “VAL achieves slightly under 50% throughput”/);
  const title = await page.getAttribute('#plot-sweep', 'title');
  assert.doesNotMatch(title, /\(B\)/);
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
