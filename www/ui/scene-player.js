// Plays a story's scenes (src/story/scenes.rs), one per clicker press: → / PageDown / Space
// (in present mode; PageDown and the ▶ button always) enters the next scene — its view,
// focus, load, failed and restored links, and caption — from where the previous scene stopped
// (the first from cycle 0; a run that went on is rewound there) and runs to its stop: a cycle
// (animated, at the story's speed), or an event the time control runs until (the next
// decision or non-minimal decision at a router, the first saturated channel). A scene with a question shows it first and waits:
// the next press runs on to the stop, which answers it, and the answer and why are shown
// with the decision in the inspector (predict, then watch). ← / PageUp goes back one scene
// by rewinding to where it ended, so going back is exact (at cycle 0, where a rewind keeps the
// changes made at it, by putting the load and links back as they were).

import { buttonById, el, rich, setChildren } from '../lib/dom.js';
import { hasLink } from './faults.js';

const $ = (id) => document.getElementById(id);

/** How long a cycle stop may take to animate before the player stops waiting (ms). */
const CYCLE_WAIT_MS = 10 * 60 * 1000;

/**
 * @typedef {object} SceneHooks
 * @property {(fn: () => Promise<unknown>) => Promise<unknown>} serial queues after the page's experiment changes
 * @property {(cycle: number) => void} untilCycle runs on and pauses at the cycle
 * @property {(view: {metric: string, routers: string, packets: boolean, zoom: number, cx: number, cy: number}) => void} applyView the scene's view and the controls showing it
 * @property {() => void} refocus shows the focus the experiments hold on every pane
 * @property {() => void} updateInspector
 * @property {(text: string | null) => void} notice
 */

export class ScenePlayer {
  /**
   * @param {{experiments: import('../stories/experiment-state.js').ExperimentState, sim: import('../sim/sim-state.js').SimState, run: import('../sim/run-state.js').RunState, view: import('../render/view-state.js').ViewState, timeControl: import('./time-control.js').TimeControl, liveLoad: import('./live-load.js').LiveLoad, failLinks: import('./faults.js').FailLinks}} parts
   * @param {SceneHooks} hooks
   */
  constructor(parts, hooks) {
    this.experiments = parts.experiments;
    this.sim = parts.sim;
    this.run = parts.run;
    this.view = parts.view;
    this.timeControl = parts.timeControl;
    this.liveLoad = parts.liveLoad;
    this.failLinks = parts.failLinks;
    this.hooks = hooks;
    /** The scene shown: -1 before the first (the story's opening picture). */
    this.index = -1;
    /** Whether the shown scene's question waits for its answer (the run to its stop). */
    this.asking = false;
    /** The cycle each played scene stopped at (-1: the opening). */
    this.ends = new Map([[-1, 0]]);
    /** @type {Map<number, {load: number, links: number[][]}>} the load and failed links as each scene was entered */
    this.before = new Map();
    /** The choice the class picked for the shown question, or null. */
    this.picked = null;
    this.busy = false;
    parts.experiments.on('changed', ({ how }) => {
      if (how === 'replaced') this.reset();
    });
  }

  /** The current story's scenes (none without a story). */
  get scenes() {
    return this.experiments.story?.scenes ?? [];
  }

  wire() {
    $('scene-next').addEventListener('click', () => this.next());
    $('scene-prev').addEventListener('click', () => this.previous());
  }

  /** Another experiment: back before the first scene. */
  reset() {
    this.index = -1;
    this.experiments.setScene(-1);
    this.asking = false;
    this.picked = null;
    this.ends = new Map([[-1, 0]]);
    this.before = new Map();
    this.show();
  }

  /** The next press: answers the question asked, else enters the next scene. */
  next() {
    if (this.busy || !this.scenes.length) return;
    if (this.asking) return this.play(this.index, { reveal: true });
    if (this.index + 1 >= this.scenes.length) return;
    return this.play(this.index + 1, { reveal: false });
  }

