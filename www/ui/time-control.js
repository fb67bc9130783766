// Time control for teaching (docs/lecture.md, Time): step back, go back to a cycle, and run until
// something happens — the next routing decision or the next non-minimal decision at the
// selected router, or the first saturated channel (a VC buffer it feeds is full).
//
// Rewinding is the engine's (WebSim.rewindTo: periodic snapshots plus exact replay, so the
// state it returns to is bit for bit the one first reached there). Every pane goes back to
// the same cycle in the same step (SimClient.together), so side-by-side panes stay
// aligned. A rewind is an undo: what was changed while running after the target cycle —
// the offered load, failed or restored links — is undone in the engine, and the page
// re-reads the load (config) and the failed links (failedChannels) and restores its
// own record of them (the experiment's config, hence the form and the share link) from
// the log of live edits kept here (`recordEdit`: each edit with the cycle it was applied at
// and the state before it).
//
// Run until: the event is awaited in one pane (WebSim.runUntil, at most MAX_CYCLES
// cycles) — the pane whose router is selected, or for "the first saturated channel" every pane
// at once, the one that gets there first winning (the later ones are rewound to its cycle)
// — and the other panes advance by the same cycles, so all panes end at the same cycle,
// paused. The notice says what happened.
//
// Keys: ← steps back (when focus is not in a text field, a menu or a slider). All of it is
// refused while a simulation stopped (watchdog) or crashed.

import { grouped } from '../model/decisions.js';
import { clone } from '../model/experiment.js';
import { buttonById, inputById, selectById } from '../lib/dom.js';

const $ = (id) => document.getElementById(id);

export const MAX_CYCLES = 10000;

const EVENT_WORDS = {
  decision: { option: 'next decision', missing: 'routing decision', reached: 'routed a packet onto a link' },
  nonminimal: { option: 'next non-minimal decision', missing: 'non-minimal decision', reached: 'sent a packet non-minimally' },
};

export class TimeControl {
  /**
   * Reads the simulations (and tells them when they jumped in time), the run state and the
   * view; puts back the experiment's load and links through their owner (`experiments`).
   * hooks: serial(fn) (queues after the page's experiment changes), setRunning(on),
   * notice(text), updateInspector(), untilCycle(text) (the plain "until cycle"),
   * liveChanged({links}) (the load or the failed links changed: form, URL, story, focus).
   * @param {{experiments: import('../stories/experiment-state.js').ExperimentState, sim: import('../sim/sim-state.js').SimState, run: import('../sim/run-state.js').RunState, view: import('../render/view-state.js').ViewState}} parts
   */
  constructor({ experiments, sim, run, view }, hooks) {
    this.experiments = experiments;
    this.sim = sim;
    this.run = run;
    this.view = view;
    this.hooks = hooks;
    this.busy = false;
    this.synced = '';
    /** The live edits of the panes shown: {at, before} (see recordEdit), oldest first. */
    this.liveEdits = [];
    // New panes (or none, after a crash) have no live edits.
    sim.on('panes', () => {
      this.liveEdits = [];
    });
  }

  wire() {
    buttonById('btn-back').addEventListener('click', () => this.stepBack());
    buttonById('btn-until').addEventListener('click', () => this.go());
    selectById('until-kind').addEventListener('change', () => {
      this.say(null);
      this.synced = '';
      this.sync();
    });
    const rewindTo = inputById('rewind-to');
    rewindTo.addEventListener('change', () => {
      const raw = rewindTo.value.trim();
      rewindTo.value = '';
      if (!raw) return;
      const n = Number(raw);
      const now = this.sim.panes[0]?.now ?? 0;
      if (!Number.isInteger(n) || n < 0) return this.say(`back to: '${raw.slice(0, 20)}' is not a cycle (a whole number ≥ 0)`);
      if (n >= now) return this.say(`back to: cycle ${grouped(n)} is not before the current cycle ${grouped(now)} — to run on to it, use until`);
      this.say(null);
      this.rewindTo(n);
    });
  }

  /** A message next to the until / back-to controls (null: none). Text only. */
  say(text, info = false) {
    $('until-msg').textContent = text ?? '';
    $('until-msg').hidden = !text;
    $('until-msg').classList.toggle('info', Boolean(info));
  }

