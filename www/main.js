// The page: loads the wasm simulator, steps it every animation frame and draws it.
//
// No bundler: this is an ES module importing wasm-bindgen's `--target web` output.
// The experiment is one JSON config (the CLI's format); the quick controls edit it.
import init, { WebSim, catalogJson, lastPanic, panicForTest } from '../pkg/hiradix.js';
import { Layout, drawFrame, drawRamp } from './render.js';

// A small flattened butterfly (4-ary 3-flat: 16 routers on a 4×4 grid, 64 terminals) under
// enough uniform load that queues build up visibly.
export const DEFAULT_CONFIG = {
  topology: { type: 'flattened_butterfly', k: 4, n: 3 },
  routing: { algorithm: 'min_ad' },
  traffic: { pattern: 'uniform', load: 0.8 },
  seed: 1,
};

const $ = (id) => document.getElementById(id);

const state = {
  sim: null,
  catalog: null,
  layout: null,
  layoutSize: [0, 0],
  running: true,
  crashed: false,
  cyclesPerFrame: 1,
  linkMetric: 'occupancy',
  frames: 0,
  terminals: 1,
  // Counters at the start of the current statistics window (see updateStats).
  window: null,
};

// Exposed for tests and for poking around in the console.
window.hiradix = state;
state.defaultConfig = DEFAULT_CONFIG;
state.triggerPanicForTest = () => {
  try {
    panicForTest();
  } catch (e) {
    showCrash(e);
  }
};

function setState(s) {
  document.body.dataset.state = s;
}

function setRunning(on) {
  state.running = on;
  $('btn-run').textContent = on ? 'Pause' : 'Run';
  setState(on ? 'running' : 'paused');
}

function showBanner(title, text) {
  $('error-title').textContent = title;
  $('error-text').textContent = text;
  $('error-banner').hidden = false;
}

// A Rust panic (the wasm call trapped) or an uncaught JS error.
function showCrash(err) {
  if (state.crashed) return;
  state.crashed = true;
  state.running = false;
  // After a trap the old simulation may be mid-update (and still borrowed on the Rust
  // side): drop it without calling into it again.
  state.sim = null;
  let panic = null;
  try {
    panic = lastPanic();
  } catch (_) {
    // The module itself may be unusable; fall back to the JS error.
  }
  showBanner('The simulator stopped with an internal error.', panic ?? String(err?.stack ?? err));
  $('btn-run').textContent = 'Run';
  setState('crashed');
}

// The simulation itself stopped (e.g. the deadlock watchdog tripped): not a bug of the page.
function showStopped(message) {
  state.running = false;
  $('btn-run').textContent = 'Run';
  showBanner('The simulation stopped.', message);
  setState('stopped');
}

function showConfigError(message) {
  const box = $('config-error');
  box.textContent = message ?? '';
  box.hidden = !message;
}

function canvasSize() {
  const canvas = $('network');
  const dpr = window.devicePixelRatio || 1;
  const rect = canvas.getBoundingClientRect();
  const w = Math.max(1, Math.round(rect.width * dpr));
  const h = Math.max(1, Math.round(rect.height * dpr));
  if (canvas.width !== w || canvas.height !== h) {
    canvas.width = w;
    canvas.height = h;
  }
  return [w, h];
}

function relayout() {
  const [w, h] = canvasSize();
  state.layout = new Layout(state.positions, state.endpoints, w, h);
  state.layoutSize = [w, h];
}

// Builds a simulation from the config text; on error keeps the old one and shows why.
function applyConfig(text) {
  try {
    JSON.parse(text);
  } catch (e) {
    showConfigError(`config is not valid JSON: ${e.message}`);
    return false;
  }
  let sim;
  try {
    sim = new WebSim(text);
  } catch (e) {
    if (e instanceof WebAssembly.RuntimeError) showCrash(e);
    else showConfigError(e?.message ?? String(e));
    return false;
  }
  showConfigError(null);
  if (!state.crashed) state.sim?.free();
  state.sim = sim;
  state.crashed = false;
  $('error-banner').hidden = true;
  state.positions = sim.routerPositions();
  state.endpoints = sim.channelEndpoints();
  state.terminals = sim.terminalCount();
  relayout();
  $('stat-routers').textContent = sim.routerCount();
  $('stat-terminals').textContent = state.terminals;
  $('stat-channels').textContent = sim.channelCount();
  state.window = null;
  syncQuickControls(JSON.parse(text));
  setRunning(true);
  return true;
}

