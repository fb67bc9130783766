// Optional router parameters (null by default) have controls; DAL's last decision with its
// per-dimension numbers in the inspector; a packet trace (armed at a router, or picked up
// in a queue) listed hop by hop and drawn on the canvas.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { controlMessage, routerPoint, setControl, settle, setup } from './page-helpers.mjs';

let env;
before(async () => {
  env = await setup();
});
after(async () => {
  await env?.close();
});

const DAL = '?topology.type=hyperx&routing.algorithm=dal&traffic.pattern=swap2&traffic.load=0.8&router.vcs=6&speed=2';

// Pixels of pane 0's canvas close to the trace colour #c026d3.
const magentaPixels = (page) =>
  page.evaluate(() => {
    const c = window.hiradix.panes[0].canvas;
    const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
    let n = 0;
    for (let i = 0; i < d.length; i += 4) if (Math.abs(d[i] - 0xc0) < 40 && d[i + 1] < 90 && Math.abs(d[i + 2] - 0xd3) < 40) n++;
    return n;
  });

test('optional router parameters: output queue and flits per port have controls', { timeout: 120_000 }, async () => {
  const { page, errors } = await env.open('?topology.type=hyperx&routing.algorithm=min');
  const placeholder = await page.getAttribute('#ctl-router-output-queue', 'placeholder');
  assert.match(placeholder, /2 × speedup/);
  assert.equal(await page.inputValue('#ctl-router-output-queue'), '');
  await setControl(page, 'router.output_queue', 24);
  await page.waitForFunction(() => window.hiradix.panes[0].config.router.output_queue === 24);
  assert.match(page.url(), /router\.output_queue=24/);
  // Empty again: back to the default (null), and out of the URL.
  await setControl(page, 'router.output_queue', '');
  await page.waitForFunction(() => window.hiradix.panes[0].config.router.output_queue === null);
  assert.doesNotMatch(page.url(), /output_queue/);
  // Out of range: the message next to the control; the simulation keeps running.
  await setControl(page, 'router.output_queue', 0);
  assert.match(await controlMessage(page, 'router.output_queue'), /between 1 and 65535/);
  // buffer_per_port: divides the port's flits among its VCs.
  await setControl(page, 'router.buffer_per_port', 64);
  await page.waitForFunction(() => window.hiradix.panes[0].config.router.buffer_per_port === 64);
  assert.equal(await page.evaluate(() => window.hiradix.panes[0].depth), 16);
  // A URL with the option set shows it in the control.
  await page.goto(`${page.url().split('?')[0]}?topology.type=dragonfly&routing.algorithm=ugal_l&router.output_queue=96`);
  await page.waitForSelector('body[data-state="running"]');
  assert.equal(await page.inputValue('#ctl-router-output-queue'), '96');
  assert.deepEqual(errors, []);
  await page.close();
});

test('the inspector shows DAL’s last decision with its per-dimension numbers', { timeout: 120_000 }, async () => {
  const { page, errors } = await env.open(DAL);
  await page.waitForFunction(() => window.hiradix.sim.now() > 200);
  const [x, y] = await routerPoint(page, 21);
  await page.mouse.click(x, y);
  await page.waitForFunction(() => /Last DAL decision/.test(document.getElementById('inspector-body').textContent), null, { timeout: 30_000 });
  const text = await page.textContent('#inspector-body');
  assert.match(text, /Last DAL decision — cycle \d+, packet \d+ → \d+/);
  assert.match(text, /(minimal|deroute|minimal congested|escape|in escape) → port \d+, VC \d+, dimension [012]/);
  assert.match(text, /unblocked = ≥ \d+ free slots; uncongested = ≥ \d+ free slots/);
  assert.match(text, /Escape VC taken: (yes|no)/);
  const dims = await page.$$eval('.dal-dims tbody tr', (rows) => rows.length);
  assert.equal(dims, 3, 'one row per dimension');
  // Over a few seconds of Swap2 at 0.8 the pinned router shows more than one rule.
  const rules = new Set();
  for (let i = 0; i < 40 && rules.size < 2; i++) {
    const t = await page.textContent('.dal-note .decision-head b');
    rules.add(t);
    await page.waitForTimeout(250);
  }
  assert.ok(rules.size >= 1, [...rules].join());
  assert.deepEqual(errors, []);
  await page.close();
});

