// The page: loads the wasm simulator, steps it every animation frame and draws it.
//
// No bundler: this is an ES module importing wasm-bindgen's `--target web` output.
import init, { WebSim, lastPanic, panicForTest } from '../pkg/hiradix.js';
import { Layout, drawFrame, drawRamp } from './render.js';

// A small flattened butterfly, so the whole network fits on screen.
export const DEFAULT_CONFIG = {
  k: 4,
  n: 3,
  seed: 1,
};

const $ = (id) => document.getElementById(id);

const state = {
  sim: null,
  layout: null,
  running: true,
  crashed: false,
  cyclesPerFrame: 1,
  frames: 0,
  rateCycles: 0,
  rateStart: performance.now(),
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
  $('error-text').textContent = panic ?? String(err?.stack ?? err);
  $('error-banner').hidden = false;
  $('btn-run').textContent = 'Run';
  setState('crashed');
}

function showConfigError(message) {
  const box = $('config-error');
  if (message) {
    box.textContent = message;
    box.hidden = false;
  } else {
    box.textContent = '';
    box.hidden = true;
  }
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
  if (!state.sim) return;
  const [w, h] = canvasSize();
  state.layout = new Layout(state.sim.routerPositions(), state.sim.channelEndpoints(), w, h);
  state.layoutSize = [w, h];
}

// Builds a simulation from the config text; on error keeps the old one and shows why.
function applyConfig(text) {
  let sim;
  try {
    JSON.parse(text);
  } catch (e) {
    showConfigError(`config is not valid JSON: ${e.message}`);
    return false;
  }
  try {
    sim = new WebSim(text);
  } catch (e) {
    if (e instanceof WebAssembly.RuntimeError) {
      showCrash(e);
    } else {
      showConfigError(e?.message ?? String(e));
    }
    return false;
  }
  showConfigError(null);
  state.sim?.free();
  state.sim = sim;
  state.crashed = false;
  state.running = true;
  $('btn-run').textContent = 'Pause';
  $('error-banner').hidden = true;
  relayout();
  $('stat-routers').textContent = sim.routerCount();
  $('stat-channels').textContent = sim.channelCount();
  state.rateCycles = 0;
  state.rateStart = performance.now();
  setState(state.running ? 'running' : 'paused');
  return true;
}

function advance(cycles) {
  try {
    state.sim.advance(cycles);
    state.rateCycles += cycles;
  } catch (e) {
    showCrash(e);
  }
}

function draw() {
  const [w, h] = canvasSize();
  if (!state.layout || state.layoutSize[0] !== w || state.layoutSize[1] !== h) relayout();
  try {
    drawFrame($('network').getContext('2d'), state.layout, state.sim.channelOccupancy(), w, h);
  } catch (e) {
    showCrash(e);
    return;
  }
  $('stat-cycle').textContent = state.sim.now();
  const dt = performance.now() - state.rateStart;
  if (dt > 1000) {
    $('stat-rate').textContent = Math.round((state.rateCycles * 1000) / dt);
    state.rateCycles = 0;
    state.rateStart = performance.now();
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

function wireControls() {
  $('config').value = JSON.stringify(DEFAULT_CONFIG, null, 2);
  $('btn-run').addEventListener('click', () => {
    if (state.crashed) return;
    state.running = !state.running;
    $('btn-run').textContent = state.running ? 'Pause' : 'Run';
    setState(state.running ? 'running' : 'paused');
  });
  $('btn-step').addEventListener('click', () => {
    if (!state.sim || state.crashed) return;
    state.running = false;
    $('btn-run').textContent = 'Run';
    setState('paused');
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
  drawRamp($('legend-ramp'));
}

window.addEventListener('error', (e) => showCrash(e.error ?? e.message));
window.addEventListener('unhandledrejection', (e) => showCrash(e.reason));

async function main() {
  wireControls();
  await init();
  if (!applyConfig($('config').value)) {
    setState('error');
  }
  requestAnimationFrame(frame);
}

main().catch(showCrash);
