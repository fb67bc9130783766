// The offered load, changed while the simulation runs (docs/lecture.md, The load while
// running): a slider and a number in
// the toolbar, over `traffic.load`'s range in the catalog. A change calls WebSim.setLoad in
// every pane (one step: they change at the same cycle) — no rebuild, the run goes on from
// where it is. The engine's refusal ([{path, message}]) floats under the control. An
// accepted change goes into the experiment's config, so the form, the share link
// (traffic.load) and the story's "modified" mark follow, and into the live-edit log
// (www/ui/time-control.js), so a rewind to before it restores the old load in the control.
//
// Not offered when the panes compare traffic.load (each has its own) or under batch
// injection (every terminal sends its batch as fast as it can: the load is not used).

import { clip, inputById } from '../lib/dom.js';

const $ = (id) => document.getElementById(id);

export class LiveLoad {
  /**
   * Reads the simulations and the run state; changes the experiment's load through its
   * owner (`experiments`). hooks: changed() (the experiment's load changed),
   * recordEdit(at, before), liveState().
   * @param {{experiments: import('../stories/experiment-state.js').ExperimentState, sim: import('../sim/sim-state.js').SimState, run: import('../sim/run-state.js').RunState}} parts
   */
  constructor({ experiments, sim, run }, hooks) {
    this.experiments = experiments;
    this.sim = sim;
    this.run = run;
    this.hooks = hooks;
    this.pending = false;
    this.next = undefined;
    this.synced = '';
  }

  /** traffic.load's range in the catalog. */
  range() {
    const spec = this.experiments.model?.catalog.params.find((p) => p.path === 'traffic.load');
    return { min: spec?.min ?? 0, max: spec?.max ?? 1 };
  }

  wire() {
    const slider = inputById('load-slider');
    slider.addEventListener('input', () => {
      inputById('load-value').value = String(Number(slider.value));
      this.set(Number(slider.value));
    });
    const box = inputById('load-value');
    box.addEventListener('change', () => {
      const raw = box.value.trim();
      const v = Number(raw);
      if (!raw || !Number.isFinite(v)) {
        this.say(`load: '${clip(raw, 20)}' is not a number (flits per cycle per terminal, e.g. 0.3)`);
        return;
      }
      this.set(v);
    });
  }

  say(text) {
    $('load-msg').textContent = text ?? '';
    $('load-msg').hidden = !text;
  }

  /** Why the control is off now, or null. */
  refusal() {
    const exp = this.experiments.experiment;
    if (!exp || !this.sim.panes.length || !this.run.usable) return 'No simulation is running.';
    if (exp.compare?.param === 'traffic.load') return 'The panes compare traffic.load: each runs its own load (change the values under Side by side).';
    if (exp.config.traffic.injection === 'batch') return 'Batch injection: every terminal sends its batch as fast as it can, so the offered load is not used.';
    return null;
  }

  /** The control shows the experiment's load (every frame: cheap when unchanged). */
  sync() {
    const why = this.refusal();
    const load = this.experiments.experiment?.config.traffic.load;
    const { min, max } = this.range();
    const key = [why, load, min, max, this.pending].join();
    if (key === this.synced) return;
    this.synced = key;
    for (const id of ['load-slider', 'load-value']) {
      const e = inputById(id);
      e.disabled = Boolean(why);
      e.min = String(min);
      e.max = String(max);
      e.title = why ?? `Offered load while running: ${min}–${max} flits per cycle per terminal (changes every pane at once, without restarting)`;
    }
    if (typeof load === 'number' && !this.pending) {
      inputById('load-slider').value = String(load);
      if (document.activeElement !== $('load-value')) inputById('load-value').value = String(load);
    }
  }

  /** The control shows the experiment's load, even if it looks unchanged (a new experiment). */
  refresh() {
    this.synced = '';
    this.sync();
  }

  /** Sets the load in every pane (the latest value wins while one is under way). */
  async set(value) {
    if (this.refusal()) return;
    if (this.pending) {
      this.next = value;
      return;
    }
    const sim = this.sim;
    const panes = sim.panes;
    const gen = sim.gen;
    const old = this.experiments.experiment.config.traffic.load;
    const before = this.hooks.liveState();
    this.pending = true;
    try {
      const results = await sim.sims.together(() => Promise.all(panes.map((p) => p.sim.askAt('setLoad', value))));
      if (sim.gen !== gen || sim.panes !== panes) return;
      const errors = results.map((r) => (Array.isArray(r?.value) ? r.value : r?.value?.error ? [{ path: 'traffic.load', message: r.value.error }] : []));
      const bad = errors.find((e) => e.length);
      if (bad) {
        // Where it was accepted, put the old load back: the panes keep running the same one.
        const undo = panes.filter((_, i) => !errors[i].length);
        if (undo.length) await sim.sims.together(() => Promise.all(undo.map((p) => p.sim.ask('setLoad', old))));
        this.say(bad.map((e) => `${clip(e.path, 40)}: ${clip(e.message, 200)}`).join('\n'));
        this.synced = '';
        this.sync();
        inputById('load-value').value = String(old);
        return;
      }
      this.say(null);
      this.experiments.setLoad(value);
      for (const p of panes) {
        p.config.traffic.load = value;
        const cfg = structuredClone(p.sim.config());
        cfg.traffic.load = value;
        p.sim.setConfig(cfg);
      }
      this.hooks.recordEdit(results[0].at, before);
      this.hooks.changed();
    } finally {
      this.pending = false;
      this.synced = '';
      const next = this.next;
      this.next = undefined;
      if (next !== undefined && next !== this.experiments.experiment?.config.traffic.load) this.set(next);
      else this.sync();
    }
  }
}
