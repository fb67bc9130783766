// Failed links on the page (HyperX §6, www/ui/faults.js): the ✂ mode fails a clicked link in
// every pane of the running simulation and restores it on a second click; the config's
// faults.links follows (form, URL), so a share link rebuilds the same failures; failed
// links are drawn and counted; DOR loses packets to them, DAL none; a failure that would
// disconnect the network is refused with its reason; hostile faults values in a link are
// refused with a message.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { advanceBy, controlMessage, setControl, settle, setup } from './page-helpers.mjs';

let env;
before(async () => {
  env = await setup();
});
after(async () => {
  await env?.close();
});

// 4×4 HyperX, router shift at 0.2: switch i's packets cross the link i → i+1 (DOR: 5 → 6).
const HX = '?topology.type=hyperx&topology.s=[4,4]&topology.k=[1]&topology.t=4&traffic.pattern=router_shift&traffic.load=0.2&seed=1';
const HX_PANES = `${HX}&vary=routing.algorithm&values=min|dal&speed=5`;

/**
 * A point on the channel a → b of pane `pane`, a fraction `t` along it, in page pixels, and
 * what the canvas's hit test finds there.
 */
function linkPoint(page, pane, a, b, t = 0.35) {
  return page.evaluate(
    ({ pane, a, b, t }) => {
      const p = window.hiradix.panes[pane];
      const g = p.view.geo;
      let c = 0;
      while (c < g.channels && !(g.src[c] === a && g.dst[c] === b)) c++;
      const s = p.view.seg;
      const i = 6 * c;
      const u = 1 - t;
      const curved = !Number.isNaN(s[i + 2]);
      const x = curved ? u * u * s[i] + 2 * u * t * s[i + 2] + t * t * s[i + 4] : u * s[i] + t * s[i + 4];
      const y = curved ? u * u * s[i + 1] + 2 * u * t * s[i + 3] + t * t * s[i + 5] : u * s[i + 1] + t * s[i + 5];
      const hit = p.view.hitTest(x, y);
      const link = hit?.kind === 'channel' ? [g.src[hit.index], g.dst[hit.index]].sort((m, n) => m - n) : null;
      const rect = p.canvas.getBoundingClientRect();
      const dpr = window.devicePixelRatio || 1;
      return { channel: c, hit, link, x: rect.left + x / dpr, y: rect.top + y / dpr };
    },
    { pane, a, b, t },
  );
}

/** Clicks the link a–b in pane `pane` (the fail-links mode must be on). */
async function clickLink(page, pane, a, b) {
  const pt = await linkPoint(page, pane, a, b);
  assert.deepEqual(pt.link, [Math.min(a, b), Math.max(a, b)], `the point clicked is on link ${a}-${b}: ${JSON.stringify(pt)}`);
  await page.mouse.click(pt.x, pt.y);
  return pt.channel;
}

const state = (page) =>
  page.evaluate(() => {
    const app = window.hiradix;
    return {
      links: app.experiment.config.faults.links,
      failed: app.panes.map((p) => p.failedLinks),
      paneLinks: app.panes.map((p) => p.config.faults.links),
      search: decodeURIComponent(location.search),
      control: document.getElementById('ctl-faults-links').value,
      legend: document.getElementById('legend-failed-row').hidden ? null : document.getElementById('legend-failed').textContent,
    };
  });

const unroutable = (page) => page.evaluate(() => window.hiradix.panes.map((p) => p.sim.liveCounters().unroutable));

/** The worker's failed channels of every pane (asked of the simulations themselves). */
const workerFailed = (page) =>
  page.evaluate(() => Promise.all(window.hiradix.panes.map(async (p) => [...(await p.sim.ask('failedChannels'))].flatMap((f, c) => (f ? [c] : [])))));

