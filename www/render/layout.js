// The stage's geometry: the network canvases and the key column (key plots and legend)
// sized to the window, so the picture fills what the screen has below the toolbar and stays
// above the fold. The key column goes beside the panes or under them, whichever leaves the
// networks (drawn to fit a square) more room: beside for one or two panes on a laptop or a
// projector, under three panes on a wide screen. Recomputed when the window, the stage's
// width or the panes change (ResizeObserver), never on hover or a key press.

const $ = (id) => document.getElementById(id);
const GAP = 8;
const PANE_HEAD = 24;
// Side-by-side panes narrower than this (in rem) put their note (accepted, latency, …) on a
// second line under the name, so that no number is cut off.
const TWO_LINE_PANE = 30;
const MIN_NET = 240;
const MIN_PANE = 260;
// A phone (www/styles/hall.css lays the page out for it at the same width): each pane a
// square as wide as the screen, the key plots under the picture, below the fold if need be.
export const PHONE = '(max-width: 640px)';
// Embedded (?embed=1): the key column is hidden, the panes take the whole frame.
const MIN_EMBED_NET = 80;

let last = '';

/** Lays the stage out for `panes` panes; returns what it chose (for tests). */
export function layoutStage(panes = 1) {
  const stage = $('stage');
  if (!stage || stage.offsetParent === null) return null;
  const n = Math.max(1, panes);
  const present = document.body.classList.contains('present');
  const embed = document.body.classList.contains('embed');
  const phone = !embed && window.matchMedia(PHONE).matches;
  const rootPx = parseFloat(getComputedStyle(document.documentElement).fontSize) || 15;
  const vh = window.innerHeight;
  const top = stage.getBoundingClientRect().top + window.scrollY;
  const statusBar = document.querySelector('.status');
  const status = present || embed ? 0 : (statusBar instanceof HTMLElement ? statusBar.offsetHeight : 28) + 4;
  const avail = Math.max((embed ? MIN_EMBED_NET : MIN_NET) + PANE_HEAD, Math.floor(vh - top - status - 6));
  const W = stage.clientWidth;
  const keyW = Math.round(Math.min(Math.max(W * (present ? 0.3 : 0.26), 17 * rootPx), 30 * rootPx));
  // Panes per row: side by side unless that leaves a pane narrower than MIN_PANE (a small
  // window, or the page zoomed in), then wrapped.
  const narrow = W < 56 * rootPx;
  const paneArea = narrow || embed ? W : W - keyW - GAP;
  const perRow = Math.max(1, Math.min(n, Math.floor((paneArea + GAP) / (MIN_PANE + GAP))));
  const legend = $('legend');
  const legendH = legend?.offsetHeight ?? 120;
  const keyRow = Math.max(legendH, 13 * rootPx);
  // Beside: the panes share the width left of the key column and take the full height.
  // Under: a row of key plots (about 12 rem) under square canvases. With `head` the height
  // of the panes' heads.
  const besideSide = (head) => Math.min((W - keyW - GAP - (perRow - 1) * GAP) / perRow, avail - head);
  const underSide = (head) => Math.min((W - (perRow - 1) * GAP) / perRow, avail - head - keyRow - GAP);
  let below = narrow || underSide(PANE_HEAD) > besideSide(PANE_HEAD) * 1.08;
  let basis = Math.floor(((below ? W : W - keyW - GAP) - (perRow - 1) * GAP) / perRow) - 1;
  const twoLine = n > 1 && basis < TWO_LINE_PANE * rootPx;
  const head = twoLine ? 2 * PANE_HEAD : PANE_HEAD;
  let netHeight = below || perRow < n ? Math.max(MIN_NET, Math.floor(below ? underSide(head) : besideSide(head))) : Math.max(MIN_NET, avail - head);
  let plotH;
  if (below) plotH = Math.max(100, Math.floor(keyRow - 3 * rootPx));
  else {
    const figs = [...document.querySelectorAll('#key .key-plot')].filter((f) => f instanceof HTMLElement).filter((f) => f.offsetParent !== null);
    const caps = figs.reduce((s, f) => s + (f.querySelector('figcaption')?.offsetHeight ?? 0), 0);
    const k = Math.max(1, figs.length);
    plotH = Math.max(90, Math.floor((avail - legendH - caps - k * 14 - k * 0.4 * rootPx) / k));
  }
  if (embed) {
    // Every row of panes shares the frame's height.
    const rows = Math.ceil(n / perRow);
    netHeight = Math.max(MIN_EMBED_NET, Math.floor((avail - rows * head - (rows - 1) * GAP) / rows));
    below = true;
    basis = Math.floor((W - (perRow - 1) * GAP) / perRow) - 1;
  } else if (phone) netHeight = Math.max(MIN_NET, Math.min(Math.floor(basis), avail - head));
  const key = JSON.stringify([below, keyW, netHeight, plotH, n, present, basis, embed, twoLine]);
  if (key !== last) {
    last = key;
    stage.classList.toggle('key-below', below);
    stage.classList.toggle('two-line-heads', twoLine);
    stage.style.setProperty('--key-width', `${keyW}px`);
    stage.style.setProperty('--net-height', `${netHeight}px`);
    stage.style.setProperty('--key-plot-height', `${plotH}px`);
    stage.style.setProperty('--pane-basis', `${basis}px`);
  }
  return { below, keyW, netHeight, plotH, avail, perRow, twoLine };
}

/** Re-lays the stage out whenever the window or the page above the stage changes size. */
export function watchLayout(panesCount) {
  let queued = false;
  const again = () => {
    if (queued) return;
    queued = true;
    requestAnimationFrame(() => {
      queued = false;
      layoutStage(panesCount());
    });
  };
  const ro = new ResizeObserver(again);
  ro.observe(document.documentElement);
  for (const id of ['story', 'stage', 'legend']) if ($(id)) ro.observe($(id));
  const toolbar = document.querySelector('.toolbar');
  if (toolbar) ro.observe(toolbar);
  window.addEventListener('resize', again);
  return again;
}
