/* tslint:disable */
/* eslint-disable */

/**
 * One simulation as the page sees it.
 *
 * Every packet is labeled (the measurement window is the whole run), so the engine's
 * minimal / non-minimal latency accumulators cover all delivered packets and the page can
 * plot their split over time (dragonfly paper Figs. 11–12). The papers' methodology with a
 * warm-up and a drained window is what [`super::run_experiment`] runs for the sweep.
 */
export class WebSim {
    free(): void;
    [Symbol.dispose](): void;
    /**
     * Advances the simulation by `cycles` cycles (keeping snapshots for rewinding). Fails
     * (and stays put) when the deadlock watchdog trips; the message names the blocked
     * routers and VCs.
     */
    advance(cycles: number): void;
    /**
     * Flits per VC buffer.
     */
    bufferDepth(): number;
    /**
     * Per channel: 1 for a dragonfly global channel, 0 otherwise.
     */
    channelClasses(): Uint8Array;
    /**
     * Number of (unidirectional) router-to-router channels.
     */
    channelCount(): number;
    /**
     * Channel `c` as JSON: `{channel, src, src_port, dst, dst_port, class, dim, flits[vc],
     * credits[vc], committed[vc], queue[vc], sent, utilization, td}`.
     */
    channelDetail(c: number): string | undefined;
    /**
     * Per channel: its dimension (HyperX family; 0 elsewhere).
     */
    channelDims(): Uint8Array;
    /**
     * Channel endpoints, `[src0, dst0, src1, dst1, …]` as router indices. Each direction of
     * a link is its own channel, and parallel (trunked) links appear once each.
     */
    channelEndpoints(): Uint32Array;
    /**
     * The link of channel `channel` as `faults.links` names it: `[router, router, trunk]`
     * (trunk: its index among the parallel links of the pair, in port order at the first
     * router); empty for a channel that does not exist.
     */
    channelLink(channel: number): Uint32Array;
    /**
     * Per-channel queue occupancy in `[0, 1]`: flits buffered in the downstream input
     * port the channel feeds (all its VCs) over that port's buffer capacity.
     */
    channelOccupancy(): Float32Array;
    /**
     * Per-channel utilization in `[0, 1]`: flits sent per cycle, smoothed exponentially
     * with a time constant of [`UTILIZATION_TIME_CONSTANT`] cycles (so that stepping one
     * cycle per frame does not flicker). Each call samples the counters since the last.
     */
    channelUtilization(): Float32Array;
    /**
     * The configuration in effect (with the load set while running), with every default
     * filled in, as pretty JSON.
     */
    configJson(): string;
    /**
     * Per channel: 1 if its link has failed.
     */
    failedChannels(): Uint8Array;
    /**
     * Dragonfly paper Fig. 9: the utilization of a group's global channels, by class
     * (the minimal channel towards group `G + shift`, the other channels of its router,
     * all others), averaged over the groups, over the cycles since the previous call.
     * JSON of [`crate::stats::dragonfly::GlobalChannelUtilization`] plus `cycles`; `None`
     * if the network is not a dragonfly or no cycle passed.
     */
    globalChannelUtilization(): string | undefined;
    /**
     * Cumulative latency histograms of delivered packets, one-cycle bins `0..bins` (the
     * last bin also counts everything larger): the minimally routed packets' bins, then
     * the non-minimally routed packets' bins.
     */
    latencyHistograms(bins: number): Uint32Array;
    /**
     * The cumulative counters for live statistics, as an object named by
     * [`crate::stats::LiveCounters`] (`{generated, delivered, delivered_flits, …}`).
     */
    liveCounters(): any;
    /**
     * What the page needs to know about the network, as JSON: `{type, family, routers,
     * terminals, channels, vcs, depth, packet_size, terminal_period, groups, group_kind,
     * batch, batch_size, algorithm, sequential}` plus the family's shape (the dragonfly's
     * `p, a, h, g`; the HyperX family's `dims, trunking, t`).
     */
    networkInfo(): string;
    /**
     * Builds a simulation from a JSON config (the same format as the CLI's). Throws every
     * config problem as `[{path, message}]`.
     */
    constructor(config_json: string);
    /**
     * The current cycle.
     */
    now(): number;
    /**
     * The packets on router-to-router channels now, five numbers each: `[channel,
     * progress, step, nonminimal, followed, …]` — `progress` in `(0, 1]` is how far the
     * packet has travelled along the channel at the end of the last cycle and `step` how
     * far it moves per cycle (1 / the channel's latency), so a slow animation can glide
     * from `progress − step` to `progress`; `nonminimal` is 1 for a packet routed off its
     * minimal path; `followed` is 1 for the packet the trace follows.
     */
    packetsOnChannels(): Float32Array;
    /**
     * Starts (or stops) recording the numbers behind every per-hop routing decision
     * (DAL); `routerDetail` then shows the last one at each router as `hop_note`. Off by
     * default: it costs the engine time.
     */
    recordHopNotes(on: boolean): void;
    /**
     * Goes back to cycle `cycle` (clamped to what the history holds), exactly as it was
     * first reached there; what was done after it (load changes, failed links) is undone.
     * Returns the cycle reached.
     */
    rewindTo(cycle: number): number;
    /**
     * How far back [`WebSim::rewind_to`] can go: `{earliest, max_replay, snapshots,
     * bytes, budget}`.
     */
    rewindable(): any;
    /**
     * Number of routers.
     */
    routerCount(): number;
    /**
     * Per router, the routing decisions counted since the start: `[routed0, nonminimal0,
     * routed1, …]` — packets routed onto a router-to-router channel there, and those sent
     * off their minimal path there (UGAL's choice of Valiant at the source, DAL's deroute).
     */
    routerDecisions(): Float64Array;
    /**
     * Everything about router `r` as JSON: `{router, group, coords, load, ports: [{port,
     * class, dim, peer_router, peer_port, terminal, in_flits[vc], out: {flits, credits,
     * committed, queue}[vc], port_queue, output_queue, sent, td}], note}` where `note` is the
     * last adaptive routing decision taken here (`q_min, h_min, q_nonmin, h_nonmin, q_true,
     * chose_minimal, cycle, src, dst`) or null, and `hop_note` the last per-hop decision
     * (DAL, while recording: see `recordHopNotes`) or null.
     */
    routerDetail(r: number): string | undefined;
    /**
     * Per router, the structural block it is drawn in: its group (dragonfly), its tile of
     * the dimensions above the first two (HyperX family), else 0.
     */
    routerGroups(): Uint32Array;
    /**
     * Per-router injection occupancy in `[0, 1]`: flits buffered in the input VCs of the
     * router's terminal ports (packets injected but not yet switched) over their capacity.
     * It rises when a router cannot accept its terminals' traffic.
     */
    routerInjectionOccupancy(): Float32Array;
    /**
     * Router drawing coordinates, `[x0, y0, x1, y1, …]`, each in `[0, 1]`.
     */
    routerPositions(): Float32Array;
    /**
     * Per router, the mean number of packets waiting in the source queues of the
     * terminals that inject there (grows without bound past saturation, up to the cap).
     */
    routerSourceQueues(): Float32Array;
    /**
     * Runs until an event, at most `max_cycles` cycles: `decision` — the next routing
     * decision at router `arg`; `nonminimal` — the next packet sent off its minimal path
     * at router `arg`; `saturated` — the first saturated channel: one of the VC buffers it
     * feeds is full, so the packets routed to that VC wait upstream (backpressure).
     * Returns `{cycles, reached, channel, error}`.
     */
    runUntil(kind: string, arg: number, max_cycles: number): any;
    /**
     * Fails (`failed`) or restores the link of channel `channel` (both of its directions)
     * while the simulation runs (HyperX §6; `Simulation::set_link_failed` states what
     * happens to packets under way). Returns `""`, or why it was refused (a failure that
     * would disconnect the network, or a channel that does not exist).
     */
    setChannelFailed(channel: number, failed: boolean): string;
    /**
     * Changes the offered load while running (`traffic.load`'s range). Returns an empty
     * array, or the errors as `[{path, message}]`. Rewinding past the change undoes it.
     */
    setLoad(load: number): any;
    /**
     * Number of terminals.
     */
    terminalCount(): number;
    /**
     * Stops following.
     */
    traceClear(): void;
    /**
     * The trace as JSON: `{armed, now, trace}`, where `armed` is the router whose next
     * generated packet will be followed (or null) and `trace` null or `{src, dst,
     * src_router, dst_router, created, delivered, delivered_at, nonminimal, hops: [{router,
     * in_port, in_vc, arrived, injected, out_port, out_vc, left, next_router, channel,
     * class, dim}], in_source}` — one hop per router visited, `left` null while the packet
     * is there; no hops while it waits in its source queue (`in_source`).
     */
    traceJson(): string;
    /**
     * Follows the next packet generated at a terminal of router `r` (the same packet in
     * panes that differ only in routing).
     */
    traceNextAt(r: number): boolean;
    /**
     * Follows the packet at the head of input VC `vc` of port `port` of router `r`;
     * false if that VC is empty.
     */
    traceQueueHead(r: number, port: number, vc: number): boolean;
    /**
     * Per channel and VC, the flits buffered in the downstream input VC the channel feeds:
     * channel `c`'s VC `v` at `c·V + v`.
     */
    vcOccupancy(): Uint16Array;
    /**
     * Virtual channels per port.
     */
    vcs(): number;
}