  /** Back to where the previous scene stopped (the opening before the first). */
  previous() {
    if (this.busy || this.index < 0) return;
    const to = this.index - 1;
    const cycle = this.ends.get(to) ?? 0;
    return this.guard(async () => {
      // A rewind to a cycle keeps what was changed at it (the engine's history), and the
      // next scene changed its load and links at the cycle this one stopped at: back to
      // the cycle before, then one cycle on, is the state this scene stopped in, exactly.
      this.experiments.setScene(to);
      if (cycle > 0) {
        await this.timeControl.rewindTo(cycle - 1);
        await this.runToStop({ until: 'cycle', cycle });
      } else {
        await this.timeControl.rewindTo(0);
        await this.settleAtStart(to);
      }
      this.index = to;
      this.asking = false;
      this.picked = null;
      this.applyViews(to);
      this.afterStop(to);
    });
  }

  /** Enters scene `i` (its view, load and caption); runs to its stop unless it asks first. */
  play(i, { reveal }) {
    return this.guard(async () => {
      const scene = this.scenes[i];
      if (!reveal) {
        // A scene starts where the previous one stopped (the first at cycle 0), whatever ran
        // since (the story plays on as it opens; Run between scenes): its caption describes
        // the run from there to its stop.
        const start = this.ends.get(i - 1) ?? 0;
        if ((this.sim.panes[0]?.now ?? 0) > start) await this.timeControl.rewindTo(start);
        const config = this.experiments.experiment?.config;
        if (config) this.before.set(i, { load: config.traffic.load, links: structuredClone(config.faults?.links ?? []) });
        this.index = i;
        this.experiments.setScene(i);
        this.picked = null;
        this.applyViews(i);
        if (typeof scene.load === 'number') await this.liveLoad.set(scene.load);
        await this.changeLinks(scene);
        if (scene.question) {
          this.asking = true;
          await this.timeControl.pause();
          this.show();
          return;
        }
      }
      this.asking = false;
      this.show();
      await this.runToStop(scene.stop);
      this.ends.set(i, this.sim.panes[0]?.now ?? 0);
      this.afterStop(i);
    });
  }

  /**
   * After a rewind to cycle 0, which keeps what was changed at it: the load and links as
   * they were before scene `to + 1` was entered, undoing what the scenes after `to` changed
   * at cycle 0 (a story played before its run moved).
   * @param {number} to
   */
  async settleAtStart(to) {
    const before = this.before.get(to + 1);
    if (!before) return;
    const played = this.scenes.slice(to + 1, this.index + 1);
    if (played.some((s) => typeof s.load === 'number')) await this.liveLoad.set(before.load);
    for (const s of played) {
      for (const link of [...(s.restore ?? []), ...(s.fail ?? [])]) {
        const refused = await this.failLinks.setLink(link, hasLink(before.links, link));
        if (refused) this.hooks.notice(refused);
      }
    }
  }

  /**
   * The scene's restored, then failed links, in every pane (as the fail-links mode does, so
   * going back rewinds them too). The engine checked them with the story; a refusal is told.
   */
  async changeLinks(scene) {
    for (const [links, fail] of [
      [scene.restore ?? [], false],
      [scene.fail ?? [], true],
    ]) {
      for (const link of links) {
        const refused = await this.failLinks.setLink(link, fail);
        if (refused) this.hooks.notice(refused);
      }
    }
  }

  /** Runs `fn` with the player busy, and shows the scene after. */
  async guard(fn) {
    this.busy = true;
    this.show();
    try {
      await fn();
    } finally {
      this.busy = false;
      this.show();
    }
  }

  /** The story's view with the view changes of scenes 0 … `i`. */
  applyViews(i) {
    const story = this.experiments.story;
    if (!story) return;
    const sv = story.view ?? {};
    const v = {
      metric: sv.metric ?? 'occupancy',
      routers: sv.routers ?? 'fill',
      packets: sv.packets ?? true,
      zoom: sv.zoom ?? 1,
      cx: sv.cx ?? 0.5,
      cy: sv.cy ?? 0.5,
    };
    for (const s of this.scenes.slice(0, i + 1)) {
      for (const k of ['metric', 'routers', 'packets', 'zoom']) if (s.view?.[k] !== undefined && s.view[k] !== null) v[k] = s.view[k];
      if (typeof s.view?.zoom === 'number') [v.cx, v.cy] = s.view.center ?? [0.5, 0.5];
    }
    this.hooks.applyView(v);
    // The focus: the latest scene's that sets one, else the story's.
    const focused = this.scenes
      .slice(0, i + 1)
      .reverse()
      .find((s) => s.focus);
    const before = this.experiments.focus;
    this.experiments.setSceneFocus(focused ? focused.focus : undefined);
    if (this.experiments.focus !== before) this.hooks.refocus();
  }

