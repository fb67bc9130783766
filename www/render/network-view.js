// Canvas drawing of one network: the static topology once per view to an off-screen canvas,
// then every frame the coloured channels, per-VC queue cells, routers and their terminal
// load on top of it. Strokes and fills are batched by colour: values are quantised into
// RAMP_LEVELS buckets and each bucket is one path.
//
// Geometry (geometry.js) lives in world coordinates (the engine's router positions, unit
// square); the view (zoom, centre) maps it to device pixels. Both directions of a link are drawn as two
// parallel lines, each offset to the right of its direction of travel; parallel (trunked)
// links get increasing offsets. A link whose straight line would run through another router
// (the all-to-all rows of a flattened butterfly or HyperX on a grid) bows away from the
// centre of the network.

import { clampZoom } from '../model/experiment.js';

export const RAMP_LEVELS = 16;

// Sequential ramp, low → high: a light neutral grey for idle, then viridis reversed (pale
// yellow-green → teal → blue → dark purple), so busy is dark and saturated. Viridis is
// perceptually uniform and its lightness falls monotonically, so the order of the colours
// survives deuteranopia, protanopia and greyscale (a projector, a printout).
const VIRIDIS = [
  [68, 1, 84],
  [72, 36, 117],
  [65, 68, 135],
  [53, 95, 141],
  [42, 120, 142],
  [33, 145, 140],
  [34, 168, 132],
  [68, 191, 112],
  [122, 209, 81],
  [189, 223, 38],
  [253, 231, 37],
];
const IDLE_RGB = [214, 219, 226];
/** The ramp's stops: [t, [r, g, b]], t rising from 0 to 1. @type {[number, number[]][]} */
const RAMP_STOPS = [
  [0.0, IDLE_RGB],
  ...VIRIDIS.slice(0, 10)
    .reverse()
    .map((c, i) => /** @type {[number, number[]]} */ ([0.1 + i * 0.1, c])),
];

export function rampRgb(t) {
  t = Math.min(1, Math.max(0, t));
  for (let i = 1; i < RAMP_STOPS.length; i++) {
    const [t1, c1] = RAMP_STOPS[i];
    if (t <= t1 + 1e-9) {
      const [t0, c0] = RAMP_STOPS[i - 1];
      const f = (t - t0) / (t1 - t0);
      return c0.map((v, k) => Math.round(v + f * (c1[k] - v)));
    }
  }
  return RAMP_STOPS.at(-1)[1];
}

export function rampColour(t) {
  const c = rampRgb(t);
  return `rgb(${c[0]}, ${c[1]}, ${c[2]})`;
}

export const BUCKET_COLOURS = Array.from({ length: RAMP_LEVELS }, (_, i) => rampColour(i / (RAMP_LEVELS - 1)));

/** Bucket of a value in [0, 1]: 0 only for exactly empty, so any traffic shows. */
export const bucketOf = (v) => (v <= 0 ? 0 : Math.min(RAMP_LEVELS - 1, 1 + Math.floor(v * (RAMP_LEVELS - 1))));

// Views of more channels than this colour only the channels at least half full (buckets
// from DENSE_FROM up); the others keep the static layer's idle colour. At such densities a
// channel is far thinner than a pixel at the fitted view, and stroking every one of them
// every frame would cost the page its frame rate (a 16×16×16 HyperX, 184 320 channels like
// the FB paper's 64K-node network, drew 5 fps in a software-rendered canvas with every
// channel coloured, 60 with this).
export const DENSE_CHANNELS = 20000;
const DENSE_FROM = bucketOf(0.5);

export function drawRamp(canvas) {
  const ctx = canvas.getContext('2d');
  for (let x = 0; x < canvas.width; x++) {
    ctx.fillStyle = rampColour(x / (canvas.width - 1));
    ctx.fillRect(x, 0, 1, canvas.height);
  }
}

export const COLOURS = {
  background: '#ffffff',
  group: '#f1f3f6',
  groupEdge: '#c9d2de',
  groupLabel: '#5b6675',
  sliceLabel: '#2b3440',
  idleLink: BUCKET_COLOURS[0],
  idleGlobal: 'rgba(190, 200, 212, 0.45)',
  // An idle router is light (white with a dark edge; mid grey when too small for an edge):
  // only busy ones are dark.
  router: '#ffffff',
  routerSmall: '#a3adba',
  routerEdge: '#1c2430',
  queueHalo: '#b2182b',
  // The channels a story is about: a wide orange casing under their ramp colour, so they
  // stand out by width (greyscale) as well as by hue.
  focus: '#f28e2b',
  selection: '#2563eb',
  trace: '#c026d3',
  // A failed link: near-black dashes over a white casing, crossed out at its middle — a
  // pattern no load colour has, so it reads in greyscale and to colour-blind eyes.
  failed: '#111111',
  emptyCell: '#e4e8ee',
  // Packets on the channels (www/render/motion.js): minimal ones filled near-black discs,
  // non-minimal ones hollow Okabe–Ito vermilion diamonds — shape and hue both differ, and
  // each has a white edge, so they read on any link colour, in greyscale and to
  // colour-blind eyes; the traced packet in the trace's magenta, larger, outlined.
  packetMin: '#1c2430',
  packetNonmin: '#d55e00',
  packetEdge: '#ffffff',
};

