// Helpers shared by the page's browser tests (*.test.mjs).
import { canvasDigest, launchBrowser, openPage, startServer } from './harness.mjs';

export { canvasDigest };

/** A server and a browser for one test file; call close() in after(). */
export async function setup() {
  const server = await startServer();
  const browser = await launchBrowser({ width: 1500, height: 1000 });
  return {
    server,
    browser,
    /**
     * Opens the page (optionally with a query string, and a script run before the page's
     * own, `init(initArg)`) and waits until it is in `state`.
     */
    async open(query = '', { state = 'running', init = null, initArg } = {}) {
      const { page, errors } = await openPage(browser.context, `${server.url}${query}`, { init, initArg });
      await page.waitForSelector(`body[data-state="${state}"]`, { timeout: 60_000 });
      return { page, errors };
    },
    async close() {
      await browser?.close();
      await server?.close();
    },
  };
}

/** Pixel digest of pane `i`'s canvas. */
export function paneDigest(page, i) {
  return page.evaluate((i) => {
    const c = window.hiradix.panes[i].canvas;
    const data = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
    let h = 0x811c9dc5;
    let painted = 0;
    for (let k = 0; k < data.length; k += 4) {
      if (data[k] !== 255 || data[k + 1] !== 255 || data[k + 2] !== 255) painted++;
      h = Math.imul(h ^ data[k], 16777619);
      h = Math.imul(h ^ data[k + 1], 16777619);
      h = Math.imul(h ^ data[k + 2], 16777619);
    }
    return { hash: h >>> 0, painted, size: c.width * c.height };
  }, i);
}

export const now = (page) => page.evaluate(() => window.hiradix.sim.now());

/**
 * Waits until the simulation worker has answered everything asked of it: after a step
 * (which the worker runs, the page's mirror showing it a moment later).
 */
export const settle = (page) => page.evaluate(() => window.hiradix.settled());

/** Waits until the simulation passed `cycles` more cycles. */
export async function advanceBy(page, cycles, timeout = 60_000) {
  const t0 = await now(page);
  await page.waitForFunction((n) => window.hiradix.sim && window.hiradix.sim.now() >= n, t0 + cycles, { timeout });
}

/** Sets a control (input/select built from the catalog) by its config path. */
export async function setControl(page, path, value) {
  const id = `#ctl-${path.replace(/[^a-z0-9]+/gi, '-')}`;
  // Collapsed sections (router, measurement) are opened first, as a user would.
  const tag = await page.$eval(id, (e) => {
    const d = e.closest('details');
    if (d) d.open = true;
    return e.tagName;
  });
  if (tag === 'SELECT') await page.selectOption(id, String(value));
  else {
    await page.fill(id, String(value));
    await page.dispatchEvent(id, 'change');
  }
}

export const controlMessage = (page, path) => page.textContent(`#ctl-${path.replace(/[^a-z0-9]+/gi, '-')}-msg`);
export const controlMessageVisible = (page, path) => page.isVisible(`#ctl-${path.replace(/[^a-z0-9]+/gi, '-')}-msg`);

/** Where router `r` of pane 0 is on the screen (CSS pixels), for a click or a tap. */
export const routerPoint = (page, r) =>
  page.evaluate((r) => {
    const p = window.hiradix.panes[0];
    const [x, y] = p.view.routerPoint(r);
    const rect = p.canvas.getBoundingClientRect();
    const dpr = window.devicePixelRatio || 1;
    return [rect.left + x / dpr, rect.top + y / dpr];
  }, r);

/**
 * Where channel from → to of pane 0 can be clicked (CSS pixels): a point along it that its
 * hit test finds (not a router, not a crossing channel); null when there is none.
 */
export const channelPoint = (page, from, to) =>
  page.evaluate(
    ([from, to]) => {
      const p = window.hiradix.panes[0];
      const g = p.view.geo;
      const seg = p.view.seg;
      const rect = p.canvas.getBoundingClientRect();
      const dpr = window.devicePixelRatio || 1;
      for (let c = 0; c < g.channels; c++) {
        if (g.src[c] !== from || g.dst[c] !== to) continue;
        const i = 6 * c;
        for (const t of [0.5, 0.4, 0.6, 0.3, 0.7, 0.2, 0.8]) {
          const curved = !Number.isNaN(seg[i + 2]);
          const at = (k) =>
            curved ? (1 - t) ** 2 * seg[i + k] + 2 * (1 - t) * t * seg[i + 2 + k] + t ** 2 * seg[i + 4 + k] : (1 - t) * seg[i + k] + t * seg[i + 4 + k];
          const hit = p.view.hitTest(at(0), at(1));
          if (hit?.kind === 'channel' && hit.index === c) return [rect.left + at(0) / dpr, rect.top + at(1) / dpr];
        }
      }
      return null;
    },
    [from, to],
  );
