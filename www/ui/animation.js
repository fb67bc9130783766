// The page's animation loop. Every displayed frame draws each pane's latest snapshot; the
// simulation workers are asked for a step whenever they can take one (`nextStep`: the pacer
// decides how many cycles, `want` what the snapshot holds), and each reply (`onSnapshot`)
// updates the panes' mirrors, the live statistics and the status line. The drawing never
// waits for the simulation.
//
// It owns its counters (frames drawn, snapshots applied, `perf`), the statistics sampling,
// the packets' glide and the numbers of the key plots it drew; it follows the other owners'
// events: 'redraw' (ViewState: redraw the key plots, the statistics plots, with the next
// frame), a new tab, new panes and a jump in time (SimState: measure afresh).
import { inspectorKey } from './interaction.js';
import { renderPlots, renderStatsTable } from './stats-view.js';
import { HIST_BINS } from '../model/stats.js';
import { glide, motionOn, newGlide, snapshotArrived, syncPacketLegend } from '../render/motion.js';
import { renderKey } from '../render/key-view.js';

const $ = (id) => document.getElementById(id);

/**
 * Performance, as measured: fps, frames drawn per second; drawMs, the drawing thread's work
 * per frame; advanceMs, the worker's time per step, stepCycles its cycles; cyclesPerFrame,
 * simulated cycles per displayed frame over the last second (cycles/s over fps).
 * @typedef {{fps: number, drawMs: number, advanceMs: number, stepCycles: number, cyclesPerFrame: number}} Perf
 */

/**
 * The loop over the page's state (read only): `experiments`, `sim` (the panes and their
 * client), `run`, `view`, the packet `trace`, the `timeControl` and `liveLoad` controls it
 * keeps in step with the cycle, the `inspector` and the load sweep (`sweeps.sweep`).
 * `hooks`: the page's reactions it triggers — showStopped(message) when a watchdog stopped a
 * simulation, showCrash(error), setRunning(on) and notice(text).
 * @param {{experiments: import('../stories/experiment-state.js').ExperimentState, sim: import('../sim/sim-state.js').SimState, run: import('../sim/run-state.js').RunState, view: import('../render/view-state.js').ViewState, trace: import('./trace-view.js').PacketTrace, timeControl: import('./time-control.js').TimeControl, liveLoad: import('./live-load.js').LiveLoad, inspector: import('./interaction.js').Inspector, sweeps: {sweep: import('../sim/sweep.js').Sweep | null}}} parts
 */
