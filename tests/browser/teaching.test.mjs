// Time control and motion for teaching (docs/lecture.md): stepping back and rewinding is exact and
// keeps the panes aligned (← and the ◀ button, greyed when nothing earlier is kept); run
// until the next decision / non-minimal decision at the selected router or the first full
// channel; the offered load changed while running (measured from the generated packets,
// refused out of range next to the control, kept in the link, undone by a rewind); packets
// drawn travelling along the links at slow speed on small networks (and not read at all
// on the 1K-node dragonfly); the routers' decision counts in the inspector, as a router
// colouring and its legend.
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
  await page.waitForFunction(() => window.hiradix.panes.length > 0 && window.hiradix.frames > 2);
  return { page, errors };
}

// A 72-node dragonfly (p = h = 2, a = 4, g = 9) under group shift: UGAL-L and UGAL-G.
const SMALL_DF =
  'topology.type=dragonfly&topology.p=2&topology.a=4&topology.h=2&topology.g=9&routing.algorithm=ugal_l&traffic.pattern=group_shift&traffic.load=0.3';

const settle = (page) => page.evaluate(() => window.hiradix.settled());
const cycles = (page) => page.evaluate(() => window.hiradix.panes.map((p) => p.sim.now()));

/** Runs on until cycle `n` (the until box) and waits until paused there. */
async function runUntilCycle(page, n) {
  await page.selectOption('#until-kind', 'cycle');
  await page.fill('#run-until', String(n));
  await page.dispatchEvent('#run-until', 'change');
  await page.waitForFunction((n) => window.hiradix.sim.now() === n && !window.hiradix.running, n, { timeout: 60_000 });
  await settle(page);
}

// Everything a pane draws and counts, as strings.
const state = (page) =>
  page.evaluate(() =>
    window.hiradix.panes.map((p) => ({
      now: p.sim.now(),
      counters: JSON.stringify(p.sim.liveCounters()),
      occupancy: Array.from(p.sim.channelOccupancy()).join(),
      vc: Array.from(p.sim.vcOccupancy()).join(),
      fill: Array.from(p.sim.routerInjectionOccupancy()).join(),
      queue: Array.from(p.sim.routerSourceQueues()).join(),
    })),
  );

test('rewind is exact: back to cycle A every pane shows exactly what it showed there, aligned', { timeout: 90_000 }, async () => {
  // Opened paused: under load the page could run past cycle 300 before the test sets it.
  const { page, errors } = await open('?preset=min-worst-case&speed=10&paused=1', 'paused');
  await runUntilCycle(page, 300);
  const a = await state(page);
  assert.deepEqual(
    a.map((s) => s.now),
    [300, 300],
  );
  await runUntilCycle(page, 1000);
  const b = await state(page);
  assert.notEqual(b[0].counters, a[0].counters, 'the run went on');
  await page.fill('#rewind-to', '300');
  await page.dispatchEvent('#rewind-to', 'change');
  await page.waitForFunction(() => window.hiradix.sim.now() === 300);
  await settle(page);
  const back = await state(page);
  assert.deepEqual(back, a, 'rewound state differs from the state first reached at cycle 300');
  // The statistics forget what came after: no sample beyond the cycle now.
  const last = await page.evaluate(() => window.hiradix.panes.map((p) => p.stats.samples.at(-1)?.cycle ?? 0));
  assert.ok(
    last.every((c) => c <= 300),
    `samples after the rewind target: ${last}`,
  );
  // Running on from there reaches the same state at 1000 as the first time.
  await runUntilCycle(page, 1000);
  assert.deepEqual(await state(page), b, 'the replayed run differs');
  // A cycle not before the current one is refused next to the control.
  await page.fill('#rewind-to', '5000');
  await page.dispatchEvent('#rewind-to', 'change');
  await page.waitForSelector('#until-msg', { state: 'visible' });
  assert.match(await page.textContent('#until-msg'), /not before the current cycle/);
  assert.deepEqual(await cycles(page), [1000, 1000]);
  // So is an until that is not a cycle, or not after the current one.
  for (const [typed, said] of [
    ['3.5', /until: '3\.5' is not a cycle/],
    ['-5', /until: '-5' is not a cycle/],
    ['400', /until: cycle 400 is not after the current cycle 1\u2009000/],
  ]) {
    await page.fill('#run-until', typed);
    await page.dispatchEvent('#run-until', 'change');
    await page.waitForFunction((re) => new RegExp(re).test(document.getElementById('until-msg').textContent), said.source);
    assert.equal(await page.isVisible('#until-msg'), true);
    assert.equal(await page.inputValue('#run-until'), '', 'the box empties');
  }
  assert.deepEqual(await cycles(page), [1000, 1000]);
  assert.deepEqual(errors, []);
  await page.close();
});

