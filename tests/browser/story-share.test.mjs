// A story document travels three ways and opens as its author saw it: in the link (Share
// story: ?story=z:<deflate-raw, base64url>), as a file (Download story; Open story… or a
// drop) and hosted beside the page (?story=<relative address>, same origin only). Hostile
// documents (bad base64, not deflate, a deflate bomb, refused by the engine, too long) are
// refused with a notice naming the problem, nothing of them applied, and no exception.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { ROOT, launchBrowser, openPage } from './harness.mjs';
import { setup } from './page-helpers.mjs';
import { MAX_LINK_PAYLOAD, deflate, toBase64Url } from '../../www/stories/share.js';

let env;
let dir;
before(async () => {
  env = await setup();
  dir = await mkdtemp(join(tmpdir(), 'hiradix-story-share-'));
});
after(async () => {
  await env?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

const builtinText = (id) => readFile(join(ROOT, 'www/stories/builtin', `${id}.json`), 'utf8');
const noticeText = (page) => page.evaluate(() => (document.getElementById('notice').hidden ? '' : document.getElementById('notice-text').textContent));

/** What a story shows: its text, experiment, panes and key plots, as the page has them. */
function shown(page) {
  return page.evaluate(() => {
    const h = window.hiradix;
    const text = (id) => document.getElementById(id).textContent;
    const exp = JSON.parse(JSON.stringify(h.experiment));
    delete exp.preset; // the id the page knows the story by (an opened one may be renamed)
    return {
      title: text('story-title'),
      paper: text('story-paper'),
      point: text('story-point'),
      explanation: text('story-text'),
      doc: JSON.parse(JSON.stringify(h.story.doc)),
      experiment: exp,
      panes: h.panes.map((p) => ({ name: p.variant.name, label: p.variant.label, config: p.config })),
      focus: h.story.focus?.label ?? null,
      keyPlots: h.story.keyPlots,
      sweep: document.getElementById('sweep-loads').value,
    };
  });
}

/** Waits until the page shows the story `id` with its panes built. */
const waitStory = (page, id) =>
  page.waitForFunction((id) => window.hiradix.story?.id === id && window.hiradix.panes.length === window.hiradix.experiment.compare?.values.length, id, {
    timeout: 60_000,
  });

test("a built-in story's Share link opens the same story in a fresh browser, beside the built-in one", { timeout: 240_000 }, async () => {
  const { page, errors } = await env.open('?preset=dal-swap2');
  await waitStory(page, 'dal-swap2');
  const before = await shown(page);
  assert.deepEqual(before.doc, JSON.parse(await builtinText('dal-swap2')), 'the story keeps its document');
  // The button: the link is copied (or, without clipboard access, shown in the notice).
  await page.click('#btn-story-share');
  await page.waitForFunction(() => !document.getElementById('notice').hidden);
  assert.match(await noticeText(page), /Link to the story “.*”/);
  const { url, error } = await page.evaluate(() => window.hiradix.storyLink());
  assert.equal(error, undefined);
  const search = new URL(url).search;
  assert.match(search, /^\?story=z:[A-Za-z0-9_-]+$/, 'the link carries only the compressed document');
  assert.ok(search.length < MAX_LINK_PAYLOAD, `link of ${search.length} characters`);
  assert.deepEqual(errors, []);
  await page.close();

  // A fresh browser (no state shared with the first).
  const fresh = await launchBrowser({ width: 1500, height: 1000 });
  try {
    const { page: other, errors: otherErrors } = await openPage(fresh.context, url);
    await other.waitForSelector('body[data-state="running"]', { timeout: 60_000 });
    await waitStory(other, 'dal-swap2-opened');
    const after = await shown(other);
    assert.deepEqual(after, before);
    assert.equal(await noticeText(other), '', 'a good story link gives no notice');
    // The built-in story stays in the menu; the opened one is listed under "Opened stories".
    const menu = await other.$$eval('#preset option', (os) => os.map((o) => `${o.parentElement.tagName === 'OPTGROUP' ? 'opened:' : ''}${o.value}`));
    assert.ok(menu.includes('dal-swap2') && menu.includes('opened:dal-swap2-opened'), menu.join());
    assert.equal(await other.evaluate(() => window.hiradix.presets.get('dal-swap2').opened), null);
    assert.equal(await other.$eval('#preset', (s) => s.value), 'dal-swap2-opened');
    // The address bar carries the story, so a reload reopens it.
    assert.match(await other.evaluate(() => location.search), /^\?story=z:[A-Za-z0-9_-]+&preset=dal-swap2-opened&/);
    await other.reload();
    await other.waitForSelector('body[data-state="running"]', { timeout: 60_000 });
    await waitStory(other, 'dal-swap2-opened');
    assert.deepEqual(await shown(other), before);
    assert.deepEqual(await other.evaluate(() => window.hiradix.linkProblems()), []);
    // The built-in story is still the built-in one.
    await other.selectOption('#preset', 'dal-swap2');
    await waitStory(other, 'dal-swap2');
    assert.deepEqual((await shown(other)).doc, before.doc);
    assert.deepEqual(otherErrors, []);
  } finally {
    await fresh.close();
  }
});

test('Download story saves <id>.json; Open story… and a dropped file open it as it was', { timeout: 240_000 }, async () => {
  const { page, errors } = await env.open('?preset=greedy-vs-sequential');
  await waitStory(page, 'greedy-vs-sequential');
  const before = await shown(page);
  const [download] = await Promise.all([page.waitForEvent('download'), page.click('#btn-story-download')]);
  assert.equal(download.suggestedFilename(), 'greedy-vs-sequential.json');
  const file = join(dir, 'greedy-vs-sequential.json');
  await download.saveAs(file);
  const text = await readFile(file, 'utf8');
  assert.deepEqual(JSON.parse(text), JSON.parse(await builtinText('greedy-vs-sequential')));
  assert.match(text, /^\{\n {2}"hiradix_story": 1,\n/, 'pretty JSON');
  await page.close();

  // Open story… (the file input behind the button).
  const opened = await env.open();
  await opened.page.setInputFiles('#story-file', file);
  await waitStory(opened.page, 'greedy-vs-sequential-opened');
  assert.deepEqual(await shown(opened.page), before);
  assert.match(await noticeText(opened.page), /Opened the story “.*” from greedy-vs-sequential\.json/);
  assert.match(await opened.page.evaluate(() => location.search), /^\?story=z:/);
  await opened.page.close();

  // Dropped on the page (a synthetic drop event carrying the file).
  const dropped = await env.open();
  await dropped.page.evaluate((text) => {
    const dt = new DataTransfer();
    dt.items.add(new File([text], 'greedy-vs-sequential.json', { type: 'application/json' }));
    document.querySelector('main').dispatchEvent(new DragEvent('drop', { dataTransfer: dt, bubbles: true, cancelable: true }));
  }, text);
  await waitStory(dropped.page, 'greedy-vs-sequential-opened');
  assert.deepEqual(await shown(dropped.page), before);
  // A refused file changes nothing and says why, naming the field.
  const bad = JSON.parse(text);
  bad.title = 'x'.repeat(300);
  await dropped.page.setInputFiles('#story-file', { name: 'bad.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(bad)) });
  await dropped.page.waitForFunction(() => /could not be opened/.test(document.getElementById('notice-text').textContent));
  assert.match(await noticeText(dropped.page), /bad\.json: the simulator refuses it: title: /);
  assert.equal(await dropped.page.evaluate(() => window.hiradix.story.id), 'greedy-vs-sequential-opened');
  assert.deepEqual([...errors, ...opened.errors, ...dropped.errors], []);
  await dropped.page.close();
});

test('a story too large for a link opens from a file; Share story names the limit and its size', { timeout: 180_000 }, async () => {
  const doc = JSON.parse(await builtinText('min-worst-case'));
  doc.id = 'large-story';
  // Notes of random text (which deflate cannot shrink below 6 bits a character): 20 000 characters.
  doc.notes = Array.from({ length: 20 }, () => randomBytes(750).toString('base64'));
  const { page, errors } = await env.open();
  await page.setInputFiles('#story-file', { name: 'large.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(doc)) });
  await waitStory(page, 'large-story');
  // The notice follows once the story is applied.
  await page.waitForFunction(() => /too large for a link/.test(document.getElementById('notice-text').textContent));
  assert.match(await noticeText(page), /too large for a link: compressed it takes [\d,]+ characters, a link carries at most 16,000 characters/);
  // The address bar holds the experiment, without a story other pages would not know.
  const search = await page.evaluate(() => location.search);
  assert.doesNotMatch(search, /story=|preset=/);
  await page.click('#btn-story-share');
  await page.waitForFunction(() => /cannot be shared in a link/.test(document.getElementById('notice-text').textContent));
  assert.match(await noticeText(page), /compressed it takes [\d,]+ characters, a link carries at most 16,000 characters/);
  assert.deepEqual(errors, []);
  await page.close();
});

test('?story=<address> opens a story hosted beside the page; another site or scheme is refused', { timeout: 240_000 }, async () => {
  const { page, errors } = await env.open('?story=tests/browser/fixtures/week3.json');
  await waitStory(page, 'week3-adaptive');
  const s = await shown(page);
  assert.equal(s.title, 'Week 3: adaptive routing on a 2-D flattened butterfly');
  assert.deepEqual(s.doc, JSON.parse(await readFile(join(ROOT, 'tests/browser/fixtures/week3.json'), 'utf8')));
  assert.equal(s.experiment.config.seed, 3);
  assert.equal(s.panes.length, 2);
  assert.equal(await noticeText(page), '');
  assert.equal(await page.$eval('#preset', (el) => el.value), 'week3-adaptive');
  // The address bar keeps the hosted address (short); a reload reopens it.
  assert.match(await page.evaluate(() => location.search), /^\?story=tests\/browser\/fixtures\/week3\.json&preset=week3-adaptive&/);
  // A built-in document by its address, with the link's speed.
  const { page: p2, errors: e2 } = await env.open('?story=./www/stories/builtin/min-worst-case.json&speed=5');
  await waitStory(p2, 'min-worst-case-opened');
  assert.equal(await p2.evaluate(() => window.hiradix.experiment.speed), 5);
  assert.deepEqual([...errors, ...e2], []);
  await page.close();

  // Refused: nothing fetched from elsewhere, the first story shown, the notice says why.
  const cases = [
    ['http://localhost:1/stories/x.json', /is on another site \(http:\/\/localhost:1\); a story is read only from the page's own site/],
    ['//example.com/x.json', /is on another site \(http:\/\/example\.com\)/],
    ['javascript:alert(1)', /is not an http\(s\) address/],
    ['data:application/json,{}', /is not an http\(s\) address/],
    ['tests/browser/fixtures/missing.json', /could not be fetched \(404/],
    ['index.html', /'index\.html': it is not JSON/],
  ];
  for (const [address, want] of cases) {
    await p2.goto(`${env.server.url}?story=${encodeURIComponent(address)}&speed=7`);
    await p2.waitForFunction(() => window.hiradix?.loaded);
    assert.equal(await p2.evaluate(() => window.hiradix.loaded), 'ok', address);
    await waitStory(p2, 'min-worst-case');
    const notice = await noticeText(p2);
    assert.match(notice, /This link's story could not be opened: /, address);
    assert.match(notice, want, address);
    assert.match(notice, /Nothing of the link was used; showing the first story instead/, address);
    assert.equal(await p2.evaluate(() => window.hiradix.experiment.speed), 2, `${address}: the link's speed was applied`);
  }
  assert.deepEqual(
    e2.filter((e) => !/404/.test(e)),
    [],
  );
  await p2.close();
});

test('hostile story links are refused with a notice and no exception; the first story opens', { timeout: 300_000 }, async () => {
  const doc = JSON.parse(await builtinText('min-worst-case'));
  const z = async (text) => `z:${toBase64Url(await deflate(new TextEncoder().encode(text)))}`;
  const refused = JSON.parse(JSON.stringify(doc));
  refused.title = 'x'.repeat(300);
  const badRouting = JSON.parse(JSON.stringify(doc));
  badRouting.experiment.config.traffic.load = 7;
  // 10 MB of zeros deflate to under 10 KB: a link of 13 K characters that would inflate 40× past the limit.
  const bomb = await deflate(new Uint8Array(10_000_000));
  assert.ok(bomb.length < 12_000, `bomb of ${bomb.length} bytes`);
  const cases = [
    ['garbage base64', 'z:@@not*base64!!', /is not base64url text/],
    ['base64 with a bad length', 'z:AAAAA', /is not base64url text/],
    ['base64 of non-deflate bytes', `z:${toBase64Url(new Uint8Array(64).fill(0xff))}`, /is not deflate-compressed data/],
    ['a deflate bomb', `z:${toBase64Url(bomb)}`, /inflates past 262,144 bytes, the most a story may have/],
    ['not JSON', await z('{"hiradix_story": 1, nope'), /it is not JSON/],
    ['not UTF-8', `z:${toBase64Url(await deflate(new Uint8Array([0x7b, 0xff, 0xfe, 0x7d])))}`, /is not UTF-8 text/],
    ['refused by checkStory', await z(JSON.stringify(refused)), /the simulator refuses it: title: 300 characters/],
    [
      'a pane refused by checkStory',
      await z(JSON.stringify(badRouting)),
      /the simulator refuses it: experiment\.compare\.values\[0\]\.traffic\.load: must be 0\.\.=1, got 7/,
    ],
    ['an unknown field', await z(JSON.stringify({ ...doc, script: '<img src=x onerror=alert(1)>' })), /the simulator refuses it: .*script/],
    ['past the size limit', `z:${'A'.repeat(MAX_LINK_PAYLOAD + 1)}`, /too long \(16,001 characters, at most 16,000 characters\)/],
  ];
  const { page, errors } = await env.open();
  for (const [what, value, want] of cases) {
    await page.goto(`${env.server.url}?story=${value}&topology.k=5`);
    await page.waitForFunction(() => window.hiradix?.loaded);
    assert.equal(await page.evaluate(() => window.hiradix.loaded), 'ok', what);
    await waitStory(page, 'min-worst-case');
    const notice = await noticeText(page);
    assert.match(notice, /^This link's story could not be opened: /, what);
    assert.match(notice, want, what);
    assert.equal(await page.evaluate(() => window.hiradix.crashed), false, what);
    assert.deepEqual(await page.evaluate(() => window.hiradix.openedStories.length), 0, `${what}: a refused story was registered`);
    assert.equal(await page.evaluate(() => window.hiradix.experiment.config.topology.k), 16, `${what}: the rest of the link was applied`);
    assert.equal(await page.$$eval('#story img', (imgs) => imgs.length), 0);
  }
  assert.deepEqual(errors, []);
  await page.close();
});
