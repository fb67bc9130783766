// The experiment the page shows and the story it opened from: written only here (the page's
// other modules call these methods), announced by a 'changed' event. The catalog, the model
// read from it and the built-in stories' experiments are set once the wasm module and the
// stories have loaded.
//
// The story is held, not looked up: set() takes it from the presets with the experiment.
// The presets are the built-in stories and those opened in this session (from a link, a
// file or the page's site: addOpened), each with its document.

import { Emitter } from '../lib/events.js';
import { linkKey, sameValue } from '../model/experiment.js';
import { focusRule, presetExperiment, storyFromDocument } from './presets.js';
import { openedId } from './share.js';

/** @typedef {ReturnType<typeof import('../model/experiment.js').newExperiment>} Experiment */
/** @typedef {ReturnType<typeof storyFromDocument>} Story */
/** @typedef {ReturnType<typeof import('./presets.js').presetExperiments>} Presets */
/**
 * What changed: 'replaced' (another experiment, set()), 'view' (how it is drawn, setView),
 * 'speed', or 'live' (its load or failed links, changed while running).
 * @typedef {{experiment: object, how: 'replaced' | 'view' | 'speed' | 'live'}} ExperimentChange
 */

/** @typedef {import('./presets.js').Opened} Opened */

/** @extends {Emitter<{changed: ExperimentChange, stories: {id: string}}>} */
export class ExperimentState extends Emitter {
  constructor() {
    super();
    /**
     * The catalog (`catalog()`) and the model read from it, once the wasm module is loaded.
     * @type {import('../../pkg/hiradix.js').Catalog | null}
     */
    this.catalog = null;
    /** @type {import('../model/experiment.js').Model | null} */
    this.model = null;
    /** The built-in stories' experiments by id: {preset, experiment}. @type {Presets} */
    this.presets = new Map();
    /** @type {Experiment | null} */
    this.current = null;
    /** @type {Story | null} */
    this.currentStory = null;
    /**
     * The focus a scene set (src/story/scenes.rs, `focus`), over the story's; undefined:
     * the story's.
     * @type {Story['focus'] | undefined}
     */
    this.sceneFocus = undefined;
    /** The story's scene shown (www/ui/scene-player.js): -1 before the first. */
    this.scene = -1;
  }

  /** The experiment shown (null before the first one, or after a link's failed). */
  get experiment() {
    return this.current;
  }

  /** The story the experiment opened from (its `preset`), or null. */
  get story() {
    return this.currentStory;
  }

  /** The focus shown: the scene's (setSceneFocus), else the story's; null: none. */
  get focus() {
    return this.sceneFocus !== undefined ? this.sceneFocus : (this.currentStory?.focus ?? null);
  }

  /**
   * A scene's focus, a story document's `focus` (undefined: back to the story's own).
   * @param {any} focus
   */
  setSceneFocus(focus) {
    this.sceneFocus = focus === undefined ? undefined : focusRule(focus);
  }

  /**
   * The story's scene shown (-1: none yet): the load and failed links its scenes set so far
   * are the story's, not a change from it (`modified`).
   * @param {number} index
   */
  setScene(index) {
    this.scene = index;
  }

  /** The catalog and its model (once). */
  setCatalog(catalog, model) {
    this.catalog = catalog;
    this.model = model;
  }

  /** @param {Presets} presets */
  setPresets(presets) {
    this.presets = presets;
  }

  /** Another experiment (or null); its story with it. */
  set(exp) {
    this.current = exp;
    this.sceneFocus = undefined;
    this.scene = -1;
    this.currentStory = exp?.preset ? (this.presets.get(exp.preset)?.preset ?? null) : null;
    this.emit('changed', { experiment: exp, how: 'replaced' });
  }

  /**
   * Registers a story opened in this session (a document checked by the engine's
   * checkStory) like a built-in one, and announces it ('stories'); returns the id the page
   * knows it by. Its own id, unless a built-in story has it: then `<id>-opened`, so a
   * built-in story is never replaced. A story opened again with the same id replaces the
   * one opened before (it keeps its place in the menu).
   * @param {any} doc
   * @param {Opened} opened
   */
  addOpened(doc, opened) {
    // Taken: a built-in story's id, or another opened story's (with another document id).
    const taken = (id) => {
      const entry = this.presets.get(id);
      return Boolean(entry) && (entry.opened === null || entry.preset.doc.id !== doc.id);
    };
    const id = openedId(doc.id, taken);
    const preset = storyFromDocument(doc, id);
    this.presets.set(id, { preset, experiment: presetExperiment(this.model, preset), opened });
    this.emit('stories', { id });
    return id;
  }

