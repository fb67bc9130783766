// In the lecture hall (docs/lecture.md): the page opens and runs with the network off once
// it has been opened (the service worker, sw.js), `?embed=1` shows only the picture, the
// story's point and the run controls (an iframe in a course page or a slide), and on a
// phone the point and the picture come first, nothing scrolls sideways and a tap on a
// router opens the inspector.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT, launchBrowser, openPage, startServer } from './harness.mjs';
import { routerPoint } from './page-helpers.mjs';

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

test('a changed site reaches the next online visit, and then offline ones', { timeout: 240_000 }, async () => {
  // A copy of the site, edited between visits as a lecturer would.
  const site = await mkdtemp(join(tmpdir(), 'hiradix-site-'));
  for (const f of ['index.html', 'sw.js', 'www', 'pkg']) await cp(join(ROOT, f), join(site, f), { recursive: true });
  const local = await startServer(site);
  const browser = await launchBrowser({ width: 1366, height: 768 });
  try {
    const { page, errors } = await openPage(browser.context, `${local.url}?preset=${STORY}`);
    await ready(page);
    await page.evaluate(() => navigator.serviceWorker.ready);
    await page.waitForFunction(() => navigator.serviceWorker.controller !== null, null, { timeout: 60_000 });
    const file = join(site, `www/stories/builtin/${STORY}.json`);
    const doc = JSON.parse(await readFile(file, 'utf8'));
    doc.point = `${doc.point} (edited for this course)`;
    await writeFile(file, JSON.stringify(doc, null, 2));
    await page.reload();
    await ready(page);
    assert.match(await page.textContent('#story-point'), /edited for this course/, 'the next online visit shows the change');
    local.setDown(true);
    await browser.context.setOffline(true);
    await page.reload();
    await ready(page);
    assert.match(await page.textContent('#story-point'), /edited for this course/, 'offline, the page is the changed one');
    await advances(page, 20);
    assert.deepEqual(errors, []);
    await browser.context.setOffline(false);
    await page.close();
  } finally {
    await browser.close();
    await local.close();
    await rm(site, { recursive: true, force: true });
  }
});

test('?embed=1 shows the picture, the point and run / step only, filling the frame; links keep it', { timeout: 240_000 }, async () => {
  const browser = await launchBrowser({ width: 1024, height: 576 });
  try {
    // A scene bar of another change: an element with the class embed-keep stays, wherever it is.
    const init = () =>
      document.addEventListener('DOMContentLoaded', () => {
        for (const parent of [document.querySelector('header'), document.querySelector('.toolbar')]) {
          const bar = document.createElement('span');
          bar.className = 'embed-keep test-keep';
          bar.textContent = 'scene';
          parent.append(bar);
        }
      });
    const { page, errors } = await openPage(browser.context, `${server.url}?embed=1&preset=${STORY}`, { init });
    await ready(page);
    await advances(page, 20);
    assert.equal(await page.evaluate(() => window.hiradix.embed), true);
    const shown = (sel) =>
      page.$$eval(sel, (els) => els.some((e) => e instanceof HTMLElement && e.offsetParent !== null && e.getBoundingClientRect().height > 0));
    for (const sel of ['canvas.net', '#story-point', '#btn-run', '#btn-step']) assert.ok(await shown(sel), `${sel} is shown`);
    // The header shows only its kept element.
    for (const sel of [
      'header h1',
      '.tabs',
      '.header-actions',
      '#preset',
      '#story-title',
      '#key',
      '.lower',
      '.panel',
      '#controls',
      '.status',
      '#speed-slider',
      '#btn-reset',
      '#btn-fail',
      '#btn-controls',
    ]) {
      assert.ok(!(await shown(sel)), `${sel} is hidden`);
    }
    assert.equal(await page.$$eval('.test-keep', (els) => els.filter((e) => e.getBoundingClientRect().height > 0).length), 2, 'embed-keep elements stay');
    assert.ok((await page.textContent('#story-point')).length > 20, 'the caption is the story point');
    // The picture fills the frame, without a scroll bar.
    const fill = await page.evaluate(() => {
      const r = document.getElementById('panes').getBoundingClientRect();
      return {
        share: (r.width * r.height) / (innerWidth * innerHeight),
        bottom: r.bottom,
        scroll: [document.documentElement.scrollWidth, document.documentElement.scrollHeight],
      };
    });
    assert.ok(fill.share > 0.7, `the panes fill ${(fill.share * 100).toFixed(0)} % of the frame`);
    assert.ok(fill.bottom <= 576, 'the picture ends inside the frame');
    assert.deepEqual(fill.scroll, [1024, 576], 'nothing scrolls');
    // Run / pause and step work; the link the page writes keeps embed=1.
    await page.click('#btn-run');
    await page.waitForSelector('body[data-state="paused"]');
    const t = await page.evaluate(() => window.hiradix.sim.now());
    await page.click('#btn-step');
    await page.waitForFunction((t) => window.hiradix.sim.now() === t + 1, t);
    await page.waitForFunction(() => /[?&]embed=1(&|$)/.test(location.search) && /preset=min-worst-case/.test(location.search));
    assert.deepEqual(await page.evaluate(() => window.hiradix.linkProblems()), []);
    assert.deepEqual(errors, []);
    await page.close();
    // With present mode, and alone (the first story), and a wrong value said.
    const present = await openPage(browser.context, `${server.url}?preset=dal-swap2&present=1&embed=1`);
    await ready(present.page);
    assert.deepEqual(await present.page.evaluate(() => [window.hiradix.present, window.hiradix.embed, document.querySelector('header').offsetParent]), [
      true,
      true,
      null,
    ]);
    assert.deepEqual(present.errors, []);
    await present.page.close();
    const alone = await openPage(browser.context, `${server.url}?embed=1`);
    await ready(alone.page);
    assert.equal(await alone.page.evaluate(() => window.hiradix.experiment.preset), STORY, 'embed=1 alone opens the first story');
    await alone.page.close();
    const wrong = await openPage(browser.context, `${server.url}?preset=${STORY}&embed=yes`);
    await ready(wrong.page);
    assert.match(await wrong.page.textContent('#notice-text'), /embed: 'yes' is not 0 or 1/);
    assert.equal(await wrong.page.evaluate(() => window.hiradix.embed), false);
    await wrong.page.close();
  } finally {
    await browser.close();
  }
});

