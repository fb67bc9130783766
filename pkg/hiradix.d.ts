/* tslint:disable */
/* eslint-disable */

/**
 * One simulation as the page sees it.
 */
export class WebSim {
    free(): void;
    [Symbol.dispose](): void;
    /**
     * Advances the simulation by `cycles` cycles.
     */
    advance(cycles: number): void;
    /**
     * Number of (unidirectional) router-to-router channels.
     */
    channelCount(): number;
    /**
     * Channel endpoints, `[src0, dst0, src1, dst1, …]` as router indices. Both directions
     * of a link appear as separate channels.
     */
    channelEndpoints(): Uint32Array;
    /**
     * Per-channel occupancy of the downstream input buffers, as a fraction in `[0, 1]`.
     */
    channelOccupancy(): Float32Array;
    /**
     * Builds a simulation from a JSON config; the error's message lists every config
     * problem, one per line.
     */
    constructor(config_json: string);
    /**
     * The current cycle.
     */
    now(): number;
    /**
     * Number of routers.
     */
    routerCount(): number;
    /**
     * Router drawing coordinates, `[x0, y0, x1, y1, …]`, each in `[0, 1]`.
     */
    routerPositions(): Float32Array;
}

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
    readonly lastPanic: () => [number, number];
    readonly panicForTest: () => void;
    readonly start: () => void;
    readonly websim_advance: (a: number, b: number) => void;
    readonly websim_channelCount: (a: number) => number;
    readonly websim_channelEndpoints: (a: number) => [number, number];
    readonly websim_channelOccupancy: (a: number) => [number, number];
    readonly websim_new: (a: number, b: number) => [number, number, number];
    readonly websim_now: (a: number) => number;
    readonly websim_routerCount: (a: number) => number;
    readonly websim_routerPositions: (a: number) => [number, number];
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
