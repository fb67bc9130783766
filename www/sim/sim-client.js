// The page's end of the simulation workers (www/sim/sim-worker.js). Side-by-side panes are
// spread over up to one worker per pane, as many as leave a core to the page's drawing
// (pane i runs in worker i mod W), so they simulate in parallel, stepped in lock-step:
// every step advances every pane by the same cycles, and its reply is the panes'
// snapshots together (results do not depend on the spread: each pane is its own
// simulation, seeded from its config). One exception: when a pane's deadlock watchdog
// stops its worker, the panes of other workers may take the one further step already in
// flight (only the watchdog's negative-control algorithm deadlocks). Queued
// requests (create, check, panic) go first, each alone in flight. Otherwise `pump()` asks
// the page's pacer (`nextStep`) how many cycles to advance and what the snapshot should
// hold, and sends a step with the commands queued meanwhile (trace controls, queries),
// each to its pane's worker (`together` holds them back until a group of commands is
// queued, so they go in one step). Up to STEP_DEPTH steps are in flight, so the workers start
// the next as soon as they post one (the page knows the cycle they will be at: the last
// snapshot's plus the cycles in flight). Replies to steps go to `onSnapshot`, in order;
// then the commands' promises resolve. Workers are started on first use and replaced
// after one crashed.

const STEP_DEPTH = 2;

/**
 * Workers for `panes` panes: one per pane, but no more than leave one core to the page
 * (a global `HIRADIX_WORKERS` set before the page loads overrides the cap, for tests).
 */
export function workersFor(panes) {
  const forced = Number(globalThis.HIRADIX_WORKERS);
  const cap = forced > 0 ? forced : Math.max(1, (navigator.hardwareConcurrency || 2) - 1);
  return Math.max(1, Math.min(panes, cap));
}

export class SimClient {
  /**
   * @param nextStep (force, ahead) => {cycles, want} | null — `ahead`: steps already in
   *   flight (then only a full step is worth sending). null: nothing to do (never when
   *   force = true: queued commands must go anyway)
   * @param onSnapshot (reply) => void — a step's reply: {gen, cycles, ms, panes, ...}
   * @param onCrash (message) => void — a worker trapped (a Rust panic) or failed
   */
  constructor({ nextStep, onSnapshot, onCrash }) {
    this.nextStep = nextStep;
    this.onSnapshot = onSnapshot;
    this.onCrash = onCrash;
    this.workers = [];
    this.layout = { workers: 1, panes: 1 }; // of the running simulations
    this.gen = 0;
    this.nextId = 1;
    this.flight = []; // requests out, oldest first: {id, msg, layout, replies, resolve, reject, commands}
    this.queue = [];
    this.commands = []; // {msg, resolve}
    this.idleWaiters = [];
    this.memory = [];
  }

  /** True while a request is out. */
  get busy() {
    return this.flight.length > 0;
  }

  /** Cycles in the steps out: the workers' cycle once they are answered is the mirror's plus these. */
  get cyclesInFlight() {
    return this.flight.reduce((n, j) => n + (j.msg.cycles ?? 0), 0);
  }

  /** Starts workers 0..n−1 that are not running. */
  start(n) {
    for (let k = this.workers.length; k < n; k++) {
      const worker = new Worker(new URL('./sim-worker.js', import.meta.url), { type: 'module' });
      worker.onmessage = (e) => this.receive(k, e.data);
      worker.onerror = (e) => {
        e.preventDefault?.();
        // An uncaught error says what it was; a worker that could not load (or was ended)
        // fires a bare Event.
        this.fail(`a simulation worker failed: ${e.message || 'it stopped without a message (it could not load its code, or the browser ended it)'}`);
      };
      this.workers.push(worker);
    }
  }

  /**
   * Sends `msg` to the workers of `layout` after whatever is queued; resolves with the
   * merged reply.
   */
  request(msg, layout = { workers: 1, panes: 1 }) {
    return new Promise((resolve, reject) => {
      this.queue.push({ msg, layout, resolve, reject });
      this.pump();
    });
  }