/**
 * Engine speed in the browser: builds a configuration, runs `warmup` cycles, then times
 * `cycles` more with the caller's clock `now_ms` (e.g. `() => performance.now()`) and
 * returns `[milliseconds, packets delivered meanwhile]`. The same measurement as the
 * native `hiradix bench`; `scripts/measure-web-speed.mjs` compares the two.
 */
export function benchAdvance(config_json: string, warmup: number, cycles: number, now_ms: Function): Float64Array;

/**
 * The catalog of topologies, routing algorithms, traffic patterns and parameters, as
 * JSON (see [`crate::catalog`]); the page builds its controls from it.
 */
export function catalogJson(): string;

/**
 * Checks a configuration without running it: `[]` when it builds, else every problem as
 * `[{path, message}]`, each with the dotted path of its field.
 */
export function checkConfig(config_json: string): any;

/**
 * The analytic plots (FB paper Figs. 10, 11, 13, 15; dragonfly paper Figs. 2, 19) and
 * every topology at `N`, as JSON (see [`explore::figures`]). Milliseconds: run it on the
 * page's thread.
 */
export function costFigures(nodes: string, radix: string, beta: string): string;

/**
 * The HyperX design search for `(N, R, β)` and Fig. 8 for radix `R`, as JSON (see
 * [`explore::hyperx`]). Dozens of searches: the page runs it in `www/cost-worker.js`.
 */
