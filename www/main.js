// The page: loads the wasm simulator, builds the controls from its catalog, runs one or
// more simulations (side by side, in lock-step) in a Web Worker (www/sim/sim-worker.js) and
// draws their latest snapshots every animation frame, with live statistics, inspection, a
// load–latency sweep, presets, URL state and export. The drawing thread never waits for
// the simulation: each pane's `sim` is a mirror (www/sim/remote-sim.js) of the worker's.
//
// No bundler: ES modules importing wasm-bindgen's `--target web` output from ../pkg/.
import init, { catalog, checkStory, lastPanic } from '../pkg/hiradix.js';
import { Controls, parseControl } from './ui/controls.js';
import {
  MAX_VARIANTS,
  Model,
  clone,
  describeSpeed,
  describeValue,
  flatten,
  formatValue,
  getPath,
  newExperiment,
  parseValue,
  readSpeed,
  readsParam,
  sameValue,
  setPath,
  speedText,
} from './model/experiment.js';
import { buttonById, byId, clip, el, inputById, rich, selectById, setChildren } from './lib/dom.js';
import { parseConfigText } from './model/json-check.js';
import { messageOf } from './lib/errors.js';
import { BUILTIN_STORIES, PRESETS, loadStories, presetExperiments } from './stories/presets.js';
import { describeCrash, smallerExperiment } from './ui/crash.js';
import { Pane } from './sim/pane.js';
import { COLOURS, DENSE_CHANNELS, drawRamp } from './render/network-view.js';
import { layoutStage, watchLayout } from './render/layout.js';
import { renderKey } from './render/key-view.js';
import { decodeExperiment, encodeExperiment } from './model/url-state.js';
import { updateInspector as renderInspector, wireCanvasEvents } from './ui/interaction.js';
import { Sweep, parseLoads } from './sim/sweep.js';
import { statsCsv, statsJson } from './ui/stats-view.js';
import { canvasesToPng, download, downloadText } from './ui/export.js';
import { CostView, splitCostParams } from './ui/cost-view.js';
import { PacketTrace } from './ui/trace-view.js';
import { SimClient } from './sim/sim-client.js';
import { RemoteSim } from './sim/remote-sim.js';
import { Pacer } from './sim/pacing.js';
import { animation } from './ui/animation.js';
import { FailLinks } from './ui/faults.js';
import { TimeControl } from './ui/time-control.js';
import { LiveLoad } from './ui/live-load.js';
import { PACKET_LEGEND } from './render/motion.js';
import { SHARE_FULL, WINDOW as DECISION_WINDOW } from './model/decisions.js';

// A small flattened butterfly (4-ary 3-flat: 16 routers on a 4×4 grid, 64 terminals) under
// enough uniform load that queues build up visibly: the page's default experiment.
export const DEFAULT_CONFIG = {
  topology: { type: 'flattened_butterfly', k: 4, n: 3 },
  routing: { algorithm: 'min_ad' },
  traffic: { pattern: 'uniform', load: 0.8 },
  seed: 1,
};

// The story a visitor without a link sees first: small, fast and unambiguous.
const FIRST_STORY = 'min-worst-case';

const SPEEDS = [1 / 16, 1 / 8, 1 / 4, 1 / 2, 1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000];
const $ = (id) => document.getElementById(id);

const app = {
  model: null,
  catalog: null,
  presets: new Map(),
  experiment: null,
  panes: [],
  running: true,
  crashed: false,
  stopped: false,
  frames: 0,
  snapshots: 0, // worker replies applied
  gen: 0, // the worker's generation of the running simulations
  pacer: new Pacer(),
  sims: null, // the SimClient
  selection: null, // pinned {pane, kind, index}
  hover: null,
  sweep: null,
  nextSample: 0,
  // fps: frames drawn per second; drawMs: the drawing thread's work per frame; advanceMs:
  // the worker's time per step, stepCycles its cycles; cyclesPerFrame: simulated cycles per
  // displayed frame over the last second (cycles/s over fps).
  perf: { fps: 0, drawMs: 0, advanceMs: 0, stepCycles: 0, cyclesPerFrame: 0 },
  defaultConfig: DEFAULT_CONFIG,
  tab: 'sim', // or 'cost': the cost view (www/ui/cost-view.js); the simulation idles meanwhile
  cost: null,
  present: false, // present mode: picture and key plot fill the screen, large text
  keyNumbers: null, // the class plot's numbers (www/render/key-view.js), for tests
};

// Exposed for tests, scripts/ and poking around in the console.
window.hiradix = app;
Object.defineProperty(app, 'sim', { get: () => app.panes[0]?.sim ?? null });
// A Rust panic in the simulation worker, on purpose; the worker dying of a failed allocation.
app.triggerPanicForTest = () => app.sims.panic();
app.triggerOutOfMemoryForTest = () => app.sims.outOfMemory();
app.url = () => location.href;
/** Resolves once the worker has answered everything asked of it (e.g. after a step). */
app.settled = () => app.sims.idle();

/** The story an experiment opened from (its `preset`), or null. */
function storyOf(exp) {
  return exp?.preset ? (PRESETS.find((p) => p.id === exp.preset) ?? null) : null;
}

// ----------------------------------------------------------------- banners and state

function setState(s) {
  document.body.dataset.state = s;
}

// Paused once the step in flight (if any) has landed: from then on the cycle stays put.
function setRunning(on) {
  app.running = on;
  $('btn-run').textContent = on ? 'Pause' : 'Run';
  if (!on) app.pacer.stop();
  if (app.crashed || app.stopped) return;
  if (on) setState('running');
  else {
    app.sims.idle().then(() => {
      if (!app.running && !app.crashed && !app.stopped) setState('paused');
    });
  }
}

function showBanner(title, text, { retry = 'Reset simulation', smaller = null } = {}) {
  $('error-title').textContent = title;
  $('error-text').textContent = text;
  $('error-reset').textContent = retry;
  $('error-smaller').hidden = !smaller;
  $('error-smaller-text').hidden = !smaller;
  $('error-smaller-text').textContent = smaller ? `: ${smaller.changes.join('; ')}` : '';
  $('error-banner').hidden = false;
}

