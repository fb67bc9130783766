// The page in headless Chromium: it loads the wasm, animates the network, runs, pauses,
// steps (buttons and keys), slows down to fractional speeds, reports bad input next to the
// control that caused it, shows only the parameters some pane reads, survives a Rust panic
// or a worker out of memory keeping the visitor's experiment and link (Try again, Reload
// smaller), runs every topology of the catalog, caps
// the cycles per frame to keep the animation smooth, and keeps drawing while the
// simulation (in a Web Worker) takes longer than a frame.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { advanceBy, controlMessage, controlMessageVisible, now, paneDigest, setControl, settle, setup } from './page-helpers.mjs';

let env;
before(async () => {
  env = await setup();
});
after(async () => {
  await env?.close();
});

test('page loads, animates the network and logs no errors', { timeout: 90_000 }, async () => {
  const { page, errors } = await env.open();
  await page.waitForFunction(() => window.hiradix.frames > 5);
  const first = await paneDigest(page, 0);
  assert.ok(first.painted > 0.01 * first.size, 'canvas is (nearly) blank');
  await advanceBy(page, 40);
  const second = await paneDigest(page, 0);
  assert.notEqual(second.hash, first.hash, 'canvas pixels did not change between frames');
  const routers = Number(await page.textContent('#stat-routers'));
  const channels = Number(await page.textContent('#stat-channels'));
  assert.ok(routers > 1 && channels > routers, `${routers} routers, ${channels} channels`);
  // Controls come from the catalog: every topology, routing of the family and pattern.
  const catalog = await page.evaluate(() => window.hiradix.catalog);
  const topoOptions = await page.$$eval('#ctl-topology-type option', (os) => os.map((o) => o.value));
  assert.deepEqual(
    topoOptions,
    catalog.topologies.map((t) => t.name),
  );
  const patterns = await page.$$eval('#ctl-traffic-pattern option', (os) => os.map((o) => o.value));
  assert.deepEqual(
    patterns,
    catalog.patterns.map((p) => p.name),
  );
  for (const p of catalog.params) assert.ok(await page.$(`#ctl-${p.path.replace(/[^a-z0-9]+/gi, '-')}`), `no control for ${p.path}`);
  assert.equal(await page.isVisible('#error-banner'), false, 'error banner is shown');
  assert.deepEqual(errors, []);
  await page.close();
});

test('run / pause / step / reset with buttons and keys; fractional speed', { timeout: 90_000 }, async () => {
  const { page, errors } = await env.open();
  await page.click('#btn-run');
  await page.waitForSelector('body[data-state="paused"]');
  const t0 = await now(page);
  await page.waitForTimeout(200);
  assert.equal(await now(page), t0, 'paused simulation advanced');
  await page.click('#btn-step');
  await settle(page);
  assert.equal(await now(page), t0 + 1);
  // Keyboard: → steps, space runs, space pauses, r resets. (Space on a focused button is
  // the button's: nothing has focus here.)
  await page.evaluate(() => document.activeElement?.blur());
  await page.locator('body').press('ArrowRight');
  await settle(page);
  assert.equal(await now(page), t0 + 2);
  await page.locator('body').press(' ');
  await page.waitForSelector('body[data-state="running"]');
  await advanceBy(page, 5);
  await page.locator('body').press(' ');
  await page.waitForSelector('body[data-state="paused"]');
  // r resets to cycle 0 and keeps the simulation paused (a class steps through from the start).
  await page.locator('body').press('r');
  await page.waitForFunction(() => window.hiradix.sim.now() === 0);
  await page.waitForTimeout(300);
  assert.equal(await now(page), 0, 'reset while paused ran on');
  assert.equal(await page.evaluate(() => document.body.dataset.state), 'paused');
  await page.locator('body').press(' ');
  await page.waitForSelector('body[data-state="running"]');
  // + steps the speed up (1 → 2 cycles per frame), − back down.
  await page.fill('#cycles-per-frame', '1');
  await page.dispatchEvent('#cycles-per-frame', 'change');
  await page.locator('body').click({ position: { x: 2, y: 2 } });
  await page.locator('body').press('+');
  assert.equal(await page.evaluate(() => window.hiradix.experiment.speed), 2);
  await page.locator('body').press('-');
  assert.equal(await page.evaluate(() => window.hiradix.experiment.speed), 1);
  // Slow motion: 0.25 cycles per frame = one cycle every 4 frames.
  await page.fill('#cycles-per-frame', '0.25');
  await page.dispatchEvent('#cycles-per-frame', 'change');
  const a = await page.evaluate(() => [window.hiradix.frames, window.hiradix.sim.now()]);
  await page.waitForFunction((f) => window.hiradix.frames >= f + 40, a[0]);
  const b = await page.evaluate(() => [window.hiradix.frames, window.hiradix.sim.now()]);
  const rate = (b[1] - a[1]) / (b[0] - a[0]);
  assert.ok(rate > 0.15 && rate < 0.35, `cycles per frame at speed 0.25: ${rate}`);
  assert.match(await page.textContent('#speed-text'), /1 cycle every 4 frames/);
  assert.deepEqual(errors, []);
  await page.close();
});