/**
 * One packet symbol centred at (x, y), `r` device pixels from centre to edge: 'minimal'
 * (filled disc), 'nonminimal' (hollow diamond) or 'followed' (a larger magenta disc with
 * a dark outline). Used by the picture, the legend and the PNG export alike.
 */
export function drawPacketSymbol(ctx, kind, x, y, r, dpr = 1) {
  ctx.save();
  ctx.lineJoin = 'round';
  ctx.beginPath();
  if (kind === 'nonminimal') {
    diamond(ctx, x, y, r);
    ctx.strokeStyle = COLOURS.packetEdge;
    ctx.lineWidth = Math.max(2, r * 0.55) + 2 * dpr;
    ctx.stroke();
    ctx.strokeStyle = COLOURS.packetNonmin;
    ctx.lineWidth = Math.max(2, r * 0.55);
    ctx.stroke();
  } else {
    ctx.arc(x, y, r, 0, 2 * Math.PI);
    ctx.fillStyle = kind === 'followed' ? COLOURS.trace : COLOURS.packetMin;
    ctx.fill();
    ctx.strokeStyle = kind === 'followed' ? COLOURS.packetMin : COLOURS.packetEdge;
    ctx.lineWidth = kind === 'followed' ? Math.max(2, 2 * dpr) : Math.max(1, dpr);
    ctx.stroke();
    if (kind === 'followed') {
      ctx.beginPath();
      ctx.arc(x, y, r + 2.5 * dpr, 0, 2 * Math.PI);
      ctx.strokeStyle = COLOURS.packetEdge;
      ctx.lineWidth = 2 * dpr;
      ctx.stroke();
    }
  }
  ctx.restore();
}

function diamond(ctx, x, y, r) {
  ctx.moveTo(x, y - r);
  ctx.lineTo(x + r, y);
  ctx.lineTo(x, y + r);
  ctx.lineTo(x - r, y);
  ctx.closePath();
}

// Channels outside a story's focus are drawn at this opacity and width factor.
const DIM_ALPHA = 0.28;
const DIM_WIDTH = 0.75;

/** A network drawn on one canvas, with zoom and pan. */
export class NetworkView {
  constructor(canvas, geometry, { blockKind = '' } = {}) {
    this.canvas = canvas;
    this.geo = geometry;
    this.blockKind = blockKind;
    this.zoom = 1;
    this.centre = [0.5, 0.5];
    this.width = 0;
    this.height = 0;
    this.staticLayer = document.createElement('canvas');
    this.staticDirty = true;
    this.anyGlobal = geometry.global.some((x) => x);
    const n = Math.max(geometry.channels, geometry.routers);
    // Screen-space geometry of the current view: x0 y0 cx cy x1 y1 per channel.
    this.seg = new Float32Array(6 * geometry.channels);
    this.buckets = new Uint8Array(n);
    this.order = new Uint32Array(n);
    this.counts = new Uint32Array(RAMP_LEVELS + 1);
    this.failed = null; // per channel, 1 = failed (null: none)
    // The failed links are static: drawn once per view into their own transparent layer,
    // which every frame lays over the coloured channels.
    this.failedLayer = document.createElement('canvas');
    this.failedDrawn = null;
    /** @type {HTMLCanvasElement | null} the picture under gliding packets (see draw) */
    this.under = null;
  }

  /** The failed channels (per channel, 1 = failed), or null for none. */
  setFailed(mask) {
    this.failed = mask;
    this.failedDrawn = null;
    // A sliced network's headings count the failed links.
    if (this.geo.slices > 1) this.staticDirty = true;
  }

  /** Matches the canvas's backing store to its CSS size; returns true if it changed. */
  resize() {
    const dpr = window.devicePixelRatio || 1;
    const rect = this.canvas.getBoundingClientRect();
    const w = Math.max(1, Math.round(rect.width * dpr));
    const h = Math.max(1, Math.round(rect.height * dpr));
    if (w === this.width && h === this.height) return false;
    this.canvas.width = w;
    this.canvas.height = h;
    this.staticLayer.width = w;
    this.staticLayer.height = h;
    this.width = w;
    this.height = h;
    this.staticDirty = true;
    // Slices side by side or stacked, whichever draws them larger on this canvas.
    const S = this.geo.slices;
    if (S > 1) {
      const pad = Math.max(12, Math.min(w, h) * 0.05);
      const row = Math.min(w - 2 * pad, (h - 2 * pad) * S);
      const column = Math.min((w - 2 * pad) * S, h - 2 * pad);
      if (this.geo.setStacked(column > row * 1.05)) this.failedDrawn = null;
    }
    return true;
  }

  // The fitted view (zoom 1, centre 0.5, 0.5) frames the unit square, or for a sliced
  // network the band its columns fill (the unit square's width, 1/slices of its height),
  // so two slices side by side fill a wide canvas rather than a square in its middle.
  get scale() {
    const pad = Math.max(12, Math.min(this.width, this.height) * 0.05);
    const S = this.geo.slices;
    const [frameW, frameH] = this.geo.stacked ? [1 / S, 1] : [1, 1 / S];
    return Math.min((this.width - 2 * pad) / frameW, (this.height - 2 * pad) / frameH) * this.zoom;
  }

  toScreen(x, y) {
    const s = this.scale;
    return [(x - this.centre[0]) * s + this.width / 2, (y - this.centre[1]) * s + this.height / 2];
  }

