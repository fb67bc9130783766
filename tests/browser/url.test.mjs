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
  let { page, errors } = await env.open(
    '?topology.type=hypercube&topology.n=4&routing.algorithm=ecube&bogus.key=1&speed=-3&vary=routing.algorithm&values=ecube',
  );
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

// ------------------------------------------------------------------ hostile links (docs/reliability.md)

const PWN = 'window.__pwned=1;alert(1)';

/** Opens a link, recording dialogs; returns {page, errors, dialogs, facts()}. */
async function openHostile(query) {
  const { page, errors } = await env.open(query);
  const dialogs = [];
  page.on('dialog', (d) => {
    dialogs.push(d.message());
    d.dismiss().catch(() => {});
  });
  await page.evaluate(() => window.hiradix.loaded);
  const facts = () =>
    page.evaluate(() => ({
      pwned: typeof window.__pwned,
      polluted: typeof {}.polluted,
      objectCtor: {}.constructor === Object && Object.prototype.constructor === Object,
      imgs: document.querySelectorAll('img, svg, iframe, script:not([src])').length,
      notice: document.getElementById('notice').hidden ? '' : document.getElementById('notice-text').textContent,
      banner: !document.getElementById('error-banner').hidden,
      search: decodeURIComponent(location.search),
      scrollWidth: document.documentElement.scrollWidth,
      width: window.innerWidth,
    }));
  return { page, errors, dialogs, facts };
}

test('a link varying a prototype key injects no markup and is reported', { timeout: 120_000 }, async () => {
  for (const param of ['topology.__proto__', 'traffic.__proto__', 'constructor', 'topology.constructor.prototype']) {
    const values = encodeURIComponent(`{"x":"<img src=x onerror=${PWN}>"}|{"y":1}`);
    const { page, errors, dialogs, facts } = await openHostile(`?vary=${param}&values=${values}`);
    await page.waitForTimeout(300); // an injected image would have failed to load by now
    const f = await facts();
    assert.equal(f.pwned, 'undefined', `${param}: injected script ran`);
    assert.deepEqual(dialogs, [], param);
    assert.equal(f.imgs, 0, `${param}: markup in the page`);
    assert.match(f.notice, new RegExp(`vary: '${param.replace(/\./g, '\\.')}' is not a parameter the panes can vary`));
    assert.equal(f.banner, false, `${param}: error banner`);
    assert.doesNotMatch(f.search, /__proto__|constructor|onerror|</, `${param}: written back into the URL`);
    assert.equal(await page.evaluate(() => window.hiradix.experiment.compare), null);
    assert.deepEqual(errors, []);
    await page.close();
  }
});

test('prototype keys in a link pollute nothing and crash nothing', { timeout: 120_000 }, async () => {
  const links = [
    '?__proto__.constructor=1',
    '?__proto__.__proto__={}',
    '?__proto__.polluted=1&constructor.prototype.polluted=1&topology.__proto__.polluted=1',
    `?router=${encodeURIComponent('{"__proto__":{"polluted":1}}')}&seed=${encodeURIComponent('{"__proto__":{"polluted":1}}')}`,
    '?prototype=1&toString=1&hasOwnProperty=1&topology.k.__proto__=1',
  ];
  for (const link of links) {
    const { page, errors, facts } = await openHostile(link);
    const f = await facts();
    assert.equal(f.polluted, 'undefined', `${link}: ({}).polluted`);
    assert.ok(f.objectCtor, `${link}: Object.prototype.constructor changed`);
    assert.equal(f.banner, false, `${link}: error banner`);
    assert.match(f.notice, /unknown parameter|must be a number/, link);
    await page.waitForFunction(() => window.hiradix.sim.now() > 5);
    assert.deepEqual(errors, []);
    await page.close();
  }
});

