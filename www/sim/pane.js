// One simulation on the page: the mirror of its WebSim (www/sim/remote-sim.js; the simulation
// itself runs in the worker), its canvas view and its live statistics. In side-by-side
// mode there is one pane per compared value, stepped in lock-step.

import { Geometry } from '../render/geometry.js';
import { NetworkView } from '../render/network-view.js';
import { StatsTracker } from '../model/stats.js';
import { formatValue } from '../model/experiment.js';
import { DecisionWindow } from '../model/decisions.js';

export class Pane {
  constructor(container, index, variant, sim) {
    this.index = index;
    this.variant = variant;
    this.sim = sim;
    /** @type {import('../../pkg/hiradix.js').NetworkInfo} */
    this.info = sim.networkInfo();
    /** @type {import('../../pkg/hiradix.js').SimConfig} the pane's own copy of the config in effect */
    this.config = structuredClone(sim.config());
    this.vcs = sim.vcs();
    this.depth = sim.bufferDepth();
    this.title = variant.label ? `${variant.name}: ${variant.label}` : `${this.info.type} · ${this.info.algorithm}`;
    this.short = variant.label ? formatValue(variant.value) : this.info.algorithm;
    this.colour = variant.colour;

    this.root = document.createElement('div');
    this.root.className = 'pane';
    this.root.dataset.variant = variant.name;
    const head = document.createElement('div');
    head.className = 'pane-head';
    const sw = document.createElement('span');
    sw.className = 'pane-swatch';
    sw.style.background = variant.colour;
    this.labelEl = document.createElement('span');
    this.labelEl.className = 'pane-label';
    this.labelEl.textContent = variant.label
      ? `${variant.name} · ${formatValue(variant.value)}`
      : `${this.info.type.replace(/_/g, ' ')} · ${this.info.algorithm}`;
    this.labelEl.title = variant.label || '';
    this.noteEl = document.createElement('span');
    this.noteEl.className = 'pane-note';
    head.append(sw, this.labelEl, this.noteEl);
    this.canvas = document.createElement('canvas');
    this.canvas.className = 'net';
    if (index === 0) this.canvas.id = 'network';
    else this.canvas.id = `network-${index}`;
    this.canvas.setAttribute('aria-label', `Network ${variant.name}: routers, links and queue occupancy`);
    this.canvas.dataset.pane = String(index);
    this.canvas.tabIndex = 0;
    this.root.append(head, this.canvas);
    container.append(this.root);

    this.groups = sim.routerGroups();
    const geometry = new Geometry({
      positions: structuralPositions(this.info, sim.routerPositions()),
      endpoints: sim.channelEndpoints(),
      groups: this.groups,
      classes: sim.channelClasses(),
      slices: this.info.slices ?? 1,
    });
    this.focus = null; // the story's focus channels (a mask), see setFocus
    this.focusAsked = 0; // focus requests sent: only the latest one's answer is shown
    this.view = new NetworkView(this.canvas, geometry, { blockKind: this.info.group_kind });
    this.setFailed(sim.failedChannels());
    this.stats = new StatsTracker(this.info);
    this.stats.sample(sim);
    // Per-router routing decisions over a recent window (www/model/decisions.js), fed by the
    // snapshots that carry them.
    this.decisions = new DecisionWindow(this.info.routers);
    this.decisions.push(sim.now(), sim.routerDecisions?.());
  }

  /**
   * The story's focus on this pane: the channels the engine selects for `rule.selection`
   * (a story document's focus; src/story/focus.rs, `focus_mask`), asked of the pane's worker.
   * Resolves once the pane shows them (none when the focus does not show on this network).
   */
  async setFocus(rule) {
    const asked = ++this.focusAsked;
    const mask = rule ? await this.sim.ask('focusChannels', JSON.stringify(rule.selection)) : null;
    if (asked === this.focusAsked) this.focus = mask instanceof Uint8Array && mask.length ? mask : null;
  }

  /** The failed channels (per channel, 1 = failed; WebSim.failedChannels). */
  setFailed(mask) {
    this.failed = mask && mask.length === this.info.channels ? Uint8Array.from(mask) : new Uint8Array(this.info.channels);
    this.failedLinks = this.failed.reduce((n, x) => n + x, 0) / 2;
    this.failedSeq = (this.failedSeq ?? 0) + 1;
    this.view.setFailed(this.failedLinks > 0 ? this.failed : null);
  }

  /** Side by side over faults.links: this pane's list changed (a link clicked). */
  setVariantValue(value) {
    const v = this.variant;
    v.value = value;
    v.label = `${v.label.split(' = ')[0]} = ${formatValue(value)}`;
    this.title = `${v.name}: ${v.label}`;
    this.short = formatValue(value);
    this.labelEl.textContent = `${v.name} · ${formatValue(value)}`;
    this.labelEl.title = v.label;
  }

  get now() {
    return this.sim.now();
  }

