// Small dependency-free canvas charts for the statistics panel: line charts (time series,
// the load–latency sweep), grouped bars (Fig. 9) and step histograms (Fig. 12).

const FONT = 'system-ui, -apple-system, "Segoe UI", sans-serif';
// Text size of the charts (CSS px); withFontSize draws a chart with larger text (the key
// plots beside the picture, present mode).
let FS = 11;
const fontPx = (delta = 0) => `${Math.max(8, FS + delta)}px ${FONT}`;

/** Runs `fn` with the charts' text at `size` px (margins grow with it). */
export function withFontSize(size, fn) {
  const old = FS;
  FS = size;
  try {
    return fn();
  } finally {
    FS = old;
  }
}
const AXIS = '#5b6675';
const GRID = '#e6e9ee';

function prepare(canvas) {
  const dpr = window.devicePixelRatio || 1;
  const rect = canvas.getBoundingClientRect();
  const w = Math.max(1, Math.round(rect.width * dpr));
  const h = Math.max(1, Math.round(rect.height * dpr));
  if (canvas.width !== w || canvas.height !== h) {
    canvas.width = w;
    canvas.height = h;
  }
  const ctx = canvas.getContext('2d');
  ctx.setTransform(1, 0, 0, 1, 0, 0);
  ctx.clearRect(0, 0, w, h);
  ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
  return { ctx, w: w / dpr, h: h / dpr };
}

/** A "nice" tick step for a range. */
function niceStep(range, ticks) {
  const raw = range / Math.max(1, ticks);
  const mag = 10 ** Math.floor(Math.log10(raw || 1));
  const f = raw / mag;
  return (f < 1.5 ? 1 : f < 3.5 ? 2 : f < 7.5 ? 5 : 10) * mag;
}

function fmtTick(v, step) {
  if (Math.abs(v) >= 10000) return `${Math.round(v / 1000)}k`;
  const digits = Math.max(0, -Math.floor(Math.log10(step) + 1e-9));
  return v.toFixed(Math.min(3, digits));
}

// Axes, grid and labels; returns the data → pixel mapping.
// xTicks: true (nice steps), false, or an array of x values; xFormat labels them.
/**
 * The frame of a chart: what the axes span and how they are labelled.
 * @typedef {object} Axes
 * @property {number} xMin
 * @property {number} xMax
 * @property {number} yMin
 * @property {number} yMax
 * @property {string} [xLabel]
 * @property {string} [yLabel]
 * @property {boolean | number[]} [xTicks] true: evenly spaced; an array: at those x values
 * @property {(x: number) => string} [xFormat] an x tick's label
 * @property {(y: number) => string} [yFormat] a y tick's label
 * @property {number} [top] the plot area's top margin (px)
 */

/**
 * An entry of a chart's legend: a line (with its dash) or, with `box`, a filled square.
 * @typedef {{label: string, colour: string, dash?: number[], box?: boolean}} LegendEntry
 */

/** A labelled dashed vertical line at x (see drawReferences). @typedef {{x: number, colour: string, label: string}} Reference */

/**
 * @param {CanvasRenderingContext2D} ctx
 * @param {number} w
 * @param {number} h
 * @param {Axes} frame
 */
