// The wasm engine (pkg/) on one configuration, in Node.js (V8, the engine of Chromium):
// builds the simulation, advances `warmup` cycles, then times `cycles` cycles with the
// module's `benchAdvance`, and prints cycles/s.
//
//   node scripts/wasm-bench.mjs CONFIG_JSON [--warmup W] [--cycles C] [--pkg DIR]
//   node scripts/wasm-bench.mjs "$(target/release/hiradix bench --print-config dragonfly1k-ugal_l-0.3)"
//
// Timings on these shared machines drift by ±15 % from run to run. For a repeatable
// measure of an engine change in wasm, count the instructions V8's optimizing compiler's
// code executes instead (`scripts/count-instructions.sh` runs this script under callgrind,
// with `node --no-liftoff --no-wasm-lazy-compilation --single-threaded`, so that every
// function runs as TurboFan code).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const args = process.argv.slice(2);
const opt = (name, dflt) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1] : dflt;
};
const config = args[0];
if (!config || config.startsWith('--')) {
  console.error('usage: node scripts/wasm-bench.mjs CONFIG_JSON [--warmup W] [--cycles C] [--pkg DIR]');
  process.exit(2);
}
const warmup = Number(opt('warmup', 1000));
const cycles = Number(opt('cycles', 4000));
const pkg = opt('pkg', join(fileURLToPath(import.meta.url), '..', '..', 'pkg'));

const wasm = await import(pathToFileURL(join(pkg, 'hiradix.js')).href);
wasm.initSync({ module: readFileSync(join(pkg, 'hiradix_bg.wasm')) });
try {
  const [ms, packets] = wasm.benchAdvance(config, warmup, cycles, () => performance.now());
  const perSecond = cycles > 0 ? (cycles * 1000) / ms : 0;
  console.log(`${perSecond.toFixed(0)} cycles/s, ${cycles > 0 ? ((packets * 1000) / ms).toFixed(0) : 0} packets/s (${cycles} cycles after ${warmup})`);
} catch (e) {
  console.error(`wasm-bench: ${e?.message ?? e}`);
  process.exit(2);
}