  /** The snapshot's arrays; link values over `range` (the value drawn in full colour). */
  frameData(metric, range = 1) {
    const sim = this.sim;
    const vc = sim.vcOccupancy();
    let links;
    if (metric === 'utilization') links = sim.channelUtilization();
    else if (metric.startsWith('vc')) {
      const k = Math.min(this.vcs - 1, Number(metric.slice(2)) || 0);
      const n = this.info.channels;
      links = new Float32Array(n);
      for (let c = 0; c < n; c++) links[c] = vc[c * this.vcs + k] / this.depth;
    } else links = sim.channelOccupancy();
    this.links = links; // what the picture draws, for the key plot
    this.linksMetric = metric;
    if (range !== 1) {
      if (this.scaled?.length !== links.length) this.scaled = new Float32Array(links.length);
      for (let c = 0; c < links.length; c++) this.scaled[c] = Math.min(1, links[c] / range);
      links = this.scaled;
    }
    return {
      links,
      vc,
      vcs: this.vcs,
      depth: this.depth,
      routerFill: sim.routerInjectionOccupancy(),
      routerQueue: sim.routerSourceQueues(),
    };
  }

  /**
   * Draws the latest snapshot; skipped when neither it nor anything else the picture
   * shows (view, size, selection, trace, options) changed since the last drawing.
   */
  draw(metric, selection, vcCells, trace = null, { range = 1, dim = undefined, routerScale = 1 } = {}, { packets = null, routers = null } = {}) {
    const rect = this.canvas.getBoundingClientRect();
    const v = this.view;
    // Gliding packets move every frame until they reach the snapshot's positions: then
    // only they are redrawn, over the rest of the picture kept from the last full drawing.
    const glide = packets ? Math.round(packets.glide * 240) : -1;
    const key = JSON.stringify([
      this.sim.seq,
      metric,
      selection,
      vcCells,
      trace,
      v.zoom,
      v.centre,
      v.staticDirty,
      rect.width,
      rect.height,
      window.devicePixelRatio,
      this.focus !== null,
      range,
      dim,
      routerScale,
      this.failedSeq,
      packets !== null,
      routers?.key ?? null,
    ]);
    if (key === this.drawn && glide === this.glideDrawn) return false;
    if (key === this.drawn && v.moveDots(packets, selection)) {
      this.glideDrawn = glide;
      return true;
    }
    this.glideDrawn = glide;
    const frame = this.frameData(metric, range);
    // Routers coloured by another measure (www/model/decisions.js: the non-minimal share).
    if (routers?.values) frame.routerFill = routers.values;
    v.render(frame, selection, { vcCells, trace, focus: this.focus, dim, routerScale: this.focus ? routerScale : 1, packets });
    this.drawn = key;
    return true;
  }

  setNote(text) {
    if (this.noteEl.textContent !== text) this.noteEl.textContent = text;
  }

  /** Drops the pane (the worker frees its simulation when the next ones replace it). */
  destroy() {
    this.sim = null;
    this.root.remove();
  }
}

// A sliced dragonfly's slices are drawn this much smaller than their columns, so that a
// gap (and the divider) separates them and the group labels of neighbouring slices do not
// run into each other.
const SLICE_SHRINK = 0.8;

/**
 * Router positions that show the structure. The engine's layout is used, except for HyperX
 * networks of three or more dimensions, whose tiles (one per combination of the higher
 * coordinates, each a grid of dimensions 1 and 2) are arranged in a near-square grid of
 * tiles instead of a single row, and for a sliced dragonfly, whose slices are shrunk
 * within their columns (SLICE_SHRINK).
 */
export function structuralPositions(info, positions) {
  const S = info.slices ?? 1;
  if (info.family === 'dragonfly' && S > 1) {
    const out = new Float32Array(positions.length);
    const perSlice = info.routers / S;
    for (let r = 0; r < info.routers; r++) {
      const cx = (Math.floor(r / perSlice) + 0.5) / S;
      out[2 * r] = cx + (positions[2 * r] - cx) * SLICE_SHRINK;
      out[2 * r + 1] = 0.5 + (positions[2 * r + 1] - 0.5) * SLICE_SHRINK;
    }
    return out;
  }
  const dims = info.dims;
  if (info.family !== 'hyperx' || !dims || dims.length < 3) return positions;
  const [s0, s1] = dims;
  const perTile = s0 * s1;
  const tiles = info.routers / perTile;
  const cols = Math.ceil(Math.sqrt(tiles));
  const rows = Math.ceil(tiles / cols);
  const cell = 1 / Math.max(cols, rows);
  const inner = cell * 0.82;
  const out = new Float32Array(positions.length);
  for (let r = 0; r < info.routers; r++) {
    const t = Math.floor(r / perTile);
    const x = r % s0;
    const y = Math.floor(r / s0) % s1;
    const tx = (t % cols) * cell + (1 - cols * cell) / 2 + (cell - inner) / 2;
    const ty = Math.floor(t / cols) * cell + (1 - rows * cell) / 2 + (cell - inner) / 2;
    out[2 * r] = 0.03 + 0.94 * (tx + ((x + 0.5) / s0) * inner);
    out[2 * r + 1] = 0.03 + 0.94 * (ty + ((y + 0.5) / s1) * inner);
  }
  return out;
}
