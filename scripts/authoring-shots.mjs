// Screenshots of writing and playing a story (docs/lecture.md, "Write your own story" and
// "Scenes") into docs/screenshots/authoring/:
//
//   editor-1366x768.png      the minimal-routing story open in the editor beside the
//                            running picture (Edit story)
//   editor-picking-1366x768.png   a new story over the failed-links HyperX: the focus picked
//                            by clicking two channels (the detour 5 → 4 → 6), cased as picked
//   editor-scene-1366x768.png     its second scene: two links fail as it starts, a question
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
import { channelPoint } from '../tests/browser/page-helpers.mjs';

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

await withPage({ width: 1366, height: 768 }, '?preset=dal-failed-links', async (page) => {
  await page.waitForFunction(() => window.hiradix.sim.now() > 300, null, { timeout: 60_000 });
  await page.click('#btn-run');
  await page.click('#btn-story-new');
  await page.fill('#editor-title', 'Detours around switch 5');
  await page.fill('#editor-point', 'DAL detours around a failed link only within its row.');
  await page.selectOption('#editor-focus', 'picked');
  await page.fill('#editor-focus-label', 'the detour 5 → 4 → 6');
  await page.click('#editor-pick');
  for (const [a, b] of [
    [5, 4],
    [4, 6],
  ]) {
    const point = await channelPoint(page, a, b);
    if (!point) throw new Error(`no point of channel ${a} → ${b} can be clicked`);
    await page.mouse.click(...point);
  }
  await page.mouse.move(5, 760);
  await page.locator('#editor-picked').scrollIntoViewIfNeeded();
  await page.waitForTimeout(800);
  await page.screenshot({ path: join(OUT, 'editor-picking-1366x768.png') });
  await page.click('#editor-pick');
  await page.click('#editor-add-cycle');
  await page.fill('#run-until', String((await page.evaluate(() => window.hiradix.sim.now())) + 300));
  await page.click('#btn-until');
  await page.waitForFunction(() => document.body.dataset.state === 'paused' && window.hiradix.sim.now() > 600, null, { timeout: 60_000 });
  await page.click('#editor-add-cycle');
  const s2 = '.editor-scene:nth-child(2)';
  await page.fill(`${s2} .scene-caption-text`, 'Links 4–5 and 5–7 fail now.');
  await page.fill(`${s2} .scene-fail`, '4-5, 5-7');
  await page.check(`${s2} .scene-asks`);
  await page.fill(`${s2} .scene-ask-text`, 'Does DAL still deliver every packet?');
  await page.fill(`${s2} .scene-choices-text`, 'Yes\nNo: it loses packets too');
  await page.selectOption(`${s2} .scene-answer`, '1');
  await page.fill(`${s2} .scene-why-text`, 'DAL detours only **within the row**.');
  await page.locator(`${s2} .scene-caption-text`).scrollIntoViewIfNeeded();
  await page.evaluate(() => document.querySelector('.editor-scene:nth-child(2)').scrollIntoView({ block: 'start' }));
  await page.waitForTimeout(300);
  await page.screenshot({ path: join(OUT, 'editor-scene-1366x768.png') });
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