function advance(cycles) {
  try {
    state.sim.advance(cycles);
  } catch (e) {
    if (e instanceof WebAssembly.RuntimeError) showCrash(e);
    else showStopped(e?.message ?? String(e));
  }
}

const fmt = (x, digits) => (Number.isFinite(x) ? x.toFixed(digits) : '–');

// Live statistics over windows of about one second of wall time.
function updateStats() {
  const sim = state.sim;
  const now = sim.now();
  $('stat-cycle').textContent = now;
  const c = sim.liveCounters();
  $('stat-in-network').textContent = c[5];
  $('stat-in-sources').textContent = c[6];
  const t = performance.now();
  const w = state.window;
  if (!w) {
    state.window = { t, now, c };
    return;
  }
  if (t - w.t < 1000 || now === w.now) return;
  const cycles = now - w.now;
  const delivered = c[1] - w.c[1];
  $('stat-rate').textContent = Math.round((cycles * 1000) / (t - w.t));
  $('stat-accepted').textContent = fmt((c[2] - w.c[2]) / cycles / state.terminals, 3);
  $('stat-latency').textContent = fmt((c[3] - w.c[3]) / delivered, 1);
  $('stat-hops').textContent = fmt((c[4] - w.c[4]) / delivered, 2);
  $('stat-nonmin').textContent = fmt((100 * (c[8] - w.c[8])) / delivered, 0);
  state.window = { t, now, c };
}

function draw() {
  const [w, h] = canvasSize();
  if (state.layoutSize[0] !== w || state.layoutSize[1] !== h) relayout();
  try {
    const sim = state.sim;
    // Sampled every frame so the smoothing sees every cycle, whichever metric is shown.
    const utilization = sim.channelUtilization();
    const links = state.linkMetric === 'utilization' ? utilization : sim.channelOccupancy();
    drawFrame($('network').getContext('2d'), state.layout, links, sim.routerBacklog(), w, h);
    updateStats();
  } catch (e) {
    showCrash(e);
  }
}

function frame() {
  if (state.sim && !state.crashed) {
    if (state.running) advance(state.cyclesPerFrame);
    if (!state.crashed) draw();
    state.frames++;
  }
  requestAnimationFrame(frame);
}

// ----- quick controls: edit the JSON config and apply it -----

function editConfig(mutate) {
  let cfg;
  try {
    cfg = JSON.parse($('config').value);
  } catch (e) {
    showConfigError(`config is not valid JSON: ${e.message}`);
    return;
  }
  mutate(cfg);
  $('config').value = JSON.stringify(cfg, null, 2);
  applyConfig($('config').value);
}

function fillSelect(select, entries) {
  select.replaceChildren(
    ...entries.map((e) => {
      const o = document.createElement('option');
      o.value = e.name;
      o.textContent = e.name;
      o.title = e.description;
      return o;
    }),
  );
}

function familyOf(topologyType) {
  return state.catalog.topologies.find((t) => t.name === topologyType)?.family;
}

// Shows the applied config in the quick controls.
function syncQuickControls(cfg) {
  if (!state.catalog) return;
  const defaults = state.catalog.default_config;
  const topo = cfg.topology?.type ?? defaults.topology.type;
  const family = familyOf(topo);
  $('q-topology').value = topo;
  fillSelect(
    $('q-routing'),
    state.catalog.routings.filter((r) => r.families.split(/[ ,]+/).includes(family)),
  );
  $('q-routing').value = cfg.routing?.algorithm ?? defaults.routing.algorithm;
  $('q-pattern').value = cfg.traffic?.pattern ?? defaults.traffic.pattern;
  const load = cfg.traffic?.load ?? defaults.traffic.load;
  $('q-load').value = load;
  $('q-load-value').textContent = Number(load).toFixed(2);
}

