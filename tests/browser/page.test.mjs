// End-to-end tests of the static page in headless Chromium:
// it loads the wasm, animates the network, and reports bad input in the page.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { canvasDigest, launchBrowser, openPage, startServer } from './harness.mjs';

// A config the engine must reject, and words its error message must contain.
const BAD_CONFIG = {
  config: { topology: { type: 'flattened_butterfly', k: 4, n: 3 }, router: { vcs: 0 }, traffic: { load: 2 } },
  mentions: ['router.vcs', 'traffic.load'],
};

let server;
let browser;

before(async () => {
  server = await startServer();
  browser = await launchBrowser();
});

after(async () => {
  await browser?.close();
  await server?.close();
});

async function loadRunning() {
  const { page, errors } = await openPage(browser.context, server.url);
  await page.waitForSelector('body[data-state="running"]', { timeout: 20_000 });
  return { page, errors };
}

test('page loads, animates the network and logs no errors', { timeout: 60_000 }, async () => {
  const { page, errors } = await loadRunning();
  await page.waitForFunction(() => window.hiradix.frames > 5);
  const first = await canvasDigest(page);
  assert.ok(first.painted > 0.01 * first.width * first.height, 'canvas is (nearly) blank');
  const cycle0 = Number(await page.textContent('#stat-cycle'));
  // Let the simulation run for a while, then compare.
  await page.waitForFunction((n) => window.hiradix.sim.now() > n + 40, cycle0);
  const second = await canvasDigest(page);
  assert.notEqual(second.hash, first.hash, 'canvas pixels did not change between frames');
  const routers = Number(await page.textContent('#stat-routers'));
  const channels = Number(await page.textContent('#stat-channels'));
  assert.ok(routers > 1, `router count ${routers}`);
  assert.ok(channels > routers, `channel count ${channels}`);
  assert.equal(await page.isVisible('#error-banner'), false, 'error banner is shown');
  assert.deepEqual(errors, []);
  await page.close();
});

test('links can be coloured by channel utilization', { timeout: 60_000 }, async () => {
  const { page, errors } = await loadRunning();
  await page.selectOption('#link-metric', 'utilization');
  assert.match(await page.textContent('#legend-metric'), /per cycle/);
  const util = await page.evaluate(() => Array.from(window.hiradix.sim.channelUtilization()));
  assert.ok(util.every((u) => u >= 0 && u <= 1), 'utilization outside [0, 1]');
  // Under load some channel is busy.
  await page.waitForFunction(() => Math.max(...window.hiradix.sim.channelUtilization()) > 0.2);
  const first = await canvasDigest(page);
  const t0 = await page.evaluate(() => window.hiradix.sim.now());
  await page.waitForFunction((n) => window.hiradix.sim.now() > n + 40, t0);
  assert.notEqual((await canvasDigest(page)).hash, first.hash);
  assert.deepEqual(errors, []);
  await page.close();
});

test('pause stops the simulation and step advances one cycle', { timeout: 60_000 }, async () => {
  const { page, errors } = await loadRunning();
  await page.click('#btn-run');
  await page.waitForSelector('body[data-state="paused"]');
  const t0 = await page.evaluate(() => window.hiradix.sim.now());
  await page.waitForTimeout(200);
  assert.equal(await page.evaluate(() => window.hiradix.sim.now()), t0, 'paused sim advanced');
  await page.click('#btn-step');
  assert.equal(await page.evaluate(() => window.hiradix.sim.now()), t0 + 1);
  assert.deepEqual(errors, []);
  await page.close();
});

test('an invalid config shows its errors next to the config and keeps running', { timeout: 60_000 }, async () => {
  const { page, errors } = await loadRunning();
  const bad = BAD_CONFIG;
  await page.fill('#config', JSON.stringify(bad.config, null, 2));
  await page.click('#btn-apply');
  await page.waitForSelector('#config-error', { state: 'visible' });
  const text = await page.textContent('#config-error');
  for (const needle of bad.mentions) {
    assert.ok(text.includes(needle), `error message ${JSON.stringify(text)} lacks ${JSON.stringify(needle)}`);
  }
  // Malformed JSON gets a message too.
  await page.fill('#config', '{"topology": ');
  await page.click('#btn-apply');
  await page.waitForFunction(() => /not valid JSON/.test(document.getElementById('config-error').textContent));
  // The previous simulation keeps running, and nothing crashed.
  const t0 = await page.evaluate(() => window.hiradix.sim.now());
  await page.waitForFunction((n) => window.hiradix.sim.now() > n, t0);
  assert.equal(await page.isVisible('#error-banner'), false);
  // Fixing the config clears the message.
  await page.click('#btn-reset');
  assert.equal(await page.isVisible('#config-error'), true, 'reset with a bad config must keep the message');
  await page.evaluate(() => {
    document.getElementById('config').value = JSON.stringify(window.hiradix.defaultConfig);
  });
  await page.click('#btn-apply');
  await page.waitForSelector('#config-error', { state: 'hidden' });
  assert.deepEqual(errors, []);
  await page.close();
});

test('a Rust panic shows the error banner instead of killing the page', { timeout: 60_000 }, async () => {
  const { page, errors } = await loadRunning();
  await page.evaluate(() => window.hiradix.triggerPanicForTest());
  await page.waitForSelector('#error-banner', { state: 'visible' });
  assert.match(await page.textContent('#error-text'), /panic requested by the page's test hook/);
  await page.waitForSelector('body[data-state="crashed"]');
  // The panic hook logs to the console; nothing else may.
  assert.ok(errors.length >= 1 && errors.every((e) => e.includes('panic requested')), errors.join('\n'));
  // Reset recovers.
  await page.click('#error-reset');
  await page.waitForSelector('body[data-state="running"]');
  assert.equal(await page.isVisible('#error-banner'), false);
  await page.close();
});

test('every topology in the catalog runs or explains why not', { timeout: 120_000 }, async () => {
  const { page, errors } = await loadRunning();
  const catalog = await page.evaluate(() => window.hiradix.catalog);
  assert.ok(catalog.topologies.length >= 1);
  for (const topo of catalog.topologies) {
    await page.selectOption('#q-topology', topo.name);
    // Either the simulation runs, or the config error says why (e.g. not built yet).
    await page.waitForFunction(
      () => !document.getElementById('config-error').hidden || window.hiradix.sim?.now() > 20,
      null,
      { timeout: 30_000 },
    );
    const message = await page.textContent('#config-error');
    if (!(await page.isVisible('#config-error'))) {
      const cfg = JSON.parse(await page.inputValue('#config'));
      assert.equal(cfg.topology.type, topo.name);
      assert.ok(Number(await page.textContent('#stat-routers')) > 1, topo.name);
    } else {
      // A config error names the field it concerns: `path: message`.
      assert.match(message, /^[\w.()]+: \S/m, `${topo.name}: ${message}`);
    }
    assert.equal(await page.isVisible('#error-banner'), false, `${topo.name} crashed the page`);
  }
  assert.deepEqual(errors, []);
  await page.close();
});
