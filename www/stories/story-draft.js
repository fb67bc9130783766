// What the story editor (www/ui/story-editor.js) writes: a story document (src/story/mod.rs)
// built from the editor's fields and the page's current experiment, and back. No DOM; unit-
// tested in Node (tests/page/story-draft.test.mjs).
//
// The explanation, captions and answers are typed as plain text and become structured text
// (strings and {b}, {i}, {sub} segments, rendered as text, never HTML):
//
//   a blank line         a new paragraph (the text keeps "\n\n"; the page shows the break)
//   a line "- item"      a list item (the text keeps it as a line "• item")
//   **words**            {b: "words"}
//   *words*              {i: "words"}
//   x_{sub}              "x", {sub: "sub"}
//   \* \_ \\             a literal *, _ or \
//
// An emphasis marker opens only before a non-space and closes only after one, so "q * H"
// stays as typed; an unclosed marker is kept as text. Other single line breaks inside a
// paragraph are spaces, as in Markdown. richToText writes structured text back in this form,
// so an existing story's text loads into the editor.

import { setPath } from '../model/experiment.js';

/** The named selectors a focus can take (src/story/mod.rs, `Selector`). */
export const SELECTORS = ['shift_direct', 'group_shift_global', 'swap2_minimal', 'failed_link_detours', 'slice', 'picked'];

/** The key plots a story can show (src/story/mod.rs, `KeyPlot`). */
export const KEY_PLOTS = ['classes', 'decisions', 'throughput', 'latency', 'fig9', 'batch', 'unroutable'];

/** A bullet: how a list item's line starts in structured text. */
const BULLET = '• ';

/**
 * Plain text as structured text (see the header): a string when it has no emphasis, else an
 * array of strings and segments.
 * @param {string} text
 * @returns {any}
 */
export function textToRich(text) {
  const paragraphs = String(text)
    .replace(/\r\n?/g, '\n')
    .split(/\n[ \t]*\n/)
    .map((block) =>
      block
        .split('\n')
        .map((l) => l.trim())
        .filter((l) => l.length > 0),
    )
    .filter((lines) => lines.length > 0)
    .map((lines) => {
      let out = '';
      let prevItem = true;
      for (const line of lines) {
        const item = /^-\s+/.test(line);
        const body = item ? BULLET + line.replace(/^-\s+/, '') : line;
        if (out === '') out = body;
        else out += item || prevItem ? `\n${body}` : ` ${body}`;
        prevItem = item;
      }
      return out;
    });
  return simplify(parseInline(paragraphs.join('\n\n')));
}

/** Merges adjacent strings; one string alone is the string. */
function simplify(parts) {
  const out = [];
  for (const p of parts) {
    if (typeof p === 'string' && typeof out[out.length - 1] === 'string') out[out.length - 1] += p;
    else if (p !== '') out.push(p);
  }
  if (out.length === 0) return '';
  if (out.length === 1 && typeof out[0] === 'string') return out[0];
  return out;
}

const isSpace = (c) => c === undefined || /\s/.test(c);

/**
 * The inline emphasis of `s` as parts (strings and segments). A recursive descent whose
 * failures (a marker that never closes) are remembered by position and closer, so that no
 * text makes it retry without end.
 * @param {string} s
 */
