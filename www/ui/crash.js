// When the simulator itself stops — a Rust panic traps the wasm module, an allocation
// fails (wasm32 has at most 4 GiB, a browser tab often less), or a worker dies — the page
// keeps the visitor's experiment (settings and URL) as it was and says what happened in
// plain words (www/main.js showCrash). It offers to try again and to reload the experiment
// smaller: the same experiment in one pane, with its largest buffers and queues halved.

import { clip } from '../lib/dom.js';
import { clone, formatValue, getPath, setPath } from '../model/experiment.js';

// The messages of a failed allocation: Rust's "capacity overflow" (an array over wasm32's
// 2 GiB) and "memory allocation of N bytes failed", the browser's own (an ArrayBuffer too
// large or not allocated, the module's memory that cannot grow), and a bare `unreachable`
// trap: every other failure of the engine panics with a message first, while a failed
// allocation aborts without one.
const MEMORY_MESSAGES = [
  /capacity overflow/i,
  /memory allocation of \d+ bytes failed/i,
  /out of memory/i,
  /allocation failed/i,
  /invalid array buffer length/i,
  /cannot allocate/i,
  /memory\.grow|maximum memory size/i,
  /^(RuntimeError: )?unreachable( executed)?$/i,
];

/** Whether a crash's message (a panic's, a trap's or a dying worker's) is a memory failure. */
export const isMemoryFailure = (message) => MEMORY_MESSAGES.some((re) => re.test(String(message ?? '').trim()));

/**
 * What the banner says about a crash: {memory, title, text}. `message` is the panic's or
 * error's own text (shown after the plain words, for a bug report), `panes` the panes of
 * the experiment that stopped, `smaller` whether it can be reloaded smaller.
 */
export function describeCrash(message, panes = 1, smaller = false) {
  const memory = isMemoryFailure(message);
  const detail = String(message ?? '')
    .split('\n')
    .slice(0, 12)
    .map((line) => clip(line, 300))
    .join('\n');
  const simulations = panes > 1 ? `these ${panes} simulations need` : 'this simulation needs';
  const next = smaller ? 'try again, or reload it smaller' : 'try again';
  const plain = memory
    ? `The simulator ran out of memory: ${simulations} more than the browser gives a page (at most 4 GiB, often less). Your experiment and its link are kept as they were: ${next}.`
    : `The simulator stopped because of an internal error (a bug in hiradix, not in your settings). Your experiment and its link are kept as they were: ${next}.`;
  return {
    memory,
    title: memory ? 'The simulator ran out of memory.' : 'The simulator stopped with an internal error.',
    text: detail ? `${plain}\n\nWhat it reported: ${detail}` : plain,
  };
}

// The sizes that weigh most in a simulation's memory (src/sim/memory.rs), each with the
// least it is halved to: a VC buffer holds a whole packet (virtual cut-through).
const SIZES = [
  { path: 'router.buffer_depth', least: (c, d) => Math.max(d, c.traffic.packet_size) },
  { path: 'router.buffer_per_port', least: (c) => c.traffic.packet_size * c.router.vcs },
  { path: 'router.output_queue', least: (c) => 2 * c.router.speedup },
  { path: 'traffic.source_queue_cap', least: (c, d) => d },
];

/**
 * The experiment reloaded smaller: {experiment, changes} (one sentence per change), or
 * null if it cannot be smaller without changing the network. Side-by-side panes become
 * the first pane alone; every size in SIZES above its default (or its least) is halved.
 */
export function smallerExperiment(exp, model) {
  const out = clone(exp);
  const changes = [];
  const values = out.compare?.values ?? [];
  if (values.length > 1) {
    setPath(out.config, out.compare.param, clone(values[0]));
    changes.push(`one pane instead of ${values.length} (the first: ${out.compare.param} = ${clip(formatValue(values[0]), 60)})`);
    out.compare = null;
  }
  const defaults = model.defaultsFor(out.config.topology?.type);
  for (const { path, least } of SIZES) {
    const v = getPath(out.config, path);
    if (typeof v !== 'number' || !Number.isFinite(v)) continue;
    const floor = least(out.config, getPath(defaults, path) ?? 1);
    const next = Math.max(Math.ceil(v / 2), floor);
    if (next < v) {
      setPath(out.config, path, next);
      changes.push(`${path} ${v} → ${next}`);
    }
  }
  return changes.length ? { experiment: out, changes } : null;
}