test('✂ mode: a click fails a link in both panes while running; DOR loses packets, DAL none; a second click restores it', { timeout: 120_000 }, async () => {
  const { page, errors } = await env.open(HX_PANES);
  await advanceBy(page, 100);
  assert.deepEqual((await state(page)).failed, [0, 0]);
  await page.keyboard.press('x');
  assert.equal(await page.getAttribute('#btn-fail', 'aria-pressed'), 'true');
  assert.equal(await page.isVisible('#fault-hint'), true, 'the mode says what a click does');
  const before = await page.evaluate(() => window.hiradix.sim.now());
  const c = await clickLink(page, 0, 5, 6);
  await page.waitForFunction(() => window.hiradix.panes.every((p) => p.failedLinks === 1));
  let s = await state(page);
  assert.deepEqual(s.links, [[5, 6]]);
  assert.deepEqual(s.paneLinks, [[[5, 6]], [[5, 6]]]);
  assert.equal(s.control, '5-6', 'the form shows the failed link');
  assert.match(s.legend, /failed link.*1 failed/);
  await page.waitForFunction(() => location.search.includes('faults.links'));
  assert.match((await state(page)).search, /faults\.links=\[\[5,6\]\]/);
  // The simulation ran on (no rebuild from cycle 0); both directions failed in the worker.
  assert.ok((await page.evaluate(() => window.hiradix.sim.now())) >= before, 'the simulation restarted');
  const [inA, inB] = await workerFailed(page);
  assert.equal(inA.length, 2);
  assert.ok(inA.includes(c), `channel ${c} failed: ${inA}`);
  assert.deepEqual(inB, inA, 'the same link failed in both panes');
  // DOR routes switch 5's packets onto the failed link: unroutable; DAL routes around.
  const u0 = await unroutable(page);
  await advanceBy(page, 400);
  const u1 = await unroutable(page);
  assert.ok(u1[0] - u0[0] > 200, `DOR: ${u0[0]} → ${u1[0]} unroutable`);
  assert.equal(u1[1], 0, 'DAL lost packets');
  await page.waitForFunction(() => / unroutable/.test(window.hiradix.panes[0].noteEl.textContent));
  await page.waitForFunction(() => /unroutable \(failed link\)/.test(document.getElementById('stats-table').textContent));
  // A second click restores it; the list and the URL forget it.
  await clickLink(page, 1, 6, 5);
  await page.waitForFunction(() => window.hiradix.panes.every((p) => p.failedLinks === 0));
  s = await state(page);
  assert.deepEqual(s.links, []);
  assert.equal(s.legend, null);
  assert.deepEqual(await workerFailed(page), [[], []]);
  await page.waitForFunction(() => !location.search.includes('faults.links'));
  const u2 = await unroutable(page);
  await advanceBy(page, 200);
  assert.ok((await unroutable(page))[0] - u2[0] < 20, 'DOR still loses packets after the link was restored');
  // x again leaves the mode: a click on a link then inspects it.
  await page.keyboard.press('x');
  assert.equal(await page.getAttribute('#btn-fail', 'aria-pressed'), 'false');
  await clickLink(page, 0, 5, 6);
  await page.waitForFunction(() => window.hiradix.selection?.kind === 'channel');
  assert.deepEqual((await state(page)).failed, [0, 0]);
  assert.deepEqual(errors, []);
  await page.close();
});

test('a failure that would disconnect the network is refused with its reason, which clears with its cause', { timeout: 120_000 }, async () => {
  // A 4-ary 2-flat: 4 routers, each linked to the 3 others.
  const { page, errors } = await env.open('?topology.type=flattened_butterfly&topology.k=4&topology.n=2&traffic.load=0.3&paused=1', { state: 'paused' });
  await page.click('#btn-fail');
  await clickLink(page, 0, 0, 1);
  await page.waitForFunction(() => window.hiradix.panes[0].failedLinks === 1);
  await clickLink(page, 0, 0, 2);
  await page.waitForFunction(() => window.hiradix.panes[0].failedLinks === 2);
  await clickLink(page, 0, 3, 0);
  await page.waitForSelector('#fault-msg', { state: 'visible' });
  const msg = await page.textContent('#fault-msg-text');
  assert.match(msg, /^Link 0-3 cannot fail: .*disconnect the network/);
  let s = await state(page);
  assert.deepEqual(
    s.links,
    [
      [0, 1],
      [0, 2],
    ],
    'the refused link is not in the list',
  );
  assert.deepEqual(s.failed, [2]);
  assert.equal((await workerFailed(page))[0].length, 4, 'the worker failed 0-1 and 0-2 only');
  // Restoring a link takes the cause away: the message goes.
  await clickLink(page, 0, 1, 0);
  await page.waitForFunction(() => window.hiradix.panes[0].failedLinks === 1);
  assert.equal(await page.isVisible('#fault-msg'), false, 'the message outlived its cause');
  s = await state(page);
  assert.deepEqual(s.links, [[0, 2]]);
  // Still paused, still at cycle 0: failing links does not run or rebuild the simulation.
  assert.equal(await page.evaluate(() => window.hiradix.sim.now()), 0);
  assert.equal(await page.getAttribute('body', 'data-state'), 'paused');
  // Esc leaves the mode.
  await page.keyboard.press('Escape');
  assert.equal(await page.getAttribute('#btn-fail', 'aria-pressed'), 'false');
  assert.equal(await page.isVisible('#fault-box'), false);
  assert.deepEqual(errors, []);
  await page.close();
});

