// Export: statistics as CSV / JSON and the network canvas(es) as one PNG.

export function download(filename, blob) {
  const a = document.createElement('a');
  a.href = URL.createObjectURL(blob);
  a.download = filename;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(a.href), 5000);
}

export function downloadText(filename, text, type) {
  download(filename, new Blob([text], { type }));
}

import { drawPacketSymbol, rampColour } from '../render/network-view.js';

/**
 * Composes the panes' canvases side by side under their labels, with the colour legend
 * under them (`legend`: {text, labels: [lo, mid, hi], focus, focusColour, extra}), so an
 * exported picture still says what its colours mean; resolves to a PNG blob.
 */
export function canvasesToPng(panes, legend = null) {
  const dpr = window.devicePixelRatio || 1;
  const head = Math.round(24 * dpr);
  const gap = Math.round(8 * dpr);
  const w = Math.max(panes.reduce((s, p) => s + p.canvas.width, 0) + gap * (panes.length - 1), Math.round(520 * dpr));
  const legendH = legend ? Math.round((74 + (legend.focus ? 18 : 0) + (legend.packets ? 20 : 0)) * dpr) : 0;
  const netH = Math.max(...panes.map((p) => p.canvas.height));
  const h = netH + head + legendH;
  const out = document.createElement('canvas');
  out.width = w;
  out.height = h;
  const ctx = out.getContext('2d');
  ctx.fillStyle = '#ffffff';
  ctx.fillRect(0, 0, w, h);
  ctx.font = `${Math.round(13 * dpr)}px system-ui, sans-serif`;
  ctx.textBaseline = 'middle';
  let x = 0;
  for (const p of panes) {
    ctx.fillStyle = p.colour;
    ctx.fillRect(x + 4 * dpr, head / 2 - 5 * dpr, 10 * dpr, 10 * dpr);
    ctx.fillStyle = '#1c2430';
    ctx.fillText(`${p.title}  ·  cycle ${p.now}`, x + 20 * dpr, head / 2);
    ctx.drawImage(p.canvas, x, head);
    x += p.canvas.width + gap;
  }
  if (legend) drawLegend(ctx, legend, 8 * dpr, head + netH + 6 * dpr, Math.min(w - 16 * dpr, 420 * dpr), dpr);
  return new Promise((ok) => out.toBlob(ok, 'image/png'));
}

// The ramp with its three labels, the metric's meaning, the focus casing and the routers.
function drawLegend(ctx, legend, x0, y0, width, dpr) {
  const rampH = Math.round(14 * dpr);
  for (let i = 0; i < width; i++) {
    ctx.fillStyle = rampColour(i / (width - 1));
    ctx.fillRect(x0 + i, y0, 1, rampH);
  }
  ctx.strokeStyle = '#d5dae1';
  ctx.lineWidth = 1;
  ctx.strokeRect(x0 + 0.5, y0 + 0.5, width - 1, rampH - 1);
  ctx.fillStyle = '#1c2430';
  ctx.font = `${Math.round(12 * dpr)}px system-ui, sans-serif`;
  ctx.textBaseline = 'top';
  const ly = y0 + rampH + 2 * dpr;
  const [lo, mid, hi] = legend.labels;
  ctx.textAlign = 'left';
  ctx.fillText(lo, x0, ly);
  ctx.textAlign = 'center';
  ctx.fillText(mid, x0 + width / 2, ly);
  ctx.textAlign = 'right';
  ctx.fillText(hi, x0 + width, ly);
  ctx.textAlign = 'left';
  let y = ly + 17 * dpr;
  ctx.fillText(legend.text, x0, y);
  y += 17 * dpr;
  if (legend.focus) {
    ctx.strokeStyle = legend.focusColour;
    ctx.lineWidth = 6 * dpr;
    ctx.beginPath();
    ctx.moveTo(x0, y + 7 * dpr);
    ctx.lineTo(x0 + 22 * dpr, y + 7 * dpr);
    ctx.stroke();
    ctx.strokeStyle = rampColour(0.8);
    ctx.lineWidth = 2.5 * dpr;
    ctx.stroke();
    ctx.fillText(legend.focus, x0 + 28 * dpr, y);
    y += 17 * dpr;
  }
  ctx.fillText(legend.extra, x0, y);
  // The packets on the links (drawn while the picture shows them): their symbols.
  if (legend.packets) {
    y += 19 * dpr;
    let x = x0;
    for (const kind of ['minimal', 'nonminimal', 'followed']) {
      drawPacketSymbol(ctx, kind, x + 6 * dpr, y + 7 * dpr, (kind === 'followed' ? 6 : 5) * dpr, dpr);
      ctx.fillStyle = '#1c2430';
      ctx.fillText(legend.packets[kind], x + 16 * dpr, y);
      x += 16 * dpr + ctx.measureText(legend.packets[kind]).width + 14 * dpr;
    }
  }
}
