// The story editor (www/ui/story-editor.js): a lecturer writes a story beside the running
// picture — title, point, explanation with a paragraph break and emphasis, a focus, scenes at
// the current cycle and at the next decision of a pinned router, one with a question — and
// Save shows it as the class will see it: the story panel, the scene bar, PageDown playing
// the scenes, and Share story's link opening the same story in a fresh browser. A refused
// story (an empty title) is said next to the title and changes nothing.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { launchBrowser, openPage } from './harness.mjs';
import { setup } from './page-helpers.mjs';

let env;
before(async () => {
  env = await setup();
});
after(async () => {
  await env?.close();
});

const now = (page) => page.evaluate(() => window.hiradix.sim.now());
const idle = (page) => page.waitForFunction(() => !document.getElementById('scene-bar').classList.contains('busy'), null, { timeout: 120_000 });
const waitStory = (page, id) =>
  page.waitForFunction((id) => window.hiradix.story?.id === id && window.hiradix.panes.length === (window.hiradix.experiment.compare?.values.length ?? 1), id, {
    timeout: 60_000,
  });

test('a story written in the editor is shown, played and shared as the class will see it', { timeout: 300_000 }, async () => {
  const { page, errors } = await env.open('?preset=min-worst-case');
  await waitStory(page, 'min-worst-case');
  assert.equal(await page.textContent('#scene-count'), '2 scenes', 'the built-in story has two scenes');
  await page.waitForFunction(() => window.hiradix.sim.now() > 40, null, { timeout: 60_000 });

  await page.click('#btn-story-edit');
  assert.ok(await page.isVisible('#story-editor'));
  assert.equal(await page.inputValue('#editor-title'), await page.textContent('#story-title'), 'the story loads');
  assert.match(await page.inputValue('#editor-explanation'), /\S/, "the story's explanation loads as plain text");
  assert.match(await page.textContent('#editor-experiment'), /routing\.algorithm = min \| val/);
  // The story's own scenes load into the editor; this lecturer removes them (✕).
  assert.equal(await page.locator('.editor-scene').count(), 2);
  assert.match(await page.textContent('.editor-scene:nth-child(2) .scene-stop'), /runs to cycle 800/);
  // A stop changes in place: a cycle typed in, a bad one refused next to it.
  await page.fill('.editor-scene:nth-child(2) .scene-stop-cycle', '900');
  await page.press('.editor-scene:nth-child(2) .scene-stop-cycle', 'Enter');
  assert.match(await page.textContent('.editor-scene:nth-child(2) .scene-stop'), /runs to cycle 900/);
  await page.fill('.editor-scene:nth-child(2) .scene-stop-cycle', '0');
  await page.press('.editor-scene:nth-child(2) .scene-stop-cycle', 'Enter');
  assert.match(await page.textContent('.editor-scene:nth-child(2) [data-field="scenes[1].stop.cycle"]'), /not a cycle/);
  assert.equal(await page.inputValue('.editor-scene:nth-child(2) .scene-stop-cycle'), '900');
  for (let i = 0; i < 2; i++) await page.click('.editor-scene:nth-child(1) button[aria-label="remove scene 1"]');
  assert.equal(await page.locator('.editor-scene').count(), 0);
  // The picture stays visible beside the panel, and keeps running.
  const box = await page.evaluate(() => {
    const c = window.hiradix.panes[0].canvas.getBoundingClientRect();
    const e = document.getElementById('story-editor').getBoundingClientRect();
    return { canvasRight: c.right, editorLeft: e.left, width: c.width };
  });
  assert.ok(box.width > 100 && box.canvasRight <= box.editorLeft + 1, `the canvas is beside the editor: ${JSON.stringify(box)}`);
  const t0 = await now(page);
  await page.waitForFunction((t) => window.hiradix.sim.now() > t, t0, { timeout: 30_000 });

  await page.fill('#editor-title', 'Shift traffic chokes MIN');
  await page.fill('#editor-point', 'Under router shift, MIN has one path per pair; VAL spreads the load.');
  await page.fill('#editor-explanation', 'Every router sends to the **next** one.\n\nSo *one* channel carries it all:\n- MIN saturates\n- VAL does not');
  await page.selectOption('#editor-focus', 'shift_direct');
  await page.fill('#editor-focus-label', 'the direct channels i → i+1');

  // Scene 1: at the cycle shown now (paused, so the cycle is the one the class will see).
  await page.click('#btn-run');
  await page.evaluate(() => window.hiradix.settled());
  const stopCycle = await now(page);
  assert.ok(stopCycle > 0);
  await page.click('#editor-add-cycle');
  await page.fill('.editor-scene:nth-child(1) .scene-caption-text', 'Watch the *direct* channels fill.');
  // Scene 2: the next decision at the router pinned in the inspector.
  await page.evaluate(() => {
    window.hiradix.selection = { pane: 0, kind: 'router', index: 5 };
  });
  await page.click('#editor-add-decision');
  assert.equal(await page.locator('.editor-scene').count(), 2);
  assert.match(await page.textContent('.editor-scene:nth-child(2) .scene-stop'), /next decision at router 5/);
  await page.fill('.editor-scene:nth-child(2) .scene-caption-text', 'Router 5 routes its next packet.');
  await page.check('.editor-scene:nth-child(2) .scene-asks');
  await page.fill('.editor-scene:nth-child(2) .scene-ask-text', 'Which path does MIN take?');
  await page.fill('.editor-scene:nth-child(2) .scene-choices-text', 'The direct channel\nA detour');
  await page.selectOption('.editor-scene:nth-child(2) .scene-answer', '0');
  await page.fill('.editor-scene:nth-child(2) .scene-why-text', 'MIN only ever takes the **minimal** path.');

  await page.click('#editor-save');
  await waitStory(page, 'shift-traffic-chokes-min');
  assert.equal(await page.isVisible('#story-editor'), false, 'saved: the editor closes');
  assert.equal(await page.textContent('#story-title'), 'Shift traffic chokes MIN');
  assert.equal(await page.textContent('#story-point'), 'Under router shift, MIN has one path per pair; VAL spreads the load.');
  const text = await page.evaluate(() => {
    const p = document.getElementById('story-text');
    return {
      text: p.textContent,
      bold: [...p.querySelectorAll('b')].map((b) => b.textContent),
      italic: [...p.querySelectorAll('i')].map((b) => b.textContent),
    };
  });
  assert.deepEqual(text, {
    text: 'Every router sends to the next one.\n\nSo one channel carries it all:\n• MIN saturates\n• VAL does not',
    bold: ['next'],
    italic: ['one'],
  });
  const doc = await page.evaluate(() => window.hiradix.story.doc);
  assert.deepEqual(doc.focus, { selector: 'shift_direct', pattern: 'router_shift', label: 'the direct channels i → i+1' });
  assert.deepEqual(
    doc.scenes.map((s) => s.stop),
    [
      { until: 'cycle', cycle: stopCycle },
      { until: 'decision', router: 5 },
    ],
  );
  assert.match(await page.textContent('#legend-focus'), /the direct channels i → i\+1/);
  assert.ok(await page.isVisible('#scene-bar'));
  assert.equal(await page.textContent('#scene-count'), '2 scenes');
  assert.ok(await page.evaluate(() => window.hiradix.openedStories.some((s) => s.id === 'shift-traffic-chokes-min')));

  // PageDown plays the scenes.
  await page.locator('body').focus();
  await page.keyboard.press('PageDown');
  await page.waitForFunction(() => document.getElementById('scene-count').textContent === 'Scene 1 of 2');
  await idle(page);
  assert.equal(await now(page), stopCycle);
  assert.equal(await page.textContent('#scene-caption'), 'Watch the direct channels fill.');
  await page.keyboard.press('PageDown');
  await page.waitForFunction(() => document.getElementById('scene-count').textContent === 'Scene 2 of 2');
  await idle(page);
  assert.equal(await page.textContent('#scene-ask'), 'Which path does MIN take?');
  await page.keyboard.press('PageDown');
  await idle(page);
  await page.waitForFunction(() => !document.getElementById('scene-why').hidden);
  assert.match(await page.textContent('#scene-why'), /^Answer: The direct channel\. MIN only ever takes the minimal path\.$/);
  assert.deepEqual(await page.evaluate(() => window.hiradix.selection), { pane: 0, kind: 'router', index: 5 });

  // Share story: the link opens the same story, with its scenes, in a fresh browser.
  const { url, error } = await page.evaluate(() => window.hiradix.storyLink());
  assert.equal(error, undefined);
  assert.deepEqual(errors, []);
  await page.close();
  const fresh = await launchBrowser({ width: 1500, height: 1000 });
  try {
    const { page: other, errors: otherErrors } = await openPage(fresh.context, url);
    await other.waitForSelector('body[data-state="running"]', { timeout: 60_000 });
    await waitStory(other, 'shift-traffic-chokes-min');
    assert.equal(await other.textContent('#story-title'), 'Shift traffic chokes MIN');
    assert.equal(await other.textContent('#scene-count'), '2 scenes');
    assert.deepEqual(await other.evaluate(() => window.hiradix.story.doc), doc);
    assert.deepEqual(otherErrors, []);
  } finally {
    await fresh.close();
  }
});

