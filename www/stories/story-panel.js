// The story panel beside the controls: the current story's title, paper, point, text and
// what to look at, and whether the experiment has been changed from it ("modified").

import { el, rich, setChildren } from '../lib/dom.js';

const $ = (id) => document.getElementById(id);

/**
 * Shows the story of the experiment (hidden without one).
 * @param {import('./experiment-state.js').ExperimentState} experiments
 */
export function showStory(experiments) {
  const p = experiments.story;
  $('story').hidden = !p;
  if (!p) return;
  $('story-title').textContent = p.title;
  $('story-paper').textContent = p.paper;
  $('story-point').textContent = p.point;
  setChildren($('story-text'), rich(p.text));
  setChildren(
    $('story-look'),
    p.look.map((l) => el('li', {}, rich(l))),
  );
  $('story-modified').hidden = !experiments.modified();
}
