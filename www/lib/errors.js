// What the page says about a thrown value. The wasm module throws Errors (wasm-bindgen's
// JsError), arrays of field errors (`FieldError[]`: [{path, message}], src/web/mod.rs) and
// traps; a `catch` sees `unknown`, so the message is read with a check, not assumed.

/**
 * The message of a thrown value: field errors as `path: message` lines, else its
 * `message` if it has one, else the value as text.
 * @param {unknown} e
 * @returns {string}
 */
export function messageOf(e) {
  if (Array.isArray(e)) return e.map((x) => (x && typeof x === 'object' && 'path' in x ? `${x.path}: ${x.message}` : String(x))).join('\n');
  return typeof e === 'object' && e !== null && 'message' in e ? String(e.message) : String(e);
}
