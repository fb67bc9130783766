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
