// A story document on its way between the page and a reader: in a link, as a file, or
// hosted beside the page. No DOM: the page's UI (www/ui/story-share.js) and the Node unit
// test (tests/page/story-share.test.mjs) use the same functions.
//
//   ?story=z:<base64url>      the whole document, deflate-raw compressed (the browser's
//                             CompressionStream), base64url without padding; at most
//                             MAX_LINK_PAYLOAD characters after "z:"
//   ?story=stories/week3.json a document hosted on the page's own site: a URL relative to
//                             the page (or absolute), fetched only from the page's origin
//
// Everything that reads a document is hostile-input safe and never throws: it resolves to
// {text, doc} or to {error}, one sentence naming the problem (the engine's checkStory
// problems as `path: message`). Nothing is used from a document that is refused.

import { clip } from '../lib/dom.js';

/** The largest document accepted, in UTF-8 bytes: src/story/mod.rs's MAX_STORY_BYTES. */
export const MAX_STORY_BYTES = 256 << 10;

/**
 * The most characters of a link's compressed payload (after "z:"): with the page's address
 * and the rest of its query the link stays well under the 32 KiB that browsers, servers and
 * chat programs commonly accept. A document compresses 3–5× (the built-in stories: 1 to
 * 2.5 K characters), so a story of 50 to 60 KB of JSON still fits.
 */
export const MAX_LINK_PAYLOAD = 16_000;

/** The most characters of a hosted story's address in a link. */
export const MAX_STORY_PATH = 2000;

/** The prefix of a compressed document in a link. */
export const LINK_PREFIX = 'z:';

// Input is fed to the decompressor this many bytes at a time: deflate expands at most
// ~1 032×, so one chunk inflates to at most ~260 KB past the limit before reading stops.
const INFLATE_CHUNK = 256;

const plural = (n, word) => `${n.toLocaleString('en')} ${word}${n === 1 ? '' : 's'}`;

/** Bytes as base64url without padding. */
export function toBase64Url(bytes) {
  let bin = '';
  for (let i = 0; i < bytes.length; i += 0x8000) bin += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(bin).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/** Base64url (without padding) as bytes, or null when it is not base64url. */
export function fromBase64Url(text) {
  if (!/^[A-Za-z0-9_-]*$/.test(text) || text.length % 4 === 1) return null;
  let bin;
  try {
    bin = atob(text.replace(/-/g, '+').replace(/_/g, '/'));
  } catch {
    return null;
  }
  const bytes = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) bytes[i] = bin.charCodeAt(i);
  return bytes;
}

/** Bytes compressed with deflate-raw. */
export async function deflate(bytes) {
  const stream = new Blob([bytes]).stream().pipeThrough(new CompressionStream('deflate-raw'));
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

/**
 * Bytes decompressed from deflate-raw, at most `max` of them: never throws, resolves to
 * {bytes} or {error: 'not deflate' | 'too large'}. The input is fed a little at a time and
 * reading stops as soon as the output passes `max`, so a small input that would inflate to
 * gigabytes (a "zip bomb") costs no more than `max` and one chunk.
 * @param {Uint8Array} input
 * @param {number} max
 * @returns {Promise<{bytes?: Uint8Array, error?: 'not deflate' | 'too large'}>}
 */
export async function inflateLimited(input, max) {
  const ds = new DecompressionStream('deflate-raw');
  const writer = ds.writable.getWriter();
  const reader = ds.readable.getReader();
  let stop = false;
  // Writing waits for reading (the stream's backpressure); its failures are the reader's too.
  const feeding = (async () => {
    for (let i = 0; i < input.length && !stop; i += INFLATE_CHUNK) await writer.write(input.slice(i, i + INFLATE_CHUNK));
    if (!stop) await writer.close();
  })().catch(() => {});
  const chunks = [];
  let total = 0;
  let error = null;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      total += value.length;
      if (total > max) {
        error = 'too large';
        break;
      }
      chunks.push(value);
    }
  } catch {
    error = 'not deflate';
  }
  stop = true;
  if (error) {
    await reader.cancel().catch(() => {});
    await writer.abort().catch(() => {});
  }
  await feeding;
  if (error) return { error };
  const bytes = new Uint8Array(total);
  let at = 0;
  for (const c of chunks) {
    bytes.set(c, at);
    at += c.length;
  }
  return { bytes };
}

/** A document's text as a link's payload, "z:" and the compressed text (base64url). */
export async function encodeStoryLink(text) {
  return LINK_PREFIX + toBase64Url(await deflate(new TextEncoder().encode(text)));
}