test('← and the ◀ button step every pane back one cycle; greyed with a reason at cycle 0', { timeout: 60_000 }, async () => {
  const { page, errors } = await open('?preset=min-worst-case&paused=1', 'paused');
  await settle(page);
  assert.deepEqual(await cycles(page), [0, 0]);
  await page.waitForFunction(() => document.getElementById('btn-back').disabled);
  assert.match(await page.getAttribute('#btn-back', 'title'), /Nothing earlier is kept/);
  assert.equal(await page.isDisabled('#rewind-to'), true);
  for (let i = 0; i < 3; i++) await page.click('#btn-step');
  await page.waitForFunction(() => window.hiradix.sim.now() === 3);
  await page.waitForFunction(() => !document.getElementById('btn-back').disabled);
  const at2 = await (async () => {
    await page.click('#btn-back');
    await page.waitForFunction(() => window.hiradix.sim.now() === 2);
    await settle(page);
    return state(page);
  })();
  assert.deepEqual(
    at2.map((s) => s.now),
    [2, 2],
  );
  // ← on the page (focus on no text field): one more cycle back.
  await page.evaluate(() => document.activeElement?.blur());
  await page.keyboard.press('ArrowLeft');
  await page.waitForFunction(() => window.hiradix.sim.now() === 1);
  // → and ← again: the same state as before.
  await page.keyboard.press('ArrowRight');
  await page.waitForFunction(() => window.hiradix.sim.now() === 2);
  await settle(page);
  assert.deepEqual(await state(page), at2);
  await page.keyboard.press('ArrowLeft');
  await page.keyboard.press('ArrowLeft');
  await page.waitForFunction(() => window.hiradix.sim.now() === 0);
  await page.waitForFunction(() => document.getElementById('btn-back').disabled);
  // ← in a text field is the field's.
  await page.focus('#run-until');
  await page.keyboard.press('ArrowLeft');
  await page.waitForTimeout(200);
  assert.deepEqual(await cycles(page), [0, 0]);
  assert.equal(await page.evaluate(() => window.hiradix.running), false);
  assert.deepEqual(errors, []);
  await page.close();
});

test('run until the next (non-minimal) decision at the selected router: its counter moved, panes aligned', { timeout: 90_000 }, async () => {
  const { page, errors } = await open(`?${SMALL_DF}&vary=routing.algorithm&values=ugal_l|ugal_g&speed=2`);
  await page.waitForFunction(() => window.hiradix.sim.now() > 50);
  // No router selected: the router events are greyed, and asked for anyway, refused.
  await page.evaluate(() => {
    window.hiradix.selection = null;
    window.hiradix.hover = null;
  });
  await page.waitForFunction(() => document.querySelector('#until-kind option[value=nonminimal]').disabled);
  assert.match(await page.textContent('#until-kind option[value=nonminimal]'), /click a router first/);
  await page.evaluate(() => {
    const s = document.getElementById('until-kind');
    s.value = 'nonminimal';
    s.dispatchEvent(new Event('change'));
  });
  await page.click('#btn-until');
  await page.waitForSelector('#until-msg', { state: 'visible' });
  assert.match(await page.textContent('#until-msg'), /Click a router first/);
  // Router 3 of pane B (UGAL-G), pinned as a click would.
  await page.evaluate(() => {
    window.hiradix.selection = { pane: 1, kind: 'router', index: 3 };
  });
  await page.waitForFunction(() => !document.querySelector('#until-kind option[value=nonminimal]').disabled);
  assert.match(await page.textContent('#until-kind option[value=nonminimal]'), /router 3 \(pane B\)/);
  for (const [kind, k, words] of [
    ['nonminimal', 1, /Router 3 sent a packet non-minimally at cycle [\d\u2009]+ in pane B/],
    ['decision', 0, /Router 3 routed a packet onto a link at cycle/],
  ]) {
    await page.click('#btn-run'); // pause first: the counts then are those of the run's start
    await page.waitForSelector('body[data-state="paused"]');
    await settle(page);
    const before = await page.evaluate(() => window.hiradix.panes[1].sim.routerDecisions()?.slice(6, 8));
    const start = (await cycles(page))[0];
    await page.selectOption('#until-kind', kind);
    await page.click('#btn-until');
    await page.waitForFunction((re) => new RegExp(re).test(document.getElementById('notice-text').textContent), words.source, { timeout: 30_000 });
    await settle(page);
    const r = await page.evaluate(() => ({
      now: window.hiradix.panes.map((p) => p.sim.now()),
      d: Array.from(window.hiradix.panes[1].sim.routerDecisions().slice(6, 8)),
      running: window.hiradix.running,
    }));
    assert.equal(r.running, false, 'paused when reached');
    assert.equal(r.now[0], r.now[1], 'the panes stay aligned');
    assert.ok(r.now[0] > start, `${kind}: no cycle advanced`);
    assert.ok(r.d[k] > before[k], `${kind}: router 3's counter ${before[k]} → ${r.d[k]}`);
    // The notice names the cycle reached.
    assert.match(await page.textContent('#notice-text'), new RegExp(`cycle ${String(r.now[0]).replace(/\B(?=(\d{3})+(?!\d))/g, '\u2009')}`));
    await page.click('#btn-run');
  }
  assert.deepEqual(errors, []);
  await page.close();
});