function notice(text) {
  $('notice-text').textContent = text ?? '';
  $('notice').hidden = !text;
}

// A Rust panic (a wasm call trapped: in the simulation worker, `message` is its panic
// message), a worker that died (e.g. out of memory) or an uncaught JS error. The
// experiment stays the page's, as the visitor had it (and its link): the banner says what
// happened and offers to try again or to reload it smaller (www/ui/crash.js).
function showCrash(err, message = null) {
  if (app.crashed) return;
  app.crashed = true;
  app.running = false;
  // The worker is unusable after a trap: drop it (the next experiment starts a new one).
  app.sims.stop();
  for (const p of app.panes) p.destroy();
  app.panes = [];
  app.trace?.stop();
  let panic = message;
  try {
    panic ??= lastPanic();
  } catch {
    // The module itself may be unusable; fall back to the JS error.
  }
  app.crashMessage = panic ?? String(err?.stack ?? err);
  showCrashBanner();
  $('btn-run').textContent = 'Run';
  setState('crashed');
}

// The crash banner for the page's experiment: what happened, in plain words, and what
// "Reload smaller" would change.
function showCrashBanner() {
  const exp = app.experiment;
  app.smaller = exp && app.model ? smallerExperiment(exp, app.model) : null;
  const { title, text } = describeCrash(app.crashMessage, exp && app.model ? app.model.variants(exp).length : 1, Boolean(app.smaller));
  showBanner(title, text, { retry: 'Try again', smaller: app.smaller });
}

// The experiment `exp` crashed the simulator while being built: it stays the page's, as
// asked (controls, JSON box, story), so that Try again and Reload smaller start from it.
// The link a visitor opened stays exactly as it was.
function keepCrashed(exp) {
  app.experiment = exp;
  app.controls.clearErrors();
  showControlsMessage(null);
  showCompareMessage(null);
  syncUi();
  layoutStage(0);
  showCrashBanner();
}

// The simulation itself stopped (the deadlock watchdog tripped): not a bug of the page.
function showStopped(message) {
  app.running = false;
  app.stopped = true;
  $('btn-run').textContent = 'Run';
  showBanner('The simulation stopped.', message);
  setState('stopped');
}

// ----------------------------------------------------------------- experiments

/**
 * Runs `fn` (which may be async) after every action queued before it has finished: the
 * actions that build experiments in the worker take effect in the order they were asked
 * for, each starting from the experiment the previous one left.
 */
function serial(fn) {
  const run = app.chain.then(fn);
  app.chain = run.catch((e) => showCrash(e));
  return run;
}
app.chain = Promise.resolve();

/**
 * Builds the panes of an experiment (in the worker). On success replaces the running ones
 * and resolves to true; on failure keeps them, shows every problem next to its control
 * (and in the JSON box when `source` is 'json') and resolves to false.
 */
async function applyExperiment(exp, { source = 'controls', keepStats = false, run = true } = {}) {
  const variants = app.model.variants(exp);
  let reply;
  try {
    reply = await app.sims.create(
      variants.map((v) => v.config),
      want(),
    );
  } catch {
    // The worker crashed (the banner says why): this experiment stays, to try again.
    if (app.crashed) keepCrashed(exp);
    return false;
  }
  app.controls.clearErrors();
  showCompareMessage(null);
  const problems = (reply.problems ?? []).map(({ index, errors }) => ({
    variant: variants[index],
    // A message quotes the value it refuses, which may be anything a link held: shortened,
    // so a message stays a line or two.
    errors: errors.map((e) => ({ path: String(e.path), message: clip(String(e.message), 300) })),
  }));
  if (problems.length) {
    const lines = [];
    const all = [];
    for (const { variant, errors } of problems) {
      const prefix = variants.length > 1 ? `${variant.name} (${variant.label}): ` : '';
      const varied = exp.compare?.param;
      const onVaried = errors.filter((e) => varied && (e.path === varied || e.path.startsWith(`${varied}.`)));
      const rest = errors.filter((e) => !onVaried.includes(e));
      if (onVaried.length) showCompareMessage(onVaried.map((e) => `${prefix}${e.message}`).join('\n'));
      const unplaced = app.controls.setErrors(rest, prefix);
      for (const e of unplaced) lines.push(`${prefix}${e.path}: ${e.message}`);
      for (const e of errors) all.push(`${prefix}${e.path}: ${e.message}`);
    }
    app.lastErrors = [...new Set(all)];
    if (source === 'json') showConfigError(app.lastErrors.join('\n'));
    else showControlsMessage([...new Set(lines)].join('\n') || null);
    return false;
  }
  showControlsMessage(null);
  app.lastErrors = [];
  if (source === 'json') showConfigError(null);
  // A message about the experiment being replaced (a refused link, a finished batch, a
  // changed network type, a refused link failure) has lost its cause.
  notice(null);
  app.failLinks.say(null);
  app.timeControl.say(null);
  app.liveLoad.say(null);
  app.liveEdits = [];
  // Replace the panes.
  const old = app.panes;
  app.panes = [];
  for (const p of old) p.destroy();
  app.trace.stop();
  app.gen = reply.gen;
  app.pacer.reset();
  const container = $('panes');
  container.className = `panes n${variants.length}`;
  reply.statics.forEach((data, i) => app.panes.push(new Pane(container, i, variants[i], new RemoteSim(app.sims, reply.gen, i, data, reply.panes[i]))));
  const configChanged = !app.experiment || !sameValue(app.experiment.config, exp.config) || !sameValue(app.experiment.compare, exp.compare);
  app.experiment = exp;
  app.crashed = false;
  app.stopped = false;
  app.linkKept = false;
  $('error-banner').hidden = true;
  app.selection = null;
  app.hover = null;
  app.nextSample = 0;
  resetRate();
  if (configChanged && !keepStats) resetSweep();
  for (const p of app.panes) p.view.setView(exp.view.zoom, exp.view.cx, exp.view.cy);
  syncUi();
  updateInspector();
  layoutStage(app.panes.length);
  setRunning(run);
  await refocus();
  return true;
}