test('a refused story is said next to its field and changes nothing', { timeout: 120_000 }, async () => {
  const { page, errors } = await env.open('?preset=min-worst-case');
  await waitStory(page, 'min-worst-case');
  const before = await page.evaluate(() => ({ doc: window.hiradix.story.doc, gen: window.hiradix.gen }));
  await page.click('#btn-story-new');
  assert.equal(await page.textContent('#editor-heading'), 'New story');
  assert.equal(await page.inputValue('#editor-title'), '');
  assert.equal(await page.inputValue('#editor-paper'), 'own experiment');
  await page.fill('#editor-point', 'A point.');
  await page.fill('#editor-explanation', 'Text.');
  await page.click('#editor-save');
  const msg = page.locator('#story-editor .field-msg[data-field="title"]');
  await msg.waitFor({ state: 'visible' });
  assert.match(await msg.textContent(), /0 characters; 1 to 100/);
  assert.ok(await page.isVisible('#story-editor'), 'the editor stays open');
  // The refusal sits right under the title field.
  const placed = await page.evaluate(() => {
    const m = document.querySelector('#story-editor .field-msg[data-field="title"]');
    return m.previousElementSibling?.contains(document.getElementById('editor-title'));
  });
  assert.ok(placed);
  const after = await page.evaluate(() => ({ doc: window.hiradix.story.doc, gen: window.hiradix.gen, opened: window.hiradix.openedStories.length }));
  assert.deepEqual(after, { ...before, opened: 0 }, 'nothing applied');
  // A field that cannot be read keeps Save from saving what it last read.
  await page.fill('#editor-title', 'A new one');
  await page.click('#editor-add-cycle');
  await page.fill('.editor-scene:nth-child(1) .scene-fail', '4-5, 5-7x');
  const links = page.locator('#story-editor .field-msg[data-field="scenes[0].fail"]');
  await links.waitFor({ state: 'visible' });
  await page.click('#editor-save');
  assert.ok(await page.isVisible('#story-editor'), 'refused: the editor stays open');
  assert.ok(await links.isVisible(), 'the links problem is still said after Save');
  assert.equal(await page.evaluate(() => window.hiradix.openedStories.length), 0, 'nothing saved');
  // Fixed, it saves.
  await page.fill('.editor-scene:nth-child(1) .scene-fail', '4-5, 5-7');
  assert.equal(await links.isVisible(), false);
  await page.click('#editor-save');
  await waitStory(page, 'a-new-one');
  assert.equal(await page.textContent('#story-paper'), 'own experiment, —');
  assert.deepEqual(await page.evaluate(() => window.hiradix.story.doc.scenes[0].fail), [
    [4, 5],
    [5, 7],
  ]);
  assert.deepEqual(errors, []);
  await page.close();
});