  toWorld(px, py) {
    const s = this.scale;
    return [(px - this.width / 2) / s + this.centre[0], (py - this.height / 2) / s + this.centre[1]];
  }

  setView(zoom, cx, cy) {
    this.zoom = clampZoom(zoom);
    this.centre = [cx, cy];
    this.staticDirty = true;
  }

  /** Zooms by `factor` keeping the world point under (px, py) in place. */
  zoomAt(px, py, factor) {
    const [wx, wy] = this.toWorld(px, py);
    this.zoom = clampZoom(this.zoom * factor);
    const s = this.scale;
    this.centre = [wx - (px - this.width / 2) / s, wy - (py - this.height / 2) / s];
    this.staticDirty = true;
  }

  panBy(dx, dy) {
    const s = this.scale;
    this.centre = [this.centre[0] - dx / s, this.centre[1] - dy / s];
    this.staticDirty = true;
  }

  // Sizes in device pixels for the current view.
  metrics() {
    const dpr = window.devicePixelRatio || 1;
    const gapPx = this.geo.minGap * this.scale;
    const radius = Math.max(1.5 * dpr, Math.min(14 * dpr, gapPx * 0.3));
    const lineWidth = Math.max(0.8 * dpr, Math.min(3 * dpr, radius / 3.2));
    return { radius, lineWidth, dpr };
  }

  // Screen coordinates of every channel, offset to the right of its direction.
  layout() {
    const g = this.geo;
    const { lineWidth } = this.metrics();
    const s = this.scale;
    const ox = this.width / 2 - this.centre[0] * s;
    const oy = this.height / 2 - this.centre[1] * s;
    const seg = this.seg;
    for (let c = 0; c < g.channels; c++) {
      const off = lineWidth * (0.7 + 1.4 * g.parallel[c]);
      const dx = g.nx[c] * off;
      const dy = g.ny[c] * off;
      const a = g.src[c];
      const b = g.dst[c];
      const i = 6 * c;
      seg[i] = g.x[a] * s + ox + dx;
      seg[i + 1] = g.y[a] * s + oy + dy;
      if (Number.isNaN(g.cx[c])) {
        seg[i + 2] = NaN;
        seg[i + 3] = NaN;
      } else {
        seg[i + 2] = g.cx[c] * s + ox + dx;
        seg[i + 3] = g.cy[c] * s + oy + dy;
      }
      seg[i + 4] = g.x[b] * s + ox + dx;
      seg[i + 5] = g.y[b] * s + oy + dy;
    }
  }

  pathChannel(ctx, c) {
    const seg = this.seg;
    const i = 6 * c;
    ctx.moveTo(seg[i], seg[i + 1]);
    if (Number.isNaN(seg[i + 2])) ctx.lineTo(seg[i + 4], seg[i + 5]);
    else ctx.quadraticCurveTo(seg[i + 2], seg[i + 3], seg[i + 4], seg[i + 5]);
  }

  // The static layer: background, groups or tiles with labels, every channel idle.
  drawStatic() {
    this.layout();
    const ctx = this.staticLayer.getContext('2d');
    const g = this.geo;
    const { lineWidth, dpr } = this.metrics();
    ctx.fillStyle = COLOURS.background;
    ctx.fillRect(0, 0, this.width, this.height);
    if (g.blocks.length > 1) {
      const s = this.scale;
      const tile = this.blockKind === 'tile';
      const pad = tile ? g.minGap * 0.45 * s : Math.max(4 * dpr, g.minGap * 0.6 * s);
      ctx.fillStyle = COLOURS.group;
      ctx.strokeStyle = COLOURS.groupEdge;
      ctx.lineWidth = dpr;
      ctx.beginPath();
      for (const b of g.blocks) {
        if (tile) {
          const [x0, y0] = this.toScreen(b.x0, b.y0);
          const [x1, y1] = this.toScreen(b.x1, b.y1);
          ctx.rect(x0 - pad, y0 - pad, x1 - x0 + 2 * pad, y1 - y0 + 2 * pad);
        } else {
          const [x, y] = this.toScreen(b.cx, b.cy);
          const r = b.r * s + pad;
          ctx.moveTo(x + r, y);
          ctx.arc(x, y, r, 0, 2 * Math.PI);
        }
      }
      ctx.fill();
      ctx.stroke();
      const labelPx = Math.min(13 * dpr, g.blocks[0].r * s * 0.6 + 6 * dpr);
      // A sliced network numbers its groups on through the slices (block s·g + G): each
      // slice's groups are labelled G0 … G(g−1) again, under the slice's own heading.
      const S = g.slices;
      const perSlice = g.blocks.length % S === 0 ? g.blocks.length / S : g.blocks.length;
      if (labelPx >= 8 * dpr) {
        ctx.fillStyle = COLOURS.groupLabel;
        ctx.font = `${Math.round(labelPx)}px system-ui, sans-serif`;
        ctx.textAlign = 'center';
        ctx.textBaseline = 'middle';
        g.blocks.forEach((b, i) => {
          const [x, y] = this.toScreen(b.cx, b.cy);
          if (tile) {
            const [, y0] = this.toScreen(b.x0, b.y0);
            ctx.fillText(`tile ${i}`, x, y0 - pad - labelPx * 0.7);
          } else {
            // Outside the group, away from the centre of its slice's drawing.
            const [x0, y0, x1, y1] = g.sliceBox(Math.floor(i / perSlice));
            const mid = this.toScreen((x0 + x1) / 2, (y0 + y1) / 2);
            const dx = x - mid[0];
            const dy = y - mid[1];
            const d = Math.hypot(dx, dy) || 1;
            const r = b.r * s + pad + labelPx;
            ctx.fillText(`G${i % perSlice}`, x + (dx / d) * r, y + (dy / d) * r);
          }
        });
      }
    }
    if (g.slices > 1) this.drawSliceHeadings(ctx, dpr);
    ctx.lineWidth = lineWidth;
    ctx.lineCap = 'butt';
    for (const global of [1, 0]) {
      ctx.strokeStyle = global ? COLOURS.idleGlobal : COLOURS.idleLink;
      ctx.lineWidth = global ? Math.max(dpr * 0.6, lineWidth * 0.6) : lineWidth;
      ctx.beginPath();
      for (let c = 0; c < g.channels; c++) if (g.global[c] === global) this.pathChannel(ctx, c);
      ctx.stroke();
    }
    this.staticDirty = false;
  }