export function animation(parts, { showStopped, showCrash, setRunning, notice }) {
  const { experiments, sim, run, view, trace, timeControl, liveLoad, inspector, sweeps } = parts;
  const updateInspector = () => inspector.update();
  /** @type {Perf} */
  const perf = { fps: 0, drawMs: 0, advanceMs: 0, stepCycles: 0, cyclesPerFrame: 0 };
  let frames = 0;
  let snapshots = 0; // worker replies applied
  /** @type {number | null} */
  let lastFrameAt = null;
  let cycleShownAt = undefined;
  // The cycle at which the worker takes the next statistics sample.
  let nextSample = 0;
  // The want of the last step sent (a step that changes nothing is not sent).
  let lastWant = null;
  const motion = newGlide();
  let packetsShown = false;
  // Whether the statistics below the stage are on screen (null: not known yet).
  let lowerVisible = null;
  /** @type {ReturnType<typeof renderKey>} */
  let key = null;
  // When the key plots and the statistics plots were last drawn (performance.now()), and
  // the window the cycles per second are measured over.
  let lastKey = 0;
  let lastPlot = 0;
  /** @type {{t: number, now: number, frames: number} | null} */
  let rateWindow = null;

  /** The next frame redraws the key plots beside the picture and, with `plots`, the statistics plots. */
  function redraw({ key = true, plots = false } = {}) {
    if (key) lastKey = 0;
    if (plots) lastPlot = 0;
  }

  /** The cycles per second are measured afresh (after a jump in time or a new experiment). */
  function resetRate() {
    rateWindow = null;
  }

  view.on('redraw', redraw);
  view.on('changed', ({ what }) => {
    if (what === 'tab') {
      lastFrameAt = null;
      resetRate();
    }
    // A newly pinned element: its detail goes with the next step, even if asked before.
    if (what === 'selection') lastWant = null;
  });
  sim.on('panes', () => {
    nextSample = 0;
    resetRate();
  });
  sim.on('jumped', () => {
    nextSample = 0;
    lastWant = null;
    resetRate();
    snapshotArrived(motion, 0, { jump: true });
  });

  // The sampling interval in cycles at a speed (cycles per frame).
  const sampleEvery = (s) => (s >= 1 ? Math.min(1000, Math.max(10, Math.round(s * 6))) : 5);
  // What the statistics are read from.
  const statsSource = () => ({ panes: sim.panes, sweep: sweeps.sweep, model: experiments.model, experiment: experiments.experiment });
  const moving = () => motionOn(view.tab, experiments.experiment, sim.panes);

  // What the next snapshot should hold besides the per-frame arrays.
  function want() {
    const sel = view.inspected;
    return {
      metric: experiments.experiment?.view.metric ?? 'occupancy',
      detail: sel ? { pane: sel.pane, kind: sel.kind, index: sel.index } : null,
      trace: trace.active,
      sampleAt: nextSample,
      bins: HIST_BINS,
      // Teaching data (www/render/motion.js, www/model/decisions.js), read only while shown.
      packets: moving(),
      decisions: decisionsShown(sel),
    };
  }

  // The routers' decision counts are shown: the router colouring, the key plot, or a
  // router in the inspector.
  function decisionsShown(sel) {
    const exp = experiments.experiment;
    if (!exp || !sim.panes.length) return false;
    return exp.view.routers === 'nonmin' || Boolean(key?.kinds.includes('decisions')) || sel?.kind === 'router';
  }

  // The display's frame interval (ms), for "smooth" steps of about one frame.
  const frameInterval = () => Math.min(34, Math.max(8, perf.fps > 0 ? 1000 / perf.fps : 1000 / 60));

  /**
   * Asked by the SimClient whenever it could send a step (`ahead` of them already in
   * flight): the next step {cycles, want}, or null when there is nothing to advance and the
   * snapshot would hold what the last did (unless `force`: commands are waiting to go).
   */
  function nextStep(force, ahead) {
    let cycles = 0;
    if (sim.panes.length && run.usable) {
      const pacer = sim.pacer;
      const exp = experiments.experiment;
      const live = run.running && view.tab === 'sim';
      const n = pacer.steps > 0 || live ? pacer.next(exp.speed, exp.view.smooth, frameInterval(), ahead > 0) : 0;
      cycles = trace.limit(n, sim.sims.cyclesInFlight);
      // "until cycle": never past it.
      if (run.until > 0) cycles = Math.min(cycles, Math.max(0, run.until - sim.panes[0].now - sim.sims.cyclesInFlight));
      if (cycles > 0) pacer.sent(cycles);
    }
    const w = want();
    const asked = JSON.stringify([w.metric, w.detail, w.trace, w.packets, w.decisions, sim.gen]);
    if (cycles === 0 && !force && asked === lastWant) return null;
    lastWant = asked;
    return { cycles, want: w };
  }

  // A step's reply: the simulations' new state.
  function onSnapshot(reply) {
    sim.pacer.measured(reply.cycles, reply.ms);
    if (reply.cycles > 0) {
      perf.advanceMs = 0.9 * perf.advanceMs + 0.1 * reply.ms;
      perf.stepCycles = 0.9 * perf.stepCycles + 0.1 * reply.cycles;
    }
    if (reply.gen !== sim.gen || reply.panes.length !== sim.panes.length || run.crashed) return;
    sim.panes.forEach((p, i) => {
      p.sim.apply(reply.panes[i]);
      if (reply.panes[i].decisions) p.decisions.push(reply.panes[i].now, reply.panes[i].decisions);
    });
    snapshotArrived(motion, reply.cycles, { running: run.running, fps: perf.fps, speed: experiments.experiment?.speed ?? 1 });
    snapshots++;
    if (reply.sampled) sampleStats();
    if (reply.stopped) {
      const p = sim.panes[reply.stopped.pane];
      showStopped(`${sim.panes.length > 1 ? `${p.variant.name} (${p.variant.label}): ` : ''}${reply.stopped.message}`);
    }
    trace.afterAdvance();
    if (run.until > 0 && sim.panes[0].now >= run.until) {
      run.setUntil(0);
      setRunning(false);
    }
    // A newly hovered or pinned element: shown as soon as its detail is here.
    const sel = view.inspected;
    if (sel && inspectorKey(sel) !== inspector.shownFor) updateInspector();
  }

  function frame(t) {
    const last = lastFrameAt ?? t;
    lastFrameAt = t;
    if (t > last) perf.fps = 0.9 * perf.fps + 0.1 * (1000 / (t - last));
    if (sim.panes.length && !run.crashed && view.tab === 'sim') {
      try {
        const exp = experiments.experiment;
        if (run.running && !run.stopped) sim.pacer.frame(exp.speed);
        sim.sims.pump();
        const t0 = performance.now();
        // The selected router or channel is highlighted in every pane (same network).
        const sel = view.inspected;
        const hl = sel ? { kind: sel.kind, index: sel.index } : null;
        trace.read();
        const look = experiments.look();
        // Packets travelling along the links at slow speeds on small networks (motion.js);
        // routers coloured by their non-minimal share when asked (decisions.js).
        const packets = moving();
        const g = packets ? glide(motion) : 1;
        const byShare = exp.view.routers === 'nonmin';
        let drawn = false;
        sim.panes.forEach((p, i) => {
          const data = packets ? p.sim.packetsOnChannels() : null;
          if (data) drawn = true;
          const dots = data ? { data, glide: g } : null;
          const routers = byShare ? { values: p.decisions.shareColours(), key: p.decisions.seq } : null;
          p.draw(exp.view.metric, hl, exp.view.vcCells, trace.highlight(i), look, { packets: dots, routers });
        });
        packetsShown = drawn;
        syncPacketLegend(drawn);
        trace.render();
        statusLine();
        perf.drawMs = 0.9 * perf.drawMs + 0.1 * (performance.now() - t0);
        frames++;
      } catch (e) {
        showCrash(e);
      }
    }
    requestAnimationFrame(frame);
  }

  // A snapshot with a statistics sample (the worker takes one once the cycle reaches
  // nextSample).
  function sampleStats() {
    const exp = experiments.experiment;
    for (const p of sim.panes) p.stats.sample(p.sim);
    nextSample = sim.panes[0].now + sampleEvery(exp.speed);
    updatePaneNotes();
    if (exp.config.traffic.injection === 'batch' && run.running && sim.panes.every((p) => p.stats.batchDone)) {
      setRunning(false);
      // In present mode the pane headers say it; a notice would cover the key plot.
      if (!view.present) notice('Every pane delivered its whole batch: the pane headers show the batch times. Reset (r) to replay.');
    }
  }

  // The cycle, and once a second the simulated cycles per second and the frame rate.
  function statusLine() {
    const now = sim.panes[0].now;
    // Time and load controls follow the cycle, the selection and the state (cheap when unchanged).
    timeControl.sync();
    liveLoad.sync();
    // At most ten times a second, and only on change: rewriting the text every frame would
    // relayout and repaint the page each frame.
    const t = performance.now();
    if (!(t - cycleShownAt < 100)) {
      const cycle = String(now);
      if ($('stat-cycle').textContent !== cycle) $('stat-cycle').textContent = cycle;
      cycleShownAt = t;
    }
    const w = rateWindow;
    if (!w) rateWindow = { t, now, frames };
    else if (t - w.t >= 1000) {
      const rate = ((now - w.now) * 1000) / (t - w.t);
      const perFrame = frames > w.frames ? (now - w.now) / (frames - w.frames) : 0;
      perf.cyclesPerFrame = perFrame;
      $('stat-rate').textContent = String(Math.round(rate));
      $('stat-fps').textContent = perf.fps.toFixed(0);
      const capped = run.running && experiments.experiment.view.smooth && sim.pacer.cappedTo > 0;
      $('stat-capped').hidden = !capped;
      if (capped) $('stat-capped').textContent = `held at ${Math.max(1, Math.round(perFrame))} cycles/frame to stay smooth`;
      rateWindow = { t, now, frames };
    }
    // The key plots beside the picture every 300 ms; the statistics below the fold as often
    // while they are on screen, else every 1.5 s (they are still there when scrolled to).
    if (!(t - lastKey < 300)) {
      lastKey = t;
      key = renderKey(sim.panes, experiments, view.present) ?? key;
      if (view.selection) updateInspector();
    }
    if (t - lastPlot > (lowerVisible === false ? 1500 : 300)) {
      lastPlot = t;
      renderPlots(statsSource());
      renderStatsTable($('stats-table'), statsSource());
    }
  }

  function updatePaneNotes() {
    for (const p of sim.panes) {
      const r = p.stats.recent(10);
      if (p.info.batch) {
        const b = p.stats.batchDone;
        const c = p.stats.last?.c;
        const total = p.info.terminals * p.info.batch_size;
        p.setNote(
          b
            ? `batch done in ${b.cycles} cycles = ${b.perPacket.toFixed(2)} cycles/packet`
            : c
              ? `batch: ${Math.round((100 * c.delivered) / total)} % delivered`
              : '',
        );
      } else if (r) {
        const lat = Number.isFinite(r.latency) ? r.latency.toFixed(1) : '–';
        const lost = r.unroutableTotal > 0 ? ` · ${r.unroutableTotal} unroutable` : '';
        const backlog = r.dropped > 0 ? ' · source queues full, dropping' : p.stats.backlogGrowing() ? ' · source queues growing' : '';
        p.setNote(`accepted ${r.accepted.toFixed(3)}${lost} · latency ${lat}${backlog}`);
      }
    }
  }

  /** Follows whether the statistics below the stage (`lower`) are on screen: drawn less often when not. */
  function watchLower(lower) {
    new IntersectionObserver((entries) => {
      const on = entries.some((e) => e.isIntersecting);
      if (on && lowerVisible === false) redraw({ key: false, plots: true });
      lowerVisible = on;
    }).observe(lower);
  }

  return {
    want,
    nextStep,
    onSnapshot,
    frame,
    watchLower,
    perf,
    get frames() {
      return frames;
    },
    get snapshots() {
      return snapshots;
    },
    /** Whether the last frame drew packets (the PNG export's legend lists their symbols). */
    get packetsShown() {
      return packetsShown;
    },
    /** The key plots last drawn, and their numbers (www/render/key-view.js). */
    get key() {
      return key;
    },
  };
}
