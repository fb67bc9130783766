// Where routing decides (docs/lecture.md): the engine counts, per router, the packets routed onto
// a router-to-router channel there and those sent off their minimal path there (UGAL's
// choice of a Valiant path at the source, DAL's deroute): WebSim.routerDecisions(),
// cumulative since cycle 0. The page reads them with its snapshots while they are shown
// (the inspector on a router, the router colouring, the key plot) and shows
//
//  - in the inspector: the router's counts since cycle 0 and its non-minimal share over the
//    recent window;
//  - as the routers' colour ("routers: non-minimal share"): each router's share of the
//    packets it routed that went non-minimally, over the recent window, on the links' ramp
//    (white = none, darkest = SHARE_FULL or more);
//  - as a key plot beside the picture: per pane, the share at the routers that own one of
//    the story's orange-cased channels against the other routers — on the UGAL-L story,
//    where the decisions that overload the minimal global channel are taken.
//
// The window: the difference between the latest counts and counts kept every
// WINDOW / 10 cycles, the oldest no more than WINDOW cycles back (so WINDOW to 1.1 WINDOW
// cycles; shorter early in the run, from cycle 0, where every count is 0).

import { el } from '../lib/dom.js';

export const WINDOW = 500;
// The routers' colour reaches the darkest at this share: the shares seen (UGAL on a
// dragonfly's worst case: 15–35 % of the packets a router routes) differ visibly.
export const SHARE_FULL = 0.5;

/** Thousands grouped by a thin space, as a lecturer reads them out: 4 211, 10 000. */
export const grouped = (n) => String(Math.round(n)).replace(/\B(?=(\d{3})+(?!\d))/g, '\u2009');

/** One pane's decision counts over time. */
export class DecisionWindow {
  constructor(routers) {
    this.routers = routers;
    this.samples = [{ cycle: 0, d: new Float64Array(2 * routers) }];
    this.latest = null;
    this.seq = 0;
    this.sharesFor = -1;
    this.shareValues = new Float32Array(routers);
    /** @type {Float32Array | null} the routers' colours (shareColours), made on first use */
    this.colourValues = null;
  }

  /** The counts `d` (routerDecisions) at `cycle`. */
  push(cycle, d) {
    if (!d || d.length !== 2 * this.routers) return;
    if (this.latest && this.latest.cycle === cycle && this.latest.d === d) return;
    this.latest = { cycle, d };
    this.seq++;
    const last = this.samples.at(-1);
    if (cycle - last.cycle >= WINDOW / 10) this.samples.push({ cycle, d });
    while (this.samples.length >= 2 && this.samples[1].cycle <= cycle - WINDOW) this.samples.shift();
  }

  /** The simulation went back to `cycle`: later counts are forgotten. */
  rewind(cycle) {
    this.samples = this.samples.filter((s) => s.cycle <= cycle);
    if (!this.samples.length) this.samples = [{ cycle: 0, d: new Float64Array(2 * this.routers) }];
    if (this.latest && this.latest.cycle > cycle) this.latest = null;
    this.seq++;
  }

  /** The window's cycles {from, to}, or null before the first counts. */
  get span() {
    return this.latest ? { from: this.samples[0].cycle, to: this.latest.cycle } : null;
  }

  /** Router `r`'s counts since cycle 0: {routed, nonminimal}, or null. */
  total(r) {
    const d = this.latest?.d;
    return d ? { routed: d[2 * r], nonminimal: d[2 * r + 1] } : null;
  }

  /** Router `r`'s counts over the window: {routed, nonminimal}, or null. */
  recent(r) {
    if (!this.latest) return null;
    const a = this.samples[0].d;
    const b = this.latest.d;
    return { routed: b[2 * r] - a[2 * r], nonminimal: b[2 * r + 1] - a[2 * r + 1] };
  }