function showConfigError(message) {
  $('config-error').textContent = message ?? '';
  $('config-error').hidden = !message;
}

function showControlsMessage(message) {
  $('controls-msg').textContent = message ?? '';
  $('controls-msg').hidden = !message;
}

function showCompareMessage(message) {
  $('compare-msg').textContent = message ?? '';
  $('compare-msg').hidden = !message;
}

// Reflects the experiment in every control, the URL, the story and the status line.
function syncUi() {
  const exp = app.experiment;
  const pane = app.panes[0];
  const varied = exp.compare?.param ?? null;
  app.controls.show(exp.config, { readers: app.model.variants(exp).map((v) => v.config), varied });
  app.controls.setVaried(varied);
  byId('config', HTMLTextAreaElement).value = JSON.stringify(exp.config, null, 2);
  syncCompare();
  syncSpeed();
  syncMetric();
  inputById('vc-cells').checked = exp.view.vcCells;
  inputById('smooth').checked = exp.view.smooth;
  selectById('router-metric').value = exp.view.routers === 'nonmin' ? 'nonmin' : 'fill';
  inputById('show-packets').checked = exp.view.packets !== false;
  syncRouterLegend();
  app.liveLoad.synced = '';
  app.liveLoad.sync();
  selectById('preset').value = exp.preset || '';
  showStory(exp.preset);
  if (pane) {
    $('stat-routers').textContent = pane.info.routers;
    $('stat-terminals').textContent = pane.info.terminals;
    $('stat-channels').textContent = pane.info.channels;
  }
  $('fig9-box').hidden = !app.panes.some((p) => p.info.family === 'dragonfly');
  writeUrl();
}

function writeUrl() {
  // The link the page opened stays as it was until an experiment from it runs (one that
  // crashed the simulator is kept as the visitor had it).
  if (!app.experiment || app.linkKept) return;
  const q = encodeExperiment(app.model, app.experiment, { trace: app.trace?.link, present: app.present });
  const costQ = app.cost?.urlParams();
  const url = `${location.pathname}?${q}${costQ ? `&${costQ}` : ''}`;
  if (url !== `${location.pathname}${location.search}`) history.replaceState(null, '', url);
}

/**
 * What a page opening `search` would refuse or show differently from the experiment shown
 * here: the link read back with the same readers (decodeExperiment, splitCostParams).
 */
function linkProblems(search) {
  const cost = splitCostParams(search);
  const decoded = decodeExperiment(app.model, cost.rest, app.presets);
  const problems = [...cost.problems, ...decoded.problems];
  const exp = decoded.experiment;
  if (!problems.length && app.experiment && exp) {
    const differs = [];
    const leaves = (c) => new Map(flatten(c).map(([path, v]) => [path, JSON.stringify(v)]));
    const [a, b] = [leaves(exp.config), leaves(app.experiment.config)];
    if (a.size !== b.size || [...a].some(([path, v]) => b.get(path) !== v)) differs.push('its settings');
    if (!sameValue(exp.compare ?? null, app.experiment.compare ?? null)) differs.push('its side-by-side panes');
    if (differs.length) problems.push(`${differs.join(' and ')} would read back differently`);
  }
  return problems;
}
app.linkProblems = () => linkProblems(location.search); // for tests

let urlTimer = null;
function writeUrlSoon() {
  clearTimeout(urlTimer);
  urlTimer = setTimeout(writeUrl, 300);
}

function showStory(id) {
  const p = PRESETS.find((x) => x.id === id);
  $('story').hidden = !p;
  if (!p) return;
  $('story-title').textContent = p.title;
  $('story-paper').textContent = p.paper;
  $('story-point').textContent = p.point;
  setChildren($('story-text'), rich(p.text));
  setChildren(
    $('story-look'),
    p.look.map((l) => el('li', {}, rich(l))),
  );
  $('story-modified').hidden = !storyModified(app.experiment);
}

/** Whether an experiment that opened as a story has since been changed (config or panes). */
function storyModified(exp) {
  const entry = exp?.preset ? app.presets.get(exp.preset) : null;
  if (!entry) return false;
  return !sameValue(exp.config, entry.experiment.config) || !sameValue(exp.compare, entry.experiment.compare);
}

// A control changed one config path.
function onControlChange(path, value) {
  serial(() => {
    // A repeated change event (e.g. on blur) with the value in effect changes nothing.
    if (sameValue(getPath(app.experiment.config, path), value) && !app.lastErrors?.length) return null;
    // The story stays (marked modified): its text still explains what was changed from.
    const exp = clone(app.experiment);
    if (path === 'topology.type') return changeTopology(exp, value);
    setPath(exp.config, path, value);
    return applyExperiment(exp);
  });
}

// A new network type: its default parameters; keep the routing and pattern if they still
// work on it, else fall back to the family's first algorithm, then to uniform traffic.
async function changeTopology(exp, type) {
  const m = app.model;
  const entry = m.topologyEntry(type);
  exp.config.topology = clone(entry.default);
  if (exp.compare && (exp.compare.param.startsWith('topology.') || exp.compare.param === 'routing.algorithm')) exp.compare = null;
  const first = m.routingsFor(entry.family)[0]?.name;
  const attempts = [{ exp: clone(exp), notes: [] }];
  const fixed = clone(exp);
  const notes = [];
  if (first && fixed.config.routing.algorithm !== first) {
    notes.push(`routing ${fixed.config.routing.algorithm} → ${first}`);
    fixed.config.routing.algorithm = first;
    attempts.push({ exp: clone(fixed), notes: [...notes] });
  }
  if (fixed.config.traffic.pattern !== 'uniform') {
    notes.push(`traffic ${fixed.config.traffic.pattern} → uniform`);
    fixed.config.traffic.pattern = 'uniform';
    attempts.push({ exp: clone(fixed), notes: [...notes] });
  }
  for (const a of attempts) {
    if ((await checks(a.exp)) && (await applyExperiment(a.exp))) {
      if (a.notes.length) notice(`The ${type.replace(/_/g, ' ')} network needed other settings: ${a.notes.join(', ')}.`);
      return;
    }
  }
  await applyExperiment(attempts[0].exp);
}