  /** The controls' enabled state and labels; cheap when nothing changed (every frame). */
  sync() {
    const { sim, view } = this;
    const ok = sim.panes.length > 0 && this.run.usable;
    const now = ok ? sim.panes[0].now : 0;
    const earliest = ok ? Math.max(...sim.panes.map((p) => p.sim.rewindable().earliest)) : 0;
    const canBack = ok && now > earliest && !this.busy;
    const sel = view.selection?.kind === 'router' && sim.panes[view.selection.pane] ? view.selection : null;
    const kind = selectById('until-kind').value;
    // A simulation too large for its worker's memory to hold a copy keeps none (src/web/budget.rs).
    const uncopied = ok && sim.panes.some((p) => p.sim.rewindable().budget !== undefined && p.sim.rewindable().snapshots === 0);
    const key = [ok, canBack, earliest, now <= earliest, sel?.pane, sel?.index, this.busy, sim.panes.length, kind, uncopied].join();
    if (key === this.synced) return;
    this.synced = key;
    const why = !ok
      ? 'No simulation is running.'
      : this.busy
        ? 'Wait: the simulation is running until something happens.'
        : uncopied
          ? 'Rewinding is off for this experiment: its simulations take the memory a copy for rewinding would need (use a smaller network, fewer VCs or shallower queues to rewind).'
          : `Nothing earlier is kept: cycle ${grouped(earliest)} is as far back as this simulation goes.`;
    buttonById('btn-back').disabled = !canBack;
    buttonById('btn-back').title = canBack ? 'Step back one cycle (←): every pane goes back to exactly the state it had then (rewind)' : why;
    inputById('rewind-to').disabled = !canBack;
    inputById('rewind-to').title = canBack
      ? `Go back to an earlier cycle (from ${grouped(earliest)} on): every pane returns to exactly the state it had then`
      : why;
    const who = sel && sim.panes.length > 1 ? ` (pane ${sim.panes[sel.pane].variant.name})` : '';
    for (const [value, words] of Object.entries(EVENT_WORDS)) {
      const o = selectById('until-kind').querySelector(`option[value="${value}"]`);
      if (!(o instanceof HTMLOptionElement)) continue;
      o.disabled = !sel;
      o.textContent = sel ? `${words.option} at router ${sel.index}${who}` : `${words.option} at the selected router — click a router first`;
    }
    selectById('until-kind').title = sel
      ? `What to run until (then pause). Router events are awaited at router ${sel.index}${who}, the router in the inspector.`
      : 'What to run until (then pause). For the next decision at a router, click (pin) that router first.';
    inputById('run-until').disabled = kind !== 'cycle' || !ok;
    buttonById('btn-until').disabled = !ok || this.busy;
  }

  /** The ▶ button: run until the chosen event. */
  go() {
    const kind = selectById('until-kind').value;
    if (kind === 'cycle') {
      this.hooks.untilCycle(inputById('run-until').value);
      return;
    }
    this.runUntil(kind);
  }

  /** One cycle back (the Step button's step), every pane. */
  stepBack() {
    return this.hooks.serial(async () => {
      if (!(await this.pause())) return;
      const now = this.sim.panes[0].now;
      if (now <= 0) return;
      await this.rewind(now - 1);
    });
  }

  /** Back to `cycle`, every pane. */
  rewindTo(cycle) {
    return this.hooks.serial(async () => {
      if (!(await this.pause())) return;
      const reached = await this.rewind(cycle);
      if (reached !== null && reached !== cycle)
        this.say(`back to: cycle ${grouped(cycle)} is not kept; went back to cycle ${grouped(reached)}, the earliest`, true);
    });
  }

  /** Pauses and waits until the workers are idle; false when there is nothing to control. */
  async pause() {
    const { sim, run } = this;
    if (!sim.panes.length || !run.usable || this.busy) return false;
    this.hooks.setRunning(false);
    sim.pacer.cancelSteps();
    run.setUntil(0);
    await sim.sims.idle();
    return sim.panes.length > 0 && run.usable;
  }

  /**
   * Every pane back to `target` (clamped to what all of them keep), in one step. Returns
   * the cycle reached, or null when the panes were replaced meanwhile.
   */
  async rewind(target) {
    const sim = this.sim;
    const panes = sim.panes;
    const gen = sim.gen;
    const now = panes[0].now;
    const earliest = Math.max(...panes.map((p) => p.sim.rewindable().earliest));
    const to = Math.max(earliest, Math.min(now, Math.floor(target)));
    if (to === now) return now;
    this.busy = true;
    try {
      const [reached, masks, configs] = await sim.sims.together(() =>
        Promise.all([
          Promise.all(panes.map((p) => p.sim.ask('rewindTo', to))),
          Promise.all(panes.map((p) => p.sim.ask('failedChannels'))),
          Promise.all(panes.map((p) => p.sim.ask('config'))),
        ]),
      );
      if (sim.gen !== gen || sim.panes !== panes) return null;
      if (reached.some((r) => r !== to)) throw new Error(`the panes went back to different cycles: ${reached.join(', ')} (asked ${to})`);
      this.afterJump(panes, to, { rewound: panes, masks, configs });
      return to;
    } finally {
      this.busy = false;
      this.synced = '';
    }
  }

