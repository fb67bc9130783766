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

/** Composes the panes' canvases side by side under their labels; resolves to a PNG blob. */
export function canvasesToPng(panes) {
  const dpr = window.devicePixelRatio || 1;
  const head = Math.round(24 * dpr);
  const gap = Math.round(8 * dpr);
  const w = panes.reduce((s, p) => s + p.canvas.width, 0) + gap * (panes.length - 1);
  const h = Math.max(...panes.map((p) => p.canvas.height)) + head;
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
  return new Promise((ok) => out.toBlob(ok, 'image/png'));
}