  /** Runs every pane to the stop: animated to a cycle, else through the time control. */
  async runToStop(stop) {
    if (!this.sim.panes.length) return;
    if (stop.until === 'cycle') {
      const gen = this.sim.gen;
      const now = this.sim.panes[0]?.now ?? 0;
      // Run past it already (the story plays on as it opens): paused, back to it, exactly.
      if (now >= stop.cycle) {
        await this.timeControl.pause();
        if ((this.sim.panes[0]?.now ?? 0) > stop.cycle) await this.timeControl.rewindTo(stop.cycle);
        return;
      }
      this.hooks.untilCycle(stop.cycle);
      const t0 = performance.now();
      // The run pauses itself at the cycle (RunState's until); the player waits for it, and
      // stops waiting when the run was paused before (Pause, a crash): the scene ends there.
      while (this.sim.gen === gen && this.sim.panes.length && (this.sim.panes[0].now < stop.cycle || this.run.running)) {
        if (performance.now() - t0 > CYCLE_WAIT_MS || !this.run.running) return;
        await new Promise((r) => setTimeout(r, 50));
      }
      return;
    }
    if (stop.until === 'saturated') {
      await this.timeControl.runUntil('saturated');
      return;
    }
    // At a router of the first pane: the time control awaits the event there.
    this.view.select({ pane: 0, kind: 'router', index: stop.router });
    this.hooks.updateInspector();
    await this.timeControl.runUntil(stop.until, { quiet: true });
  }

  /** Once scene `i` has stopped: the router it inspects, and the answer to its question. */
  afterStop(i) {
    const scene = this.scenes[i];
    if (scene && typeof scene.inspect === 'number') {
      this.view.select({ pane: 0, kind: 'router', index: scene.inspect });
      this.hooks.updateInspector();
    }
    this.show();
  }

  /** The scene bar: which scene, its caption, its question (and, once run, the answer). */
  show() {
    const scenes = this.scenes;
    const bar = $('scene-bar');
    bar.hidden = scenes.length === 0;
    if (!scenes.length) return;
    const i = this.index;
    const scene = i >= 0 ? scenes[i] : null;
    $('scene-count').textContent = i < 0 ? `${scenes.length} scene${scenes.length === 1 ? '' : 's'}` : `Scene ${i + 1} of ${scenes.length}`;
    setChildren($('scene-caption'), scene ? rich(scene.caption) : ['Press ▶ (or PageDown) for the first scene.']);
    const nextButton = buttonById('scene-next');
    nextButton.textContent = this.asking ? '▶ Reveal' : i < 0 ? '▶ Start' : '▶ Next';
    nextButton.disabled = this.busy || (!this.asking && i + 1 >= scenes.length);
    buttonById('scene-prev').disabled = this.busy || i < 0;
    bar.classList.toggle('busy', this.busy);
    const q = scene?.question ?? null;
    $('scene-question').hidden = !q;
    if (!q) return;
    const answered = !this.asking && !this.busy;
    $('scene-ask').textContent = q.ask;
    setChildren(
      $('scene-choices'),
      q.choices.map((c, j) => {
        const cls = [
          'scene-choice',
          answered && j === q.answer ? 'right' : '',
          answered && j === this.picked && j !== q.answer ? 'wrong' : '',
          j === this.picked ? 'picked' : '',
        ]
          .filter(Boolean)
          .join(' ');
        const b = el('button', { type: 'button', class: cls, 'aria-pressed': String(j === this.picked) }, c);
        b.addEventListener('click', () => {
          if (!this.asking || this.busy) return;
          this.picked = j;
          this.show();
        });
        return el('li', {}, b);
      }),
    );
    $('scene-why').hidden = !answered;
    setChildren($('scene-why'), answered ? [el('b', {}, `Answer: ${q.choices[q.answer]}. `), rich(q.why)] : []);
  }
}
