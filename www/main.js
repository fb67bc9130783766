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
import { byId, clip, inputById, selectById } from './lib/dom.js';
import { parseConfigText } from './model/json-check.js';
import { grouped } from './model/decisions.js';
import { messageOf } from './lib/errors.js';
import { BUILTIN_STORIES, PRESETS, loadStories, presetExperiments } from './stories/presets.js';
import { describeCrash, smallerExperiment } from './ui/crash.js';
import { Pane } from './sim/pane.js';
import { layoutStage, watchLayout } from './render/layout.js';
import { decodeExperiment, encodeExperiment, readEmbed, splitStoryParam, withPreset } from './model/url-state.js';
import { Inspector, wireCanvasEvents } from './ui/interaction.js';
import { statsCsv, statsJson } from './ui/stats-view.js';
import { canvasesToPng, download, downloadText } from './ui/export.js';
import { CostView, splitCostParams } from './ui/cost-view.js';
import { PacketTrace } from './ui/trace-view.js';
import { RemoteSim } from './sim/remote-sim.js';
import { animation } from './ui/animation.js';
import { FailLinks } from './ui/faults.js';
import { TimeControl } from './ui/time-control.js';
import { ScenePlayer } from './ui/scene-player.js';
import { LiveLoad } from './ui/live-load.js';
import { drawRamp } from './render/network-view.js';
import { ExperimentState } from './stories/experiment-state.js';
import { SimState } from './sim/sim-state.js';
import { RunState } from './sim/run-state.js';
import { ViewState } from './render/view-state.js';
import { exportLegend, syncFocusLegend, syncMetric, syncRouterLegend } from './render/legend.js';
import { showStory } from './stories/story-panel.js';
import { SweepPanel } from './ui/sweep-panel.js';
import { facade } from './ui/facade.js';
import { StoryShare } from './ui/story-share.js';
import { StoryEditor } from './ui/story-editor.js';

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

// The page's state, each part written by one owner and announcing its changes (see
// docs/ARCHITECTURE.md#the-page): the experiment and its story, the simulations (panes,
// worker generation, SimClient), the run (running, crashed, stopped, until) and the view
// (selection, hover, present mode, tab, metric). The other modules get the parts they read
// and call the owners' methods to change them.
const experiments = new ExperimentState();
const sim = new SimState();
const run = new RunState();
const view = new ViewState(experiments);

// This file's own state: the controls and the cost view (built once the catalog is
// loaded), the last experiment's problems, the crash shown and what "Reload smaller" loads,
// and whether the link the page opened is kept as it was (see writeUrl).
/** @type {Controls | null} */
let controls = null;
/** @type {CostView | null} */
let cost = null;
/** @type {string[]} */
let lastErrors = [];
let crashMessage = '';
let smaller = null;
let linkKept = false;
let relayout = () => {};

const updateInspector = () => inspector.update();
const trace = new PacketTrace(sim, { notice });
// Step back, back to a cycle, run until an event (www/ui/time-control.js); the load while
// running (www/ui/live-load.js); failed links (www/ui/faults.js).
const timeControl = new TimeControl({ experiments, sim, run, view }, { serial, setRunning, notice, updateInspector, untilCycle, liveChanged });
const liveLoad = new LiveLoad(
  { experiments, sim, run },
  {
    changed: () => liveChanged(),
    recordEdit: (at, before) => timeControl.recordEdit(at, before),
    liveState: () => timeControl.liveState(),
  },
);
const failLinks = new FailLinks({ experiments, sim, run, trace, timeControl }, { serial, changed: onFaultsChanged });
const inspector = new Inspector({ sim, view, run, failLinks });
const sweeps = new SweepPanel({ experiments, sim, view });
// A story's scenes, one per clicker press (www/ui/scene-player.js).
const scenes = new ScenePlayer(
  { experiments, sim, run, view, timeControl, liveLoad, failLinks },
  { serial, untilCycle: (cycle) => untilCycle(String(cycle)), applyView: applySceneView, refocus, updateInspector, notice },
);
// Share story, Download story, Open story… and a dropped story document (www/ui/story-share.js).
const storyShare = new StoryShare({ experiments }, { checkStory: (text) => checkStory(text), applyPreset, notice });
// Edit story / New story…: a story written beside the picture, saved as an opened one (www/ui/story-editor.js).
const storyEditor = new StoryEditor(
  { experiments, sim, view },
  { checkStory: (text) => checkStory(text), open: (doc, said) => storyShare.openChecked(doc, 'editor', said), previewFocus },
);
const anim = animation({ experiments, sim, run, view, trace, timeControl, liveLoad, inspector, sweeps }, { showStopped, showCrash, setRunning, notice });

// The owners' events: the "until" box shows the run's; a changed view or speed goes into
// the URL; present mode and the tab lay the page out.
run.on('changed', ({ what }) => {
  if (what === 'until') inputById('run-until').value = run.until > 0 ? String(run.until) : '';
});
experiments.on('changed', ({ how }) => {
  if (how === 'view' || how === 'speed') writeUrlSoon();
});
view.on('changed', ({ what }) => {
  if (what === 'present') presentChanged();
  if (what === 'embed') embedChanged();
  if (what === 'tab') tabChanged();
});

