// The story editor: a panel beside the picture (which stays visible and running) where a
// lecturer writes a story — its title, point, explanation and what to look at (plain text,
// www/stories/story-draft.js turns it into structured text), source, focus (a named selector,
// or channels and routers picked on the picture), key plots, load sweep and scenes — over
// the page's current experiment. Edit story starts from the story shown, New story… from
// the experiment alone. Save builds the document, has the engine check it (checkStory) and
// shows each refusal next to the field its path names, applying nothing; an accepted story
// is registered and applied as an opened one (StoryShare.openChecked), so Share story and
// Download story carry it. Everything typed becomes text nodes or input values only.

import { el, inputById, selectById } from '../lib/dom.js';
import { formatLinks, parseLinks } from './faults.js';
import {
  KEY_PLOTS,
  describePicked,
  draftFromDocument,
  documentFromDraft,
  experimentSection,
  fieldOf,
  focusFromDraft,
  togglePicked,
  zoomOf,
} from '../stories/story-draft.js';

const $ = (id) => document.getElementById(id);

/**
 * @typedef {object} StoryEditorHooks
 * @property {(text: string) => import('../../pkg/hiradix.js').FieldError[]} checkStory the engine's check
 * @property {(doc: any, said: string) => Promise<boolean>} open registers and applies a checked document
 * @property {(focus: any) => void} previewFocus shows a focus on the picture: a document's, false for none, null for the story's own
 */

export class StoryEditor {
  /**
   * @param {{experiments: import('../stories/experiment-state.js').ExperimentState, sim: import('../sim/sim-state.js').SimState, view: import('../render/view-state.js').ViewState}} parts
   * @param {StoryEditorHooks} hooks
   */
  constructor({ experiments, sim, view }, hooks) {
    this.experiments = experiments;
    this.sim = sim;
    this.view = view;
    this.hooks = hooks;
    /** @type {import('../stories/story-draft.js').Draft | null} */
    this.draft = null;
    /**
     * What a field holds that cannot be read (a scene's links or load as typed), by its
     * path: shown next to it until it reads, and Save refuses while any is left.
     * @type {Map<string, string>}
     */
    this.unreadable = new Map();
    /** Whether a click on the picture picks a channel or router for the focus. */
    this.picking = false;
  }

  /** Whether the panel is open. */
  get open() {
    return !$('story-editor').hidden;
  }

  wire() {
    $('btn-story-edit').addEventListener('click', () => this.start(this.experiments.story?.doc ?? null));
    $('btn-story-new').addEventListener('click', () => this.start(null));
    $('editor-close').addEventListener('click', () => this.close());
    $('editor-cancel').addEventListener('click', () => this.close());
    $('editor-save').addEventListener('click', () => this.save());
    $('editor-add-cycle').addEventListener('click', () => this.addCycleScene());
    $('editor-add-decision').addEventListener('click', () => this.addDecisionScene());
    $('editor-add-saturated').addEventListener('click', () => this.addSaturatedScene());
    $('editor-focus').addEventListener('change', () => this.focusChanged());
    $('editor-focus-label').addEventListener('input', () => this.focusChanged());
    $('editor-pick').addEventListener('click', () => this.setPicking(!this.picking));
    $('editor-pick-clear').addEventListener('click', () => {
      if (!this.draft) return;
      this.draft.channels = [];
      this.draft.routers = [];
      this.focusChanged();
    });
    this.experiments.on('changed', () => {
      if (this.open) this.showExperiment();
    });
  }