// Can every pane of an experiment be built? (Without touching the running ones.)
async function checks(exp) {
  try {
    return await app.sims.check(app.model.variants(exp).map((v) => v.config));
  } catch {
    return false; // the worker crashed
  }
}

function applyPreset(id, { run = true } = {}) {
  serial(async () => {
    const entry = app.presets.get(id);
    if (!entry) {
      const exp = clone(app.experiment);
      exp.preset = '';
      app.experiment = exp;
      syncUi();
      return;
    }
    const exp = clone(entry.experiment);
    if (await applyExperiment(exp, { run })) {
      inputById('sweep-loads').value = entry.preset.sweep ?? inputById('sweep-loads').value;
    }
  });
}

// ----------------------------------------------------------------- side by side

function syncCompare() {
  const exp = app.experiment;
  const sel = selectById('compare-param');
  const params = app.model.variableParams(exp.config);
  const current = exp.compare?.param ?? '';
  sel.replaceChildren(new Option('— one simulation —', ''));
  for (const p of params) sel.append(new Option(`${p.path} (${p.label})`, p.path));
  if (current && !params.some((p) => p.path === current)) sel.append(new Option(current, current));
  sel.value = current;
  inputById('compare-values').value = exp.compare ? exp.compare.values.map(formatValue).join(' | ') : '';
  inputById('compare-values').disabled = !current;
  // Varying a parameter no pane reads (e.g. UGAL-L_CR's t_crt0 under UGAL-L) runs the same
  // simulation in every pane: say so.
  const spec = params.find((p) => p.path === current)?.spec;
  if (spec && !app.model.variants(exp).some((v) => readsParam(spec, v.config))) {
    const when = spec.used_when;
    showCompareMessage(`no pane reads ${current}: only ${when.path} = ${when.values.join(' | ')} does, so the panes run the same simulation`);
  }
}

function onCompareParam() {
  const param = selectById('compare-param').value;
  serial(() => compareParam(param));
}

function compareParam(param) {
  const exp = clone(app.experiment);
  if (!param) {
    exp.compare = null;
    return applyExperiment(exp);
  }
  // Prefill: the current value and the next option (or a nearby number).
  const spec = app.model.variableParams(exp.config).find((p) => p.path === param);
  const cur = getPath(exp.config, param);
  let other;
  if (spec?.options?.length) other = spec.options.find((o) => o !== cur) ?? cur;
  else if (typeof cur === 'number') other = param === 'traffic.load' ? Math.min(1, Number((cur / 2).toFixed(2))) : cur * 2;
  else if (cur === null && spec?.spec?.unset)
    other = Math.max(spec.spec.min, 16); // optional: unset vs a value
  else other = cur;
  exp.compare = { param, values: [cur, other] };
  return applyExperiment(exp);
}

function onCompareValues() {
  const raw = inputById('compare-values').value;
  serial(() => compareValues(raw));
}

function compareValues(raw) {
  if (!app.experiment.compare) return null;
  const exp = clone(app.experiment);
  const values = raw
    .split('|')
    .map((s) => s.trim())
    .filter(Boolean)
    .map(parseValue);
  if (values.length < 2) {
    showCompareMessage('enter at least two values separated by |, e.g. ugal_l | ugal_g');
    return;
  }
  if (values.length > MAX_VARIANTS) {
    showCompareMessage(`at most ${MAX_VARIANTS} values side by side, got ${values.length}`);
    return;
  }
  for (const v of values) {
    const problem = app.model.entryProblem(exp.compare.param, v, exp.config.topology.type);
    if (problem) {
      showCompareMessage(`${describeValue(v)}: ${problem}`);
      return;
    }
  }
  const spec = [...app.model.catalog.params, ...(app.model.topologyEntry(exp.config.topology.type)?.params ?? [])].find((p) => p.path === exp.compare.param);
  if (spec && spec.kind !== 'enum') {
    for (const v of values) {
      const r = parseControl(spec, spec.kind === 'link_list' || spec.kind === 'int_triples' ? formatValue(v) : Array.isArray(v) ? v.join(',') : v);
      if (r.error) {
        showCompareMessage(`${describeValue(v)}: ${r.error}`);
        return;
      }
    }
  }
  if (sameValue(values, app.experiment.compare?.values)) return;
  exp.compare = { param: exp.compare.param, values };
  return applyExperiment(exp);
}

// ----------------------------------------------------------------- speed, view, metric

function syncSpeed() {
  const s = app.experiment.speed;
  inputById('cycles-per-frame').value = String(Number(s.toFixed(4)));
  let best = 0;
  SPEEDS.forEach((v, i) => {
    if (Math.abs(Math.log(v / s)) < Math.abs(Math.log(SPEEDS[best] / s))) best = i;
  });
  inputById('speed-slider').value = String(best);
  $('speed-text').textContent = describeSpeed(s);
  app.sampleEvery = s >= 1 ? Math.min(1000, Math.max(10, Math.round(s * 6))) : 5;
}

// A speed from the slider, a key or the cycles-per-frame box (`typed`: a bad or
// out-of-range value is said in the notice, naming the box).
function setSpeed(v, { typed = false } = {}) {
  const { speed: s, problem } = readSpeed(v);
  if (typed && problem) notice(`cycles per frame: ${problem}${s === null ? `; ${speedText(app.experiment.speed)} kept` : ''}`);
  if (s === null) {
    syncSpeed();
    return;
  }
  app.experiment.speed = s;
  app.pacer.slowFrames = 0;
  syncSpeed();
  writeUrlSoon();
}

