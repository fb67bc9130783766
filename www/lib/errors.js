// What the page says about a thrown value. The wasm module throws Errors (wasm-bindgen's
// JsError), arrays of field errors ([{path, message}], src/web/mod.rs) and traps; a
// `catch` sees `unknown`, so the message is read with a check, not assumed.

/**
 * The message of a thrown value: its `message` if it has one, else the value as text.
 * @param {unknown} e
 * @returns {string}
 */
export function messageOf(e) {
  return typeof e === 'object' && e !== null && 'message' in e ? String(e.message) : String(e);
}