  /**
   * Opens the panel on a story's document (null: a new story over the experiment shown).
   * @param {any} doc
   */
  start(doc) {
    this.draft = draftFromDocument(doc);
    this.unreadable.clear();
    $('editor-heading').textContent = doc ? `Edit story “${doc.title}”` : 'New story';
    const d = this.draft;
    inputById('editor-title').value = d.title;
    textarea('editor-point').value = d.point;
    textarea('editor-explanation').value = d.explanation;
    textarea('editor-look').value = d.look;
    inputById('editor-sweep').value = d.sweep;
    inputById('editor-paper').value = d.paper;
    inputById('editor-where').value = d.where;
    selectById('editor-focus').value = d.selector;
    inputById('editor-focus-label').value = d.label;
    for (const box of this.keyPlotBoxes()) box.checked = d.keyPlots.includes(box.value);
    this.focusChanged();
    this.showScenes();
    this.showExperiment();
    this.say([]);
    $('story-editor').hidden = false;
    document.body.classList.add('story-editing');
    inputById('editor-title').focus();
  }

  close() {
    $('story-editor').hidden = true;
    document.body.classList.remove('story-editing');
    this.setPicking(false);
    this.draft = null;
    this.hooks.previewFocus(null);
  }

  /** Picking on the picture on or off (only with the picked selector). */
  setPicking(on) {
    this.picking = Boolean(on) && this.draft?.selector === 'picked';
    $('editor-pick').setAttribute('aria-pressed', String(this.picking));
    $('editor-pick').textContent = this.picking ? 'Picking: click channels and routers (click here when done)' : 'Pick on the picture';
    document.body.classList.toggle('focus-picking', this.picking);
  }

  /**
   * A click on the picture while picking: a channel of the first pane's geometry goes into
   * the focus (or out again), a router adds (or removes) every channel out of it.
   * @param {{pane: number, kind: string, index: number}} hit
   */
  pick(hit) {
    const d = this.draft;
    const geo = this.sim.panes[hit.pane]?.view.geo;
    if (!d || !geo) return;
    const picked =
      hit.kind === 'router'
        ? togglePicked(d, { kind: 'router', router: hit.index })
        : togglePicked(d, { kind: 'channel', from: geo.src[hit.index], to: geo.dst[hit.index] });
    d.channels = picked.channels;
    d.routers = picked.routers;
    this.focusChanged();
  }

  /** The focus as the draft has it: the pick row, the picked list and the picture's preview. */
  focusChanged() {
    const d = this.draft;
    if (!d) return;
    d.selector = selectById('editor-focus').value;
    d.label = inputById('editor-focus-label').value;
    const picked = d.selector === 'picked';
    $('editor-pick-row').hidden = !picked;
    if (!picked) this.setPicking(false);
    $('editor-picked').textContent = describePicked(d);
    const focus = focusFromDraft(d);
    const empty = picked && !d.channels.length && !d.routers.length;
    this.hooks.previewFocus(focus && !empty ? focus : false);
  }

  /** @returns {HTMLInputElement[]} */
  keyPlotBoxes() {
    return [...$('editor-key-plots').querySelectorAll('input[type=checkbox]')].map((b) => /** @type {HTMLInputElement} */ (b));
  }

  /** What the story's experiment will be: the page's, as it is when saved. */
  showExperiment() {
    const exp = this.experiments.experiment;
    const model = this.experiments.model;
    if (!exp || !model) return;
    const settings = model
      .diff(exp.config)
      .map(([path, value]) => `${path} = ${typeof value === 'string' ? value : JSON.stringify(value)}`)
      .slice(0, 12);
    const compare = exp.compare
      ? `; side by side: ${exp.compare.param} = ${exp.compare.values.map((v) => (typeof v === 'string' ? v : JSON.stringify(v))).join(' | ')}`
      : '';
    $('editor-experiment').textContent =
      `The page's current experiment, as it is when you save (change it with the controls): ${settings.join(', ')}${compare}; ` +
      `speed ${exp.speed} cycles/frame; links ${exp.view.metric}, routers ${exp.view.routers}, packets ${exp.view.packets ? 'shown' : 'hidden'}.`;
  }

