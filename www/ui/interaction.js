// Pointer interaction with the network canvases: hover and click to inspect a router or a
// channel (the inspector panel, refreshed while pinned; in the fail-links mode a click on a
// channel fails or restores its link instead; while the story editor picks its focus, a
// click picks the channel or router), wheel to zoom about the pointer,
// drag to pan, double-click to fit. Zoom and pan apply to every pane at once. The details
// come with the simulation worker's snapshots (the page asks for the hovered or pinned
// element's), so a newly hovered element shows a moment later.

import { channelNodes, routerNodes } from './inspector.js';
import { el, setChildren } from '../lib/dom.js';
import { sameValue } from '../model/experiment.js';
import { decisionNodes } from '../model/decisions.js';

const $ = (id) => document.getElementById(id);

function paneOf(sim, canvas) {
  return sim.panes[Number(canvas.dataset.pane)];
}

function devicePoint(canvas, ev) {
  const rect = canvas.getBoundingClientRect();
  const dpr = window.devicePixelRatio || 1;
  return [(ev.clientX - rect.left) * dpr, (ev.clientY - rect.top) * dpr];
}

/**
 * The pointer on the canvases of `container`: hover and selection go to `view` (its owner),
 * the inspector follows; `trace` and `failLinks` say whether a click picks a router to trace
 * or a link to fail (then `pickTrace(router)`, `failLink(pane, channel)`); `setView(zoom,
 * cx, cy)` and `syncViewFrom(pane)` zoom and pan every pane.
 * @param {{sim: import('../sim/sim-state.js').SimState, view: import('../render/view-state.js').ViewState, trace: {picking: boolean}, failLinks: {picking: boolean}, inspector: Inspector, storyEditor: {picking: boolean, pick: (hit: {pane: number, kind: string, index: number}) => void}}} parts
 * @param {HTMLElement} container
 */
export function wireCanvasEvents({ sim, view, trace, failLinks, inspector, storyEditor }, container, { setView, syncViewFrom, pickTrace, failLink }) {
  const update = () => inspector.update();
  let drag = null;
  container.addEventListener('pointerdown', (ev) => {
    if (!(ev.target instanceof HTMLCanvasElement)) return;
    drag = { canvas: ev.target, x: ev.clientX, y: ev.clientY, moved: false };
    ev.target.setPointerCapture(ev.pointerId);
  });
  container.addEventListener('pointermove', (ev) => {
    if (!(ev.target instanceof HTMLCanvasElement)) return;
    const pane = paneOf(sim, ev.target);
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
    if (!sameValue(hover, view.hover)) {
      view.setHover(hover);
      if (!view.selection) update();
    }
  });
  container.addEventListener('pointerup', (ev) => {
    if (!drag) return;
    const wasDrag = drag.moved;
    drag.canvas.classList.remove('dragging');
    drag = null;
    if (wasDrag || !(ev.target instanceof HTMLCanvasElement)) return;
    const pane = paneOf(sim, ev.target);
    if (!pane) return;
    const hit = pane.view.hitTest(...devicePoint(ev.target, ev));
    // The story editor's focus picking: a channel or router clicked goes into the focus.
    if (storyEditor.picking && hit) {
      storyEditor.pick({ pane: pane.index, ...hit });
      return;
    }
    if (trace.picking && hit?.kind === 'router') {
      pickTrace(hit.index);
      return;
    }
    // Fail-links mode (www/ui/faults.js): a channel fails or restores its link.
    if (failLinks.picking && hit?.kind === 'channel') {
      failLink(pane.index, hit.index);
      return;
    }
    view.select(hit ? { pane: pane.index, ...hit } : null);
    update();
  });
  // A touch the browser took over (a swipe scrolling the page): no drag, no click.
  container.addEventListener('pointercancel', () => {
    drag?.canvas.classList.remove('dragging');
    drag = null;
  });
  container.addEventListener('pointerleave', () => {
    view.setHover(null);
    if (!view.selection) update();
  });
  container.addEventListener(
    'wheel',
    (ev) => {
      if (!(ev.target instanceof HTMLCanvasElement)) return;
      const pane = paneOf(sim, ev.target);
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

/**
 * The inspector panel: the pinned (else hovered) router or channel of `view`, from the
 * detail the worker's snapshots bring. `shownFor` is the element it shows (inspectorKey),
 * or null.
 */
export class Inspector {
  /**
   * @param {{sim: import('../sim/sim-state.js').SimState, view: import('../render/view-state.js').ViewState, run: import('../sim/run-state.js').RunState, failLinks: {picking: boolean}}} parts
   */
  constructor({ sim, view, run, failLinks }) {
    this.sim = sim;
    this.view = view;
    this.run = run;
    this.failLinks = failLinks;
    /** @type {string | null} */
    this.shownFor = null;
  }

  update() {
    const { sim, view } = this;
    const sel = view.inspected;
    const box = $('inspector');
    const pane = sel ? sim.panes[sel.pane] : null;
    if (!sel || !pane || this.run.crashed) {
      box.hidden = true;
      this.shownFor = null;
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
        const how = this.failLinks.picking ? 'Click it to restore it.' : 'To restore it: ✂ Fail links (x), then click it.';
        content.splice(1, 0, el('p', { class: 'failed-note' }, `This link has failed: it carries nothing in either direction. ${how}`));
      }
    }
    this.shownFor = content ? inspectorKey(sel) : null;
    const who = sim.panes.length > 1 ? `pane ${pane.variant.name} (${pane.variant.label}) · ` : '';
    $('inspector-mode').textContent = `${who}${view.selection ? 'pinned — click elsewhere or press Esc to unpin' : 'hover — click to pin'}`;
    // Unchanged content (a paused simulation) keeps its DOM, so a button under the pointer
    // stays the one the user presses.
    setChildren($('inspector-body'), content ?? []);
    box.hidden = !content;
  }
}
