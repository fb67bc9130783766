// Failed links on the page (HyperX §6). A config's `faults.links` lists links as
// [router, router] or [router, router, trunk]; here they are normalised ([b, a] is [a, b],
// trunk 0 is left out) and written as text for the form ("0-1, 5-9/1").
//
// The "fail links" mode (toolbar button ✂ or x): a click on a channel fails its link in the
// running simulations (WebSim.setChannelFailed in the worker: both directions, no restart),
// a click on a failed one restores it. The link goes into (or out of) the experiment's
// faults.links, so the share link and Reset rebuild the same failures. Every pane shows the
// same network unless the panes compare a topology parameter, so a link fails in all of
// them; when the panes compare faults.links itself, only in the pane clicked. A failure the
// engine refuses (it would disconnect the network) says why next to the picture, until
// its cause is gone (another link changed, the mode left, the experiment replaced).

import { clip } from '../lib/dom.js';
import { describeValue, linkKey, normaliseLink } from '../model/experiment.js';

const $ = (id) => document.getElementById(id);

/** The list normalised, each link once (first occurrence kept). */
export function normaliseLinks(list) {
  const seen = new Set();
  const out = [];
  for (const l of list ?? []) {
    const n = normaliseLink(l);
    const k = n.join('-');
    if (seen.has(k)) continue;
    seen.add(k);
    out.push(n);
  }
  return out;
}

export const hasLink = (list, link) => (list ?? []).some((l) => linkKey(l) === linkKey(link));

export const formatLink = (l) => `${l[0]}-${l[1]}${l[2] ? `/${l[2]}` : ''}`;

/** "0-1, 5-9/1" */
export const formatLinks = (list) => (list ?? []).map(formatLink).join(', ');

const EXAMPLE = 'e.g. 0-1, 5-9/1 (ROUTER-ROUTER or ROUTER-ROUTER/TRUNK)';

/**
 * The form's text for faults.links: "0-1, 5-9/1" or JSON ([[0,1],[5,9,1]]); empty = none.
 * Returns {value} (normalised) or {error}. `max`: the largest router or trunk number.
 */
export function parseLinks(raw, max = 4294967295) {
  const text = String(raw ?? '').trim();
  if (text === '' || text === '[]') return { value: [] };
  let links;
  if (text.startsWith('[')) {
    try {
      links = JSON.parse(text);
    } catch {
      return { error: `'${clip(text, 60)}' is not a list of links, ${EXAMPLE}` };
    }
    if (!Array.isArray(links) || !links.every((l) => Array.isArray(l) && (l.length === 2 || l.length === 3))) {
      return { error: `'${clip(text, 60)}' is not a list of links such as [[0,1],[5,9,1]]` };
    }
  } else {
    links = [];
    for (const token of text
      .replace(/\s*([-/])\s*/g, '$1')
      .split(/[\s,;]+/)
      .filter(Boolean)) {
      const m = /^(\d{1,10})-(\d{1,10})(?:\/(\d{1,10}))?$/.exec(token);
      if (!m) return { error: `'${clip(token, 40)}' is not a link, ${EXAMPLE}` };
      links.push(
        m
          .slice(1)
          .filter((x) => x !== undefined)
          .map(Number),
      );
    }
  }
  const bad = links.flat().find((x) => !Number.isInteger(x) || x < 0 || x > max);
  if (bad !== undefined) return { error: `router and trunk numbers are whole numbers from 0 to ${max}, got ${describeValue(bad)}` };
  return { value: normaliseLinks(links) };
}

/** The fail-links mode and the clicks that fail and restore links (see the top). */
export class FailLinks {
  /**
   * Reads the simulations and the run state; changes the experiment's links through its
   * owner (`experiments`); ends `trace`'s picking when this mode starts; records each change
   * in `timeControl`'s live-edit log. `serial(fn)` queues fn after the page's pending
   * experiment changes; `changed(panes)` runs after links failed or recovered in those
   * panes (the config, URL and focus follow).
   * @param {{experiments: import('../stories/experiment-state.js').ExperimentState, sim: import('../sim/sim-state.js').SimState, run: import('../sim/run-state.js').RunState, trace: import('./trace-view.js').PacketTrace, timeControl: import('./time-control.js').TimeControl}} parts
   */
  constructor({ experiments, sim, run, trace, timeControl }, { serial, changed }) {
    this.experiments = experiments;
    this.sim = sim;
    this.run = run;
    this.trace = trace;
    this.timeControl = timeControl;
    this.serial = serial;
    this.changed = changed;
    this.picking = false;
    this.hint = 'Click a link to fail it, a failed link to restore it. x or Esc: done.';
  }

  toggle() {
    this.setPicking(!this.picking);
  }

