// Hostile share links, generated: the page must take any URL without running injected
// script, polluting a prototype, crashing, widening the page or silently keeping what it
// refuses (docs/reliability.md). A seeded generator builds each link from parts — prototype keys
// (__proto__, constructor, prototype) at every position of a config path, markup and
// javascript: in keys and values, huge and odd numbers (1e309, 309-digit integers, -0,
// NaN), JSON nested 10 000 deep, unknown keys, invalid percent-escapes, 100 kB values,
// vary/values, preset, trace, zoom/center, metric, speed and the cost view's keys, and
// heavy but valid experiments run for a while (large source queues, buffers and rewind
// history, side by side), and story links (`?story=`, built-in stories mutated and hostile
// payloads; storyLink below) — and the links are loaded one after another in one page. For
// each:
//
// - no uncaught error (pageerror), no dialog (alert), `window.__pwned` (what every payload
//   sets) still undefined;
// - Object.prototype and the other built-in prototypes unchanged, `({}).polluted` undefined;
// - no horizontal scroll at 1366×768; no "internal error" banner;
// - a link holding something that must be refused shows a visible message (the notice or
//   a message next to a control);
// - the URL the page writes back holds none of the payloads;
// - a heavy link, after running 1.5 s: no crash, and each simulation worker's heap (its
//   counting allocator) never past the most its simulations reserved (src/web/budget.rs).
//
// HIRADIX_URL_FUZZ_COUNT links (default 120, under a minute on a 2-core machine), seed
// HIRADIX_URL_FUZZ_SEED (default 15); with HIRADIX_URL_FUZZ_REPORT set, the figures and
// failures are also written there as JSON. scripts/fuzz-page.sh runs thousands.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile, readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { deflateRawSync } from 'node:zlib';
import { ROOT, launchBrowser, startServer } from './harness.mjs';

const COUNT = Number(process.env.HIRADIX_URL_FUZZ_COUNT ?? 120);
const SEED = Number(process.env.HIRADIX_URL_FUZZ_SEED ?? 15);
// Only these links of the sequence (e.g. "898,1323"): to replay a campaign's failures.
const ONLY = process.env.HIRADIX_URL_FUZZ_ONLY ? new Set(process.env.HIRADIX_URL_FUZZ_ONLY.split(',').map(Number)) : null;
const WIDTH = 1366;
const HEIGHT = 768;
// Each link's load is bounded: past this the page counts as hung.
const LOAD_MS = 20_000;
// How long a heavy link runs before its workers' memory is read.
const LONG_RUN_MS = 1_500;

let server;
let browser;
before(async () => {
  server = await startServer(undefined, { cache: true });
  browser = await launchBrowser({ width: WIDTH, height: HEIGHT });
});
after(async () => {
  await browser?.close();
  await server?.close();
});

// ------------------------------------------------------------------ seeded generator

/** mulberry32: a small seeded PRNG, so a failing link can be regenerated from its seed. */
function rngFrom(seed) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    int: (n) => Math.floor(next() * n),
    pick: (xs) => xs[Math.floor(next() * xs.length)],
    chance: (p) => next() < p,
  };
}