/** The compact text of a document (what a link carries). */
export const compactText = (doc) => JSON.stringify(doc);

/** The text of a document as a file: indented, with a final newline. */
export const fileText = (doc) => `${JSON.stringify(doc, null, 2)}\n`;

/**
 * The link payload of a document, or why it cannot be one: {value} ("z:…") or {error}.
 * @returns {Promise<{value?: string, error?: string}>}
 */
export async function storyLinkValue(doc) {
  const value = await encodeStoryLink(compactText(doc));
  const n = value.length - LINK_PREFIX.length;
  if (n > MAX_LINK_PAYLOAD)
    return {
      error: `the story is too large for a link: compressed it takes ${plural(n, 'character')}, a link carries at most ${plural(MAX_LINK_PAYLOAD, 'character')}`,
    };
  return { value };
}

/**
 * Checks a document's text: at most MAX_STORY_BYTES, JSON, and accepted by the engine's
 * `checkStory` (every problem named by its field's path). Resolves to {text, doc} or {error}.
 * @param {string} text
 * @param {(text: string) => {path: string, message: string}[]} checkStory
 */
export function checkStoryText(text, checkStory) {
  const bytes = new TextEncoder().encode(text).length;
  if (bytes > MAX_STORY_BYTES) return { error: `it is ${plural(bytes, 'byte')}; a story has at most ${plural(MAX_STORY_BYTES, 'byte')}` };
  let doc;
  try {
    doc = JSON.parse(text);
  } catch (e) {
    return { error: `it is not JSON (${clip(e instanceof Error ? e.message : String(e), 200)})` };
  }
  let errors;
  try {
    errors = checkStory(text);
  } catch (e) {
    return { error: `the simulator could not check it (${clip(e instanceof Error ? e.message : String(e), 200)})` };
  }
  if (errors.length) {
    const shown = errors.slice(0, 12).map((e) => `${clip(String(e.path), 100)}: ${clip(String(e.message), 300)}`);
    if (errors.length > shown.length) shown.push(`and ${errors.length - shown.length} more`);
    return { error: `the simulator refuses it: ${shown.join('; ')}` };
  }
  return { text, doc };
}

/**
 * A link's compressed document ("z:…") read back and checked: {text, doc} or {error}.
 * @param {string} value
 * @param {(text: string) => {path: string, message: string}[]} checkStory
 * @returns {Promise<{text?: string, doc?: any, error?: string}>}
 */
export async function decodeStoryLink(value, checkStory) {
  const payload = value.slice(LINK_PREFIX.length);
  if (payload.length > MAX_LINK_PAYLOAD)
    return { error: `the link's story is too long (${plural(payload.length, 'character')}, at most ${plural(MAX_LINK_PAYLOAD, 'character')})` };
  const bytes = fromBase64Url(payload);
  if (!bytes) return { error: "the link's story is not base64url text (A–Z, a–z, 0–9, - and _)" };
  const inflated = await inflateLimited(bytes, MAX_STORY_BYTES);
  if (inflated.error === 'too large') return { error: `the link's story inflates past ${plural(MAX_STORY_BYTES, 'byte')}, the most a story may have` };
  if (inflated.error) return { error: "the link's story is not deflate-compressed data" };
  let text;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(inflated.bytes);
  } catch {
    return { error: "the link's story is not UTF-8 text" };
  }
  const checked = checkStoryText(text, checkStory);
  return checked.error ? { error: `the link's story: ${checked.error}` } : checked;
}

/**
 * Where a hosted story is, or why it may not be read: the value of `?story=` that is not
 * "z:…", resolved against the page's address `base`, must be http(s) on the page's origin.
 * @param {string} value
 * @param {string} base
 * @returns {{url?: URL, error?: string}}
 */
export function hostedStoryUrl(value, base) {
  if (value.length > MAX_STORY_PATH)
    return { error: `the story's address is too long (${plural(value.length, 'character')}, at most ${plural(MAX_STORY_PATH, 'character')})` };
  let url;
  try {
    url = new URL(value, base);
  } catch {
    return { error: `'${clip(value, 80)}' is not an address` };
  }
  const page = new URL(base);
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    return { error: `'${clip(value, 80)}' is not an http(s) address; a story is read only from the page's own site` };
  if (url.origin !== page.origin)
    return { error: `'${clip(value, 80)}' is on another site (${clip(url.origin, 80)}); a story is read only from the page's own site (${page.origin})` };
  return { url };
}

