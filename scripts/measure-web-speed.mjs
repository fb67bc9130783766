// Measures the page's speed on the 1K-node dragonfly (p = h = 4, a = 8, g = 33, UR 0.3,
// UGAL-L, 3 VCs × 16 flits — the `dragonfly1k-ugal_l-0.3` configuration of `hiradix bench`):
//
//  1. engine speed, simulated cycles per second: the native build (`hiradix bench`) and the
//     wasm build (pkg/, `benchAdvance`, called on the page's main thread while its own
//     simulation is paused) in headless Chromium on the same configuration, interleaved,
//     best of several rounds (the machine is shared);
//  2. the page animating that network at several speeds (cycles per frame, 50 included):
//     the drawing thread's frame rate, the simulated cycles per second (the page's cycle
//     counter over wall time) and so the cycles simulated per displayed frame (cycles/s ÷
//     fps), the worker's steps per second and time per step, and the drawing thread's time
//     per frame; with "smooth" on (the default) and off, and with the simulation paused;
//  3. at 50 cycles per frame, where the CPU time goes: each Chromium thread's share of a
//     core, running and waiting to run (Linux /proc/<pid>/task/<tid>/{stat,schedstat}).
//
//   node scripts/measure-web-speed.mjs [--rounds 3] [--cycles 4000] [--write]
//
// --write replaces the "## Web" section of docs/performance.md (appending it if missing)
// with the results; the rest of the file is left alone. Needs pkg/ built and the native
// binary (built with `cargo build --release` if missing).
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
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
const SPEEDS = [1, 5, 10, 20, 50, 60, 100];
// The speed rule's 50 cycles per frame (the developers' guide) and the lean engine's goal of
// 60 (issue 32) are each measured over several windows.
const GOALS = [50, 60];
const GOAL_WINDOWS = 3;

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

/**
 * CPU time of every thread of the Chromium processes so far: Map thread → {name, run, wait}
 * in seconds (running, and runnable but waiting for a core); null without Linux's /proc.
 */
function chromiumThreads() {
  if (!existsSync('/proc/self/task')) return null;
  const threads = new Map();
  for (const pid of readdirSync('/proc').filter((d) => /^\d+$/.test(d))) {
    try {
      const cmd = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
      if (!/chrom/i.test(cmd.split('\0')[0])) continue;
      const type = cmd.match(/--type=([a-z-]+)/)?.[1] ?? 'browser';
      for (const tid of readdirSync(`/proc/${pid}/task`)) {
        const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
        const [run, wait] = readFileSync(`/proc/${pid}/task/${tid}/schedstat`, 'utf8').split(' ').map(Number);
        threads.set(tid, { name: `${type}: ${stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'))}`, run: run / 1e9, wait: wait / 1e9 });
      }
    } catch {
      // a process or thread that ended meanwhile
    }
  }
  return threads;
}