  /** The fields typed so far, into the draft. */
  readFields() {
    const d = this.draft;
    d.title = inputById('editor-title').value;
    d.point = textarea('editor-point').value;
    d.explanation = textarea('editor-explanation').value;
    d.look = textarea('editor-look').value;
    d.sweep = inputById('editor-sweep').value;
    d.paper = inputById('editor-paper').value;
    d.where = inputById('editor-where').value;
    d.selector = selectById('editor-focus').value;
    d.label = inputById('editor-focus-label').value;
    d.keyPlots = this.keyPlotBoxes()
      .filter((b) => b.checked)
      .map((b) => b.value)
      .filter((k) => KEY_PLOTS.includes(k));
  }

  /** The cycle the first pane shows. */
  get cycle() {
    return this.sim.panes[0]?.now ?? 0;
  }

  addCycleScene() {
    const d = this.draft;
    if (!d) return;
    const cycle = this.cycle;
    const last = Math.max(0, ...d.scenes.filter((s) => s.stop.until === 'cycle').map((s) => s.stop.cycle));
    if (cycle <= last) {
      this.say([{ path: 'scenes', message: `the picture is at cycle ${cycle}: a cycle stop must come after the last one (${last}); run on first` }]);
      return;
    }
    d.scenes.push({ caption: '', stop: { until: 'cycle', cycle }, question: null, rest: {} });
    this.say([]);
    this.showScenes();
  }

  addDecisionScene() {
    const d = this.draft;
    if (!d) return;
    const sel = this.view.selection;
    if (!sel || sel.kind !== 'router') {
      this.say([{ path: 'scenes', message: 'click a router on the picture first: the scene runs to its next decision' }]);
      return;
    }
    const until = inputById('editor-nonminimal').checked ? 'nonminimal' : 'decision';
    d.scenes.push({ caption: '', stop: { until, router: sel.index }, question: null, rest: { inspect: sel.index } });
    this.say([]);
    this.showScenes();
  }

  addSaturatedScene() {
    const d = this.draft;
    if (!d) return;
    d.scenes.push({ caption: '', stop: { until: 'saturated' }, question: null, rest: {} });
    this.say([]);
    this.showScenes();
  }

  /** The scenes' list, rebuilt after a scene is added, removed or moved. */
  showScenes() {
    const d = this.draft;
    // The scene fields are made again from the draft, which holds what they last read.
    for (const path of [...this.unreadable.keys()]) if (path.startsWith('scenes[')) this.unreadable.delete(path);
    const list = $('editor-scenes');
    list.replaceChildren(...d.scenes.map((s, i) => this.sceneItem(s, i)));
  }

