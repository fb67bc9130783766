// The load–latency sweep panel: the Sweep (www/sim/sweep.js) of the experiment shown, its
// buttons and status line. Owns the sweep; a new one replaces it when the experiment's
// settings change (reset). Its updates ask for the statistics plots to be redrawn.

import { buttonById, inputById } from '../lib/dom.js';
import { Sweep, parseLoads } from '../sim/sweep.js';

const $ = (id) => document.getElementById(id);

export class SweepPanel {
  /**
   * @param {{experiments: import('../stories/experiment-state.js').ExperimentState, sim: import('../sim/sim-state.js').SimState, view: import('../render/view-state.js').ViewState}} parts
   */
  constructor({ experiments, sim, view }) {
    this.experiments = experiments;
    this.sim = sim;
    this.view = view;
    /** @type {Sweep | null} */
    this.sweep = null;
  }

  wire() {
    buttonById('btn-sweep').addEventListener('click', () => this.start());
    // The loads' problem is said until they read (as typed, not only at the next Run sweep).
    inputById('sweep-loads').addEventListener('input', () => {
      if (this.sweep && !this.sweep.error && !parseLoads(inputById('sweep-loads').value).error) this.say(null);
    });
    buttonById('btn-sweep-stop').addEventListener('click', () => {
      this.sweep.stop();
      this.update(this.sweep);
    });
  }

  /** A new, empty sweep (the old one stops): its points no longer describe the experiment. */
  reset() {
    this.sweep?.stop();
    this.sweep = new Sweep((sw) => this.update(sw));
    this.update(this.sweep);
  }

  /** @param {Sweep} sw */
  update(sw) {
    buttonById('btn-sweep').disabled = sw.running;
    buttonById('btn-sweep-stop').disabled = !sw.running;
    this.say(sw.error);
    $('sweep-status').textContent = sw.total ? `${sw.done} of ${sw.total} points${sw.running ? ' — running' : ' — done'}` : '';
    this.view.redraw({ key: false, plots: true });
  }

  /** A message under the sweep's controls (null: none). Text only. */
  say(msg) {
    $('sweep-msg').textContent = msg ?? '';
    $('sweep-msg').hidden = !msg;
  }

  /** The sweep over the loads in the box, for each pane's config as it is now. */
  start() {
    const parsed = parseLoads(inputById('sweep-loads').value);
    if (parsed.error) return this.say(parsed.error);
    const panes = this.sim.panes;
    const variants = this.experiments.model.variants(this.experiments.experiment).map((v, i) => ({ ...v, config: panes[i] ? panes[i].config : v.config }));
    this.sweep.start(variants, parsed.loads);
  }
}
