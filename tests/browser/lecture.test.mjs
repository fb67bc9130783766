// The page in front of a class: a stable layout (hovering, the inspector, `t` and messages
// move nothing; the canvases follow the window and are crisp at devicePixelRatio 2),
// present mode (no scroll, large text, few controls), the keyboard (Space on a focused
// control is that control's), the colour legend beside the picture and in the PNG export,
// Reset keeping the pause, stories surviving tweaks, messages clearing with their cause.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { launchBrowser, openPage, startServer } from './harness.mjs';

let server;
let browser;
before(async () => {
  server = await startServer();
  browser = await launchBrowser({ width: 1366, height: 768 });
});
after(async () => {
  await browser?.close();
  await server?.close();
});

async function open(query, state = 'running') {
  const { page, errors } = await openPage(browser.context, `${server.url}${query}`);
  await page.waitForSelector(`body[data-state="${state}"]`, { timeout: 60_000 });
  await page.waitForFunction(() => window.hiradix.panes.length > 0 && window.hiradix.frames > 3);
  return { page, errors };
}

// Bounding boxes of what must not move.
const boxes = (page) =>
  page.evaluate(() =>
    JSON.stringify(
      ['stage', 'key', 'legend', 'panes', 'key-plot-0']
        .map((id) => document.getElementById(id).getBoundingClientRect().toJSON())
        .concat(
          [...document.querySelectorAll('canvas.net')].map((c) => c.getBoundingClientRect().toJSON()),
          [document.querySelector('.toolbar').getBoundingClientRect().toJSON()],
        ),
    ),
  );

test('hovering a router, pinning it, t and a notice move nothing on the page', { timeout: 120_000 }, async () => {
  const { page, errors } = await open('?preset=min-worst-case');
  const before = await boxes(page);
  // Hover a router: the inspector shows over the key column.
  const [x, y] = await page.evaluate(() => {
    const p = window.hiradix.panes[0];
    const [px, py] = p.view.routerPoint(3);
    const r = p.canvas.getBoundingClientRect();
    const dpr = window.devicePixelRatio || 1;
    return [r.left + px / dpr, r.top + py / dpr];
  });
  await page.mouse.move(x, y);
  await page.waitForSelector('#inspector', { state: 'visible' });
  assert.ok((await page.$eval('#inspector', (e) => e.getBoundingClientRect().height)) > 100, 'the inspector shows something');
  assert.equal(await boxes(page), before, 'hovering moved the layout');
  await page.mouse.click(x, y);
  await page.waitForFunction(() => /pinned/.test(document.getElementById('inspector-mode').textContent));
  assert.equal(await boxes(page), before, 'pinning moved the layout');
  await page.keyboard.press('Escape');
  await page.mouse.move(2, 2);
  await page.waitForSelector('#inspector', { state: 'hidden' });
  // t: trace picking, with its notice.
  await page.keyboard.press('t');
  await page.waitForSelector('#notice', { state: 'visible' });
  assert.equal(await boxes(page), before, 't moved the layout');
  await page.keyboard.press('t');
  await page.waitForSelector('#notice', { state: 'hidden' });
  assert.equal(await boxes(page), before);
  assert.deepEqual(errors, []);
  await page.close();
});

test('the canvases follow the window (ResizeObserver) and stay above the fold', { timeout: 120_000 }, async () => {
  const { page, errors } = await open('?preset=min-worst-case');
  const size = () =>
    page.evaluate(() => {
      const c = document.querySelector('canvas.net');
      const r = c.getBoundingClientRect();
      // The story's scene bar (one line) is what the class steps through the story with.
      const bar = document.getElementById('scene-bar').getBoundingClientRect().height;
      return { w: r.width, h: r.height, bottom: r.bottom, vh: window.innerHeight, bar, backing: [c.width, c.height] };
    });
  const small = await size();
  assert.ok(small.bottom <= small.vh, `canvas below the fold at 1366×768: ${JSON.stringify(small)}`);
  assert.ok(small.bar < 45, `the scene bar takes one line: ${JSON.stringify(small)}`);
  assert.ok(small.h + small.bar >= 0.6 * small.vh, `the picture does not fill the window: ${JSON.stringify(small)}`);
  await page.setViewportSize({ width: 1920, height: 1080 });
  await page.waitForFunction((h) => document.querySelector('canvas.net').getBoundingClientRect().height > h + 100, small.h);
  await page.waitForTimeout(200);
  const big = await size();
  assert.ok(big.bottom <= big.vh, `canvas below the fold at 1920×1080: ${JSON.stringify(big)}`);
  // The backing store follows the CSS size (devicePixelRatio 1 here).
  assert.deepEqual(big.backing, [Math.round(big.w), Math.round(big.h)]);
  await page.setViewportSize({ width: 1366, height: 768 });
  assert.deepEqual(errors, []);
  await page.close();
});

