// Building the page's DOM without markup. Text (anything from a URL, the JSON box, the
// engine's messages or its snapshots) only ever becomes text nodes or attribute values, so
// nothing the page shows can be parsed as HTML — together with the Content-Security-Policy
// in index.html, a mistake here cannot inject markup or script. No innerHTML anywhere.

/**
 * An element: `el('td', {class: 'num', title: '…'}, 'text', child, [more, children])`.
 * Attributes: `class`, `text` (textContent), `style` (an object assigned through CSSOM,
 * which the CSP allows, unlike a style="" attribute), `dataset` (an object), anything else
 * via setAttribute (true = present, false / null / undefined = absent). Children: strings
 * and numbers become text nodes, nodes are appended, arrays are flattened, null / undefined
 * / false are skipped.
 */
export function el(tag, attrs = {}, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs ?? {})) {
    if (v === undefined || v === null || v === false) continue;
    if (k === 'text') e.textContent = String(v);
    else if (k === 'class') e.className = v;
    else if (k === 'style') Object.assign(e.style, v);
    else if (k === 'dataset') Object.assign(e.dataset, v);
    else e.setAttribute(k, v === true ? '' : String(v));
  }
  e.append(...nodes(children));
  return e;
}

/** Children as nodes (see el). */
export function nodes(children) {
  const out = [];
  for (const c of [children].flat(Infinity)) {
    if (c === null || c === undefined || c === false) continue;
    out.push(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return out;
}

/**
 * Replaces `parent`'s children with `children` unless they are equal (isEqualNode): a
 * panel refreshed every frame keeps its DOM while nothing changed, so a button under the
 * pointer stays the one the user presses. Returns whether it replaced them.
 */
export function setChildren(parent, children) {
  const next = nodes(children);
  const cur = parent.childNodes;
  if (cur.length === next.length && next.every((n, i) => n.isEqualNode(cur[i]))) return false;
  parent.replaceChildren(...next);
  return true;
}

/**
 * Static text with emphasis, in a structured form instead of HTML: a string, or an array
 * of strings and {b}, {i}, {sub} segments (each again such text), e.g.
 * ['UGAL-', {b: ['L', {sub: 'CR'}]}, ' senses…'].
 */
export function rich(text) {
  if (Array.isArray(text)) return text.map(rich);
  if (text !== null && typeof text === 'object') {
    const tag = ['b', 'i', 'sub'].find((t) => Object.hasOwn(text, t));
    if (tag) return el(tag, {}, rich(text[tag]));
    return [];
  }
  return String(text);
}

/** A pane's colour swatch (coloured through CSSOM: the CSP allows no style attributes). */
export function swatch(colour, inline = false) {
  return el('span', { class: 'pane-swatch', style: inline ? { display: 'inline-block', background: colour } : { background: colour } });
}

// Characters that would act rather than show in a message: C0 and C1 controls, DEL, the
// line and paragraph separators, bidirectional overrides and isolates (U+202E turns the
// text after it around), zero-width characters, the byte-order mark and lone surrogates.
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const INVISIBLE = /[\u0000-\u001f\u007f-\u009f\u00ad\u061c\u180e\u200b-\u200f\u2028-\u202e\u2060-\u206f\ufeff\ufff9-\ufffb]/;
const NAMED = { '\n': '\\n', '\r': '\\r', '\t': '\\t' };

/** One character as a message shows it: itself, or an escape such as \u{1b} (Rust's {:?} form). */
const shown = (c) => (INVISIBLE.test(c) || (c.length === 1 && /[\ud800-\udfff]/.test(c)) ? (NAMED[c] ?? `\\u{${c.codePointAt(0).toString(16)}}`) : c);

/**
 * A user-derived string for a message: control and invisible formatting characters shown
 * as escapes (\u{1b}, \u{202e}, \n …), so a value can neither forge lines, reorder the text
 * around it nor hide, and at most about `max` characters, a longer value elided with its
 * length ("… (N characters)").
 */
export function clip(text, max = 120) {
  const s = String(text);
  let out = '';
  let cut = 0; // the longest whole-character prefix that leaves room for the ellipsis
  for (const c of s) {
    const next = shown(c);
    if (out.length + next.length > max) return `${out.slice(0, cut)}… (${s.length} characters)`;
    out += next;
    if (out.length <= max - 1) cut = out.length;
  }
  return out;
}

/**
 * The element of index.html with this id, checked to be a `type` (e.g. HTMLInputElement),
 * so its properties (`value`, `checked`, `disabled`…) are typed. A missing or different
 * element is a bug in the page, reported by name.
 * @template {HTMLElement} T
 * @param {string} id
 * @param {new (...args: any[]) => T} type
 * @returns {T}
 */
export function byId(id, type) {
  const e = document.getElementById(id);
  if (!(e instanceof type)) throw new Error(`the page has no ${type.name} #${id}`);
  return e;
}

/** @param {string} id */
export const inputById = (id) => byId(id, HTMLInputElement);
/** @param {string} id */
export const selectById = (id) => byId(id, HTMLSelectElement);
/** @param {string} id */
export const buttonById = (id) => byId(id, HTMLButtonElement);
/** @param {string} id */
export const canvasById = (id) => byId(id, HTMLCanvasElement);
