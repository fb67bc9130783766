// Same configuration and seed ⇒ identical results, natively and in the browser: the wasm
// build (pkg/, `runExperiment`, run in the page in headless Chromium) and the native
// command-line tool (`hiradix run --json`) give the very same summary — every counter,
// latency, percentile and throughput — on configurations that exercise every topology
// family, adaptive routing with its random choices, UGAL-L_CR's delayed credits, batch
// mode, pipeline delays, iSLIP and multi-flit packets.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT } from './harness.mjs';
import { setup } from './page-helpers.mjs';

const SHORT = { warmup: 300, measure: 500 };
const CONFIGS = {
  'the 1K dragonfly of the benchmark, UGAL-L': {
    topology: { type: 'dragonfly', p: 4, a: 8, h: 4, g: 33 },
    routing: { algorithm: 'ugal_l' },
    traffic: { pattern: 'uniform', load: 0.3 },
    router: { vcs: 3, buffer_depth: 16 },
  },
  'dragonfly UGAL-L_CR, group shift': {
    topology: { type: 'dragonfly', p: 2, a: 4, h: 2, g: 9 },
    routing: { algorithm: 'ugal_l_cr' },
    traffic: { pattern: 'group_shift', load: 0.35 },
    router: { vcs: 3 },
  },
  'two sliced dragonflies, a failed link in slice 1, random slices': {
    topology: { type: 'dragonfly', p: 2, a: 4, h: 2, g: 5, slices: 2, slice_policy: 'random' },
    routing: { algorithm: 'ugal_l' },
    traffic: { pattern: 'uniform', load: 0.6 },
    router: { vcs: 3 },
    faults: { links: [[20, 24]] },
  },
  'two sliced dragonflies, shortest queue': {
    topology: { type: 'dragonfly', p: 2, a: 4, h: 2, g: 5, slices: 2 },
    routing: { algorithm: 'val' },
    traffic: { pattern: 'group_shift', load: 0.4 },
    router: { vcs: 3 },
  },
  'HyperX DAL, Swap2, iSLIP, 4-cycle routers': {
    topology: { type: 'hyperx', s: [4, 4, 4], k: [1], t: 4 },
    routing: { algorithm: 'dal' },
    traffic: { pattern: 'swap2', load: 0.6 },
    router: { vcs: 6, buffer_depth: 32, pipeline_delay: 4, switch_allocator: 'islip' },
  },
  'flattened butterfly UGAL, batch mode': {
    topology: { type: 'flattened_butterfly', k: 8, n: 2 },
    routing: { algorithm: 'ugal' },
    traffic: { pattern: 'router_shift', injection: 'batch', batch_size: 20 },
  },
  'flattened butterfly CLOS AD, 4-flit packets': {
    topology: { type: 'flattened_butterfly', k: 4, n: 3 },
    routing: { algorithm: 'clos_ad' },
    traffic: { pattern: 'uniform', load: 0.5, packet_size: 4 },
    router: { buffer_depth: 16 },
  },
  '2-dilated flattened butterfly, adversarial': {
    topology: { type: 'dilated_flattened_butterfly', k: 8, n: 2 },
    routing: { algorithm: 'adaptive_2dfb' },
    traffic: { pattern: 'adversarial', load: 0.7 },
  },
};

let env;
let dir;
before(async () => {
  env = await setup();
  dir = mkdtempSync(join(tmpdir(), 'hiradix-determinism-'));
});
after(async () => {
  await env?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

// The native tool built from the same sources as pkg/ (a no-op when it is up to date, as
// after `cargo test --release` in scripts/test.sh).
function nativeBinary() {
  execFileSync('cargo', ['build', '--release', '--quiet', '--bin', 'hiradix'], { cwd: ROOT, stdio: 'inherit' });
  return join(ROOT, 'target', 'release', 'hiradix');
}

test('native and wasm give identical results for the same configuration and seed', { timeout: 300_000 }, async () => {
  const bin = nativeBinary();
  const { page, errors } = await env.open('?paused=1', { state: 'paused' });
  for (const [name, partial] of Object.entries(CONFIGS)) {
    const config = { ...partial, measurement: SHORT, seed: 7 };
    const file = join(dir, 'config.json');
    const out = join(dir, 'result.json');
    writeFileSync(file, JSON.stringify(config));
    execFileSync(bin, ['run', file, '--json', out], { stdio: ['ignore', 'ignore', 'inherit'] });
    const native = JSON.parse(readFileSync(out, 'utf8')).result.summary;
    const wasm = await page.evaluate(async (json) => {
      const m = await import('/pkg/hiradix.js');
      await m.default();
      return m.runExperiment(json).summary;
    }, JSON.stringify(config));
    assert.ok(native.labeled_packets > 100, `${name}: nothing measured natively: ${JSON.stringify(native)}`);
    assert.deepStrictEqual(wasm, native, `${name}: wasm and native summaries differ`);
  }
  assert.deepEqual(errors, []);
  await page.close();
});