  /**
   * Builds one simulation per config, spread over `workersFor` workers. Either all build and replace
   * the running ones (the reply has each one's static data and first snapshot, as a new
   * generation `gen`), or the reply lists the `problems` and nothing changes.
   */
  async create(configs, want) {
    const layout = { workers: workersFor(configs.length), panes: configs.length };
    // A test's global HIRADIX_CRASH_NEXT ('panic' or 'oom', see sim-worker.js) crashes the
    // workers in place of the next build, once.
    const crash = globalThis.HIRADIX_CRASH_NEXT;
    if (crash === 'panic' || crash === 'oom') {
      globalThis.HIRADIX_CRASH_NEXT = undefined;
      await this.request({ type: crash }, layout);
    }
    const staged = await this.request({ type: 'stage', configs }, layout);
    if (staged.problems.length) {
      await this.request({ type: 'discard' }, layout);
      return staged;
    }
    return this.request({ type: 'commit', gen: ++this.gen, want }, layout);
  }

  /** Would every config build? */
  async check(configs) {
    return (await this.request({ type: 'check', configs })).ok;
  }

  /** Test hooks: a Rust panic in the worker, or the worker dying of a failed allocation. */
  panic() {
    return this.request({ type: 'panic' }).catch(() => {});
  }

  outOfMemory() {
    return this.request({ type: 'oom' }).catch(() => {});
  }

  /**
   * Calls WebSim method `op` of pane `pane` (generation `gen`) with the next step;
   * resolves with its result. `answered` runs when the reply arrives, before the
   * snapshot is applied.
   */
  command(gen, pane, op, args = [], answered = null, { withCycle = false } = {}) {
    return new Promise((resolve) => {
      this.commands.push({ msg: { gen, pane, op, args }, resolve, answered, withCycle });
      this.pump();
    });
  }

  /**
   * Runs `fn` (which queues commands) and only then sends them: they all go with the same
   * step, so every pane applies them before that step's advance (e.g. a rewind of every
   * pane to the same cycle).
   */
  together(fn) {
    this.holding = (this.holding ?? 0) + 1;
    try {
      return fn();
    } finally {
      this.holding--;
      this.pump();
    }
  }

  /** Resolves once no request is out and none is waiting. */
  idle() {
    if (!this.flight.length && !this.queue.length && !this.commands.length) return Promise.resolve();
    return new Promise((ok) => this.idleWaiters.push(ok));
  }