test('on a phone (390×844, touch) the point and the picture come first, nothing scrolls sideways, a tap inspects', { timeout: 240_000 }, async () => {
  const browser = await launchBrowser({ width: 390, height: 844, mobile: true });
  try {
    const { page, errors } = await openPage(browser.context, `${server.url}?preset=${STORY}`);
    await ready(page);
    await advances(page, 20);
    const geometry = () =>
      page.evaluate(() => {
        const box = (sel) => document.querySelector(sel).getBoundingClientRect().toJSON();
        return {
          scrollWidth: document.documentElement.scrollWidth,
          point: box('#story-point'),
          run: box('#btn-run'),
          canvas: box('canvas.net'),
          font: parseFloat(getComputedStyle(document.getElementById('story-point')).fontSize),
          speed: document.getElementById('speed-slider').offsetParent !== null,
          form: document.getElementById('controls').offsetParent !== null,
          menu: document.getElementById('preset').offsetParent !== null,
        };
      });
    let g = await geometry();
    assert.ok(g.scrollWidth <= 390, `the page is ${g.scrollWidth} px wide`);
    assert.ok(g.point.top >= 0 && g.point.bottom <= 844, 'the story point is above the fold');
    assert.ok(g.point.bottom <= g.run.top, 'the point comes before the controls');
    assert.ok(g.canvas.top < 844 * 0.6 && g.canvas.width >= 340, 'the picture comes next, as wide as the screen');
    assert.ok(g.font >= 15, `the point is readable (${g.font} px)`);
    assert.deepEqual([g.speed, g.form, g.menu], [false, false, false], 'the other controls are folded');
    // A tap on a router opens its inspector, on screen.
    const [x, y] = await routerPoint(page, 3);
    await page.touchscreen.tap(x, y);
    await page.waitForSelector('#inspector', { state: 'visible' });
    await page.waitForFunction(() => /pinned/.test(document.getElementById('inspector-mode').textContent));
    assert.deepEqual(await page.evaluate(() => window.hiradix.selection), { pane: 0, kind: 'router', index: 3 });
    const sheet = await page.$eval('#inspector', (e) => e.getBoundingClientRect().toJSON());
    assert.ok(sheet.top < 844 && sheet.bottom <= 845 && sheet.left >= 0 && sheet.right <= 390, 'the inspector is on screen');
    assert.ok((await page.textContent('#inspector-body')).length > 20, 'the inspector shows the router');
    await page.tap('#inspector-close');
    await page.waitForSelector('#inspector', { state: 'hidden' });
    // Folded, not gone: "Controls" shows them (and nothing gets wider than the screen).
    await page.tap('#btn-controls');
    g = await geometry();
    assert.deepEqual([g.speed, g.form, g.menu], [true, true, true], 'the controls unfold');
    assert.ok(g.scrollWidth <= 390, `unfolded, the page is ${g.scrollWidth} px wide`);
    assert.equal(await page.getAttribute('#btn-controls', 'aria-expanded'), 'true');
    await page.tap('#btn-controls');
    assert.deepEqual(errors, []);
    await page.close();
  } finally {
    await browser.close();
  }
});