test('a bad parameter shows its message next to its control and the page keeps running', { timeout: 90_000 }, async () => {
  const { page, errors } = await env.open();
  // Out of the catalog's range: caught before the engine is asked.
  await setControl(page, 'router.vcs', 0);
  await page.waitForSelector('#ctl-router-vcs-msg', { state: 'visible' });
  assert.match(await controlMessage(page, 'router.vcs'), /between 1 and 16/);
  // A combination only the engine can judge: DAL with one VC.
  await setControl(page, 'router.vcs', 1);
  await page.waitForFunction(
    () => /VC/.test(document.getElementById('ctl-router-vcs-msg').textContent) && !document.getElementById('ctl-router-vcs-msg').hidden,
  );
  const msg = await controlMessage(page, 'router.vcs');
  assert.match(msg, /needs at least \d+ VCs/, msg);
  // The previous simulation keeps running.
  await advanceBy(page, 5);
  assert.equal(await page.isVisible('#error-banner'), false);
  // A pattern that does not fit the network (bit complement needs a power of two).
  await setControl(page, 'router.vcs', 4);
  await page.waitForSelector('#ctl-router-vcs-msg', { state: 'hidden' });
  await setControl(page, 'topology.k', 3);
  await page.waitForFunction(() => window.hiradix.experiment.config.topology.k === 3);
  await setControl(page, 'traffic.pattern', 'bit_complement');
  await page.waitForSelector('#ctl-traffic-pattern-msg', { state: 'visible' });
  assert.match(await controlMessage(page, 'traffic.pattern'), /power.of.two/);
  // Fixing it clears the message.
  await setControl(page, 'traffic.pattern', 'uniform');
  await page.waitForSelector('#ctl-traffic-pattern-msg', { state: 'hidden' });
  assert.equal(await controlMessageVisible(page, 'traffic.pattern'), false);
  assert.deepEqual(errors, []);
  await page.close();
});