test('failed links travel in the share link: clicked ones, a list and a random fraction rebuild the same failures', { timeout: 120_000 }, async () => {
  // Clicked, then the URL the page wrote opened anew.
  const { page, errors } = await env.open(HX_PANES);
  await page.click('#btn-fail');
  await clickLink(page, 0, 9, 10);
  await clickLink(page, 0, 2, 14);
  await page.waitForFunction(() => window.hiradix.experiment.config.faults.links.length === 2 && location.search.includes('faults.links'));
  const url = await page.evaluate(() => window.hiradix.url());
  const failed = await workerFailed(page);
  const again = await env.open(url.slice(url.indexOf('?')));
  assert.deepEqual(await again.page.evaluate(() => window.hiradix.experiment.config.faults.links), [
    [9, 10],
    [2, 14],
  ]);
  assert.deepEqual(await workerFailed(again.page), failed, 'the shared link fails other channels');
  assert.deepEqual(await again.page.evaluate(() => window.hiradix.panes.map((p) => p.failedLinks)), [2, 2]);
  assert.deepEqual(again.errors, []);
  await again.page.close();
  // Reset rebuilds from cycle 0 with the clicked failures.
  await page.click('#btn-reset');
  await page.waitForFunction(() => window.hiradix.sim.now() < 50 && window.hiradix.panes.every((p) => p.failedLinks === 2));
  assert.deepEqual(await workerFailed(page), failed);
  assert.deepEqual(errors, []);
  await page.close();
  // A list with a trunk and reversed routers, and a random fraction.
  const q = `${HX}&faults.links=[[6,5],[9,13,0]]&faults.random_fraction=0.1&seed=3`;
  const a = await env.open(q);
  const first = await a.page.evaluate(() => ({
    links: window.hiradix.experiment.config.faults.links,
    frac: window.hiradix.experiment.config.faults.random_fraction,
    n: window.hiradix.panes[0].failedLinks,
    raw: location.search,
    search: decodeURIComponent(location.search),
  }));
  assert.deepEqual(first.links, [
    [6, 5],
    [9, 13, 0],
  ]);
  assert.equal(first.frac, 0.1);
  assert.ok(first.n >= 3, `the listed links and a tenth of the 48 drawn: ${first.n}`);
  assert.match(first.search, /faults\.random_fraction=0\.1/);
  assert.match(first.search, /faults\.links=\[\[6,5\],\[9,13,0\]\]/);
  assert.equal(await a.page.inputValue('#ctl-faults-links'), '6-5, 9-13');
  const mask = await workerFailed(a.page);
  const b = await env.open(first.raw);
  assert.deepEqual(await workerFailed(b.page), mask, 'the same random draw');
  // A randomly failed link cannot be restored by a click (the fraction would fail it again).
  const randomOnly = await b.page.evaluate(() => {
    const p = window.hiradix.panes[0];
    const g = p.view.geo;
    for (let c = 0; c < g.channels; c++) {
      const [x, y] = [g.src[c], g.dst[c]].sort((m, n) => m - n);
      if (p.failed[c] && !(x === 5 && y === 6) && !(x === 9 && y === 13)) return [g.src[c], g.dst[c]];
    }
    return null;
  });
  assert.ok(randomOnly, 'a randomly failed link');
  await b.page.click('#btn-fail');
  await clickLink(b.page, 0, ...randomOnly);
  await b.page.waitForSelector('#fault-msg', { state: 'visible' });
  assert.match(await b.page.textContent('#fault-msg-text'), /faults\.random_fraction/);
  assert.deepEqual(await workerFailed(b.page), mask);
  assert.deepEqual([...a.errors, ...b.errors], []);
  await a.page.close();
  await b.page.close();
});

