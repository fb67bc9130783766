// The page's simulations: the panes shown (www/sim/pane.js), the worker's generation of
// them, the SimClient that talks to the workers and the pacer that decides each step's
// cycles. Written only here; 'panes' says the panes were replaced (or dropped after a
// crash), 'jumped' that they jumped in time (a rewind or a run until), so that the
// animation measures afresh and the packets stop gliding.

import { Emitter } from '../lib/events.js';
import { Pacer } from './pacing.js';
import { SimClient } from './sim-client.js';

/** @typedef {import('./pane.js').Pane} Pane */

/** @extends {Emitter<{panes: Pane[], jumped: number}>} */
export class SimState extends Emitter {
  constructor() {
    super();
    /** @type {Pane[]} */
    this.shown = [];
    this.generation = 0;
    /** @type {SimClient | null} */
    this.sims = null;
    this.pacer = new Pacer();
  }

  /** The panes shown, one per compared value (none before the first experiment or after a crash). */
  get panes() {
    return this.shown;
  }

  /** The worker's generation of the running simulations (a reply of an older one is stale). */
  get gen() {
    return this.generation;
  }

  /** The first pane's simulation (its mirror), or null. */
  get sim() {
    return this.shown[0]?.sim ?? null;
  }

  /** Starts the client (once): see SimClient. */
  connect({ nextStep, onSnapshot, onCrash }) {
    this.sims = new SimClient({ nextStep, onSnapshot, onCrash });
    return this.sims;
  }

  /** Drops the panes (their canvases go); `stopWorkers` too after a crash. */
  clear({ stopWorkers = false } = {}) {
    if (stopWorkers) this.sims?.stop();
    const old = this.shown;
    this.shown = [];
    for (const p of old) p.destroy();
    this.emit('panes', this.shown);
  }

  /** The panes of generation `gen` replace the (cleared) ones; nothing owed to the pacer. */
  replace(panes, gen) {
    this.generation = gen;
    this.pacer.reset();
    this.shown = panes;
    this.emit('panes', this.shown);
  }

  /** The panes jumped to `cycle` (a rewind, or a run until). */
  jumped(cycle) {
    this.emit('jumped', cycle);
  }
}
