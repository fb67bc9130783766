// Whether the simulations run: running or paused, crashed (a worker trapped or died),
// stopped (the engine's deadlock watchdog) and the cycle to pause at ("until", 0: none).
// Written only here, announced by a 'changed' event naming what changed; the page shows
// it (the Run button, the state on <body>, the "until" box).

import { Emitter } from '../lib/events.js';

/** @typedef {{what: 'running' | 'crashed' | 'stopped' | 'until'}} RunChange */

/** @extends {Emitter<{changed: RunChange}>} */
export class RunState extends Emitter {
  constructor() {
    super();
    this.isRunning = true;
    this.isCrashed = false;
    this.isStopped = false;
    this.untilCycle = 0;
  }

  get running() {
    return this.isRunning;
  }

  get crashed() {
    return this.isCrashed;
  }

  get stopped() {
    return this.isStopped;
  }

  /** The cycle to pause at (0: none). */
  get until() {
    return this.untilCycle;
  }

  /** Whether the simulations can be driven: neither crashed nor stopped. */
  get usable() {
    return !this.isCrashed && !this.isStopped;
  }

  setRunning(on) {
    this.isRunning = Boolean(on);
    this.emit('changed', { what: 'running' });
  }

  /** A worker trapped or died: paused for good, until another experiment is built. */
  crash() {
    this.isCrashed = true;
    this.isRunning = false;
    this.emit('changed', { what: 'crashed' });
  }

  /** The engine's watchdog stopped a simulation. */
  stop() {
    this.isRunning = false;
    this.isStopped = true;
    this.emit('changed', { what: 'stopped' });
  }

  /** A new experiment runs: neither crashed nor stopped. */
  fresh() {
    this.isCrashed = false;
    this.isStopped = false;
    this.emit('changed', { what: 'crashed' });
  }

  /** Pause once the first pane reaches `cycle` (0: never). Told even when unchanged. */
  setUntil(cycle) {
    this.untilCycle = cycle;
    this.emit('changed', { what: 'until' });
  }
}
