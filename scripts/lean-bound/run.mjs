// Runs a lean bound's wasm build in Node.js (V8) for CYCLES cycles:
//   node run.mjs WASM fb|df CYCLES
import { readFileSync } from 'node:fs';

const [file, which, n] = process.argv.slice(2);
const cycles = Number(n ?? 1000);
const { instance } = await WebAssembly.instantiate(readFileSync(file), {});
const run = instance.exports[`run_${which}`];
if (typeof run !== 'function') {
  console.error('usage: node run.mjs WASM fb|df CYCLES');
  process.exit(2);
}
const t = performance.now();
const delivered = run(cycles);
const ms = performance.now() - t;
console.log(`${delivered} delivered, ${ms > 0 ? ((cycles * 1000) / ms).toFixed(0) : 0} cycles/s`);