function syncMetric() {
  const sel = selectById('link-metric');
  const vcs = app.panes[0]?.vcs ?? 1;
  const opts = [
    ['occupancy', 'occupancy (all VCs)'],
    ['utilization', 'utilization'],
  ];
  for (let v = 0; v < vcs; v++) opts.push([`vc${v}`, `VC ${v} occupancy`]);
  const want = app.experiment.view.metric;
  const key = opts.map((o) => o[0]).join();
  if (sel.dataset.key !== key) {
    sel.replaceChildren(...opts.map(([v, t]) => new Option(t, v)));
    sel.dataset.key = key;
  }
  // A VC the network lacks (a link's vc9 on 4 VCs: main reports it) falls back to all VCs;
  // without panes (the simulator crashed) the network's VCs are unknown: kept as asked.
  if (app.panes.length && !opts.some((o) => o[0] === want)) app.experiment.view.metric = 'occupancy';
  sel.value = app.experiment.view.metric;
  const dense = app.panes.some((p) => p.info.channels > DENSE_CHANNELS)
    ? `; in networks of over ${DENSE_CHANNELS.toLocaleString('en')} channels only those at least half full are coloured, the others stay grey`
    : '';
  const [, mid, hi] = rampLabels(sel.value);
  const range = storyLook().range ?? 1;
  $('legend-metric').textContent = `${legendMetricText(sel.value)}${range !== 1 ? `; full colour from ${hi.replace('≥ ', '')} on` : ''}${dense}`;
  $('ramp-mid').textContent = mid;
  $('ramp-hi').textContent = hi;
  syncFocusLegend();
}

// How the story draws its picture: the value shown in full colour for the current metric
// (`range`, e.g. a quarter full when the point is a queue building up) and how much the
// channels outside its focus are dimmed (`dim`, their opacity).
function storyLook() {
  const p = storyOf(app.experiment);
  if (!p) return {};
  const look = {};
  const range = p.ranges?.[app.experiment.view.metric];
  if (range) look.range = range;
  if (p.focus?.dim !== undefined) look.dim = p.focus.dim;
  if (p.focus?.routerScale !== undefined) look.routerScale = p.focus.routerScale;
  return look;
}
app.storyLook = storyLook;

// The ramp's three labels (idle, middle, full colour) for a metric and the story's range.
function rampLabels(metric) {
  const r = storyLook().range ?? 1;
  const num = (x) => String(Number(x.toFixed(3)));
  const pct = (x) => `${Number((100 * x).toFixed(1))} %`;
  const ge = r < 1 ? '≥ ' : '';
  if (metric === 'utilization') return ['idle', num(r / 2), `${ge}${num(r)} flit/cycle`];
  return ['idle', pct(r / 2), r < 1 ? `${ge}${pct(r)}` : 'full'];
}

function legendMetricText(metric) {
  return (
    {
      occupancy: "link colour: flits buffered where the channel arrives, over that input port's capacity (all VCs)",
      utilization: 'link colour: flits sent on the channel per cycle (smoothed over ≈32 cycles)',
    }[metric] ?? `link colour: flits in VC ${metric.slice(2)} where the channel arrives, over the VC's depth`
  );
}

// The legend's row for a story's focus channels (shown only while some pane has them).
function syncFocusLegend() {
  const rule = storyOf(app.experiment)?.focus;
  const on = Boolean(rule && app.panes.some((p) => p.focus));
  $('legend-focus-row').hidden = !on;
  $('legend-focus').textContent = on ? `orange casing: ${rule.label}${rule.dim === 1 ? '' : '; the other channels are dimmed'}` : '';
  syncFailedLegend();
}

// The legend's row for failed links (shown while some pane has one).
function syncFailedLegend() {
  const counts = app.panes.map((p) => p.failedLinks ?? 0);
  const on = counts.some((n) => n > 0);
  const each = counts.every((n) => n === counts[0]) ? `${counts[0]}` : counts.map((n, i) => `${app.panes[i].variant.name}: ${n}`).join(', ');
  $('legend-failed-row').hidden = !on;
  $('legend-failed').textContent = on ? `dashed, crossed out: failed link (carries nothing; ${each} failed)` : '';
  document.body.classList.toggle('has-failed', on);
}

// Links failed or recovered in some panes (www/ui/faults.js): the focus that depends on them,
// the legend, the form, the URL and the story's "modified" follow; the sweep's points no
// longer describe the experiment.
function onFaultsChanged() {
  refocus();
  syncUi();
  resetSweep();
  redraw();
}

// What the PNG export draws under the networks: the ramp and what it means.
function exportLegend() {
  const metric = app.experiment.view.metric;
  const rule = storyOf(app.experiment)?.focus;
  return {
    text: legendMetricText(metric),
    labels: rampLabels(metric),
    focus: rule && app.panes.some((p) => p.focus) ? `orange casing: ${rule.label}` : null,
    focusColour: COLOURS.focus,
    extra: `${app.experiment.view.routers === 'nonmin' ? `router: share of its routed packets sent non-minimally (last ${DECISION_WINDOW} cycles; darkest ≥ ${100 * SHARE_FULL} %)` : 'router: white = idle, darker = fuller injection buffers'} · ring: packets waiting at the source${app.panes.some((p) => p.failedLinks > 0) ? ' · dashed, crossed out: failed link' : ''}`,
    // The packet symbols, while the picture draws packets.
    packets: app.packetsShown ? PACKET_LEGEND : null,
  };
}

function setPresent(on) {
  app.present = Boolean(on);
  document.documentElement.classList.toggle('present', app.present);
  document.body.classList.toggle('present', app.present);
  $('btn-present').setAttribute('aria-pressed', String(app.present));
  if (app.present) window.scrollTo(0, 0);
  layoutStage(app.panes.length);
  redraw({ plots: true });
  writeUrlSoon();
}
app.setPresent = setPresent;

function setView(zoom, cx, cy) {
  for (const p of app.panes) p.view.setView(zoom, cx, cy);
  Object.assign(app.experiment.view, { zoom, cx, cy });
  writeUrlSoon();
}

function syncViewFrom(pane) {
  const v = pane.view;
  setView(v.zoom, v.centre[0], v.centre[1]);
}

const updateInspector = () => renderInspector(app);

const { want, nextStep, onSnapshot, frame, redraw, resetRate } = animation(app, { showStopped, showCrash, setRunning, notice, updateInspector });

// ----------------------------------------------------------------- sweep

function resetSweep() {
  app.sweep?.stop();
  app.sweep = new Sweep(onSweepUpdate);
  onSweepUpdate(app.sweep);
}

