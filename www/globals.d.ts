// Globals the page adds (checked by `tsc -p tsconfig.json`, scripts/test.sh).

interface Window {
  /** The page for the browser tests, scripts/ and the console: getters onto its state's owners (www/ui/facade.js). */
  hiradix: import('./ui/facade.js').Hiradix;
}
