// The story editor's plain text ↔ structured text (www/stories/story-draft.js), its ids and
// the document it builds, in Node.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  describePicked,
  documentFromDraft,
  draftFromDocument,
  experimentSection,
  fieldOf,
  lookItems,
  richToText,
  storyIdFrom,
  textToRich,
  togglePicked,
} from '../../www/stories/story-draft.js';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const BUILTIN = join(ROOT, 'www/stories/builtin');

test('plain text: paragraphs, emphasis, lists and subscripts become structured text', () => {
  assert.equal(textToRich('just words'), 'just words');
  assert.equal(textToRich('  one\nline  '), 'one line', 'a single line break inside a paragraph is a space');
  assert.equal(textToRich('first\n\n\nsecond'), 'first\n\nsecond', 'blank lines separate paragraphs');
  assert.deepEqual(textToRich('a **bold** and *italic* word'), ['a ', { b: 'bold' }, ' and ', { i: 'italic' }, ' word']);
  assert.deepEqual(textToRich('UGAL-L_{CR} wins'), ['UGAL-L', { sub: 'CR' }, ' wins']);
  assert.deepEqual(textToRich('**UGAL-L_{CR}**'), [{ b: ['UGAL-L', { sub: 'CR' }] }]);
  assert.deepEqual(textToRich('*a **b** c*'), [{ i: ['a ', { b: 'b' }, ' c'] }]);
  assert.equal(textToRich('Look at:\n- the queues\n- the *plots*\nand more').length, 3);
  assert.deepEqual(textToRich('Look at:\n- the queues\n- the *plots*\nafter'), ['Look at:\n• the queues\n• the ', { i: 'plots' }, '\nafter']);
  assert.equal(textToRich(''), '');
});

test('markers that do not open or close stay as typed', () => {
  assert.equal(textToRich('q * H and 2*3'), 'q * H and 2*3');
  assert.equal(textToRich('an **unclosed bold'), 'an **unclosed bold');
  assert.equal(textToRich('x_{open'), 'x_{open');
  assert.equal(textToRich('\\*not italic\\*'), '*not italic*');
  assert.equal(textToRich('<b>tags</b> & "quotes"'), '<b>tags</b> & "quotes"', 'markup is text');
  // Many unclosed markers: no exponential retrying.
  const t0 = Date.now();
  textToRich('*_{**'.repeat(800));
  assert.ok(Date.now() - t0 < 2000);
});

test('structured text back to plain text and again is the same structured text', () => {
  for (const t of [
    'plain',
    ['a ', { b: 'bold' }, ' ', { i: 'it' }],
    ['x', { sub: 'm' }, '·H', { sub: 'nm' }],
    'two\n\nparagraphs\n• an item',
    ['2 * 3 and a_{b} \\ literal'],
  ]) {
    const text = richToText(t);
    assert.deepEqual(textToRich(text), Array.isArray(t) && t.length === 1 ? t[0] : t, text);
  }
  assert.equal(richToText(['a ', { b: ['UGAL-L', { sub: 'CR' }] }]), 'a **UGAL-L_{CR}**');
  assert.equal(richToText('x\n• item'), 'x\n- item');
});

test("every built-in story's text loads into the editor and comes back the same", () => {
  for (const f of readdirSync(BUILTIN).filter((f) => f.endsWith('.json') && f !== 'index.json')) {
    const doc = JSON.parse(readFileSync(join(BUILTIN, f), 'utf8'));
    const norm = (t) => textToRich(richToText(t));
    const again = (t) => JSON.stringify(norm(norm(t)));
    // Once through the editor the text is in its normal form, which the editor keeps.
    assert.equal(again(doc.explanation), JSON.stringify(norm(doc.explanation)), f);
    const flat = (t) => (Array.isArray(t) ? t.map(flat).join('') : t && typeof t === 'object' ? flat(Object.values(t)[0]) : String(t));
    assert.equal(flat(norm(doc.explanation)), flat(doc.explanation).replace(/\s+/g, ' ').trim(), `${f}: the words are kept`);
    const rebuilt = documentFromDraft(draftFromDocument(doc), doc.experiment);
    assert.equal(rebuilt.title, doc.title);
    assert.deepEqual(rebuilt.focus?.selector, doc.focus?.selector);
    assert.equal(rebuilt.scenes?.length ?? 0, doc.scenes?.length ?? 0);
    for (const [i, s] of (doc.scenes ?? []).entries()) {
      assert.deepEqual(rebuilt.scenes[i].stop, s.stop);
      assert.equal(rebuilt.scenes[i].inspect, s.inspect);
      assert.deepEqual(rebuilt.scenes[i].question?.choices, s.question?.choices);
    }
  }
});

test('ids from titles, and refusals to their fields', () => {
  assert.equal(storyIdFrom('Why MIN fails: the worst case!'), 'why-min-fails-the-worst-case');
  assert.equal(storyIdFrom('Ünïcode — Café 2'), 'unicode-cafe-2');
  assert.equal(storyIdFrom('   '), '');
  assert.ok(storyIdFrom('x'.repeat(100)).length <= 64);
  const fields = ['title', 'point', 'scenes[1]', 'scenes[1].question.ask', 'focus.label'];
  assert.equal(fieldOf('id', fields), 'title');
  assert.equal(fieldOf('scenes[1].question.ask', fields), 'scenes[1].question.ask');
  assert.equal(fieldOf('scenes[1].stop.cycle', fields), 'scenes[1]');
  assert.equal(fieldOf('experiment.config.router.vcs', fields), null);
});