test('crisp at devicePixelRatio 2: canvases and plots are drawn at twice their CSS size', { timeout: 120_000 }, async () => {
  const { page, errors } = await open('?preset=min-worst-case');
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Emulation.setDeviceMetricsOverride', { width: 1366, height: 768, deviceScaleFactor: 2, mobile: false });
  await page.waitForFunction(() => window.devicePixelRatio === 2);
  await page.waitForFunction(() => {
    const c = document.querySelector('canvas.net');
    return c.width === Math.round(2 * c.getBoundingClientRect().width);
  });
  await page.waitForTimeout(500);
  const r = await page.evaluate(() =>
    ['canvas.net', '#key-plot-0'].map((s) => {
      const c = document.querySelector(s);
      const b = c.getBoundingClientRect();
      return [c.width, c.height, Math.round(2 * b.width), Math.round(2 * b.height)];
    }),
  );
  for (const [w, h, ww, hh] of r) assert.ok(Math.abs(w - ww) <= 1 && Math.abs(h - hh) <= 1, `backing ${w}×${h} vs 2× CSS ${ww}×${hh}`);
  await cdp.send('Emulation.clearDeviceMetricsOverride');
  assert.deepEqual(errors, []);
  await page.close();
});

test("Space on a focused button is the button's: it does not also toggle play", { timeout: 120_000 }, async () => {
  const { page, errors } = await open('?preset=min-worst-case');
  // Focused Run/Pause button: Space pauses once (before the fix: the button paused, the page
  // ran again).
  await page.focus('#btn-run');
  await page.keyboard.press(' ');
  await page.waitForSelector('body[data-state="paused"]');
  await page.waitForTimeout(300);
  assert.equal(await page.evaluate(() => document.body.dataset.state), 'paused');
  // Focused Step button: Space steps one cycle and stays paused.
  const t0 = await page.evaluate(() => window.hiradix.sim.now());
  await page.focus('#btn-step');
  await page.keyboard.press(' ');
  await page.evaluate(() => window.hiradix.settled());
  await page.waitForTimeout(300);
  assert.equal(await page.evaluate(() => window.hiradix.sim.now()), t0 + 1);
  assert.equal(await page.evaluate(() => document.body.dataset.state), 'paused');
  // Nothing focused: Space toggles play; → steps.
  await page.evaluate(() => document.activeElement?.blur());
  await page.keyboard.press('ArrowRight');
  await page.evaluate(() => window.hiradix.settled());
  assert.equal(await page.evaluate(() => window.hiradix.sim.now()), t0 + 2);
  await page.keyboard.press(' ');
  await page.waitForSelector('body[data-state="running"]');
  assert.deepEqual(errors, []);
  await page.close();
});

test('keyboard: a network canvas takes focus and ↑ ↓ walk its routers with the inspector following', { timeout: 60_000 }, async () => {
  const { page, errors } = await open('?preset=min-worst-case');
  await page.focus('#network');
  await page.keyboard.press('ArrowDown');
  await page.waitForFunction(() => window.hiradix.selection?.kind === 'router' && window.hiradix.selection.index === 0);
  await page.waitForFunction(() => /Router 0\b/.test(document.getElementById('inspector-body').textContent), null, { timeout: 10_000 });
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('ArrowDown');
  await page.waitForFunction(() => window.hiradix.selection.index === 2);
  await page.keyboard.press('ArrowUp');
  await page.waitForFunction(() => /Router 1\b/.test(document.getElementById('inspector-body').textContent), null, { timeout: 10_000 });
  assert.equal(await page.isVisible('#inspector'), true);
  await page.keyboard.press('Escape');
  await page.waitForSelector('#inspector', { state: 'hidden' });
  assert.deepEqual(errors, []);
  await page.close();
});

