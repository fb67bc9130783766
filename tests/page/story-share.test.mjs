// www/stories/share.js in Node (which has CompressionStream, Blob, fetch's Response): a
// story document to a link's payload and back, and every way a hostile payload, file or
// hosted address is refused — never an exception, never more read than a story may hold.
// And the link's `story=` split off the rest of a query (www/model/url-state.js).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  MAX_LINK_PAYLOAD,
  MAX_STORY_BYTES,
  checkStoryText,
  decodeStoryLink,
  deflate,
  fetchHostedStory,
  fileText,
  fromBase64Url,
  hostedStoryUrl,
  inflateLimited,
  openedId,
  readStoryFile,
  storyLinkValue,
  toBase64Url,
} from '../../www/stories/share.js';
import { encodeExperiment, splitStoryParam, withPreset } from '../../www/model/url-state.js';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const BUILTIN = join(ROOT, 'www/stories/builtin');
const ids = JSON.parse(readFileSync(join(BUILTIN, 'index.json'), 'utf8'));
const docOf = (id) => JSON.parse(readFileSync(join(BUILTIN, `${id}.json`), 'utf8'));
const accept = () => [];
const utf8 = (text) => new TextEncoder().encode(text);
const z = async (bytes) => `z:${toBase64Url(await deflate(bytes))}`;

test("the page's limit is the engine's MAX_STORY_BYTES (src/story/mod.rs)", () => {
  const rust = readFileSync(join(ROOT, 'src/story/mod.rs'), 'utf8');
  const m = /pub const MAX_STORY_BYTES: usize = (\d+) << (\d+);/.exec(rust);
  assert.ok(m, 'MAX_STORY_BYTES not found in src/story/mod.rs');
  assert.equal(MAX_STORY_BYTES, Number(m[1]) * 2 ** Number(m[2]));
});

test('base64url without padding: every byte value round-trips; anything else is refused', () => {
  for (let n = 0; n < 70; n++) {
    const bytes = Uint8Array.from({ length: n }, (_, i) => (i * 97 + n * 31) & 255);
    const text = toBase64Url(bytes);
    assert.match(text, /^[A-Za-z0-9_-]*$/);
    assert.deepEqual(fromBase64Url(text), bytes);
  }
  assert.deepEqual(
    fromBase64Url(toBase64Url(Uint8Array.from({ length: 256 }, (_, i) => i))),
    Uint8Array.from({ length: 256 }, (_, i) => i),
  );
  for (const bad of ['AAAAA', 'AA==', 'A+B/', 'ab cd', 'é', '<script>', 'AA\n']) assert.equal(fromBase64Url(bad), null, bad);
});

test('every built-in story goes into a link and comes back as the same document, well under the limit', async () => {
  for (const id of ids) {
    const doc = docOf(id);
    const { value, error } = await storyLinkValue(doc);
    assert.equal(error, undefined, id);
    assert.match(value, /^z:[A-Za-z0-9_-]+$/);
    assert.ok(value.length < MAX_LINK_PAYLOAD / 4, `${id}: ${value.length} characters`);
    const back = await decodeStoryLink(value, accept);
    assert.deepEqual(back.doc, doc, id);
    assert.equal(fileText(back.doc), `${JSON.stringify(doc, null, 2)}\n`);
  }
});

test('hostile link payloads are refused with the problem named, never thrown', async () => {
  const doc = docOf('min-worst-case');
  const bomb = await deflate(new Uint8Array(20_000_000));
  const cases = [
    ['z:@@@', /not base64url/],
    ['z:AAAAA', /not base64url/],
    [`z:${toBase64Url(new Uint8Array(64).fill(0xff))}`, /not deflate-compressed data/],
    [`z:${toBase64Url(utf8('{"just": "json, not deflate"}'))}`, /not deflate-compressed data/],
    [`z:${toBase64Url((await deflate(utf8(JSON.stringify(doc)))).subarray(0, 200))}`, /not deflate-compressed data/],
    [await z(new Uint8Array([0x7b, 0xff, 0x7d])), /not UTF-8 text/],
    [await z(utf8('{"id": ')), /it is not JSON/],
    [await z(new Uint8Array(MAX_STORY_BYTES + 1).fill(32)), /inflates past 262,144 bytes/],
    [`z:${'A'.repeat(MAX_LINK_PAYLOAD + 1)}`, /too long \(16,001 characters, at most 16,000 characters\)/],
  ];
  for (const [value, want] of cases) {
    const r = await decodeStoryLink(value, accept);
    assert.equal(r.doc, undefined, value.slice(0, 40));
    assert.match(r.error, want, value.slice(0, 40));
  }
  // A deflate bomb under the link's limit (20 MB of zeros in ~19 KB: 13 K characters for 10 MB).
  const small = await deflate(new Uint8Array(10_000_000));
  const t0 = performance.now();
  const r = await decodeStoryLink(`z:${toBase64Url(small)}`, accept);
  assert.match(r.error, /inflates past/);
  assert.ok(performance.now() - t0 < 2000, 'the bomb was inflated further than the limit');
  // Reading stops at the limit: the inflated output read is at most the limit and one chunk.
  const big = await inflateLimited(bomb, MAX_STORY_BYTES);
  assert.equal(big.error, 'too large');
  // Exactly at the limit is accepted.
  const at = await inflateLimited(await deflate(new Uint8Array(MAX_STORY_BYTES)), MAX_STORY_BYTES);
  assert.equal(at.bytes.length, MAX_STORY_BYTES);
});