function onSweepUpdate(sw) {
  buttonById('btn-sweep').disabled = sw.running;
  buttonById('btn-sweep-stop').disabled = !sw.running;
  const msg = sw.error;
  $('sweep-msg').textContent = msg ?? '';
  $('sweep-msg').hidden = !msg;
  $('sweep-status').textContent = sw.total ? `${sw.done} of ${sw.total} points${sw.running ? ' — running' : ' — done'}` : '';
  redraw({ key: false, plots: true });
}

function startSweep() {
  const parsed = parseLoads(inputById('sweep-loads').value);
  if (parsed.error) {
    $('sweep-msg').textContent = parsed.error;
    $('sweep-msg').hidden = false;
    return;
  }
  const variants = app.model.variants(app.experiment).map((v, i) => ({ ...v, config: app.panes[i] ? app.panes[i].config : v.config }));
  app.sweep.start(variants, parsed.loads);
}

// ----------------------------------------------------------------- cost view

function showTab(tab) {
  if (tab !== 'sim' && app.present) setPresent(false); // present mode is the simulation's
  app.tab = tab;
  document.body.dataset.tab = tab;
  $('tab-sim').setAttribute('aria-selected', String(tab === 'sim'));
  $('tab-cost').setAttribute('aria-selected', String(tab === 'cost'));
  app.lastFrameAt = null;
  resetRate();
  app.cost?.show(tab === 'cost');
  if (tab === 'sim') writeUrl();
}

// ----------------------------------------------------------------- wiring

function wireControls() {
  $('btn-run').addEventListener('click', () => {
    if (app.crashed || !app.panes.length || app.stopped) return;
    setRunning(!app.running);
  });
  $('btn-step').addEventListener('click', step);
  // Reset restarts from cycle 0 and keeps running or paused as it was (a paused class
  // stays on the first cycle, to be stepped through).
  const reset = () => {
    const run = app.running || app.crashed || app.stopped;
    serial(() => app.experiment && applyExperiment(clone(app.experiment), { keepStats: true, run }));
    notice(null);
  };
  $('btn-reset').addEventListener('click', reset);
  $('error-reset').addEventListener('click', reset);
  // After a crash: the same experiment with fewer panes and halved buffers and queues
  // (www/ui/crash.js), saying what changed.
  $('error-smaller').addEventListener('click', () => {
    const smaller = app.smaller;
    if (!smaller || !app.crashed) return;
    serial(async () => {
      if (await applyExperiment(clone(smaller.experiment))) notice(`Reloaded smaller: ${smaller.changes.join('; ')}.`);
    });
  });
  $('story-restore').addEventListener('click', () => {
    if (app.experiment?.preset) applyPreset(app.experiment.preset, { run: app.running });
  });
  $('btn-present').addEventListener('click', () => setPresent(!app.present));
  // Run until a cycle: a whole number past the current cycle runs on and pauses there.
  const runUntil = inputById('run-until');
  runUntil.addEventListener('change', () => untilCycle(runUntil.value));
  // Step back, back to a cycle, run until an event (www/ui/time-control.js); the load while
  // running (www/ui/live-load.js).
  app.timeControl = new TimeControl(app, { serial, setRunning, notice, updateInspector, untilCycle, liveChanged, redraw, resetRate });
  app.timeControl.wire();
  app.liveLoad = new LiveLoad(app, {
    changed: () => liveChanged(),
    recordEdit: (at, before) => app.timeControl.recordEdit(at, before),
    liveState: () => app.timeControl.liveState(),
  });
  app.liveLoad.wire();
  const routerMetric = selectById('router-metric');
  routerMetric.addEventListener('change', () => {
    app.experiment.view.routers = routerMetric.value;
    syncRouterLegend();
    writeUrlSoon();
  });
  const showPackets = inputById('show-packets');
  showPackets.addEventListener('change', () => {
    app.experiment.view.packets = showPackets.checked;
    writeUrlSoon();
  });
  $('btn-present-exit').addEventListener('click', () => setPresent(false));
  $('btn-apply').addEventListener('click', () => {
    // Too long, not JSON, too deep or with a repeated key: refused before it is walked.
    const { value: parsed, error } = parseConfigText(byId('config', HTMLTextAreaElement).value);
    if (error) {
      showConfigError(error);
      return;
    }
    // Unknown paths (a typo, or a prototype key) and values of the wrong type are refused
    // here, before the config is built from them; the engine checks the rest.
    const problems = app.model.configProblems(parsed);
    if (problems.length) {
      showConfigError(problems.map((e) => `${clip(e.path, 80)}: ${e.message}`).join('\n'));
      return;
    }
    serial(() => {
      const exp = clone(app.experiment);
      exp.config = app.model.complete(parsed);
      return applyExperiment(exp, { source: 'json' });
    });
  });
  const cyclesPerFrame = inputById('cycles-per-frame');
  cyclesPerFrame.addEventListener('change', () => setSpeed(cyclesPerFrame.value, { typed: true }));
  const speedSlider = inputById('speed-slider');
  speedSlider.addEventListener('input', () => setSpeed(SPEEDS[Number(speedSlider.value)]));
  const linkMetric = selectById('link-metric');
  linkMetric.addEventListener('change', () => {
    app.experiment.view.metric = linkMetric.value;
    syncMetric();
    writeUrlSoon();
  });
  const smooth = inputById('smooth');
  smooth.addEventListener('change', () => {
    app.experiment.view.smooth = smooth.checked;
    writeUrlSoon();
  });
  const vcCells = inputById('vc-cells');
  vcCells.addEventListener('change', () => {
    app.experiment.view.vcCells = vcCells.checked;
    writeUrlSoon();
  });
  $('btn-fit').addEventListener('click', () => setView(1, 0.5, 0.5));
  selectById('compare-param').addEventListener('change', onCompareParam);
  inputById('compare-values').addEventListener('change', onCompareValues);
  const preset = selectById('preset');
  preset.addEventListener('change', () => applyPreset(preset.value));
  $('notice-close').addEventListener('click', () => notice(null));
  $('inspector-close').addEventListener('click', () => {
    app.selection = null;
    app.hover = null;
    updateInspector();
  });
  buttonById('btn-sweep').addEventListener('click', startSweep);
  $('tab-sim').addEventListener('click', () => showTab('sim'));
  $('tab-cost').addEventListener('click', () => showTab('cost'));
  buttonById('btn-sweep-stop').addEventListener('click', () => {
    app.sweep.stop();
    onSweepUpdate(app.sweep);
  });
  $('btn-share').addEventListener('click', async () => {
    writeUrl();
    // The link read back as the page that opens it will read it: anything it would refuse
    // or read differently is said before the sharer sends it.
    const problems = linkProblems(location.search);
    const warning = problems.length ? `\nBut the page that opens it would not show this experiment as it is:\n${problems.map((p) => `• ${p}`).join('\n')}` : '';
    try {
      await navigator.clipboard.writeText(location.href);
      notice(`Link to this experiment copied to the clipboard.${warning}`);
    } catch {
      notice(`Link to this experiment: ${location.href}${warning}`);
    }
  });
  $('btn-export-csv').addEventListener('click', () => downloadText('hiradix-stats.csv', statsCsv(app), 'text/csv'));
  $('btn-export-json').addEventListener('click', () => downloadText('hiradix-stats.json', JSON.stringify(statsJson(app), null, 2), 'application/json'));
  $('btn-export-png').addEventListener('click', async () => {
    const blob = await canvasesToPng(
      app.panes.map((p) => ({ canvas: p.canvas, title: p.title, colour: p.colour, now: p.now })),
      exportLegend(),
    );
    download('hiradix-network.png', blob);
  });
  app.exportLegend = exportLegend; // for tests
  app.exportPng = () =>
    canvasesToPng(
      app.panes.map((p) => ({ canvas: p.canvas, title: p.title, colour: p.colour, now: p.now })),
      exportLegend(),
    );
  app.trace = new PacketTrace(app, { notice });
  app.trace.onLinkChange = () => writeUrlSoon();
  $('btn-trace').addEventListener('click', toggleTrace);
  app.failLinks = new FailLinks(app, { serial, changed: onFaultsChanged });
  $('btn-fail').addEventListener('click', () => app.failLinks.toggle());
  $('fault-msg-close').addEventListener('click', () => app.failLinks.say(null));
  $('trace-clear').addEventListener('click', () => app.trace.clear());
  // Trace buttons in the (constantly refreshed) inspector act on pointerdown.
  $('inspector-body').addEventListener('pointerdown', (ev) => {
    const b = ev.target instanceof Element ? ev.target.closest('button') : null;
    const sel = app.selection;
    if (!b || !sel || sel.kind !== 'router') return;
    if (b.classList.contains('trace-here')) app.trace.armAt(sel.index);
    else if (b.classList.contains('vc-trace')) app.trace.followQueueHead(sel.pane, sel.index, Number(b.dataset.port), Number(b.dataset.vc));
  });
  document.addEventListener('keydown', onKey);
  drawRamp($('legend-ramp'));
  app.relayout = watchLayout(() => app.panes.length);
  // Whether the statistics below the stage are on screen (see animation.js).
  new IntersectionObserver((entries) => {
    const on = entries.some((e) => e.isIntersecting);
    if (on && app.lowerVisible === false) redraw({ key: false, plots: true });
    app.lowerVisible = on;
  }).observe(document.querySelector('.lower'));
  app.renderKey = () => renderKey(app, storyOf(app.experiment), app.present);
  wireCanvasEvents(app, $('panes'), { setView, syncViewFrom, pickTrace: (r) => app.trace.armAt(r), failLink: (pane, c) => app.failLinks.click(pane, c) });
}