function axes(ctx, w, h, { xMin, xMax, yMin, yMax, xLabel, yLabel, xTicks = true, xFormat, yFormat, top = 8 }) {
  const k = FS / 11;
  const m = { l: Math.round(46 * k), r: 10, t: top, b: Math.round(30 * k) };
  const pw = Math.max(10, w - m.l - m.r);
  const ph = Math.max(10, h - m.t - m.b);
  const X = (x) => m.l + ((x - xMin) / (xMax - xMin || 1)) * pw;
  const Y = (y) => m.t + ph - ((y - yMin) / (yMax - yMin || 1)) * ph;
  ctx.font = fontPx();
  ctx.lineWidth = 1;
  ctx.strokeStyle = GRID;
  ctx.fillStyle = AXIS;
  // Up to 4 steps, fewer where the plot is too short for their labels to stand apart (one
  // and a half text heights each).
  const slots = Math.max(2, Math.floor(ph / (1.5 * FS)) + 1);
  let ys = niceStep(yMax - yMin, 4);
  for (let t = 3; t >= 1 && Math.floor((yMax - yMin) / ys + 1e-9) + 1 > slots; t--) ys = niceStep(yMax - yMin, t);
  ctx.textAlign = 'right';
  ctx.textBaseline = 'middle';
  for (let y = Math.ceil(yMin / ys) * ys; y <= yMax + ys * 1e-6; y += ys) {
    ctx.beginPath();
    ctx.moveTo(m.l, Math.round(Y(y)) + 0.5);
    ctx.lineTo(m.l + pw, Math.round(Y(y)) + 0.5);
    ctx.stroke();
    ctx.fillText(yFormat ? yFormat(y) : fmtTick(y, ys), m.l - 4, Y(y));
  }
  if (Array.isArray(xTicks)) {
    ctx.textAlign = 'center';
    ctx.textBaseline = 'top';
    for (const x of xTicks) {
      if (x < xMin - 1e-9 || x > xMax + 1e-9) continue;
      const label = xFormat ? xFormat(x) : String(x);
      const half = ctx.measureText(label).width / 2;
      ctx.fillText(label, Math.min(Math.max(X(x), half + 1), w - half - 1), m.t + ph + 3);
    }
  } else if (xTicks) {
    const xs = niceStep(xMax - xMin, Math.max(2, Math.floor(pw / 70)));
    ctx.textAlign = 'center';
    ctx.textBaseline = 'top';
    for (let x = Math.ceil(xMin / xs) * xs; x <= xMax + xs * 1e-6; x += xs) ctx.fillText(xFormat ? xFormat(x) : fmtTick(x, xs), X(x), m.t + ph + 3);
  }
  ctx.strokeStyle = AXIS;
  ctx.beginPath();
  ctx.moveTo(m.l + 0.5, m.t);
  ctx.lineTo(m.l + 0.5, m.t + ph + 0.5);
  ctx.lineTo(m.l + pw, m.t + ph + 0.5);
  ctx.stroke();
  ctx.textAlign = 'center';
  ctx.textBaseline = 'bottom';
  if (xLabel) ctx.fillText(xLabel, m.l + pw / 2, h - 1);
  if (yLabel) {
    ctx.save();
    ctx.translate(FS, m.t + ph / 2);
    ctx.rotate(-Math.PI / 2);
    ctx.textBaseline = 'middle';
    ctx.fillText(yLabel, 0, 0);
    ctx.restore();
  }
  return { X, Y, m, pw, ph };
}

function legend(ctx, w, entries, m) {
  ctx.font = fontPx();
  ctx.textBaseline = 'middle';
  ctx.textAlign = 'left';
  let x = w - m.r - 4;
  const y = m.t + FS * 0.7;
  for (let i = entries.length - 1; i >= 0; i--) {
    const e = entries[i];
    x -= ctx.measureText(e.label).width;
    ctx.fillStyle = '#1c2430';
    ctx.fillText(e.label, x, y);
    x -= 22;
    ctx.strokeStyle = e.colour;
    ctx.fillStyle = e.colour;
    ctx.lineWidth = 2;
    ctx.setLineDash(e.dash ?? []);
    if (e.box) ctx.fillRect(x + 4, y - 5, 12, 10);
    else {
      ctx.beginPath();
      ctx.moveTo(x + 1, y);
      ctx.lineTo(x + 19, y);
      ctx.stroke();
    }
    ctx.setLineDash([]);
    x -= 10;
  }
}

function empty(ctx, w, h, text) {
  ctx.fillStyle = '#8a94a3';
  ctx.font = fontPx(1);
  ctx.textAlign = 'center';
  ctx.textBaseline = 'middle';
  ctx.fillText(text, w / 2, h / 2);
}

// Reference lines (values stated elsewhere, e.g. a paper's): dashed, so they read apart
// from the solid curves in greyscale; their labels take one row each in a band above the
// plot, clear of the curves and the legend, in text of at least 12 px.
const REFERENCE_DASH = [6, 4];
const referenceFontPx = () => Math.max(12, FS + 1);
const referenceRow = () => referenceFontPx() + 6;