test('hostile or wrong faults values in a link are refused with a message, no exception', { timeout: 120_000 }, async () => {
  const cases = [
    ['faults.links=[[0,99]]', /faults\.links\[0\]: router 99 does not exist/],
    ['faults.links=[[0,1],[0,2],[0,3],[4,0],[8,0],[12,0]]', /faults\.links: the failed links disconnect the network/],
    ['faults.links=[[0,1,0,3]]', /faults\.links\[0\]: a link is \[router, router\]/],
    ['faults.links=x', /faults\.links: must be a list of links/],
    ['faults.links=[[1e309,1]]', /faults\.links: must be a list of links/],
    [`faults.links=${encodeURIComponent('[{"__proto__":{"polluted":1}}]')}`, /faults\.links: must be a list of links/],
    [`faults.links=${encodeURIComponent('<img src=x onerror="window.__pwned=1">')}`, /faults\.links: must be a list of links/],
    ['faults.random_fraction=0.9', /faults\.random_fraction: must be 0\.\.=0\.5/],
  ];
  const { page, errors } = await env.open(HX);
  for (const [part, expected] of cases) {
    await page.goto(`${env.server.url}${HX}&${part}`);
    await page.waitForFunction(() => window.hiradix?.loaded);
    assert.equal(await page.evaluate(() => window.hiradix.loaded), 'ok', part);
    await page.waitForSelector('#notice', { state: 'visible' });
    const text = await page.textContent('#notice-text');
    assert.match(text, expected, `${part}: ${text}`);
    const facts = await page.evaluate(() => ({
      polluted: typeof {}.polluted,
      pwned: typeof window.__pwned,
      links: window.hiradix.experiment.config.faults.links,
      search: location.search,
    }));
    assert.deepEqual([facts.polluted, facts.pwned], ['undefined', 'undefined'], part);
    assert.ok(Array.isArray(facts.links), `${part}: faults.links is not a list: ${JSON.stringify(facts.links)}`);
    assert.doesNotMatch(decodeURIComponent(facts.search), /<|__proto__/, part);
    assert.deepEqual(errors, [], part);
  }
  await page.close();
});