function wireQuickControls() {
  const cat = state.catalog;
  fillSelect($('q-topology'), cat.topologies);
  fillSelect($('q-pattern'), cat.patterns);
  $('q-topology').addEventListener('change', (e) => {
    const entry = cat.topologies.find((t) => t.name === e.target.value);
    const runsOn = (r) => r.families.split(/[ ,]+/).includes(entry.family);
    let cfg;
    try {
      cfg = JSON.parse($('config').value);
    } catch (err) {
      showConfigError(`config is not valid JSON: ${err.message}`);
      return;
    }
    cfg.topology = { type: entry.default.type, ...structuredClone(entry.default) };
    // Keep the routing algorithm if it works on the new network; otherwise fall back to
    // the family's first (simplest) algorithm.
    const apply = (c) => {
      $('config').value = JSON.stringify(c, null, 2);
      return applyConfig($('config').value);
    };
    const current = cat.routings.find((r) => r.name === (cfg.routing?.algorithm ?? cat.default_config.routing.algorithm));
    if (current && runsOn(current) && apply(cfg)) return;
    const first = cat.routings.find(runsOn);
    if (first) cfg.routing = { ...cfg.routing, algorithm: first.name };
    apply(cfg);
  });
  $('q-routing').addEventListener('change', (e) =>
    editConfig((cfg) => {
      cfg.routing = { ...cfg.routing, algorithm: e.target.value };
    }),
  );
  $('q-pattern').addEventListener('change', (e) =>
    editConfig((cfg) => {
      cfg.traffic = { ...cfg.traffic, pattern: e.target.value };
    }),
  );
  $('q-load').addEventListener('input', (e) => {
    $('q-load-value').textContent = Number(e.target.value).toFixed(2);
  });
  $('q-load').addEventListener('change', (e) =>
    editConfig((cfg) => {
      cfg.traffic = { ...cfg.traffic, load: Number(e.target.value) };
    }),
  );
}

function wireControls() {
  $('config').value = JSON.stringify(DEFAULT_CONFIG, null, 2);
  $('btn-run').addEventListener('click', () => {
    if (state.crashed || !state.sim) return;
    if (document.body.dataset.state === 'stopped') return;
    setRunning(!state.running);
  });
  $('btn-step').addEventListener('click', () => {
    if (!state.sim || state.crashed) return;
    setRunning(false);
    advance(1);
  });
  const reset = () => applyConfig($('config').value);
  $('btn-reset').addEventListener('click', reset);
  $('error-reset').addEventListener('click', reset);
  $('btn-apply').addEventListener('click', reset);
  $('cycles-per-frame').addEventListener('change', (e) => {
    const v = Math.round(Number(e.target.value));
    state.cyclesPerFrame = Number.isFinite(v) ? Math.min(10000, Math.max(1, v)) : 1;
    e.target.value = state.cyclesPerFrame;
  });
  const metric = $('link-metric');
  const showMetric = () => {
    state.linkMetric = metric.value;
    $('legend-metric').textContent = LINK_METRIC_LEGEND[metric.value];
  };
  metric.addEventListener('change', showMetric);
  showMetric();
  drawRamp($('legend-ramp'));
}

const LINK_METRIC_LEGEND = {
  occupancy: "link colour: flits buffered where the channel arrives, over that input port's buffer capacity (all VCs)",
  utilization: 'link colour: flits sent on the channel per cycle (smoothed over ≈32 cycles)',
};

window.addEventListener('error', (e) => showCrash(e.error ?? e.message));
window.addEventListener('unhandledrejection', (e) => showCrash(e.reason));

async function main() {
  wireControls();
  await init();
  state.catalog = JSON.parse(catalogJson());
  wireQuickControls();
  if (!applyConfig($('config').value)) setState('error');
  requestAnimationFrame(frame);
}

main().catch(showCrash);