test("the engine's refusal names every field (at most twelve, then how many more)", () => {
  const errors = Array.from({ length: 15 }, (_, i) => ({ path: `look[${i}]`, message: 'control character' }));
  const r = checkStoryText('{}', () => errors);
  assert.match(r.error, /^the simulator refuses it: look\[0\]: control character; look\[1\]: /);
  assert.match(r.error, /look\[11\]: control character; and 3 more$/);
  const thrown = checkStoryText('{}', () => {
    throw new Error('unreachable');
  });
  assert.match(thrown.error, /could not check it \(unreachable\)/);
  assert.match(checkStoryText('x'.repeat(MAX_STORY_BYTES + 1), accept).error, /262,145 bytes; a story has at most 262,144 bytes/);
  // Counted in UTF-8 bytes, as the engine counts them.
  assert.match(checkStoryText(`"${'é'.repeat(MAX_STORY_BYTES / 2)}"`, accept).error, /262,146 bytes/);
});

test('a story too large for a link says its compressed size and the limit', async () => {
  const doc = docOf('min-worst-case');
  // 24 000 characters of random base64, which deflate cannot shrink below 6 bits a character.
  doc.notes = Array.from({ length: 20 }, () => randomBytes(900).toString('base64'));
  const r = await storyLinkValue(doc);
  assert.match(r.error, /too large for a link: compressed it takes [\d,]+ characters, a link carries at most 16,000 characters/);
});

test('a hosted story is read only from the same origin, over http(s)', () => {
  const base = 'https://course.example/net/index.html?story=x';
  assert.equal(hostedStoryUrl('stories/week3.json', base).url.href, 'https://course.example/net/stories/week3.json');
  assert.equal(hostedStoryUrl('../shared/week3.json', base).url.href, 'https://course.example/shared/week3.json');
  assert.equal(hostedStoryUrl('/week3.json', base).url.href, 'https://course.example/week3.json');
  assert.equal(hostedStoryUrl('https://course.example/a.json', base).url.href, 'https://course.example/a.json');
  for (const [value, want] of [
    ['https://evil.example/a.json', /on another site \(https:\/\/evil\.example\)/],
    ['//evil.example/a.json', /on another site/],
    ['http://course.example/a.json', /on another site \(http:\/\/course\.example\)/],
    ['https://course.example:8443/a.json', /on another site/],
    ['javascript:alert(1)', /not an http\(s\) address/],
    ['data:application/json,{}', /not an http\(s\) address/],
    ['file:///etc/passwd', /not an http\(s\) address/],
    ['x'.repeat(2001), /too long \(2,001 characters, at most 2,000 characters\)/],
  ])
    assert.match(hostedStoryUrl(value, base).error, want, value);
});