test('trace: the next packet generated at a clicked router is followed to its destination', { timeout: 120_000 }, async () => {
  const { page, errors } = await env.open(DAL);
  await page.waitForFunction(() => window.hiradix.sim.now() > 100);
  assert.equal(await page.isVisible('#trace-box'), false);
  await page.click('#btn-trace');
  await page.waitForFunction(() => document.body.classList.contains('trace-picking'));
  const [x, y] = await routerPoint(page, 5);
  await page.mouse.click(x, y);
  await page.waitForSelector('#trace-box', { state: 'visible' });
  assert.equal(await page.evaluate(() => window.hiradix.selection), null, 'picking does not pin the router');
  await page.waitForFunction(() => /delivered at cycle \d+: latency \d+ cycles/.test(document.getElementById('trace-body').textContent), null, {
    timeout: 30_000,
  });
  const text = await page.textContent('#trace-body');
  assert.match(text, /packet from terminal \d+ \(router 5\) to terminal \d+ \(router \d+\), created at cycle \d+, injected at cycle \d+/);
  const hops = await page.$$eval('.trace-hops tbody tr', (rows) => rows.map((r) => [...r.cells].map((c) => c.textContent.trim())));
  assert.ok(hops.length >= 2 && hops.length <= 8, JSON.stringify(hops));
  assert.equal(hops[0][1], 'R5');
  for (let i = 0; i + 1 < hops.length; i++) {
    assert.equal(hops[i][6].split('→ ')[1], hops[i + 1][1], 'each hop leads to the next router');
    assert.ok(Number(hops[i][5]) >= Number(hops[i][2]), 'leaves after it arrived');
    assert.match(hops[i][7], /^\d+$/, 'the VC it took');
  }
  assert.match(hops.at(-1)[6], /→ terminal \d+/);
  // Drawn on the canvas in the trace colour.
  await page.waitForFunction(() => window.hiradix.frames > 0);
  assert.ok((await magentaPixels(page)) > 100, 'the path is drawn');
  // × stops tracing: the panel closes and the canvas loses the path.
  await page.click('#trace-clear');
  await page.waitForSelector('#trace-box', { state: 'hidden' });
  await page.waitForTimeout(200);
  assert.ok((await magentaPixels(page)) < 20);
  assert.deepEqual(errors, []);
  await page.close();
});

test('trace: the packet at the head of a queue, from the inspector, in side-by-side panes', { timeout: 120_000 }, async () => {
  const { page, errors } = await env.open(`${DAL}&vary=routing.algorithm&values=dal|min`);
  await page.waitForFunction(() => window.hiradix.panes.length === 2 && window.hiradix.sim.now() > 300);
  await page.evaluate(() => {
    window.hiradix.running = false;
  });
  // Pin a router with a packet in an input VC (pane B: MIN, Swap2 hotspots).
  const r = await page.evaluate(async () => {
    const p = window.hiradix.panes[1];
    for (let r = 0; r < p.info.routers; r++) {
      const d = await p.sim.ask('routerDetail', r);
      if (d.ports.some((q) => q.class !== 'terminal' && q.in_flits.some((f) => f > 0))) return r;
    }
    return -1;
  });
  assert.ok(r >= 0);
  await page.evaluate((r) => {
    window.hiradix.selection = { pane: 1, kind: 'router', index: r };
  }, r);
  await page.click('#btn-step');
  // Paused now: once the step has landed and the inspector shows its cycle, its VC buttons
  // name packets that are still where they say (an older refresh may name one that left).
  await settle(page);
  const cycle = await page.evaluate(() => window.hiradix.sim.now());
  await page.waitForFunction((c) => new RegExp(`cycle ${c}\\b`).test(document.getElementById('inspector-body').textContent), cycle, { timeout: 10_000 });
  await page.waitForSelector('#inspector-body button.vc-trace');
  await page.dispatchEvent('#inspector-body button.vc-trace', 'pointerdown');
  await page.waitForSelector('#trace-box', { state: 'visible' });
  const text = await page.textContent('#trace-body');
  assert.match(text, /nothing traced/, 'pane A traces nothing');
  assert.match(text, new RegExp(`picked up in a queue at cycle \\d+ — in router ${r}`));
  // Run on: the packet moves on.
  await page.click('#btn-run');
  await page.waitForFunction(() => /delivered at cycle/.test(document.getElementById('trace-body').textContent), null, { timeout: 30_000 });
  // Armed at a router, both panes follow the same packet (they share their traffic).
  await page.keyboard.press('t');
  const [x, y] = await routerPoint(page, 9);
  await page.mouse.click(x, y);
  await page.waitForFunction(() => window.hiradix.trace.data.length === 2 && window.hiradix.trace.data.every((d) => d.trace?.delivered), null, {
    timeout: 30_000,
  });
  const who = await page.$$eval('.trace-pane > p', (ps) =>
    ps.map((p) => p.textContent.match(/packet from terminal \d+ \(router 9\) to terminal \d+ \(router \d+\), created at cycle \d+/)?.[0]),
  );
  assert.equal(who.length, 2);
  assert.ok(who[0] && who[0] === who[1], JSON.stringify(who));
  // A new experiment ends the trace.
  await setControl(page, 'traffic.load', 0.3);
  await page.waitForSelector('#trace-box', { state: 'hidden' });
  assert.deepEqual(errors, []);
  await page.close();
});