function parseInline(s) {
  const failed = new Set();
  /**
   * Parts from `i` up to `closer` (null: the end): {parts, end} past the closer, or null.
   * @returns {{parts: any[], end: number} | null}
   */
  const parse = (i, closer) => {
    const key = `${i}:${closer}`;
    if (failed.has(key)) return null;
    const parts = [];
    let text = '';
    const flush = () => {
      if (text) parts.push(text);
      text = '';
    };
    while (i < s.length) {
      const c = s[i];
      if (closer !== null && s.startsWith(closer, i) && (closer === '}' || !isSpace(s[i - 1])) && (text || parts.length)) {
        // '**' closes bold, but '*' inside it must not close on its first star.
        flush();
        return { parts, end: i + closer.length };
      }
      if (c === '\\' && i + 1 < s.length && '*_\\{}'.includes(s[i + 1])) {
        text += s[i + 1];
        i += 2;
        continue;
      }
      const open = s.startsWith('**', i) ? '**' : c === '*' ? '*' : s.startsWith('_{', i) ? '_{' : null;
      if (open && (open === '_{' || !isSpace(s[i + open.length]))) {
        const close = open === '_{' ? '}' : open;
        const inner = parse(i + open.length, close);
        if (inner) {
          flush();
          const tag = open === '**' ? 'b' : open === '*' ? 'i' : 'sub';
          parts.push({ [tag]: simplify(inner.parts) });
          i = inner.end;
          continue;
        }
        text += open;
        i += open.length;
        continue;
      }
      text += c;
      i += 1;
    }
    if (closer !== null) {
      failed.add(key);
      return null;
    }
    flush();
    return { parts, end: i };
  };
  return parse(0, null).parts;
}

/**
 * Structured text as the editor's plain text (textToRich's inverse on what it writes).
 * @param {any} rich
 * @returns {string}
 */
export function richToText(rich) {
  const walk = (t) => {
    if (Array.isArray(t)) return t.map(walk).join('');
    if (t !== null && typeof t === 'object') {
      if (Object.hasOwn(t, 'b')) return `**${walk(t.b)}**`;
      if (Object.hasOwn(t, 'i')) return `*${walk(t.i)}*`;
      if (Object.hasOwn(t, 'sub')) return `_{${walk(t.sub)}}`;
      return '';
    }
    return String(t ?? '').replace(/[\\*]|_\{|[{}]/g, (m) => `\\${m}`);
  };
  return walk(rich)
    .split('\n')
    .map((line) => (line.startsWith(BULLET) ? `- ${line.slice(BULLET.length)}` : line))
    .join('\n');
}

/**
 * A story's id from its title: lower-case letters, digits and dashes (at most 64), or ''
 * when the title has none.
 * @param {string} title
 */
export function storyIdFrom(title) {
  return String(title)
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 64)
    .replace(/-+$/, '');
}

/**
 * The page view's zoom and centre as a story's view holds them (`zoom`, `center`), rounded
 * to what the picture can tell apart.
 * @param {{zoom?: number, cx?: number, cy?: number}} view
 */
export function zoomOf(view) {
  const round = (v, digits) => Math.round(v * 10 ** digits) / 10 ** digits;
  return { zoom: round(view.zoom ?? 1, 3), center: [round(view.cx ?? 0.5, 4), round(view.cy ?? 0.5, 4)] };
}

/**
 * The experiment section of a document from the page's experiment: the config as it differs
 * from the defaults of its network (`model.diff`), the compared parameter and values, the
 * speed and the view (link colour, routers, packets). `keep`: the edited story's experiment,
 * whose colour ranges and load sweep are kept.
 * @param {import('../model/experiment.js').Model} model
 * @param {{config: any, compare: any, speed: number, view: any}} exp
 * @param {any} [keep]
 */
export function experimentSection(model, exp, keep = null) {
  const config = {};
  for (const [path, value] of model.diff(exp.config)) setPath(config, path, JSON.parse(JSON.stringify(value)));
  const x = { config };
  if (exp.compare?.param && exp.compare.values?.length) x.compare = { param: exp.compare.param, values: JSON.parse(JSON.stringify(exp.compare.values)) };
  x.speed = exp.speed;
  x.view = { metric: exp.view.metric, routers: exp.view.routers, packets: exp.view.packets };
  // The zoom and centre the lecturer left the picture at (none: the whole network).
  const { zoom, center } = zoomOf(exp.view);
  if (zoom !== 1 || center[0] !== 0.5 || center[1] !== 0.5) Object.assign(x.view, { zoom, center });
  if (keep?.ranges) x.ranges = keep.ranges;
  if (keep?.sweep) x.sweep = keep.sweep;
  return x;
}