/** `text`, cut with an ellipsis to at most `width` px in the context's font. */
function fitText(ctx, text, width) {
  if (ctx.measureText(text).width <= width) return text;
  let n = text.length;
  while (n > 1 && ctx.measureText(`${text.slice(0, n)}…`).width > width) n--;
  return `${text.slice(0, n)}…`;
}

const REFERENCE_KEY = 18; // px of dashed line before a label, as in a legend

/** A dashed line in `colour` from (x0, y0) to (x1, y1). */
function dashedLine(ctx, colour, x0, y0, x1, y1) {
  ctx.strokeStyle = colour;
  ctx.lineWidth = 1.5;
  ctx.setLineDash(REFERENCE_DASH);
  ctx.beginPath();
  ctx.moveTo(x0, y0);
  ctx.lineTo(x1, y1);
  ctx.stroke();
  ctx.setLineDash([]);
}

/**
 * Vertical dashed lines at x = reference.x from their label's row down to the x axis.
 * Each label starts with a piece of its line (its key), on a white ground: right of its
 * line if it fits there, else left of it, else as far right as it fits.
 */
function drawReferences(ctx, references, { X, Y, m }, w, yMin) {
  const size = referenceFontPx();
  ctx.font = `${size}px ${FONT}`;
  ctx.textBaseline = 'middle';
  ctx.textAlign = 'left';
  const right = w - m.r;
  references.forEach((r, i) => {
    const px = Math.round(X(r.x)) + 0.5;
    const rowY = 4 + i * referenceRow() + size / 2;
    dashedLine(ctx, r.colour, px, rowY, px, Y(yMin));
    const label = fitText(ctx, r.label, right - m.l - REFERENCE_KEY);
    const width = REFERENCE_KEY + ctx.measureText(label).width;
    let left = px + 4;
    if (left + width > right) left = px - 4 - width >= m.l ? px - 4 - width : Math.max(m.l, right - width);
    ctx.fillStyle = '#ffffff';
    ctx.fillRect(left - 2, rowY - size / 2 - 2, width + 4, size + 4);
    dashedLine(ctx, r.colour, left, rowY, left + REFERENCE_KEY - 4, rowY);
    ctx.fillStyle = '#1c2430';
    ctx.fillText(label, left + REFERENCE_KEY, rowY);
  });
}

/**
 * Line chart. series: [{label, colour, dash, width, points: [[x, y]], markers, saturated:
 * Set of point indices drawn as ×}]; points with a non-finite y break the line. Optional:
 * xTicks (array of x values) with xFormat (x → label); markX with markLabel, a dotted
 * vertical marker; references: [{x, colour, label}], labelled dashed vertical lines (the
 * x range grows to include them).
 */
