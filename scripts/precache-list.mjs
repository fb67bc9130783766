// The files the service worker (sw.js) keeps for offline use: index.html, every module,
// style and built-in story under www/ (not the type declarations), and pkg/'s JS glue and
// wasm module. `node scripts/precache-list.mjs` writes the list into sw.js (between its
// BEGIN FILES and END FILES lines); `--check` only says whether it is current (exit 1 if
// not). tests/page/precache.test.mjs checks the list against the files and against what
// the page loads.
import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = resolve(fileURLToPath(new URL('..', import.meta.url)));
export const SW = join(ROOT, 'sw.js');

const walk = (dir) =>
  readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? walk(join(dir, e.name)) : [relative(ROOT, join(dir, e.name))]));

/** The files to keep, as paths relative to the site root, sorted. */
export function precacheFiles(root = ROOT) {
  const www = walk(join(root, 'www'))
    .map((f) => f.split('\\').join('/'))
    .filter((f) => /\.(js|css|json)$/.test(f) && !f.endsWith('.d.ts'));
  return ['index.html', 'pkg/hiradix.js', 'pkg/hiradix_bg.wasm', ...www].sort();
}

const BEGIN = /^ *\/\/ BEGIN FILES.*$/m;
const END = /^ *\/\/ END FILES.*$/m;

/** The list written in sw.js's text. */
export function listedFiles(text = readFileSync(SW, 'utf8')) {
  const start = text.search(BEGIN);
  const end = text.search(END);
  if (start < 0 || end < start) throw new Error('sw.js: no BEGIN FILES … END FILES block');
  return [...text.slice(start, end).matchAll(/^\s*'([^']+)',\s*$/gm)].map((m) => m[1]);
}

/** sw.js's text with `files` as its list. */
export function withFiles(text, files) {
  const start = text.search(BEGIN);
  const end = text.search(END);
  const head = text.slice(0, start);
  const begin = text.slice(start).match(BEGIN)[0];
  return `${head}${begin}\n${files.map((f) => `  '${f}',\n`).join('')}${text.slice(end)}`;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const text = readFileSync(SW, 'utf8');
  const files = precacheFiles();
  const stale = JSON.stringify(listedFiles(text)) !== JSON.stringify(files);
  if (process.argv.includes('--check')) {
    console.log(stale ? 'sw.js: the list of files is stale; run node scripts/precache-list.mjs' : 'sw.js: the list of files is current');
    process.exit(stale ? 1 : 0);
  }
  if (stale) writeFileSync(SW, withFiles(text, files));
  console.log(`sw.js: ${files.length} files${stale ? ' (written)' : ' (unchanged)'}`);
}