  // A sliced network: a divider between the slices' columns, a heading in the top left
  // corner of each ("slice 1"), which the ring of groups leaves empty, and under it the
  // number of its failed links.
  drawSliceHeadings(ctx, dpr) {
    const g = this.geo;
    const S = g.slices;
    const colPx = this.scale / S;
    ctx.save();
    ctx.strokeStyle = COLOURS.groupEdge;
    ctx.lineWidth = 1.5 * dpr;
    ctx.setLineDash([6 * dpr, 5 * dpr]);
    ctx.beginPath();
    for (let s = 1; s < S; s++) {
      // The edge shared with the previous slice.
      const [x0, y0, x1, y1] = g.sliceBox(s);
      const [ax, ay] = this.toScreen(x0, y0);
      const [bx, by] = g.stacked ? this.toScreen(x1, y0) : this.toScreen(x0, y1);
      ctx.moveTo(ax, ay);
      ctx.lineTo(bx, by);
    }
    ctx.stroke();
    ctx.setLineDash([]);
    const px = Math.round(Math.max(14 * dpr, Math.min(22 * dpr, colPx * 0.065)));
    ctx.fillStyle = COLOURS.sliceLabel;
    ctx.textAlign = 'left';
    ctx.textBaseline = 'top';
    const failed = this.failedPerSlice();
    const small = Math.round(Math.max(12 * dpr, px * 0.75));
    for (let s = 0; s < S; s++) {
      const [x0, y0, , y1] = g.sliceBox(s);
      const [x, top] = this.toScreen(x0, y0);
      const [, bottom] = this.toScreen(x0, y1);
      ctx.font = `600 ${px}px system-ui, sans-serif`;
      ctx.textBaseline = 'top';
      ctx.fillText(`slice ${s}`, x + 0.4 * px, top + 0.2 * px);
      // The failed links just under the slice's box (in the view's margin).
      const n = failed[s];
      if (n) {
        ctx.font = `${small}px system-ui, sans-serif`;
        ctx.textBaseline = 'top';
        ctx.fillText(`${n} link${n === 1 ? '' : 's'} failed`, x + 0.4 * px, bottom + 0.15 * small);
      }
    }
    ctx.restore();
  }

  // Failed links (both directions failed count once) in each slice.
  failedPerSlice() {
    const g = this.geo;
    const out = new Array(g.slices).fill(0);
    if (!this.failed) return out;
    const perSlice = g.routers / g.slices;
    for (let c = 0; c < g.channels; c++) if (this.failed[c] && g.src[c] < g.dst[c]) out[Math.floor(g.src[c] / perSlice)]++;
    return out;
  }