export function lineChart(
  canvas,
  /**
   * @type {{
   *   series: {label?: string, colour: string, dash?: number[], width?: number, points: number[][], markers?: boolean, saturated?: Set<number>}[],
   *   xLabel?: string, yLabel?: string, xMin?: number, xMax?: number, yMin?: number, yMax?: number,
   *   emptyText?: string, legendEntries?: LegendEntry[], xTicks?: number[], xFormat?: (x: number) => string,
   *   markX?: number, markLabel?: string, references?: Reference[],
   * }}
   */
  { series, xLabel, yLabel, xMin, xMax, yMin = 0, yMax, emptyText = 'waiting for data…', legendEntries, xTicks, xFormat, markX, markLabel, references = [] },
) {
  const { ctx, w, h } = prepare(canvas);
  const pts = series.flatMap((s) => s.points.filter((p) => Number.isFinite(p[1])));
  const xs = series.flatMap((s) => s.points.map((p) => p[0]));
  const refXs = references.map((r) => r.x);
  const plotTop = 8 + references.length * referenceRow();
  if (!pts.length && !series.some((s) => s.saturated?.size)) {
    const frame = axes(ctx, w, h, {
      xMin: xMin ?? 0,
      xMax: Math.max(xMax ?? 1, ...refXs),
      yMin,
      yMax: yMax ?? 1,
      xLabel,
      yLabel,
      xTicks: xTicks ?? true,
      xFormat,
      top: plotTop,
    });
    drawReferences(ctx, references, frame, w, yMin);
    empty(ctx, w, h, emptyText);
    return;
  }
  const lo = xMin ?? Math.min(...xs);
  let hi = Math.max(xMax ?? Math.max(...xs), ...refXs);
  if (hi <= lo) hi = lo + 1;
  let top = yMax ?? Math.max(yMin + 1e-9, ...pts.map((p) => p[1])) * 1.08;
  if (!(top > yMin)) top = yMin + 1;
  const frame = axes(ctx, w, h, { xMin: lo, xMax: hi, yMin, yMax: top, xLabel, yLabel, xTicks: xTicks ?? true, xFormat, top: plotTop });
  const { X, Y, m } = frame;
  ctx.save();
  ctx.beginPath();
  ctx.rect(m.l, 0, w - m.l, h - m.b + 1);
  ctx.clip();
  if (Number.isFinite(markX) && markX >= lo && markX <= hi) {
    const px = Math.round(X(markX)) + 0.5;
    ctx.strokeStyle = '#9aa3af';
    ctx.lineWidth = 1;
    ctx.setLineDash([3, 3]);
    ctx.beginPath();
    ctx.moveTo(px, m.t);
    ctx.lineTo(px, Y(yMin));
    ctx.stroke();
    ctx.setLineDash([]);
    if (markLabel) {
      ctx.font = fontPx(-1);
      ctx.fillStyle = AXIS;
      ctx.textBaseline = 'bottom';
      const tw = ctx.measureText(markLabel).width;
      const right = px + 4 + tw <= w - m.r;
      ctx.textAlign = right ? 'left' : 'right';
      ctx.fillText(markLabel, right ? px + 4 : px - 4, Y(yMin) - 3);
    }
  }
  for (const s of series) {
    ctx.strokeStyle = s.colour;
    ctx.lineWidth = s.width ?? 1.8;
    ctx.setLineDash(s.dash ?? []);
    ctx.beginPath();
    let pen = false;
    for (const [x, y] of s.points) {
      if (!Number.isFinite(y)) {
        pen = false;
        continue;
      }
      const yy = Math.min(y, top);
      if (pen) ctx.lineTo(X(x), Y(yy));
      else ctx.moveTo(X(x), Y(yy));
      pen = true;
    }
    ctx.stroke();
    ctx.setLineDash([]);
    if (s.markers) {
      ctx.fillStyle = s.colour;
      s.points.forEach(([x, y], i) => {
        if (s.saturated?.has(i)) {
          const px = X(x);
          const py = Y(top) + 6;
          ctx.lineWidth = 2;
          ctx.beginPath();
          ctx.moveTo(px - 4, py - 4);
          ctx.lineTo(px + 4, py + 4);
          ctx.moveTo(px + 4, py - 4);
          ctx.lineTo(px - 4, py + 4);
          ctx.stroke();
        } else if (Number.isFinite(y)) {
          ctx.beginPath();
          ctx.arc(X(x), Y(Math.min(y, top)), 3, 0, 2 * Math.PI);
          ctx.fill();
        }
      });
    }
  }
  ctx.restore();
  drawReferences(ctx, references, frame, w, yMin);
  legend(ctx, w, legendEntries ?? series.filter((s) => s.label), m);
}

/**
 * Fig. 9: grouped bars per channel position. groups: [{label, colour, values}] (one per
 * pane); classes: [{label, short, from, to, shade}] regions of the x axis.
 */
/**
 * @param {HTMLCanvasElement} canvas
 * @param {{
 *   groups: {label?: string, colour: string, values: number[]}[],
 *   classes: {label: string, short: string, from: number, to: number, shade: string}[],
 *   yLabel?: string, xLabel?: string, yMax?: number, emptyText?: string,
 * }} options
 */