  /**
   * One scene: its stop, caption, question, and buttons to move or remove it.
   * @param {import('../stories/story-draft.js').DraftScene} s
   * @param {number} i
   */
  sceneItem(s, i) {
    const d = this.draft;
    const n = d.scenes.length;
    const at = `scenes[${i}]`;
    const stop =
      s.stop.until === 'cycle'
        ? `runs to cycle ${s.stop.cycle}`
        : s.stop.until === 'saturated'
          ? 'runs to the first saturated channel'
          : `runs to the next ${s.stop.until === 'nonminimal' ? 'non-minimal ' : ''}decision at router ${s.stop.router}`;
    const button = (text, label, enabled, act) => {
      const b = el('button', { type: 'button', 'aria-label': label, title: label, disabled: !enabled }, text);
      b.addEventListener('click', () => {
        act();
        this.showScenes();
      });
      return b;
    };
    const msg = (path) => el('p', { class: 'field-msg', dataset: { field: path }, role: 'alert', hidden: true });
    const caption = el('textarea', { rows: 2, class: 'scene-caption-text', 'aria-label': `scene ${i + 1} caption` });
    caption.value = s.caption;
    caption.addEventListener('input', () => (s.caption = caption.value));

    const q = s.question;
    const asks = el('input', { type: 'checkbox', class: 'scene-asks' });
    asks.checked = Boolean(q);
    asks.addEventListener('change', () => {
      s.question = asks.checked ? { ask: '', choices: ['', ''], answer: 0, why: '' } : null;
      this.showScenes();
    });
    const question = [];
    if (q) {
      const ask = el('input', { type: 'text', class: 'scene-ask-text', maxlength: 300, 'aria-label': `scene ${i + 1} question` });
      ask.value = q.ask;
      ask.addEventListener('input', () => (q.ask = ask.value));
      const choices = el('textarea', { rows: 3, class: 'scene-choices-text', 'aria-label': `scene ${i + 1} choices, one per line` });
      choices.value = q.choices.join('\n');
      const answer = el('select', { class: 'scene-answer', 'aria-label': `scene ${i + 1} right choice` });
      const fillAnswers = () => {
        const lines = choices.value.split('\n').map((c) => c.trim());
        while (lines.length > 2 && lines[lines.length - 1] === '') lines.pop();
        q.choices = lines;
        q.answer = Math.min(q.answer, Math.max(0, lines.length - 1));
        answer.replaceChildren(...lines.map((c, j) => new Option(`${j + 1}. ${c}`, String(j))));
        answer.value = String(q.answer);
      };
      fillAnswers();
      choices.addEventListener('input', fillAnswers);
      answer.addEventListener('change', () => (q.answer = Number(answer.value)));
      const why = el('textarea', { rows: 2, class: 'scene-why-text', 'aria-label': `scene ${i + 1} why` });
      why.value = q.why;
      why.addEventListener('input', () => (q.why = why.value));
      question.push(
        el('label', { class: 'editor-field' }, 'Ask', ask),
        msg(`${at}.question.ask`),
        el('label', { class: 'editor-field' }, 'Choices (2 to 6, one per line)', choices),
        msg(`${at}.question.choices`),
        el('label', { class: 'editor-field' }, 'The right one', answer),
        msg(`${at}.question.answer`),
        el('label', { class: 'editor-field' }, 'Why (shown with the answer)', why),
        msg(`${at}.question.why`),
      );
    }
    const changes = this.sceneChanges(s, i, msg);
    return el(
      'li',
      { class: 'editor-scene' },
      el(
        'div',
        { class: 'editor-scene-head' },
        el('span', { class: 'scene-stop' }, stop),
        button('↑', `move scene ${i + 1} up`, i > 0, () => d.scenes.splice(i - 1, 2, d.scenes[i], d.scenes[i - 1])),
        button('↓', `move scene ${i + 1} down`, i + 1 < n, () => d.scenes.splice(i, 2, d.scenes[i + 1], d.scenes[i])),
        button('✕', `remove scene ${i + 1}`, true, () => d.scenes.splice(i, 1)),
      ),
      msg(at),
      this.stopField(s, i, msg),
      el('label', { class: 'editor-field' }, 'Caption', caption),
      msg(`${at}.caption`),
      changes,
      el('label', { class: 'editor-check' }, asks, ' ask the class first'),
      question,
      msg(`${at}.question`),
    );
  }

  /**
   * Where scene `i` stops, changed in place: its cycle, or the router whose next decision it
   * runs to (none for the first saturated channel). The engine checks it when the story is
   * saved (cycle stops move forward; the router exists in every pane).
   * @param {any} s
   * @param {number} i
   * @param {(path: string) => HTMLElement} msg
   */
  stopField(s, i, msg) {
    const stop = s.stop;
    if (stop.until === 'saturated') return el('span');
    const [key, label] = stop.until === 'cycle' ? ['cycle', 'Stop at cycle'] : ['router', 'At router'];
    const at = `scenes[${i}].stop.${key}`;
    const box = el('input', {
      type: 'number',
      min: key === 'cycle' ? '1' : '0',
      step: '1',
      class: `scene-stop-${key}`,
      'aria-label': `scene ${i + 1} stop ${key}`,
    });
    box.value = String(stop[key]);
    box.addEventListener('change', () => {
      const v = Number(box.value);
      if (!Number.isSafeInteger(v) || v < (key === 'cycle' ? 1 : 0)) {
        this.say([{ path: at, message: `'${box.value}' is not a ${key === 'cycle' ? 'cycle (a whole number from 1)' : 'router number'}` }]);
        box.value = String(stop[key]);
        return;
      }
      stop[key] = v;
      if (key === 'router' && s.rest) s.rest.inspect = v;
      this.say([]);
      this.showScenes();
    });
    return el('div', {}, el('label', { class: 'editor-field' }, label, box), msg(at));
  }