test('a malformed side-by-side link is refused with a message, never an internal error', { timeout: 120_000 }, async () => {
  const cases = [
    [`?vary=routing.algorithm&values=${encodeURIComponent(`<img src=x onerror=${PWN}>|min`)}`, /routing\.algorithm|unknown/],
    ['?vary=seed&values=%7B%7D|%5B%5D', /values: seed must be a number/],
    ['?vary=traffic.load&values=0.1', /at least two values/],
    ['?vary=traffic.load&values=0.1|0.2|0.3|0.4', /at most 3 values/],
    ['?vary=&values=|', /vary: '' is not a parameter/],
    ['?vary=topology.s&values=[4]|[8]', /vary: 'topology\.s' is not a parameter/],
    ['?values=1|2', /values: read only together with vary/],
    ['?vary=topology&values=1|2', /vary: 'topology' is not a parameter/],
    ['?vary=router&values=%7B%7D|%5B%5D', /vary: 'router' is not a parameter/],
    ['?vary=topology.type&values=hypercube|dragonfly', /vary: 'topology\.type' is not a parameter/],
    ['?vary=topology.k&values=[4]|{}', /values: topology\.k must be a number/],
    [`?vary=traffic.load&values=1e309|${'9'.repeat(309)}`, /values: traffic\.load must be a finite number, got Infinity/],
  ];
  for (const [link, want] of cases) {
    const { page, errors, dialogs, facts } = await openHostile(link);
    const f = await facts();
    assert.match(f.notice, want, link);
    assert.equal(f.banner, false, `${link}: error banner`);
    assert.equal(f.pwned, 'undefined');
    assert.deepEqual(dialogs, []);
    await page.waitForFunction(() => window.hiradix.sim.now() > 5);
    assert.deepEqual(errors, []);
    await page.close();
  }
});

test('link values of the wrong type are refused by name; the engine checks the rest', { timeout: 120_000 }, async () => {
  const { page, errors, facts } = await openHostile(
    `?topology.type=hyperx&topology.s=4&traffic.load=${encodeURIComponent('{"a":1}')}&seed=NaN&router.vcs=1e309&cells=2&zoom=1e309&metric=${encodeURIComponent('<b>')}&bogus=1&bogus=2&speed=1${'0'.repeat(308)}`,
  );
  const f = await facts();
  assert.match(f.notice, /topology\.s: must be a list of whole numbers such as \[4,4,4\], got 4; ignored/);
  assert.match(f.notice, /traffic\.load: must be a number, got \{"a":1\}; ignored/);
  assert.match(f.notice, /seed: must be a number, got 'NaN'; ignored/);
  assert.match(f.notice, /router\.vcs: must be a finite number, got Infinity; ignored/);
  assert.match(f.notice, /cells: '2' is not 0 or 1/);
  assert.match(f.notice, /zoom: '1e309'/);
  assert.match(f.notice, /metric: unknown link colour '<b>'/);
  assert.match(f.notice, /bogus: given more than once/);
  assert.match(f.notice, /speed: '1000.*' is outside 1\/120 to 5000 cycles per frame; 5000 used/);
  // What was usable is used: a hyperx with its default shape.
  assert.equal(await page.evaluate(() => window.hiradix.experiment.config.topology.type), 'hyperx');
  assert.deepEqual(errors, []);
  await page.close();

  // A value of the right type that the engine refuses: named, and the default runs.
  const second = await openHostile(`?traffic.load=1${'0'.repeat(308)}`);
  const g = await second.facts();
  assert.match(g.notice, /traffic\.load: must be 0\.\.=1, got/);
  assert.match(g.notice, /default experiment/);
  assert.deepEqual(second.errors, []);
  await second.page.close();
});