export function barChart(canvas, { groups, classes, yLabel, xLabel, yMax, emptyText = 'waiting for data…' }) {
  const { ctx, w, h } = prepare(canvas);
  const n = Math.max(0, ...groups.map((g) => g.values.length));
  if (!n) {
    axes(ctx, w, h, { xMin: 0, xMax: 1, yMin: 0, yMax: 1, xLabel, yLabel, xTicks: false });
    empty(ctx, w, h, emptyText);
    return;
  }
  const top = yMax ?? Math.max(0.05, ...groups.flatMap((g) => g.values)) * 1.15;
  const { X, Y, m, ph } = axes(ctx, w, h, { xMin: 0, xMax: n, yMin: 0, yMax: top, xLabel, yLabel, xTicks: false });
  ctx.font = fontPx(-1);
  ctx.textAlign = 'center';
  ctx.textBaseline = 'top';
  let lastEnd = -Infinity;
  for (const c of classes) {
    if (c.to <= c.from) continue;
    ctx.fillStyle = c.shade;
    ctx.fillRect(X(c.from), m.t, X(c.to) - X(c.from), ph);
    ctx.fillStyle = AXIS;
    const wpx = X(c.to) - X(c.from);
    const label = wpx > ctx.measureText(c.label).width + 4 ? c.label : (c.short ?? '');
    // A label wider than its region goes on a second row, clear of its neighbour's.
    const tw = ctx.measureText(label).width;
    const cx = Math.max(X(c.from) + tw / 2, (X(c.from) + X(c.to)) / 2);
    const row = tw > wpx + 6 && lastEnd > X(c.from) - 2 ? 1 : 0;
    ctx.fillText(label, cx, m.t + ph + 3 + row * (FS + 1));
    if (!row) lastEnd = cx + tw / 2;
  }
  const slot = (X(1) - X(0)) / (groups.length + 0.6);
  groups.forEach((g, gi) => {
    ctx.fillStyle = g.colour;
    g.values.forEach((v, i) => {
      const y = Math.min(v, top);
      ctx.fillRect(X(i) + slot * (0.3 + gi), Y(y), Math.max(1, slot - 0.5), Y(0) - Y(y));
    });
  });
  legend(
    ctx,
    w,
    groups.filter((g) => g.label).map((g) => ({ label: g.label, colour: g.colour, box: true })),
    m,
  );
}

/** Step histograms: series [{colour, dash, bins: fractions, width}]. */
/**
 * @param {HTMLCanvasElement} canvas
 * @param {{
 *   series: {colour: string, dash?: number[], bins: number[], width?: number}[],
 *   xLabel?: string, yLabel?: string, xMax?: number, emptyText?: string, legendEntries?: LegendEntry[],
 * }} options
 */
export function histogramChart(canvas, { series, xLabel, yLabel, xMax, emptyText = 'waiting for deliveries…', legendEntries }) {
  const { ctx, w, h } = prepare(canvas);
  const live = series.filter((s) => s.bins.length);
  if (!live.length) {
    axes(ctx, w, h, { xMin: 0, xMax: xMax ?? 100, yMin: 0, yMax: 1, xLabel, yLabel });
    empty(ctx, w, h, emptyText);
    return;
  }
  const top = Math.max(1e-3, ...live.flatMap((s) => s.bins)) * 1.1;
  const { X, Y, m } = axes(ctx, w, h, { xMin: 0, xMax, yMin: 0, yMax: top, xLabel, yLabel });
  for (const s of live) {
    ctx.strokeStyle = s.colour;
    ctx.lineWidth = 1.6;
    ctx.setLineDash(s.dash ?? []);
    ctx.beginPath();
    ctx.moveTo(X(0), Y(0));
    s.bins.forEach((v, i) => {
      const x0 = i * s.width;
      if (x0 >= xMax) return;
      ctx.lineTo(X(x0), Y(v));
      ctx.lineTo(X(Math.min(xMax, x0 + s.width)), Y(v));
    });
    ctx.stroke();
    ctx.setLineDash([]);
  }
  legend(ctx, w, legendEntries ?? [], m);
}