test(
  "the faults.links control: typed links, a bad entry next to the control, the engine's error there too; the dragonfly's group extents",
  { timeout: 120_000 },
  async () => {
    const { page, errors } = await env.open(HX);
    await setControl(page, 'faults.links', '6 - 5, 9-10/0');
    await page.waitForFunction(() => window.hiradix.panes[0].failedLinks === 2);
    assert.deepEqual(await page.evaluate(() => window.hiradix.experiment.config.faults.links), [
      [5, 6],
      [9, 10],
    ]);
    assert.equal(await page.inputValue('#ctl-faults-links'), '5-6, 9-10');
    // Not a link: refused in the page, next to the control; nothing rebuilt.
    await setControl(page, 'faults.links', '5-x');
    assert.match(await controlMessage(page, 'faults.links'), /'5-x' is not a link/);
    // A router the network does not have: the engine's message, next to the control.
    await setControl(page, 'faults.links', '0-99');
    await page.waitForFunction(() => /router 99 does not exist/.test(document.getElementById('ctl-faults-links-msg').textContent));
    assert.match(await controlMessage(page, 'faults.links'), /faults\.links\[0\]: router 99 does not exist/);
    assert.deepEqual(
      await page.evaluate(() => window.hiradix.experiment.config.faults.links),
      [
        [5, 6],
        [9, 10],
      ],
      'the running experiment was kept',
    );
    // Empty: no failed links.
    await setControl(page, 'faults.links', '');
    await page.waitForFunction(() => window.hiradix.panes[0].failedLinks === 0 && window.hiradix.experiment.config.faults.links.length === 0);
    // A dragonfly's groups as flattened butterflies: a list, and empty = fully connected (null).
    await setControl(page, 'topology.type', 'dragonfly');
    await page.waitForFunction(() => window.hiradix.experiment.config.topology.type === 'dragonfly');
    const a = await page.evaluate(() => window.hiradix.experiment.config.topology.a);
    assert.equal(await page.getAttribute('#ctl-topology-intra', 'placeholder'), 'empty: fully connected');
    await setControl(page, 'topology.intra', a === 4 ? '2,2' : `2,${a / 2}`);
    await page.waitForFunction(() => Array.isArray(window.hiradix.experiment.config.topology.intra));
    await settle(page);
    await setControl(page, 'topology.intra', '');
    await page.waitForFunction(() => window.hiradix.experiment.config.topology.intra === null);
    assert.equal(await page.isVisible('#ctl-topology-intra-msg'), false);
    // Tapering: with g = 5 group pairs have two channels; 0-1:1 keeps one between groups 0 and 1.
    await setControl(page, 'topology.g', '5');
    await page.waitForFunction(() => window.hiradix.experiment.config.topology.g === 5);
    await settle(page);
    const channels = await page.evaluate(() => window.hiradix.panes[0].info.channels);
    await setControl(page, 'topology.taper', '0-1:1');
    await page.waitForFunction(() => JSON.stringify(window.hiradix.experiment.config.topology.taper) === '[[0,1,1]]');
    await settle(page);
    assert.equal(await page.evaluate(() => window.hiradix.panes[0].info.channels), channels - 2, 'the removed channel (both directions) is not drawn');
    await setControl(page, 'topology.taper', '0-1:0');
    await page.waitForFunction(() => /at least 1/.test(document.getElementById('ctl-topology-taper-msg').textContent));
    await setControl(page, 'topology.taper', '0-1');
    assert.match(await controlMessage(page, 'topology.taper'), /'0-1' is not an entry/);
    await setControl(page, 'topology.taper', '');
    await page.waitForFunction(() => window.hiradix.experiment.config.topology.taper.length === 0);
    assert.deepEqual(errors, []);
    await page.close();
  },
);

test(
  'the failed-links story: more links fail in both panes; with no detour left in its row DAL loses packets too; Reset story restores the two',
  { timeout: 120_000 },
  async () => {
    const { page, errors } = await env.open('?preset=dal-failed-links&speed=5');
    assert.deepEqual(await page.evaluate(() => window.hiradix.panes.map((p) => p.failedLinks)), [2, 2]);
    await page.click('#btn-fail');
    // Switch 5's other two row links: 5–6 has failed already, so its row has no detour left.
    await clickLink(page, 1, 4, 5);
    await clickLink(page, 1, 5, 7);
    await page.waitForFunction(() => window.hiradix.panes.every((p) => p.failedLinks === 4));
    assert.deepEqual(await page.evaluate(() => window.hiradix.experiment.config.faults.links), [
      [5, 6],
      [9, 10],
      [4, 5],
      [5, 7],
    ]);
    assert.equal(await page.isVisible('#story-modified'), true, 'the story is marked modified');
    const u0 = await unroutable(page);
    await advanceBy(page, 400);
    const u1 = await unroutable(page);
    assert.ok(u1[1] > u0[1], `DAL lost no packets with switch 5's row links all failed: ${u0} → ${u1}`);
    await page.click('#story-restore');
    await page.waitForFunction(
      () => window.hiradix.panes.every((p) => p.failedLinks === 2) && decodeURIComponent(location.search).includes('faults.links=[[5,6],[9,10]]&'),
    );
    assert.deepEqual(await page.evaluate(() => window.hiradix.experiment.config.faults.links), [
      [5, 6],
      [9, 10],
    ]);
    assert.equal(await page.isVisible('#story-modified'), false);
    assert.deepEqual(errors, []);
    await page.close();
  },
);

