// Measures the page's speed on the 1K-node dragonfly (p = h = 4, a = 8, g = 33, UR 0.3,
// UGAL-L, 3 VCs × 16 flits — the `dragonfly1k-ugal_l-0.3` configuration of `hiradix bench`):
//
//  1. engine speed, simulated cycles per second: the native build (`hiradix bench`) and the
//     wasm build (pkg/, `benchAdvance`) in headless Chromium on the same configuration,
//     interleaved, best of several rounds (the machine is shared);
//  2. the page's frame rate in headless Chromium while it animates that network at several
//     speeds (cycles per frame, 50 included), with the time per frame split into simulating
//     and drawing, and with the simulation paused (drawing only).
//
//   node scripts/measure-web-speed.mjs [--rounds 3] [--cycles 4000] [--write]
//
// --write replaces the "## Web" section of docs/performance.md (appending it if missing)
// with the results; the rest of the file is left alone. Needs pkg/ built and the native
// binary (built with `cargo build --release` if missing).
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { loadavg, cpus } from 'node:os';
import { join } from 'node:path';
import { ROOT, launchBrowser, openPage, startServer } from '../tests/browser/harness.mjs';

const args = process.argv.slice(2);
const opt = (name, dflt) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? Number(args[i + 1]) : dflt;
};
const ROUNDS = opt('rounds', 7);
const CYCLES = opt('cycles', 4000);
const WRITE = args.includes('--write');
const BENCH = 'dragonfly1k-ugal_l-0.3';
const CONFIG = {
  topology: { type: 'dragonfly', p: 4, a: 8, h: 4, g: 33 },
  routing: { algorithm: 'ugal_l' },
  traffic: { pattern: 'uniform', load: 0.3 },
  router: { vcs: 3, buffer_depth: 16 },
};
const SPEEDS = [1, 5, 10, 20, 50];

function nativeBinary() {
  const bin = join(ROOT, 'target', 'release', 'hiradix');
  if (!existsSync(bin)) execFileSync('cargo', ['build', '--release', '--bin', 'hiradix'], { cwd: ROOT, stdio: 'inherit' });
  return bin;
}

function native(bin) {
  const out = execFileSync(bin, ['bench', '--only', BENCH, '--cycles', String(CYCLES), '--repeat', '1'], { encoding: 'utf8' });
  const line = out.split('\n').find((l) => l.startsWith(BENCH));
  const cps = Number(line?.trim().split(/\s+/)[1]);
  if (!Number.isFinite(cps)) throw new Error(`cannot read hiradix bench output:\n${out}`);
  return cps;
}

