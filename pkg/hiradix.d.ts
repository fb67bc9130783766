/* tslint:disable */
/* eslint-disable */

/**
 * One simulation as the page sees it.
 */
export class WebSim {
    free(): void;
    [Symbol.dispose](): void;
    /**
     * Advances the simulation by `cycles` cycles. Fails (and stays put) when the deadlock
     * watchdog trips; the message names the blocked routers and VCs.
     */
    advance(cycles: number): void;
    /**
     * Number of (unidirectional) router-to-router channels.
     */
    channelCount(): number;
    /**
     * Channel endpoints, `[src0, dst0, src1, dst1, …]` as router indices. Each direction of
     * a link is its own channel, and parallel (trunked) links appear once each.
     */
    channelEndpoints(): Uint32Array;
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
     * The configuration in effect, with every default filled in, as pretty JSON.
     */
    configJson(): string;
    /**
     * Cumulative counters for live statistics, `[generated packets, delivered packets,
     * delivered flits, sum of delivered packets' latencies, sum of their hops, packets in
     * the network, packets in source queues, packets dropped at full source queues,
     * delivered packets that were routed non-minimally]`.
     */
    liveCounters(): Float64Array;
    /**
     * Builds a simulation from a JSON config (the same format as the CLI's). The error's
     * message lists every config problem, one `path: message` per line.
     */
    constructor(config_json: string);
    /**
     * The current cycle.
     */
    now(): number;
    /**
     * Per-router terminal backlog in `[0, 1]`: packets waiting in the source queues of the
     * router's terminals over their capacity (`traffic.source_queue_cap` each). Near 0
     * below saturation; it grows to 1 when the network cannot accept the offered load.
     */
    routerBacklog(): Float32Array;
    /**
     * Number of routers.
     */
    routerCount(): number;
    /**
     * Router drawing coordinates, `[x0, y0, x1, y1, …]`, each in `[0, 1]`.
     */
    routerPositions(): Float32Array;
    /**
     * Number of terminals.
     */
    terminalCount(): number;
}

/**
 * The catalog of topologies, routing algorithms, traffic patterns and parameters, as
 * JSON (see [`crate::catalog`]); the page builds its controls from it.
 */
export function catalogJson(): string;

/**
 * The message of the last Rust panic, if any (the page shows it in its error banner).
 */
export function lastPanic(): string | undefined;

/**
 * Panics on purpose, so the page's tests can check that a panic shows the error banner
 * instead of killing the page.
 */
export function panicForTest(): void;

export function start(): void;

export type InitInput = RequestInfo | URL | Response | BufferSource | WebAssembly.Module;

export interface InitOutput {
    readonly memory: WebAssembly.Memory;
    readonly __wbg_websim_free: (a: number, b: number) => void;
    readonly catalogJson: () => [number, number];
    readonly lastPanic: () => [number, number];
    readonly panicForTest: () => void;
    readonly start: () => void;
    readonly websim_advance: (a: number, b: number) => [number, number];
    readonly websim_channelCount: (a: number) => number;
    readonly websim_channelEndpoints: (a: number) => [number, number];
    readonly websim_channelOccupancy: (a: number) => [number, number];
    readonly websim_channelUtilization: (a: number) => [number, number];
    readonly websim_configJson: (a: number) => [number, number];
    readonly websim_liveCounters: (a: number) => [number, number];
    readonly websim_new: (a: number, b: number) => [number, number, number];
    readonly websim_now: (a: number) => number;
    readonly websim_routerBacklog: (a: number) => [number, number];
    readonly websim_routerCount: (a: number) => number;
    readonly websim_routerPositions: (a: number) => [number, number];
    readonly websim_terminalCount: (a: number) => number;
    readonly __wbindgen_free: (a: number, b: number, c: number) => void;
    readonly __wbindgen_malloc: (a: number, b: number) => number;
    readonly __wbindgen_realloc: (a: number, b: number, c: number, d: number) => number;
    readonly __wbindgen_externrefs: WebAssembly.Table;
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
