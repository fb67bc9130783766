// The experiment lives in the URL: a page opened from another page's URL shows the same
// experiment (config, side-by-side values, speed, view); a malformed or invalid URL gives
// a clear message and the page still runs.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { setControl, setup } from './page-helpers.mjs';

let env;
before(async () => {
  env = await setup();
});
after(async () => {
  await env?.close();
});

const experimentOf = (page) => page.evaluate(() => JSON.parse(JSON.stringify(window.hiradix.experiment)));

test('the URL round-trips an experiment', { timeout: 180_000 }, async () => {
  const { page, errors } = await env.open();
  await setControl(page, 'topology.type', 'dragonfly');
  await page.waitForFunction(() => window.hiradix.experiment.config.topology.type === 'dragonfly');
  await setControl(page, 'topology.g', 5);
  await setControl(page, 'routing.algorithm', 'ugal_l');
  await setControl(page, 'traffic.pattern', 'group_shift');
  await setControl(page, 'traffic.load', 0.35);
  await setControl(page, 'router.buffer_depth', 12);
  await setControl(page, 'seed', 7);
  await page.waitForFunction(() => window.hiradix.experiment.config.seed === 7);
  await page.selectOption('#compare-param', 'routing.algorithm');
  await page.fill('#compare-values', 'ugal_l | ugal_g');
  await page.dispatchEvent('#compare-values', 'change');
  await page.waitForFunction(() => window.hiradix.panes.length === 2);
  await page.fill('#cycles-per-frame', '3');
  await page.dispatchEvent('#cycles-per-frame', 'change');
  await page.selectOption('#link-metric', 'vc1');
  // Zoom with the wheel over the first canvas.
  const box = await page.locator('#network').boundingBox();
  await page.mouse.move(box.x + box.width * 0.3, box.y + box.height * 0.4);
  await page.mouse.wheel(0, -600);
  await page.waitForFunction(() => window.hiradix.experiment.view.zoom > 1.5);
  await page.waitForFunction(() => location.search.includes('zoom='));
  const url = page.url();
  const original = await experimentOf(page);
  assert.match(url, /topology\.type=dragonfly/);
  assert.match(url, /vary=routing\.algorithm/);

  const second = await env.open(url.slice(url.indexOf('?')));
  const copy = await experimentOf(second.page);
  assert.deepEqual(copy.config, original.config);
  assert.deepEqual(copy.compare, original.compare);
  assert.equal(copy.speed, 3);
  assert.equal(copy.view.metric, 'vc1');
  assert.ok(Math.abs(copy.view.zoom - original.view.zoom) < 0.01, `zoom ${copy.view.zoom} vs ${original.view.zoom}`);
  assert.ok(Math.abs(copy.view.cx - original.view.cx) < 1e-3 && Math.abs(copy.view.cy - original.view.cy) < 1e-3);
  assert.equal(await second.page.evaluate(() => window.hiradix.panes.length), 2);
  assert.equal(await second.page.isVisible('#notice'), false, 'a valid link produced a notice');
  // The URL is the CLI's --set syntax: every config key is a known config path.
  for (const [k, v] of new URL(url).searchParams) {
    if (!['vary', 'values', 'speed', 'metric', 'zoom', 'center', 'cells', 'preset', 'paused'].includes(k)) assert.match(`${k}=${v}`, /^[a-z_.]+=\S+$/);
  }
  assert.deepEqual([...errors, ...second.errors], []);
  await page.close();
  await second.page.close();
});

test('a preset link loads the preset', { timeout: 120_000 }, async () => {
  const { page, errors } = await env.open('?preset=min-worst-case');
  const exp = await experimentOf(page);
  assert.equal(exp.preset, 'min-worst-case');
  assert.equal(exp.config.traffic.pattern, 'router_shift');
  assert.deepEqual(exp.compare.values, ['min', 'val']);
  assert.equal(await page.isVisible('#story'), true);
  assert.deepEqual(errors, []);
  await page.close();
});

test('a malformed or invalid URL gives a clear message and the page keeps working', { timeout: 120_000 }, async () => {
  // Unknown keys and values that cannot be used: reported, the rest applied.
  let { page, errors } = await env.open('?topology.type=hypercube&topology.n=4&routing.algorithm=ecube&bogus.key=1&speed=-3&vary=routing.algorithm&values=ecube');
  let notice = await page.textContent('#notice-text');
  assert.match(notice, /bogus\.key: unknown parameter/);
  assert.match(notice, /speed/);
  assert.match(notice, /values/);
  assert.equal(await page.evaluate(() => window.hiradix.experiment.config.topology.type), 'hypercube');
  assert.deepEqual(errors, []);
  await page.close();

  // An experiment the engine rejects: the message names the field; the default runs.
  ({ page, errors } = await env.open('?router.vcs=0&traffic.load=7'));
  notice = await page.textContent('#notice-text');
  assert.match(notice, /router\.vcs/);
  assert.match(notice, /traffic\.load/);
  assert.match(notice, /default experiment/);
  await page.waitForFunction(() => window.hiradix.sim.now() > 10);
  assert.deepEqual(errors, []);
  await page.close();

  // Garbage.
  ({ page, errors } = await env.open('?%E0%A4%A=&topology.type=torus&&=='));
  notice = await page.textContent('#notice-text');
  assert.match(notice, /topology\.type: unknown topology 'torus'/);
  await page.waitForFunction(() => window.hiradix.sim.now() > 10);
  assert.equal(await page.isVisible('#error-banner'), false);
  assert.deepEqual(errors, []);
  await page.close();
});