/**
 * @typedef {object} DraftScene
 * @property {string} caption the caption as plain text
 * @property {any} stop the scene's stop ({until: 'cycle', cycle} or {until: 'decision' | 'nonminimal', router}, …)
 * @property {{ask: string, choices: string[], answer: number, why: string} | null} question why as plain text
 * @property {any} [rest] the scene's other fields (view, load, inspect), kept as they were
 */

/**
 * @typedef {object} Draft
 * @property {string} title
 * @property {string} point
 * @property {string} explanation plain text
 * @property {string} look what to look at: plain text, one item per paragraph
 * @property {string} sweep the load sweep offered beside the story ('' for none)
 * @property {string} paper
 * @property {string} where
 * @property {string} selector a selector of SELECTORS, or '' for none
 * @property {string} label the focus's label
 * @property {number[][]} channels the picked focus's channels, [from router, to router]
 * @property {number[]} routers the picked focus's routers (every channel out of each)
 * @property {string[]} keyPlots
 * @property {DraftScene[]} scenes
 * @property {any} [base] the edited story's document (its focus details, colour ranges and notes are kept)
 */

/** Defaults of a new story's source: its own, since no paper states it. */
export const OWN_SOURCE = { paper: 'own experiment', where: '—' };

/**
 * The editor's fields of a story document (or a new story's).
 * @param {any} doc a story document, or null
 * @returns {Draft}
 */
export function draftFromDocument(doc) {
  if (!doc) {
    return {
      title: '',
      point: '',
      explanation: '',
      look: '',
      sweep: '',
      paper: OWN_SOURCE.paper,
      where: OWN_SOURCE.where,
      selector: '',
      label: '',
      channels: [],
      routers: [],
      keyPlots: [],
      scenes: [],
      base: null,
    };
  }
  return {
    title: doc.title,
    point: doc.point,
    explanation: richToText(doc.explanation),
    look: (doc.look ?? []).map(richToText).join('\n\n'),
    sweep: doc.experiment?.sweep ?? '',
    paper: doc.source.paper,
    where: doc.source.where,
    selector: doc.focus?.selector ?? '',
    label: doc.focus?.label ?? '',
    channels: (doc.focus?.channels ?? []).map((c) => [...c]),
    routers: [...(doc.focus?.routers ?? [])],
    keyPlots: [...(doc.key_plots ?? [])],
    scenes: (doc.scenes ?? []).map((s) => {
      const { caption, stop, question, ...rest } = s;
      return {
        caption: richToText(caption),
        stop: { ...stop },
        question: question ? { ask: question.ask, choices: [...question.choices], answer: question.answer, why: richToText(question.why) } : null,
        rest,
      };
    }),
    base: doc,
  };
}

/**
 * The draft's focus as a document holds it (null: none); the edited story's pattern, slice,
 * dimming and router scale are kept while its selector is.
 * @param {Draft} d
 */
export function focusFromDraft(d) {
  if (!d.selector) return null;
  const base = d.base ?? null;
  const kept = base?.focus?.selector === d.selector ? base.focus : null;
  const focus = { selector: d.selector };
  if (d.selector === 'slice') focus.slice = kept?.slice ?? 0;
  if (d.selector === 'picked') {
    focus.channels = d.channels.map((c) => [...c]);
    focus.routers = [...d.routers];
  }
  if (kept?.pattern) focus.pattern = kept.pattern;
  focus.label = d.label.trim();
  if (kept?.dim !== undefined) focus.dim = kept.dim;
  if (kept?.router_scale !== undefined) focus.router_scale = kept.router_scale;
  return focus;
}

/**
 * The story document of a draft over an experiment section (experimentSection): what
 * checkStory checks and Share story carries.
 * @param {Draft} d
 * @param {any} experiment
 */