test('a hosted story: fetched, its size checked before reading, redirects and errors refused', async () => {
  const base = 'https://course.example/index.html';
  const text = readFileSync(join(BUILTIN, 'dal-swap2.json'), 'utf8');
  const asked = [];
  const serve = (body, { status = 200, headers = {}, url = null } = {}) => {
    const fetchFn = async (u) => {
      asked.push(String(u));
      const r = new Response(body, { status, headers });
      Object.defineProperty(r, 'url', { value: url ?? String(u) });
      return r;
    };
    return /** @type {typeof fetch} */ (fetchFn);
  };
  const ok = await fetchHostedStory('stories/dal-swap2.json', base, accept, serve(text, { headers: { 'content-length': String(utf8(text).length) } }));
  assert.deepEqual(ok.doc, JSON.parse(text));
  assert.equal(asked.pop(), 'https://course.example/stories/dal-swap2.json');
  // Without a stated length: read as a stream, stopping past the limit.
  const chunked = await fetchHostedStory('a.json', base, accept, serve(text));
  assert.deepEqual(chunked.doc, JSON.parse(text));
  let pulled = 0;
  const endless = new ReadableStream({
    pull(c) {
      pulled++;
      c.enqueue(new Uint8Array(64 * 1024).fill(32));
    },
  });
  assert.match((await fetchHostedStory('a.json', base, accept, serve(endless))).error, /larger than 262,144 bytes/);
  assert.ok(pulled <= 6, `read ${pulled} chunks of 64 KiB`);
  // A stated length past the limit: refused before anything is read.
  let read = false;
  const unread = new ReadableStream(
    {
      pull() {
        read = true;
      },
    },
    { highWaterMark: 0 },
  );
  const big = await fetchHostedStory('a.json', base, accept, serve(unread, { headers: { 'content-length': String(MAX_STORY_BYTES + 1) } }));
  assert.match(big.error, /'a\.json' is 262,145 bytes; a story has at most 262,144 bytes/);
  assert.equal(read, false);
  assert.match((await fetchHostedStory('a.json', base, accept, serve('no', { status: 404 }))).error, /'a\.json' could not be fetched \(404/);
  assert.match((await fetchHostedStory('a.json', base, accept, serve(text, { url: 'https://evil.example/a.json' }))).error, /redirected to another site/);
  const failing = /** @type {typeof fetch} */ (
    async () => {
      throw new TypeError('Failed to fetch');
    }
  );
  assert.match((await fetchHostedStory('a.json', base, accept, failing)).error, /could not be fetched \(Failed to fetch\)/);
  // Another origin: nothing is fetched.
  const before = asked.length;
  assert.match((await fetchHostedStory('https://evil.example/a.json', base, accept, serve(text))).error, /another site/);
  assert.equal(asked.length, before);
});

test("a file's size is checked before it is read", async () => {
  let read = false;
  const huge = { name: 'huge.json', size: MAX_STORY_BYTES + 1, arrayBuffer: async () => ((read = true), new ArrayBuffer(0)) };
  assert.match((await readStoryFile(/** @type {any} */ (huge), accept)).error, /huge\.json is 262,145 bytes; a story has at most 262,144 bytes/);
  assert.equal(read, false);
  const text = readFileSync(join(BUILTIN, 'min-worst-case.json'), 'utf8');
  const file = new File([text], 'min-worst-case.json', { type: 'application/json' });
  assert.deepEqual((await readStoryFile(file, accept)).doc, JSON.parse(text));
  const refused = await readStoryFile(file, () => [{ path: 'experiment.config.router.vcs', message: 'must be at least 1' }]);
  assert.equal(refused.error, 'min-worst-case.json: the simulator refuses it: experiment.config.router.vcs: must be at least 1');
  assert.match((await readStoryFile(new File([new Uint8Array([0xff, 0xfe])], 'b.json'), accept)).error, /could not be read as UTF-8 text/);
});

test("an opened story never takes a built-in story's id", () => {
  const builtin = new Set(['a', 'a-opened']);
  assert.equal(
    openedId('b', (id) => builtin.has(id)),
    'b',
  );
  assert.equal(
    openedId('a', (id) => builtin.has(id)),
    'a-opened-2',
  );
  assert.equal(
    openedId('x', (id) => id === 'x'),
    'x-opened',
  );
});

test("a link's story= is split off the rest, which stays as it was; preset= then names the opened story", () => {
  assert.deepEqual(splitStoryParam('?speed=2&values=min|val'), { story: null, rest: '?speed=2&values=min|val', problems: [], error: null });
  const s = splitStoryParam('?story=z:AbC-_&speed=2&values=min|val');
  assert.deepEqual(s, { story: 'z:AbC-_', rest: 'speed=2&values=min|val', problems: [], error: null });
  assert.equal(splitStoryParam('story=stories%2Fweek3.json&st%6Fry=z:x').story, 'stories/week3.json');
  assert.deepEqual(splitStoryParam('story=a&story=b').problems, ['story: given more than once; the first value is used']);
  assert.match(splitStoryParam('story=%E0%A4%A').error, /could not be read/);
  assert.equal(withPreset('preset=other&speed=2&values=min|val', 'week3'), 'preset=week3&speed=2&values=min|val');
  assert.equal(withPreset('', 'a-opened'), 'preset=a-opened');
  // Written with its ':' and '/' as they are, first.
  const model = { diff: () => [] };
  const exp = { preset: 'week3', config: {}, compare: null, speed: 2, view: { metric: 'occupancy', vcCells: true, zoom: 1, cx: 0.5, cy: 0.5 } };
  assert.equal(encodeExperiment(model, exp, { story: 'stories/week3.json' }), 'story=stories/week3.json&preset=week3&speed=2');
  assert.equal(encodeExperiment(model, exp, { story: 'z:Ab-_' }), 'story=z:Ab-_&preset=week3&speed=2');
});
