// Screenshots of the teaching features (docs/lecture.md) into docs/screenshots/teaching/:
//
//   packets-1366x768.png, packets-1920x1080.png   packets travelling on a 72-node dragonfly
//       (slow motion, UGAL-L under group shift at load 0.15, channels of 2 and 5 cycles so
//       packets spread along them), one packet traced: its path magenta, the packet large and outlined
//   packets-1366x768-greyscale.png, -deuteranopia.png   the same as seen in greyscale and
//       with deuteranopia (colour matrices as in ../shared/tools/story-shots.mjs)
//   run-until-menu.png       the run-until menu with a router selected (drawn as an open
//       list: headless Chromium does not paint native drop-downs)
//   run-until-reached.png    after "next non-minimal decision at router 5": paused, the
//       notice, the router in the inspector with its decision counts
//   decisions-story-1366x768.png   the UGAL-L story with its key plot "Where packets go
//       non-minimally" and the routers coloured by their non-minimal share
//   decisions-small-1366x768.png   the same colouring on the 72-node dragonfly, UGAL-L vs UGAL-G
//
//   node scripts/teaching-shots.mjs        (after `npm ci`; pkg/ must be built)
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { ROOT, launchBrowser, openPage, startServer } from '../tests/browser/harness.mjs';

const OUT = join(ROOT, 'docs', 'screenshots', 'teaching');
const DF72 =
  'topology.type=dragonfly&topology.p=2&topology.a=4&topology.h=2&topology.g=9&routing.algorithm=ugal_l&traffic.pattern=group_shift&traffic.load=0.3';
const MATRICES = {
  deuteranopia: '0.367 0.861 -0.228 0 0  0.280 0.673 0.047 0 0  -0.012 0.043 0.969 0 0  0 0 0 1 0',
  greyscale: '0.299 0.587 0.114 0 0  0.299 0.587 0.114 0 0  0.299 0.587 0.114 0 0  0 0 0 1 0',
};

await mkdir(OUT, { recursive: true });
const server = await startServer();

async function withPage(width, height, query, fn) {
  const browser = await launchBrowser({ width, height });
  try {
    const { page, errors } = await openPage(browser.context, `${server.url}${query}`);
    await page.waitForSelector('body[data-state="running"], body[data-state="paused"]', { timeout: 60_000 });
    await fn(page);
    if (errors.length) console.error(`${query}: ${errors.join('\n')}`);
  } finally {
    await browser.close();
  }
}

const shot = (page, name, opts = {}) => page.screenshot({ path: join(OUT, `${name}.png`), ...opts });

// Packets in motion, one traced: paused once the traced packet is on a link.
async function packets(page, name, filters = false) {
  await page.waitForFunction(() => window.hiradix.sim.now() > 60, null, { timeout: 60_000 });
  await page.evaluate(() => window.hiradix.trace.armAt(9));
  await page.waitForFunction(
    () => (window.hiradix.panes[0].view.packetsDrawn?.followed ?? 0) > 0 && window.hiradix.trace.data[0]?.trace?.hops.length >= 3,
    null,
    { timeout: 120_000 },
  );
  await page.click('#btn-run');
  await page.waitForSelector('body[data-state="paused"]');
  await page.waitForTimeout(900);
  await shot(page, name);
  if (!filters) return;
  for (const [filter, matrix] of Object.entries(MATRICES)) {
    await page.evaluate((m) => {
      document.getElementById('cvd-filter')?.remove();
      const svg = document.createElementNS('http://www.w3.org/2000/svg', 'svg');
      svg.id = 'cvd-filter';
      svg.setAttribute('width', '0');
      svg.setAttribute('height', '0');
      const f = document.createElementNS('http://www.w3.org/2000/svg', 'filter');
      f.id = 'cvd';
      const c = document.createElementNS('http://www.w3.org/2000/svg', 'feColorMatrix');
      c.setAttribute('type', 'matrix');
      c.setAttribute('values', m);
      f.append(c);
      svg.append(f);
      document.body.append(svg);
      document.documentElement.style.filter = 'url(#cvd)';
    }, matrix);
    await page.waitForTimeout(200);
    await shot(page, `${name}-${filter}`);
  }
}

const slow = `?${DF72.replace('load=0.3', 'load=0.15')}&router.local_latency=2&router.global_latency=5&speed=0.125`;
await withPage(1366, 768, slow, (page) => packets(page, 'packets-1366x768', true));
await withPage(1920, 1080, slow, (page) => packets(page, 'packets-1920x1080'));

await withPage(1366, 768, `?${DF72}&vary=routing.algorithm&values=ugal_l|ugal_g&speed=2`, async (page) => {
  await page.waitForFunction(() => window.hiradix.sim.now() > 200, null, { timeout: 60_000 });
  // Pin router 5 of pane A with a click, as a lecturer would.
  const [x, y] = await page.evaluate(() => {
    const p = window.hiradix.panes[0];
    const [px, py] = p.view.routerPoint(5);
    const r = p.canvas.getBoundingClientRect();
    const dpr = window.devicePixelRatio || 1;
    return [r.left + px / dpr, r.top + py / dpr];
  });
  await page.mouse.click(x, y);
  await page.waitForFunction(() => window.hiradix.selection?.index === 5);
  await page.selectOption('#until-kind', 'nonminimal');
  await page.evaluate(() => {
    const s = document.getElementById('until-kind');
    const left = s.offsetLeft;
    const top = s.offsetTop;
    s.size = 4;
    Object.assign(s.style, { position: 'absolute', zIndex: '50', width: 'auto', left: `${left}px`, top: `${top}px` });
  });
  await page.waitForTimeout(300);
  const box = await page.$eval('.toolbar', (e) => e.getBoundingClientRect().toJSON());
  await shot(page, 'run-until-menu', { clip: { x: 0, y: Math.max(0, box.top - 8), width: 1366, height: box.height + 90 } });
  await page.evaluate(() => {
    const s = document.getElementById('until-kind');
    s.size = 0;
    Object.assign(s.style, { position: '', zIndex: '', width: '', left: '', top: '' });
  });
  await page.click('#btn-until');
  await page.waitForFunction(() => /non-minimally at cycle/.test(document.getElementById('notice-text').textContent), null, { timeout: 60_000 });
  await page.mouse.move(2, 2);
  await page.waitForTimeout(900);
  await shot(page, 'run-until-reached');
});

await withPage(1366, 768, '?preset=ugal-l-misjudges&routers=nonmin', async (page) => {
  await page.waitForFunction(() => window.hiradix.sim.now() > 2000, null, { timeout: 120_000 });
  await page.waitForTimeout(600);
  await shot(page, 'decisions-story-1366x768');
});

await withPage(1366, 768, `?${DF72}&vary=routing.algorithm&values=ugal_l|ugal_g&routers=nonmin&speed=5`, async (page) => {
  await page.waitForFunction(() => window.hiradix.sim.now() > 1500, null, { timeout: 120_000 });
  await page.waitForTimeout(600);
  await shot(page, 'decisions-small-1366x768');
});

await server.close();
console.log(`screenshots in ${OUT}`);
