// How many cycles the simulation worker advances per step. The speed is in cycles per
// displayed frame: every animation frame while running owes that many cycles (below 1,
// one cycle every round(1/speed) frames); whenever the worker is idle the page sends the
// cycles owed as one step, so the simulation never runs ahead of the speed asked for and
// never waits for the drawing. Owed cycles never pile up beyond about two frames' worth:
// a simulation slower than asked runs as fast as it can, without catching up later.
//
// "Smooth" (the default) keeps a fresh picture coming every frame: a step simulates at
// most what the worker does in about one frame's time (measured cost per cycle), so a
// slow network shows fewer cycles per frame than asked rather than jumping. Off, every
// step simulates exactly the speed asked for (whole frames of simulation), however long
// that takes; the page still draws at the display's rate.

export class Pacer {
  constructor() {
    this.reset();
  }

  /** A new simulation: nothing owed, its cost per cycle unknown. */
  reset() {
    this.owed = 0;
    this.steps = 0; // single steps asked for (the Step button), advanced even when paused
    this.slowFrames = 0;
    this.simMs = 0;
    this.simCycles = 0;
    this.cappedTo = 0; // cycles per step "smooth" held the last step to (0: not held)
  }

  /** One more single step (the Step button), advanced even when paused. */
  step() {
    this.steps++;
  }

  /** Forgets the single steps asked for. */
  cancelSteps() {
    this.steps = 0;
  }

  /** A new speed: the slow frames counted towards the next cycle start again. */
  speedChanged() {
    this.slowFrames = 0;
  }

  /** Forgets the owed cycles (on pause). */
  stop() {
    this.owed = 0;
    this.slowFrames = 0;
  }

  /** A displayed frame while running at `speed` cycles per frame. */
  frame(speed) {
    let n = speed;
    if (speed < 1) {
      n = 0;
      if (++this.slowFrames >= Math.round(1 / speed)) {
        this.slowFrames = 0;
        n = 1;
      }
    }
    this.owed = Math.min(this.owed + n, Math.max(1, 2 * speed));
  }

  /** Milliseconds of worker time per simulated cycle (null until measured). */
  get msPerCycle() {
    return this.simCycles > 0 ? this.simMs / this.simCycles : null;
  }

  /**
   * The cycles of the next step: single steps first, else what is owed, as "smooth" and
   * the speed allow. `frameMs` is the display's frame interval. With `full` (a step is
   * already in flight) only a whole step is worth sending: the worker is behind.
   */
  next(speed, smooth, frameMs, full = false) {
    if (this.steps > 0) return this.steps;
    const whole = Math.floor(this.owed);
    if (whole < 1) return 0;
    if (!smooth) {
      this.cappedTo = 0;
      const chunk = Math.max(1, speed);
      return whole >= chunk ? chunk : 0;
    }
    const per = this.msPerCycle;
    if (per === null) return full ? 0 : 1; // first measure what one cycle of this network costs
    const fit = per > 0 ? Math.max(1, Math.floor(frameMs / per)) : Infinity;
    this.cappedTo = fit < speed ? fit : 0;
    const n = Math.min(whole, fit);
    return full && n < Math.min(fit, Math.max(1, speed)) ? 0 : n;
  }

  /** `n` cycles of the next step were sent. */
  sent(n) {
    if (this.steps > 0) this.steps = Math.max(0, this.steps - n);
    else this.owed = Math.max(0, this.owed - n);
  }

  /** The worker took `ms` to advance `cycles` (exponentially weighted sums). */
  measured(cycles, ms) {
    if (cycles <= 0) return;
    this.simMs = 0.8 * this.simMs + ms;
    this.simCycles = 0.8 * this.simCycles + cycles;
  }
}
