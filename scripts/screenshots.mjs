// Saves screenshots of the page to docs/screenshots/*.png (headless Debian Chromium).
//   node scripts/screenshots.mjs        (after `npm ci`; pkg/ must be built)
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { ROOT, launchBrowser, openPage, startServer } from '../tests/browser/harness.mjs';

const OUT = join(ROOT, 'docs', 'screenshots');
await mkdir(OUT, { recursive: true });

const server = await startServer();
const browser = await launchBrowser({ width: 1280, height: 800 });
try {
  const { page, errors } = await openPage(browser.context, server.url);
  await page.waitForSelector('body[data-state="running"]', { timeout: 20_000 });
  // Let traffic build up, then freeze the picture.
  await page.waitForFunction(() => window.hiradix.sim.now() > 300);
  await page.click('#btn-run');
  await page.screenshot({ path: join(OUT, 'page.png'), fullPage: true });
  console.log(`wrote ${join(OUT, 'page.png')}`);

  await page.fill('#config', JSON.stringify({ topology: { type: 'flattened_butterfly', k: 4, n: 3 }, router: { vcs: 0 }, traffic: { load: 2 } }, null, 2));
  await page.click('#btn-apply');
  await page.waitForSelector('#config-error', { state: 'visible' });
  await page.screenshot({ path: join(OUT, 'config-error.png'), fullPage: true });
  console.log(`wrote ${join(OUT, 'config-error.png')}`);
  // The FB paper's worst case: MIN on router shift saturates at 1/k; the one channel each
  // router's traffic is forced onto is busy and the routers' injection buffers fill up.
  await page.evaluate(() => {
    document.getElementById('config').value = JSON.stringify(window.hiradix.defaultConfig, null, 2);
  });
  await page.click('#btn-apply');
  await page.selectOption('#q-routing', 'min');
  await page.selectOption('#q-pattern', 'router_shift');
  await page.selectOption('#link-metric', 'utilization');
  await page.fill('#cycles-per-frame', '10');
  await page.dispatchEvent('#cycles-per-frame', 'change');
  await page.waitForFunction(() => window.hiradix.sim.now() > 2000);
  await page.click('#btn-run');
  await page.screenshot({ path: join(OUT, 'worst-case-min.png'), fullPage: true });
  console.log(`wrote ${join(OUT, 'worst-case-min.png')}`);

  if (errors.length) {
    console.error(`page reported errors:\n${errors.join('\n')}`);
    process.exitCode = 1;
  }
} finally {
  await browser.close();
  await server.close();
}