  /** Sends what can go now. */
  pump() {
    while (!this.applying && !this.holding) {
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
        job = { msg: { type: 'step', ...step, commands: commands.map((c) => c.msg) }, layout: this.layout, commands, resolve: () => {}, reject: () => {} };
      }
      const { workers } = job.layout;
      this.start(workers);
      job.id = this.nextId++;
      job.replies = [];
      this.flight.push(job);
      for (let k = 0; k < workers; k++) this.workers[k].postMessage({ id: job.id, ...part(job.msg, k, job.layout) });
    }
  }

  /** Worker `k` answered: the oldest requests whose every worker answered are done, in order. */
  receive(k, reply) {
    // Each worker's memory as its own accounting sees it (src/web/budget.rs), for the
    // page's memory tests: {reserved, simulations, limit, heap, peak_heap}.
    if (reply.memory) this.memory[k] = reply.memory;
    const job = this.flight.find((j) => j.id === reply.id);
    if (!job) return;
    job.replies[k] = reply;
    while (this.flight.length && this.flight[0].replies.filter(Boolean).length === this.flight[0].layout.workers) {
      if (!this.finish(this.flight.shift())) return;
    }
    // After the caller's continuation (e.g. the page adopting new simulations).
    queueMicrotask(() => this.pump());
  }

  /** Hands a request's merged reply on; false if a worker failed (all were stopped). */
  finish(job) {
    const failed = job.replies.find((r) => r.error !== undefined);
    if (failed) {
      job.reject(new Error(failed.error));
      job.commands?.forEach((c) => {
        c.answered?.();
        c.resolve(undefined);
      });
      this.fail(failed.error);
      return false;
    }
    const reply = merge(job.msg, job.replies, job.layout);
    if (job.msg.type === 'commit') {
      // Workers beyond the new layout hold the replaced simulations: end them.
      this.layout = job.layout;
      this.workers.splice(job.layout.workers).forEach((w) => w.terminate());
    }
    if (job.msg.type === 'step') {
      job.commands.forEach((c) => c.answered?.());
      // Commands queued while the snapshot is applied go with the next step.
      this.applying = true;
      try {
        this.onSnapshot(reply, job.msg);
      } finally {
        this.applying = false;
      }
      // `withCycle`: {value, at}, at = the cycle the commands were applied at.
      job.commands.forEach((c, i) => c.resolve(c.withCycle ? { value: reply.results[i], at: reply.at } : reply.results[i]));
    }
    job.resolve(reply);
    return true;
  }

  /** A worker is unusable: drop them all and everything waiting on them. */
  fail(message) {
    this.stop();
    this.onCrash(message);
  }

  /** Ends the workers; the next request starts fresh ones. */
  stop() {
    this.workers.forEach((w) => w.terminate());
    this.workers = [];
    this.layout = { workers: 1, panes: 1 };
    const pending = [...this.flight, ...this.queue];
    this.flight = [];
    this.queue = [];
    for (const j of pending) {
      j.reject(new Error('the simulation workers were stopped'));
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

/** Pane `i` of `layout` runs in worker `i mod W` as its pane `⌊i / W⌋`. */
const home = (i, { workers }) => [i % workers, Math.floor(i / workers)];

/** What worker `k` gets of `msg`: its panes' configs, commands and inspected element. */
function part(msg, k, layout) {
  const mine = (i) => home(i, layout)[0] === k;
  const local = (i) => home(i, layout)[1];
  switch (msg.type) {
    case 'stage':
      return { ...msg, configs: msg.configs.filter((_, i) => mine(i)) };
    case 'step': {
      const d = msg.want.detail;
      const detail = d && mine(d.pane) ? { ...d, pane: local(d.pane) } : null;
      const commands = msg.commands.filter((c) => mine(c.pane)).map((c) => ({ ...c, pane: local(c.pane) }));
      return { ...msg, commands, want: { ...msg.want, detail } };
    }
    default:
      return msg;
  }
}

/** The workers' replies to `msg` as one reply over all panes, in pane order. */
function merge(msg, replies, layout) {
  if (replies.length === 1) return replies[0];
  const W = layout.workers;
  const global = (k, j) => k + j * W;
  const inOrder = (field) =>
    Array.from({ length: layout.panes }, (_, i) => {
      const [k, j] = home(i, layout);
      return replies[k][field][j];
    });
  // Each worker samples its panes' statistics once its first pane reaches the cycle asked
  // (the same cycle for all, in lock-step): the step has a sample when every worker took one.
  const sampled = replies.every((r) => r.sampled);
  switch (msg.type) {
    case 'stage':
      return { problems: replies.flatMap((r, k) => r.problems.map((p) => ({ ...p, index: global(k, p.index) }))).sort((a, b) => a.index - b.index) };
    case 'commit':
      return { ...replies[0], statics: inOrder('statics'), panes: inOrder('panes'), sampled };
    case 'step': {
      // Results in command order: each worker answered its own commands, in order.
      const next = replies.map(() => 0);
      const results = msg.commands.map((c) => {
        const [k] = home(c.pane, layout);
        return replies[k]?.results[next[k]++];
      });
      const stopped = replies.map((r, k) => r.stopped && { ...r.stopped, pane: global(k, r.stopped.pane) }).find(Boolean) ?? null;
      const ms = Math.max(...replies.map((r) => r.ms));
      return { ...replies[0], ms, results, stopped, panes: inOrder('panes'), sampled };
    }
    default:
      return replies[0];
  }
}
