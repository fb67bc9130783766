// Runs the wasm build of the lean bound for N cycles in Node.js (V8):
//   node run.mjs WASM N
import { readFileSync } from 'node:fs';
const [file, n] = process.argv.slice(2);
const cycles = Number(n ?? 1000);
const { instance } = await WebAssembly.instantiate(readFileSync(file), {});
const t = performance.now();
const delivered = instance.exports.run(cycles);
const ms = performance.now() - t;
console.log(`${delivered} delivered, ${ms > 0 ? ((cycles * 1000) / ms).toFixed(0) : 0} cycles/s`);