  /**
   * Draws one frame. frame.links: per-channel value in [0, 1] (link colour); frame.vc:
   * per channel × VC flits with frame.vcs and frame.depth (VC cells); frame.routerFill:
   * per-router value in [0, 1]; frame.routerQueue: mean source-queue packets per terminal.
   * selection: {kind: 'router' | 'channel', index} or null. packets: {data, glide} (the
   * packets on the channels, www/render/motion.js) or null. trace: a traced packet's
   * {channels, routers, current: {router} | {channel} | null, dst, armed} or null.
   */
  render(frame, selection = null, { vcCells = true, trace = null, focus = null, dim = DIM_ALPHA, routerScale = 1, packets = null } = {}) {
    this.resize();
    if (this.staticDirty) this.drawStatic();
    const ctx = this.canvas.getContext('2d', { alpha: false });
    const g = this.geo;
    const m = this.metrics();
    const { lineWidth, dpr } = m;
    // A story whose focus channels run between neighbouring routers draws the routers
    // smaller, so the channels are not hidden under them.
    const radius = routerScale === 1 ? m.radius : Math.max(1.5 * dpr, m.radius * routerScale);
    ctx.drawImage(this.staticLayer, 0, 0);
    // Busy channels, batched by colour bucket, low buckets first so busy ones end on top.
    // Dragonfly global channels first and thinner, so the groups' local channels stay legible.
    // With a story's focus (a mask over channels), the other channels are dimmed and
    // thinner, and the focus channels drawn last, wide, over an orange casing.
    const order = this.sortByBucket(frame.links, g.channels);
    ctx.lineCap = 'butt';
    // Lines under 1.5 device pixels are drawn at 1: a software canvas (headless Chromium,
    // no GPU) rasterizes strokes of at most one pixel by a path about three times faster,
    // and the dense views where this applies draw thousands of them every frame.
    const width = lineWidth < 1.5 ? 1 : lineWidth;
    const firstBucket = g.channels > DENSE_CHANNELS ? DENSE_FROM : 1;
    const hasFocus = focus !== null && focus.length === g.channels;
    const dimmed = hasFocus && dim < 1;
    for (const global of this.anyGlobal ? [1, 0] : [0]) {
      const base = global ? Math.max(dpr * 0.7, width * 0.7) : width;
      ctx.lineWidth = dimmed ? Math.max(1, base * DIM_WIDTH) : base;
      for (let b = firstBucket; b < RAMP_LEVELS; b++) {
        const from = this.counts[b];
        const to = this.counts[b + 1];
        if (from === to) continue;
        ctx.strokeStyle = BUCKET_COLOURS[b];
        // Lightly used global chords recede; the busy ones stand out.
        ctx.globalAlpha = dimmed ? dim : global && b < 5 ? 0.4 : 1;
        ctx.beginPath();
        let any = false;
        for (let k = from; k < to; k++) {
          const c = order[k];
          if (g.global[c] !== global || (hasFocus && focus[c])) continue;
          this.pathChannel(ctx, c);
          any = true;
        }
        if (any) ctx.stroke();
      }
    }
    if (hasFocus) this.drawFocus(ctx, order, focus, width, dpr);
    ctx.globalAlpha = 1;
    // Failed links over everything else on the links, never dimmed.
    if (this.failed) {
      const key = `${this.width}x${this.height} ${this.zoom} ${this.centre} ${width} ${radius}`;
      if (this.failedDrawn !== key) {
        this.failedLayer.width = this.width;
        this.failedLayer.height = this.height;
        this.drawFailed(this.failedLayer.getContext('2d'), this.failed, width, radius, dpr);
        this.failedDrawn = key;
      }
      ctx.drawImage(this.failedLayer, 0, 0);
    }
    // VC cells once zoomed in (at the fitted view they would only add noise).
    this.vcCellsShown = vcCells && frame.vc && this.zoom >= 1.5 ? this.drawVcCells(ctx, frame, radius, lineWidth) : false;
    // Routers, filled by their terminals' load, batched by bucket.
    const fill = this.sortByBucket(frame.routerFill, g.routers);
    const s = this.scale;
    const ox = this.width / 2 - this.centre[0] * s;
    const oy = this.height / 2 - this.centre[1] * s;
    for (let b = 0; b < RAMP_LEVELS; b++) {
      const from = this.counts[b];
      const to = this.counts[b + 1];
      if (from === to) continue;
      ctx.fillStyle = b === 0 ? (radius >= 3 * dpr ? COLOURS.router : COLOURS.routerSmall) : BUCKET_COLOURS[b];
      ctx.beginPath();
      for (let k = from; k < to; k++) {
        const r = fill[k];
        const x = g.x[r] * s + ox;
        const y = g.y[r] * s + oy;
        ctx.moveTo(x + radius, y);
        ctx.arc(x, y, radius, 0, 2 * Math.PI);
      }
      ctx.fill();
    }
    if (radius >= 3 * dpr) {
      ctx.strokeStyle = COLOURS.routerEdge;
      ctx.lineWidth = Math.max(1, dpr * 0.8);
      ctx.beginPath();
      for (let r = 0; r < g.routers; r++) {
        const x = g.x[r] * s + ox;
        const y = g.y[r] * s + oy;
        ctx.moveTo(x + radius, y);
        ctx.arc(x, y, radius, 0, 2 * Math.PI);
      }
      ctx.stroke();
    }
    // Source-queue backlog: a red ring, wider for every 4× more packets waiting.
    if (frame.routerQueue) {
      const q = frame.routerQueue;
      for (let level = 1; level <= 4; level++) {
        ctx.beginPath();
        let any = false;
        for (let r = 0; r < g.routers; r++) {
          const w = q[r] < 1 ? 0 : Math.min(4, 1 + Math.floor(Math.log2(q[r]) / 2));
          if (w !== level) continue;
          const x = g.x[r] * s + ox;
          const y = g.y[r] * s + oy;
          const rr = radius + (level * dpr) / 2 + dpr;
          ctx.moveTo(x + rr, y);
          ctx.arc(x, y, rr, 0, 2 * Math.PI);
          any = true;
        }
        if (any) {
          ctx.strokeStyle = COLOURS.queueHalo;
          ctx.lineWidth = level * dpr;
          ctx.stroke();
        }
      }
    }
    if (trace) this.drawTrace(ctx, trace, radius, lineWidth, dpr);
    this.packetsDrawn = null;
    if (packets) {
      // Keep the picture under the packets: while they glide, each frame redraws only them.
      this.under ??= document.createElement('canvas');
      if (this.under.width !== this.width || this.under.height !== this.height) {
        this.under.width = this.width;
        this.under.height = this.height;
      }
      this.under.getContext('2d').drawImage(this.canvas, 0, 0);
      this.underArgs = { radius, lineWidth, dpr };
      this.packetsDrawn = this.drawPackets(ctx, packets.data, packets.glide, radius, dpr);
    } else this.underArgs = null;
    if (selection) this.drawSelection(ctx, selection, radius, lineWidth);
  }