  /** The stories opened in this session, in the order they were first opened. */
  openedStories() {
    return [...this.presets.values()].filter((e) => e.opened).map((e) => e.preset);
  }

  /** How the experiment is drawn: `patch` of its view (metric, routers, zoom, …). */
  setView(patch) {
    Object.assign(this.current.view, patch);
    this.emit('changed', { experiment: this.current, how: 'view' });
  }

  /** The cycles per frame. */
  setSpeed(speed) {
    this.current.speed = speed;
    this.emit('changed', { experiment: this.current, how: 'speed' });
  }

  /** The offered load, changed while running (or read back from the engine after a rewind). */
  setLoad(load) {
    this.current.config.traffic.load = load;
    this.emit('changed', { experiment: this.current, how: 'live' });
  }

  /**
   * The failed links, changed while running: the config's faults.links, or with `pane`
   * (when the panes compare faults.links) that pane's compared value.
   */
  setLinks(links, pane = null) {
    const exp = this.current;
    if (pane !== null) exp.compare.values[pane] = links;
    else {
      exp.config.faults ??= { links: [], random_fraction: 0 };
      exp.config.faults.links = links;
    }
    this.emit('changed', { experiment: exp, how: 'live' });
  }

  /**
   * Puts back what live edits changed (www/ui/time-control.js's `liveState()`: the load, the
   * failed links, the compared failed links). Returns whether the load and the links changed.
   */
  restoreLive(st) {
    const exp = this.current;
    const load = exp.config.traffic.load !== st.load;
    const links =
      JSON.stringify(exp.config.faults?.links ?? []) !== JSON.stringify(st.links) ||
      (st.compareValues && JSON.stringify(st.compareValues) !== JSON.stringify(exp.compare?.values));
    exp.config.traffic.load = st.load;
    if (exp.config.faults || st.links.length) {
      exp.config.faults ??= { links: [], random_fraction: 0 };
      exp.config.faults.links = st.links;
    }
    if (st.compareValues && exp.compare?.param === 'faults.links') exp.compare.values = st.compareValues;
    this.emit('changed', { experiment: exp, how: 'live' });
    return { load, links: Boolean(links) };
  }

  /**
   * How the story draws its picture: the value shown in full colour for the current metric
   * (`range`, e.g. a quarter full when the point is a queue building up), how much the
   * channels outside its focus are dimmed (`dim`, their opacity) and the routers' scale.
   * @returns {{range?: number, dim?: number, routerScale?: number}}
   */
  look() {
    const p = this.currentStory;
    if (!p) return {};
    const look = {};
    const range = p.ranges?.[this.current.view.metric];
    if (range) look.range = range;
    const focus = this.focus;
    if (focus?.dim !== undefined) look.dim = focus.dim;
    if (focus?.routerScale !== undefined) look.routerScale = focus.routerScale;
    return look;
  }

  /**
   * Whether an experiment that opened as a story has since been changed (config or panes)
   * from what the story shows: its experiment with the load and failed links of the scenes
   * played so far (in whatever order the links failed).
   */
  modified() {
    const exp = this.current;
    const entry = exp?.preset ? this.presets.get(exp.preset) : null;
    if (!entry) return false;
    const story = structuredClone(entry.experiment.config);
    const links = new Map((story.faults?.links ?? []).map((l) => [linkKey(l), l]));
    for (const scene of (this.currentStory?.scenes ?? []).slice(0, this.scene + 1)) {
      if (typeof scene.load === 'number') story.traffic.load = scene.load;
      for (const l of scene.restore ?? []) links.delete(linkKey(l));
      for (const l of scene.fail ?? []) links.set(linkKey(l), l);
    }
    if (story.faults || links.size) story.faults = { ...story.faults, links: [...links.values()] };
    return !sameSettings(exp.config, story) || !sameValue(exp.compare, entry.experiment.compare);
  }
}

/**
 * Whether two configs are the same experiment: failed links compared as a set (the order
 * they failed in, an empty faults block and a random fraction of 0 left out change nothing).
 */
function sameSettings(a, b) {
  const settled = (config) => {
    const c = structuredClone(config);
    const links = (c.faults?.links ?? []).map(linkKey).sort();
    const fraction = c.faults?.random_fraction ?? 0;
    if (links.length || fraction) c.faults = Object.fromEntries(Object.entries({ ...c.faults, links, random_fraction: fraction }).sort());
    else delete c.faults;
    return c;
  };
  return sameValue(settled(a), settled(b));
}