test('the form shows only the parameters some pane reads', { timeout: 90_000 }, async () => {
  const { page, errors } = await env.open('?topology.type=dragonfly&routing.algorithm=ugal_l&router.vcs=3&traffic.load=0.2');
  const shown = (path) => page.isVisible(`.ctl[data-path="${path}"]`);
  const expect = async (want) => {
    for (const [path, visible] of Object.entries(want)) assert.equal(await shown(path), visible, `${path} ${visible ? 'hidden' : 'shown'}`);
  };
  // UGAL-L on a dragonfly: its threshold and the global latency, no CR, DAL or 2DFB knobs.
  await expect({
    'routing.ugal_threshold': true,
    'routing.crt0': false,
    'routing.cr_granularity': false,
    'routing.dal_unblocked_credits': false,
    'routing.threshold': false,
    'traffic.batch_size': false,
    'routing.algorithm': true,
  });
  await setControl(page, 'routing.algorithm', 'ugal_l_cr');
  await page.waitForSelector('.ctl[data-path="routing.crt0"]', { state: 'visible' });
  await expect({ 'routing.cr_granularity': true, 'routing.ugal_threshold': true });
  await setControl(page, 'traffic.injection', 'batch');
  await page.waitForSelector('.ctl[data-path="traffic.batch_size"]', { state: 'visible' });
  // The router section: iSLIP's iterations appear with iSLIP.
  await page.$eval('.ctl-section[data-section="router"]', (d) => (d.open = true));
  await expect({ 'router.global_latency': true, 'router.islip_iterations': false });
  await setControl(page, 'router.switch_allocator', 'islip');
  await page.waitForSelector('.ctl[data-path="router.islip_iterations"]', { state: 'visible' });
  await page.close();
  // Side by side: a parameter read by one pane of three is shown; on a flattened
  // butterfly the dragonfly's global latency is not.
  const side = await env.open('?topology.type=dragonfly&router.vcs=3&vary=routing.algorithm&values=ugal_l|ugal_l_cr|ugal_g');
  assert.equal(await side.page.isVisible('.ctl[data-path="routing.crt0"]'), true, 'CR parameter hidden although pane B reads it');
  await side.page.close();
  const fb = await env.open('?topology.type=flattened_butterfly&routing.algorithm=min');
  await fb.page.$eval('.ctl-section[data-section="router"]', (d) => (d.open = true));
  assert.equal(await fb.page.isVisible('.ctl[data-path="router.global_latency"]'), false);
  assert.equal(await fb.page.isVisible('.ctl[data-path="routing.ugal_threshold"]'), false);
  await fb.page.close();
  // Varying a parameter no pane reads says so.
  const unread = await env.open('?topology.type=dragonfly&router.vcs=3&routing.algorithm=ugal_l&vary=routing.crt0&values=0|20');
  await unread.page.waitForSelector('#compare-msg', { state: 'visible' });
  assert.match(await unread.page.textContent('#compare-msg'), /no pane reads routing\.crt0/);
  await unread.page.close();
  assert.deepEqual([...errors, ...side.errors, ...fb.errors, ...unread.errors], []);
});

test('a network of over 20 000 channels colours only the busy ones, and the legend says so', { timeout: 90_000 }, async () => {
  // An 8×8×8 HyperX with doubled links: 21 504 channels.
  const { page, errors } = await env.open('?topology.type=hyperx&topology.s=[8,8,8]&topology.k=[2]&topology.t=8&routing.algorithm=min&traffic.load=0.3');
  assert.match(await page.textContent('#legend-metric'), /over 20,000 channels only those at least half full are coloured/);
  const first = await paneDigest(page, 0);
  await advanceBy(page, 20);
  assert.ok((await paneDigest(page, 0)).painted > 0.01 * first.size, 'canvas is (nearly) blank');
  await page.close();
  // Smaller networks colour every channel, and the legend says nothing of it.
  const small = await env.open('?topology.type=dragonfly&router.vcs=3');
  assert.doesNotMatch(await small.page.textContent('#legend-metric'), /at least half full/);
  await small.page.close();
  assert.deepEqual([...errors, ...small.errors], []);
});

test('an invalid JSON config shows its errors next to the JSON and keeps running', { timeout: 90_000 }, async () => {
  const { page, errors } = await env.open();
  await page.click('details.config > summary');
  await page.fill('#config', JSON.stringify({ topology: { type: 'flattened_butterfly', k: 4, n: 3 }, router: { vcs: 0 }, traffic: { load: 2 } }, null, 2));
  await page.click('#btn-apply');
  await page.waitForSelector('#config-error', { state: 'visible' });
  const text = await page.textContent('#config-error');
  for (const needle of ['router.vcs', 'traffic.load']) assert.ok(text.includes(needle), `${JSON.stringify(text)} lacks ${needle}`);
  await page.fill('#config', '{"topology": ');
  await page.click('#btn-apply');
  await page.waitForFunction(() => /not valid JSON/.test(document.getElementById('config-error').textContent));
  await page.fill('#config', '{"router": {"vcz": 2}}');
  await page.click('#btn-apply');
  await page.waitForFunction(() => /router\.vcz/.test(document.getElementById('config-error').textContent));
  await advanceBy(page, 5);
  await page.fill('#config', JSON.stringify({ topology: { type: 'hypercube', n: 4 }, routing: { algorithm: 'ecube' } }));
  await page.click('#btn-apply');
  await page.waitForSelector('#config-error', { state: 'hidden' });
  assert.equal(Number(await page.textContent('#stat-routers')), 16);
  assert.deepEqual(errors, []);
  await page.close();
});