const server = await startServer();
const browser = await launchBrowser({ width: 1400, height: 1000 });
const results = { native: [], wasm: [], frames: [], rough: null, paused: null };
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
    console.log(
      `round ${r + 1}: native ${results.native.at(-1).toFixed(0)} cycles/s, wasm ${results.wasm.at(-1).toFixed(0)} cycles/s (${((packets * 1000) / ms).toFixed(0)} packets/s)`,
    );
  }
  await page.close();

  // 2. Frame rate of the page animating the network.
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries({
    'topology.type': 'dragonfly',
    'topology.p': 4,
    'topology.a': 8,
    'topology.h': 4,
    'topology.g': 33,
    'routing.algorithm': 'ugal_l',
    'traffic.pattern': 'uniform',
    'traffic.load': 0.3,
    'router.vcs': 3,
    'router.buffer_depth': 16,
  }))
    q.set(k, String(v));
  const anim = await openPage(browser.context, `${server.url}?${q}&speed=1`);
  const p = anim.page;
  await p.waitForSelector('body[data-state="running"]', { timeout: 60_000 });
  const measure = async (seconds) =>
    p.evaluate(async (seconds) => {
      const h = window.hiradix;
      const f0 = h.frames;
      const c0 = h.sim.now();
      const s0 = h.snapshots;
      const t0 = performance.now();
      let draw = 0;
      let step = 0;
      let n = 0;
      const end = t0 + seconds * 1000;
      while (performance.now() < end) {
        await new Promise((ok) => requestAnimationFrame(ok));
        draw += h.perf.drawMs;
        step += h.perf.advanceMs;
        n++;
      }
      const t = (performance.now() - t0) / 1000;
      const fps = (h.frames - f0) / t;
      const cyclesPerSecond = (h.sim.now() - c0) / t;
      return { fps, cyclesPerSecond, cyclesPerFrame: cyclesPerSecond / fps, stepsPerSecond: (h.snapshots - s0) / t, stepMs: step / n, drawMs: draw / n };
    }, seconds);
  const show = (m) =>
    `${m.fps.toFixed(1)} fps, ${m.cyclesPerSecond.toFixed(0)} cycles/s = ${m.cyclesPerFrame.toFixed(1)} cycles per displayed frame; worker ${m.stepsPerSecond.toFixed(1)} steps/s of ${m.stepMs.toFixed(1)} ms; drawing ${m.drawMs.toFixed(1)} ms per frame`;
  const setSpeed = async (speed) => {
    await p.fill('#cycles-per-frame', String(speed));
    await p.dispatchEvent('#cycles-per-frame', 'change');
  };
  await p.waitForFunction(() => window.hiradix.sim.now() > 200);
  // "Smooth" on (the default): each step simulates about one frame's worth of worker time.
  for (const speed of SPEEDS) {
    await setSpeed(speed);
    await p.waitForTimeout(1500);
    // The goal's speed is measured over several windows (this shared machine's speed
    // drifts); the table shows the median window.
    const windows = [];
    for (let w = 0; w < (GOALS.includes(speed) ? GOAL_WINDOWS : 1); w++) {
      const m = await measure(6);
      windows.push(m);
      console.log(`speed ${speed} cycles/frame: ${show(m)}`);
    }
    windows.sort((a, b) => a.cyclesPerFrame - b.cyclesPerFrame);
    results.frames.push({ speed, ...windows[(windows.length - 1) >> 1], windows });
  }
  // Where the CPU goes at the goal's speed: every Chromium thread over a window.
  const before = chromiumThreads();
  if (before) {
    const t0 = performance.now();
    await p.waitForTimeout(5000);
    const after = chromiumThreads();
    const seconds = (performance.now() - t0) / 1000;
    results.threads = [...after]
      .map(([tid, t]) => ({ name: t.name, run: (t.run - (before.get(tid)?.run ?? 0)) / seconds, wait: (t.wait - (before.get(tid)?.wait ?? 0)) / seconds }))
      .filter((t) => t.run + t.wait >= 0.01)
      .sort((a, b) => b.run - a.run);
    for (const t of results.threads) console.log(`thread ${t.name}: ${(100 * t.run).toFixed(0)} % running, ${(100 * t.wait).toFixed(0)} % waiting for a core`);
  }
  // Off: each step simulates exactly the speed asked for.
  await p.click('#smooth');
  await setSpeed(50);
  await p.waitForTimeout(1500);
  results.rough = { speed: 50, ...(await measure(6)) };
  console.log(`speed 50 cycles/frame with "smooth" off: ${show(results.rough)}`);
  await p.click('#smooth');
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
const f60 = results.frames.find((f) => f.speed === 60);
// A speed holds when the page draws at ≥ 55 fps and simulates the cycles per frame asked.
const holds = (f) => f.fps >= 55 && f.cyclesPerFrame >= 0.99 * f.speed;
const sustained = results.frames.filter(holds).map((f) => f.speed);

/** What a goal speed's measurement says: the speed rule's 50 cycles per frame, issue 32's 60. */
function goalSentence(f) {
  const goal = f.speed === 50 ? "Speed rule (the developers' guide)" : 'Lean engine goal (issue 32)';
  const need = 60 * f.speed;
  return `${goal}: 60 fps while advancing at least ${f.speed} cycles per displayed frame. Asked for ${f.speed} cycles per frame
the page draws at **${f.fps.toFixed(1)} fps** and simulates **${f.cyclesPerFrame.toFixed(1)} cycles per displayed frame** (${f.cyclesPerSecond.toFixed(0)} cycles/s; the median of ${f.windows.length} windows of 6 s: ${f.windows.map((w) => `${w.cyclesPerFrame.toFixed(1)} at ${w.fps.toFixed(1)} fps`).join(', ')}). ${
    holds(f)
      ? 'The goal is met.'
      : f.fps >= 55
        ? `The drawing thread holds the frame rate; the simulation is what falls short: 60 fps × ${f.speed} cycles needs ${need} cycles/s, and the engine alone does ${wasm.toFixed(0)} cycles/s in wasm (median; native ${nat.toFixed(0)}) on this machine, the worker's steps ${(100 * (f.cyclesPerSecond / wasm)).toFixed(0)} % of that.`
        : `The frame rate falls short of 55 fps (drawing ${f.drawMs.toFixed(1)} ms per frame; ${results.paused.fps.toFixed(0)} fps with the simulation paused, where the shared, loaded CPU also limits Chromium's frame pacing).`
  }`;
}
const date = new Date().toISOString().slice(0, 10);
const loads = loadavg()
  .map((x) => x.toFixed(1))
  .join(' / ');
const row = (label, f) =>
  `| ${label} | ${f.fps.toFixed(1)} | ${f.cyclesPerSecond.toFixed(0)} | ${f.cyclesPerFrame.toFixed(1)} | ${f.stepsPerSecond.toFixed(1)} | ${f.stepMs.toFixed(1)} | ${f.drawMs.toFixed(1)} |`;
const md = `## Web

