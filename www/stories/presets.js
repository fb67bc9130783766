// The built-in stories. Each is a document in www/stories/builtin/ (listed, in the menu's
// order, by index.json), in the format src/story.rs declares and checks (`hiradix story
// check`, tests/stories.rs): the experiment (config over the defaults, the parameter compared
// side by side, speed, view), its source, its point and explanation as structured text, its
// focus (a selector the page turns into the channels to case in orange) and its key plots.
// The numbers quoted were measured with this simulator (`hiradix run` with the same
// settings); tests/browser/stories.test.mjs checks them on the page.

import { newExperiment } from '../model/experiment.js';

/** The folder of the built-in story documents. */
export const BUILTIN_STORIES = new URL('./builtin/', import.meta.url);

/**
 * The built-in stories in the page's form (storyFromDocument), in the menu's order; empty
 * until loadStories has read them.
 * @type {ReturnType<typeof storyFromDocument>[]}
 */
export let PRESETS = [];

/**
 * Reads the built-in story documents with `readJson(name)` (a file name in
 * BUILTIN_STORIES: the page fetches it, Node reads it from disk) into PRESETS.
 * @param {(name: string) => Promise<any>} readJson
 */
export async function loadStories(readJson) {
  const ids = await readJson('index.json');
  const docs = await Promise.all(ids.map((/** @type {string} */ id) => readJson(`${id}.json`)));
  PRESETS = docs.map(storyFromDocument);
  return PRESETS;
}

/** The page's form of a story document (src/story.rs, `Story`). */
export function storyFromDocument(doc) {
  const { experiment: x, focus } = doc;
  return {
    id: doc.id,
    title: doc.title,
    paper: `${doc.source.paper}, ${doc.source.where}`,
    config: x.config,
    compare: x.compare ?? null,
    speed: x.speed,
    view: x.view ?? {},
    ranges: x.ranges ?? null,
    sweep: x.sweep,
    point: doc.point,
    text: doc.explanation,
    look: doc.look ?? [],
    focus: focus
      ? { kind: focus.selector, pattern: focus.pattern, slice: focus.slice, label: focus.label, dim: focus.dim, routerScale: focus.router_scale }
      : null,
    keyPlots: doc.key_plots ?? [],
  };
}

export function presetExperiment(model, preset) {
  const exp = newExperiment(model.complete(preset.config));
  exp.compare = preset.compare ? { param: preset.compare.param, values: [...preset.compare.values] } : null;
  exp.speed = preset.speed;
  exp.preset = preset.id;
  if (preset.view) Object.assign(exp.view, preset.view);
  return exp;
}

/** id → {preset, experiment}, for the URL decoder and the preset menu. */
export function presetExperiments(model) {
  const map = new Map();
  for (const p of PRESETS) map.set(p.id, { preset: p, experiment: presetExperiment(model, p) });
  return map;
}