  /**
   * What changes as scene `i` starts: the offered load, the links' colour, links failed and
   * restored (blank: kept as the previous scene left them).
   * @param {import('../stories/story-draft.js').DraftScene} s
   * @param {number} i
   * @param {(path: string) => HTMLElement} msg
   */
  sceneChanges(s, i, msg) {
    const rest = s.rest ?? (s.rest = {});
    const at = `scenes[${i}]`;
    const load = el('input', {
      type: 'number',
      min: '0.01',
      max: '1',
      step: '0.01',
      class: 'scene-load',
      placeholder: 'keep',
      'aria-label': `scene ${i + 1} offered load`,
    });
    load.value = typeof rest.load === 'number' ? String(rest.load) : '';
    load.addEventListener('input', () => {
      // A number field reads '' both when blank and when what is typed is not a number.
      if (load.validity.badInput) return this.unreadableField(`${at}.load`, 'not a number: a load from 0.01 to 1, or blank to keep the previous scene’s');
      this.unreadableField(`${at}.load`, null);
      if (load.value.trim() === '') delete rest.load;
      else rest.load = Number(load.value);
    });
    const metric = el('select', { class: 'scene-metric', 'aria-label': `scene ${i + 1} link colour` }, new Option('keep', ''));
    for (const o of selectById('link-metric').options) metric.append(new Option(o.text, o.value));
    metric.value = rest.view?.metric ?? '';
    metric.addEventListener('change', () => {
      const view = { ...(rest.view ?? {}) };
      if (metric.value) view.metric = metric.value;
      else delete view.metric;
      if (Object.keys(view).length) rest.view = view;
      else delete rest.view;
    });
    const zoom = el('input', { type: 'checkbox', class: 'scene-zoom' });
    const zoomText = el('span', { class: 'muted' });
    const showZoom = () => {
      const z = rest.view?.zoom;
      zoomText.textContent = typeof z === 'number' ? ` (zoom ${z} at ${(rest.view.center ?? [0.5, 0.5]).join(', ')})` : '';
    };
    zoom.checked = typeof rest.view?.zoom === 'number';
    showZoom();
    zoom.addEventListener('change', () => {
      const view = { ...(rest.view ?? {}) };
      delete view.zoom;
      delete view.center;
      const now = this.experiments.experiment?.view;
      if (zoom.checked && now) Object.assign(view, zoomOf(now));
      if (Object.keys(view).length) rest.view = view;
      else delete rest.view;
      showZoom();
    });
    // The focus from this scene on: the one the Focus fields hold when ticked.
    const focus = el('input', { type: 'checkbox', class: 'scene-focus' });
    const focusText = el('span', { class: 'muted' });
    const showFocus = () => {
      const f = rest.focus;
      focusText.textContent = f ? ` (${f.selector}${f.selector === 'picked' ? `: ${describePicked(f)}` : ''}; “${f.label}”)` : '';
    };
    focus.checked = Boolean(rest.focus);
    showFocus();
    focus.addEventListener('change', () => {
      this.readFields();
      const f = focus.checked && this.draft ? focusFromDraft(this.draft) : null;
      if (f) rest.focus = f;
      else delete rest.focus;
      focus.checked = Boolean(f);
      showFocus();
    });
    const links = (field, label) => {
      const input = el('input', {
        type: 'text',
        class: `scene-${field}`,
        placeholder: 'e.g. 4-5, 5-7',
        autocomplete: 'off',
        'aria-label': `scene ${i + 1} ${label}`,
      });
      input.value = formatLinks(rest[field]);
      const box = msg(`${at}.${field}`);
      input.addEventListener('input', () => {
        const parsed = parseLinks(input.value);
        this.unreadableField(`${at}.${field}`, parsed.error ?? null);
        if (parsed.error) return;
        if (parsed.value.length) rest[field] = parsed.value;
        else delete rest[field];
      });
      return [el('label', { class: 'editor-field' }, label, input), box];
    };
    return el(
      'div',
      { class: 'editor-scene-changes' },
      el(
        'div',
        { class: 'editor-row' },
        el('label', { class: 'editor-field' }, 'Offered load', load),
        el('label', { class: 'editor-field' }, 'Links coloured by', metric),
      ),
      el(
        'label',
        { class: 'editor-check', title: 'Zoom in where the class should look (wheel, drag), then tick this' },
        zoom,
        ' zoom and centre as the picture shows them now',
        zoomText,
      ),
      el(
        'label',
        { class: 'editor-check', title: 'Choose a focus above (e.g. pick channels), then tick this; change the focus above afterwards for the story itself' },
        focus,
        ' from this scene on, case the focus chosen above',
        focusText,
      ),
      msg(`${at}.focus`),
      msg(`${at}.load`),
      msg(`${at}.view`),
      links('fail', 'Links that fail as it starts'),
      links('restore', 'Links restored as it starts'),
    );
  }