test('side by side over faults.links a click fails the link in its pane only; over a topology parameter it is refused', { timeout: 120_000 }, async () => {
  const { page, errors } = await env.open(`${HX}&routing.algorithm=dal&vary=faults.links&values=[]|[[5,6]]`);
  assert.deepEqual(await page.evaluate(() => window.hiradix.panes.map((p) => p.failedLinks)), [0, 1]);
  await page.keyboard.press('x');
  await clickLink(page, 0, 0, 1);
  await page.waitForFunction(() => window.hiradix.panes[0].failedLinks === 1);
  const s = await page.evaluate(() => ({
    values: window.hiradix.experiment.compare.values,
    label: window.hiradix.panes[0].labelEl.textContent,
    search: decodeURIComponent(location.search),
  }));
  assert.deepEqual(s.values, [[[0, 1]], [[5, 6]]]);
  assert.equal(s.label, 'A · [[0,1]]');
  assert.match(s.search, /values=\[\[0,1\]\]\|\[\[5,6\]\]/);
  assert.deepEqual(
    (await workerFailed(page)).map((f) => f.length),
    [2, 2],
  );
  await page.goto(`${env.server.url}${HX}&vary=topology.s&values=[4,4]|[3,3]`);
  await page.waitForFunction(() => window.hiradix?.panes?.length === 2);
  await page.keyboard.press('x');
  await clickLink(page, 0, 0, 1);
  await page.waitForSelector('#fault-msg', { state: 'visible' });
  assert.match(await page.textContent('#fault-msg-text'), /compare different networks \(topology\.s\)/);
  assert.deepEqual(await page.evaluate(() => window.hiradix.panes.map((p) => p.failedLinks)), [0, 0]);
  assert.deepEqual(errors, []);
  await page.close();
});

test(
  'channel slicing (dragonfly §3.2) through the form: twice the routers, two slices drawn, the share link keeps slices and policy, 9 slices refused next to the control',
  { timeout: 120_000 },
  async () => {
    const { page, errors } = await env.open('?topology.type=dragonfly&routing.algorithm=ugal_l&router.vcs=3&speed=5');
    await settle(page);
    const one = await page.evaluate(() => window.hiradix.panes[0].info.routers);
    await setControl(page, 'topology.slices', 2);
    await page.waitForFunction(() => window.hiradix.experiment.config.topology.slices === 2 && window.hiradix.panes[0]?.info.slices === 2);
    await settle(page);
    const built = await page.evaluate(() => {
      const p = window.hiradix.panes[0];
      return { routers: p.info.routers, terminals: p.info.terminals, slices: p.view.geo.slices, routerCount: p.sim.routerCount() };
    });
    assert.deepEqual(
      built,
      { routers: 2 * one, terminals: 2 * 2 * one, slices: 2, routerCount: 2 * one },
      'two slices: twice the routers, each node with a terminal channel into both',
    );
    await setControl(page, 'topology.slice_policy', 'round_robin');
    await page.waitForFunction(
      () => window.hiradix.experiment.config.topology.slice_policy === 'round_robin' && /slice_policy=round_robin/.test(location.search),
    );
    const search = await page.evaluate(() => location.search);
    assert.match(search, /topology\.slices=2(&|$)/);
    // The share link rebuilds the same network.
    const { page: again, errors: errors2 } = await env.open(search);
    await settle(again);
    const back = await again.evaluate(() => ({
      slices: window.hiradix.experiment.config.topology.slices,
      policy: window.hiradix.experiment.config.topology.slice_policy,
      routers: window.hiradix.panes[0].info.routers,
    }));
    assert.deepEqual(back, { slices: 2, policy: 'round_robin', routers: 2 * one });
    assert.deepEqual(errors2, []);
    await again.close();
    // Out of range: the engine's message, naming the field, next to the control; the running
    // network is kept.
    await setControl(page, 'topology.slices', 9);
    await page.waitForSelector('#ctl-topology-slices-msg', { state: 'visible' });
    assert.match(await controlMessage(page, 'topology.slices'), /between 1 and 8, got 9/);
    // In the row of the control it is about, which names the field.
    const row = await page.$eval('#ctl-topology-slices-msg', (m) => {
      const r = m.closest('.ctl');
      return { path: r.dataset.path, label: r.querySelector('label').textContent, title: r.querySelector('label').title };
    });
    assert.equal(row.path, 'topology.slices');
    assert.match(row.label, /slices/);
    assert.match(row.title, /^topology\.slices:/);
    assert.equal(await page.evaluate(() => window.hiradix.panes[0].info.routers), 2 * one, 'the running network was kept');
    await setControl(page, 'topology.slices', 1);
    await page.waitForFunction((one) => window.hiradix.panes[0]?.info.routers === one, one);
    assert.equal(await page.isVisible('#ctl-topology-slices-msg'), false);
    assert.deepEqual(errors, []);
    await page.close();
  },
);