  /**
   * The packets of the last `render` further along their glide: the picture under them is
   * kept, so this costs a copy and the packets only. False if there is nothing kept.
   */
  moveDots(packets, selection) {
    const u = this.underArgs;
    if (!u || !packets || this.under?.width !== this.width || this.under?.height !== this.height) return false;
    const ctx = this.canvas.getContext('2d', { alpha: false });
    ctx.drawImage(this.under, 0, 0);
    this.packetsDrawn = this.drawPackets(ctx, packets.data, packets.glide, u.radius, u.dpr);
    if (selection) this.drawSelection(ctx, selection, u.radius, u.lineWidth);
    return true;
  }

  /**
   * The packets on the channels (WebSim.packetsOnChannels: [channel, progress, step,
   * nonminimal, followed, …]), each `glide` ∈ [0, 1] of the way from progress − step to
   * progress along its channel. Returns what it drew (for tests): counts and positions.
   */
  drawPackets(ctx, data, glide, radius, dpr) {
    const g = this.geo;
    const seg = this.seg;
    const r = Math.min(7.5 * dpr, Math.max(3 * dpr, radius * 0.6));
    const drawn = { minimal: 0, nonminimal: 0, followed: 0, dots: [], radius: r, glide };
    if (!data) return drawn;
    const min = new Path2D();
    const nonmin = new Path2D();
    const followed = [];
    for (let i = 0; i + 4 < data.length; i += 5) {
      const c = data[i];
      if (!(c >= 0 && c < g.channels)) continue;
      const k = 6 * c;
      // Between the edges of the two routers, not under them.
      const len = Math.hypot(seg[k + 4] - seg[k], seg[k + 5] - seg[k + 1]) || 1;
      const edge = Math.min(0.45, (radius + r) / len);
      const t = edge + (1 - 2 * edge) * Math.min(1, Math.max(0, data[i + 1] - data[i + 2] * (1 - glide)));
      let x;
      let y;
      if (Number.isNaN(seg[k + 2])) {
        x = seg[k] + t * (seg[k + 4] - seg[k]);
        y = seg[k + 1] + t * (seg[k + 5] - seg[k + 1]);
      } else {
        const u = 1 - t;
        x = u * u * seg[k] + 2 * u * t * seg[k + 2] + t * t * seg[k + 4];
        y = u * u * seg[k + 1] + 2 * u * t * seg[k + 3] + t * t * seg[k + 5];
      }
      const nm = data[i + 3] > 0;
      if (data[i + 4] > 0) {
        followed.push([x, y, nm]);
        drawn.followed++;
      } else if (nm) {
        nonmin.moveTo(x, y - r);
        nonmin.lineTo(x + r, y);
        nonmin.lineTo(x, y + r);
        nonmin.lineTo(x - r, y);
        nonmin.closePath();
      } else {
        min.moveTo(x + r, y);
        min.arc(x, y, r, 0, 2 * Math.PI);
      }
      if (nm) drawn.nonminimal++;
      else drawn.minimal++;
      if (drawn.dots.length < 5000) drawn.dots.push([x, y, nm ? 1 : 0, data[i + 4] > 0 ? 1 : 0]);
    }
    ctx.save();
    ctx.lineJoin = 'round';
    ctx.globalAlpha = 1;
    // Minimal: filled discs with a white edge; non-minimal: hollow diamonds over a white
    // casing, drawn on top (the rarer kind, the one the class looks for).
    ctx.fillStyle = COLOURS.packetMin;
    ctx.fill(min);
    ctx.strokeStyle = COLOURS.packetEdge;
    ctx.lineWidth = Math.max(1, dpr);
    ctx.stroke(min);
    const w = Math.max(2, r * 0.55);
    ctx.strokeStyle = COLOURS.packetEdge;
    ctx.lineWidth = w + 2 * dpr;
    ctx.stroke(nonmin);
    ctx.strokeStyle = COLOURS.packetNonmin;
    ctx.lineWidth = w;
    ctx.stroke(nonmin);
    ctx.restore();
    for (const [x, y, nm] of followed) {
      drawPacketSymbol(ctx, 'followed', x, y, r * 2, dpr);
      if (nm) drawPacketSymbol(ctx, 'nonminimal', x, y, r, dpr);
    }
    return drawn;
  }

  // The focus channels (a story's point): an orange casing, then each in its ramp colour
  // (idle ones in the idle colour), wider than the rest.
  drawFocus(ctx, order, focus, width, dpr) {
    const g = this.geo;
    const w = Math.max(2 * dpr, width * 1.8);
    ctx.globalAlpha = 0.9;
    ctx.strokeStyle = COLOURS.focus;
    ctx.lineWidth = w + 2.5 * dpr;
    ctx.beginPath();
    for (let c = 0; c < g.channels; c++) if (focus[c]) this.pathChannel(ctx, c);
    ctx.stroke();
    ctx.globalAlpha = 1;
    ctx.lineWidth = w;
    for (let b = 0; b < RAMP_LEVELS; b++) {
      const from = this.counts[b];
      const to = this.counts[b + 1];
      if (from === to) continue;
      ctx.strokeStyle = BUCKET_COLOURS[b];
      ctx.beginPath();
      let any = false;
      for (let k = from; k < to; k++) {
        const c = order[k];
        if (!focus[c]) continue;
        this.pathChannel(ctx, c);
        any = true;
      }
      if (any) ctx.stroke();
    }
  }

