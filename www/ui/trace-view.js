// Packet trace: follow one packet through the network. Arm it with the toolbar's Trace
// button (or t) and a click on a router — the next packet generated there is followed in
// every pane (the same packet: side-by-side panes share their traffic, until a full
// source queue drops it in one of them — then the panel says the panes differ) — or trace the
// packet at the head of an input VC from the inspector. Its hops are drawn on the canvas
// and listed with their cycles and VCs. The engine looks for the packet once per cycle
// only while a trace runs (sim/trace.rs); with no trace the page reads nothing either.
//
// A trace armed at a router goes into the URL as `trace=ROUTER@CYCLE`; opening the link
// runs to that cycle and arms there, so (the run being deterministic) it follows the same
// packet: the page stops the worker's steps at that cycle (`limit`).
//
// The simulations run in the worker: arming and clearing are commands sent with its next
// step, and the trace comes back with its snapshots while a trace is shown.

import { el, setChildren, swatch } from '../lib/dom.js';

const $ = (id) => document.getElementById(id);

export class PacketTrace {
  /**
   * `sim`: the page's simulations (read only); `notice(text)` shows a notice.
   * @param {import('../sim/sim-state.js').SimState} sim
   */
  constructor(sim, { notice }) {
    this.sim = sim;
    this.notice = notice;
    this.said = null; // the notice this trace shows, if any
    this.active = false; // some pane is armed or following a packet
    this.picking = false; // the next router click arms the trace
    /** @type {import('../../pkg/hiradix.js').TraceView[]} per pane: its trace, as the latest snapshot brought it */
    this.data = [];
    this.lastPanel = 0;
    this.link = null; // {router, cycle} of a trace armed at a router, for the URL
    this.pending = null; // {router, cycle}: arm at that router when the run reaches that cycle
    this.onLinkChange = () => {};
  }

  say(text) {
    this.said = text;
    this.notice(text);
  }

  // Takes back the trace's own notice only: another message shown meanwhile (e.g. what a
  // link held that was refused) stays.
  unsay() {
    if (this.said !== null && $('notice-text').textContent === this.said) this.notice(null);
    this.said = null;
  }

  /** Toolbar button / t: the next click on a router arms the trace there. */
  togglePicking() {
    this.setPicking(!this.picking);
  }

  setPicking(on) {
    this.picking = on;
    document.body.classList.toggle('trace-picking', on);
    $('btn-trace').classList.toggle('active', on);
    if (on)
      this.say(
        'Trace: click a router — the next packet generated there will be followed (the same packet in every pane, unless a full source queue drops it in one of them).',
      );
    else this.unsay();
  }

  /** Follows the next packet generated at `router`, in every pane. */
  armAt(router) {
    this.setPicking(false);
    this.pending = null;
    this.data = [];
    const armed = Promise.all(this.sim.panes.map((p) => p.sim.traceNextAt(router)));
    this.setLink({ router, cycle: this.sim.panes[0]?.now ?? 0 });
    this.start();
    armed.then(() => this.refresh());
  }

  /**
   * A link's trace: arm at `router` when the run reaches `cycle` (at once if it has).
   * Returns a problem sentence, or null.
   */
  armFromLink({ router, cycle }) {
    const routers = this.sim.panes[0]?.sim.routerCount() ?? 0;
    if (router >= routers) return `trace: router ${router} does not exist (this network has routers 0–${routers - 1}); no packet traced`;
    if (cycle <= (this.sim.panes[0]?.now ?? 0)) {
      this.armAt(router);
    } else {
      this.pending = { router, cycle };
      this.setLink({ router, cycle });
      this.say(`Trace: the packet generated at router ${router} from cycle ${cycle} on will be followed once the run gets there.`);
    }
    return null;
  }

