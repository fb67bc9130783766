// A story's scenes played as a lecturer plays them with a clicker (src/story/scenes.rs,
// www/ui/scene-player.js): in present mode, PageDown enters the next scene and runs to its
// stop; a question waits for the class, the next press runs on and the run answers it (the
// decision in the inspector); PageUp goes back exactly (by rewind). The UGAL-L story's
// scenes: watch to cycle 2000; ask which path router 3's next packet takes; router 0's next
// non-minimal decision (tests/integration/stories.rs checks the answer against the engine natively).
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { launchBrowser, openPage, startServer } from './harness.mjs';

let server;
let browser;
before(async () => {
  server = await startServer();
  browser = await launchBrowser({ width: 1366, height: 768 });
});
after(async () => {
  await browser?.close();
  await server?.close();
});

const now = (page) => page.evaluate(() => window.hiradix.sim.now());
const sceneCount = (page) => page.textContent('#scene-count');
/** Waits until the scene player is idle (its run reached the stop). */
const idle = (page) => page.waitForFunction(() => !document.getElementById('scene-bar').classList.contains('busy'), null, { timeout: 120_000 });

test('the UGAL-L story plays its scenes with PageDown and PageUp; the question is answered by the run', async () => {
  const { page, errors } = await openPage(browser.context, `${server.url}?preset=ugal-l-misjudges&present=1`);
  await page.waitForFunction(() => window.hiradix.panes.length === 3 && window.hiradix.sim.now() > 0, null, { timeout: 60_000 });
  assert.ok(await page.isVisible('#scene-bar'), 'a story with scenes shows the scene bar');
  assert.equal(await sceneCount(page), '3 scenes');

  // Scene 1: runs to cycle 2000 (back to it, if the opening run went past) and pauses.
  await page.keyboard.press('PageDown');
  await page.waitForFunction(() => document.getElementById('scene-count').textContent === 'Scene 1 of 3');
  await idle(page);
  assert.equal(await now(page), 2000);
  assert.equal(await page.evaluate(() => window.hiradix.running), false, 'paused at the stop');
  assert.match(await page.textContent('#scene-caption'), /orange-cased channels/);

  // Scene 2 asks first: the run waits for the class.
  await page.keyboard.press('ArrowRight'); // present mode: → is the clicker's next
  await page.waitForFunction(() => document.getElementById('scene-count').textContent === 'Scene 2 of 3');
  await idle(page);
  assert.ok(await page.isVisible('#scene-question'));
  assert.match(await page.textContent('#scene-ask'), /Which path does UGAL-L give router 3/);
  assert.equal(await page.textContent('#scene-next'), '▶ Reveal');
  assert.equal(await now(page), 2000, 'nothing runs while the class thinks');
  assert.equal(await page.isVisible('#scene-why'), false, 'the answer waits for the run');
  const choices = page.locator('#scene-choices button');
  assert.equal(await choices.count(), 2);
  await choices.nth(1).click(); // the class guesses non-minimal

  // Reveal: the run goes on to router 3's next decision, which answers it.
  await page.keyboard.press('PageDown');
  await idle(page);
  await page.waitForFunction(() => !document.getElementById('scene-why').hidden);
  const cycle = await now(page);
  assert.ok(cycle > 2000, `ran on to the decision (cycle ${cycle})`);
  assert.match(await page.textContent('#scene-why'), /^Answer: The minimal path/);
  assert.match(await choices.nth(0).getAttribute('class'), /\bright\b/);
  assert.match(await choices.nth(1).getAttribute('class'), /\bwrong\b/);
  // The inspector shows router 3 and its decision: minimal, with the true queue beside it.
  await page.waitForSelector('#inspector', { state: 'visible' });
  const selection = await page.evaluate(() => window.hiradix.selection);
  assert.deepEqual(selection, { pane: 0, kind: 'router', index: 3 });
  await page.waitForFunction(() => /minimal/.test(document.getElementById('inspector').textContent));
  assert.match(await page.textContent('#inspector'), /true queue/);

  // Scene 3: router 0's next non-minimal decision.
  await page.keyboard.press(' '); // present mode: Space is the clicker's next too
  await page.waitForFunction(() => document.getElementById('scene-count').textContent === 'Scene 3 of 3');
  await idle(page);
  assert.ok((await now(page)) > cycle);
  assert.deepEqual(await page.evaluate(() => window.hiradix.selection), { pane: 0, kind: 'router', index: 0 });
  assert.equal(await page.isEnabled('#scene-next'), false, 'the last scene');

  // Back, exactly: scene 2 as it stopped, then scene 1 at cycle 2000.
  await page.keyboard.press('PageUp');
  await idle(page);
  assert.equal(await sceneCount(page), 'Scene 2 of 3');
  assert.equal(await now(page), cycle, 'back to where scene 2 stopped');
  await page.keyboard.press('ArrowLeft'); // present mode: ← is the clicker's previous
  await idle(page);
  assert.equal(await sceneCount(page), 'Scene 1 of 3');
  assert.equal(await now(page), 2000);

  // And forward again: the same question, the same answer at the same cycle.
  await page.keyboard.press('PageDown');
  await idle(page);
  assert.equal(await page.textContent('#scene-next'), '▶ Reveal');
  await page.keyboard.press('PageDown');
  await idle(page);
  assert.equal(await now(page), cycle, 'the run is deterministic: the same decision at the same cycle');
  assert.deepEqual(errors, []);
  await page.close();
});

test('a story without scenes shows no scene bar, and PageDown does nothing there', async () => {
  const { page, errors } = await openPage(browser.context, `${server.url}?preset=greedy-vs-sequential`);
  await page.waitForFunction(() => window.hiradix.panes.length > 0 && window.hiradix.sim.now() > 0, null, { timeout: 60_000 });
  assert.equal(await page.isVisible('#scene-bar'), false);
  await page.keyboard.press('PageDown');
  assert.deepEqual(errors, []);
  await page.close();
});