test('a new story: own source, no focus, the experiment given', () => {
  const d = draftFromDocument(null);
  Object.assign(d, { title: 'My story', point: 'It shows.', explanation: 'Some *text*.' });
  d.scenes.push({ caption: 'Watch', stop: { until: 'cycle', cycle: 100 }, question: { ask: 'Which?', choices: ['a', 'b'], answer: 1, why: 'Because' } });
  const x = { config: { topology: { type: 'hyperx' } }, speed: 1, view: {} };
  const doc = documentFromDraft(d, x);
  assert.equal(doc.id, 'my-story');
  assert.equal(doc.hiradix_story, 1);
  assert.deepEqual(doc.source, { paper: 'own experiment', where: '—' });
  assert.deepEqual(doc.explanation, ['Some ', { i: 'text' }, '.']);
  assert.equal(doc.focus, undefined);
  assert.deepEqual(doc.experiment, x);
  assert.equal(doc.look, undefined);
  assert.deepEqual(doc.scenes[0], {
    caption: 'Watch',
    stop: { until: 'cycle', cycle: 100 },
    question: { ask: 'Which?', choices: ['a', 'b'], answer: 1, why: 'Because' },
  });
});

test('a picked focus: clicks toggle channels and routers, round-trip through the document', () => {
  let picked = { channels: [], routers: [] };
  picked = togglePicked(picked, { kind: 'channel', from: 5, to: 4 });
  picked = togglePicked(picked, { kind: 'channel', from: 4, to: 6 });
  picked = togglePicked(picked, { kind: 'router', router: 3 });
  assert.deepEqual(picked, {
    channels: [
      [5, 4],
      [4, 6],
    ],
    routers: [3],
  });
  assert.equal(describePicked(picked), 'channels 5→4, 4→6; router 3 (every channel out of it)');
  // The same channel again takes it out; the other direction is another channel.
  assert.deepEqual(togglePicked(picked, { kind: 'channel', from: 5, to: 4 }).channels, [[4, 6]]);
  assert.deepEqual(togglePicked(picked, { kind: 'channel', from: 4, to: 5 }).channels, [
    [5, 4],
    [4, 6],
    [4, 5],
  ]);
  assert.deepEqual(togglePicked(picked, { kind: 'router', router: 3 }).routers, []);
  assert.equal(describePicked({ channels: [], routers: [] }), 'nothing picked yet');

  const d = draftFromDocument(null);
  Object.assign(d, { title: 'Picked', point: 'p', explanation: 'e', selector: 'picked', label: 'these', ...picked });
  const doc = documentFromDraft(d, { config: {}, speed: 1, view: {} });
  assert.deepEqual(doc.focus, {
    selector: 'picked',
    channels: [
      [5, 4],
      [4, 6],
    ],
    routers: [3],
    label: 'these',
  });
  const back = draftFromDocument(doc);
  assert.deepEqual(
    [back.selector, back.channels, back.routers],
    [
      'picked',
      [
        [5, 4],
        [4, 6],
      ],
      [3],
    ],
  );
  // Another selector drops the lists.
  assert.equal(documentFromDraft({ ...back, selector: 'shift_direct' }, {}).focus.channels, undefined);
});

test("the experiment section keeps the picture's zoom and centre, none when it shows the whole network", () => {
  const model = { diff: () => [] };
  const exp = (view) => ({ config: {}, compare: null, speed: 2, view: { metric: 'occupancy', routers: 'fill', packets: true, ...view } });
  assert.equal(experimentSection(model, exp({ zoom: 1, cx: 0.5, cy: 0.5 })).view.zoom, undefined);
  const v = experimentSection(model, exp({ zoom: 2.34567, cx: 0.412345, cy: 0.5 })).view;
  assert.deepEqual([v.zoom, v.center], [2.346, [0.4123, 0.5]]);
});

test('what to look at: one item per paragraph, structured text each; the sweep set or dropped', () => {
  assert.deepEqual(lookItems('First *thing*.\n\n\nSecond\nline.\r\n\r\n  '), ['First *thing*.', 'Second\nline.']);
  const d = draftFromDocument(null);
  Object.assign(d, { title: 'T', point: 'p', explanation: 'e', look: 'Watch **this**.\n\nThen that.', sweep: ' 0.1:0.5:0.1 ' });
  const doc = documentFromDraft(d, { config: {}, speed: 1, view: {}, sweep: '0.2' });
  assert.deepEqual(doc.look, [['Watch ', { b: 'this' }, '.'], 'Then that.']);
  assert.equal(doc.experiment.sweep, '0.1:0.5:0.1');
  const back = draftFromDocument(doc);
  assert.deepEqual([back.look, back.sweep], ['Watch **this**.\n\nThen that.', '0.1:0.5:0.1']);
  assert.equal(documentFromDraft({ ...back, sweep: '' }, { config: {}, speed: 1, view: {}, sweep: '0.2' }).experiment.sweep, undefined);
});