const PROTO = ['__proto__', 'constructor', 'prototype'];
const PWN = 'window.__pwned=1';
const MARKUP = [
  `<img src=x onerror="${PWN};alert(1)">`,
  `<script>${PWN};alert(1)</script>`,
  `javascript:${PWN};alert(1)`,
  `"><svg onload="${PWN}">`,
  `'><iframe srcdoc="<script>parent.${PWN}</script>">`,
  `<a href="javascript:${PWN}">x</a>`,
];
const DIGITS_309 = `1${'0'.repeat(308)}`;
// Values that must be refused wherever a config parameter takes them.
const HOSTILE_VALUES = [
  ...MARKUP,
  '{"__proto__":{"polluted":1}}',
  '{"constructor":{"prototype":{"polluted":1}}}',
  `{"x":"<img src=x onerror=${PWN}>"}`,
  '{"polluted":1}',
  '[{"__proto__":{"polluted":1}}]',
  '1e309',
  '-1e309',
  DIGITS_309,
  `-${DIGITS_309}`,
  `${DIGITS_309}.5`,
  'NaN',
  'Infinity',
  '[1e309]',
  `${'['.repeat(10_000)}${']'.repeat(10_000)}`,
  `${'['.repeat(500)}1${']'.repeat(500)}`,
  `${'{"a":'.repeat(300)}1${'}'.repeat(300)}`,
  'x'.repeat(100_000),
  '9'.repeat(100_000),
  `[${'1,'.repeat(30_000)}1]`,
  '__proto__',
  'constructor',
  'toString',
];
// Percent-escapes that are not UTF-8 (written into the URL as they are).
const BAD_ESCAPES = ['%E0%A4%A', '%', '%ZZ', '%C0%AF', '%FF%FE', '%ED%A0%80', '%E0%A4'];
// Values that may or may not be used, but must never break anything.
const ODD_VALUES = ['-0', '0', 'null', 'true', '[]', '', ' ', '1', '4', '0.3', '4294967295', '9007199254740993', '1e-320'];

/**
 * One link: {query, hostile, parts} — `hostile` when some part must be refused (so a
 * message must show). `cat` holds the catalog's paths and names (read from the page).
 */
