// Shared by the browser tests and scripts/screenshots.mjs: a loopback static file server
// for the repo root and a headless Debian Chromium driven by playwright-core.
import { createServer } from 'node:http';
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { extname, join, normalize, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

export const ROOT = resolve(fileURLToPath(new URL('../..', import.meta.url)));

const MIME = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.wasm': 'application/wasm',
  '.png': 'image/png',
  '.svg': 'image/svg+xml',
  '.ts': 'text/plain; charset=utf-8',
};

// Serves `root` on 127.0.0.1 at a free port. Resolves to { url, close, setDown }. `cache`:
// let the browser keep the files (for tests that load the page hundreds of times).
// `setDown(true)`: every request fails as with the network gone (the connection is cut).
export async function startServer(root = ROOT, { cache = false } = {}) {
  let down = false;
  // Large request lines are allowed (Node's default is 16 kB) so that the URL fuzz test's
  // 100 kB links reach the page rather than being refused by this server.
  const server = createServer({ maxHeaderSize: 4 * 1024 * 1024 }, async (req, res) => {
    if (down) {
      req.socket.destroy();
      return;
    }
    try {
      const path = decodeURIComponent(new URL(req.url, 'http://x').pathname);
      let file = normalize(join(root, path));
      if (file !== root && !file.startsWith(root + sep)) {
        res.writeHead(403).end();
        return;
      }
      if ((await stat(file).catch(() => null))?.isDirectory()) file = join(file, 'index.html');
      const body = await readFile(file);
      res.writeHead(200, {
        'content-type': MIME[extname(file)] ?? 'application/octet-stream',
        // As static hosts send it (a story hosted beside the page is read by its length).
        'content-length': body.length,
        'cache-control': cache ? 'max-age=3600' : 'no-store',
      });
      res.end(body);
    } catch {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
    }
  });
  await new Promise((ok) => server.listen(0, '127.0.0.1', ok));
  const { port } = server.address();
  return {
    url: `http://127.0.0.1:${port}/`,
    close: () => new Promise((ok) => server.close(ok)),
    setDown: (on) => {
      down = Boolean(on);
      if (down) server.closeAllConnections();
    },
  };
}

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

// Flags from shared/TOOLCHAIN.md: without the background-networking ones Chromium floods
// the closed network with connection attempts.
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

// Launches Chromium with a fresh user-data-dir. Resolves to { context, close }.
// A fresh profile each time, so a service worker registered by one test file's server
// (sw.js, at another port each run) never reaches another's. `mobile`: a phone's touch
// screen and viewport (hasTouch, isMobile).
export async function launchBrowser({ width = 1280, height = 800, mobile = false } = {}) {
  const userDataDir = await mkdtemp(join(tmpdir(), 'hiradix-chromium-'));
  const context = await chromium.launchPersistentContext(userDataDir, {
    executablePath: CHROMIUM,
    headless: true,
    args: CHROMIUM_ARGS,
    viewport: { width, height },
    ...(mobile ? { hasTouch: true, isMobile: true, deviceScaleFactor: 2 } : {}),
  });
  return {
    context,
    close: async () => {
      await context.close();
      await rm(userDataDir, { recursive: true, force: true });
    },
  };
}

// Opens a page and records its console errors, uncaught page errors and violations of
// its Content-Security-Policy (index.html), so every test that expects no errors also
// checks that the page does nothing its CSP forbids.
export async function openPage(context, url, { init = null, initArg } = {}) {
  const page = await context.newPage();
  await page.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (e) =>
      console.error(`CSP violation: ${e.violatedDirective} blocked ${e.blockedURI || '(inline)'} at ${e.sourceFile}:${e.lineNumber}`),
    );
  });
  if (init) await page.addInitScript(init, initArg);
  const errors = [];
  page.on('console', (msg) => {
    if (msg.type() === 'error') errors.push(`console.error: ${msg.text()}`);
  });
  page.on('pageerror', (err) => errors.push(`pageerror: ${err.message}`));
  page.on('requestfailed', (req) => errors.push(`request failed: ${req.url()} ${req.failure()?.errorText}`));
  await page.goto(url);
  return { page, errors };
}

// A hash of a canvas's pixels (CSS selector) plus the count of non-transparent pixels.
export function canvasDigest(page, selector) {
  return page.evaluate((selector) => {
    const c = document.querySelector(selector);
    const data = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
    let h = 0x811c9dc5;
    let painted = 0;
    for (let i = 0; i < data.length; i += 4) {
      if (data[i + 3] !== 0) painted++;
      h = Math.imul(h ^ data[i], 16777619);
      h = Math.imul(h ^ data[i + 1], 16777619);
      h = Math.imul(h ^ data[i + 2], 16777619);
      h = Math.imul(h ^ data[i + 3], 16777619);
    }
    return { hash: h >>> 0, painted, width: c.width, height: c.height };
  }, selector);
}
