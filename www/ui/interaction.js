// Pointer interaction with the network canvases: hover and click to inspect a router or a
// channel (the inspector panel, refreshed while pinned; in the fail-links mode a click on a
// channel fails or restores its link instead), wheel to zoom about the pointer,
// drag to pan, double-click to fit. Zoom and pan apply to every pane at once. The details
// come with the simulation worker's snapshots (the page asks for the hovered or pinned
// element's), so a newly hovered element shows a moment later.

import { channelNodes, routerNodes } from './inspector.js';
import { el, setChildren } from '../lib/dom.js';
import { sameValue } from '../model/experiment.js';
import { decisionNodes } from '../model/decisions.js';

const $ = (id) => document.getElementById(id);

function paneOf(app, canvas) {
  return app.panes[Number(canvas.dataset.pane)];
}

function devicePoint(canvas, ev) {
  const rect = canvas.getBoundingClientRect();
  const dpr = window.devicePixelRatio || 1;
  return [(ev.clientX - rect.left) * dpr, (ev.clientY - rect.top) * dpr];
}

export function wireCanvasEvents(app, container, { setView, syncViewFrom, pickTrace, failLink }) {
  const update = () => updateInspector(app);
  let drag = null;
  container.addEventListener('pointerdown', (ev) => {
    if (!(ev.target instanceof HTMLCanvasElement)) return;
    drag = { canvas: ev.target, x: ev.clientX, y: ev.clientY, moved: false };
    ev.target.setPointerCapture(ev.pointerId);
  });
  container.addEventListener('pointermove', (ev) => {
    if (!(ev.target instanceof HTMLCanvasElement)) return;
    const pane = paneOf(app, ev.target);
    if (!pane) return;
    if (drag && drag.canvas === ev.target) {
      const dx = ev.clientX - drag.x;
      const dy = ev.clientY - drag.y;
      if (drag.moved || Math.hypot(dx, dy) > 4) {
        drag.moved = true;
        ev.target.classList.add('dragging');
        const dpr = window.devicePixelRatio || 1;
        pane.view.panBy(dx * dpr, dy * dpr);
        syncViewFrom(pane);
        drag.x = ev.clientX;
        drag.y = ev.clientY;
        return;
      }
    }
    const [px, py] = devicePoint(ev.target, ev);
    const hit = pane.view.hitTest(px, py);
    const hover = hit ? { pane: pane.index, ...hit } : null;
    if (!sameValue(hover, app.hover)) {
      app.hover = hover;
      if (!app.selection) update();
    }
  });
  container.addEventListener('pointerup', (ev) => {
    if (!drag) return;
    const wasDrag = drag.moved;
    drag.canvas.classList.remove('dragging');
    drag = null;
    if (wasDrag || !(ev.target instanceof HTMLCanvasElement)) return;
    const pane = paneOf(app, ev.target);
    if (!pane) return;
    const hit = pane.view.hitTest(...devicePoint(ev.target, ev));
    if (app.tracePicking && hit?.kind === 'router') {
      pickTrace(hit.index);
      return;
    }
    // Fail-links mode (www/ui/faults.js): a channel fails or restores its link.
    if (app.failPicking && hit?.kind === 'channel') {
      failLink(pane.index, hit.index);
      return;
    }
    app.selection = hit ? { pane: pane.index, ...hit } : null;
    update();
  });
  container.addEventListener('pointerleave', () => {
    app.hover = null;
    if (!app.selection) update();
  });
  container.addEventListener(
    'wheel',
    (ev) => {
      if (!(ev.target instanceof HTMLCanvasElement)) return;
      const pane = paneOf(app, ev.target);
      if (!pane) return;
      ev.preventDefault();
      pane.view.zoomAt(...devicePoint(ev.target, ev), Math.exp(-ev.deltaY * 0.0015));
      syncViewFrom(pane);
    },
    { passive: false },
  );
  container.addEventListener('dblclick', () => setView(1, 0.5, 0.5));
}

/** Which element an inspector selection shows. */
export const inspectorKey = (sel) => (sel ? `${sel.pane}/${sel.kind}/${sel.index}` : null);

export function updateInspector(app) {
  const sel = app.selection ?? app.hover;
  const box = $('inspector');
  const pane = sel ? app.panes[sel.pane] : null;
  if (!sel || !pane || app.crashed) {
    box.hidden = true;
    app.inspectorFor = null;
    return;
  }
  // The worker records DAL's per-hop numbers once a router of a DAL pane is inspected.
  let content = null;
  if (sel.kind === 'router') {
    const d = pane.sim.routerDetail(sel.index);
    if (d) {
      content = routerNodes(d, pane.config, pane.info);
      // Where routing decides: this router's counts (www/model/decisions.js), after its last decision.
      content.splice(2, 0, decisionNodes(pane, sel.index));
    }
  } else {
    const d = pane.sim.channelDetail(sel.index);
    if (d) content = channelNodes(d, pane.config, pane.info);
    if (content && pane.failed?.[sel.index]) {
      const how = app.failPicking ? 'Click it to restore it.' : 'To restore it: ✂ Fail links (x), then click it.';
      content.splice(1, 0, el('p', { class: 'failed-note' }, `This link has failed: it carries nothing in either direction. ${how}`));
    }
  }
  app.inspectorFor = content ? inspectorKey(sel) : null;
  const who = app.panes.length > 1 ? `pane ${pane.variant.name} (${pane.variant.label}) · ` : '';
  $('inspector-mode').textContent = `${who}${app.selection ? 'pinned — click elsewhere or press Esc to unpin' : 'hover — click to pin'}`;
  // Unchanged content (a paused simulation) keeps its DOM, so a button under the pointer
  // stays the one the user presses.
  setChildren($('inspector-body'), content ?? []);
  box.hidden = !content;
}