const server = await startServer();
const browser = await launchBrowser({ width: 1400, height: 1000 });
const results = { native: [], wasm: [], frames: [], paused: null };
try {
  const bin = nativeBinary();
  const { page, errors } = await openPage(browser.context, `${server.url}?paused=1`);
  await page.waitForFunction(() => window.hiradix?.panes?.length > 0, null, { timeout: 60_000 });
  results.browser = (await page.evaluate(() => navigator.userAgent)).match(/(Headless)?Chrome\/[\d.]+/)?.[0] ?? 'Chromium';

  // 1. Engine speed, native vs wasm, interleaved.
  for (let r = 0; r < ROUNDS; r++) {
    results.native.push(native(bin));
    const [ms, packets] = await page.evaluate(
      async ({ config, cycles }) => {
        const m = await import('/pkg/hiradix.js');
        await m.default();
        return Array.from(m.benchAdvance(JSON.stringify(config), cycles / 4, cycles, () => performance.now()));
      },
      { config: CONFIG, cycles: CYCLES },
    );
    results.wasm.push((CYCLES * 1000) / ms);
    console.log(`round ${r + 1}: native ${results.native.at(-1).toFixed(0)} cycles/s, wasm ${results.wasm.at(-1).toFixed(0)} cycles/s (${((packets * 1000) / ms).toFixed(0)} packets/s)`);
  }
  await page.close();

  // 2. Frame rate of the page animating the network.
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries({ 'topology.type': 'dragonfly', 'topology.p': 4, 'topology.a': 8, 'topology.h': 4, 'topology.g': 33, 'routing.algorithm': 'ugal_l', 'traffic.pattern': 'uniform', 'traffic.load': 0.3, 'router.vcs': 3, 'router.buffer_depth': 16 })) q.set(k, String(v));
  const anim = await openPage(browser.context, `${server.url}?${q}&speed=1`);
  const p = anim.page;
  await p.waitForSelector('body[data-state="running"]', { timeout: 60_000 });
  const measure = async (seconds) =>
    p.evaluate(async (seconds) => {
      const h = window.hiradix;
      const f0 = h.frames;
      const c0 = h.sim.now();
      const t0 = performance.now();
      let adv = 0;
      let draw = 0;
      let n = 0;
      const end = t0 + seconds * 1000;
      while (performance.now() < end) {
        await new Promise((ok) => requestAnimationFrame(ok));
        adv += h.perf.advanceMs;
        draw += h.perf.drawMs;
        n++;
      }
      const t = (performance.now() - t0) / 1000;
      return { fps: (h.frames - f0) / t, cyclesPerSecond: (h.sim.now() - c0) / t, advanceMs: adv / n, drawMs: draw / n };
    }, seconds);
  await p.waitForFunction(() => window.hiradix.sim.now() > 200);
  // The engine-bound rows: every frame simulates the cycles asked for ("smooth" off).
  await p.click('#smooth');
  for (const speed of SPEEDS) {
    await p.fill('#cycles-per-frame', String(speed));
    await p.dispatchEvent('#cycles-per-frame', 'change');
    await p.waitForTimeout(1500);
    const m = await measure(6);
    results.frames.push({ speed, ...m });
    console.log(`speed ${speed} cycles/frame: ${m.fps.toFixed(1)} fps, ${m.cyclesPerSecond.toFixed(0)} cycles/s, per frame ${m.advanceMs.toFixed(1)} ms simulating + ${m.drawMs.toFixed(1)} ms drawing`);
  }
  // The default: "smooth" on caps the cycles per frame to an adaptive time budget.
  await p.click('#smooth');
  await p.fill('#cycles-per-frame', '50');
  await p.dispatchEvent('#cycles-per-frame', 'change');
  await p.waitForTimeout(4000); // the budget adapts within a few seconds
  results.smooth = { speed: 50, ...(await measure(6)) };
  console.log(`speed 50 cycles/frame with "smooth" on: ${results.smooth.fps.toFixed(1)} fps, ${results.smooth.cyclesPerSecond.toFixed(0)} cycles/s`);
  await p.click('#btn-run');
  await p.waitForTimeout(1000);
  results.paused = await measure(4);
  console.log(`paused (drawing only): ${results.paused.fps.toFixed(1)} fps, ${results.paused.drawMs.toFixed(1)} ms drawing per frame`);
  if (errors.length || anim.errors.length) throw new Error(`page errors: ${[...errors, ...anim.errors].join('; ')}`);
} finally {
  await browser.close();
  await server.close();
}