/**
 * Per pane, a value of what a story is about (drawn with the picture's orange casing)
 * against the same value of the rest: e.g. the mean of the link colour's numbers over the
 * story's channels and over the others, or the non-minimal share at the routers owning
 * them and at the others. groups: [{label, colour, focus, rest}]; values printed on the
 * bars with `format` (and the axis with `yFormat`); `labels` name the two bars.
 */
export function classBars(
  canvas,
  /**
   * @type {{
   *   groups: {label?: string, colour: string, focus: number, rest: number}[],
   *   yLabel?: string, yMax?: number, focusColour?: string, emptyText?: string,
   *   labels?: string[], format?: (v: number) => string, yFormat?: (y: number) => string,
   * }}
   */
  {
    groups,
    yLabel,
    yMax = 1,
    focusColour = '#f28e2b',
    emptyText = 'waiting for data…',
    labels = ['orange-cased', 'the rest'],
    format = (v) => v.toFixed(2),
    yFormat,
  },
) {
  const { ctx, w, h } = prepare(canvas);
  const live = groups.filter((g) => Number.isFinite(g.focus));
  if (!live.length) {
    axes(ctx, w, h, { xMin: 0, xMax: 1, yMin: 0, yMax, yLabel, xTicks: false, yFormat, top: FS * 2 });
    empty(ctx, w, h, emptyText);
    return;
  }
  const { X, Y, m, pw, ph } = axes(ctx, w, h, { xMin: 0, xMax: groups.length, yMin: 0, yMax, yLabel, xTicks: false, yFormat, top: FS * 2 });
  const slot = pw / groups.length;
  const bw = Math.min(slot * 0.32, 60);
  ctx.textAlign = 'center';
  groups.forEach((g, i) => {
    const cx = X(i) + slot / 2;
    const bars = [
      { v: g.focus, x: cx - bw - 2, isFocus: true },
      { v: g.rest, x: cx + 2, isFocus: false },
    ];
    for (const { v, x, isFocus } of bars) {
      if (!Number.isFinite(v)) continue;
      const y = Y(Math.min(v, yMax));
      ctx.fillStyle = g.colour;
      ctx.globalAlpha = isFocus ? 1 : 0.35;
      ctx.fillRect(x, y, bw, Y(0) - y);
      ctx.globalAlpha = 1;
      if (isFocus) {
        // The picture's orange casing, edged in black so it shows on any pane colour.
        ctx.strokeStyle = '#1c2430';
        ctx.lineWidth = 1;
        ctx.strokeRect(x + 0.5, y + 0.5, bw - 1, Math.max(0, Y(0) - y - 1));
        ctx.strokeStyle = focusColour;
        ctx.lineWidth = 3;
        ctx.strokeRect(x + 2.5, y + 2.5, bw - 5, Math.max(0, Y(0) - y - 5));
      }
      ctx.fillStyle = '#1c2430';
      ctx.font = fontPx(-1);
      ctx.textBaseline = 'bottom';
      ctx.fillText(format(v), x + bw / 2, Math.max(m.t + FS, y - 2));
    }
    ctx.font = fontPx();
    ctx.textBaseline = 'top';
    ctx.fillStyle = '#1c2430';
    ctx.fillText(g.label, cx, m.t + ph + 3);
  });
  // Which bar is which, at the top right.
  ctx.font = fontPx(-1);
  ctx.textBaseline = 'middle';
  ctx.textAlign = 'left';
  const y = FS * 0.8;
  let x = Math.max(m.l, w - m.r - labels.reduce((s, l) => s + ctx.measureText(l).width + 22, 0));
  labels.forEach((l, i) => {
    ctx.fillStyle = '#8a94a3';
    ctx.globalAlpha = i ? 0.35 : 1;
    ctx.fillRect(x, y - 5, 12, 10);
    ctx.globalAlpha = 1;
    if (!i) {
      ctx.strokeStyle = focusColour;
      ctx.lineWidth = 2;
      ctx.strokeRect(x + 1, y - 4, 10, 8);
    }
    ctx.fillStyle = '#1c2430';
    ctx.fillText(l, x + 15, y);
    x += ctx.measureText(l).width + 22;
  });
}