  /**
   * The cycles the page may advance now without stepping over a pending link's cycle;
   * `ahead` cycles are in steps the worker has not answered yet.
   */
  limit(cycles, ahead = 0) {
    if (!this.pending) return cycles;
    return Math.min(cycles, Math.max(0, this.pending.cycle - (this.sim.panes[0]?.now ?? 0) - ahead));
  }

  /** After advancing: arm a pending link's trace once its cycle is reached. */
  afterAdvance() {
    if (this.pending && (this.sim.panes[0]?.now ?? 0) >= this.pending.cycle) {
      this.unsay();
      this.armAt(this.pending.router);
    }
  }

  setLink(link) {
    const changed = JSON.stringify(link) !== JSON.stringify(this.link);
    this.link = link;
    if (changed) this.onLinkChange();
  }

  /** Follows the packet at the head of an input VC, in pane `pane` only. */
  followQueueHead(pane, router, port, vc) {
    this.setPicking(false);
    this.pending = null;
    this.setLink(null);
    const panes = this.sim.panes;
    Promise.all(panes.map((p, i) => (i === pane ? p.sim.traceQueueHead(router, port, vc) : p.sim.traceClear()))).then((ok) => {
      if (ok[pane] && this.sim.panes === panes) {
        this.data = [];
        this.start();
      }
    });
  }

  clear() {
    this.setPicking(false);
    if (this.active) this.sim.panes.forEach((p) => p.sim?.traceClear());
    this.stop();
  }

  /** The panes were rebuilt: nothing is followed any more. */
  stop() {
    this.pending = null;
    this.setLink(null);
    this.active = false;
    this.data = [];
    $('trace-box').hidden = true;
  }

  start() {
    this.active = true;
    this.lastPanel = 0;
    $('trace-box').hidden = false;
    this.refresh();
  }

  /** Reads and lists the trace at once (the worker answered a trace command). */
  refresh() {
    if (!this.active) return;
    this.read();
    this.render(true);
  }

  /**
   * Reads every pane's trace from its latest snapshot (once per frame while active); kept
   * as it was until every pane's has come back after the last trace command.
   */
  read() {
    if (!this.active) return;
    const data = this.sim.panes.map((p) => p.sim.trace());
    if (data.some((t) => t === undefined)) return;
    if (data.length === this.data.length && data.every((t, i) => t === this.data[i])) return;
    this.data = data;
  }

  /** What pane `i` should highlight, or null. */
  highlight(i) {
    const d = this.data[i];
    if (!this.active || !d) return null;
    const t = d.trace;
    if (!t) return d.armed !== null ? { channels: [], routers: [], armed: d.armed } : null;
    if (!t.hops.length) return { channels: [], routers: [], current: t.delivered ? null : { router: t.src_router }, dst: t.dst_router };
    const channels = [];
    const routers = [];
    for (const h of t.hops) {
      routers.push(h.router);
      if (h.channel !== undefined && h.channel !== null) channels.push(h.channel);
    }
    const last = t.hops.at(-1);
    let current = null;
    if (!t.delivered) {
      const prev = t.hops.at(-2);
      current = last.arrived > d.now && prev?.channel != null ? { channel: prev.channel } : { router: last.router };
    }
    return { channels, routers, current, dst: t.dst_router, delivered: t.delivered };
  }

  /** The hop list, refreshed a few times a second (or at once when `force`). */
  render(force = false) {
    if (!this.active) return;
    const t = performance.now();
    if (!force && t - this.lastPanel < 250) return;
    this.lastPanel = t;
    const many = this.sim.panes.length > 1;
    const panes = this.data.map((d, i) => paneNodes(d, many ? this.sim.panes[i] : null));
    const note = many && !samePacket(this.data.map((d) => d.trace)) ? [el('p', { class: 'trace-differs' }, DIFFERENT_PACKETS)] : [];
    setChildren($('trace-body'), [...note, ...panes]);
  }
}

/** Why the panes may follow different packets, shown when they do. */
export const DIFFERENT_PACKETS =
  'The panes follow different packets: the one the others follow was dropped by a full source queue in at least one pane (past saturation, each routing fills its source queues differently), so that pane followed the next packet generated at the router.';

