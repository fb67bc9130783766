// Saves screenshots of the page to docs/screenshots/ (headless Debian Chromium):
//   page.png                 the default experiment
//   preset-<id>.png          one per preset, after the story has had time to form
//   bad-parameter.png        an invalid parameter, reported next to its control
//   cost-view.png            the cost view at HyperX paper Table 1's N = 2^17, R = 128, β = 0.5
//   trace.png                a packet trace: one packet's hops on the canvas and listed
//
//   node scripts/screenshots.mjs [preset-id …]      (after `npm ci`; pkg/ must be built)
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { ROOT, launchBrowser, openPage, startServer } from '../tests/browser/harness.mjs';

const OUT = join(ROOT, 'docs', 'screenshots');

// When each story has formed: simulated cycles to run (at `speed` cycles per frame) before
// the picture is taken, or `until` (a page predicate) for the batch preset.
const SHOTS = {
  'ugal-l-misjudges': { speed: 10, cycles: 3000 },
  'dal-swap2': { speed: 10, cycles: 1500 },
  'min-worst-case': { speed: 5, cycles: 1000 },
  // Taken when the sequential allocators have delivered their batches and greedy UGAL is
  // still draining the minimal channels it overloaded.
  'greedy-vs-sequential': { until: () => window.hiradix.panes.slice(1).every((p) => p.stats.batchDone), pin: false },
  '2dfb-adaptive': { speed: 10, cycles: 1500 },
};

const only = process.argv.slice(2);
await mkdir(OUT, { recursive: true });
const server = await startServer();
const browser = await launchBrowser({ width: 1600, height: 1000 });
const failures = [];

async function shot(name, query, prepare) {
  const { page, errors } = await openPage(browser.context, `${server.url}${query}`);
  try {
    await page.waitForSelector('body[data-state="running"]', { timeout: 60_000 });
    await prepare(page);
    // Let the plots and the table catch up with the last samples, then take the picture.
    await page.waitForTimeout(600);
    const path = join(OUT, `${name}.png`);
    await page.screenshot({ path, fullPage: true });
    console.log(`wrote ${path}`);
    if (errors.length) failures.push(`${name}: ${errors.join('; ')}`);
  } finally {
    await page.close();
  }
}

const pause = async (page) => {
  if ((await page.getAttribute('body', 'data-state')) === 'running') await page.click('#btn-run');
};

try {
  if (!only.length || only.includes('page')) {
    await shot('page', '', async (page) => {
      await page.waitForFunction(() => window.hiradix.sim.now() > 400, null, { timeout: 120_000 });
      await pause(page);
    });
  }
  for (const [id, s] of Object.entries(SHOTS)) {
    if (only.length && !only.includes(id)) continue;
    await shot(`preset-${id}`, `?preset=${id}${s.speed ? `&speed=${s.speed}` : ''}`, async (page) => {
      // Pin a router so the inspector shows a routing decision (first pane, router 0);
      // pinned from the start, so per-hop notes (DAL) are recorded while the story forms.
      if (s.pin !== false) {
        await page.evaluate(() => {
          window.hiradix.selection = { pane: 0, kind: 'router', index: 0 };
        });
      }
      if (s.until) await page.waitForFunction(s.until, null, { timeout: 300_000 });
      else await page.waitForFunction((n) => window.hiradix.sim.now() >= n, s.cycles, { timeout: 600_000, polling: 500 });
      await pause(page);
    });
  }
  if (!only.length || only.includes('trace')) {
    // DAL vs CLOS AD vs MIN on Swap2: the next packet generated at router 5, in every pane.
    await shot('trace', '?preset=dal-swap2&speed=2', async (page) => {
      await page.waitForFunction(() => window.hiradix.sim.now() > 600, null, { timeout: 120_000 });
      await page.keyboard.press('t');
      const [x, y] = await page.evaluate(() => {
        const p = window.hiradix.panes[0];
        const [x, y] = p.view.routerPoint(5);
        const rect = p.canvas.getBoundingClientRect();
        return [rect.left + x / devicePixelRatio, rect.top + y / devicePixelRatio];
      });
      await page.mouse.click(x, y);
      await page.waitForFunction(() => window.hiradix.trace.data.every((d) => d.trace?.delivered), null, { timeout: 120_000 });
      await pause(page);
    });
  }
  if (!only.length || only.includes('bad-parameter')) {
    await shot('bad-parameter', '?topology.type=hyperx&routing.algorithm=dal', async (page) => {
      await page.evaluate(() => {
        document.querySelector('details[data-section="router"]').open = true;
      });
      await page.fill('#ctl-router-vcs', '1');
      await page.dispatchEvent('#ctl-router-vcs', 'change');
      await page.waitForSelector('#ctl-router-vcs-msg', { state: 'visible' });
      await page.fill('#ctl-topology-s', '4,x');
      await page.dispatchEvent('#ctl-topology-s', 'change');
      await page.waitForSelector('#ctl-topology-s-msg', { state: 'visible' });
      await pause(page);
    });
  }
  if (!only.length || only.includes('cost-view')) {
    await shot('cost-view', '?view=cost&n=2%5E17&radix=128&beta=0.5', async (page) => {
      await page.waitForSelector('#cost-view[data-search="done"]', { timeout: 60_000 });
    });
  }
} finally {
  await browser.close();
  await server.close();
}
if (failures.length) {
  console.error(`the page reported errors:\n${failures.join('\n')}`);
  process.exitCode = 1;
}
