// A lecturer's own story, end to end, through the page's own controls (issue "a lecturer's
// own story"; docs/lecture.md, "Write your own story"): on the failed-links HyperX, New
// story… takes a title, point and explanation, two channels clicked on the picture as the
// focus, and three scenes — at a cycle, at a later cycle where two links fail and the class
// is asked a question, and at a router's next decision. Its share link (copied by Share
// story) opens the same story and the same picture in a fresh browser; PageDown plays the
// scenes (the question revealed by the run), PageUp goes back exactly; the downloaded file
// opens it again; it plays offline after a reload; and it opens on a 390×844 touch screen
// and in ?embed=1.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { launchBrowser, openPage, startServer } from './harness.mjs';
import { channelPoint, routerPoint } from './page-helpers.mjs';

let server;
before(async () => {
  server = await startServer();
});
after(async () => {
  await server?.close();
});

const ID = 'detours-around-switch-5';
const now = (page) => page.evaluate(() => window.hiradix.sim.now());
const idle = (page) => page.waitForFunction(() => !document.getElementById('scene-bar').classList.contains('busy'), null, { timeout: 120_000 });
const waitStory = (page, id) =>
  page.waitForFunction((id) => window.hiradix.story?.id === id && window.hiradix.panes.length === (window.hiradix.experiment.compare?.values.length ?? 1), id, {
    timeout: 60_000,
  });
const sceneCount = (page, text) => page.waitForFunction((t) => document.getElementById('scene-count').textContent === t, text, { timeout: 60_000 });

/** The focus channels of each pane, as [from, to] router pairs. */
const focusPairs = (page) =>
  page.evaluate(() =>
    window.hiradix.panes.map((p) => {
      const g = p.view.geo;
      const pairs = p.focus ? [...p.focus.keys()].filter((c) => p.focus[c]).map((c) => [g.src[c], g.dst[c]]) : [];
      return pairs.sort((x, y) => x[0] - y[0] || x[1] - y[1]);
    }),
  );

/**
 * What the picture draws from: the cycle, each pane's VC occupancy (the engine's state the
 * link colours come from; utilization also depends on when frames sampled it) and failed
 * channels.
 */
const picture = (page) =>
  page.evaluate(() => ({
    cycle: window.hiradix.sim.now(),
    occupancy: window.hiradix.panes.map((p) => Array.from(p.sim.vcOccupancy())),
    failed: window.hiradix.panes.map((p) => Array.from(p.failed)),
  }));