function generate(rng, cat) {
  const parts = [];
  let hostile = false;
  let long = false;
  const add = (key, value, { refuse = false, raw = false } = {}) => {
    parts.push(raw ? `${key}=${value}` : `${encodeURIComponent(key)}=${encodeURIComponent(value)}`);
    if (refuse) hostile = true;
  };
  const anyValue = () => (rng.chance(0.7) ? rng.pick(HOSTILE_VALUES) : rng.pick(ODD_VALUES));
  const protoPath = () => {
    const segs = rng.pick(cat.paths).split('.');
    const at = rng.int(segs.length + 1);
    if (at === segs.length) segs.push(rng.pick(PROTO));
    else if (rng.chance(0.5)) segs[at] = rng.pick(PROTO);
    else segs.splice(at, 0, rng.pick(PROTO));
    if (rng.chance(0.4)) segs.push('polluted');
    return segs.join('.');
  };
  const n = 1 + rng.int(4);
  for (let i = 0; i < n; i++) {
    switch (rng.int(17)) {
      case 0:
      case 1: {
        // A prototype key somewhere in a config path.
        const value = rng.pick(['1', '{}', '{"polluted":1}', '{"x":"<img src=x onerror=window.__pwned=1>"}', ...MARKUP]);
        add(protoPath(), value, { refuse: true });
        break;
      }
      case 2:
        add(rng.pick([...MARKUP, 'polluted', 'a.b.c', 'topology.type.x', 'router', 'seed.x', 'hasOwnProperty', 'toString.call']), anyValue(), { refuse: true });
        break;
      case 3:
        // Invalid escapes in the key (written raw).
        add(`${rng.pick(cat.paths)}${rng.pick(BAD_ESCAPES)}`, encodeURIComponent(anyValue()), { refuse: true, raw: true });
        break;
      case 4:
      case 5:
      case 6: {
        // A known parameter with a value that must be refused.
        add(rng.pick(cat.paths), rng.pick(HOSTILE_VALUES), { refuse: true });
        break;
      }
      case 7:
        // A known parameter with invalid escapes in its value.
        add(encodeURIComponent(rng.pick(cat.paths)), `4${rng.pick(BAD_ESCAPES)}`, { refuse: true, raw: true });
        break;
      case 8:
        // A known parameter with an odd or a valid value: may be used, may be refused.
        add(rng.pick(cat.paths), rng.chance(0.5) ? rng.pick(ODD_VALUES) : rng.pick([...cat.names, '0.5', '2', '[2,2]']));
        break;
      case 9: {
        // Side by side.
        const param = rng.chance(0.5) ? rng.pick(cat.variable) : rng.chance(0.5) ? protoPath() : rng.pick(MARKUP);
        const k = rng.int(5);
        const hostileValues = rng.chance(0.6);
        const values = Array.from({ length: k }, () => (hostileValues ? rng.pick(HOSTILE_VALUES) : rng.pick([...cat.names, '0.2', '3', '1'])));
        const refuse = !cat.variable.includes(param) || k < 2 || k > 3 || hostileValues;
        add('vary', param, { refuse });
        add('values', values.join('|'));
        break;
      }
      case 10:
        if (rng.chance(0.4)) add('preset', rng.pick(cat.presets));
        else add('preset', rng.pick([...MARKUP, ...PROTO, 'toString', 'hasOwnProperty', DIGITS_309]), { refuse: true });
        break;
      case 11:
        if (rng.chance(0.3)) add('trace', `${rng.int(8)}@${rng.int(50)}`);
        else add('trace', rng.pick([...MARKUP, '1e309@1', '-0@0', `${DIGITS_309}@1`, '__proto__', '1@', '@1', 'NaN@NaN']), { refuse: true });
        break;
      case 12:
        if (rng.chance(0.3)) {
          add('zoom', rng.pick(['2', '0.5', '10']));
          add('center', rng.pick(['0.4,0.6', '0.5,0.5']));
        } else {
          add('zoom', rng.pick(['1e309', 'NaN', '-0', '-1', DIGITS_309, ...MARKUP]), { refuse: true });
          if (rng.chance(0.5)) add('center', rng.pick(['1e309,1', `${DIGITS_309},0`, '0.5', 'a,b', ...MARKUP]));
        }
        break;
      case 13: {
        const key = rng.pick(['metric', 'speed', 'cells', 'smooth', 'paused']);
        if (rng.chance(0.3)) add(key, key === 'metric' ? rng.pick(['occupancy', 'utilization', 'vc1']) : rng.pick(['0', '1']));
        else add(key, rng.pick([...MARKUP, '1e309', 'NaN', '-0', DIGITS_309, '__proto__', `x${'y'.repeat(5000)}`]), { refuse: true });
        break;
      }
      case 14: {
        // The cost view's keys.
        const key = rng.pick(['n', 'radix', 'beta', 'view']);
        if (rng.chance(0.3)) add(key, key === 'view' ? 'cost' : rng.pick(['4096', '64', '0.5']));
        else add(key, rng.pick([...MARKUP, '1e309', 'NaN', DIGITS_309, '__proto__', '-0']), { refuse: true });
        break;
      }
      case 15: {
        // Heavy but valid: a long run at full speed that fills large source
        // queues and the rewind history, side by side, with large buffers — the page must
        // keep it inside its workers' memory budget or refuse it by name.
        add('traffic.pattern', rng.pick(['router_shift', 'uniform', 'bit_complement']));
        add('traffic.load', rng.pick(['0.6', '1']));
        add('traffic.source_queue_cap', rng.pick(['1000', '100000']));
        add('speed', rng.pick(['20', '100']));
        if (rng.chance(0.5)) add('router.buffer_depth', rng.pick(['64', '512', '4096']));
        if (rng.chance(0.5)) {
          add('vary', rng.pick(['routing.algorithm', 'traffic.load']));
          add('values', rng.pick(['min|val', 'min|val|ugal', '0.3|0.9']));
        }
        long = true;
        break;
      }
      default:
        // Garbage around the pairs.
        if (rng.chance(0.5)) add(rng.pick(['', '%', '%00', '%E0%A4%A']), 'x', { refuse: true, raw: true });
        else add(rng.pick(cat.paths), rng.pick(BAD_ESCAPES), { refuse: true, raw: true });
    }
  }
  return { query: `?${parts.join('&')}`, hostile, long };
}