/** Whether every pane that found its packet follows the same one (same terminals, same creation cycle). */
export function samePacket(traces) {
  const found = traces.filter(Boolean);
  return found.every((t) => t.src === found[0].src && t.dst === found[0].dst && t.created === found[0].created);
}

// A table cell; `title` explains a column head.
const th = (text, title) => el('th', { title }, text);

// One pane's trace: a sentence on where the packet is and the table of its hops.
function paneNodes(d, pane) {
  const who = pane ? [swatch(pane.colour), el('b', {}, pane.variant.name), ' · '] : [];
  const t = d.trace;
  if (!t) {
    return el(
      'div',
      { class: 'trace-pane' },
      el('p', {}, who, d.armed !== null ? `waiting for the next packet generated at router ${d.armed}…` : 'nothing traced'),
    );
  }
  const packet = `packet from terminal ${t.src} (router ${t.src_router}) to terminal ${t.dst} (router ${t.dst_router}), created at cycle ${t.created}`;
  if (!t.hops.length) {
    return el('div', { class: 'trace-pane' }, el('p', {}, who, `${packet} — waiting in its source queue for ${d.now - t.created} cycles.`));
  }
  const last = t.hops.at(-1);
  let status;
  if (t.delivered) {
    const routerHops = t.hops.length - 1;
    status = [
      `delivered at cycle ${t.delivered_at}: latency `,
      el('b', {}, t.delivered_at - t.created),
      ` cycles, ${routerHops} router-to-router hop${routerHops === 1 ? '' : 's'}${t.nonminimal ? ', routed non-minimally' : ''}`,
    ];
  } else if (t.unroutable) {
    status = `dropped at cycle ${t.unroutable.cycle} in router ${t.unroutable.router}: routed onto output port ${t.unroutable.port}, whose link has failed (unroutable)`;
  } else if (last.arrived > d.now) {
    status = `on the channel to router ${last.router} (usable there from cycle ${last.arrived})`;
  } else {
    status = `in router ${last.router}, input port ${last.in_port} VC ${last.in_vc}, for ${d.now - last.arrived} cycles`;
  }
  const rows = t.hops.map((h, k) => {
    const left = h.left ?? null;
    const waited = left !== null ? left - h.arrived : h.arrived <= d.now ? d.now - h.arrived : null;
    const out =
      left === null
        ? el('span', { class: 'muted' }, '—')
        : h.next_router === null
          ? `port ${h.out_port} → terminal ${t.dst}`
          : `port ${h.out_port} → R${h.next_router}`;
    const link = left === null ? '' : `${h.class}${h.class !== 'terminal' && h.dim !== undefined ? ` d${h.dim}` : ''}`;
    const cells = [k, `R${h.router}`, h.arrived, `${h.in_port} / ${h.in_vc}`, waited ?? '–', left ?? '–', out, h.out_vc ?? '–', link];
    return el(
      'tr',
      { class: left === null && !t.delivered ? 'here' : undefined },
      cells.map((c) => el('td', {}, c)),
    );
  });
  const start = t.hops[0].injected !== undefined ? `injected at cycle ${t.hops[0].injected}` : `picked up in a queue at cycle ${t.hops[0].found}`;
  const head = el(
    'tr',
    {},
    th('hop'),
    th('router'),
    th('arrived', "cycle the packet was usable in the router's input buffer"),
    th('in port / VC'),
    th('waited', 'cycles spent in this router'),
    th('left', 'cycle it left on the output channel'),
    th('to'),
    th('out VC', 'VC at the next router'),
    th('link'),
  );
  return el(
    'div',
    { class: 'trace-pane' },
    el('p', {}, who, `${packet}, ${start} — `, status, '.'),
    el('table', { class: 'ports trace-hops' }, el('thead', {}, head), el('tbody', {}, rows)),
  );
}
