// Runs live simulations off the drawing thread. The page runs one such worker per pane
// (www/sim/sim-client.js), so side-by-side panes simulate in parallel; each worker owns the
// WebSims it is given and makes every call into them. The page keeps a mirror of each
// pane (www/sim/remote-sim.js) fed by the snapshots posted here, so it draws at the display's
// rate while the workers simulate. Messages (each answered before the next):
//
//  {type: 'stage', configs}   builds one simulation per config and keeps them aside; the
//      reply lists the problems, {index, errors: [{path, message}]} (the engine's
//      structured config errors), if any failed (then none is kept). The running
//      simulations are untouched, unless the new ones fit in the worker's memory budget
//      only without them: then they are freed first, and the reply says `replaced: true`.
//  {type: 'commit', gen, want}  the staged simulations replace the running ones, as
//      generation `gen`; the reply has each one's static data (with its failed channels)
//      and first snapshot.
//  {type: 'discard'}          drops the staged simulations.
//  {type: 'check', configs}   {ok}: would every config build? Nothing changes.
//  {type: 'step', cycles, commands, want}  applies the commands ({gen, pane, op, args}:
//      one of COMMANDS below, e.g. traceNextAt; results in order in `results`, a call that
//      throws an ordinary error answering {error: message} instead), advances every
//      simulation `cycles` cycles and answers with a snapshot of what `want` asks for:
//      {metric, detail: {pane, kind, index} | null, trace, sampleAt, bins, packets,
//      decisions} (packets: packetsOnChannels(), decisions: routerDecisions(); each pane's
//      snapshot also says how far back it can be rewound, `rewind`). `at` in the reply is the cycle the commands were applied at (before the
//      advance; the panes are in lock-step). A simulation whose deadlock watchdog trips
//      stops the advance, `stopped: {pane, message}`, and no step advances these
//      simulations again (a step the page sent meanwhile only snapshots).
//      The teaching commands (www/ui/time-control.js, www/ui/live-load.js) are WebSim calls too:
//      rewindTo(cycle) (every pane in one step, so they stay aligned), runUntil(kind,
//      router, maxCycles), advance(cycles) (the other panes after a runUntil), setLoad(load),
//      and failedChannels() / config() to re-read what a rewind undid.
//  {type: 'panic'}            panics on purpose (the page's test hook).
//  {type: 'oom'}              dies of memory that cannot grow, unanswered (the test hook
//      for a worker that runs out of memory).
//
// A Rust panic traps; the reply is then {error, trapped: true} (wasm-worker.js) and the
// page replaces its workers.
import { WebSim, checkConfig, memoryNeed, panicForTest, workerMemory } from '../../pkg/hiradix.js';
import { serve } from './wasm-worker.js';
import { messageOf } from '../lib/errors.js';

let panes = []; // {sim}
let staged = [];
let gen = 0;
let halted = false; // a watchdog tripped: these simulations advance no more

// A trap, or the engine's memory running out (a RangeError from the module's glue, e.g. an
// ArrayBuffer it could not allocate): after either the module is not to be trusted.
const isTrap = (e) => e instanceof WebAssembly.RuntimeError || e instanceof RangeError;

function stage({ configs }) {
  discard();
  const texts = configs.map((config) => JSON.stringify(config));
  // Every config is checked first (nothing allocated), so that building one can then fail
  // only on the worker's memory budget (src/web/budget.rs).
  const problems = [];
  texts.forEach((text, index) => {
    const errors = checkConfig(text);
    if (errors.length) problems.push({ index, errors });
  });
  if (problems.length) return { problems };
  // The running simulations are replaced on commit: when the new ones fit in the worker
  // only without them, they go first (a large experiment can then be changed at all).
  const need = texts.reduce((sum, text) => sum + memoryNeed(text), 0);
  const { reserved, limit } = workerMemory();
  let replaced = false;
  if (panes.length && reserved + need > limit && need <= limit) {
    for (const p of panes) p.sim.free();
    panes = [];
    halted = true;
    replaced = true;
  }
  texts.forEach((text, index) => {
    try {
      staged.push(new WebSim(text));
    } catch (e) {
      if (isTrap(e)) throw e;
      // Config problems come as [{path, message}] (src/web/mod.rs, field_errors).
      problems.push({ index, errors: Array.isArray(e) ? e : [{ path: '(config)', message: messageOf(e) }] });
    }
  });
  if (problems.length) discard();
  return { problems, replaced };
}

function discard() {
  staged.forEach((s) => s.free());
  staged = [];
  return {};
}

function commit({ gen: next, want }) {
  for (const p of panes) p.sim.free();
  panes = staged.map((sim) => ({ sim }));
  staged = [];
  gen = next;
  halted = false;
  const statics = panes.map(({ sim }) => ({
    info: sim.networkInfo(),
    config: sim.config(),
    vcs: sim.vcs(),
    depth: sim.bufferDepth(),
    positions: sim.routerPositions(),
    endpoints: sim.channelEndpoints(),
    groups: sim.routerGroups(),
    classes: sim.channelClasses(),
    failed: sim.failedChannels(),
  }));
  const transfer = statics.flatMap((s) => [s.positions.buffer, s.endpoints.buffer, s.groups.buffer, s.classes.buffer, s.failed.buffer]);
  // The first snapshot takes a statistics sample: the counters' starting point.
  const snap = snapshot({ ...want, sampleAt: 0 }, false, transfer);
  return { gen, statics, ...snap, transfer };
}