Measured by \`node scripts/measure-web-speed.mjs --write\` on ${date}: ${cpus().length} cores
(${cpus()[0]?.model ?? 'unknown CPU'}), load average ${loads} while measuring (the machine is shared
with other jobs, so these are lower bounds), ${results.browser} (Debian Chromium, headless). Configuration: the 1K-node dragonfly of \`hiradix bench\` (\`${BENCH}\`: p = h = 4,
a = 8, g = 33, N = 1056, uniform random traffic at 0.3, UGAL-L, 3 VCs × 16 flits).

**Engine, simulated cycles per second** (${ROUNDS} interleaved rounds of ${CYCLES} cycles after
${CYCLES / 4} cycles of warm-up; median and best round; the wasm build runs \`benchAdvance\` on the
page's main thread while the page's own simulation is paused):

| build | median cycles/s | best | all rounds |
|---|---:|---:|---|
| native (\`hiradix bench\`) | ${nat.toFixed(0)} | ${best(results.native).toFixed(0)} | ${results.native.map((x) => x.toFixed(0)).join(', ')} |
| wasm in Chromium (\`benchAdvance\`, pkg/) | ${wasm.toFixed(0)} | ${best(results.wasm).toFixed(0)} | ${results.wasm.map((x) => x.toFixed(0)).join(', ')} |
| **wasm / native** | **${(100 * ratio).toFixed(0)} %** | ${((100 * best(results.wasm)) / best(results.native)).toFixed(0)} % | goal ≥ 60 % |

**The page animating this network** (one pane, occupancy colouring, 1400 × 1000 window). The
simulation runs in a Web Worker (\`www/sim/sim-worker.js\`); the page draws its latest snapshot every
animation frame. Cycles per displayed frame = simulated cycles/s ÷ frames/s; a worker step is one
advance of the simulation and the snapshot after it; "smooth" on (the default) except where said:

| cycles per frame asked | frames/s | simulated cycles/s | cycles per displayed frame | worker steps/s | ms per step | ms per frame drawing |
|---:|---:|---:|---:|---:|---:|---:|
${results.frames.map((f) => row(f.speed, f)).join('\n')}
${row('50, "smooth" off', results.rough)}
| paused (drawing only) | ${results.paused.fps.toFixed(1)} | 0 | 0 | – | – | ${results.paused.drawMs.toFixed(1)} |

${
  results.threads
    ? `**Where the CPU time goes** at 50 cycles per frame: each Chromium thread's share of a core over 5 s, running and runnable but waiting for a core (\`/proc\` schedstat; the machine has ${cpus().length} cores):

| thread | running | waiting for a core |
|---|---:|---:|
${results.threads
  .slice(0, 6)
  .map((t) => `| ${t.name} | ${(100 * t.run).toFixed(0)} % | ${(100 * t.wait).toFixed(0)} % |`)
  .join('\n')}
| all Chromium threads | ${(100 * results.threads.reduce((a, t) => a + t.run, 0)).toFixed(0)} % | ${(100 * results.threads.reduce((a, t) => a + t.wait, 0)).toFixed(0)} % |

The DedicatedWorker thread is the simulation; the renderer's main thread draws the canvas (its
JavaScript, then Skia's software raster when the frame is committed) and the viz compositor
thread composites the page.

`
    : ''
}${[f50, f60].map(goalSentence).join('\n\n')}

${sustained.length ? `Both hold (≥ 55 fps and the full speed asked for) up to ${Math.max(...sustained)} cycle${Math.max(...sustained) === 1 ? '' : 's'} per frame.` : 'No measured speed held both on this loaded machine.'}
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