test('every control of the toolbar and the story has a name a screen reader can say', { timeout: 60_000 }, async () => {
  const { page, errors } = await open('?preset=min-worst-case');
  const unnamed = await page.evaluate(() =>
    [...document.querySelectorAll('.toolbar input, .toolbar select, .toolbar button, header button, header select, #story button, #story summary')]
      .filter((e) => {
        const byLabel = e.labels && [...e.labels].some((l) => l.textContent.trim());
        return !(byLabel || e.getAttribute('aria-label') || e.textContent.trim());
      })
      .map((e) => e.id || e.outerHTML.slice(0, 60)),
  );
  assert.deepEqual(unnamed, []);
  assert.deepEqual(errors, []);
  await page.close();
});

test('usable at 200 % zoom: nothing wider than the window, the controls reachable', { timeout: 120_000 }, async () => {
  const { page, errors } = await open('?preset=dal-swap2');
  // 200 % zoom of a 1366×768 screen is a 683×384 CSS-pixel window.
  await page.setViewportSize({ width: 683, height: 384 });
  await page.waitForTimeout(500);
  const r = await page.evaluate(() => ({
    scrollW: document.documentElement.scrollWidth,
    vw: window.innerWidth,
    nets: [...document.querySelectorAll('canvas.net')].map((c) => c.getBoundingClientRect().width),
  }));
  assert.ok(r.scrollW <= r.vw + 1, `the page is wider than the window: ${JSON.stringify(r)}`);
  assert.ok(
    r.nets.every((w) => w > 150),
    `canvases too narrow: ${r.nets}`,
  );
  await page.click('#btn-run');
  await page.waitForSelector('body[data-state="paused"]');
  await page.setViewportSize({ width: 1366, height: 768 });
  assert.deepEqual(errors, []);
  await page.close();
});

test('present mode: picture and key plot fill the window, no scroll, text ≥ 16 px, few controls; p and the URL', { timeout: 120_000 }, async () => {
  const { page, errors } = await open('?preset=min-worst-case&present=1');
  await page.waitForTimeout(800);
  const r = await page.evaluate(() => {
    const vis = (e) => e.offsetParent !== null && e.getBoundingClientRect().width > 0;
    // Every visible element with its own text.
    const small = [];
    for (const e of document.querySelectorAll('body *')) {
      if (!vis(e) || ['SCRIPT', 'STYLE', 'CANVAS'].includes(e.tagName)) continue;
      const own = [...e.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim());
      if (own && parseFloat(getComputedStyle(e).fontSize) < 16)
        small.push(`${e.tagName}#${e.id}.${e.className}: ${getComputedStyle(e).fontSize} "${e.textContent.trim().slice(0, 30)}"`);
    }
    const net = document.querySelector('canvas.net').getBoundingClientRect();
    const key = document.getElementById('key-plot-0').getBoundingClientRect();
    return {
      scrollH: document.documentElement.scrollHeight,
      scrollW: document.documentElement.scrollWidth,
      vh: window.innerHeight,
      vw: window.innerWidth,
      small,
      net: net.toJSON(),
      key: key.toJSON(),
      controls: [...document.querySelectorAll('.toolbar button, .toolbar input, .toolbar select')].filter(vis).map((e) => e.id),
      header: vis(document.querySelector('header')),
      point: vis(document.getElementById('story-point')),
    };
  });
  assert.ok(r.scrollH <= r.vh && r.scrollW <= r.vw, `the page scrolls in present mode: ${r.scrollW}×${r.scrollH}`);
  assert.deepEqual(r.small, [], 'text under 16 px in present mode');
  assert.ok(r.net.bottom <= r.vh && r.key.bottom <= r.vh && r.key.height > 150, `picture or key plot not in the window: ${JSON.stringify([r.net, r.key])}`);
  assert.ok(r.net.height > 0.6 * r.vh || r.net.width > 0.3 * r.vw, 'the picture does not fill the window');
  assert.deepEqual(r.controls.sort(), ['btn-present-exit', 'btn-run', 'btn-back', 'btn-step', 'cycles-per-frame', 'speed-slider'].sort());
  assert.equal(r.header, false, 'the header is shown in present mode');
  assert.equal(r.point, true, 'the story text is hidden in present mode');
  // p leaves present mode (and the URL forgets it), p again enters it.
  await page.evaluate(() => document.activeElement?.blur());
  await page.keyboard.press('p');
  await page.waitForFunction(() => !document.body.classList.contains('present'));
  await page.waitForFunction(() => !location.search.includes('present=1'));
  await page.keyboard.press('p');
  await page.waitForFunction(() => document.body.classList.contains('present') && location.search.includes('present=1'));
  // The picture keeps animating in present mode.
  const t0 = await page.evaluate(() => window.hiradix.sim.now());
  await page.waitForFunction((t) => window.hiradix.sim.now() > t + 20, t0);
  assert.deepEqual(errors, []);
  await page.close();
  // A present value other than 0 or 1 is refused with a message.
  const bad = await open('?preset=min-worst-case&present=yes');
  await bad.page.waitForSelector('#notice', { state: 'visible' });
  assert.match(await bad.page.textContent('#notice-text'), /present: 'yes' is not 0 or 1/);
  assert.equal(await bad.page.evaluate(() => document.body.classList.contains('present')), false);
  await bad.page.close();
});