const best = (xs) => Math.max(...xs);
const median = (xs) => {
  const v = [...xs].sort((a, b) => a - b);
  return v.length % 2 ? v[(v.length - 1) / 2] : (v[v.length / 2 - 1] + v[v.length / 2]) / 2;
};
// The machine is shared: each round is disturbed differently, so both the median and the
// best round are reported; the ratio is taken between medians.
const nat = median(results.native);
const wasm = median(results.wasm);
const ratio = wasm / nat;
const f50 = results.frames.find((f) => f.speed === 50);
const sustained = results.frames.filter((f) => f.fps >= 55).map((f) => f.speed);
const date = new Date().toISOString().slice(0, 10);
const loads = loadavg().map((x) => x.toFixed(1)).join(' / ');
const md = `## Web

Measured by \`node scripts/measure-web-speed.mjs --write\` on ${date}: ${cpus().length} cores
(${cpus()[0]?.model ?? 'unknown CPU'}), load average ${loads} while measuring (the machine is shared
with other jobs, so these are lower bounds), ${results.browser} (Debian Chromium, headless). Configuration: the 1K-node dragonfly of \`hiradix bench\` (\`${BENCH}\`: p = h = 4,
a = 8, g = 33, N = 1056, uniform random traffic at 0.3, UGAL-L, 3 VCs × 16 flits).

**Engine, simulated cycles per second** (${ROUNDS} interleaved rounds of ${CYCLES} cycles after
${CYCLES / 4} cycles of warm-up; median and best round):

| build | median cycles/s | best | all rounds |
|---|---:|---:|---|
| native (\`hiradix bench\`) | ${nat.toFixed(0)} | ${best(results.native).toFixed(0)} | ${results.native.map((x) => x.toFixed(0)).join(', ')} |
| wasm in Chromium (\`benchAdvance\`, pkg/) | ${wasm.toFixed(0)} | ${best(results.wasm).toFixed(0)} | ${results.wasm.map((x) => x.toFixed(0)).join(', ')} |
| **wasm / native** | **${(100 * ratio).toFixed(0)} %** | ${((100 * best(results.wasm)) / best(results.native)).toFixed(0)} % | goal ≥ 60 % |

**The page animating this network** (one pane, occupancy colouring, 1400 × 1000 window;
"smooth" off, so every frame simulates the cycles asked for, except in the last row):

| cycles per frame | frames/s | simulated cycles/s | ms per frame simulating | ms per frame drawing |
|---:|---:|---:|---:|---:|
${results.frames.map((f) => `| ${f.speed} | ${f.fps.toFixed(1)} | ${f.cyclesPerSecond.toFixed(0)} | ${f.advanceMs.toFixed(1)} | ${f.drawMs.toFixed(1)} |`).join('\n')}
| 50 asked, "smooth" on (the default) | ${results.smooth.fps.toFixed(1)} | ${results.smooth.cyclesPerSecond.toFixed(0)} | ${results.smooth.advanceMs.toFixed(1)} | ${results.smooth.drawMs.toFixed(1)} |
| paused (drawing only) | ${results.paused.fps.toFixed(1)} | 0 | 0 | ${results.paused.drawMs.toFixed(1)} |

With "smooth" on (the default) the page simulates per frame only what fits in a time budget
(2–12 ms) that shrinks while frames are slow *and* the page's own work per frame is large
(\`www/main.js\`, \`adaptBudget\`): asked
for 50 cycles per frame it animates at **${results.smooth.fps.toFixed(1)} fps** and simulates ${results.smooth.cyclesPerSecond.toFixed(0)} cycles/s.
Without the cap, at 50 cycles per frame it runs at **${f50.fps.toFixed(1)} fps**. ${
  f50.fps >= 55
    ? 'The goal is met.'
    : `The goal is not met. One frame of 50 cycles needs ${f50.advanceMs.toFixed(0)} ms of simulation alone, more than a whole 16.7 ms frame: the engine itself, native build included, simulates about ${nat.toFixed(0)} cycles/s (median; best round ${best(results.native).toFixed(0)}) of this network on this machine, and 60 fps × 50 cycles would need 3000 cycles/s. Drawing is not the bottleneck (${results.paused.drawMs.toFixed(1)} ms per frame; ${results.paused.fps.toFixed(0)} fps with the simulation paused, where the shared, loaded CPU also limits Chromium's frame pacing). ${
        sustained.length ? `The page holds ≥ 55 fps up to ${Math.max(...sustained)} cycle${Math.max(...sustained) === 1 ? '' : 's'} per frame.` : 'No measured speed held 55 fps on this loaded machine.'
      }`
}
`;
console.log(`\n${md}`);
if (WRITE) {
  const file = join(ROOT, 'docs', 'performance.md');
  let doc = existsSync(file) ? readFileSync(file, 'utf8') : '# Performance\n';
  const start = doc.search(/^## Web\s*$/m);
  if (start >= 0) {
    const rest = doc.slice(start + 6);
    const next = rest.search(/^## /m);
    doc = doc.slice(0, start) + md + (next >= 0 ? `\n${rest.slice(next)}` : '');
  } else {
    doc = `${doc.trimEnd()}\n\n${md}`;
  }
  writeFileSync(file, doc);
  console.log(`updated ${file}`);
}