export function costHyperx(nodes: string, radix: string, beta: string): string;

/**
 * Checks the inputs: `{nodes, radix, beta}` as JSON, or an exception (see the module docs).
 */
export function costQuery(nodes: string, radix: string, beta: string): string;

/**
 * The message of the last Rust panic, if any (the page shows it in its error banner).
 */
export function lastPanic(): string | undefined;

/**
 * The most a simulation of `config_json` can reserve when it is built ([`reserve`]: its
 * estimate and a full rewind budget twice), or NaN for a configuration that does not
 * read or validate. The worker compares the sum over an experiment's panes with what is
 * free before building them.
 */
export function memoryNeed(config_json: string): number;

/**
 * Panics on purpose, so the page's tests can check that a panic shows the error banner
 * instead of killing the page.
 */
export function panicForTest(): void;

/**
 * Runs one configuration with the papers' methodology (warm-up, labeled window, drain;
 * see [`crate::experiment`]) and returns `{summary, batch_normalized_latency}`, the
 * summary named as the CLI's JSON names it ([`crate::stats::Summary`]). Used by the
 * page's load–latency sweep, which calls it from a Web Worker so the page keeps
 * animating. Throws config problems as `[{path, message}]`, a deadlock as an `Error`.
 */
export function runExperiment(config_json: string): any;

export function start(): void;

/**
 * `{reserved, simulations, peak_reserved, limit, heap, peak_heap}`: the worker's budget and the heap it
 * really uses (the page's memory tests compare the two).
 */
export function workerMemory(): any;

export type InitInput = RequestInfo | URL | Response | BufferSource | WebAssembly.Module;