test('run until the first saturated channel: a VC it feeds is full, selected and in the inspector', { timeout: 60_000 }, async () => {
  // The default 4-ary 3-flat past saturation (load 1): input buffers back up.
  const { page, errors } = await open('?traffic.load=1&vary=routing.algorithm&values=min_ad|val&speed=1');
  await page.selectOption('#until-kind', 'saturated');
  await page.click('#btn-until');
  await page.waitForFunction(() => /saturates at cycle/.test(document.getElementById('notice-text').textContent), null, { timeout: 30_000 });
  await settle(page);
  const r = await page.evaluate(() => {
    const app = window.hiradix;
    const s = app.selection;
    const pane = s ? app.panes[s.pane] : null;
    const vcs = pane ? Array.from(pane.sim.vcOccupancy()).slice(s.index * pane.info.vcs, (s.index + 1) * pane.info.vcs) : [];
    return { sel: s, now: app.panes.map((p) => p.sim.now()), vcs, depth: pane?.info.depth, running: app.running };
  });
  assert.equal(r.sel?.kind, 'channel');
  assert.ok(
    r.vcs.some((f) => f >= r.depth),
    `no VC of the selected channel is full: ${r.vcs} (depth ${r.depth})`,
  );
  assert.equal(r.now[0], r.now[1], 'the panes stay aligned');
  assert.equal(r.running, false);
  await page.waitForFunction((c) => new RegExp(`Channel ${c}\\b`).test(document.getElementById('inspector-body').textContent), r.sel.index, {
    timeout: 10_000,
  });
  assert.match(await page.textContent('#notice-text'), new RegExp(`Channel ${r.sel.index} \\(router \\d+ → router \\d+\\) saturates`));
  assert.deepEqual(errors, []);
  await page.close();
});

test('the load while running: offered load follows, refused out of range, in the link, undone by a rewind', { timeout: 90_000 }, async () => {
  const { page, errors } = await open('?preset=min-worst-case&speed=20&paused=1', 'paused');
  const offered = (from, to) =>
    page.evaluate(
      ([a, b]) => {
        const p = window.hiradix.panes[1]; // VAL: below saturation at both loads
        const i = p.info;
        return ((b[0] - a[0]) * i.packet_size * i.terminal_period) / ((b.cycle - a.cycle) * i.terminals);
      },
      [from, to],
    );
  // Generated packets so far, and the cycle.
  const snap = () => page.evaluate(() => ({ 0: window.hiradix.panes[1].sim.liveCounters().generated, cycle: window.hiradix.sim.now() }));
  await runUntilCycle(page, 600);
  const c600 = await snap();
  assert.equal(await page.inputValue('#load-value'), '0.3');
  assert.equal(await page.isVisible('#story-modified'), false);
  // Paused at 600: the change applies at cycle 600.
  await page.fill('#load-value', '0.15');
  await page.dispatchEvent('#load-value', 'change');
  await page.waitForFunction(() => window.hiradix.experiment.config.traffic.load === 0.15);
  await page.waitForFunction(() => new URLSearchParams(location.search).get('traffic.load') === '0.15');
  assert.equal(await page.isVisible('#story-modified'), true, 'the story is not marked modified');
  assert.equal(await page.inputValue('#ctl-traffic-load'), '0.15', 'the form does not show the new load');
  const engine = await page.evaluate(() => Promise.all(window.hiradix.panes.map((p) => p.sim.ask('config').then((c) => c.traffic.load))));
  assert.deepEqual(engine, [0.15, 0.15]);
  await runUntilCycle(page, 2600);
  const c2600 = await snap();
  const before = await offered({ 0: 0, cycle: 0 }, c600);
  const afterChange = await offered(c600, c2600);
  assert.ok(Math.abs(before - 0.3) < 0.03, `offered before: ${before}`);
  assert.ok(Math.abs(afterChange - 0.15) < 0.02, `offered after: ${afterChange}`);
  // Out of range: the engine's message next to the control; nothing changes.
  await page.fill('#load-value', '1.5');
  await page.dispatchEvent('#load-value', 'change');
  await page.waitForSelector('#load-msg', { state: 'visible' });
  assert.match(await page.textContent('#load-msg'), /traffic\.load: must be 0\.\.=1, got 1\.5/);
  assert.equal(await page.evaluate(() => window.hiradix.experiment.config.traffic.load), 0.15);
  await page.waitForFunction(() => document.getElementById('load-value').value === '0.15');
  // The slider works while running too.
  await page.click('#btn-run');
  await page.$eval('#load-slider', (e) => {
    e.value = '0.2';
    e.dispatchEvent(new Event('input'));
  });
  await page.waitForFunction(() => window.hiradix.experiment.config.traffic.load === 0.2);
  assert.equal(await page.isVisible('#load-msg'), false, 'the old message stayed');
  // Back to before the first change: the old load again, in the engine, the control and the link.
  await page.fill('#rewind-to', '500');
  await page.dispatchEvent('#rewind-to', 'change');
  await page.waitForFunction(() => window.hiradix.sim.now() === 500);
  await settle(page);
  await page.waitForFunction(() => document.getElementById('load-value').value === '0.3');
  assert.equal(await page.evaluate(() => window.hiradix.experiment.config.traffic.load), 0.3);
  assert.deepEqual(await page.evaluate(() => Promise.all(window.hiradix.panes.map((p) => p.sim.ask('config').then((c) => c.traffic.load)))), [0.3, 0.3]);
  await page.waitForFunction(
    () => !new URLSearchParams(location.search).has('traffic.load') || new URLSearchParams(location.search).get('traffic.load') === '0.3',
  );
  assert.equal(await page.isVisible('#story-modified'), false, 'still marked modified after undoing the change');
  assert.deepEqual(errors, []);
  await page.close();
});