  /**
   * The panes jumped to `cycle` (a rewind, or a run until): statistics and decision
   * windows of the `rewound` panes forget what came after it, the live edits after it are
   * undone (with the load and failed links the engine reports: `masks`, `configs`), the
   * packets stop gliding, and the next snapshot takes a statistics sample.
   */
  afterJump(panes, cycle, { rewound = [], masks = null, configs = null } = {}) {
    for (const p of rewound) {
      p.stats.rewind(cycle);
      p.decisions.rewind(cycle);
    }
    let links = false;
    let load = false;
    if (masks || configs) {
      const undone = this.undoAfter(cycle);
      links = undone.links;
      load = undone.load;
      panes.forEach((p, i) => {
        if (masks?.[i] && !sameMask(p.failed, masks[i])) {
          p.setFailed(masks[i]);
          links = true;
        }
        if (configs?.[i] && typeof configs[i] === 'object') {
          p.sim.setConfig(configs[i]);
          const l = configs[i].traffic?.load;
          if (typeof l === 'number' && l !== p.config.traffic.load) {
            p.config.traffic.load = l;
            load = true;
          }
        }
      });
      // The engine's load is the truth: the experiment follows it (unless the panes
      // compare the load, which no live edit changes).
      const exp = this.experiments.experiment;
      if (exp && exp.compare?.param !== 'traffic.load' && panes[0] && exp.config.traffic.load !== panes[0].config.traffic.load) {
        this.experiments.setLoad(panes[0].config.traffic.load);
        load = true;
      }
    }
    // The animation takes a statistics sample with the next snapshot, measures the rate
    // afresh and stops the packets gliding.
    this.sim.jumped(cycle);
    if (links || load) this.hooks.liveChanged({ links, load });
    this.hooks.updateInspector();
    this.view.redraw({ plots: true });
    this.sim.sims.pump();
  }

  // ------------------------------------------------------------------ live edits

  /** What a live edit may change, as it is now. */
  liveState() {
    const exp = this.experiments.experiment;
    return {
      load: exp.config.traffic.load,
      links: clone(exp.config.faults?.links ?? []),
      compareValues: exp.compare?.param === 'faults.links' ? clone(exp.compare.values) : null,
    };
  }

  /** A live edit was applied at cycle `at`; `before`: liveState() before it. */
  recordEdit(at, before) {
    this.liveEdits.push({ at, before });
  }

  /** Undoes the live edits made after `cycle` (as the engine did): {load, links} changed. */
  undoAfter(cycle) {
    const edits = this.liveEdits;
    const i = edits.findIndex((e) => e.at > cycle);
    if (i < 0) return { load: false, links: false };
    const st = edits[i].before;
    edits.length = i;
    const exp = this.experiments.experiment;
    const { load, links } = this.experiments.restoreLive(st);
    if (st.compareValues && exp.compare?.param === 'faults.links') this.sim.panes.forEach((p, k) => p.setVariantValue(st.compareValues[k]));
    for (const p of this.sim.panes) {
      p.config.traffic.load = exp.compare?.param === 'traffic.load' ? p.config.traffic.load : st.load;
      if (p.config.faults) p.config.faults = { ...p.config.faults, links: st.compareValues ? st.compareValues[p.index] : st.links };
    }
    return { load, links };
  }

  // ------------------------------------------------------------------ run until

  /**
   * Runs until `kind` ('decision', 'nonminimal', 'saturated') happens; see the top. `quiet`:
   * no notice when a router's event is reached (a scene shows it in the inspector).
   */
  runUntil(kind, { quiet = false } = {}) {
    const sel = this.view.selection?.kind === 'router' ? this.view.selection : null;
    if (kind !== 'saturated' && !EVENT_WORDS[kind]) return;
    if (kind !== 'saturated' && !sel) {
      this.say(`Click a router first (it opens in the inspector): the ${EVENT_WORDS[kind].option} is awaited at the selected router.`);
      return;
    }
    if (!this.sim.panes.length || !this.run.usable) return;
    this.say(null);
    return this.hooks.serial(async () => {
      if (!(await this.pause())) return;
      this.busy = true;
      this.synced = '';
      this.say(
        `Running until the ${kind === 'saturated' ? 'first saturated channel' : `${EVENT_WORDS[kind].option} at router ${sel.index}`} (at most ${grouped(MAX_CYCLES)} cycles)…`,
        true,
      );
      try {
        if (kind === 'saturated') await this.untilSaturated();
        else await this.untilAtRouter(kind, sel.pane, sel.index, quiet);
      } finally {
        this.busy = false;
        this.synced = '';
        if (!$('until-msg').hidden && $('until-msg').classList.contains('info')) this.say(null);
      }
    });
  }