  /** Per router, its non-minimal share over the window (0 where it routed nothing). */
  shares() {
    if (this.sharesFor === this.seq) return this.shareValues;
    this.sharesFor = this.seq;
    const v = this.shareValues;
    v.fill(0);
    if (!this.latest) return v;
    const a = this.samples[0].d;
    const b = this.latest.d;
    for (let r = 0; r < this.routers; r++) {
      const routed = b[2 * r] - a[2 * r];
      v[r] = routed > 0 ? (b[2 * r + 1] - a[2 * r + 1]) / routed : 0;
    }
    return v;
  }

  /** Per router, its share over SHARE_FULL, at most 1: the routers' colour. */
  shareColours() {
    if (this.coloursFor === this.seq) return this.colourValues;
    this.coloursFor = this.seq;
    this.colourValues ??= new Float32Array(this.routers);
    const v = this.shares();
    for (let r = 0; r < this.routers; r++) this.colourValues[r] = Math.min(1, v[r] / SHARE_FULL);
    return this.colourValues;
  }

  /**
   * The window's share over a set of routers (`mask[r]` true) and over the others:
   * {inside, outside, routersInside} (NaN where nothing was routed).
   */
  split(mask) {
    if (!this.latest) return { inside: NaN, outside: NaN, routersInside: 0 };
    const a = this.samples[0].d;
    const b = this.latest.d;
    const sum = [0, 0, 0, 0];
    let n = 0;
    for (let r = 0; r < this.routers; r++) {
      const k = mask[r] ? 0 : 2;
      if (mask[r]) n++;
      sum[k] += b[2 * r] - a[2 * r];
      sum[k + 1] += b[2 * r + 1] - a[2 * r + 1];
    }
    return { inside: sum[0] > 0 ? sum[1] / sum[0] : NaN, outside: sum[2] > 0 ? sum[3] / sum[2] : NaN, routersInside: n };
  }
}

/** The routers that send on one of a pane's focus channels (a mask per router), or null. */
export function focusOwners(pane) {
  if (!pane.focus) return null;
  const g = pane.view.geo;
  const mask = new Uint8Array(pane.info.routers);
  let any = false;
  for (let c = 0; c < g.channels; c++) {
    if (pane.focus[c]) {
      mask[g.src[c]] = 1;
      any = true;
    }
  }
  return any ? mask : null;
}

const pct = (x) => (Number.isFinite(x) ? `${(100 * x).toFixed(1)} %` : '–');

/** The inspector's block on a router's decisions (text nodes only). */
export function decisionNodes(pane, router) {
  const w = pane.decisions;
  const total = w?.total(router);
  if (!total) return el('div', { class: 'decision decision-counts' }, el('span', { class: 'muted' }, 'Counting the routing decisions at this router…'));
  const recent = w.recent(router);
  const span = w.span;
  const share = total.routed > 0 ? total.nonminimal / total.routed : NaN;
  const rshare = recent.routed > 0 ? recent.nonminimal / recent.routed : NaN;
  return el(
    'div',
    { class: 'decision decision-counts', dataset: { router, routed: total.routed, nonminimal: total.nonminimal, cycle: span.to } },
    el(
      'div',
      { class: 'decision-head' },
      'Routing decisions here ',
      el('span', { class: 'muted' }, '(packets routed onto a link to another router; non-minimal: sent off the minimal path here)'),
    ),
    el(
      'table',
      { class: 'ports decision-table' },
      el(
        'thead',
        {},
        el(
          'tr',
          {},
          el('th', {}, ''),
          el('th', {}, 'since cycle 0'),
          el('th', { title: `the last ${WINDOW} cycles or so` }, `cycles ${grouped(span.from)}–${grouped(span.to)}`),
        ),
      ),
      el(
        'tbody',
        {},
        el('tr', { class: 'routed' }, el('td', {}, 'routed'), el('td', {}, grouped(total.routed)), el('td', {}, grouped(recent.routed))),
        el('tr', { class: 'nonminimal' }, el('td', {}, 'non-minimal'), el('td', {}, grouped(total.nonminimal)), el('td', {}, grouped(recent.nonminimal))),
        el('tr', { class: 'share' }, el('td', {}, 'share'), el('td', {}, pct(share)), el('td', {}, pct(rshare))),
      ),
    ),
  );
}