test('motion: at slow speed a small network draws its packets on the links, by kind; the legend says so', { timeout: 60_000 }, async () => {
  const { page, errors } = await open(`?${SMALL_DF}&speed=0.25`);
  await page.waitForFunction(() => window.hiradix.sim.now() > 40, null, { timeout: 30_000 });
  await page.click('#btn-run');
  await page.waitForSelector('body[data-state="paused"]');
  await settle(page);
  // Paused: the packets have glided to where the snapshot left them.
  await page.waitForFunction(() => window.hiradix.panes[0].view.packetsDrawn?.glide === 1);
  await page.waitForTimeout(100);
  const r = await page.evaluate(() => {
    const p = window.hiradix.panes[0];
    const data = p.sim.packetsOnChannels();
    let min = 0;
    let nonmin = 0;
    for (let i = 0; i < data.length; i += 5) {
      if (data[i + 3]) nonmin++;
      else min++;
    }
    const drawn = p.view.packetsDrawn;
    // A minimal packet's disc far from every other symbol, and a non-minimal one's diamond.
    const lone = (kind) =>
      drawn.dots.find(
        ([x, y, nm, f]) => nm === kind && !f && drawn.dots.every(([x2, y2]) => (x2 === x && y2 === y) || Math.hypot(x2 - x, y2 - y) > 3 * drawn.radius),
      );
    const ctx = p.canvas.getContext('2d');
    const px = (x, y) => Array.from(ctx.getImageData(Math.round(x), Math.round(y), 1, 1).data.slice(0, 3));
    const m = lone(0);
    const n = lone(1);
    return {
      min,
      nonmin,
      drawn: [drawn.minimal, drawn.nonminimal],
      minPixel: m ? px(m[0], m[1]) : null,
      nonminPixel: n ? px(n[0], n[1] - drawn.radius) : null,
      legend: !document.getElementById('legend-packets-row').hidden,
      exported: window.hiradix.exportLegend().packets,
    };
  });
  assert.ok(r.min + r.nonmin > 10, `packets on the links: ${r.min} + ${r.nonmin}`);
  assert.ok(r.nonmin > 0 && r.min > 0, 'both kinds under UGAL-L at group shift');
  assert.deepEqual(r.drawn, [r.min, r.nonmin], 'drawn packets by kind = packetsOnChannels');
  // Near-black disc #1c2430, vermilion diamond #d55e00.
  if (r.minPixel)
    assert.ok(
      r.minPixel.every((v, i) => Math.abs(v - [28, 36, 48][i]) < 30),
      `minimal disc pixel ${r.minPixel}`,
    );
  if (r.nonminPixel) assert.ok(r.nonminPixel[0] > 170 && r.nonminPixel[1] < 140 && r.nonminPixel[2] < 80, `non-minimal diamond pixel ${r.nonminPixel}`);
  assert.ok(r.minPixel || r.nonminPixel, 'no packet symbol clear of the others to check');
  assert.equal(r.legend, true, 'the legend shows the packet symbols');
  assert.ok(r.exported?.minimal && r.exported?.nonminimal, 'the PNG export legend has the packets');
  // Faster than 1 cycle per frame: nothing is read or drawn, the legend row goes.
  await page.fill('#cycles-per-frame', '2');
  await page.dispatchEvent('#cycles-per-frame', 'change');
  await page.waitForFunction(() => window.hiradix.panes[0].view.packetsDrawn === null && document.getElementById('legend-packets-row').hidden);
  assert.equal(await page.evaluate(() => window.hiradix.exportLegend().packets), null);
  await page.click('#btn-step');
  await page.waitForFunction(() => window.hiradix.sim.snap.packets === undefined);
  assert.deepEqual(errors, []);
  await page.close();
});