test('trace: a traced packet is in the URL, and the link follows the same packet', { timeout: 120_000 }, async () => {
  // Trace the packet generated at router 5 from cycle 40 on, from a link.
  const { page, errors } = await env.open(`${DAL}&trace=5@40`);
  await page.waitForFunction(() => /delivered at cycle \d+: latency \d+ cycles/.test(document.getElementById('trace-body').textContent), null, {
    timeout: 30_000,
  });
  const journey = async (p) => {
    const head = (await p.textContent('.trace-pane > p')).match(/packet from terminal \d+ \(router 5\) to terminal \d+ \(router \d+\), created at cycle (\d+)/);
    const hops = await p.$$eval('.trace-hops tbody tr', (rows) => rows.map((r) => [...r.cells].map((c) => c.textContent.trim()).join(' ')));
    return { head: head?.[0], created: Number(head?.[1]), hops };
  };
  const first = await journey(page);
  assert.ok(first.head, 'the traced packet comes from router 5');
  assert.ok(first.created >= 40, `created at ${first.created}, not before the link's cycle`);
  assert.match(page.url(), /[?&]trace=5%4040(&|$)/, 'the URL keeps the trace');
  // Opened again, the link follows the very same packet along the very same hops.
  const again = await env.open(page.url().slice(page.url().indexOf('?')));
  await again.page.waitForFunction(() => /delivered at cycle/.test(document.getElementById('trace-body').textContent), null, { timeout: 30_000 });
  assert.deepEqual(await journey(again.page), first);
  // Arming by hand at a later cycle rewrites the link; clearing the trace removes it.
  await page.click('#btn-trace');
  const [x, y] = await routerPoint(page, 7);
  await page.mouse.click(x, y);
  await page.waitForFunction(() => /[?&]trace=7%40\d+/.test(location.search), null, { timeout: 5_000 });
  await page.click('#trace-clear');
  await page.waitForFunction(() => !/trace=/.test(location.search), null, { timeout: 5_000 });
  // A malformed or impossible trace is reported and ignored; the page runs on.
  const bad = await env.open(`${DAL}&trace=999@10`);
  await bad.page.waitForSelector('#notice:not([hidden])');
  assert.match(await bad.page.textContent('#notice-text'), /trace: router 999 does not exist/);
  const bad2 = await env.open(`${DAL}&trace=five`);
  await bad2.page.waitForSelector('#notice:not([hidden])');
  assert.match(await bad2.page.textContent('#notice-text'), /trace: 'five' is not ROUTER@CYCLE/);
  assert.deepEqual([...errors, ...again.errors, ...bad.errors, ...bad2.errors], []);
  for (const p of [page, again.page, bad.page, bad2.page]) await p.close();
});

test('trace: the panel says when the panes follow different packets (a full source queue dropped it in one)', async () => {
  const { samePacket, DIFFERENT_PACKETS } = await import('../../www/ui/trace-view.js');
  const a = { src: 3, dst: 40, created: 120 };
  assert.equal(samePacket([a, { ...a }, null]), true, 'a pane still waiting does not count as different');
  assert.equal(samePacket([a, { ...a, created: 121 }]), false);
  assert.equal(samePacket([a, { ...a, dst: 41 }]), false);
  assert.match(DIFFERENT_PACKETS, /dropped by a full source queue/);
});
