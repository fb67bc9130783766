// The page's modules import one way, as tests/integration/layering.rs checks for src/: each folder of
// www/ is a layer and imports only from its own layer or those below it, so the model and
// the rendering never reach into the UI, and a change's place is clear from its folder.
//
//   lib      helpers with no knowledge of hiradix (building DOM as text, error messages)
//   model    the experiment, its URL form, statistics and decision windows: no drawing
//   stories  the built-in stories and the papers' stated values
//   render   the network view, its geometry and motion, plots, layout, the key plots
//   sim      the simulation client, its Web Workers, pacing, the panes, the load sweep
//   ui       controls, panels, inspector, time control, faults, trace, export, cost view
//   main.js  composes them
//
// The wasm module (pkg/) is reached from sim/ (the workers and their client), the cost
// view (its models run on the page's thread) and main.js (which loads it); the workers
// import only lib/, each other and pkg/, since they have no DOM.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const WWW = join(ROOT, 'www');
const LAYERS = ['lib', 'model', 'stories', 'render', 'sim', 'ui'];
const WASM_USERS = [/^sim\//, /^ui\/cost-view\.js$/, /^main\.js$/];

/** Every .js file under www/, as paths relative to www/. */
function modules(dir = WWW) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? modules(join(dir, e.name)) : e.name.endsWith('.js') ? [relative(WWW, join(dir, e.name))] : [],
  );
}

/**
 * The module specifiers a file imports (static and dynamic) or starts as a worker, outside
 * comments (a JSDoc type such as `import('../../pkg/hiradix.js').FieldError` loads nothing).
 */
function imports(file) {
  const text = readFileSync(join(WWW, file), 'utf8')
    .replace(/\/\*[\s\S]*?\*\//g, '')
    .replace(/^\s*\/\/.*$/gm, '');
  const found = [];
  for (const re of [
    /^\s*import\s[^'"]*?from\s+['"]([^'"]+)['"]/gm,
    /^\s*import\s+['"]([^'"]+)['"]/gm,
    /\bimport\(\s*['"]([^'"]+)['"]\s*\)/g,
    /new URL\(\s*['"]([^'"]+)['"],\s*import\.meta\.url\)/g,
  ]) {
    for (const m of text.matchAll(re)) found.push(m[1]);
  }
  return found;
}

/** The layer of a module path relative to www/: its index in LAYERS, main.js above all. */
function layer(path) {
  if (path === 'main.js') return LAYERS.length;
  return LAYERS.indexOf(path.split('/')[0]);
}

const isWorker = (path) => path.endsWith('-worker.js');

test('every module of www/ sits in a layer folder', () => {
  const files = modules();
  assert.ok(files.length > 30, `found ${files.length} modules`);
  const stray = files.filter((f) => layer(f) < 0 || (f.split('/').length !== 2 && f !== 'main.js'));
  assert.deepEqual(stray, [], `modules outside ${LAYERS.join('/, ')}/ (or main.js)`);
});

test("the page's modules import one way", () => {
  const wrong = [];
  for (const file of modules()) {
    for (const spec of imports(file)) {
      assert.ok(spec.startsWith('.'), `${file} imports '${spec}': only relative paths (no bundler)`);
      const target = relative(WWW, resolve(dirname(join(WWW, file)), spec));
      if (target.startsWith('../pkg/')) {
        if (!WASM_USERS.some((re) => re.test(file))) wrong.push(`${file} → ${target}: only sim/, the cost view and main.js use the wasm module`);
        continue;
      }
      assert.ok(!target.startsWith('..'), `${file} imports '${spec}', outside www/ and pkg/`);
      if (layer(target) > layer(file)) wrong.push(`${file} → ${target}: ${target.split('/')[0]} is above ${file.split('/')[0]}`);
      if (isWorker(file) && !(target.startsWith('lib/') || isWorker(target)) && !spec.endsWith('-worker.js'))
        wrong.push(`${file} → ${target}: a worker imports only lib/, workers and pkg/`);
    }
  }
  assert.deepEqual(wrong, []);
});

test('the checker sees every kind of import', () => {
  // A self-check of `imports` on the page's own files, so a new import form cannot slip past.
  assert.ok(imports('main.js').includes('../pkg/hiradix.js'));
  assert.ok(imports('sim/sim-client.js').includes('./sim-worker.js'));
  assert.ok(imports('ui/animation.js').some((s) => s.endsWith('stats-view.js')));
  // A type in a JSDoc comment is not an import.
  assert.ok(!imports('stories/presets.js').some((s) => s.includes('pkg/')));
});
