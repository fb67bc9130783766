// `window.hiradix`: the page for the browser tests (tests/browser/), scripts/ and the
// console — getters onto the owners of the page's state and a few functions, built here in
// one place. Reading never changes anything; the setters (running, selection, hover) go
// through the owner, as a click would change the same state.

/**
 * The page's parts the facade reads.
 * @typedef {object} FacadeParts
 * @property {import('../stories/experiment-state.js').ExperimentState} experiments
 * @property {import('../sim/sim-state.js').SimState} sim
 * @property {import('../sim/run-state.js').RunState} run
 * @property {import('../render/view-state.js').ViewState} view
 * @property {ReturnType<typeof import('./animation.js').animation>} anim
 * @property {import('./trace-view.js').PacketTrace} trace
 * @property {import('./sweep-panel.js').SweepPanel} sweeps
 * @property {import('./time-control.js').TimeControl} timeControl
 * @property {import('./live-load.js').LiveLoad} liveLoad
 * @property {import('./faults.js').FailLinks} failLinks
 * @property {object} defaultConfig
 * @property {Promise<string>} loaded
 * @property {() => import('./cost-view.js').CostView | null} cost
 * @property {(on: boolean) => void} setPresent
 * @property {() => object} exportLegend
 * @property {() => Promise<Blob>} exportPng
 * @property {() => string[]} linkProblems
 * @property {() => void} relayout
 * @property {import('./story-share.js').StoryShare} storyShare
 */

/** @param {FacadeParts} parts */
export function facade(parts) {
  const { experiments, sim, run, view, anim } = parts;
  return {
    // ------------------------------------------------------------ the experiment
    /** The catalog (`catalog()`), once the wasm module is loaded. */
    get catalog() {
      return experiments.catalog;
    },
    /** The experiment model read from the catalog (www/model/experiment.js). */
    get model() {
      return experiments.model;
    },
    /** The built-in stories' experiments by id: {preset, experiment}. */
    get presets() {
      return experiments.presets;
    },
    /** The experiment shown: {config, compare, view, speed, preset}. */
    get experiment() {
      return experiments.experiment;
    },
    /** The story the experiment opened from (with its document, `doc`), or null. */
    get story() {
      return experiments.story;
    },
    /** The stories opened in this session (from a link, a file or the page's site). */
    get openedStories() {
      return experiments.openedStories();
    },
    /** The page's default config (the fallback of a broken link). */
    get defaultConfig() {
      return parts.defaultConfig;
    },

    // ------------------------------------------------------------ the simulations
    /** The panes shown (www/sim/pane.js): one per compared value. */
    get panes() {
      return sim.panes;
    },
    /** The first pane's simulation (its mirror, www/sim/remote-sim.js), or null. */
    get sim() {
      return sim.sim;
    },
    /** The SimClient talking to the simulation workers. */
    get sims() {
      return sim.sims;
    },
    /** The worker's generation of the running simulations. */
    get gen() {
      return sim.gen;
    },
    /** Resolves once the worker has answered everything asked of it (e.g. after a step). */
    settled: () => sim.sims.idle(),
    /** A Rust panic in the simulation worker, on purpose. */
    triggerPanicForTest: () => sim.sims.panic(),
    /** The worker dying of a failed allocation, on purpose. */
    triggerOutOfMemoryForTest: () => sim.sims.outOfMemory(),

    // ------------------------------------------------------------ the run
    /** Running (else paused). Setting it only records it, as the Run button's state does not change. */
    get running() {
      return run.running;
    },
    set running(on) {
      run.setRunning(on);
    },
    get crashed() {
      return run.crashed;
    },
    get stopped() {
      return run.stopped;
    },
    /** The cycle the run pauses at (0: none). */
    get until() {
      return run.until;
    },

    // ------------------------------------------------------------ the view
    /** The pinned router or channel {pane, kind, index}, or null; settable (as a click). */
    get selection() {
      return view.selection;
    },
    set selection(sel) {
      view.select(sel);
    },
    /** The hovered router or channel, or null; settable (as the pointer). */
    get hover() {
      return view.hover;
    },
    set hover(h) {
      view.setHover(h);
    },
    get present() {
      return view.present;
    },
    /** Embedded (`?embed=1`): the picture, the story's point and run / step only. */
    get embed() {
      return view.embed;
    },
    /** 'sim' or 'cost'. */
    get tab() {
      return view.tab;
    },
    /** Present mode on or off (as the button). */
    setPresent: (on) => parts.setPresent(on),
    /** Lays the stage out again (after a change of the window's size the page did not see). */
    relayout: () => parts.relayout(),

    // ------------------------------------------------------------ the animation
    /** Frames drawn. */
    get frames() {
      return anim.frames;
    },
    /** Worker replies applied. */
    get snapshots() {
      return anim.snapshots;
    },
    /** {fps, drawMs, advanceMs, stepCycles, cyclesPerFrame} (www/ui/animation.js). */
    get perf() {
      return anim.perf;
    },
    /** The numbers of the class plot last drawn (www/render/key-view.js), or null. */
    get keyNumbers() {
      return anim.key?.keyNumbers ?? null;
    },
    /** The numbers of the decisions plot last drawn, or null. */
    get decisionNumbers() {
      return anim.key?.decisionNumbers ?? null;
    },
    /** The key plots last drawn. */
    get keyKinds() {
      return anim.key?.kinds ?? null;
    },

    // ------------------------------------------------------------ panels
    /** The packet trace (www/ui/trace-view.js). */
    get trace() {
      return parts.trace;
    },
    /** The load sweep (www/sim/sweep.js). */
    get sweep() {
      return parts.sweeps.sweep;
    },
    get timeControl() {
      return parts.timeControl;
    },
    get liveLoad() {
      return parts.liveLoad;
    },
    get failLinks() {
      return parts.failLinks;
    },
    get cost() {
      return parts.cost();
    },

    // ------------------------------------------------------------ the page
    /** Resolves to 'ok' once the page shows its first experiment and any message about its link, else 'error: …'. */
    loaded: parts.loaded,
    /** The page's address (with the experiment's URL state). */
    url: () => location.href,
    /** What a page opening the current link would refuse or show differently (none: []). */
    linkProblems: () => parts.linkProblems(),
    /** The link carrying the current story's whole document (Share story): {url} or {error}. */
    storyLink: () => parts.storyShare.link(),
    /** What the PNG export draws under the networks. */
    exportLegend: () => parts.exportLegend(),
    /** The PNG export, as a Blob. */
    exportPng: () => parts.exportPng(),
  };
}

/** @typedef {ReturnType<typeof facade>} Hiradix */