export interface InitOutput {
    readonly memory: WebAssembly.Memory;
    readonly __wbg_websim_free: (a: number, b: number) => void;
    readonly benchAdvance: (a: number, b: number, c: number, d: number, e: any) => [number, number, number, number];
    readonly catalogJson: () => [number, number];
    readonly checkConfig: (a: number, b: number) => any;
    readonly costFigures: (a: number, b: number, c: number, d: number, e: number, f: number) => [number, number, number, number];
    readonly costHyperx: (a: number, b: number, c: number, d: number, e: number, f: number) => [number, number, number, number];
    readonly costQuery: (a: number, b: number, c: number, d: number, e: number, f: number) => [number, number, number, number];
    readonly lastPanic: () => [number, number];
    readonly memoryNeed: (a: number, b: number) => number;
    readonly panicForTest: () => void;
    readonly runExperiment: (a: number, b: number) => [number, number, number];
    readonly start: () => void;
    readonly websim_advance: (a: number, b: number) => [number, number];
    readonly websim_bufferDepth: (a: number) => number;
    readonly websim_channelClasses: (a: number) => [number, number];
    readonly websim_channelCount: (a: number) => number;
    readonly websim_channelDetail: (a: number, b: number) => [number, number];
    readonly websim_channelDims: (a: number) => [number, number];
    readonly websim_channelEndpoints: (a: number) => [number, number];
    readonly websim_channelLink: (a: number, b: number) => [number, number];
    readonly websim_channelOccupancy: (a: number) => [number, number];
    readonly websim_channelUtilization: (a: number) => [number, number];
    readonly websim_configJson: (a: number) => [number, number];
    readonly websim_failedChannels: (a: number) => [number, number];
    readonly websim_globalChannelUtilization: (a: number) => [number, number];
    readonly websim_latencyHistograms: (a: number, b: number) => [number, number];
    readonly websim_liveCounters: (a: number) => any;
    readonly websim_networkInfo: (a: number) => [number, number];
    readonly websim_new: (a: number, b: number) => [number, number, number];
    readonly websim_now: (a: number) => number;
    readonly websim_packetsOnChannels: (a: number) => [number, number];
    readonly websim_recordHopNotes: (a: number, b: number) => void;
    readonly websim_rewindTo: (a: number, b: number) => number;
    readonly websim_rewindable: (a: number) => any;
    readonly websim_routerCount: (a: number) => number;
    readonly websim_routerDecisions: (a: number) => [number, number];
    readonly websim_routerDetail: (a: number, b: number) => [number, number];
    readonly websim_routerGroups: (a: number) => [number, number];
    readonly websim_routerInjectionOccupancy: (a: number) => [number, number];
    readonly websim_routerPositions: (a: number) => [number, number];
    readonly websim_routerSourceQueues: (a: number) => [number, number];
    readonly websim_runUntil: (a: number, b: number, c: number, d: number, e: number) => [number, number, number];
    readonly websim_setChannelFailed: (a: number, b: number, c: number) => [number, number];
    readonly websim_setLoad: (a: number, b: number) => any;
    readonly websim_terminalCount: (a: number) => number;
    readonly websim_traceClear: (a: number) => void;
    readonly websim_traceJson: (a: number) => [number, number];
    readonly websim_traceNextAt: (a: number, b: number) => number;
    readonly websim_traceQueueHead: (a: number, b: number, c: number, d: number) => number;
    readonly websim_vcOccupancy: (a: number) => [number, number];
    readonly websim_vcs: (a: number) => number;
    readonly workerMemory: () => any;
    readonly __wbindgen_exn_store: (a: number) => void;
    readonly __externref_table_alloc: () => number;
    readonly __wbindgen_externrefs: WebAssembly.Table;
    readonly __wbindgen_free: (a: number, b: number, c: number) => void;
    readonly __wbindgen_malloc: (a: number, b: number) => number;
    readonly __wbindgen_realloc: (a: number, b: number, c: number, d: number) => number;
    readonly __externref_table_dealloc: (a: number) => void;
    readonly __wbindgen_start: () => void;
}

export type SyncInitInput = BufferSource | WebAssembly.Module;

/**
 * Instantiates the given `module`, which can either be bytes or
 * a precompiled `WebAssembly.Module`.
 *
 * @param {{ module: SyncInitInput }} module - Passing `SyncInitInput` directly is deprecated.
 *
 * @returns {InitOutput}
 */
export function initSync(module: { module: SyncInitInput } | SyncInitInput): InitOutput;

/**
 * If `module_or_path` is {RequestInfo} or {URL}, makes a request and
 * for everything else, calls `WebAssembly.instantiate` directly.
 *
 * @param {{ module_or_path: InitInput | Promise<InitInput> }} module_or_path - Passing `InitInput` directly is deprecated.
 *
 * @returns {Promise<InitOutput>}
 */
export default function __wbg_init (module_or_path?: { module_or_path: InitInput | Promise<InitInput> } | InitInput | Promise<InitInput>): Promise<InitOutput>;
