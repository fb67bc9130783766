// The page's end of the simulation worker (www/sim-worker.js). Queued requests (create,
// check, panic) go first, each alone in flight. Otherwise `pump()` asks the page's pacer
// (`nextStep`) how many cycles to advance and what the snapshot should hold, and sends a
// step with the commands queued meanwhile (trace controls, queries). Up to STEP_DEPTH
// steps are in flight, so the worker starts the next as soon as it posts one (the page
// knows the cycle the worker will be at: the last snapshot's plus the cycles in flight).
// Replies to steps go to `onSnapshot`, in order; then the commands' promises resolve. The
// worker is started on first use and replaced after it crashed.

const STEP_DEPTH = 2;

export class SimClient {
  /**
   * @param nextStep (force, ahead) => {cycles, want} | null — `ahead`: steps already in
   *   flight (then only a full step is worth sending). null: nothing to do (never when
   *   force = true: queued commands must go anyway)
   * @param onSnapshot (reply) => void — a step's reply: {gen, cycles, ms, panes, ...}
   * @param onCrash (message) => void — the worker trapped (a Rust panic) or failed
   */
  constructor({ nextStep, onSnapshot, onCrash }) {
    this.nextStep = nextStep;
    this.onSnapshot = onSnapshot;
    this.onCrash = onCrash;
    this.worker = null;
    this.nextId = 1;
    this.flight = []; // requests out, oldest first: {id, msg, resolve, reject, commands}
    this.queue = [];
    this.commands = []; // {msg, resolve}
    this.idleWaiters = [];
  }

  /** True while a request is out. */
  get busy() {
    return this.flight.length > 0;
  }

  /** Cycles in the steps out: the worker's cycle once they are answered is the mirror's plus these. */
  get cyclesInFlight() {
    return this.flight.reduce((n, j) => n + (j.msg.cycles ?? 0), 0);
  }

  start() {
    if (this.worker) return;
    this.worker = new Worker(new URL('./sim-worker.js', import.meta.url), { type: 'module' });
    this.worker.onmessage = (e) => this.receive(e.data);
    this.worker.onerror = (e) => {
      e.preventDefault?.();
      this.fail(`the simulation worker failed: ${e.message ?? e}`);
    };
  }

  /** Sends `msg` after whatever is queued; resolves with the reply. */
  request(msg) {
    return new Promise((resolve, reject) => {
      this.queue.push({ msg, resolve, reject });
      this.pump();
    });
  }

  /** Builds the panes' simulations; see sim-worker.js. */
  create(configs, want) {
    return this.request({ type: 'create', configs, want });
  }

  /** Would every config build? */
  async check(configs) {
    return (await this.request({ type: 'check', configs })).ok;
  }

  panic() {
    return this.request({ type: 'panic' }).catch(() => {});
  }

  /**
   * Calls WebSim method `op` of pane `pane` (generation `gen`) with the next step;
   * resolves with its result. `answered` runs when the reply arrives, before the
   * snapshot is applied.
   */
  command(gen, pane, op, args = [], answered = null) {
    return new Promise((resolve) => {
      this.commands.push({ msg: { gen, pane, op, args }, resolve, answered });
      this.pump();
    });
  }

  /** Resolves once no request is out and none is waiting. */
  idle() {
    if (!this.flight.length && !this.queue.length && !this.commands.length) return Promise.resolve();
    return new Promise((ok) => this.idleWaiters.push(ok));
  }

  /** Sends what can go now. */
  pump() {
    while (!this.applying) {
      const out = this.flight.length;
      if (out && this.flight[0].msg.type !== 'step') return; // alone in flight
      let job;
      if (this.queue.length) {
        if (out) return; // after the steps out
        job = this.queue.shift();
      } else {
        if (out >= STEP_DEPTH) return;
        const force = this.commands.length > 0;
        const step = this.nextStep(force, out);
        if (!step) {
          if (!out) {
            const waiters = this.idleWaiters;
            this.idleWaiters = [];
            waiters.forEach((ok) => ok());
          }
          return;
        }
        const commands = this.commands;
        this.commands = [];
        job = { msg: { type: 'step', ...step, commands: commands.map((c) => c.msg) }, commands, resolve: () => {}, reject: () => {} };
      }
      this.start();
      job.id = this.nextId++;
      this.flight.push(job);
      this.worker.postMessage({ id: job.id, ...job.msg });
    }
  }

  receive(reply) {
    const job = this.flight[0];
    if (!job || reply.id !== job.id) return;
    this.flight.shift();
    if (reply.error !== undefined) {
      job.reject(new Error(reply.error));
      job.commands?.forEach((c) => {
        c.answered?.();
        c.resolve(undefined);
      });
      this.fail(reply.error);
      return;
    }
    if (job.msg.type === 'step') {
      job.commands.forEach((c) => c.answered?.());
      // Commands queued while the snapshot is applied go with the next step, sent below.
      this.applying = true;
      try {
        this.onSnapshot(reply, job.msg);
      } finally {
        this.applying = false;
      }
      job.commands.forEach((c, i) => c.resolve(reply.results[i]));
    }
    job.resolve(reply);
    // After the caller's continuation (e.g. the page adopting new simulations).
    queueMicrotask(() => this.pump());
  }

  /** The worker is unusable: drop it and everything waiting on it. */
  fail(message) {
    this.stop();
    this.onCrash(message);
  }

  /** Ends the worker; the next request starts a fresh one. */
  stop() {
    this.worker?.terminate();
    this.worker = null;
    const pending = [...this.flight, ...this.queue];
    this.flight = [];
    this.queue = [];
    for (const j of pending) {
      j.reject(new Error('the simulation worker was stopped'));
      j.commands?.forEach((c) => {
        c.answered?.();
        c.resolve(undefined);
      });
    }
    for (const c of this.commands) {
      c.answered?.();
      c.resolve(undefined);
    }
    this.commands = [];
    const waiters = this.idleWaiters;
    this.idleWaiters = [];
    waiters.forEach((ok) => ok());
  }
}