export function documentFromDraft(d, experiment) {
  const base = d.base ?? null;
  /** @type {any} */
  const doc = {
    hiradix_story: 1,
    id: storyIdFrom(d.title),
    title: d.title.trim(),
    source: { paper: d.paper.trim(), where: d.where.trim() },
    point: d.point.trim(),
    explanation: textToRich(d.explanation),
  };
  const look = lookItems(d.look ?? '');
  if (look.length) doc.look = look.map(textToRich);
  doc.experiment = { ...experiment };
  const sweep = (d.sweep ?? '').trim();
  if (sweep) doc.experiment.sweep = sweep;
  else delete doc.experiment.sweep;
  const focus = focusFromDraft(d);
  if (focus) doc.focus = focus;
  if (d.keyPlots.length) doc.key_plots = KEY_PLOTS.filter((k) => d.keyPlots.includes(k));
  if (d.scenes.length) {
    doc.scenes = d.scenes.map((s) => {
      const scene = { caption: textToRich(s.caption), stop: s.stop, ...(s.rest ?? {}) };
      if (s.question) {
        scene.question = {
          ask: s.question.ask.trim(),
          choices: s.question.choices.map((c) => c.trim()),
          answer: s.question.answer,
          why: textToRich(s.question.why),
        };
      }
      return scene;
    });
  }
  if (base?.notes?.length) doc.notes = base.notes;
  return doc;
}

/**
 * The items of the editor's "what to look at" text: its paragraphs (a blank line between).
 * @param {string} text
 */
export function lookItems(text) {
  return String(text)
    .replace(/\r\n?/g, '\n')
    .split(/\n[ \t]*\n/)
    .map((item) => item.trim())
    .filter((item) => item.length > 0);
}

/**
 * The field an engine refusal belongs to: its path or the nearest enclosing one among
 * `fields` (the id is the title's, as it is made from it); null when none is.
 * @param {string} path e.g. `scenes[1].question.choices[0]`
 * @param {Iterable<string>} fields
 */
export function fieldOf(path, fields) {
  const known = new Set(fields);
  const aliases = { id: 'title' };
  let p = aliases[path] ?? path;
  for (;;) {
    if (known.has(p)) return p;
    const cut = Math.max(p.lastIndexOf('.'), p.lastIndexOf('['));
    if (cut <= 0) return null;
    p = p.slice(0, cut);
  }
}

/**
 * The picked focus with a click on the picture toggled in it: a channel [from, to] (the
 * same pair again takes it out), or a router (every channel out of it).
 * @param {{channels: number[][], routers: number[]}} picked
 * @param {{kind: 'channel', from: number, to: number} | {kind: 'router', router: number}} hit
 */
export function togglePicked(picked, hit) {
  if (hit.kind === 'router') {
    const has = picked.routers.includes(hit.router);
    return { channels: picked.channels, routers: has ? picked.routers.filter((r) => r !== hit.router) : [...picked.routers, hit.router] };
  }
  const same = (c) => c[0] === hit.from && c[1] === hit.to;
  const has = picked.channels.some(same);
  return { channels: has ? picked.channels.filter((c) => !same(c)) : [...picked.channels, [hit.from, hit.to]], routers: picked.routers };
}

/**
 * The picked focus in words: "channels 0→1, 2→3; routers 5" (none: "nothing picked yet").
 * @param {{channels: number[][], routers: number[]}} picked
 */
export function describePicked(picked) {
  const parts = [];
  if (picked.channels.length) parts.push(`channel${picked.channels.length > 1 ? 's' : ''} ${picked.channels.map(([a, b]) => `${a}→${b}`).join(', ')}`);
  if (picked.routers.length)
    parts.push(
      `router${picked.routers.length > 1 ? 's' : ''} ${picked.routers.join(', ')} (every channel out of ${picked.routers.length > 1 ? 'each' : 'it'})`,
    );
  return parts.length ? parts.join('; ') : 'nothing picked yet';
}
