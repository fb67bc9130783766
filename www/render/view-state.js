// What the visitor looks at: the router or channel selected (pinned in the inspector) and
// hovered, present mode, whether the page is embedded, the tab (the simulation or the cost view) and the link metric (the
// experiment's view.metric, through ExperimentState). Written only here: 'changed' names
// what changed; 'redraw' asks the animation to redraw the key plots (and the statistics
// plots) with the next frame rather than on its schedule.

import { Emitter } from '../lib/events.js';

/** @typedef {{pane: number, kind: string, index: number}} Selection */
/** @typedef {{what: 'selection' | 'hover' | 'present' | 'embed' | 'tab' | 'metric'}} ViewChange */
/** @typedef {{key: boolean, plots: boolean}} Redraw */

/** @extends {Emitter<{changed: ViewChange, redraw: Redraw}>} */
export class ViewState extends Emitter {
  /** @param {import('../stories/experiment-state.js').ExperimentState} experiments */
  constructor(experiments) {
    super();
    this.experiments = experiments;
    /** @type {Selection | null} */
    this.pinned = null;
    /** @type {Selection | null} */
    this.hovered = null;
    this.presentOn = false;
    this.embedOn = false;
    /** @type {'sim' | 'cost'} */
    this.tabShown = 'sim';
  }

  /** The pinned router or channel {pane, kind, index}, or null. */
  get selection() {
    return this.pinned;
  }

  /** The router or channel under the pointer, or null. */
  get hover() {
    return this.hovered;
  }

  /** The element the inspector shows: the pinned one, else the hovered one. */
  get inspected() {
    return this.pinned ?? this.hovered;
  }

  /** Present mode: the picture and the key plot fill the screen, large text. */
  get present() {
    return this.presentOn;
  }

  /**
   * Embedded (`?embed=1`, for an iframe in a course page or a slide): only the picture,
   * the story's point and run / step; the rest of the page hidden.
   */
  get embed() {
    return this.embedOn;
  }

  /** 'sim', or 'cost': the cost view (www/ui/cost-view.js); the simulation idles meanwhile. */
  get tab() {
    return this.tabShown;
  }

  /** The link colour (the experiment's view.metric). */
  get metric() {
    return this.experiments.experiment?.view.metric;
  }

  /** @param {Selection | null} sel */
  select(sel) {
    this.pinned = sel;
    this.emit('changed', { what: 'selection' });
  }

  /** @param {Selection | null} hover */
  setHover(hover) {
    this.hovered = hover;
    this.emit('changed', { what: 'hover' });
  }

  /** Told even when unchanged (the page lays itself out again). */
  setPresent(on) {
    this.presentOn = Boolean(on);
    this.emit('changed', { what: 'present' });
  }

  setEmbed(on) {
    this.embedOn = Boolean(on);
    this.emit('changed', { what: 'embed' });
  }

  /** @param {'sim' | 'cost'} tab */
  setTab(tab) {
    this.tabShown = tab;
    this.emit('changed', { what: 'tab' });
  }

  setMetric(metric) {
    this.experiments.setView({ metric });
    this.emit('changed', { what: 'metric' });
  }

  /** The next frame redraws the key plots beside the picture and, with `plots`, the statistics plots. */
  redraw({ key = true, plots = false } = {}) {
    this.emit('redraw', { key, plots });
  }
}