// The calls a step may carry for a pane ({gen, pane, op, args}: the trace controls, the
// time and load controls, failed links, the story's focus, and queries), each one WebSim
// method: the worker's whole protocol for them, so the page cannot call anything else.
const COMMANDS = {
  // Changes, replayed in order before the step's advance.
  advance: (sim, cycles) => sim.advance(cycles),
  rewindTo: (sim, cycle) => sim.rewindTo(cycle),
  runUntil: (sim, kind, router, maxCycles) => sim.runUntil(kind, router, maxCycles),
  setLoad: (sim, load) => sim.setLoad(load),
  setChannelFailed: (sim, channel, failed) => sim.setChannelFailed(channel, failed),
  traceNextAt: (sim, router) => sim.traceNextAt(router),
  traceQueueHead: (sim, router, port, vc) => sim.traceQueueHead(router, port, vc),
  traceClear: (sim) => sim.traceClear(),
  recordHopNotes: (sim, on) => sim.recordHopNotes(on),
  // Queries.
  channelLink: (sim, channel) => sim.channelLink(channel),
  linkChannel: (sim, a, b, trunk) => sim.linkChannel(a, b, trunk),
  config: (sim) => sim.config(),
  failedChannels: (sim) => sim.failedChannels(),
  focusChannels: (sim, focus) => sim.focusChannels(focus),
  liveCounters: (sim) => sim.liveCounters(),
  routerDecisions: (sim) => sim.routerDecisions(),
  routerDetail: (sim, router) => sim.routerDetail(router),
};

function step({ cycles, commands, want }) {
  const results = [];
  let traced = false;
  for (const c of commands) {
    const sim = c.gen === gen ? panes[c.pane]?.sim : null;
    let result;
    try {
      if (!Object.hasOwn(COMMANDS, c.op)) throw new Error(`unknown command '${String(c.op).slice(0, 40)}'`);
      result = sim ? COMMANDS[c.op](sim, ...c.args) : undefined;
    } catch (e) {
      if (isTrap(e)) throw e;
      // An ordinary error (e.g. runUntil's unknown router): the command's answer.
      result = { error: messageOf(e) };
    }
    results.push(result);
    if (c.op.startsWith('trace')) traced = true;
  }
  const at = panes.length ? panes[0].sim.now() : 0;
  let stopped = null;
  const advanced = halted ? 0 : cycles;
  const t0 = performance.now();
  if (advanced > 0) {
    for (let i = 0; i < panes.length; i++) {
      try {
        panes[i].sim.advance(cycles);
      } catch (e) {
        if (isTrap(e)) throw e;
        stopped = { pane: i, message: messageOf(e) };
        halted = true;
        break;
      }
    }
  }
  const ms = performance.now() - t0;
  const transfer = [];
  const memory = workerMemory();
  return { gen, cycles: advanced, at, ms, results, stopped, memory, ...snapshot(want, traced, transfer), transfer };
}

/**
 * What the page draws and shows, per pane: the cycle, the live counters, the per-frame
 * arrays, and as asked the inspected element's detail, the trace and a statistics sample.
 */
function snapshot(want, traced, transfer) {
  const sample = panes.length > 0 && panes[0].sim.now() >= want.sampleAt;
  const out = panes.map(({ sim }, i) => {
    const s = {
      now: sim.now(),
      counters: sim.liveCounters(),
      vc: sim.vcOccupancy(),
      occupancy: sim.channelOccupancy(),
      fill: sim.routerInjectionOccupancy(),
      queue: sim.routerSourceQueues(),
    };
    // Utilization samples the counters since its last call: only read while it is shown.
    if (want.metric === 'utilization') s.utilization = sim.channelUtilization();
    if (want.trace || traced) s.trace = sim.trace();
    // How far back a rewind can go: three numbers.
    s.rewind = sim.rewindable();
    // The packets on the channels cost per packet: read only while the page draws them
    // (slow speeds, small networks; www/render/motion.js). The decision counts while shown.
    if (want.packets) s.packets = sim.packetsOnChannels();
    if (want.decisions) s.decisions = sim.routerDecisions();
    const d = want.detail;
    if (d && d.pane === i) {
      // Per-hop decision notes (DAL's) cost the engine time: recorded once someone looks
      // at a router (the algorithms without them ignore it).
      if (d.kind === 'router') sim.recordHopNotes(true);
      s.detail = { kind: d.kind, index: d.index, value: (d.kind === 'router' ? sim.routerDetail(d.index) : sim.channelDetail(d.index)) ?? null };
    }
    if (sample) s.sample = { hist: sim.latencyHistograms(want.bins), fig9: sim.globalChannelUtilization() ?? null };
    for (const a of [s.vc, s.occupancy, s.fill, s.queue, s.utilization, s.sample?.hist, s.packets, s.decisions]) if (a) transfer.push(a.buffer);
    return s;
  });
  return { panes: out, sampled: sample };
}

serve((msg) => {
  switch (msg.type) {
    case 'stage':
      return stage(msg);
    case 'commit':
      return commit(msg);
    case 'discard':
      return discard();
    case 'check':
      return { ok: msg.configs.every((c) => checkConfig(JSON.stringify(c)).length === 0) };
    case 'step':
      return step(msg);
    case 'panic':
      panicForTest();
      return {};
    case 'oom':
      // Never answered: the worker dies of memory that cannot grow, outside any call, as
      // when wasm32's 4 GiB or the browser's memory run out (the page's test hook; the
      // page hears of it through worker.onerror).
      return new Promise(() => setTimeout(() => new WebAssembly.Memory({ initial: 1, maximum: 1 }).grow(1)));
    default:
      throw new Error(`sim-worker: unknown message type ${msg.type}`);
  }
});