// An 8×8×8 HyperX, one terminal per router: its 64 lines of 8 routers in each dimension
// (ids base + stride·i). `chords(line)`: the 20 links of a line off the cycle
// i → i+1 → … → 7 → 0, whose failure leaves every line a ring (the network connected).
const HX8 = { topology: { type: 'hyperx', s: [8, 8, 8], k: [1], t: 1 }, routing: { algorithm: 'dal' }, traffic: { load: 0.1 } };
function chords(base, stride) {
  const out = [];
  for (let i = 0; i < 8; i++) for (let j = i + 2; j < 8; j++) if (!(i === 0 && j === 7)) out.push([base + stride * i, base + stride * j]);
  return out;
}
const LINES = [1, 8, 64].flatMap((stride) =>
  Array.from({ length: 64 }, (_, m) => {
    // The 64 bases of the lines along `stride`: every id whose coordinate along it is 0.
    const others = [1, 8, 64].filter((s) => s !== stride);
    return chords(others[0] * (m % 8) + others[1] * Math.floor(m / 8), stride);
  }),
);

test(
  '300 failed links: the link Copy link writes opens with all of them; a link too long to open is warned of before it is shared',
  { timeout: 180_000 },
  async () => {
    const { page, errors } = await env.open();
    await page.click('details.config summary');
    const apply = async (links) => {
      await page.fill('#config', JSON.stringify({ ...HX8, faults: { links } }));
      await page.click('#btn-apply');
      await page.waitForFunction((n) => window.hiradix.panes[0]?.failedLinks === n, links.length, { timeout: 60_000 });
    };
    const three = LINES.slice(0, 15).flat();
    assert.equal(three.length, 300);
    await apply(three);
    await page.click('#btn-share');
    await page.waitForSelector('#notice', { state: 'visible' });
    assert.doesNotMatch(await page.textContent('#notice-text'), /would not show/);
    const url = page.url();
    const value = new URL(url).searchParams.get('faults.links');
    assert.ok(value.length > 2000, `faults.links is ${value.length} characters: over the 2 000 of other values`);
    assert.ok(new URL(url).search.length < 4000, `written readably, brackets and commas as they are: ${new URL(url).search.length} characters`);
    const again = await env.open(url.slice(url.indexOf('?')));
    assert.deepEqual(await again.page.evaluate(() => window.hiradix.experiment.config.faults.links), three);
    assert.equal(await again.page.evaluate(() => window.hiradix.panes[0].failedLinks), 300);
    assert.equal(await again.page.isVisible('#notice'), false, 'the shared link opened with a notice');
    assert.deepEqual(again.errors, []);
    await again.page.close();
    // Every line a ring: 3 840 failed links, some 36 000 characters. The engine takes it; a
    // link cannot hold it, and Copy link says so instead of sharing a link that is refused.
    const all = LINES.flat();
    await apply(all);
    await page.click('#btn-share');
    await page.waitForFunction(() => /would not show/.test(document.getElementById('notice-text').textContent));
    const notice = await page.textContent('#notice-text');
    assert.match(
      notice,
      /But the page that opens it would not show this experiment as it is:\n• the link is too long \(\d{5} characters, at most 20000\); nothing in it was used/,
    );
    assert.deepEqual(errors, []);
    await page.close();
  },
);