test('motion: the 1K-node dragonfly story reads no packets', { timeout: 60_000 }, async () => {
  const { page, errors } = await open('?preset=ugal-l-misjudges');
  await page.waitForFunction(() => window.hiradix.sim.now() > 100, null, { timeout: 30_000 });
  const r = await page.evaluate(() => ({
    read: window.hiradix.panes.map((p) => p.sim.snap.packets !== undefined),
    drawn: window.hiradix.panes.map((p) => p.view.packetsDrawn),
    legend: document.getElementById('legend-packets-row').hidden,
  }));
  assert.deepEqual(r.read, [false, false, false]);
  assert.deepEqual(r.drawn, [null, null, null]);
  assert.equal(r.legend, true);
  assert.deepEqual(errors, []);
  await page.close();
});

test('decision counts: the inspector shows routerDecisions(); the router colouring and its legend', { timeout: 60_000 }, async () => {
  const { page, errors } = await open(`?${SMALL_DF}&speed=5`);
  await page.waitForFunction(() => window.hiradix.sim.now() > 300, null, { timeout: 30_000 });
  await page.evaluate(() => {
    window.hiradix.selection = { pane: 0, kind: 'router', index: 2 };
  });
  await page.click('#btn-run');
  await page.waitForSelector('body[data-state="paused"]');
  await settle(page);
  await page.waitForFunction(() => document.querySelector('.decision-counts')?.dataset.cycle === String(window.hiradix.sim.now()), null, { timeout: 10_000 });
  const shown = await page.$eval('.decision-counts', (e) => ({
    routed: Number(e.dataset.routed),
    nonminimal: Number(e.dataset.nonminimal),
    text: e.textContent,
  }));
  const engine = await page.evaluate(() => window.hiradix.panes[0].sim.ask('routerDecisions').then((d) => [d[4], d[5]]));
  assert.deepEqual([shown.routed, shown.nonminimal], engine);
  assert.ok(engine[0] > 0, 'router 2 routed nothing');
  const pct = `${((100 * engine[1]) / engine[0]).toFixed(1)} %`;
  assert.ok(shown.text.includes(pct), `the share ${pct} is not in "${shown.text}"`);
  // The router colouring: its legend, the link, and the routers' colour = the window's shares.
  await page.selectOption('#router-metric', 'nonmin');
  assert.match(await page.textContent('#legend-router'), /share of its routed packets sent non-minimally.*darkest ≥ 50 %/);
  await page.waitForFunction(() => new URLSearchParams(location.search).get('routers') === 'nonmin');
  const r = await page.evaluate(() => {
    const w = window.hiradix.panes[0].decisions;
    return { shares: Array.from(w.shares()), colours: Array.from(w.shareColours()) };
  });
  assert.ok(r.shares.some((s) => s > 0) && r.shares.every((s) => s >= 0 && s <= 1), `shares ${r.shares}`);
  r.shares.forEach((s, i) => assert.ok(Math.abs(r.colours[i] - Math.min(1, s / 0.5)) < 1e-6, `router ${i}: colour ${r.colours[i]} for share ${s}`));
  // The window's share of router 2 is the inspector's "recent" column.
  const recent = await page.$eval('.decision-counts tr.share td:last-child', (e) => e.textContent);
  assert.equal(recent, `${(100 * r.shares[2]).toFixed(1)} %`);
  await page.selectOption('#router-metric', 'fill');
  assert.match(await page.textContent('#legend-router'), /injection buffers/);
  assert.deepEqual(errors, []);
  await page.close();
});