// Run until a cycle: a whole number past the current cycle runs on and pauses there.
function untilCycle(raw) {
  const n = Number(raw);
  const now = app.panes[0]?.now ?? 0;
  if (!String(raw).trim() || !Number.isInteger(n) || n <= now) {
    app.until = 0;
    inputById('run-until').value = '';
    return;
  }
  inputById('run-until').value = String(n);
  app.until = n;
  if (!app.running && !app.crashed && !app.stopped) setRunning(true);
}

// The story's focus on every pane, selected by the engine in each pane's worker (with the
// next step) on the links as they are now (the detours around failed links follow them);
// the legend and the key plots follow once it has answered.
async function refocus() {
  const rule = storyOf(app.experiment)?.focus ?? null;
  await Promise.all(app.panes.map((p) => p.setFocus(rule)));
  syncFocusLegend();
  redraw();
}

// The load or the failed links changed while running (the load control, or a rewind that
// undid such a change): the focus that depends on the links, the form, the URL and the
// story's "modified" follow.
function liveChanged({ links = false } = {}) {
  if (links) {
    refocus();
    resetSweep();
  }
  syncUi();
  redraw();
}

// The legend's router row says what the routers' colour shows.
function syncRouterLegend() {
  const byShare = app.experiment?.view.routers === 'nonmin';
  $('legend-router').textContent = byShare
    ? `router: share of its routed packets sent non-minimally, last ${DECISION_WINDOW} cycles (white = none, darkest ≥ ${100 * SHARE_FULL} %)`
    : 'router: white = idle, darker = fuller injection buffers';
}

// Trace (button or t): picking a router to trace ends picking links to fail.
function toggleTrace() {
  app.trace.togglePicking();
  if (app.trace.picking) app.failLinks.setPicking(false);
}

// One cycle, in the worker; the snapshot after it lands a moment later.
function step() {
  if (!app.panes.length || app.crashed || app.stopped) return;
  setRunning(false);
  app.pacer.steps++;
  app.sims.pump();
}

