// Globals the page adds (checked by `tsc -p tsconfig.json`, scripts/test.sh).

interface Window {
  /** The page's state, exposed for the browser tests, scripts/ and the console (www/main.js). */
  hiradix: object;
}
