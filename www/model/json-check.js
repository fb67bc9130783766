// Checks on JSON typed into the page (the config box) that JSON.parse does not make: its
// size, how deep it nests and repeated keys. JSON.parse silently keeps the last of two
// equal keys, where the command line refuses a config file that repeats one
// (config::parse_config_document); and a value nested thousands of levels deep parses
// but overflows the stack of whatever walks it recursively (JSON.stringify, a message).
// Everything here is iterative and bounded, whatever the text.

import { clip } from '../lib/dom.js';
import { messageOf } from '../lib/errors.js';

/** The most characters the config box takes: the command line's limit for a config file. */
export const MAX_CONFIG_CHARS = 1 << 20;

/**
 * How deep JSON from the user may nest. A config needs 4 levels (faults → links → a link
 * → its numbers); the limit leaves room and stays far below any stack.
 */
export const MAX_JSON_DEPTH = 16;

/**
 * How deep `value` nests (a number or string is 0, [] or {} is 1), counted without
 * recursion and only up to `limit + 1`: enough to tell whether it is over `limit`.
 */
export function jsonDepth(value, limit = MAX_JSON_DEPTH) {
  let deepest = 0;
  const stack = [[value, 0]];
  while (stack.length) {
    const [v, d] = stack.pop();
    if (v === null || typeof v !== 'object') continue;
    deepest = Math.max(deepest, d + 1);
    if (deepest > limit) return deepest;
    for (const child of Array.isArray(v) ? v : Object.values(v)) stack.push([child, d + 1]);
  }
  return deepest;
}

/**
 * The first problem of `text` (JSON that JSON.parse accepted) that JSON.parse lets
 * through, as {path, message}, or null: a key repeated in one object (path: where, e.g.
 * `router.vcs`), or nesting deeper than `maxDepth` (path: where it got too deep).
 */
export function jsonProblem(text, maxDepth = MAX_JSON_DEPTH) {
  // One entry per open object or array: its path, its keys so far (objects), the index
  // of the next element (arrays) and whether a key comes next (objects).
  const stack = [];
  let key = null; // the key just read, in the innermost object
  const childPath = () => {
    const top = stack[stack.length - 1];
    if (!top) return '';
    const part = top.object ? key : `[${top.index}]`;
    if (top.object) return top.path ? `${top.path}.${part}` : part;
    return `${top.path}${part}`;
  };
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '{' || c === '[') {
      const path = childPath();
      if (stack.length + 1 > maxDepth) {
        return { path: clip(path || '(top level)', 80), message: `nested more than ${maxDepth} levels deep (a config needs at most 4); refused` };
      }
      stack.push({ object: c === '{', path, keys: new Set(), index: 0, expectKey: c === '{' });
    } else if (c === '}' || c === ']') {
      stack.pop();
    } else if (c === ',') {
      const top = stack[stack.length - 1];
      if (top?.object) top.expectKey = true;
      else if (top) top.index++;
    } else if (c === '"') {
      let j = i + 1;
      while (j < text.length && text[j] !== '"') j += text[j] === '\\' ? 2 : 1;
      const top = stack[stack.length - 1];
      if (top?.object && top.expectKey) {
        key = JSON.parse(text.slice(i, j + 1));
        top.expectKey = false;
        if (top.keys.has(key)) {
          return {
            path: clip(childPath(), 80),
            message: `the key '${clip(key, 60)}' is given more than once in the same object (JSON would silently keep the last; the command line refuses a repeated key too)`,
          };
        }
        top.keys.add(key);
      }
      i = j;
    }
  }
  return null;
}

/**
 * The config box's text as a JSON object: {value}, or {error} saying what is wrong — too
 * long, not JSON (the parser's message, with the text it quotes escaped), not an object,
 * too deep or a repeated key (named by its path).
 */
export function parseConfigText(text) {
  if (text.length > MAX_CONFIG_CHARS) return { error: `config is too long (${text.length} characters, at most ${MAX_CONFIG_CHARS})` };
  let value;
  try {
    value = JSON.parse(text);
  } catch (e) {
    return { error: `config is not valid JSON: ${clip(messageOf(e), 200)}` };
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    return { error: 'config must be a JSON object, e.g. {"topology": {"type": "dragonfly"}}' };
  }
  const problem = jsonProblem(text);
  if (problem) return { error: `${problem.path}: ${problem.message}` };
  return { value };
}
