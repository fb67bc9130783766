// The page's animation loop. Every displayed frame draws each pane's latest snapshot; the
// simulation workers are asked for a step whenever they can take one (`nextStep`: the pacer
// decides how many cycles, `want` what the snapshot holds), and each reply (`onSnapshot`)
// updates the panes' mirrors, the live statistics and the status line. The drawing never
// waits for the simulation.
import { inspectorKey } from './interaction.js';
import { renderPlots, renderStatsTable } from './stats-view.js';
import { HIST_BINS } from '../model/stats.js';
import { glide, motionOn, snapshotArrived, syncPacketLegend } from '../render/motion.js';
import { inputById } from '../lib/dom.js';

const $ = (id) => document.getElementById(id);

/**
 * The loop of the page state `app` (www/main.js). `hooks`: the page's reactions it
 * triggers — showStopped(message) when a watchdog stopped a simulation, showCrash(error),
 * setRunning(on), notice(text) and updateInspector().
 */
export function animation(app, { showStopped, showCrash, setRunning, notice, updateInspector }) {
  // When the key plots and the statistics plots were last drawn (performance.now()), and
  // the window the cycles per second are measured over: this loop's own state.
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

  // What the next snapshot should hold besides the per-frame arrays.
  function want() {
    const sel = app.selection ?? app.hover;
    return {
      metric: app.experiment?.view.metric ?? 'occupancy',
      detail: sel ? { pane: sel.pane, kind: sel.kind, index: sel.index } : null,
      trace: app.trace?.active ?? false,
      sampleAt: app.nextSample ?? 0,
      bins: HIST_BINS,
      // Teaching data (www/render/motion.js, www/model/decisions.js), read only while shown.
      packets: motionOn(app),
      decisions: decisionsShown(sel),
    };
  }

  // The routers' decision counts are shown: the router colouring, the key plot, or a
  // router in the inspector.
  function decisionsShown(sel) {
    if (!app.experiment || !app.panes.length) return false;
    return app.experiment.view.routers === 'nonmin' || Boolean(app.keyKinds?.includes('decisions')) || sel?.kind === 'router';
  }

  // The display's frame interval (ms), for "smooth" steps of about one frame.
  const frameInterval = () => Math.min(34, Math.max(8, app.perf.fps > 0 ? 1000 / app.perf.fps : 1000 / 60));

  /**
   * Asked by the SimClient whenever it could send a step (`ahead` of them already in
   * flight): the next step {cycles, want}, or null when there is nothing to advance and the
   * snapshot would hold what the last did (unless `force`: commands are waiting to go).
   */
  function nextStep(force, ahead) {
    let cycles = 0;
    if (app.panes.length && !app.crashed && !app.stopped) {
      const pacer = app.pacer;
      const live = app.running && app.tab === 'sim';
      const n = pacer.steps > 0 || live ? pacer.next(app.experiment.speed, app.experiment.view.smooth, frameInterval(), ahead > 0) : 0;
      cycles = app.trace.limit(n, app.sims.cyclesInFlight);
      // "until cycle": never past it.
      if (app.until > 0) cycles = Math.min(cycles, Math.max(0, app.until - app.panes[0].now - app.sims.cyclesInFlight));
      if (cycles > 0) pacer.sent(cycles);
    }
    const w = want();
    const key = JSON.stringify([w.metric, w.detail, w.trace, w.packets, w.decisions, app.gen]);
    if (cycles === 0 && !force && key === app.lastWant) return null;
    app.lastWant = key;
    return { cycles, want: w };
  }

  // A step's reply: the simulations' new state.
  function onSnapshot(reply) {
    const perf = app.perf;
    app.pacer.measured(reply.cycles, reply.ms);
    if (reply.cycles > 0) {
      perf.advanceMs = 0.9 * perf.advanceMs + 0.1 * reply.ms;
      perf.stepCycles = 0.9 * perf.stepCycles + 0.1 * reply.cycles;
    }
    if (reply.gen !== app.gen || reply.panes.length !== app.panes.length || app.crashed) return;
    app.panes.forEach((p, i) => {
      p.sim.apply(reply.panes[i]);
      if (reply.panes[i].decisions) p.decisions.push(reply.panes[i].now, reply.panes[i].decisions);
    });
    snapshotArrived(app, reply.cycles);
    app.snapshots++;
    if (reply.sampled) sampleStats();
    if (reply.stopped) {
      const p = app.panes[reply.stopped.pane];
      showStopped(`${app.panes.length > 1 ? `${p.variant.name} (${p.variant.label}): ` : ''}${reply.stopped.message}`);
    }
    app.trace.afterAdvance();
    if (app.until > 0 && app.panes[0].now >= app.until) {
      app.until = 0;
      inputById('run-until').value = '';
      setRunning(false);
    }
    // A newly hovered or pinned element: shown as soon as its detail is here.
    const sel = app.selection ?? app.hover;
    if (sel && inspectorKey(sel) !== app.inspectorFor) updateInspector();
  }

  function frame(t) {
    const last = app.lastFrameAt ?? t;
    app.lastFrameAt = t;
    if (t > last) app.perf.fps = 0.9 * app.perf.fps + 0.1 * (1000 / (t - last));
    if (app.panes.length && !app.crashed && app.tab === 'sim') {
      try {
        if (app.running && !app.stopped) app.pacer.frame(app.experiment.speed);
        app.sims.pump();
        const t0 = performance.now();
        // The selected router or channel is highlighted in every pane (same network).
        const sel = app.selection ?? app.hover;
        const hl = sel ? { kind: sel.kind, index: sel.index } : null;
        app.trace.read();
        const look = app.storyLook?.() ?? {};
        // Packets travelling along the links at slow speeds on small networks (motion.js);
        // routers coloured by their non-minimal share when asked (decisions.js).
        const moving = motionOn(app);
        const g = moving ? glide(app) : 1;
        const byShare = app.experiment.view.routers === 'nonmin';
        let drawn = false;
        app.panes.forEach((p, i) => {
          const data = moving ? p.sim.packetsOnChannels() : null;
          if (data) drawn = true;
          const packets = data ? { data, glide: g } : null;
          const routers = byShare ? { values: p.decisions.shareColours(), key: p.decisions.seq } : null;
          p.draw(app.experiment.view.metric, hl, app.experiment.view.vcCells, app.trace.highlight(i), look, { packets, routers });
        });
        app.packetsShown = drawn;
        syncPacketLegend(drawn);
        app.trace.render();
        statusLine();
        app.perf.drawMs = 0.9 * app.perf.drawMs + 0.1 * (performance.now() - t0);
        app.frames++;
      } catch (e) {
        showCrash(e);
      }
    }
    requestAnimationFrame(frame);
  }

  // A snapshot with a statistics sample (the worker takes one once the cycle reaches
  // app.nextSample).
  function sampleStats() {
    for (const p of app.panes) p.stats.sample(p.sim);
    app.nextSample = app.panes[0].now + app.sampleEvery;
    updatePaneNotes();
    if (app.experiment.config.traffic.injection === 'batch' && app.running && app.panes.every((p) => p.stats.batchDone)) {
      setRunning(false);
      // In present mode the pane headers say it; a notice would cover the key plot.
      if (!app.present) notice('Every pane delivered its whole batch: the pane headers show the batch times. Reset (r) to replay.');
    }
  }

  // The cycle, and once a second the simulated cycles per second and the frame rate.
  function statusLine() {
    const now = app.panes[0].now;
    // Time and load controls follow the cycle, the selection and the state (cheap when unchanged).
    app.timeControl?.sync();
    app.liveLoad?.sync();
    // At most ten times a second, and only on change: rewriting the text every frame would
    // relayout and repaint the page each frame.
    const t = performance.now();
    if (!(t - app.cycleShownAt < 100)) {
      const cycle = String(now);
      if ($('stat-cycle').textContent !== cycle) $('stat-cycle').textContent = cycle;
      app.cycleShownAt = t;
    }
    const w = rateWindow;
    if (!w) rateWindow = { t, now, frames: app.frames };
    else if (t - w.t >= 1000) {
      const rate = ((now - w.now) * 1000) / (t - w.t);
      const perFrame = app.frames > w.frames ? (now - w.now) / (app.frames - w.frames) : 0;
      app.perf.cyclesPerFrame = perFrame;
      $('stat-rate').textContent = String(Math.round(rate));
      $('stat-fps').textContent = app.perf.fps.toFixed(0);
      const capped = app.running && app.experiment.view.smooth && app.pacer.cappedTo > 0;
      $('stat-capped').hidden = !capped;
      if (capped) $('stat-capped').textContent = `held at ${Math.max(1, Math.round(perFrame))} cycles/frame to stay smooth`;
      rateWindow = { t, now, frames: app.frames };
    }
    // The key plots beside the picture every 300 ms; the statistics below the fold as often
    // while they are on screen, else every 1.5 s (they are still there when scrolled to).
    if (!(t - lastKey < 300)) {
      lastKey = t;
      app.renderKey?.();
      if (app.selection) updateInspector();
    }
    if (t - lastPlot > (app.lowerVisible === false ? 1500 : 300)) {
      lastPlot = t;
      renderPlots(app);
      renderStatsTable($('stats-table'), app);
    }
  }

  function updatePaneNotes() {
    for (const p of app.panes) {
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

  return { want, nextStep, onSnapshot, frame, redraw, resetRate };
}