// ----------------------------------------------------------------- banners and state

function setState(s) {
  document.body.dataset.state = s;
}

// Paused once the step in flight (if any) has landed: from then on the cycle stays put.
function setRunning(on) {
  run.setRunning(on);
  $('btn-run').textContent = on ? 'Pause' : 'Run';
  if (!on) sim.pacer.stop();
  if (!run.usable) return;
  if (on) setState('running');
  else {
    sim.sims.idle().then(() => {
      if (!run.running && run.usable) setState('paused');
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

// The notice above the picture (null: none). A report (`fades`: a story saved, a link
// copied) goes by itself after NOTICE_FADE_MS, as it would otherwise cover the picture while
// the class watches; a problem stays until dismissed, replaced or (`about`) put right.
let noticeTimer = 0;
let noticeAbout = '';
const NOTICE_FADE_MS = 8000;
function notice(text, { fades = false, about = '' } = {}) {
  clearTimeout(noticeTimer);
  $('notice-text').textContent = text ?? '';
  $('notice').hidden = !text;
  noticeAbout = text ? about : '';
  if (text && fades) noticeTimer = window.setTimeout(() => notice(null), NOTICE_FADE_MS);
}

// The notice goes if it is about `about` (the control it names now reads).
function noticeResolved(about) {
  if (noticeAbout === about) notice(null);
}

// A Rust panic (a wasm call trapped: in the simulation worker, `message` is its panic
// message), a worker that died (e.g. out of memory) or an uncaught JS error. The
// experiment stays the page's, as the visitor had it (and its link): the banner says what
// happened and offers to try again or to reload it smaller (www/ui/crash.js).
function showCrash(err, message = null) {
  if (run.crashed) return;
  run.crash();
  // The worker is unusable after a trap: drop it (the next experiment starts a new one).
  sim.clear({ stopWorkers: true });
  trace.stop();
  let panic = message;
  try {
    panic ??= lastPanic();
  } catch {
    // The module itself may be unusable; fall back to the JS error.
  }
  crashMessage = panic ?? String(err?.stack ?? err);
  showCrashBanner();
  $('btn-run').textContent = 'Run';
  setState('crashed');
}

// The crash banner for the page's experiment: what happened, in plain words, and what
// "Reload smaller" would change.
function showCrashBanner() {
  const exp = experiments.experiment;
  const model = experiments.model;
  smaller = exp && model ? smallerExperiment(exp, model) : null;
  const { title, text } = describeCrash(crashMessage, exp && model ? model.variants(exp).length : 1, Boolean(smaller));
  showBanner(title, text, { retry: 'Try again', smaller });
}

// The experiment `exp` crashed the simulator while being built: it stays the page's, as
// asked (controls, JSON box, story), so that Try again and Reload smaller start from it.
// The link a visitor opened stays exactly as it was.
function keepCrashed(exp) {
  experiments.set(exp);
  controls.clearErrors();
  showControlsMessage(null);
  showCompareMessage(null);
  syncUi();
  layoutStage(0);
  showCrashBanner();
}

// The simulation itself stopped (the deadlock watchdog tripped): not a bug of the page.
function showStopped(message) {
  run.stop();
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
  const queued = chain.then(fn);
  chain = queued.catch((e) => showCrash(e));
  return queued;
}
let chain = Promise.resolve();

/**
 * Builds the panes of an experiment (in the worker). On success replaces the running ones
 * and resolves to true; on failure keeps them, shows every problem next to its control
 * (and in the JSON box when `source` is 'json') and resolves to false.
 */
async function applyExperiment(exp, { source = 'controls', keepStats = false, run: running = true } = {}) {
  const variants = experiments.model.variants(exp);
  let reply;
  try {
    reply = await sim.sims.create(
      variants.map((v) => v.config),
      anim.want(),
    );
  } catch {
    // The worker crashed (the banner says why): this experiment stays, to try again.
    if (run.crashed) keepCrashed(exp);
    return false;
  }
  controls.clearErrors();
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
      const unplaced = controls.setErrors(rest, prefix);
      for (const e of unplaced) lines.push(`${prefix}${e.path}: ${e.message}`);
      for (const e of errors) all.push(`${prefix}${e.path}: ${e.message}`);
    }
    lastErrors = [...new Set(all)];
    if (source === 'json') showConfigError(lastErrors.join('\n'));
    else showControlsMessage([...new Set(lines)].join('\n') || null);
    return false;
  }
  showControlsMessage(null);
  lastErrors = [];
  if (source === 'json') showConfigError(null);
  // A message about the experiment being replaced (a refused link, a finished batch, a
  // changed network type, a refused link failure) has lost its cause.
  notice(null);
  failLinks.say(null);
  timeControl.say(null);
  liveLoad.say(null);
  // Replace the panes (their live edits, statistics sampling and rate go with them).
  sim.clear();
  trace.stop();
  const container = $('panes');
  container.className = `panes n${variants.length}`;
  sim.replace(
    reply.statics.map((data, i) => new Pane(container, i, variants[i], new RemoteSim(sim.sims, reply.gen, i, data, reply.panes[i]))),
    reply.gen,
  );
  const prev = experiments.experiment;
  const configChanged = !prev || !sameValue(prev.config, exp.config) || !sameValue(prev.compare, exp.compare);
  experiments.set(exp);
  run.fresh();
  linkKept = false;
  $('error-banner').hidden = true;
  view.select(null);
  view.setHover(null);
  if (configChanged && !keepStats) sweeps.reset();
  for (const p of sim.panes) p.view.setView(exp.view.zoom, exp.view.cx, exp.view.cy);
  syncUi();
  updateInspector();
  layoutStage(sim.panes.length);
  setRunning(running);
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
  const exp = experiments.experiment;
  const pane = sim.panes[0];
  const varied = exp.compare?.param ?? null;
  controls.show(exp.config, { readers: experiments.model.variants(exp).map((v) => v.config), varied });
  controls.setVaried(varied);
  byId('config', HTMLTextAreaElement).value = JSON.stringify(exp.config, null, 2);
  syncCompare();
  syncSpeed();
  syncMetric(experiments, sim.panes);
  inputById('vc-cells').checked = exp.view.vcCells;
  inputById('smooth').checked = exp.view.smooth;
  selectById('router-metric').value = exp.view.routers === 'nonmin' ? 'nonmin' : 'fill';
  inputById('show-packets').checked = exp.view.packets !== false;
  syncRouterLegend(experiments);
  liveLoad.refresh();
  selectById('preset').value = exp.preset || '';
  showStory(experiments);
  if (pane) {
    $('stat-routers').textContent = String(pane.info.routers);
    $('stat-terminals').textContent = String(pane.info.terminals);
    $('stat-channels').textContent = String(pane.info.channels);
  }
  $('fig9-box').hidden = !sim.panes.some((p) => p.info.family === 'dragonfly');
  writeUrl();
}

function writeUrl() {
  // The link the page opened stays as it was until an experiment from it runs (one that
  // crashed the simulator is kept as the visitor had it).
  if (!experiments.experiment || linkKept) return;
  // An opened story: its `story=` first, so a reload reopens it; one too large for a link
  // is left out, and so is its `preset=`, which no other page would know (url-state.js).
  const exp = experiments.experiment;
  const opened = exp.preset ? experiments.presets.get(exp.preset)?.opened : null;
  const story = opened?.source ?? null;
  const shown = opened && !story ? { ...exp, preset: '' } : exp;
  const q = encodeExperiment(experiments.model, shown, { trace: trace.link, present: view.present, embed: view.embed, story });
  const costQ = cost?.urlParams();
  const url = `${location.pathname}?${q}${costQ ? `&${costQ}` : ''}`;
  if (url !== `${location.pathname}${location.search}`) history.replaceState(null, '', url);
}

/**
 * What a page opening `search` would refuse or show differently from the experiment shown
 * here: the link read back with the same readers (decodeExperiment, splitCostParams).
 */
function linkProblems(search) {
  const costLink = splitCostParams(search);
  // An opened story's `story=` is this session's: the story is registered already.
  const storyLink = splitStoryParam(costLink.rest);
  const decoded = decodeExperiment(experiments.model, storyLink.rest, experiments.presets);
  const problems = [...costLink.problems, ...decoded.problems];
  const exp = decoded.experiment;
  if (!problems.length && experiments.experiment && exp) {
    const differs = [];
    const leaves = (c) => new Map(flatten(c).map(([path, v]) => [path, JSON.stringify(v)]));
    const [a, b] = [leaves(exp.config), leaves(experiments.experiment.config)];
    if (a.size !== b.size || [...a].some(([path, v]) => b.get(path) !== v)) differs.push('its settings');
    if (!sameValue(exp.compare ?? null, experiments.experiment.compare ?? null)) differs.push('its side-by-side panes');
    if (differs.length) problems.push(`${differs.join(' and ')} would read back differently`);
  }
  return problems;
}

let urlTimer = null;
function writeUrlSoon() {
  clearTimeout(urlTimer);
  urlTimer = setTimeout(writeUrl, 300);
}

// A control changed one config path.
function onControlChange(path, value) {
  serial(() => {
    // A repeated change event (e.g. on blur) with the value in effect changes nothing.
    if (sameValue(getPath(experiments.experiment.config, path), value) && !lastErrors.length) return null;
    // The story stays (marked modified): its text still explains what was changed from.
    const exp = clone(experiments.experiment);
    if (path === 'topology.type') return changeTopology(exp, value);
    setPath(exp.config, path, value);
    return applyExperiment(exp);
  });
}

// A new network type: its default parameters; keep the routing and pattern if they still
// work on it, else fall back to the family's first algorithm, then to the default pattern.
async function changeTopology(exp, type) {
  const m = experiments.model;
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
  // The engine's default pattern (the catalog's default config), which every family runs.
  const fallback = experiments.catalog.default_config.traffic.pattern;
  if (fixed.config.traffic.pattern !== fallback) {
    notes.push(`traffic ${fixed.config.traffic.pattern} → ${fallback}`);
    fixed.config.traffic.pattern = fallback;
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
    return await sim.sims.check(experiments.model.variants(exp).map((v) => v.config));
  } catch {
    return false; // the worker crashed
  }
}

/**
 * A story (built-in or opened, by its id in the presets), as the story menu applies it:
 * resolves to whether it is shown.
 * @param {string} id
 * @returns {Promise<boolean>}
 */
function applyPreset(id, { run: running = true } = {}) {
  const apply = async () => {
    const entry = experiments.presets.get(id);
    if (!entry) {
      const exp = clone(experiments.experiment);
      exp.preset = '';
      experiments.set(exp);
      syncUi();
      return false;
    }
    const exp = clone(entry.experiment);
    if (await applyExperiment(exp, { run: running })) {
      inputById('sweep-loads').value = entry.preset.sweep ?? inputById('sweep-loads').value;
      return true;
    }
    return false;
  };
  return /** @type {Promise<boolean>} */ (/** @type {unknown} */ (serial(apply)));
}

// ----------------------------------------------------------------- side by side

function syncCompare() {
  const exp = experiments.experiment;
  const sel = selectById('compare-param');
  const params = experiments.model.variableParams(exp.config);
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
  if (spec && !experiments.model.variants(exp).some((v) => readsParam(spec, v.config))) {
    const when = spec.used_when;
    showCompareMessage(`no pane reads ${current}: only ${when.path} = ${when.values.join(' | ')} does, so the panes run the same simulation`);
  }
}

function onCompareParam() {
  const param = selectById('compare-param').value;
  serial(() => compareParam(param));
}

function compareParam(param) {
  const exp = clone(experiments.experiment);
  if (!param) {
    exp.compare = null;
    return applyExperiment(exp);
  }
  // Prefill: the current value and the next option (or a nearby number).
  const spec = experiments.model.variableParams(exp.config).find((p) => p.path === param);
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
  if (!experiments.experiment.compare) return null;
  const exp = clone(experiments.experiment);
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
    const problem = experiments.model.entryProblem(exp.compare.param, v, exp.config.topology.type);
    if (problem) {
      showCompareMessage(`${describeValue(v)}: ${problem}`);
      return;
    }
  }
  const spec = [...experiments.model.catalog.params, ...(experiments.model.topologyEntry(exp.config.topology.type)?.params ?? [])].find(
    (p) => p.path === exp.compare.param,
  );
  if (spec && spec.kind !== 'enum') {
    for (const v of values) {
      const r = parseControl(spec, spec.kind === 'link_list' || spec.kind === 'int_triples' ? formatValue(v) : Array.isArray(v) ? v.join(',') : v);
      if (r.error) {
        showCompareMessage(`${describeValue(v)}: ${r.error}`);
        return;
      }
    }
  }
  showCompareMessage(null);
  if (sameValue(values, experiments.experiment.compare?.values)) return;
  exp.compare = { param: exp.compare.param, values };
  return applyExperiment(exp);
}

// ----------------------------------------------------------------- speed, view, metric

function syncSpeed() {
  const s = experiments.experiment.speed;
  inputById('cycles-per-frame').value = String(Number(s.toFixed(4)));
  let best = 0;
  SPEEDS.forEach((v, i) => {
    if (Math.abs(Math.log(v / s)) < Math.abs(Math.log(SPEEDS[best] / s))) best = i;
  });
  inputById('speed-slider').value = String(best);
  $('speed-text').textContent = describeSpeed(s);
}

// A speed from the slider, a key or the cycles-per-frame box (`typed`: a bad or
// out-of-range value is said in the notice, naming the box).
function setSpeed(v, { typed = false } = {}) {
  const { speed: s, problem } = readSpeed(v);
  if (typed && problem) notice(`cycles per frame: ${problem}${s === null ? `; ${speedText(experiments.experiment.speed)} kept` : ''}`, { about: 'speed' });
  else if (typed) noticeResolved('speed');
  if (s === null) {
    syncSpeed();
    return;
  }
  experiments.setSpeed(s);
  sim.pacer.speedChanged();
  syncSpeed();
}

// Links failed or recovered in some panes (www/ui/faults.js): the focus that depends on them,
// the legend, the form, the URL and the story's "modified" follow; the sweep's points no
// longer describe the experiment.
function onFaultsChanged() {
  refocus();
  syncUi();
  sweeps.reset();
  view.redraw();
}

function setPresent(on) {
  view.setPresent(on);
}

// Present mode on or off (ViewState's 'changed'): the page laid out for it.
function presentChanged() {
  const on = view.present;
  document.documentElement.classList.toggle('present', on);
  document.body.classList.toggle('present', on);
  $('btn-present').setAttribute('aria-pressed', String(on));
  if (on) window.scrollTo(0, 0);
  layoutStage(sim.panes.length);
  view.redraw({ plots: true });
  writeUrlSoon();
}

// Embedded or not (ViewState's 'changed', from the link): the page laid out for it.
function embedChanged() {
  const on = view.embed;
  document.documentElement.classList.toggle('embed', on);
  document.body.classList.toggle('embed', on);
  layoutStage(sim.panes.length);
  view.redraw({ plots: true });
}

function setView(zoom, cx, cy) {
  for (const p of sim.panes) p.view.setView(zoom, cx, cy);
  experiments.setView({ zoom, cx, cy });
}

function syncViewFrom(pane) {
  const v = pane.view;
  setView(v.zoom, v.centre[0], v.centre[1]);
}

// ----------------------------------------------------------------- cost view

function showTab(tab) {
  if (tab !== 'sim' && view.present) setPresent(false); // present mode is the simulation's
  view.setTab(tab);
}

// The tab shown (ViewState's 'changed'; the animation measures afresh).
function tabChanged() {
  const tab = view.tab;
  document.body.dataset.tab = tab;
  $('tab-sim').setAttribute('aria-selected', String(tab === 'sim'));
  $('tab-cost').setAttribute('aria-selected', String(tab === 'cost'));
  cost?.show(tab === 'cost');
  if (tab === 'sim') writeUrl();
}

// ----------------------------------------------------------------- wiring

function wireControls() {
  $('btn-run').addEventListener('click', () => {
    if (!run.usable || !sim.panes.length) return;
    setRunning(!run.running);
  });
  $('btn-step').addEventListener('click', step);
  // Reset restarts from cycle 0 and keeps running or paused as it was (a paused class
  // stays on the first cycle, to be stepped through).
  const reset = () => {
    const keepRunning = run.running || !run.usable;
    serial(() => experiments.experiment && applyExperiment(clone(experiments.experiment), { keepStats: true, run: keepRunning }));
    notice(null);
  };
  $('btn-reset').addEventListener('click', reset);
  $('error-reset').addEventListener('click', reset);
  // After a crash: the same experiment with fewer panes and halved buffers and queues
  // (www/ui/crash.js), saying what changed.
  $('error-smaller').addEventListener('click', () => {
    const asked = smaller;
    if (!asked || !run.crashed) return;
    serial(async () => {
      if (await applyExperiment(clone(asked.experiment))) notice(`Reloaded smaller: ${asked.changes.join('; ')}.`);
    });
  });
  $('story-restore').addEventListener('click', () => {
    if (experiments.experiment?.preset) applyPreset(experiments.experiment.preset, { run: run.running });
  });
  $('btn-present').addEventListener('click', () => setPresent(!view.present));
  // Run until a cycle: a whole number past the current cycle runs on and pauses there.
  const runUntil = inputById('run-until');
  runUntil.addEventListener('change', () => untilCycle(runUntil.value));
  timeControl.wire();
  liveLoad.wire();
  scenes.wire();
  const routerMetric = selectById('router-metric');
  routerMetric.addEventListener('change', () => {
    experiments.setView({ routers: routerMetric.value });
    syncRouterLegend(experiments);
  });
  const showPackets = inputById('show-packets');
  showPackets.addEventListener('change', () => {
    experiments.setView({ packets: showPackets.checked });
  });
  $('btn-present-exit').addEventListener('click', () => setPresent(false));
  // On a phone (www/styles/hall.css) the controls are folded behind this button.
  $('btn-controls').addEventListener('click', () => {
    const open = document.body.classList.toggle('controls-open');
    $('btn-controls').setAttribute('aria-expanded', String(open));
    $('btn-controls').textContent = open ? 'Controls ▴' : 'Controls ▾';
  });
  $('btn-apply').addEventListener('click', () => {
    // Too long, not JSON, too deep or with a repeated key: refused before it is walked.
    const { value: parsed, error } = parseConfigText(byId('config', HTMLTextAreaElement).value);
    if (error) {
      showConfigError(error);
      return;
    }
    // Unknown paths (a typo, or a prototype key) and values of the wrong type are refused
    // here, before the config is built from them; the engine checks the rest.
    const problems = experiments.model.configProblems(parsed);
    if (problems.length) {
      showConfigError(problems.map((e) => `${clip(e.path, 80)}: ${e.message}`).join('\n'));
      return;
    }
    serial(() => {
      const exp = clone(experiments.experiment);
      exp.config = experiments.model.complete(parsed);
      return applyExperiment(exp, { source: 'json' });
    });
  });
  const cyclesPerFrame = inputById('cycles-per-frame');
  cyclesPerFrame.addEventListener('change', () => setSpeed(cyclesPerFrame.value, { typed: true }));
  const speedSlider = inputById('speed-slider');
  speedSlider.addEventListener('input', () => setSpeed(SPEEDS[Number(speedSlider.value)]));
  const linkMetric = selectById('link-metric');
  linkMetric.addEventListener('change', () => {
    view.setMetric(linkMetric.value);
    syncMetric(experiments, sim.panes);
  });
  const smooth = inputById('smooth');
  smooth.addEventListener('change', () => {
    experiments.setView({ smooth: smooth.checked });
  });
  const vcCells = inputById('vc-cells');
  vcCells.addEventListener('change', () => {
    experiments.setView({ vcCells: vcCells.checked });
  });
  $('btn-fit').addEventListener('click', () => setView(1, 0.5, 0.5));
  selectById('compare-param').addEventListener('change', onCompareParam);
  inputById('compare-values').addEventListener('change', onCompareValues);
  const preset = selectById('preset');
  preset.addEventListener('change', () => applyPreset(preset.value));
  $('notice-close').addEventListener('click', () => notice(null));
  $('inspector-close').addEventListener('click', () => {
    view.select(null);
    view.setHover(null);
    updateInspector();
  });
  sweeps.wire();
  storyShare.wire();
  storyEditor.wire();
  $('tab-sim').addEventListener('click', () => showTab('sim'));
  $('tab-cost').addEventListener('click', () => showTab('cost'));
  $('btn-share').addEventListener('click', async () => {
    writeUrl();
    // The link read back as the page that opens it will read it: anything it would refuse
    // or read differently is said before the sharer sends it.
    const problems = linkProblems(location.search);
    const warning = problems.length ? `\nBut the page that opens it would not show this experiment as it is:\n${problems.map((p) => `• ${p}`).join('\n')}` : '';
    try {
      await navigator.clipboard.writeText(location.href);
      notice(`Link to this experiment copied to the clipboard.${warning}`, { fades: !warning });
    } catch {
      notice(`Link to this experiment: ${location.href}${warning}`);
    }
  });
  $('btn-export-csv').addEventListener('click', () => downloadText('hiradix-stats.csv', statsCsv(statsSource()), 'text/csv'));
  $('btn-export-json').addEventListener('click', () =>
    downloadText('hiradix-stats.json', JSON.stringify(statsJson(statsSource()), null, 2), 'application/json'),
  );
  $('btn-export-png').addEventListener('click', async () => download('hiradix-network.png', await exportPng()));
  trace.onLinkChange = () => writeUrlSoon();
  $('btn-trace').addEventListener('click', toggleTrace);
  $('btn-fail').addEventListener('click', () => failLinks.toggle());
  $('fault-msg-close').addEventListener('click', () => failLinks.say(null));
  $('trace-clear').addEventListener('click', () => trace.clear());
  // Trace buttons in the (constantly refreshed) inspector act on pointerdown.
  $('inspector-body').addEventListener('pointerdown', (ev) => {
    const b = ev.target instanceof Element ? ev.target.closest('button') : null;
    const sel = view.selection;
    if (!b || !sel || sel.kind !== 'router') return;
    if (b.classList.contains('trace-here')) trace.armAt(sel.index);
    else if (b.classList.contains('vc-trace')) trace.followQueueHead(sel.pane, sel.index, Number(b.dataset.port), Number(b.dataset.vc));
  });
  document.addEventListener('keydown', onKey);
  drawRamp($('legend-ramp'));
  relayout = watchLayout(() => sim.panes.length);
  // Whether the statistics below the stage are on screen (see animation.js).
  anim.watchLower(document.querySelector('.lower'));
  wireCanvasEvents({ sim, view, trace, failLinks, inspector, storyEditor }, $('panes'), {
    setView,
    syncViewFrom,
    pickTrace: (r) => trace.armAt(r),
    failLink: (pane, c) => failLinks.click(pane, c),
  });
}

// Run until a cycle: a whole number past the current cycle runs on and pauses there; anything
// else is said next to the box (blank: no stop).
function untilCycle(raw) {
  const text = String(raw).trim();
  const n = Number(text);
  const now = sim.panes[0]?.now ?? 0;
  const problem = !text
    ? null
    : !Number.isInteger(n) || n < 0
      ? `until: '${text.slice(0, 20)}' is not a cycle (a whole number ≥ 0)`
      : n <= now
        ? `until: cycle ${grouped(n)} is not after the current cycle ${grouped(now)} — to go back to it, use back to`
        : null;
  timeControl.say(problem);
  if (!text || problem) {
    run.setUntil(0); // the box empties (see run.on above)
    return;
  }
  run.setUntil(n);
  if (!run.running && run.usable) setRunning(true);
}

// A scene's view: the link colour (if the network has that VC), the routers' colour, the
// packets, the zoom and centre, and the controls showing them.
function applySceneView({ metric, routers, packets, zoom, cx, cy }) {
  const v = experiments.experiment?.view;
  if (v && (v.zoom !== zoom || v.cx !== cx || v.cy !== cy)) setView(zoom, cx, cy);
  const vcs = sim.panes[0]?.vcs ?? 0;
  const usable = metric && (!metric.startsWith('vc') || Number(metric.slice(2)) < vcs);
  if (usable && metric !== view.metric) {
    view.setMetric(metric);
    selectById('link-metric').value = metric;
    syncMetric(experiments, sim.panes);
  }
  experiments.setView({ routers, packets });
  selectById('router-metric').value = routers === 'nonmin' ? 'nonmin' : 'fill';
  inputById('show-packets').checked = packets !== false;
  syncRouterLegend(experiments);
}

// The story's focus on every pane, selected by the engine in each pane's worker (with the
// next step) on the links as they are now (the detours around failed links follow them);
// the legend and the key plots follow once it has answered.
async function refocus() {
  const rule = experiments.focus;
  await Promise.all(sim.panes.map((p) => p.setFocus(rule)));
  syncFocusLegend(experiments, sim.panes);
  view.redraw();
}

// The story editor's focus shown on the picture and in the legend as it is written (a
// focus document; false: none; null: back to the story's own).
function previewFocus(focus) {
  experiments.setSceneFocus(focus === null ? undefined : focus || null);
  return refocus();
}

// The load or the failed links changed while running (the load control, or a rewind that
// undid such a change): the focus that depends on the links, the form, the URL and the
// story's "modified" follow.
function liveChanged({ links = false } = {}) {
  if (links) {
    refocus();
    sweeps.reset();
  }
  syncUi();
  view.redraw();
}

// Trace (button or t): picking a router to trace ends picking links to fail.
function toggleTrace() {
  trace.togglePicking();
  if (trace.picking) failLinks.setPicking(false);
}

// One cycle, in the worker; the snapshot after it lands a moment later.
function step() {
  if (!sim.panes.length || !run.usable) return;
  setRunning(false);
  sim.pacer.step();
  sim.sims.pump();
}

function onKey(ev) {
  const tag = ev.target?.tagName;
  if (ev.key === 'Escape') {
    if (view.present && !view.selection && !trace.picking && !failLinks.picking && !storyEditor.picking) setPresent(false);
    if (storyEditor.picking) storyEditor.setPicking(false);
    if (trace.picking) trace.setPicking(false);
    if (failLinks.picking) failLinks.setPicking(false);
    view.select(null);
    updateInspector();
    return;
  }
  if (tag === 'INPUT' || tag === 'SELECT' || tag === 'TEXTAREA' || ev.ctrlKey || ev.metaKey || ev.altKey || view.tab !== 'sim') return;
  // Space and Enter on a focused control are that control's (a button clicks, a summary
  // folds): the page does not also toggle play.
  const onControl = ev.target?.closest?.('button, a[href], summary, [role=tab], [contenteditable=true]');
  if ((ev.key === ' ' || ev.key === 'Enter') && onControl) return;
  // On a focused network canvas, ↑ / ↓ walk its routers: the inspector follows (pinned).
  if ((ev.key === 'ArrowUp' || ev.key === 'ArrowDown') && ev.target?.classList?.contains('net')) {
    const pane = sim.panes[Number(ev.target.dataset.pane)];
    if (!pane) return;
    ev.preventDefault();
    const n = pane.info.routers;
    const sel = view.selection;
    const cur = sel?.kind === 'router' && sel.pane === pane.index ? sel.index : -1;
    const next = ev.key === 'ArrowDown' ? (cur + 1) % n : (cur - 1 + n) % n;
    view.select({ pane: pane.index, kind: 'router', index: next });
    updateInspector();
    return;
  }
  // A story's scenes: PageDown / PageUp (a presentation clicker's keys) always; in present
  // mode also → and Space (next) and ← (previous).
  if (scenes.scenes.length) {
    const forward = ev.key === 'PageDown' || (view.present && (ev.key === 'ArrowRight' || ev.key === ' '));
    const back = ev.key === 'PageUp' || (view.present && ev.key === 'ArrowLeft');
    if (forward || back) {
      ev.preventDefault();
      if (forward) scenes.next();
      else scenes.previous();
      return;
    }
  }
  const speedIndex = Number(inputById('speed-slider').value);
  switch (ev.key) {
    case ' ':
      ev.preventDefault();
      $('btn-run').click();
      break;
    case 'p':
    case 'P':
      setPresent(!view.present);
      break;
    case 'ArrowRight':
    case '.':
      ev.preventDefault();
      step();
      break;
    case 'ArrowLeft':
      ev.preventDefault();
      timeControl.stepBack();
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
      failLinks.toggle();
      break;
    default:
  }
}

window.addEventListener('error', (e) => showCrash(e.error ?? e.message));
window.addEventListener('unhandledrejection', (e) => showCrash(e.reason));

async function main() {
  // Embedded from the start: the page's chrome never shows in the frame.
  if (readEmbed(new URLSearchParams(location.search))) view.setEmbed(true);
  sim.connect({ nextStep: anim.nextStep, onSnapshot: anim.onSnapshot, onCrash: (message) => showCrash(null, message) });
  wireControls();
  await init();
  const read = catalog();
  experiments.setCatalog(read, new Model(read));
  const model = experiments.model;
  const readStory = async (/** @type {string} */ name) => {
    const r = await fetch(new URL(name, BUILTIN_STORIES));
    if (!r.ok) throw new Error(`${name}: ${r.status} ${r.statusText}`);
    return r.text();
  };
  const storyProblems = await loadStories(readStory, checkStory).then(
    (loaded) => loaded.problems,
    (e) => [`the built-in stories could not be loaded (${messageOf(e)})`],
  );
  experiments.setPresets(presetExperiments(model));
  for (const p of PRESETS) selectById('preset').append(new Option(p.title, p.id));
  controls = new Controls($('controls'), model, { onChange: onControlChange });
  sweeps.reset();
  const costLink = splitCostParams(location.search);
  cost = new CostView($('cost-view'), { onChange: writeUrlSoon, onCrash: showCrash });
  cost.setValues(costLink.values);
  const fallback = newExperiment(model.complete(DEFAULT_CONFIG));
  // A story document in the link (story=, url-state.js) is read and registered first, and the
  // rest of the link names it (preset=); refused, nothing of the link is used and the page
  // opens its first story, the notice saying why.
  const storyLink = splitStoryParam(costLink.rest);
  let rest = storyLink.rest;
  let storyRefused = storyLink.error;
  if (storyLink.story !== null) {
    const opened = await storyShare.fromLink(storyLink.story, location.href);
    if (opened.error) storyRefused = opened.error;
    else rest = withPreset(rest, opened.id);
  }
  const decoded = storyRefused
    ? { experiment: null, problems: [], paused: false, present: false, trace: null }
    : decodeExperiment(model, rest, experiments.presets);
  const problems = [...storyProblems, ...costLink.problems, ...(storyRefused ? [] : storyLink.problems), ...decoded.problems];
  const asked = decoded.experiment ? clone(decoded.experiment.view) : null;
  let fromLink = false;
  // The link stays as the visitor opened it until its experiment runs: if it crashes the
  // simulator, the page keeps it (and the link) to try again or reload smaller.
  linkKept = true;
  if (decoded.experiment) {
    experiments.set(fallback); // the controls need an experiment to show errors against
    controls.show(decoded.experiment.config);
    fromLink = await applyExperiment(decoded.experiment);
    if (!fromLink && !run.crashed) {
      problems.push(...lastErrors);
      experiments.set(null);
    }
  }
  // A first visit (no experiment in the link) opens on a story, so the page shows what it
  // is for within seconds; the catalog's default config is the fallback for broken links.
  const first = !decoded.experiment && (!problems.length || storyRefused) ? experiments.presets.get(FIRST_STORY) : null;
  if (first) {
    experiments.set(fallback);
    fromLink = await applyExperiment(clone(first.experiment));
    if (fromLink) inputById('sweep-loads').value = first.preset.sweep;
  }
  // Never the default behind the visitor's back after a crash: the banner offers the way on.
  const ok = fromLink || run.crashed || (await applyExperiment(fallback));
  if (fromLink && decoded.experiment?.preset) {
    const p = experiments.presets.get(decoded.experiment.preset);
    if (p) inputById('sweep-loads').value = p.preset.sweep;
  }
  if (fromLink && decoded.trace) {
    const problem = trace.armFromLink(decoded.trace);
    if (problem) problems.push(problem);
  }
  // A link colour for a VC the network does not have: known only once it is built.
  if (fromLink && asked && asked.metric !== experiments.experiment.view.metric) {
    const vcs = sim.panes[0]?.vcs ?? 1;
    problems.push(`metric: '${clip(asked.metric, 60)}' is not a link colour of this network (its VCs are vc0 to vc${vcs - 1}); occupancy (all VCs) used`);
  }
  if (storyRefused) {
    const more = problems.length ? `\n${[...new Set(problems)].map((p) => `• ${p}`).join('\n')}` : '';
    notice(
      `This link's story could not be opened: ${storyRefused}.\nNothing of the link was used${first && fromLink ? '; showing the first story instead' : ''}.${more}`,
    );
  } else if (problems.length) {
    const tail = decoded.experiment && !fromLink && !run.crashed ? '\nShowing the default experiment instead.' : '';
    notice(`This link's experiment could not be used as it is:\n${[...new Set(problems)].map((p) => `• ${p}`).join('\n')}${tail}`);
  }
  if (!ok) setState('error');
  if (decoded.paused) setRunning(false);
  if (decoded.present) setPresent(true);
  if (costLink.open) showTab('cost');
  requestAnimationFrame(anim.frame);
}

// Queued like every action that builds an experiment: a control changed while the page
// loads takes effect after the experiment it opens on. `loaded` resolves once the page
// shows its first experiment and any message about its link (for tests and scripts/).
// The service worker (sw.js, at the site's root so that its scope covers index.html) keeps
// the page for offline use once it has been opened. Only where there is one to register
// (http or https), once the page shows its first experiment (its install fetches every
// file, which should not slow the first visit); a failure leaves the page as it is, online.
function registerServiceWorker() {
  try {
    if (!/^https?:$/.test(location.protocol) || !('serviceWorker' in navigator)) return;
    navigator.serviceWorker.register('sw.js', { updateViaCache: 'none' }).catch(() => {});
  } catch {
    // e.g. a sandboxed frame, where the service worker container refuses access
  }
}

const loaded = serial(main).then(
  () => 'ok',
  (e) => `error: ${e}`,
);
loaded.then(registerServiceWorker);

// What the statistics exports read.
function statsSource() {
  return { panes: sim.panes, sweep: sweeps.sweep, model: experiments.model, experiment: experiments.experiment };
}

// The networks as one PNG, with the legend under them.
function exportPng() {
  return canvasesToPng(
    sim.panes.map((p) => ({ canvas: p.canvas, title: p.title, colour: p.colour, now: p.now })),
    exportLegend(experiments, sim.panes, anim.packetsShown),
  );
}

// Exposed for tests, scripts/ and poking around in the console (www/ui/facade.js).
window.hiradix = facade({
  experiments,
  sim,
  run,
  view,
  anim,
  trace,
  sweeps,
  timeControl,
  liveLoad,
  failLinks,
  defaultConfig: DEFAULT_CONFIG,
  loaded,
  cost: () => cost,
  setPresent,
  exportLegend: () => exportLegend(experiments, sim.panes, anim.packetsShown),
  exportPng,
  linkProblems: () => linkProblems(location.search),
  relayout: () => relayout(),
  storyShare,
});
