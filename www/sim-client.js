// The page's end of the simulation worker (www/sim-worker.js): at most one request in
// flight, so the page always knows the cycle the worker is at when it sends the next one.
// Queued requests (create, check, panic) go first; otherwise, whenever the worker is idle,
// `pump()` asks the page's pacer (`nextStep`) how many cycles to advance and what the
// snapshot should hold, and sends a step with the commands queued meanwhile (trace
// controls, queries). Replies to steps go to `onSnapshot`, in order; then the commands'
// promises resolve. The worker is started on first use and replaced after it crashed.

export class SimClient {
  /**
   * @param nextStep (force) => {cycles, want} | null — null: nothing to do (not called
   *   with force = true, when queued commands must go anyway)
   * @param onSnapshot (reply) => void — a step's reply: {gen, cycles, ms, panes, ...}
   * @param onCrash (message) => void — the worker trapped (a Rust panic) or failed
   */
  constructor({ nextStep, onSnapshot, onCrash }) {
    this.nextStep = nextStep;
    this.onSnapshot = onSnapshot;
    this.onCrash = onCrash;
    this.worker = null;
    this.nextId = 1;
    this.inflight = null; // {id, msg, resolve, reject, commands}
    this.queue = [];
    this.commands = []; // {msg, resolve}
    this.idleWaiters = [];
  }

  /** True while a request is out. */
  get busy() {
    return this.inflight !== null;
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
    if (!this.inflight && !this.queue.length && !this.commands.length) return Promise.resolve();
    return new Promise((ok) => this.idleWaiters.push(ok));
  }

  /** Sends the next request if the worker is idle. */
  pump() {
    if (this.inflight || this.applying) return;
    let job = this.queue.shift();
    if (!job) {
      const force = this.commands.length > 0;
      const step = this.nextStep(force);
      if (!step) {
        const waiters = this.idleWaiters;
        this.idleWaiters = [];
        waiters.forEach((ok) => ok());
        return;
      }
      const commands = this.commands;
      this.commands = [];
      job = { msg: { type: 'step', ...step, commands: commands.map((c) => c.msg) }, commands, resolve: () => {}, reject: () => {} };
    }
    this.start();
    job.id = this.nextId++;
    this.inflight = job;
    this.worker.postMessage({ id: job.id, ...job.msg });
  }

  receive(reply) {
    const job = this.inflight;
    if (!job || reply.id !== job.id) return;
    this.inflight = null;
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
    const pending = [...(this.inflight ? [this.inflight] : []), ...this.queue];
    this.inflight = null;
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