/**
 * A hosted story fetched (with `fetchFn`, the page's fetch) and checked: {text, doc} or
 * {error}. The size is checked from the response's length before reading, and while reading.
 * @param {string} value
 * @param {string} base
 * @param {(text: string) => {path: string, message: string}[]} checkStory
 * @param {typeof fetch} fetchFn
 * @returns {Promise<{text?: string, doc?: any, error?: string, url?: URL}>}
 */
export async function fetchHostedStory(value, base, checkStory, fetchFn) {
  const { url, error } = hostedStoryUrl(value, base);
  if (error) return { error };
  const name = clip(value, 80);
  let response;
  try {
    response = await fetchFn(url, { credentials: 'same-origin', redirect: 'follow' });
  } catch (e) {
    return { error: `'${name}' could not be fetched (${clip(e instanceof Error ? e.message : String(e), 120)})` };
  }
  if (new URL(response.url || url.href).origin !== new URL(base).origin)
    return { error: `'${name}' redirected to another site; a story is read only from the page's own site` };
  if (!response.ok) return { error: `'${name}' could not be fetched (${response.status} ${clip(response.statusText, 60)})` };
  const length = Number(response.headers.get('content-length'));
  if (length > MAX_STORY_BYTES) {
    response.body?.cancel().catch(() => {});
    return { error: `'${name}' is ${plural(length, 'byte')}; a story has at most ${plural(MAX_STORY_BYTES, 'byte')}` };
  }
  // A response that states its length (as static hosts do) is read whole (its length was
  // checked); one that does not is read as a stream, stopping past the limit.
  const read =
    Number.isFinite(length) && response.headers.has('content-length')
      ? await readWhole(response, MAX_STORY_BYTES)
      : await readLimited(response.body, MAX_STORY_BYTES);
  if (read.error === 'too large') return { error: `'${name}' is larger than ${plural(MAX_STORY_BYTES, 'byte')}, the most a story may have` };
  if (read.error) return { error: `'${name}' could not be read` };
  let text;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(read.bytes);
  } catch {
    return { error: `'${name}' is not UTF-8 text` };
  }
  const checked = checkStoryText(text, checkStory);
  return checked.error ? { error: `'${name}': ${checked.error}` } : { ...checked, url };
}

/**
 * A file's story (a File or Blob: its size checked before it is read) checked: {text, doc}
 * or {error}.
 * @param {Blob & {name?: string}} file
 * @param {(text: string) => {path: string, message: string}[]} checkStory
 * @returns {Promise<{text?: string, doc?: any, error?: string}>}
 */
export async function readStoryFile(file, checkStory) {
  const name = clip(file.name ?? 'the file', 80);
  if (file.size > MAX_STORY_BYTES) return { error: `${name} is ${plural(file.size, 'byte')}; a story has at most ${plural(MAX_STORY_BYTES, 'byte')}` };
  let text;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(await file.arrayBuffer());
  } catch {
    return { error: `${name} could not be read as UTF-8 text` };
  }
  const checked = checkStoryText(text, checkStory);
  return checked.error ? { error: `${name}: ${checked.error}` } : checked;
}

/** A response's bytes, at most `max`: {bytes} or {error}. */
async function readWhole(response, max) {
  try {
    const bytes = new Uint8Array(await response.arrayBuffer());
    return bytes.length > max ? { error: 'too large' } : { bytes };
  } catch {
    return { error: 'unreadable' };
  }
}

/** A stream's bytes, at most `max` (reading stops past it): {bytes} or {error}. */
async function readLimited(body, max) {
  if (!body) return { bytes: new Uint8Array(0) };
  const reader = body.getReader();
  const chunks = [];
  let total = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      total += value.length;
      if (total > max) {
        await reader.cancel().catch(() => {});
        return { error: 'too large' };
      }
      chunks.push(value);
    }
  } catch {
    return { error: 'unreadable' };
  }
  const bytes = new Uint8Array(total);
  let at = 0;
  for (const c of chunks) {
    bytes.set(c, at);
    at += c.length;
  }
  return { bytes };
}

/**
 * The id an opened story gets in the page's menu and links: its own, unless a built-in
 * story has it (`taken(id)`): then `<id>-opened` (then `-opened-2`, …), so an opened story
 * never replaces a built-in one.
 * @param {string} id
 * @param {(id: string) => boolean} taken
 */
export function openedId(id, taken) {
  if (!taken(id)) return id;
  for (let n = 1; ; n++) {
    const next = n === 1 ? `${id}-opened` : `${id}-opened-${n}`;
    if (!taken(next)) return next;
  }
}