test('a Rust panic shows the error banner instead of killing the page; the experiment and its link stay; Try again', { timeout: 90_000 }, async () => {
  const { page, errors } = await env.open();
  await advanceBy(page, 5);
  const before = await page.evaluate(() => ({ url: location.href, experiment: JSON.stringify(window.hiradix.experiment) }));
  await page.evaluate(() => window.hiradix.triggerPanicForTest());
  await page.waitForSelector('#error-banner', { state: 'visible' });
  assert.match(await page.textContent('#error-text'), /panic requested by the page's test hook/);
  assert.match(await page.textContent('#error-text'), /internal error .*Your experiment and its link are kept as they were/s);
  await page.waitForSelector('body[data-state="crashed"]');
  // Nothing replaces the experiment behind the visitor's back.
  await page.waitForTimeout(2500);
  const after = await page.evaluate(() => ({ url: location.href, experiment: JSON.stringify(window.hiradix.experiment) }));
  assert.deepEqual(after, before);
  assert.equal(await page.isVisible('#error-banner'), true);
  assert.equal(await page.textContent('#error-reset'), 'Try again');
  // The panic hook logs to the console; nothing else may.
  assert.ok(errors.length >= 1 && errors.every((e) => e.includes('panic requested')), errors.join('\n'));
  await page.click('#error-reset');
  await page.waitForSelector('body[data-state="running"]');
  await advanceBy(page, 5);
  assert.equal(await page.isVisible('#error-banner'), false);
  assert.equal(await page.evaluate(() => JSON.stringify(window.hiradix.experiment.config)), JSON.stringify(JSON.parse(before.experiment).config));
  await page.close();
});

// Two panes, buffers and source queues above their defaults: what "Reload smaller" halves.
const CRASH_LINK =
  '?topology.type=flattened_butterfly&topology.k=4&topology.n=3&router.buffer_depth=16&traffic.source_queue_cap=1024&traffic.load=0.3&vary=routing.algorithm&values=min|min_ad';

test('a crash while a link loads keeps the link and its experiment, says so, and reloads it smaller', { timeout: 120_000 }, async () => {
  // The simulator traps while building the link's experiment (the page's test hook), as a
  // link whose experiment exhausts wasm32's memory did.
  const { page, errors } = await env.open(CRASH_LINK, { state: 'crashed', init: () => (window.HIRADIX_CRASH_NEXT = 'panic') });
  assert.equal(await page.evaluate(() => window.hiradix.loaded), 'ok');
  await page.waitForTimeout(3000);
  // The link, the experiment and the banner stay: no default experiment loaded meanwhile.
  assert.equal(new URL(page.url()).search, CRASH_LINK);
  assert.equal(await page.evaluate(() => document.body.dataset.state), 'crashed');
  assert.equal(await page.isVisible('#error-banner'), true);
  const exp = await page.evaluate(() => window.hiradix.experiment);
  assert.equal(exp.config.router.buffer_depth, 16);
  assert.equal(exp.config.traffic.source_queue_cap, 1024);
  assert.deepEqual(exp.compare, { param: 'routing.algorithm', values: ['min', 'min_ad'] });
  assert.equal(await page.inputValue('#ctl-router-buffer-depth'), '16', "the form shows the link's settings");
  assert.equal(await page.isVisible('#notice'), false, 'no notice of a default experiment');
  assert.equal(await page.textContent('#error-title'), 'The simulator stopped with an internal error.');
  const text = await page.textContent('#error-text');
  assert.match(text, /a bug in hiradix, not in your settings/);
  assert.match(text, /Your experiment and its link are kept as they were: try again, or reload it smaller/);
  assert.match(text, /panic requested by the page's test hook/);
  // What "smaller" changes is said before it is pressed.
  assert.equal(await page.textContent('#error-smaller'), 'Reload smaller');
  const smaller = await page.textContent('#error-smaller-text');
  assert.match(smaller, /one pane instead of 2 \(the first: routing\.algorithm = min\)/);
  assert.match(smaller, /router\.buffer_depth 16 → 8/);
  assert.match(smaller, /traffic\.source_queue_cap 1024 → 512/);
  await page.click('#error-smaller');
  await page.waitForSelector('body[data-state="running"]');
  await advanceBy(page, 5);
  const now = await page.evaluate(() => ({ exp: window.hiradix.experiment, panes: window.hiradix.panes.length, search: location.search }));
  assert.equal(now.panes, 1);
  assert.equal(now.exp.compare, null);
  assert.equal(now.exp.config.router.buffer_depth, 8);
  assert.equal(now.exp.config.traffic.source_queue_cap, 512);
  assert.equal(now.exp.config.routing.algorithm, 'min');
  assert.match(now.search, /traffic\.source_queue_cap=512/, 'the link follows the experiment now running');
  assert.doesNotMatch(now.search, /buffer_depth|vary/, 'the default buffer depth, one pane');
  assert.equal(await page.isVisible('#error-banner'), false);
  assert.match(await page.textContent('#notice-text'), /Reloaded smaller: one pane instead of 2.*router\.buffer_depth 16 → 8/);
  assert.ok(
    errors.every((e) => e.includes('panic requested')),
    errors.join('\n'),
  );
  await page.close();
});

test('a worker that dies of a failed allocation: "ran out of memory", the experiment kept, Try again rebuilds it', { timeout: 120_000 }, async () => {
  const { page, errors } = await env.open(CRASH_LINK);
  await advanceBy(page, 5);
  const url = page.url();
  // An allocation fails in the worker outside any call: the worker dies (worker.onerror).
  await page.evaluate(() => window.hiradix.triggerOutOfMemoryForTest());
  await page.waitForSelector('body[data-state="crashed"]');
  const text = await page.textContent('#error-text');
  assert.equal(await page.textContent('#error-title'), 'The simulator ran out of memory.', text);
  assert.match(text, /The simulator ran out of memory: these 2 simulations need more than the browser gives a page/);
  assert.match(text, /Maximum memory size exceeded/);
  await page.waitForTimeout(2000);
  assert.equal(page.url(), url);
  assert.equal(await page.isVisible('#error-banner'), true);
  assert.equal(await page.isVisible('#error-smaller'), true);
  await page.click('#error-reset');
  await page.waitForSelector('body[data-state="running"]');
  await advanceBy(page, 5);
  assert.equal(await page.evaluate(() => window.hiradix.panes.length), 2);
  assert.equal(page.url(), url);
  assert.deepEqual(
    errors.filter((e) => !/Maximum memory size exceeded/.test(e)),
    [],
  );
  await page.close();
});

test('crash messages: memory failures are told from other crashes; nothing smaller than the defaults in one pane', async () => {
  const { describeCrash, isMemoryFailure, smallerExperiment } = await import('../../www/ui/crash.js');
  for (const m of [
    'panicked at raw_vec.rs:28:5:\ncapacity overflow',
    'memory allocation of 4294967296 bytes failed',
    'unreachable',
    'RuntimeError: unreachable',
    'a simulation worker failed: Uncaught RangeError: WebAssembly.Memory.grow(): Maximum memory size exceeded',
    'Uncaught RangeError: Array buffer allocation failed',
    'RangeError: Invalid array buffer length',
    'WebAssembly.Instance(): Out of memory: Cannot allocate Wasm memory for new instance',
  ]) {
    assert.ok(isMemoryFailure(m), m);
  }
  for (const m of [
    'panicked at src/sim/mod.rs:1:1:\nindex out of bounds: the len is 3 but the index is 7',
    'RangeError: Maximum call stack size exceeded',
    'unreachable code reached in the allocator bookkeeping',
    null,
  ]) {
    assert.ok(!isMemoryFailure(m), String(m));
  }
  // The crash text shows what was reported, with control characters escaped.
  assert.match(describeCrash('boom \u001b[2J\u202e').text, /boom \\u\{1b\}\[2J\\u\{202e\}/);
  const { Model, newExperiment } = await import('../../www/model/experiment.js');
  const defaults = {
    topology: { type: 'flattened_butterfly', k: 8, n: 2 },
    router: { buffer_depth: 8, buffer_per_port: null, output_queue: null, vcs: 4, speedup: 2 },
    traffic: { packet_size: 1, source_queue_cap: 256 },
  };
  const model = new Model({
    default_config: defaults,
    topologies: [{ name: 'flattened_butterfly', default: defaults.topology, params: [] }],
    routings: [],
    patterns: [],
    params: [],
  });
  assert.equal(smallerExperiment(newExperiment(structuredClone(defaults)), model), null);
  // A VC buffer keeps room for a whole packet.
  const big = structuredClone(defaults);
  Object.assign(big.traffic, { packet_size: 12 });
  big.router.buffer_depth = 20;
  assert.deepEqual(smallerExperiment(newExperiment(big), model).changes, ['router.buffer_depth 20 → 12']);
});

test('every topology in the catalog runs with its default parameters', { timeout: 180_000 }, async () => {
  const { page, errors } = await env.open();
  const catalog = await page.evaluate(() => window.hiradix.catalog);
  for (const topo of catalog.topologies) {
    await setControl(page, 'topology.type', topo.name);
    await page.waitForFunction((t) => window.hiradix.experiment.config.topology.type === t && window.hiradix.sim.now() > 10, topo.name, { timeout: 60_000 });
    const digest = await paneDigest(page, 0);
    assert.ok(digest.painted > 0.005 * digest.size, `${topo.name}: blank canvas`);
    const algorithms = await page.$$eval('#ctl-routing-algorithm option', (os) => os.map((o) => o.value));
    const family = catalog.routings.filter((r) => r.family === topo.family).map((r) => r.name);
    assert.deepEqual(algorithms, [...new Set(family)], `${topo.name}: routing options`);
    assert.equal(await page.isVisible('#error-banner'), false, `${topo.name} crashed the page`);
  }
  assert.deepEqual(errors, []);
  await page.close();
});

test('"smooth" caps the cycles per frame on the 1K dragonfly; off, every frame simulates the speed asked for', { timeout: 120_000 }, async () => {
  const { page, errors } = await env.open('?preset=ugal-l-misjudges');
  await page.fill('#cycles-per-frame', '1000');
  await page.dispatchEvent('#cycles-per-frame', 'change');
  assert.ok(await page.isChecked('#smooth'), 'on by default');
  // Capped: frames keep coming, each with far fewer than 1000 cycles.
  const a = await page.evaluate(() => [window.hiradix.frames, window.hiradix.sim.now()]);
  await page.waitForFunction((f) => window.hiradix.frames >= f + 20, a[0], { timeout: 60_000 });
  const b = await page.evaluate(() => [window.hiradix.frames, window.hiradix.sim.now()]);
  const perFrame = (b[1] - a[1]) / (b[0] - a[0]);
  assert.ok(perFrame >= 1 && perFrame < 1000, `capped cycles per frame: ${perFrame}`);
  await page.waitForSelector('#stat-capped:not([hidden])', { timeout: 10_000 });
  assert.match(await page.textContent('#stat-capped'), /held at \d+ cycles\/frame to stay smooth/);
  // Off: the URL says so and a frame advances exactly the 1000 cycles asked for.
  await page.click('#smooth');
  await page.waitForFunction(() => new URL(location.href).searchParams.get('smooth') === '0');
  const c = await now(page);
  await page.waitForFunction((t) => window.hiradix.sim.now() >= t + 2000, c, { timeout: 60_000 });
  const d = await now(page);
  await page.waitForFunction((t) => window.hiradix.sim.now() > t, d, { timeout: 60_000 });
  const e = await now(page);
  assert.equal((e - d) % 1000, 0, `uncapped frames advance 1000 cycles each (${d} → ${e})`);
  // The simulation runs in a worker: the page keeps drawing while a 1000-cycle step (a few
  // hundred ms of simulation) runs, many frames per step, not one.
  const f0 = await page.evaluate(() => [window.hiradix.frames, window.hiradix.snapshots]);
  await page.waitForFunction((t) => window.hiradix.sim.now() >= t + 2000, e, { timeout: 60_000 });
  const f1 = await page.evaluate(() => [window.hiradix.frames, window.hiradix.snapshots]);
  const framesPerStep = (f1[0] - f0[0]) / (f1[1] - f0[1]);
  assert.ok(framesPerStep > 3, `frames drawn per 1000-cycle step: ${framesPerStep}`);
  assert.deepEqual(errors, []);
  await page.close();
});