  // Failed links: both directions dashed over a white casing, and a cross at the link's
  // middle (drawn once per link, from the direction whose source is the lower router).
  drawFailed(ctx, failed, width, radius, dpr) {
    const g = this.geo;
    const seg = this.seg;
    // As wide as the focus channels on a small network, thinner on a dense one.
    const w = Math.max(1.5 * dpr, width * 1.6);
    ctx.save();
    ctx.lineCap = 'butt';
    ctx.beginPath();
    for (let c = 0; c < g.channels; c++) if (failed[c]) this.pathChannel(ctx, c);
    ctx.strokeStyle = '#ffffff';
    ctx.lineWidth = w + Math.min(2 * dpr, w);
    ctx.stroke();
    ctx.strokeStyle = COLOURS.failed;
    ctx.lineWidth = w;
    ctx.setLineDash([2.2 * w, 1.4 * w]);
    ctx.stroke();
    ctx.setLineDash([]);
    const { lineWidth } = this.metrics();
    const arm = Math.min(10 * dpr, Math.max(2.5 * dpr, radius * 0.8));
    const cross = new Path2D();
    for (let c = 0; c < g.channels; c++) {
      if (!failed[c] || g.src[c] > g.dst[c]) continue;
      const i = 6 * c;
      const curved = !Number.isNaN(seg[i + 2]);
      const off = lineWidth * (0.7 + 1.4 * g.parallel[c]);
      const x = (curved ? 0.25 * seg[i] + 0.5 * seg[i + 2] + 0.25 * seg[i + 4] : (seg[i] + seg[i + 4]) / 2) - g.nx[c] * off;
      const y = (curved ? 0.25 * seg[i + 1] + 0.5 * seg[i + 3] + 0.25 * seg[i + 5] : (seg[i + 1] + seg[i + 5]) / 2) - g.ny[c] * off;
      cross.moveTo(x - arm, y - arm);
      cross.lineTo(x + arm, y + arm);
      cross.moveTo(x - arm, y + arm);
      cross.lineTo(x + arm, y - arm);
    }
    ctx.lineCap = 'round';
    ctx.strokeStyle = '#ffffff';
    const crossWidth = Math.max(1.5 * dpr, w * 0.8);
    ctx.lineWidth = crossWidth + Math.min(3 * dpr, 2 * crossWidth);
    ctx.stroke(cross);
    ctx.strokeStyle = COLOURS.failed;
    ctx.lineWidth = crossWidth;
    ctx.stroke(cross);
    ctx.restore();
  }

  // A traced packet: the channels it took, the routers it visited, a ring where it is now
  // (or a heavier stroke on the channel it is crossing) and a dashed ring at its
  // destination; a dashed ring at the router a trace is armed at.
  drawTrace(ctx, t, radius, lineWidth, dpr) {
    const g = this.geo;
    const ring = (r, rr, width, dash = []) => {
      if (r === undefined || r === null || r >= g.routers) return;
      const [x, y] = this.toScreen(g.x[r], g.y[r]);
      ctx.setLineDash(dash);
      ctx.lineWidth = width;
      ctx.beginPath();
      ctx.arc(x, y, rr, 0, 2 * Math.PI);
      ctx.stroke();
      ctx.setLineDash([]);
    };
    ctx.save();
    ctx.strokeStyle = COLOURS.trace;
    ctx.lineCap = 'round';
    if (t.channels.length) {
      ctx.globalAlpha = 0.85;
      ctx.lineWidth = Math.max(3 * dpr, lineWidth * 2.2);
      ctx.beginPath();
      for (const c of t.channels) if (c < g.channels) this.pathChannel(ctx, c);
      ctx.stroke();
      ctx.globalAlpha = 1;
    }
    for (const r of t.routers) ring(r, radius + 2 * dpr, Math.max(2, dpr * 1.5));
    ring(t.dst, radius + 6 * dpr, Math.max(2, dpr * 1.5), [4 * dpr, 3 * dpr]);
    ring(t.armed, radius + 6 * dpr, Math.max(2, dpr * 2), [4 * dpr, 3 * dpr]);
    if (t.current?.router !== undefined) {
      ctx.fillStyle = COLOURS.trace;
      const [x, y] = this.toScreen(g.x[t.current.router], g.y[t.current.router]);
      ctx.beginPath();
      ctx.arc(x, y, radius + 1, 0, 2 * Math.PI);
      ctx.fill();
      ring(t.current.router, radius + 7 * dpr, Math.max(3, dpr * 2.5));
    } else if (t.current?.channel !== undefined && t.current.channel < g.channels) {
      ctx.lineWidth = Math.max(6 * dpr, lineWidth * 4);
      ctx.beginPath();
      this.pathChannel(ctx, t.current.channel);
      ctx.stroke();
    }
    ctx.restore();
  }

  // Counting sort of items 0..n by the bucket of values[i]; this.counts holds the starts.
  sortByBucket(values, n) {
    const counts = this.counts;
    counts.fill(0);
    const buckets = this.buckets;
    for (let i = 0; i < n; i++) {
      const b = values ? bucketOf(values[i]) : 0;
      buckets[i] = b;
      counts[b + 1]++;
    }
    for (let b = 1; b <= RAMP_LEVELS; b++) counts[b] += counts[b - 1];
    const next = counts.slice(0, RAMP_LEVELS);
    const order = this.order;
    for (let i = 0; i < n; i++) order[next[buckets[i]]++] = i;
    return order;
  }

