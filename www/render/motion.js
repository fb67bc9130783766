// Motion the eye can follow (docs/lecture.md, Packets in motion): at slow speeds on small
// networks every packet on a router-to-router channel is drawn as a symbol travelling along its link — minimal
// packets as filled dark discs, packets routed off their minimal path as hollow vermilion
// diamonds (shape and hue differ, so the two read apart in greyscale and to colour-blind
// eyes), the packet the trace follows large, magenta and outlined, over its magenta path.
//
// When: at most MOTION_MAX_SPEED cycles per frame (the speed setting: slow motion, or one
// cycle per frame) on networks of at most MOTION_MAX_ROUTERS routers in every pane (and
// the "packets" box ticked). Faster, a packet on a channel of one cycle's latency (the
// default) would be on screen for a single frame at a random point of its way — dots that
// blink rather than travel, over the link colours the stories are about. Only while
// packets are drawn does the page ask the worker for `packetsOnChannels()` (it costs per
// packet); at higher speeds or on bigger networks nothing is read or drawn, so the
// 1K-node dragonfly's frame rate is unchanged. While packets glide, each frame redraws
// only them over the rest of the picture (NetworkView.moveDots).
//
// Between two snapshots a packet glides from `progress − step` to `progress` along its
// channel (WebSim.packetsOnChannels): over the frames the pacer spends on one cycle when
// running (round(1/speed) frames below one cycle per frame, else one frame), over
// STEP_GLIDE_MS after a single step while paused, and not at all after a rewind or a jump.

import { drawPacketSymbol } from './network-view.js';

export const MOTION_MAX_SPEED = 1;
export const MOTION_MAX_ROUTERS = 300;
const STEP_GLIDE_MS = 450;

/**
 * Whether the page draws the packets now: on the simulation's `tab`, for the experiment
 * `exp` shown in `panes`.
 */
export function motionOn(tab, exp, panes) {
  if (tab !== 'sim' || !panes.length || !exp) return false;
  if (exp.view.packets === false) return false;
  return exp.speed <= MOTION_MAX_SPEED && panes.every((p) => p.info.routers <= MOTION_MAX_ROUTERS);
}

/** When the latest snapshot arrived (performance.now()) and over how many ms its packets glide. */
export const newGlide = () => ({ at: 0, ms: 0 });

/**
 * The glide `m` (newGlide) of the latest snapshot: call on every snapshot applied (`cycles`
 * advanced), with whether the simulation is `running`, the frame rate and the speed.
 */
export function snapshotArrived(m, cycles, { jump = false, running = false, fps = 0, speed = 1 } = {}) {
  if (cycles <= 0 && !jump) return;
  m.at = performance.now();
  if (jump) m.ms = 0;
  else if (!running) m.ms = STEP_GLIDE_MS;
  else {
    const frame = fps > 0 ? 1000 / fps : 1000 / 60;
    m.ms = speed < 1 ? Math.round(1 / speed) * frame : frame;
  }
}

/** How far through its last cycle the picture is, in [0, 1] (1: where the snapshot left it). */
export function glide(m) {
  if (!m || !(m.ms > 0)) return 1;
  return Math.min(1, Math.max(0, (performance.now() - m.at) / m.ms));
}

/** The legend's packet rows: shown (with their symbols) only while packets are drawn. */
export function syncPacketLegend(on) {
  const row = document.getElementById('legend-packets-row');
  if (!row || row.hidden === !on) return;
  row.hidden = !on;
  if (!on) return;
  for (const [id, kind] of [
    ['legend-pkt-min', 'minimal'],
    ['legend-pkt-nonmin', 'nonminimal'],
    ['legend-pkt-followed', 'followed'],
  ]) {
    const c = document.getElementById(id);
    if (!(c instanceof HTMLCanvasElement)) continue;
    const dpr = window.devicePixelRatio || 1;
    const size = 16;
    c.width = Math.round(size * dpr);
    c.height = Math.round(size * dpr);
    const ctx = c.getContext('2d');
    ctx.clearRect(0, 0, c.width, c.height);
    drawPacketSymbol(ctx, kind, c.width / 2, c.height / 2, (kind === 'followed' ? 6.5 : 5) * dpr, dpr);
  }
}

/** The legend text of the packets, for the PNG export. */
export const PACKET_LEGEND = {
  minimal: 'packet on its minimal path',
  nonminimal: 'packet routed non-minimally',
  followed: 'the traced packet',
};
