// ESLint for the static page (www/), its browser tests (tests/browser/) and the Node scripts
// (scripts/*.mjs): the recommended rules, warnings are errors (scripts/test.sh runs
// `npx eslint --max-warnings 0 .`). Formatting is Prettier's (.prettierrc.json).
import js from '@eslint/js';
import globals from 'globals';

export default [
  { ignores: ['pkg/', 'node_modules/', 'target/', 'docs/'] },
  js.configs.recommended,
  {
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    rules: {
      // `const { dropped, ...rest } = o` is how a copy without some fields is made.
      'no-unused-vars': ['error', { ignoreRestSiblings: true }],
      // The page's Content-Security-Policy refuses eval; so does the code.
      'no-eval': 'error',
      // Strict equality, except the `x == null` idiom for null or undefined.
      eqeqeq: ['error', 'always', { null: 'ignore' }],
    },
  },
  // The page: ES modules loaded by index.html.
  { files: ['www/**/*.js'], languageOptions: { globals: globals.browser } },
  // Its Web Workers (module workers started with `new Worker(url, { type: 'module' })`).
  { files: ['www/**/*-worker.js'], languageOptions: { globals: globals.worker } },
  // The service worker at the site's root (offline use, see its header).
  { files: ['sw.js'], languageOptions: { sourceType: 'script', globals: globals.serviceworker } },
  // Node: the tests and scripts drive Chromium through playwright-core, and the functions
  // they hand to page.evaluate() run in the page, so they see the browser's globals too.
  {
    files: ['tests/**/*.mjs', 'scripts/**/*.mjs'],
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
  },
  { files: ['eslint.config.js'], languageOptions: { globals: globals.node } },
];
