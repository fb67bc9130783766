// In the lecture hall (docs/lecture.md): the page opens and runs with the network off once
// it has been opened (the service worker, sw.js), `?embed=1` shows only the picture, the
// story's point and the run controls (an iframe in a course page or a slide), and on a
// phone the point and the picture come first, nothing scrolls sideways and a tap on a
// router opens the inspector.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { launchBrowser, openPage, startServer } from './harness.mjs';

let server;
before(async () => {
  server = await startServer();
});
after(async () => {
  await server?.close();
});

const STORY = 'min-worst-case';

async function ready(page) {
  await page.waitForSelector('body[data-state="running"]', { timeout: 60_000 });
  await page.waitForFunction(() => window.hiradix.panes.length > 0 && window.hiradix.frames > 3, null, { timeout: 60_000 });
}

// Waits until the simulation passed `cycles` more cycles.
async function advances(page, cycles = 20) {
  const t0 = await page.evaluate(() => window.hiradix.sim.now());
  await page.waitForFunction((n) => window.hiradix.sim.now() >= n, t0 + cycles, { timeout: 60_000 });
}

// Where router `r` of pane 0 is on the screen (CSS pixels).
const routerPoint = (page, r) =>
  page.evaluate((r) => {
    const p = window.hiradix.panes[0];
    const [px, py] = p.view.routerPoint(r);
    const rect = p.canvas.getBoundingClientRect();
    const dpr = window.devicePixelRatio || 1;
    return [rect.left + px / dpr, rect.top + py / dpr];
  }, r);

test('once opened, the page opens, runs and inspects with the network off', { timeout: 240_000 }, async () => {
  const browser = await launchBrowser({ width: 1366, height: 768 });
  try {
    const { page, errors } = await openPage(browser.context, `${server.url}?preset=${STORY}`);
    await ready(page);
    // The service worker installs (with a whole snapshot of the site) and takes charge.
    await page.evaluate(() => navigator.serviceWorker.ready);
    await page.waitForFunction(() => navigator.serviceWorker.controller !== null, null, { timeout: 60_000 });
    // The network goes: the browser is offline and the server cuts every connection.
    server.setDown(true);
    await browser.context.setOffline(true);
    try {
      await page.reload();
      await ready(page);
      assert.equal(await page.evaluate(() => window.hiradix.experiment.preset), STORY);
      await advances(page, 50);
      // The story's text and its menu came from the snapshot too.
      assert.ok((await page.textContent('#story-point')).length > 20, 'the story point shows');
      assert.ok((await page.$$eval('#preset option', (o) => o.length)) >= 8, 'the story menu is filled');
      const [x, y] = await routerPoint(page, 3);
      await page.mouse.click(x, y);
      await page.waitForSelector('#inspector', { state: 'visible' });
      await page.waitForFunction(() => /pinned/.test(document.getElementById('inspector-mode').textContent));
      assert.ok((await page.textContent('#inspector-body')).length > 20, 'the inspector shows the router');
      // Another story (a new experiment in a new worker) and the cost view's worker, offline too.
      await page.selectOption('#preset', 'dal-swap2');
      await page.waitForFunction(() => window.hiradix.experiment.preset === 'dal-swap2' && window.hiradix.sim.now() > 10, null, { timeout: 60_000 });
      assert.deepEqual(errors, []);
    } finally {
      await browser.context.setOffline(false);
      server.setDown(false);
    }
    await page.close();
  } finally {
    await browser.close();
  }
});