  // Per-VC queue cells: V small squares on each channel just before the router it feeds
  // (where that input buffer physically is), coloured by the VC's occupancy. Drawn only
  // where the view is zoomed in far enough for them to be legible.
  drawVcCells(ctx, frame, radius, lineWidth) {
    const V = frame.vcs;
    const cell = Math.max(lineWidth * 2.2, 3);
    const need = radius * 2 + V * (cell + 1) * 2 + 8;
    const g = this.geo;
    const seg = this.seg;
    const paths = new Array(RAMP_LEVELS).fill(null);
    let drawn = 0;
    for (let c = 0; c < g.channels; c++) {
      const i = 6 * c;
      const ex = seg[i + 4];
      const ey = seg[i + 5];
      if (ex < -50 || ey < -50 || ex > this.width + 50 || ey > this.height + 50) continue;
      // Direction of arrival: from the control point (curves) or the start.
      const curved = !Number.isNaN(seg[i + 2]);
      const fx = curved ? seg[i + 2] : seg[i];
      const fy = curved ? seg[i + 3] : seg[i + 1];
      const len = Math.hypot(ex - fx, ey - fy);
      if (len < need) continue;
      const ux = (ex - fx) / len;
      const uy = (ey - fy) / len;
      for (let v = 0; v < V; v++) {
        const b = bucketOf(frame.vc[c * V + v] / frame.depth);
        const d = radius + 2 + (V - v - 0.5) * (cell + 1);
        if (!paths[b]) paths[b] = new Path2D();
        paths[b].rect(ex - ux * d - cell / 2, ey - uy * d - cell / 2, cell, cell);
      }
      drawn++;
    }
    for (let b = 0; b < RAMP_LEVELS; b++) {
      if (!paths[b]) continue;
      ctx.fillStyle = b === 0 ? COLOURS.emptyCell : BUCKET_COLOURS[b];
      ctx.fill(paths[b]);
    }
    return drawn > 0;
  }

  drawSelection(ctx, sel, radius, lineWidth) {
    const g = this.geo;
    ctx.strokeStyle = COLOURS.selection;
    if (sel.kind === 'router' && sel.index < g.routers) {
      const [x, y] = this.toScreen(g.x[sel.index], g.y[sel.index]);
      ctx.lineWidth = Math.max(2, lineWidth * 1.2);
      ctx.beginPath();
      ctx.arc(x, y, radius + 5, 0, 2 * Math.PI);
      ctx.stroke();
    } else if (sel.kind === 'channel' && sel.index < g.channels) {
      // Wide and dashed, so the selected channel stands out without its hue (greyscale).
      const dpr = window.devicePixelRatio || 1;
      ctx.lineWidth = Math.max(3 * dpr, lineWidth * 2.5);
      ctx.globalAlpha = 0.85;
      ctx.setLineDash([6 * dpr, 4 * dpr]);
      ctx.beginPath();
      this.pathChannel(ctx, sel.index);
      ctx.stroke();
      ctx.setLineDash([]);
      ctx.globalAlpha = 1;
    }
  }

  /** The router or channel under device pixel (px, py), or null. */
  hitTest(px, py) {
    const g = this.geo;
    const { radius, lineWidth, dpr } = this.metrics();
    let best = null;
    let bestD = radius + 4 * dpr;
    for (let r = 0; r < g.routers; r++) {
      const [x, y] = this.toScreen(g.x[r], g.y[r]);
      const d = Math.hypot(px - x, py - y);
      if (d < bestD) {
        bestD = d;
        best = { kind: 'router', index: r };
      }
    }
    if (best) return best;
    bestD = lineWidth / 2 + 3 * dpr;
    const seg = this.seg;
    for (let c = 0; c < g.channels; c++) {
      const i = 6 * c;
      const d = Number.isNaN(seg[i + 2]) ? distToSegment(px, py, seg[i], seg[i + 1], seg[i + 4], seg[i + 5]) : distToQuadratic(px, py, seg, i);
      if (d < bestD) {
        bestD = d;
        best = { kind: 'channel', index: c };
      }
    }
    return best;
  }

  /** Device-pixel position of a router (for tests and tools). */
  routerPoint(r) {
    return this.toScreen(this.geo.x[r], this.geo.y[r]);
  }
}

function distToSegment(px, py, x0, y0, x1, y1) {
  const dx = x1 - x0;
  const dy = y1 - y0;
  const l2 = dx * dx + dy * dy || 1;
  const t = Math.max(0, Math.min(1, ((px - x0) * dx + (py - y0) * dy) / l2));
  return Math.hypot(px - (x0 + t * dx), py - (y0 + t * dy));
}

function distToQuadratic(px, py, seg, i) {
  let best = Infinity;
  let lx = seg[i];
  let ly = seg[i + 1];
  for (let k = 1; k <= 12; k++) {
    const t = k / 12;
    const u = 1 - t;
    const x = u * u * seg[i] + 2 * u * t * seg[i + 2] + t * t * seg[i + 4];
    const y = u * u * seg[i + 1] + 2 * u * t * seg[i + 3] + t * t * seg[i + 5];
    best = Math.min(best, distToSegment(px, py, lx, ly, x, y));
    lx = x;
    ly = y;
  }
  return best;
}
