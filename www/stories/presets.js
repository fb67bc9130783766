// The built-in stories. Each is a document in www/stories/builtin/ (listed, in the menu's
// order, by index.json), in the format src/story/mod.rs declares and checks (`hiradix story
// check`, tests/integration/stories.rs): the experiment (config over the defaults, the parameter compared
// side by side, speed, view), its source, its point and explanation as structured text, its
// focus (a selector the engine turns into the channels to case in orange), its key plots
// and the numbers its text states (measured with this simulator, `hiradix run` with the
// same settings), each with the tolerance tests/browser/stories.test.mjs checks on the page.
// Stories opened from a link, a file or the page's site (www/stories/share.js) take the same
// form (storyFromDocument) and are added beside these (ExperimentState.addOpened).

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
 * Reads the built-in story documents with `readText(name)` (a file name in
 * BUILTIN_STORIES: the page fetches it, Node reads it from disk) into PRESETS, each checked
 * by the engine's `checkStory` (src/story/mod.rs): a document it refuses is left out, and
 * reported in `problems` with its fields.
 * @param {(name: string) => Promise<string>} readText
 * @param {(text: string) => import('../../pkg/hiradix.js').FieldError[]} checkStory
 * @returns {Promise<{stories: typeof PRESETS, problems: string[]}>}
 */
export async function loadStories(readText, checkStory) {
  const ids = JSON.parse(await readText('index.json'));
  const texts = await Promise.all(ids.map((/** @type {string} */ id) => readText(`${id}.json`)));
  const problems = [];
  const stories = [];
  texts.forEach((text, i) => {
    const errors = checkStory(text);
    if (errors.length) problems.push(`story ${ids[i]}: ${errors.map((e) => `${e.path}: ${e.message}`).join('; ')}`);
    else stories.push(storyFromDocument(JSON.parse(text)));
  });
  PRESETS = stories;
  return { stories, problems };
}

/**
 * The page's form of a story document (src/story/mod.rs, `Story`), keeping the document
 * itself (`doc`: what Share story and Download story write). `id`: the id the page knows it
 * by, the document's own unless an opened story's would take a built-in one's (see
 * ExperimentState.addOpened).
 */
export function storyFromDocument(doc, id = doc.id) {
  const { experiment: x, focus } = doc;
  return {
    id,
    doc,
    title: doc.title,
    paper: `${doc.source.paper}, ${doc.source.where}`,
    config: x.config,
    compare: x.compare ?? null,
    speed: x.speed,
    view: pageView(x.view),
    ranges: x.ranges ?? null,
    sweep: x.sweep,
    point: doc.point,
    text: doc.explanation,
    look: doc.look ?? [],
    focus: focusRule(focus),
    keyPlots: doc.key_plots ?? [],
    scenes: doc.scenes ?? [],
  };
}

/**
 * How the page draws a document's focus: the selection the engine computes, the legend's
 * label, the dimming and the routers' scale (null: no focus).
 * @param {any} focus a story document's `focus`, or null
 * @returns {{selection: any, label: string, dim?: number, routerScale?: number} | null}
 */
export function focusRule(focus) {
  return focus ? { selection: focus, label: focus.label, dim: focus.dim, routerScale: focus.router_scale } : null;
}

/**
 * A story's view as the page's experiment holds it: its zoom's centre as cx, cy.
 * @param {any} view the document's `experiment.view`
 */
function pageView(view) {
  const { center, ...rest } = view ?? {};
  if (typeof rest.zoom !== 'number') return rest;
  const [cx, cy] = center ?? [0.5, 0.5];
  return { ...rest, cx, cy };
}

export function presetExperiment(model, preset) {
  const exp = newExperiment(model.complete(preset.config));
  exp.compare = preset.compare ? { param: preset.compare.param, values: [...preset.compare.values] } : null;
  exp.speed = preset.speed;
  exp.preset = preset.id;
  if (preset.view) Object.assign(exp.view, preset.view);
  return exp;
}

/**
 * Where an opened story came from: `source` is what a link's `story=` carries for it (the
 * compressed document "z:…", or a hosted document's address; null when the document is too
 * large for a link), `from` how it was opened ('editor': written in the page's story editor).
 * @typedef {{source: string | null, from: 'link' | 'file' | 'host' | 'editor'}} Opened
 */

/**
 * id → {preset, experiment, opened}, for the URL decoder and the preset menu: the built-in
 * stories (opened: null); ExperimentState.addOpened adds the stories opened in this session.
 * @returns {Map<string, {preset: ReturnType<typeof storyFromDocument>, experiment: ReturnType<typeof presetExperiment>, opened: Opened | null}>}
 */
export function presetExperiments(model) {
  const map = new Map();
  for (const p of PRESETS) map.set(p.id, { preset: p, experiment: presetExperiment(model, p), opened: null });
  return map;
}
