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

/** A user-derived string for a message: at most `max` characters (long values elided). */
export function clip(text, max = 120) {
  const s = String(text);
  return s.length <= max ? s : `${s.slice(0, max - 1)}… (${s.length} characters)`;
}