test('the colour legend is beside the picture and in the PNG export', { timeout: 120_000 }, async () => {
  const { page, errors } = await open('?preset=dal-swap2');
  const legend = await page.evaluate(() => {
    const l = document.getElementById('legend').getBoundingClientRect();
    const c = document.querySelector('canvas.net').getBoundingClientRect();
    return { l: l.toJSON(), c: c.toJSON(), vh: window.innerHeight, text: document.getElementById('legend').textContent };
  });
  assert.ok(legend.l.bottom <= legend.vh && legend.l.top < legend.c.bottom, `legend not beside the picture: ${JSON.stringify(legend)}`);
  assert.match(legend.text, /flits sent on the channel per cycle/);
  assert.match(legend.text, /orange casing: Swap2's minimal channels/);
  assert.match(legend.text, /1 flit\/cycle/);
  // The export: the panes, then the ramp; its colours are the ramp's (light idle on the
  // left, dark busy on the right) and the exported image is taller than the canvases.
  const png = await page.evaluate(async () => {
    const blob = await window.hiradix.exportPng();
    const bmp = await createImageBitmap(blob);
    const c = document.createElement('canvas');
    c.width = bmp.width;
    c.height = bmp.height;
    const ctx = c.getContext('2d');
    ctx.drawImage(bmp, 0, 0);
    const netH = Math.max(...window.hiradix.panes.map((p) => p.canvas.height));
    const y = 24 + netH + 6 + 7; // the ramp's middle row (devicePixelRatio 1)
    const px = (x) => Array.from(ctx.getImageData(x, y, 1, 1).data.slice(0, 3));
    return { w: bmp.width, h: bmp.height, netH, lo: px(10), hi: px(8 + 410), type: blob.type };
  });
  assert.equal(png.type, 'image/png');
  assert.ok(png.h > png.netH + 60, `no room for the legend: ${JSON.stringify(png)}`);
  const lum = ([r, g, b]) => 0.299 * r + 0.587 * g + 0.114 * b;
  assert.ok(lum(png.lo) > 180 && lum(png.hi) < 80, `the exported ramp is not light → dark: ${JSON.stringify(png)}`);
  assert.deepEqual(errors, []);
  await page.close();
});

test('the ramp: idle light, busy dark, lightness falling monotonically (survives greyscale)', { timeout: 60_000 }, async () => {
  const { page, errors } = await open('?preset=min-worst-case');
  const l = await page.evaluate(async () => {
    const { rampRgb } = await import('/www/render/network-view.js');
    return Array.from({ length: 21 }, (_, i) => rampRgb(i / 20)).map(([r, g, b]) => 0.299 * r + 0.587 * g + 0.114 * b);
  });
  assert.ok(l[0] > 200 && l[20] < 40, `idle ${l[0]}, full ${l[20]}`);
  for (let i = 1; i < l.length; i++) assert.ok(l[i] < l[i - 1] + 1e-9, `lightness rises at ${i / 20}: ${l}`);
  assert.deepEqual(errors, []);
  await page.close();
});

test('Reset keeps the pause; a tweak keeps the story (marked modified); Reset story restores it', { timeout: 120_000 }, async () => {
  const { page, errors } = await open('?preset=min-worst-case&paused=1', 'paused');
  await page.click('#btn-step');
  await page.click('#btn-step');
  await page.evaluate(() => window.hiradix.settled());
  assert.ok((await page.evaluate(() => window.hiradix.sim.now())) >= 2);
  await page.click('#btn-reset');
  await page.waitForFunction(() => window.hiradix.sim.now() === 0);
  await page.waitForTimeout(400);
  assert.equal(await page.evaluate(() => [document.body.dataset.state, window.hiradix.sim.now()].join()), 'paused,0', 'Reset un-paused');
  // A tweak: the story stays, marked modified.
  const ctl = '#ctl-traffic-load';
  await page.$eval(ctl, (e) => e.closest('details')?.setAttribute('open', ''));
  await page.fill(ctl, '0.2');
  await page.dispatchEvent(ctl, 'change');
  await page.waitForFunction(() => window.hiradix.experiment.config.traffic.load === 0.2);
  assert.equal(await page.isVisible('#story'), true, 'the story went away');
  assert.equal(await page.isVisible('#story-modified'), true, 'not marked modified');
  assert.match(await page.textContent('#story-point'), /orange-cased/);
  assert.match(await page.evaluate(() => location.search), /preset=min-worst-case/);
  // Reset story: the preset's settings again, still paused, no longer modified.
  const paused = await page.evaluate(() => window.hiradix.running === false);
  await page.click('#story-restore');
  await page.waitForFunction(() => window.hiradix.experiment.config.traffic.load === 0.3);
  await page.waitForTimeout(300);
  assert.equal(await page.isVisible('#story-modified'), false);
  assert.equal(await page.evaluate(() => window.hiradix.running), !paused);
  assert.deepEqual(errors, []);
  await page.close();
});

test('a message clears when its cause is gone', { timeout: 120_000 }, async () => {
  const { page, errors } = await open('?preset=min-worst-case&bogus.key=1');
  await page.waitForSelector('#notice', { state: 'visible' });
  assert.match(await page.textContent('#notice-text'), /bogus\.key/);
  // Another experiment: the link's refused key is no longer the page's state.
  await page.selectOption('#preset', 'dal-swap2');
  await page.waitForFunction(() => window.hiradix.experiment.preset === 'dal-swap2' && window.hiradix.panes.length === 3);
  await page.waitForSelector('#notice', { state: 'hidden' });
  assert.deepEqual(
    errors.filter((e) => !/bogus/.test(e)),
    [],
  );
  await page.close();
});

test('run until a cycle: runs on and pauses exactly there', { timeout: 60_000 }, async () => {
  const { page, errors } = await open('?preset=min-worst-case&paused=1', 'paused');
  const c = await page.evaluate(() => window.hiradix.sim.now());
  await page.fill('#run-until', String(c + 37));
  await page.dispatchEvent('#run-until', 'change');
  await page.waitForFunction((n) => window.hiradix.sim.now() >= n, c + 37, { timeout: 30_000 });
  await page.waitForSelector('body[data-state="paused"]');
  await page.waitForTimeout(300);
  assert.equal(await page.evaluate(() => window.hiradix.sim.now()), c + 37);
  assert.equal(await page.inputValue('#run-until'), '', 'the stop is used up');
  assert.deepEqual(errors, []);
  await page.close();
});
