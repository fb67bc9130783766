// Screenshots of writing and playing a story (docs/lecture.md, "Write your own story" and
// "Scenes") into docs/screenshots/authoring/:
//
//   editor-1366x768.png      the minimal-routing story open in the editor beside the
//                            running picture (Edit story)
//   scene-question-1366x768.png   the UGAL-L story in present mode at its second scene:
//                            the question asked, the class's pick marked, the run not yet on
//   scene-answer-1366x768.png     the same after the next press: the run reached router 3's
//                            decision, the answer and why shown, the decision in the inspector
//   phone-390x844.png        a story's link opened on a phone: the point and the picture first
//   embed-1024x576.png       `?embed=1`: the picture, the point and run controls only
//
//   node scripts/authoring-shots.mjs        (after `npm ci`; pkg/ must be built)
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { ROOT, launchBrowser, openPage, startServer } from '../tests/browser/harness.mjs';

const OUT = join(ROOT, 'docs', 'screenshots', 'authoring');
await mkdir(OUT, { recursive: true });
const server = await startServer();

async function withPage(options, query, fn) {
  const browser = await launchBrowser(options);
  try {
    const { page, errors } = await openPage(browser.context, `${server.url}${query}`);
    await page.waitForFunction(() => window.hiradix?.panes.length > 0 && window.hiradix.sim.now() > 0, null, { timeout: 60_000 });
    await fn(page);
    if (errors.length) console.error(`${query}: ${errors.join('\n')}`);
  } finally {
    await browser.close();
  }
}

const idle = (page) => page.waitForFunction(() => !document.getElementById('scene-bar').classList.contains('busy'), null, { timeout: 120_000 });

await withPage({ width: 1366, height: 768 }, '?preset=min-worst-case', async (page) => {
  await page.waitForFunction(() => window.hiradix.sim.now() > 300, null, { timeout: 60_000 });
  await page.click('#btn-story-edit');
  await page.waitForTimeout(500);
  await page.screenshot({ path: join(OUT, 'editor-1366x768.png') });
});

await withPage({ width: 1366, height: 768 }, '?preset=ugal-l-misjudges&present=1', async (page) => {
  await page.keyboard.press('PageDown');
  await page.waitForTimeout(200);
  await idle(page);
  await page.keyboard.press('PageDown');
  await page.waitForTimeout(200);
  await idle(page);
  await page.locator('#scene-choices button').nth(1).click();
  await page.screenshot({ path: join(OUT, 'scene-question-1366x768.png') });
  await page.keyboard.press('PageDown');
  await page.waitForTimeout(200);
  await idle(page);
  await page.waitForFunction(() => !document.getElementById('scene-why').hidden);
  await page.waitForTimeout(500);
  await page.screenshot({ path: join(OUT, 'scene-answer-1366x768.png') });
});

await withPage({ width: 390, height: 844, mobile: true }, '?preset=ugal-l-misjudges', async (page) => {
  await page.waitForTimeout(1500);
  await page.screenshot({ path: join(OUT, 'phone-390x844.png') });
});

await withPage({ width: 1024, height: 576 }, '?preset=dal-swap2&embed=1', async (page) => {
  await page.waitForTimeout(1500);
  await page.screenshot({ path: join(OUT, 'embed-1024x576.png') });
});

await server.close();
console.log(`wrote ${OUT}`);