// ------------------------------------------------------------------ story links

// A fifth of the links are story links (`?story=`, docs/lecture.md "Share a story"), drawn
// from their own stream so that the other links of a seed stay the ones they were: a
// built-in story's document with 1 to 3 mutations — markup and control characters in its
// texts, hostile numbers and prototype keys in its fields, scenes and picked focus out of
// range or too many, links that do not exist — compressed as the page's Share story does,
// or a hostile payload (not base64, not deflate, a deflate bomb, too long, another site).
const STORY_SHARE = 0.2;

/** The built-in story documents (www/stories/builtin/). */
async function builtinStories() {
  const dir = join(ROOT, 'www', 'stories', 'builtin');
  const files = (await readdir(dir)).filter((f) => f.endsWith('.json') && f !== 'index.json').sort();
  return Promise.all(files.map(async (f) => JSON.parse(await readFile(join(dir, f), 'utf8'))));
}

const deflated = (text) => `z:${deflateRawSync(Buffer.from(text)).toString('base64url')}`;

/** One story link: {query, hostile, long}. */
function storyLink(rng, docs) {
  if (rng.chance(0.2)) {
    // A payload that is no story at all.
    const payload = rng.pick([
      () => `z:${'!*'.repeat(1 + rng.int(50))}`,
      () => `z:${Buffer.from('not deflate at all').toString('base64url')}`,
      () => deflated(' '.repeat(4 << 20)),
      () => deflated(`{"hiradix_story":1,${'"x":1,'.repeat(1)}${'['.repeat(20_000)}`),
      () => `z:${'A'.repeat(16_001)}`,
      () => deflated(`\uFFFE${'\u0000'.repeat(10)}`),
      () =>
        rng.pick([
          'https://evil.example/s.json',
          '//evil.example/s.json',
          `javascript:${PWN}`,
          'data:application/json,{}',
          '../../etc/passwd',
          '%2e%2e/x.json',
        ]),
      () => rng.pick(MARKUP),
    ])();
    return { query: `?story=${encodeURIComponent(payload)}`, hostile: true, long: false };
  }
  const doc = structuredClone(rng.pick(docs));
  doc.id = `fuzz-${rng.int(1000)}`;
  let hostile = false;
  const scene = () => {
    doc.scenes ??= [];
    if (!doc.scenes.length) doc.scenes.push({ caption: 'x', stop: { until: 'saturated' } });
    return rng.pick(doc.scenes);
  };
  let text = null;
  const n = 1 + rng.int(3);
  for (let i = 0; i < n; i++) {
    switch (rng.int(10)) {
      case 0: // Markup as text: valid, shown as text.
        doc[rng.pick(['title', 'point'])] = rng.pick(MARKUP).slice(0, 100);
        break;
      case 1: // Markup in structured text and a question.
        scene().caption = [rng.pick(MARKUP), { b: rng.pick(MARKUP) }];
        scene().question = { ask: rng.pick(MARKUP).slice(0, 300), choices: [rng.pick(MARKUP), 'b'], answer: rng.int(2), why: { i: rng.pick(MARKUP) } };
        break;
      case 2: // Control and direction characters.
        doc[rng.pick(['title', 'point'])] = rng.pick(['a\u0000b', 'line\u001b[31m', '\u202etxet', 'zero\u200bwidth']);
        hostile = true;
        break;
      case 3: // A hostile number where one is expected.
        scene().stop = rng.pick([
          { until: 'cycle', cycle: rng.pick([-1, 1e21, 2 ** 53 + 1, 0]) },
          { until: 'decision', router: rng.pick([4294967295, 1e9, -1]) },
          { until: rng.pick(['someday', '__proto__', MARKUP[0]]) },
        ]);
        hostile = true;
        break;
      case 4: // Links that do not exist, or far too many.
        scene().fail = rng.chance(0.5) ? [[0, 4294967295]] : Array.from({ length: 65 }, (_, k) => [k, k + 1]);
        hostile = true;
        break;
      case 5: // A picked focus out of range or too large.
        doc.focus = { selector: 'picked', label: 'x', channels: rng.chance(0.5) ? [[0, 99999]] : Array.from({ length: 257 }, () => [0, 1]), routers: [] };
        hostile = true;
        break;
      case 6: // Too many scenes.
        doc.scenes = Array.from({ length: 41 }, () => ({ caption: 'x', stop: { until: 'saturated' } }));
        hostile = true;
        break;
      case 7: // Prototype keys, written into the JSON text.
        text = JSON.stringify(doc).replace(
          /^\{/,
          rng.pick(['{"__proto__":{"polluted":1},', '{"constructor":{"prototype":{"polluted":1}},', '{"experiment":{"config":{"__proto__":{"polluted":1}}},']),
        );
        hostile = true;
        break;
      case 8: // A zoom, view or speed out of range.
        doc.experiment.view = { ...(doc.experiment.view ?? {}), zoom: rng.pick([0, 1e9, -1]) };
        hostile = true;
        break;
      default: // Heavy but valid: many scenes that fail and restore a link.
        if (doc.experiment.config.topology?.type === 'hyperx') {
          doc.scenes = Array.from({ length: 40 }, (_, k) => ({
            caption: `scene ${k}`,
            stop: { until: 'cycle', cycle: 50 * (k + 1) },
            [k % 2 ? 'restore' : 'fail']: [[0, 1]],
          }));
        }
    }
  }
  return { query: `?story=${encodeURIComponent(deflated(text ?? JSON.stringify(doc)))}`, hostile, long: false };
}

// ------------------------------------------------------------------ checks in the page

// Runs before the page's scripts on every load: a snapshot of the built-in prototypes
// (own keys and their values or accessors), compared after the page has taken the link.
function protoCanary() {
  const protos = {
    Object: Object.prototype,
    Array: Array.prototype,
    Function: Function.prototype,
    String: String.prototype,
    Number: Number.prototype,
    Map: Map.prototype,
  };
  const snap = (o) => new Map(Reflect.ownKeys(o).map((k) => [k, Object.getOwnPropertyDescriptor(o, k)]));
  const before = Object.entries(protos).map(([name, o]) => [name, o, snap(o)]);
  const same = (a, b) => a && b && a.value === b.value && a.get === b.get && a.set === b.set;
  Object.defineProperty(window, '__protoChanges', {
    value: () => {
      const out = [];
      for (const [name, o, was] of before) {
        const now = snap(o);
        for (const [k, d] of now) if (!same(d, was.get(k))) out.push(`${name}.prototype.${String(k)}`);
        for (const k of was.keys()) if (!now.has(k)) out.push(`${name}.prototype.${String(k)} deleted`);
      }
      if (Object.getPrototypeOf(Object.prototype) !== null) out.push('Object.prototype has a prototype');
      return out;
    },
  });
}

// After a long run: each simulation worker's memory report, and a crash banner if any.
function workerMemory() {
  const banner = document.getElementById('error-banner');
  return {
    workers: [...(window.hiradix.sims?.memory ?? [])],
    crashed: banner.hidden ? null : document.getElementById('error-text').textContent.slice(0, 300),
  };
}

// What the test asserts, read in the page once it has taken the link.
function pageFacts() {
  const visible = (e) => Boolean(e) && !e.hidden && e.getClientRects().length > 0 && getComputedStyle(e).visibility !== 'hidden';
  const messages = [document.getElementById('notice'), ...document.querySelectorAll('.ctl-msg'), document.getElementById('config-error')].filter(visible);
  const banner = document.getElementById('error-banner');
  return {
    state: document.body.dataset.state,
    pwned: typeof window.__pwned,
    polluted: typeof {}.polluted,
    protoChanges: window.__protoChanges(),
    scrollWidth: document.documentElement.scrollWidth,
    width: window.innerWidth,
    internalError: visible(banner) && /internal error/.test(document.getElementById('error-title').textContent),
    bannerText: visible(banner) ? document.getElementById('error-text').textContent.slice(0, 300) : '',
    message: messages
      .map((e) => e.textContent)
      .join(' | ')
      .slice(0, 400),
    search: (() => {
      try {
        return decodeURIComponent(location.search);
      } catch {
        return location.search; // the link's own malformed escapes, not rewritten
      }
    })(),
  };
}

// Waits (bounded) for the page to have opened its first experiment and shown any message,
// then lets two frames draw.
function loaded(ms) {
  const timeout = new Promise((ok) => setTimeout(() => ok('timeout'), ms));
  const done = (async () => {
    while (!window.hiradix?.loaded) await new Promise((ok) => setTimeout(ok, 20));
    const r = await window.hiradix.loaded;
    await new Promise((ok) => requestAnimationFrame(() => requestAnimationFrame(ok)));
    return r;
  })();
  return Promise.race([done, timeout]);
}

// `promise`, or a rejection after `ms` (the timer cleared either way, so it cannot keep
// the test process alive).
function withTimeout(promise, ms, what) {
  let timer;
  const late = new Promise((_, fail) => {
    timer = setTimeout(() => fail(new Error(`${what}: no answer in ${ms} ms`)), ms);
  });
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}

const short = (s, n = 300) => (s.length <= n ? s : `${s.slice(0, n)}… (${s.length} characters)`);

const PAYLOAD_MARKS = ['__pwned', '__proto__', 'constructor', 'prototype', 'polluted', '<', 'javascript:'];

/** Loads one link; returns the list of what went wrong (empty if nothing). */
async function check(state, link) {
  const { page, events } = state;
  events.length = 0;
  const wrong = [];
  try {
    await page.goto(`${server.url}${link.query}`, { timeout: LOAD_MS, waitUntil: 'load' });
    const r = await withTimeout(page.evaluate(loaded, LOAD_MS), LOAD_MS + 5_000, 'load');
    if (r !== 'ok') wrong.push(`page not loaded: ${r}`);
    const f = await withTimeout(page.evaluate(pageFacts), 10_000, 'facts');
    if (f.pwned !== 'undefined') wrong.push('window.__pwned set: injected script ran');
    if (f.polluted !== 'undefined') wrong.push('({}).polluted is defined');
    if (f.protoChanges.length) wrong.push(`prototypes changed: ${f.protoChanges.join(', ')}`);
    if (f.scrollWidth > f.width) wrong.push(`page scrolls horizontally: ${f.scrollWidth} > ${f.width}`);
    if (f.internalError || f.state === 'crashed') wrong.push(`internal error: ${f.bannerText}`);
    if (link.hostile && !f.message) wrong.push('something was refused but no message is shown');
    if (link.long) {
      // Let it run (rewind history growing), then check the workers' own accounting: the
      // heap never past the most reserved (plus the module's own 64 MiB) nor the limit.
      await page.waitForTimeout(LONG_RUN_MS);
      const m = await withTimeout(page.evaluate(workerMemory), 10_000, 'memory');
      if (m.crashed) wrong.push(`after ${LONG_RUN_MS} ms running: ${m.crashed}`);
      for (const w of m.workers) {
        if (w && (w.peak_heap > w.limit || w.peak_heap > w.peak_reserved + 64 * 2 ** 20)) {
          wrong.push(`worker heap ${(w.peak_heap / 2 ** 30).toFixed(3)} GiB past its budget (${(w.peak_reserved / 2 ** 30).toFixed(3)} GiB reserved at most)`);
        }
      }
    }
    const mark = PAYLOAD_MARKS.find((m) => f.search.includes(m));
    if (mark) wrong.push(`the page wrote '${mark}' back into its URL: ${f.search.slice(0, 200)}`);
  } catch (e) {
    wrong.push(`load failed: ${short(String(e.message ?? e).split('\n')[0])}`);
    state.broken = true;
  }
  wrong.push(...events);
  return wrong;
}

async function newPage(state) {
  if (state.page) await state.page.close().catch(() => {});
  const page = await browser.context.newPage();
  await page.addInitScript(protoCanary);
  const events = [];
  page.on('pageerror', (e) => events.push(`pageerror: ${e.message}`));
  page.on('dialog', (d) => {
    events.push(`dialog (${d.type()}): ${d.message()}`);
    d.dismiss().catch(() => {});
  });
  page.on('crash', () => events.push('the page crashed'));
  page.on('console', (m) => {
    if (m.type() === 'error' && /Content Security Policy|CSP violation/.test(m.text())) events.push(`console: ${m.text().slice(0, 200)}`);
  });
  Object.assign(state, { page, events, broken: false });
}

// The catalog's paths and names, as the generator's raw material.
async function catalogOf(page) {
  await page.goto(server.url);
  await page.evaluate(loaded, LOAD_MS);
  return page.evaluate(() => {
    const m = window.hiradix.model;
    const paths = new Set(m.specs.keys());
    for (const specs of m.topologySpecs.values()) for (const p of specs.keys()) paths.add(p);
    const c = m.catalog;
    return {
      paths: [...paths],
      variable: ['routing.algorithm', 'traffic.pattern', ...c.params.map((p) => p.path)],
      names: [...c.routings.map((r) => r.name), ...c.patterns.map((p) => p.name), ...c.topologies.map((t) => t.name)],
      presets: [...window.hiradix.presets.keys()],
    };
  });
}

test(
  `hostile URLs (${COUNT}, seed ${SEED}) inject nothing, pollute nothing, crash nothing, and are reported`,
  { timeout: 600_000 + COUNT * 2_000 },
  async (t) => {
    const state = {};
    await newPage(state);
    const cat = await catalogOf(state.page);
    const rng = rngFrom(SEED);
    const storyRng = rngFrom(SEED ^ 0x5702);
    const docs = await builtinStories();
    const failures = [];
    let ran = 0;
    const t0 = Date.now();
    for (let i = 0; i < COUNT; i++) {
      let link = generate(rng, cat);
      if (storyRng.chance(STORY_SHARE)) link = storyLink(storyRng, docs);
      if (ONLY && !ONLY.has(i)) continue;
      ran++;
      const wrong = await check(state, link);
      if (wrong.length) failures.push({ i, query: short(link.query), wrong: wrong.map((w) => short(w)) });
      // A fresh page after a failure, and every 100 links anyway: hundreds of loads in one
      // page exhaust its renderer's address space for wasm memories (each instance reserves
      // gigabytes; the old documents' are released only when collected), which no visitor
      // would ever do, and which would otherwise fail the links that happen to come next.
      if (state.broken || wrong.length || i % 100 === 99) await newPage(state);
    }
    const seconds = (Date.now() - t0) / 1000;
    const summary = `url-fuzz: ${ran} URLs in ${seconds.toFixed(1)} s (${((1000 * seconds) / ran).toFixed(0)} ms each), ${failures.length} failures, seed ${SEED}`;
    t.diagnostic(summary);
    console.log(summary);
    for (const f of failures.slice(0, 20)) console.log(`  #${f.i} ${f.query}\n    ${f.wrong.join('\n    ')}`);
    const report = process.env.HIRADIX_URL_FUZZ_REPORT;
    if (report) await writeFile(report, JSON.stringify({ count: ran, seed: SEED, seconds, failures }, null, 2));
    await state.page.close();
    assert.equal(
      failures.length,
      0,
      `${failures.length} of ${ran} links failed; the first: #${failures[0]?.i} ${failures[0]?.query}: ${failures[0]?.wrong.join('; ')}`,
    );
  },
);