  /**
   * Shows each refusal next to its field (the nearest field its path names; the others
   * under the buttons); none: every message hidden.
   * @param {{path: string, message: string}[]} errors
   */
  say(errors) {
    errors = [...[...this.unreadable].map(([path, message]) => ({ path, message })), ...errors];
    const panel = $('story-editor');
    const boxes = new Map([...panel.querySelectorAll('.field-msg')].map((m) => [/** @type {HTMLElement} */ (m).dataset.field, /** @type {HTMLElement} */ (m)]));
    const texts = new Map();
    for (const e of errors) {
      const field = fieldOf(e.path, boxes.keys()) ?? (e.path.startsWith('experiment') ? 'experiment' : '(story)');
      const line = field === e.path || e.path === 'id' ? e.message : `${e.path}: ${e.message}`;
      texts.set(field, [...(texts.get(field) ?? []), e.path === 'id' ? `its id (made from the title): ${line}` : line]);
    }
    for (const [field, box] of boxes) {
      const lines = texts.get(field);
      box.hidden = !lines;
      box.textContent = lines ? lines.join('\n') : '';
    }
  }

  /**
   * Records what the field at `path` holds that cannot be read (null: it reads), said in
   * the field's own message box (the others keep theirs).
   * @param {string} path
   * @param {string | null} problem
   */
  unreadableField(path, problem) {
    if (problem) this.unreadable.set(path, problem);
    else this.unreadable.delete(path);
    const box = [...$('story-editor').querySelectorAll('.field-msg')].find((m) => m instanceof HTMLElement && m.dataset.field === path);
    if (!(box instanceof HTMLElement)) return;
    box.hidden = !problem;
    box.textContent = problem ?? '';
  }

  /**
   * Save: the document checked by the engine; refused while a field cannot be read or the
   * engine refuses it, every problem next to its field and nothing applied; accepted, registered and shown as an opened story.
   * @returns {Promise<boolean>} whether it was saved and shown
   */
  async save() {
    if (!this.draft) return false;
    this.readFields();
    const exp = this.experiments.experiment;
    if (!exp || !this.experiments.model) return false;
    const doc = documentFromDraft(this.draft, experimentSection(this.experiments.model, exp, this.draft.base?.experiment));
    const errors = this.hooks.checkStory(JSON.stringify(doc));
    this.say(errors);
    if (errors.length || this.unreadable.size) return false;
    this.close();
    return this.hooks.open(doc, `Saved the story “${doc.title}”: it is shown, listed under Opened stories, and Share story and Download story carry it.`);
  }
}

/** @param {string} id */
function textarea(id) {
  return /** @type {HTMLTextAreaElement} */ (document.getElementById(id));
}
