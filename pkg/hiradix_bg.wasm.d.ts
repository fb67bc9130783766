/* tslint:disable */
/* eslint-disable */
export const memory: WebAssembly.Memory;
export const __wbg_websim_free: (a: number, b: number) => void;
export const catalogJson: () => [number, number];
export const lastPanic: () => [number, number];
export const panicForTest: () => void;
export const start: () => void;
export const websim_advance: (a: number, b: number) => [number, number];
export const websim_channelCount: (a: number) => number;
export const websim_channelEndpoints: (a: number) => [number, number];
export const websim_channelOccupancy: (a: number) => [number, number];
export const websim_channelUtilization: (a: number) => [number, number];
export const websim_configJson: (a: number) => [number, number];
export const websim_liveCounters: (a: number) => [number, number];
export const websim_new: (a: number, b: number) => [number, number, number];
export const websim_now: (a: number) => number;
export const websim_routerBacklog: (a: number) => [number, number];
export const websim_routerCount: (a: number) => number;
export const websim_routerPositions: (a: number) => [number, number];
export const websim_terminalCount: (a: number) => number;
export const __wbindgen_free: (a: number, b: number, c: number) => void;
export const __wbindgen_malloc: (a: number, b: number) => number;
export const __wbindgen_realloc: (a: number, b: number, c: number, d: number) => number;
export const __wbindgen_externrefs: WebAssembly.Table;
export const __externref_table_dealloc: (a: number) => void;
export const __wbindgen_start: () => void;
