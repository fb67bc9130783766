// The page's mirror of one pane's simulation, which runs in the simulation worker
// (www/sim/sim-worker.js). It answers the WebSim methods the page reads, synchronously: the
// network's static data (fetched once, when the simulation is built) and the latest
// snapshot the worker posted (the cycle, live counters, per-frame arrays, the inspected
// element's detail, the trace, statistics samples). Calls that change the simulation
// (the trace controls) become commands sent with the next step, as promises; `ask` runs
// any other WebSim method in the worker and resolves with its result.

export class RemoteSim {
  /**
   * @param client the SimClient
   * @param gen the worker's generation of simulations this pane belongs to
   * @param index the pane's index
   * @param data the network's static data: info, config, vcs, depth, positions, endpoints,
   *   groups, classes, failed (the JSON ones as strings, as WebSim returns them)
   * @param snap the pane's first snapshot
   */
  constructor(client, gen, index, data, snap) {
    this.client = client;
    this.gen = gen;
    this.index = index;
    this.data = data;
    this.info = data.info;
    this.snap = null;
    this.seq = 0; // snapshots applied
    this.utilization = null;
    this.traceValue = undefined;
    this.traceHold = 0; // trace commands not yet answered: older trace data is stale
    this.apply(snap);
  }

  /** A new snapshot from the worker. */
  apply(snap) {
    this.snap = snap;
    this.seq++;
    if (snap.utilization) this.utilization = snap.utilization;
    if (snap.trace !== undefined && this.traceHold === 0) this.traceValue = snap.trace;
  }

  // Static data.
  /** The config in effect changed in the worker (a load set while running, a rewind). */
  /** @param {import('../../pkg/hiradix.js').SimConfig} config */
  setConfig(config) {
    if (config && typeof config === 'object') this.data.config = config;
  }
  /** @returns {import('../../pkg/hiradix.js').NetworkInfo} */
  networkInfo() {
    return this.data.info;
  }
  /** @returns {import('../../pkg/hiradix.js').SimConfig} the config in effect (shared: clone it to change it) */
  config() {
    return this.data.config;
  }
  vcs() {
    return this.data.vcs;
  }
  bufferDepth() {
    return this.data.depth;
  }
  routerCount() {
    return this.info.routers;
  }
  routerPositions() {
    return this.data.positions;
  }
  channelEndpoints() {
    return this.data.endpoints;
  }
  routerGroups() {
    return this.data.groups;
  }
  channelClasses() {
    return this.data.classes;
  }
  /** Per channel, 1 = failed: as built; the page updates it after failing a link (`ask`). */
  failedChannels() {
    return this.data.failed ?? new Uint8Array(this.info.channels);
  }

  // The latest snapshot.
  now() {
    return this.snap.now;
  }
  /** @returns {import('../../pkg/hiradix.js').LiveCounters} the counters of the latest snapshot */
  liveCounters() {
    return this.snap.counters;
  }
  vcOccupancy() {
    return this.snap.vc;
  }
  channelOccupancy() {
    return this.snap.occupancy;
  }
  /** Smoothed in the worker, sampled only while shown: zeros until the first sample. */
  channelUtilization() {
    if (!this.utilization) this.utilization = new Float32Array(this.info.channels);
    return this.utilization;
  }
  routerInjectionOccupancy() {
    return this.snap.fill;
  }
  routerSourceQueues() {
    return this.snap.queue;
  }
  /** The snapshot's statistics sample (taken when the page asked for one). */
  latencyHistograms(bins) {
    const h = this.snap.sample?.hist;
    if (!h || h.length !== 2 * bins) throw new Error(`no latency histograms of ${bins} bins in this snapshot`);
    return h;
  }
  /** @returns {import('../../pkg/hiradix.js').Fig9Window | undefined} the snapshot's Fig. 9 window */
  globalChannelUtilization() {
    return this.snap.sample?.fig9 ?? undefined;
  }
  /**
   * The inspected router's detail, if the snapshot has it (the page asks for the selection's).
   * @param {number} r
   * @returns {import('../../pkg/hiradix.js').RouterDetail | undefined}
   */
  routerDetail(r) {
    return /** @type {import('../../pkg/hiradix.js').RouterDetail | undefined} */ (this.detail('router', r));
  }
  /**
   * @param {number} c
   * @returns {import('../../pkg/hiradix.js').ChannelDetail | undefined}
   */
  channelDetail(c) {
    return /** @type {import('../../pkg/hiradix.js').ChannelDetail | undefined} */ (this.detail('channel', c));
  }
  detail(kind, index) {
    const d = this.snap.detail;
    return d && d.kind === kind && d.index === index ? (d.value ?? undefined) : undefined;
  }
  /** @returns {import('../../pkg/hiradix.js').TraceView | undefined} the trace, until a trace command is answered */
  trace() {
    return this.traceValue;
  }

  // Commands: applied in the worker before its next step.
  traceNextAt(r) {
    return this.traceCommand('traceNextAt', [r]);
  }
  traceQueueHead(r, port, vc) {
    return this.traceCommand('traceQueueHead', [r, port, vc]);
  }
  traceClear() {
    return this.traceCommand('traceClear', []);
  }
  traceCommand(op, args) {
    this.traceHold++;
    this.traceValue = undefined;
    return this.client.command(this.gen, this.index, op, args, () => this.traceHold--);
  }

  /** Any WebSim method, run in the worker: resolves with its result. */
  ask(op, ...args) {
    return this.client.command(this.gen, this.index, op, args);
  }

  /** As `ask`, resolving with {value, at}: at = the cycle the call was made at. */
  askAt(op, ...args) {
    return this.client.command(this.gen, this.index, op, args, null, { withCycle: true });
  }

  // Teaching data of the latest snapshot (www/render/motion.js, www/model/decisions.js).
  /** `[channel, progress, step, nonminimal, followed, …]`, or null when not read. */
  packetsOnChannels() {
    return this.snap.packets ?? null;
  }
  /** `[routed0, nonminimal0, …]` cumulative per router, or null when not read. */
  routerDecisions() {
    return this.snap.decisions ?? null;
  }
  /** @returns {import('../../pkg/hiradix.js').Rewindable} how far back a rewind can go, and the memory its snapshots take */
  rewindable() {
    return this.snap.rewind ?? { earliest: 0, max_replay: 0, snapshots: 0, bytes: 0, budget: 0 };
  }

  /** The worker frees the simulation when the next ones replace it. */
  free() {}
}