test('a lecturer writes, shares, plays, downloads and reopens a story offline, on a phone and embedded', { timeout: 600_000 }, async () => {
  const browser = await launchBrowser({ width: 1366, height: 768 });
  const dir = await mkdtemp(join(tmpdir(), 'hiradix-journey-'));
  try {
    // ---- Write it through the page's controls.
    const { page, errors } = await openPage(browser.context, `${server.url}?preset=dal-failed-links`);
    await waitStory(page, 'dal-failed-links');
    await page.click('#btn-run'); // pause: the scenes' cycles are the ones the lecturer sees
    await page.evaluate(() => window.hiradix.settled());
    await page.click('#btn-story-new');
    await page.fill('#editor-title', 'Detours around switch 5');
    await page.fill('#editor-point', 'DAL detours around a failed link only within its row.');
    await page.fill('#editor-explanation', 'Links 5–6 and 9–10 have **failed**.\n\nDAL takes a *two-hop* detour in the row:\n- 5 → 4 → 6\n- 5 → 7 → 6');
    await page.fill('#editor-look', 'The orange detour carries switch 5’s traffic.\n\nThe unroutable plot: DOR’s count climbs.');
    await page.fill('#editor-sweep', '0.05:0.3:0.05');
    await page.selectOption('#editor-focus', 'picked');
    await page.fill('#editor-focus-label', 'the detour 5 → 4 → 6');
    assert.ok(await page.isVisible('#editor-pick-row'));
    await page.click('#editor-pick');
    assert.equal(await page.getAttribute('#editor-pick', 'aria-pressed'), 'true');
    for (const [a, b] of [
      [5, 4],
      [4, 6],
    ]) {
      const point = await channelPoint(page, a, b);
      assert.ok(point, `channel ${a} → ${b} is on the picture`);
      await page.mouse.click(...point);
    }
    assert.equal(await page.textContent('#editor-picked'), 'channels 5→4, 4→6');
    // The picture shows the focus as it is picked, in both panes.
    await page.waitForFunction(() => window.hiradix.panes.every((p) => p.focus?.reduce((n, x) => n + x, 0) === 2), null, { timeout: 30_000 });
    await page.click('#editor-pick');
    assert.equal(await page.getAttribute('#editor-pick', 'aria-pressed'), 'false');
    assert.equal(await page.evaluate(() => window.hiradix.selection), null, 'picking does not pin the inspector');

    // Scene 1: the cycle shown now.
    const first = await now(page);
    assert.ok(first > 0);
    await page.click('#editor-add-cycle');
    await page.fill('.editor-scene:nth-child(1) .scene-caption-text', 'Watch the *detour* carry 5’s traffic.');
    // Scene 2: 300 cycles on, two more links fail, and the class is asked first.
    await page.fill('#run-until', String(first + 300));
    await page.click('#btn-until');
    await page.waitForFunction((t) => window.hiradix.sim.now() === t && document.body.dataset.state === 'paused', first + 300, { timeout: 60_000 });
    await page.click('#editor-add-cycle');
    const s2 = '.editor-scene:nth-child(2)';
    await page.fill(`${s2} .scene-caption-text`, 'Links 4–5 and 5–7 fail now.');
    await page.fill(`${s2} .scene-fail`, '4-5, 5-7');
    await page.check(`${s2} .scene-asks`);
    await page.fill(`${s2} .scene-ask-text`, 'Does DAL still deliver every packet?');
    await page.fill(`${s2} .scene-choices-text`, 'Yes\nNo: it loses packets too');
    await page.selectOption(`${s2} .scene-answer`, '1');
    await page.fill(`${s2} .scene-why-text`, 'DAL detours only **within the row**.');
    // Scene 3: the next decision at router 5, clicked on the picture.
    const [rx, ry] = await routerPoint(page, 5);
    await page.mouse.click(rx, ry);
    await page.waitForFunction(() => window.hiradix.selection?.index === 5);
    await page.click('#editor-add-decision');
    await page.fill('.editor-scene:nth-child(3) .scene-caption-text', 'Router 5 routes its next packet.');
    // …zoomed in on router 5 (the wheel over it), as the scene will show it.
    await page.mouse.move(rx, ry);
    await page.mouse.wheel(0, -400);
    await page.waitForFunction(() => window.hiradix.experiment.view.zoom > 1.5);
    await page.check('.editor-scene:nth-child(3) .scene-zoom');
    // …and from it on, router 5's own channels cased: picked (a click on the router), ticked
    // for the scene, then unpicked again for the story's own focus.
    await page.click('#editor-pick');
    await page.mouse.click(rx, ry);
    assert.equal(await page.textContent('#editor-picked'), 'channels 5→4, 4→6; router 5 (every channel out of it)');
    await page.fill('#editor-focus-label', 'router 5’s channels');
    await page.check('.editor-scene:nth-child(3) .scene-focus');
    await page.mouse.click(rx, ry);
    await page.click('#editor-pick');
    await page.fill('#editor-focus-label', 'the detour 5 → 4 → 6');
    const zoom = await page.evaluate(() => window.hiradix.experiment.view.zoom);
    // The story itself opens on the whole network (a double-click fits it again).
    const corner = await page.evaluate(() => {
      const r = window.hiradix.panes[0].canvas.getBoundingClientRect();
      return [r.left + 6, r.bottom - 6];
    });
    await page.mouse.dblclick(...corner);
    await page.waitForFunction(() => window.hiradix.experiment.view.zoom === 1);
    assert.equal(await page.locator('.editor-scene').count(), 3);

    await page.click('#editor-save');
    await waitStory(page, ID);
    const doc = await page.evaluate(() => window.hiradix.story.doc);
    assert.deepEqual(doc.look, ['The orange detour carries switch 5’s traffic.', 'The unroutable plot: DOR’s count climbs.']);
    assert.equal(doc.experiment.sweep, '0.05:0.3:0.05');
    assert.deepEqual(doc.focus, {
      selector: 'picked',
      channels: [
        [5, 4],
        [4, 6],
      ],
      routers: [],
      label: 'the detour 5 → 4 → 6',
    });
    assert.deepEqual(
      doc.scenes.map((s) => [s.stop, s.fail ?? null, Boolean(s.question)]),
      [
        [{ until: 'cycle', cycle: first }, null, false],
        [
          { until: 'cycle', cycle: first + 300 },
          [
            [4, 5],
            [5, 7],
          ],
          true,
        ],
        [{ until: 'decision', router: 5 }, null, false],
      ],
    );
    assert.equal(doc.scenes[2].view.zoom, Math.round(zoom * 1000) / 1000);
    assert.deepEqual(doc.scenes[2].focus, {
      selector: 'picked',
      channels: [
        [5, 4],
        [4, 6],
      ],
      routers: [5],
      label: 'router 5’s channels',
    });
    await page.waitForFunction(() => window.hiradix.panes.every((p) => p.focus?.reduce((n, x) => n + x, 0) === 2), null, { timeout: 30_000 });
    assert.match(await page.textContent('#legend-focus'), /the detour 5 → 4 → 6/);
    // Share story copies the link.
    await browser.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: new URL(server.url).origin });
    await page.click('#btn-story-share');
    await page.waitForFunction(() => /copied to the clipboard/.test(document.getElementById('notice-text').textContent), null, { timeout: 30_000 });
    const url = await page.evaluate(() => navigator.clipboard.readText());
    assert.equal(url, (await page.evaluate(() => window.hiradix.storyLink())).url);
    assert.match(url, /[?&]story=z%3A|[?&]story=z:/);
    // The author plays scene 1: the picture the class will see there.
    await page.locator('body').focus();
    await page.keyboard.press('PageDown');
    await sceneCount(page, 'Scene 1 of 3');
    await idle(page);
    await page.evaluate(() => window.hiradix.settled());
    const authorPicture = await picture(page);
    assert.equal(authorPicture.cycle, first);
    assert.deepEqual(errors, []);
    await page.close();

    // ---- The link in a fresh browser: the same story and picture; the scenes with the clicker's keys.
    const fresh = await launchBrowser({ width: 1366, height: 768 });
    try {
      const { page: other, errors: otherErrors } = await openPage(fresh.context, url);
      await waitStory(other, ID);
      assert.deepEqual(await other.evaluate(() => window.hiradix.story.doc), doc);
      assert.equal(await other.textContent('#story-title'), 'Detours around switch 5');
      assert.equal(await other.textContent('#story-point'), 'DAL detours around a failed link only within its row.');
      assert.deepEqual(await focusPairs(other), [
        [
          [4, 6],
          [5, 4],
        ],
        [
          [4, 6],
          [5, 4],
        ],
      ]);
      await other.locator('body').focus();
      await other.keyboard.press('PageDown');
      await sceneCount(other, 'Scene 1 of 3');
      await idle(other);
      await other.evaluate(() => window.hiradix.settled());
      assert.deepEqual(await picture(other), authorPicture, 'the same picture at the first scene');
      assert.equal(await other.textContent('#scene-caption'), 'Watch the detour carry 5’s traffic.');
      // Scene 2 asks first (the links have failed), the next press runs on and reveals.
      await other.keyboard.press('PageDown');
      await sceneCount(other, 'Scene 2 of 3');
      await idle(other);
      assert.equal(await other.textContent('#scene-ask'), 'Does DAL still deliver every packet?');
      assert.equal(await other.isVisible('#scene-why'), false, 'not answered before the run');
      assert.deepEqual(await other.evaluate(() => window.hiradix.experiment.config.faults.links), [
        [5, 6],
        [9, 10],
        [4, 5],
        [5, 7],
      ]);
      await other.keyboard.press('PageDown');
      await idle(other);
      await other.waitForFunction(() => !document.getElementById('scene-why').hidden);
      assert.equal(await now(other), first + 300);
      assert.match(await other.textContent('#scene-why'), /^Answer: No: it loses packets too\. DAL detours only within the row\.$/);
      await other.keyboard.press('PageDown');
      await sceneCount(other, 'Scene 3 of 3');
      await idle(other);
      assert.deepEqual(await other.evaluate(() => window.hiradix.selection), { pane: 0, kind: 'router', index: 5 });
      assert.equal(await other.evaluate(() => window.hiradix.experiment.view.zoom), doc.scenes[2].view.zoom, 'the scene zooms in');
      await other.waitForFunction(() => /router 5’s channels/.test(document.getElementById('legend-focus').textContent));
      const scene3Focus = (await focusPairs(other))[0];
      assert.ok(
        scene3Focus.filter(([a]) => a === 5).length >= 3 && scene3Focus.every(([a, b]) => a === 5 || (a === 4 && b === 6)),
        JSON.stringify(scene3Focus),
      );
      // PageUp: back exactly to where scene 2 stopped, and to scene 1 with its links working.
      await other.keyboard.press('PageUp');
      await sceneCount(other, 'Scene 2 of 3');
      await idle(other);
      assert.equal(await now(other), first + 300);
      assert.equal(await other.evaluate(() => window.hiradix.experiment.view.zoom), 1, 'back: the whole network');
      await other.waitForFunction(() => /the detour 5 → 4 → 6/.test(document.getElementById('legend-focus').textContent));
      assert.deepEqual((await focusPairs(other))[0], [
        [4, 6],
        [5, 4],
      ]);
      await other.keyboard.press('PageUp');
      await sceneCount(other, 'Scene 1 of 3');
      await idle(other);
      await other.evaluate(() => window.hiradix.settled());
      assert.deepEqual(await picture(other), authorPicture, 'back at scene 1: the same picture');
      assert.deepEqual(await other.evaluate(() => window.hiradix.experiment.config.faults.links), [
        [5, 6],
        [9, 10],
      ]);

      // ---- Download it, and open the file in another page.
      const [download] = await Promise.all([other.waitForEvent('download'), other.click('#btn-story-download')]);
      assert.equal(download.suggestedFilename(), `${ID}.json`);
      const file = join(dir, `${ID}.json`);
      await download.saveAs(file);
      const opened = await openPage(fresh.context, `${server.url}?preset=min-worst-case`);
      await waitStory(opened.page, 'min-worst-case');
      await opened.page.setInputFiles('#story-file', file);
      await waitStory(opened.page, ID);
      assert.deepEqual(await opened.page.evaluate(() => window.hiradix.story.doc), doc);
      assert.deepEqual(opened.errors, []);
      await opened.page.close();

      // ---- Offline: the service worker has the site; the story is in the link.
      await other.evaluate(() => navigator.serviceWorker.ready);
      await other.waitForFunction(() => navigator.serviceWorker.controller !== null, null, { timeout: 60_000 });
      server.setDown(true);
      await fresh.context.setOffline(true);
      try {
        await other.reload();
        await waitStory(other, ID);
        await other.locator('body').focus();
        await other.keyboard.press('PageDown');
        await sceneCount(other, 'Scene 1 of 3');
        await idle(other);
        await other.evaluate(() => window.hiradix.settled());
        assert.deepEqual(await picture(other), authorPicture, 'offline, the same picture at scene 1');
      } finally {
        await fresh.context.setOffline(false);
        server.setDown(false);
      }
      assert.deepEqual(otherErrors, []);
      await other.close();
    } finally {
      await fresh.close();
    }

    // ---- On a phone: the point and the picture first; a tap inspects.
    const phone = await launchBrowser({ width: 390, height: 844, mobile: true });
    try {
      const { page: p, errors: phoneErrors } = await openPage(phone.context, url);
      await waitStory(p, ID);
      // Laid out and drawn (as the lecture-hall test waits) before a router is tapped.
      await p.waitForFunction(() => window.hiradix.frames > 3 && window.hiradix.sim.now() > 20, null, { timeout: 60_000 });
      const g = await p.evaluate(() => ({
        scrollWidth: document.documentElement.scrollWidth,
        point: document.getElementById('story-point').getBoundingClientRect().toJSON(),
        canvas: document.querySelector('canvas.net').getBoundingClientRect().toJSON(),
      }));
      assert.ok(g.scrollWidth <= 390 && g.point.bottom <= 844 && g.canvas.top < 844 * 0.6, JSON.stringify(g));
      const [x, y] = await routerPoint(p, 5);
      await p.touchscreen.tap(x, y);
      await p.waitForSelector('#inspector', { state: 'visible' });
      assert.deepEqual(await p.evaluate(() => window.hiradix.selection), { pane: 0, kind: 'router', index: 5 });
      assert.deepEqual(phoneErrors, []);
      await p.close();
    } finally {
      await phone.close();
    }

    // ---- Embedded: the picture, the point and the scene bar, which plays.
    const embed = await launchBrowser({ width: 1024, height: 576 });
    try {
      const { page: e, errors: embedErrors } = await openPage(embed.context, `${url}&embed=1`);
      await waitStory(e, ID);
      assert.equal(await e.evaluate(() => window.hiradix.embed), true);
      for (const sel of ['canvas.net', '#story-point', '#scene-bar']) assert.ok(await e.isVisible(sel), `${sel} shows embedded`);
      assert.equal(await e.isVisible('#preset'), false);
      await e.click('#scene-next');
      await sceneCount(e, 'Scene 1 of 3');
      await idle(e);
      assert.equal(await now(e), first);
      assert.deepEqual(embedErrors, []);
      await e.close();
    } finally {
      await embed.close();
    }
  } finally {
    await browser.close();
    await rm(dir, { recursive: true, force: true });
  }
});