// The base value of the parameter the panes vary is never run (each pane sets its own),
// so the engine never refuses it: the page checks names against the catalog itself, and a
// refused one is not written back into the link (found by the page fuzz campaign, seed
// 20261128, link #1806).
test('a varied parameter with an unknown base value is refused and not written back', { timeout: 120_000 }, async () => {
  const payload = encodeURIComponent(`<a href="javascript:${PWN}">x</a>`);
  const { page, errors, facts } = await openHostile(`?vary=routing.algorithm&values=min%7Cval&routing.algorithm=${payload}&traffic.pattern=${payload}`);
  const f = await facts();
  assert.match(f.notice, /routing\.algorithm: unknown name '<a href=.*\(one of: .*min.*\); ignored/);
  assert.match(f.notice, /traffic\.pattern: unknown name/);
  assert.doesNotMatch(f.search, /javascript|%3Ca|<a/);
  assert.match(f.search, /vary=routing\.algorithm/);
  assert.equal(f.pwned, 'undefined');
  assert.deepEqual(errors, []);
  await page.close();
});

test('a 309-digit number in a message does not widen the page at 1366×768', { timeout: 120_000 }, async () => {
  const big = `1${'0'.repeat(308)}`; // 1e308: 309 digits, still a finite number
  const { page, errors, facts } = await openHostile(`?traffic.load=${big}&router.vcs=${big}&n=${big}`);
  await page.setViewportSize({ width: 1366, height: 768 });
  const f = await facts();
  assert.match(f.notice, new RegExp(big.slice(0, 50)));
  assert.ok(f.scrollWidth <= f.width, `the page scrolls horizontally: ${f.scrollWidth} > ${f.width}`);
  // The same number next to a control (the form keeps the refused value's message).
  await page.fill('#ctl-traffic-load', big);
  await page.dispatchEvent('#ctl-traffic-load', 'change');
  await page.waitForSelector('#ctl-traffic-load-msg', { state: 'visible' });
  const w = await page.evaluate(() => document.documentElement.scrollWidth);
  assert.ok(w <= 1366, `the page scrolls horizontally: ${w}`);
  assert.deepEqual(errors, []);
  await page.close();
});

test('a cost-view link value that is refused is reported and not written back', { timeout: 120_000 }, async () => {
  const { page, errors, facts } = await openHostile(`?n=${encodeURIComponent(`<script>${PWN}</script>`)}&view=${encodeURIComponent('<b>')}`);
  const f = await facts();
  assert.match(f.notice, /n: .*is not a whole number/);
  assert.match(f.notice, /view: '<b>' is not cost or sim/);
  assert.doesNotMatch(f.search, /script|<b>/);
  assert.equal(f.pwned, 'undefined');
  assert.deepEqual(errors, []);
  await page.close();
});

test('the JSON box refuses prototype keys and unknown paths', { timeout: 120_000 }, async () => {
  const { page, errors } = await env.open();
  await page.click('details.config summary');
  const before = await page.evaluate(() => JSON.stringify(window.hiradix.experiment.config));
  await page.fill(
    '#config',
    '{"__proto__": {"polluted": 1}, "topology": {"type": "hypercube", "constructor": {"prototype": {"polluted": 1}}}, "tarffic": {"load": 0.5}}',
  );
  await page.click('#btn-apply');
  await page.waitForSelector('#config-error', { state: 'visible' });
  const text = await page.textContent('#config-error');
  assert.match(text, /__proto__\.polluted: unknown parameter/);
  assert.match(text, /topology\.constructor\.prototype\.polluted: not a parameter of the hypercube network/);
  assert.match(text, /tarffic\.load: unknown parameter/);
  assert.equal(await page.evaluate(() => typeof {}.polluted), 'undefined');
  assert.equal(await page.evaluate(() => JSON.stringify(window.hiradix.experiment.config)), before, 'the running experiment changed');
  assert.deepEqual(errors, []);
  await page.close();
});

test('the Content-Security-Policy forbids inline script and markup styles', { timeout: 60_000 }, async () => {
  const { page } = await env.open();
  const result = await page.evaluate(async () => {
    const violations = [];
    document.addEventListener('securitypolicyviolation', (e) => violations.push(e.violatedDirective));
    const s = document.createElement('script');
    s.textContent = 'window.__inline = 1';
    document.body.append(s);
    const d = document.createElement('div');
    d.setAttribute('onclick', 'window.__inline = 2');
    d.click();
    await new Promise((ok) => setTimeout(ok, 100));
    let evalRan = false;
    try {
      // eslint-disable-next-line no-eval
      evalRan = eval('true');
    } catch {
      // refused: EvalError
    }
    return { inline: typeof window.__inline, evalRan, violations };
  });
  assert.equal(result.inline, 'undefined');
  assert.equal(result.evalRan, false);
  assert.ok(
    result.violations.some((v) => v.startsWith('script-src')),
    JSON.stringify(result.violations),
  );
  await page.close();
});

// ------------------------------------------------------------------ hardening: nesting, bad values, message text

/** The notice's text once the page has loaded `query` (in an open page). */
async function noticeFor(page, query) {
  await page.goto(`${env.server.url}${query}`);
  await page.waitForFunction(() => window.hiradix?.loaded);
  assert.equal(await page.evaluate(() => window.hiradix.loaded), 'ok', query);
  return page.evaluate(() => (document.getElementById('notice').hidden ? '' : document.getElementById('notice-text').textContent));
}

test('the JSON box refuses JSON nested 10 000 deep and repeated keys with a message naming where, never an exception', { timeout: 120_000 }, async () => {
  const { page, errors } = await env.open();
  await page.click('details.config summary');
  const before = await page.evaluate(() => JSON.stringify(window.hiradix.experiment.config));
  const deep = `${'['.repeat(10_000)}${']'.repeat(10_000)}`;
  const apply = async (text) => {
    await page.fill('#config', text);
    await page.click('#btn-apply');
    await page.waitForSelector('#config-error', { state: 'visible' });
    const message = await page.textContent('#config-error');
    await page.evaluate(() => (document.getElementById('config-error').hidden = true));
    return message;
  };
  assert.match(await apply(deep), /config must be a JSON object/);
  assert.match(await apply(`{"router": {"vcs": ${deep}}}`), /^router\.vcs(\[0\])+: nested more than 16 levels deep/);
  assert.match(
    await apply(`{"topology": {"type": "hypercube"}, "faults": {"links": [[0, 1], ${deep}]}}`),
    /^faults\.links\[1\](\[0\])*: nested more than 16 levels deep/,
  );
  // Nested deep but below the limit of the scan: the type check refuses it, and its
  // message describes the value rather than writing it out.
  const nine = `${'['.repeat(9)}1${']'.repeat(9)}`;
  assert.match(await apply(`{"router": {"vcs": ${nine}}}`), /router\.vcs: must be a number, got \[\[\[\[\[\[\[\[\[1\]\]\]\]\]\]\]\]\]/);
  // Repeated keys: JSON.parse would keep the last silently; the command line refuses them.
  assert.match(await apply('{"router": {"vcs": 2, "buffer_depth": 4, "vcs": 3}}'), /^router\.vcs: the key 'vcs' is given more than once in the same object/);
  assert.match(await apply('{"traffic": {"load": 0.5}, "seed": 2, "traffic": {"load": 0.7}}'), /^traffic: the key 'traffic' is given more than once/);
  assert.match(await apply('{"faults": {"links": [{"a": 1, "a": 2}]}}'), /^faults\.links\[0\]\.a: the key 'a'/);
  assert.match(await apply(`{"seed": 1, "pad": "${'x'.repeat(1 << 20)}"}`), /config is too long \(1048\d{3} characters, at most 1048576\)/);
  assert.equal(await page.evaluate(() => JSON.stringify(window.hiradix.experiment.config)), before, 'the running experiment changed');
  // Side by side: a value nested 10 000 deep in the values box.
  await page.selectOption('#compare-param', 'router.vcs');
  await page.waitForFunction(() => window.hiradix.panes.length === 2);
  await page.fill('#compare-values', `${deep} | 2`);
  await page.dispatchEvent('#compare-values', 'change');
  await page.waitForFunction(() => /nested more than 16 levels deep/.test(document.getElementById('compare-msg').textContent));
  assert.match(await page.textContent('#compare-msg'), /^a list nested more than 16 levels deep: must be a number/);
  assert.equal(await page.isVisible('#error-banner'), false);
  assert.deepEqual(errors, []);
  // In a link: the failed links may be long (up to the link's 20 000 characters, where
  // other values stop at 2 000), so a list 3 000 deep reaches the reader.
  const nested = `${'['.repeat(3000)}${']'.repeat(3000)}`;
  const notice = await noticeFor(page, `?topology.type=hyperx&faults.links=${nested}`);
  assert.match(notice, /faults\.links: must be a list of links such as \[\[0,1\],\[5,9,1\]\], got a list nested more than 16 levels deep; ignored/);
  assert.equal(await page.isVisible('#error-banner'), false);
  assert.deepEqual(errors, []);
  await page.close();
});

test(
  'a link colour for a VC the network lacks, a bad speed or a zoom out of range: reported naming the key, and what is used',
  { timeout: 120_000 },
  async () => {
    const { page, errors } = await env.open();
    assert.match(
      await noticeFor(page, '?router.vcs=4&metric=vc99'),
      /metric: 'vc99' is not a link colour of this network \(its VCs are vc0 to vc3\); occupancy \(all VCs\) used/,
    );
    assert.equal(await page.evaluate(() => window.hiradix.experiment.view.metric), 'occupancy');
    // A VC the network has is used, without a word.
    assert.equal(await noticeFor(page, '?router.vcs=4&metric=vc3'), '');
    assert.equal(await page.evaluate(() => window.hiradix.experiment.view.metric), 'vc3');
    for (const bad of ['-1', 'abc', '1e400', '0', '']) {
      assert.match(await noticeFor(page, `?speed=${bad}`), new RegExp(`speed: '${bad}' is not a positive number of cycles per frame; 1 used`), bad);
    }
    assert.match(await noticeFor(page, '?preset=min-worst-case&speed=abc'), /speed: 'abc' is not a positive number of cycles per frame; 2 used/);
    assert.match(await noticeFor(page, '?speed=1e9'), /speed: '1e9' is outside 1\/120 to 5000 cycles per frame; 5000 used/);
    // A zoom below what the picture shows (it used to be written back as zoom=0, which the
    // reader refused): brought to 0.25, said, and written as read.
    assert.match(await noticeFor(page, '?zoom=0.0001&center=0.5,0.5'), /zoom: '0\.0001' is outside 0\.25 to 64; 0\.25 used/);
    await page.waitForFunction(() => new URL(location.href).searchParams.get('zoom') === '0.25');
    assert.deepEqual(await page.evaluate(() => window.hiradix.linkProblems()), []);
    // Copy link writes the view it shows, even if the experiment holds a zoom out of range.
    await page.evaluate(() => Object.assign(window.hiradix.experiment.view, { zoom: 0.0001, cx: 0.3, cy: 1e-7 }));
    await page.click('#btn-share');
    await page.waitForSelector('#notice', { state: 'visible' });
    assert.doesNotMatch(await page.textContent('#notice-text'), /would not show/);
    assert.equal(new URL(page.url()).searchParams.get('zoom'), '0.25');
    assert.equal(new URL(page.url()).searchParams.get('center'), '0.3,0');
    // The cycles-per-frame box: a bad or out-of-range value is said in the notice.
    await page.fill('#cycles-per-frame', '-1');
    await page.dispatchEvent('#cycles-per-frame', 'change');
    assert.match(await page.textContent('#notice-text'), /cycles per frame: '-1' is not a positive number of cycles per frame; 1 kept/);
    await page.fill('#cycles-per-frame', '99999');
    await page.dispatchEvent('#cycles-per-frame', 'change');
    assert.match(await page.textContent('#notice-text'), /cycles per frame: '99999' is outside 1\/120 to 5000 cycles per frame; 5000 used/);
    assert.equal(await page.evaluate(() => window.hiradix.experiment.speed), 5000);
    assert.deepEqual(errors, []);
    await page.close();
  },
);

test('messages show control characters as escapes and shorten long values', { timeout: 120_000 }, async () => {
  const { page, errors } = await env.open();
  const hostile = '\u001b[31m\u202eevil\r\nforged line\u0000';
  const shown = String.raw`\u{1b}[31m\u{202e}evil\r\nforged line\u{0}`;
  // eslint-disable-next-line no-control-regex -- matching control characters is the point
  const invisible = /[\u0000-\u001f\u007f-\u009f\u200b-\u200f\u2028-\u202e\u2066-\u2069]/;
  // In a link's value, in a link's key, in a value the engine refuses.
  let notice = await noticeFor(page, `?topology.type=${encodeURIComponent(hostile)}&${encodeURIComponent(`a${hostile}`)}=1`);
  assert.ok(notice.includes(`topology.type: unknown topology '${shown}'`), notice);
  assert.ok(notice.includes(`a${shown}: unknown parameter`), notice);
  assert.doesNotMatch(notice.replaceAll('\n', ''), invisible);
  notice = await noticeFor(page, `?routing.algorithm=${encodeURIComponent(hostile)}`);
  assert.match(notice, /routing\.algorithm/);
  assert.ok(notice.includes(String.raw`\u{1b}`), notice);
  assert.doesNotMatch(notice.replaceAll('\n', ''), invisible);
  // A long value: its first characters and its length.
  notice = await noticeFor(page, `?topology.type=${'x'.repeat(1500)}`);
  assert.match(notice, /topology\.type: unknown topology 'x{59}… \(1500 characters\)'/);
  // The JSON box: a key and a value with control characters.
  await page.click('details.config summary');
  await page.fill('#config', JSON.stringify({ [`rout${hostile}`]: 1, routing: { algorithm: hostile } }));
  await page.click('#btn-apply');
  await page.waitForSelector('#config-error', { state: 'visible' });
  const text = await page.textContent('#config-error');
  assert.ok(text.includes(`rout${shown}: unknown parameter`), text);
  assert.doesNotMatch(text.replaceAll('\n', ''), invisible);
  // JSON.parse's own message quotes the text it stopped at: escaped too.
  await page.fill('#config', `{"seed": 1, \u202e}`);
  await page.click('#btn-apply');
  await page.waitForFunction(() => /not valid JSON/.test(document.getElementById('config-error').textContent));
  assert.doesNotMatch(await page.textContent('#config-error'), invisible);
  assert.deepEqual(errors, []);
  await page.close();
});