  async untilAtRouter(kind, paneIndex, router, quiet = false) {
    const sim = this.sim;
    const panes = sim.panes;
    const gen = sim.gen;
    const start = panes[0].now;
    const pane = panes[paneIndex];
    if (!pane) return;
    // The inspector shows the decision: its per-hop notes (DAL's) are recorded from now on
    // (the worker starts them only once a frame has asked for the router's detail, which a
    // run started right after the click may not wait for).
    await pane.sim.ask('recordHopNotes', true);
    const r = await pane.sim.ask('runUntil', kind, router, MAX_CYCLES);
    if (sim.gen !== gen) return;
    if (!r || (r.error && !r.cycles)) {
      this.say(`Run until: ${r?.error ?? 'no answer from the simulation'}`);
      return;
    }
    const n = r.cycles;
    const others = panes.filter((p) => p !== pane);
    let failed = null;
    if (n > 0 && others.length) {
      const res = await sim.sims.together(() => Promise.all(others.map((p) => p.sim.ask('advance', n))));
      if (sim.gen !== gen) return;
      failed = res.find((x) => x && x.error)?.error ?? null;
    }
    this.afterJump(panes, start + n);
    const at = grouped(start + n);
    const where = panes.length > 1 ? ` in pane ${pane.variant.name} (${pane.short}); the other panes ran on to the same cycle` : '';
    const words = EVENT_WORDS[kind];
    let text;
    if (r.error) text = `The simulation stopped at cycle ${at}: ${r.error}`;
    else if (r.reached) text = `Router ${router} ${words.reached} at cycle ${at}${where} — paused there. Its decision and counts are in the inspector.`;
    else
      text = `No ${words.missing} at router ${router} within ${grouped(MAX_CYCLES)} cycles${where ? ' (pane ' + pane.variant.name + ')' : ''}: paused at cycle ${at}.`;
    if (failed) text += ` Another pane could not follow: ${failed}`;
    if (!(quiet && r.reached && !r.error && !failed)) this.hooks.notice(text);
  }

  async untilSaturated() {
    const sim = this.sim;
    const panes = sim.panes;
    const gen = sim.gen;
    const start = panes[0].now;
    const results = await sim.sims.together(() => Promise.all(panes.map((p) => p.sim.ask('runUntil', 'saturated', 0, MAX_CYCLES))));
    if (sim.gen !== gen) return;
    const bad = results.find((r) => !r || (r.error && !r.cycles));
    if (bad !== undefined) {
      this.say(`Run until: ${bad?.error ?? 'no answer from the simulation'}`);
      return;
    }
    // The first pane to saturate a channel (the lowest index on a tie) sets the cycle.
    let best = -1;
    results.forEach((r, i) => {
      if (r.reached && (best < 0 || r.cycles < results[best].cycles)) best = i;
    });
    const cycles = best >= 0 ? results[best].cycles : Math.min(...results.map((r) => r.cycles));
    const target = start + cycles;
    const ahead = panes.filter((_, i) => results[i].cycles > cycles);
    if (ahead.length) {
      const back = await sim.sims.together(() => Promise.all(ahead.map((p) => p.sim.ask('rewindTo', target))));
      if (sim.gen !== gen) return;
      if (back.some((c) => c !== target)) throw new Error(`the panes went back to different cycles: ${back.join(', ')} (asked ${target})`);
    }
    this.afterJump(panes, target, { rewound: ahead });
    const at = grouped(target);
    if (best < 0) {
      const stop = results.find((r) => r.error)?.error;
      this.hooks.notice(
        stop ? `The simulation stopped at cycle ${at}: ${stop}` : `No saturated channel within ${grouped(MAX_CYCLES)} cycles: paused at cycle ${at}.`,
      );
      return;
    }
    const pane = panes[best];
    const c = results[best].channel;
    const g = pane.view.geo;
    this.view.select({ pane: best, kind: 'channel', index: c });
    this.hooks.updateInspector();
    const where = panes.length > 1 ? ` in pane ${pane.variant.name} (${pane.short}), the first to saturate one; the other panes are at the same cycle` : '';
    this.hooks.notice(
      `Channel ${c} (router ${g.src[c]} → router ${g.dst[c]}) saturates at cycle ${at}${where}: a VC buffer it feeds is full, so packets for that VC wait at router ${g.src[c]}. Selected (wide dashes) and shown in the inspector.`,
    );
  }
}

function sameMask(a, b) {
  if (!a || !b || a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (Boolean(a[i]) !== Boolean(b[i])) return false;
  return true;
}