function onKey(ev) {
  const tag = ev.target?.tagName;
  if (ev.key === 'Escape') {
    if (app.present && !app.selection && !app.trace.picking && !app.failPicking) setPresent(false);
    if (app.trace.picking) app.trace.setPicking(false);
    if (app.failPicking) app.failLinks.setPicking(false);
    app.selection = null;
    updateInspector();
    return;
  }
  if (tag === 'INPUT' || tag === 'SELECT' || tag === 'TEXTAREA' || ev.ctrlKey || ev.metaKey || ev.altKey || app.tab !== 'sim') return;
  // Space and Enter on a focused control are that control's (a button clicks, a summary
  // folds): the page does not also toggle play.
  const onControl = ev.target?.closest?.('button, a[href], summary, [role=tab], [contenteditable=true]');
  if ((ev.key === ' ' || ev.key === 'Enter') && onControl) return;
  // On a focused network canvas, ↑ / ↓ walk its routers: the inspector follows (pinned).
  if ((ev.key === 'ArrowUp' || ev.key === 'ArrowDown') && ev.target?.classList?.contains('net')) {
    const pane = app.panes[Number(ev.target.dataset.pane)];
    if (!pane) return;
    ev.preventDefault();
    const n = pane.info.routers;
    const cur = app.selection?.kind === 'router' && app.selection.pane === pane.index ? app.selection.index : -1;
    const next = ev.key === 'ArrowDown' ? (cur + 1) % n : (cur - 1 + n) % n;
    app.selection = { pane: pane.index, kind: 'router', index: next };
    updateInspector();
    return;
  }
  const speedIndex = Number(inputById('speed-slider').value);
  switch (ev.key) {
    case ' ':
      ev.preventDefault();
      $('btn-run').click();
      break;
    case 'p':
    case 'P':
      setPresent(!app.present);
      break;
    case 'ArrowRight':
    case '.':
      ev.preventDefault();
      step();
      break;
    case 'ArrowLeft':
      ev.preventDefault();
      app.timeControl.stepBack();
      break;
    case 'r':
    case 'R':
      $('btn-reset').click();
      break;
    case '+':
    case '=':
      setSpeed(SPEEDS[Math.min(SPEEDS.length - 1, speedIndex + 1)]);
      break;
    case '-':
    case '_':
      setSpeed(SPEEDS[Math.max(0, speedIndex - 1)]);
      break;
    case 'f':
    case 'F':
      setView(1, 0.5, 0.5);
      break;
    case 't':
    case 'T':
      toggleTrace();
      break;
    case 'x':
    case 'X':
      app.failLinks.toggle();
      break;
    default:
  }
}

window.addEventListener('error', (e) => showCrash(e.error ?? e.message));
window.addEventListener('unhandledrejection', (e) => showCrash(e.reason));

async function main() {
  app.sims = new SimClient({ nextStep, onSnapshot, onCrash: (message) => showCrash(null, message) });
  wireControls();
  await init();
  app.catalog = catalog();
  app.model = new Model(app.catalog);
  const readStory = async (/** @type {string} */ name) => {
    const r = await fetch(new URL(name, BUILTIN_STORIES));
    if (!r.ok) throw new Error(`${name}: ${r.status} ${r.statusText}`);
    return r.text();
  };
  const storyProblems = await loadStories(readStory, checkStory).then(
    (loaded) => loaded.problems,
    (e) => [`the built-in stories could not be loaded (${messageOf(e)})`],
  );
  app.presets = presetExperiments(app.model);
  for (const p of PRESETS) selectById('preset').append(new Option(p.title, p.id));
  app.controls = new Controls($('controls'), app.model, { onChange: onControlChange });
  resetSweep();
  const costLink = splitCostParams(location.search);
  app.cost = new CostView($('cost-view'), { onChange: writeUrlSoon, onCrash: showCrash });
  app.cost.setValues(costLink.values);
  const fallback = newExperiment(app.model.complete(DEFAULT_CONFIG));
  const decoded = decodeExperiment(app.model, costLink.rest, app.presets);
  const problems = [...storyProblems, ...costLink.problems, ...decoded.problems];
  const asked = decoded.experiment ? clone(decoded.experiment.view) : null;
  let fromLink = false;
  // The link stays as the visitor opened it until its experiment runs: if it crashes the
  // simulator, the page keeps it (and the link) to try again or reload smaller.
  app.linkKept = true;
  if (decoded.experiment) {
    app.experiment = fallback; // the controls need an experiment to show errors against
    app.controls.show(decoded.experiment.config);
    fromLink = await applyExperiment(decoded.experiment);
    if (!fromLink && !app.crashed) {
      problems.push(...(app.lastErrors ?? []));
      app.experiment = null;
    }
  }
  // A first visit (no experiment in the link) opens on a story, so the page shows what it
  // is for within seconds; the catalog's default config is the fallback for broken links.
  const first = !decoded.experiment && !problems.length ? app.presets.get(FIRST_STORY) : null;
  if (first) {
    app.experiment = fallback;
    fromLink = await applyExperiment(clone(first.experiment));
    if (fromLink) inputById('sweep-loads').value = first.preset.sweep;
  }
  // Never the default behind the visitor's back after a crash: the banner offers the way on.
  const ok = fromLink || app.crashed || (await applyExperiment(fallback));
  if (fromLink && decoded.experiment?.preset) {
    const p = app.presets.get(decoded.experiment.preset);
    if (p) inputById('sweep-loads').value = p.preset.sweep;
  }
  if (fromLink && decoded.trace) {
    const problem = app.trace.armFromLink(decoded.trace);
    if (problem) problems.push(problem);
  }
  // A link colour for a VC the network does not have: known only once it is built.
  if (fromLink && asked && asked.metric !== app.experiment.view.metric) {
    const vcs = app.panes[0]?.vcs ?? 1;
    problems.push(`metric: '${clip(asked.metric, 60)}' is not a link colour of this network (its VCs are vc0 to vc${vcs - 1}); occupancy (all VCs) used`);
  }
  if (problems.length) {
    const tail = decoded.experiment && !fromLink && !app.crashed ? '\nShowing the default experiment instead.' : '';
    notice(`This link's experiment could not be used as it is:\n${[...new Set(problems)].map((p) => `• ${p}`).join('\n')}${tail}`);
  }
  if (!ok) setState('error');
  if (decoded.paused) setRunning(false);
  if (decoded.present) setPresent(true);
  if (costLink.open) showTab('cost');
  requestAnimationFrame(frame);
}

// Queued like every action that builds an experiment: a control changed while the page
// loads takes effect after the experiment it opens on. `loaded` resolves once the page
// shows its first experiment and any message about its link (for tests and scripts/).
app.loaded = serial(main).then(
  () => 'ok',
  (e) => `error: ${e}`,
);