  setPicking(on) {
    this.picking = Boolean(on);
    if (this.picking && this.trace.picking) this.trace.setPicking(false);
    document.body.classList.toggle('fail-picking', this.picking);
    $('btn-fail').setAttribute('aria-pressed', String(this.picking));
    $('fault-hint').hidden = !this.picking;
    if (!this.picking) this.say(null);
    this.syncBox();
  }

  /** A refused failure's reason (null: none). Text only. */
  say(text) {
    $('fault-msg-text').textContent = text ?? '';
    $('fault-msg').hidden = !text;
    this.syncBox();
  }

  syncBox() {
    $('fault-box').hidden = Boolean($('fault-hint').hidden && $('fault-msg').hidden);
  }

  /** A click on channel `channel` of pane `index` in the mode: fails or restores its link. */
  click(index, channel) {
    return this.serial(() => this.toggleLink(index, channel));
  }

  /**
   * Fails or restores `link` ([a, b] or [a, b, trunk]) in every pane, as a click on its
   * channel in the mode does (a story scene's `fail` and `restore`); nothing when it already
   * is. Resolves to the refusal's text, or null.
   * @param {number[]} link
   * @param {boolean} fail
   * @returns {Promise<string | null>}
   */
  async setLink(link, fail) {
    const pane = this.sim.panes[0];
    if (!pane) return null;
    const [a, b, trunk = 0] = link;
    const channel = await pane.sim.ask('linkChannel', a, b, trunk);
    if (typeof channel !== 'number' || channel < 0) return `link ${formatLink(normaliseLink(link))} does not exist`;
    if (Boolean(pane.failed[channel]) === fail) return null;
    const refused = await this.serial(() => this.toggleLink(0, channel));
    return typeof refused === 'string' ? refused : null;
  }

  /** Says why a link cannot change (next to the picture) and returns it. */
  refuse(text) {
    this.say(text);
    return text;
  }

  /**
   * Fails or restores the link of channel `channel` of pane `index`; resolves to the
   * refusal's text, or null.
   * @returns {Promise<string | null>}
   */
  async toggleLink(index, channel) {
    const sim = this.sim;
    const pane = sim.panes[index];
    const exp = this.experiments.experiment;
    if (!pane || !exp || this.run.crashed || channel >= pane.info.channels) return null;
    const param = exp.compare?.param ?? '';
    if (param.startsWith('topology.')) {
      return this.refuse(
        `The panes compare different networks (${param}), so a link clicked in one is not the same link in the others: vary another parameter, or enter faults.links in the form.`,
      );
    }
    const own = param === 'faults.links';
    const panes = own ? [pane] : sim.panes;
    const gen = sim.gen;
    const fail = !pane.failed[channel];
    const raw = await pane.sim.ask('channelLink', channel);
    if (sim.gen !== gen || !raw) return null; // replaced meanwhile
    const link = normaliseLink(Array.from(raw));
    const list = normaliseLinks(own ? exp.compare.values[index] : exp.config.faults?.links);
    if (!fail && !hasLink(list, link)) {
      return this.refuse(`Link ${formatLink(link)} failed by faults.random_fraction (a draw from the seed): it comes back when that fraction is 0.`);
    }
    // The state before, for a rewind to undo this (www/ui/time-control.js's live-edit log).
    const before = this.timeControl.liveState();
    const answers = await sim.sims.together(() => Promise.all(panes.map((p) => p.sim.askAt('setChannelFailed', channel, fail))));
    if (sim.gen !== gen) return null;
    const results = answers.map((a) => a?.value);
    const done = results.map((r) => Array.isArray(r) && r.length === 0);
    const refused = results.find((r) => Array.isArray(r) && r.length > 0)?.[0]?.message;
    if (!done.every(Boolean)) {
      // Undo it where it was done: the panes keep showing the same failures.
      await Promise.all(panes.filter((_, i) => done[i]).map((p) => p.sim.ask('setChannelFailed', channel, !fail)));
      return refused === undefined ? null : this.refuse(`Link ${formatLink(link)} cannot fail: ${clip(refused, 400)}`);
    }
    const masks = await Promise.all(panes.map((p) => p.sim.ask('failedChannels')));
    if (sim.gen !== gen) return null;
    // The experiment, the panes and (in `changed`) the form and the URL, together.
    const next = fail ? [...list, link] : list.filter((l) => linkKey(l) !== linkKey(link));
    this.experiments.setLinks(next, own ? index : null);
    if (own) pane.setVariantValue(next);
    panes.forEach((p, i) => {
      p.config.faults = { ...p.config.faults, links: next };
      if (masks[i]) p.setFailed(masks[i]);
    });
    this.timeControl.recordEdit(answers[0].at, before);
    this.say(null);
    this.changed(panes);
    return null;
  }
}
