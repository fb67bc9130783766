// The service worker's list of files (sw.js, written by scripts/precache-list.mjs) is
// current, and holds every file the page loads: followed from index.html through its
// scripts and styles, every module's imports and Web Workers, the wasm glue's module and
// the built-in stories (index.json and the documents it names). A file missing from the
// list would be missing offline, so each check fails on it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, posix } from 'node:path';
import { ROOT, listedFiles, precacheFiles, withFiles } from '../../scripts/precache-list.mjs';

const read = (f) => readFileSync(join(ROOT, f), 'utf8');

/** What a module loads (static and dynamic imports, workers, `new URL(…, import.meta.url)`), outside comments. */
function moduleRefs(file) {
  const text = read(file)
    .replace(/\/\*[\s\S]*?\*\//g, '')
    .replace(/^\s*\/\/.*$/gm, '');
  const found = [];
  for (const re of [
    /^\s*import\s[^'"]*?from\s+['"]([^'"]+)['"]/gm,
    /^\s*export\s[^'"]*?from\s+['"]([^'"]+)['"]/gm,
    /^\s*import\s+['"]([^'"]+)['"]/gm,
    /\bimport\(\s*['"]([^'"]+)['"]\s*\)/g,
    /new URL\(\s*['"]([^'"]+)['"],\s*import\.meta\.url\)/g,
  ]) {
    for (const m of text.matchAll(re)) found.push(m[1]);
  }
  return found.map((spec) => posix.normalize(posix.join(dirname(file), spec)));
}

/** Every file the page loads, from index.html on. */
function pageFiles() {
  const html = read('index.html').replace(/<!--[\s\S]*?-->/g, '');
  const start = [
    ...[...html.matchAll(/<script[^>]*\ssrc="([^"]+)"/g)].map((m) => m[1]),
    ...[...html.matchAll(/<link[^>]*rel="stylesheet"[^>]*href="([^"]+)"/g)].map((m) => m[1]),
  ];
  const seen = new Set(['index.html']);
  const queue = [...start];
  while (queue.length) {
    const f = queue.shift();
    if (seen.has(f)) continue;
    seen.add(f);
    if (f.endsWith('.js')) queue.push(...moduleRefs(f));
    // The built-in stories: index.json, then each document it names (www/main.js fetches them).
    if (f.endsWith('/builtin/') || f.endsWith('/builtin')) {
      seen.delete(f);
      const dir = f.replace(/\/?$/, '/');
      queue.push(`${dir}index.json`, ...JSON.parse(read(`${dir}index.json`)).map((id) => `${dir}${id}.json`));
    }
  }
  return [...seen].sort();
}

test("sw.js's list is the one scripts/precache-list.mjs writes", () => {
  assert.deepEqual(listedFiles(), precacheFiles(), 'run node scripts/precache-list.mjs');
  for (const f of listedFiles()) assert.ok(existsSync(join(ROOT, f)), `${f} is listed but does not exist`);
});

test('every file the page loads is in the list', () => {
  const loads = pageFiles();
  // A self-check of the walk: it reaches the workers, the wasm and the stories.
  for (const f of [
    'www/main.js',
    'www/sim/sim-worker.js',
    'www/sim/sweep-worker.js',
    'www/sim/cost-worker.js',
    'pkg/hiradix_bg.wasm',
    'www/stories/builtin/index.json',
  ]) {
    assert.ok(loads.includes(f), `the walk from index.html misses ${f}`);
  }
  assert.ok(loads.filter((f) => f.startsWith('www/stories/builtin/')).length >= 8, 'the walk reaches the story documents');
  for (const f of loads) assert.ok(existsSync(join(ROOT, f)), `the page loads ${f}, which does not exist`);
  const listed = new Set(listedFiles());
  assert.deepEqual(
    loads.filter((f) => !listed.has(f)),
    [],
    'files the page loads but sw.js does not keep',
  );
});

test('the check fails on a list missing a file', () => {
  const text = read('sw.js');
  const files = listedFiles(text);
  const short = files.filter((f) => f !== 'www/sim/sweep-worker.js');
  const edited = withFiles(text, short);
  assert.deepEqual(listedFiles(edited), short);
  assert.notDeepEqual(listedFiles(edited), precacheFiles());
  assert.equal(withFiles(text, files), text, 'writing the same list changes nothing');
});