test('pausing while a scene runs to its cycle ends the scene there: the player is free again', async () => {
  const { page, errors } = await openPage(browser.context, `${server.url}?preset=ugal-l-misjudges&present=1&speed=1`);
  await page.waitForFunction(() => window.hiradix.panes.length === 3 && window.hiradix.sim.now() > 0, null, { timeout: 60_000 });
  await page.keyboard.press('PageDown');
  await page.waitForFunction(() => document.getElementById('scene-bar').classList.contains('busy'));
  await page.click('#btn-run'); // Pause, on its way to cycle 2000 at one cycle per frame
  await idle(page);
  const at = await now(page);
  assert.ok(at < 2000, `paused before the stop (cycle ${at})`);
  assert.equal(await sceneCount(page), 'Scene 1 of 3');
  assert.equal(await page.isEnabled('#scene-next'), true, 'the next scene can be played');
  assert.deepEqual(errors, []);
  await page.close();
});

test('back to the opening from a scene entered at cycle 0 undoes its load (a rewind to 0 keeps what changed at 0)', async () => {
  const { page, errors } = await openPage(browser.context, `${server.url}?preset=min-worst-case&speed=2`);
  await page.waitForFunction(() => window.hiradix.panes.length === 2 && window.hiradix.sim.now() > 0, null, { timeout: 60_000 });
  await page.click('#btn-run'); // Pause
  await page.click('#btn-reset');
  await page.waitForFunction(() => window.hiradix.sim.now() === 0, null, { timeout: 60_000 });
  assert.equal(await page.inputValue('#load-value'), '0.3', 'the story opens at its configured load');
  await page.keyboard.press('PageDown'); // scene 1: the load falls to 0.03 at cycle 0, then runs to 400
  await idle(page);
  assert.equal(await now(page), 400);
  assert.equal(await page.inputValue('#load-value'), '0.03');
  await page.keyboard.press('PageUp');
  await idle(page);
  assert.equal(await now(page), 0);
  assert.equal(await sceneCount(page), '2 scenes', 'the opening');
  assert.equal(await page.inputValue('#load-value'), '0.3', 'the opening load is back');
  assert.equal(await page.evaluate(() => window.hiradix.experiment.config.traffic.load), 0.3, 'in the experiment the panes run');
  assert.deepEqual(errors, []);
  await page.close();
});

test('a scene starts where the previous one stopped: entered after the opening run passed its stop, the first replays from cycle 0 at its own load; the scenes\' own load and links are not "modified"', async () => {
  const { page, errors } = await openPage(browser.context, `${server.url}?preset=min-worst-case&speed=20`);
  // The story plays on as it opens, at its configured load 0.3, past scene 1's stop (cycle 400).
  await page.waitForFunction(() => window.hiradix.panes.length === 2 && window.hiradix.sim.now() > 600, null, { timeout: 60_000 });
  await page.keyboard.press('PageDown');
  await idle(page);
  assert.equal(await now(page), 400);
  assert.equal(await page.inputValue('#load-value'), '0.03');
  // MIN accepted what the light load offers over the window shown, not the 1/16 of the run at 0.3.
  const accepted = async () => page.evaluate(() => window.hiradix.panes.map((p) => p.stats.recent(10)?.accepted ?? NaN));
  const [min] = await accepted();
  assert.ok(min < 0.05, `MIN's accepted throughput at the light load: ${min}`);
  const modified = () => page.evaluate(() => !document.getElementById('story-modified').hidden);
  assert.equal(await modified(), false, "scene 1's load is the story's");
  await page.keyboard.press('PageDown'); // scene 2 raises the load to 0.3 and asks
  await idle(page);
  assert.equal(await modified(), false, "scene 2's load is the story's");
  const [asked] = await accepted();
  assert.ok(asked < 0.05, `the question does not show its answer (MIN's accepted ${asked})`);
  await page.keyboard.press('PageDown'); // the run answers it
  await idle(page);
  assert.equal(await now(page), 800);
  // A change of the lecturer's own is one.
  await page.fill('#load-value', '0.25');
  await page.press('#load-value', 'Enter');
  await page.waitForFunction(() => !document.getElementById('story-modified').hidden, null, { timeout: 10_000 });
  assert.deepEqual(errors, []);
  await page.close();
});

test("the Swap2 story's question is answered by DAL's decision, its numbers in the inspector", { timeout: 240_000 }, async () => {
  const { page, errors } = await openPage(browser.context, `${server.url}?preset=dal-swap2&present=1`);
  await page.waitForFunction(() => window.hiradix.panes.length === 3 && window.hiradix.sim.now() > 0, null, { timeout: 60_000 });
  await page.keyboard.press('PageDown'); // watch to cycle 1200
  await idle(page);
  assert.equal(await now(page), 1200);
  await page.keyboard.press('PageDown'); // the question: the run waits
  await idle(page);
  assert.match(await page.textContent('#scene-bar'), /Which does DAL take\?/);
  assert.equal(await now(page), 1200, 'asked before the run answers');
  await page.keyboard.press('PageDown'); // runs to router 0's next decision
  await idle(page);
  assert.equal(await now(page), 1201);
  assert.match(await page.textContent('#scene-bar'), /Answer: A deroute/);
  // The decision's numbers were recorded (per-hop notes start with the scene's run).
  await page.waitForFunction(() => /deroute → port 7/.test(document.getElementById('inspector').textContent));
  assert.match(await page.textContent('#inspector'), /≥ 30 free slots/);
  assert.deepEqual(errors, []);
  await page.close();
});
