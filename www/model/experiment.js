// The experiment the page shows: a simulator config (the CLI's JSON format), optionally one
// parameter varied across side-by-side panes, the speed and the view. Everything the page
// needs to reproduce a run; url-state.js writes it into the URL.
//
// Config paths are the CLI's `--set` paths (`router.vcs`, `topology.k`), and values are
// parsed the same way (JSON if it parses, else a string), so a page's URL can be replayed
// on the command line.

import { clip } from '../lib/dom.js';
import { MAX_JSON_DEPTH, jsonDepth } from './json-check.js';

export const MAX_VARIANTS = 3;
// Okabe–Ito blue, orange and bluish green: three hues a deuteranope or protanope still tells
// apart (blue, yellow, grey), at three different lightnesses.
export const VARIANT_COLOURS = ['#0072b2', '#e69f00', '#009e73'];
export const VARIANT_NAMES = ['A', 'B', 'C'];

export const clone = (x) => (x === undefined ? undefined : JSON.parse(JSON.stringify(x)));

/** Whether `config` reads parameter `spec`: always, unless the catalog gives it a `used_when`. */
export function readsParam(spec, config) {
  const when = spec?.used_when;
  return !when || when.values.includes(getPath(config, when.path));
}

// Keys that reach an object's prototype machinery: never a config path's part. The page
// only looks paths up in Maps of the catalog's own paths, so none of these can arrive
// from a link or the JSON box; setPath refusing them is the second line of defence.
const PROTO_KEYS = new Set(['__proto__', 'constructor', 'prototype']);

/** The value at a dotted path, following own properties only (undefined if absent). */
export function getPath(obj, path) {
  let node = obj;
  for (const part of path.split('.')) {
    if (node === null || typeof node !== 'object' || !Object.hasOwn(node, part)) return undefined;
    node = node[part];
  }
  return node;
}

/** Sets a dotted path (creating plain objects on the way); throws on a prototype key. */
export function setPath(obj, path, value) {
  const parts = path.split('.');
  if (parts.some((p) => PROTO_KEYS.has(p))) throw new Error(`refused to set config path '${path}'`);
  let node = obj;
  for (let i = 0; i < parts.length - 1; i++) {
    const next = Object.hasOwn(node, parts[i]) ? node[parts[i]] : undefined;
    if (next === null || typeof next !== 'object' || Array.isArray(next)) node[parts[i]] = {};
    node = node[parts[i]];
  }
  node[parts[parts.length - 1]] = value;
}

/** A `--set` value: JSON when it parses (numbers, arrays, booleans, null), else a string. */
export function parseValue(raw) {
  const text = String(raw).trim();
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

export function formatValue(v) {
  return typeof v === 'string' ? v : JSON.stringify(v);
}

// No config path is deeper than `topology.k`; objects nested deeper (a hostile JSON box)
// are leaves, refused as values, rather than recursed into without bound.
const MAX_DEPTH = 4;

/** Leaves of a config as [path, value] (arrays are leaves). */
export function flatten(obj, prefix = '', out = [], depth = 1) {
  for (const [k, v] of Object.entries(obj)) {
    const path = prefix ? `${prefix}.${k}` : k;
    if (v !== null && typeof v === 'object' && !Array.isArray(v) && depth < MAX_DEPTH) flatten(v, path, out, depth + 1);
    else out.push([path, v]);
  }
  return out;
}

/**
 * Whether `value` has the type a parameter `spec` takes ({kind, unset}: int, float,
 * int_list, link_list, int_triples, enum, name — a catalog name such as a routing algorithm —, bool); null when it
 * does, else what is wrong. Only the type: ranges and every other rule are the engine's
 * (the same checks as the CLI), so a URL or the JSON box never holds an object, a
 * non-finite number or anything else the engine's JSON would read differently
 * (JSON.stringify writes Infinity and NaN as null, i.e. "unset"). Looks no deeper than a
 * parameter's type, so a value nested 10 000 levels deep is refused like any other.
 */
export function typeProblem(spec, value) {
  if (value === null) return spec.unset || spec.kind === 'any' ? null : 'must be set (null is not a value here)';
  switch (spec.kind) {
    case 'int':
    case 'float':
      if (typeof value !== 'number') return `must be a number, got ${describeValue(value)}`;
      return Number.isFinite(value) ? null : `must be a finite number, got ${describeValue(value)}`;
    case 'int_list':
      if (!Array.isArray(value)) return `must be a list of whole numbers such as [4,4,4], got ${describeValue(value)}`;
      return value.every((x) => typeof x === 'number' && Number.isFinite(x))
        ? null
        : `must be a list of whole numbers such as [4,4,4], got ${describeValue(value)}`;
    case 'int_triples':
    case 'link_list':
      // [[router, router], [router, router, trunk], …] or [[group, group, kept], …]: the
      // engine checks the numbers.
      if (!Array.isArray(value) || !value.every((l) => Array.isArray(l) && l.every((x) => typeof x === 'number' && Number.isFinite(x)))) {
        return spec.kind === 'int_triples'
          ? `must be a list of entries such as [[0,1,1]], got ${describeValue(value)}`
          : `must be a list of links such as [[0,1],[5,9,1]], got ${describeValue(value)}`;
      }
      return null;
    case 'enum':
    case 'name':
      if (typeof value !== 'string') return `must be a name, got ${describeValue(value)}`;
      // A name the catalog does not list is refused here, not only by the engine: a value
      // the engine never sees (the base of a parameter the panes vary) must not survive
      // into the page's link.
      return !spec.options || spec.options.includes(value) ? null : `unknown name ${describeValue(value)} (one of: ${[...new Set(spec.options)].join(', ')})`;
    case 'bool':
      return typeof value === 'boolean' ? null : `must be true or false, got ${describeValue(value)}`;
    default:
      return typeof value === 'object' ? `must be a number, list or name, got ${describeValue(value)}` : null;
  }
}

/**
 * A value in a message: its JSON (or its text, quoted), with control characters escaped
 * and at most 80 characters; a list or object nested too deep to write out is described.
 */
export function describeValue(value) {
  if (typeof value === 'string') return `'${clip(value, 78)}'`;
  if (value !== null && typeof value === 'object' && jsonDepth(value) > MAX_JSON_DEPTH) {
    return `${Array.isArray(value) ? 'a list' : 'an object'} nested more than ${MAX_JSON_DEPTH} levels deep`;
  }
  // Non-finite numbers as themselves (JSON would write null).
  const numbers = (k, v) => (typeof v === 'number' && !Number.isFinite(v) ? `#${v}#` : v);
  const text = (JSON.stringify(value, numbers) ?? String(value)).replace(/"#(-?Infinity|NaN)#"/g, '$1');
  return clip(text, 80);
}

// A spec for a config leaf the catalog has no parameter entry for, from its default value.
/**
 * A parameter's declaration as the catalog gives it (src/config/schema.rs, `Param`), or as
 * the page infers it from a default value (only `kind`).
 * @typedef {object} ParamSpec
 * @property {string} kind int, float, int_list, enum, name (a catalog name), bool, link_list, int_triples or any
 * @property {string} [path]
 * @property {string} [label]
 * @property {number} [min]
 * @property {number} [max]
 * @property {string[]} [options] the allowed values of an enum or name
 * @property {string} [help]
 * @property {string | null} [unset] what leaving an optional parameter empty means
 * @property {{path: string, values: string[]} | null} [used_when] the configurations that read it
 */

/** @returns {ParamSpec} */
function specFromDefault(value) {
  if (Array.isArray(value)) return { kind: 'int_list' };
  if (typeof value === 'number') return { kind: 'float' };
  if (typeof value === 'string') return { kind: 'name' };
  if (typeof value === 'boolean') return { kind: 'bool' };
  return { kind: 'any' };
}

/** A failed link [a, b] or [a, b, t] with a ≤ b, trunk 0 left out (`faults.links`). */
export function normaliseLink(link) {
  const [x, y, t = 0] = link;
  const a = Math.min(x, y);
  const b = Math.max(x, y);
  return t ? [a, b, t] : [a, b];
}

/** A failed link's key: the same for [a, b] and [b, a]. */
export const linkKey = (link) => normaliseLink(link).join('-');

export function sameValue(a, b) {
  return JSON.stringify(a) === JSON.stringify(b);
}

/** Everything the page knows about the simulator's configuration space (its catalog). */
export class Model {
  constructor(catalog) {
    this.catalog = catalog;
    this.defaults = catalog.default_config;
    // Every settable path with its spec, in Maps (an exact lookup: no key is read through
    // a prototype): `specs` for the paths every network has, `topologySpecs` per network
    // type for its topology.* paths.
    /** @type {Map<string, ParamSpec>} */
    this.specs = new Map();
    for (const [path, value] of flatten(this.defaults)) {
      if (!path.startsWith('topology.')) this.specs.set(path, specFromDefault(value));
    }
    this.specs.set('routing.algorithm', { kind: 'name', options: catalog.routings.map((r) => r.name) });
    this.specs.set('traffic.pattern', { kind: 'name', options: catalog.patterns.map((p) => p.name) });
    for (const p of catalog.params) this.specs.set(p.path, p);
    this.typeSpec = { kind: 'name', options: catalog.topologies.map((t) => t.name) };
    this.topologySpecs = new Map();
    for (const t of catalog.topologies) {
      /** @type {Map<string, ParamSpec>} */
      const m = new Map([['topology.type', this.typeSpec]]);
      for (const [path, value] of flatten(t.default, 'topology')) if (!m.has(path)) m.set(path, specFromDefault(value));
      for (const p of t.params ?? []) m.set(p.path, p);
      this.topologySpecs.set(t.name, m);
    }
  }

  /** The spec of config path `path` on a network of type `type`, or undefined if it has none. */
  specFor(path, type) {
    if (path === 'topology.type') return this.typeSpec;
    if (path.startsWith('topology.')) return this.topologySpecs.get(type)?.get(path);
    return this.specs.get(path);
  }

  /**
   * What is wrong with setting `path` to `value` on a network of type `type`, before the
   * engine sees it: an unknown path or a value of the wrong type. null if nothing.
   */
  entryProblem(path, value, type) {
    // Under an unknown network type the engine refuses topology.type itself, by name.
    if (path !== 'topology.type' && path.startsWith('topology.') && !this.topologySpecs.has(type)) return null;
    const spec = this.specFor(path, type);
    if (!spec) return path.startsWith('topology.') ? `not a parameter of the ${type.replace(/_/g, ' ')} network` : 'unknown parameter';
    // The algorithms are those of the network's family (the catalog lists every family's).
    const family = path === 'routing.algorithm' && typeof value === 'string' ? this.topologyEntry(type)?.family : null;
    const names = family ? this.routingsFor(family).map((r) => r.name) : [];
    if (names.length && !names.includes(value)) {
      return `unknown name ${describeValue(value)} on the ${type.replace(/_/g, ' ')} network (one of: ${names.join(', ')})`;
    }
    return typeProblem(spec, value);
  }

  /**
   * The problems of a partial config (the JSON box) as [{path, message}]: unknown paths
   * and values of the wrong type, checked before anything is built from it.
   */
  configProblems(partial) {
    const type = partial.topology?.type ?? this.defaults.topology.type;
    const problems = [];
    for (const [path, value] of flatten(partial)) {
      const problem = this.entryProblem(path, value, type);
      if (problem) problems.push({ path, message: problem });
    }
    return problems;
  }

  topologyEntry(type) {
    return this.catalog.topologies.find((t) => t.name === type);
  }

  familyOf(config) {
    return this.topologyEntry(config.topology?.type)?.family;
  }

  /** Routing algorithms of a family, each name once. */
  routingsFor(family) {
    const out = [];
    for (const r of this.catalog.routings) {
      if (r.family === family && !out.some((x) => x.name === r.name)) out.push(r);
    }
    return out;
  }

  /** The default config with the topology of `type` (its catalog default). */
  defaultsFor(type) {
    const cfg = clone(this.defaults);
    const entry = this.topologyEntry(type);
    if (entry) cfg.topology = clone(entry.default);
    return cfg;
  }

  /** A complete config: `partial` laid over the defaults of its topology type. */
  complete(partial = {}) {
    const cfg = this.defaultsFor(partial.topology?.type ?? this.defaults.topology.type);
    for (const [path, value] of flatten(partial)) setPath(cfg, path, clone(value));
    return cfg;
  }

  /** Is `path` a settable config path on a network of type `type`? */
  knownPath(path, type) {
    return this.specFor(path, type) !== undefined;
  }

  /** The config paths that differ from the defaults (topology.type always included). */
  diff(config) {
    const baseMap = new Map(flatten(this.defaultsFor(config.topology.type)));
    const out = [['topology.type', config.topology.type]];
    for (const [path, value] of flatten(config)) {
      if (path === 'topology.type') continue;
      if (!baseMap.has(path) || !sameValue(baseMap.get(path), value)) out.push([path, value]);
    }
    return out;
  }

  /** The parameters that can be varied side by side: [{path, label, options}]. */
  variableParams(config) {
    const out = [
      { path: 'routing.algorithm', label: 'routing algorithm', options: this.routingsFor(this.familyOf(config)).map((r) => r.name) },
      { path: 'traffic.pattern', label: 'traffic pattern', options: this.catalog.patterns.map((p) => p.name) },
    ];
    const entry = this.topologyEntry(config.topology.type);
    for (const p of [...(entry?.params ?? []), ...this.catalog.params]) {
      out.push({ path: p.path, label: p.label, kind: p.kind, options: p.kind === 'enum' ? p.options : null, spec: p });
    }
    return out;
  }

  /** The per-pane configs of an experiment: [{name, colour, label, value, config}]. */
  variants(exp) {
    if (!exp.compare || !exp.compare.values?.length) {
      return [{ name: 'A', colour: VARIANT_COLOURS[0], label: '', value: undefined, config: clone(exp.config) }];
    }
    return exp.compare.values.slice(0, MAX_VARIANTS).map((value, i) => {
      const config = clone(exp.config);
      setPath(config, exp.compare.param, clone(value));
      return { name: VARIANT_NAMES[i], colour: VARIANT_COLOURS[i], label: `${exp.compare.param} = ${formatValue(value)}`, value, config };
    });
  }
}

/** A fresh experiment around `config`. */
export function newExperiment(config) {
  return {
    config,
    compare: null,
    speed: 1,
    view: { metric: 'occupancy', vcCells: true, smooth: true, zoom: 1, cx: 0.5, cy: 0.5, routers: 'fill', packets: true },
    preset: '',
  };
}

/**
 * Speed in cycles per frame. Values ≥ 1 are rounded to whole cycles; below 1 the page
 * advances one cycle every round(1/speed) frames (slow motion). null if not a speed.
 */
export const MAX_SPEED = 5000;
export const MIN_SPEED = 1 / 120;

export function normaliseSpeed(v) {
  const x = Number(v);
  if (!Number.isFinite(x) || x <= 0) return null;
  if (x >= 1) return Math.min(MAX_SPEED, Math.round(x));
  return 1 / Math.min(1 / MIN_SPEED, Math.round(1 / x));
}

/** The zoom the picture can show (1 = the whole network fitted), links and wheel alike. */
export const MIN_ZOOM = 0.25;
export const MAX_ZOOM = 64;
export const clampZoom = (z) => Math.min(MAX_ZOOM, Math.max(MIN_ZOOM, z));

/** A speed as a number of cycles per frame: 5, or 1/8 for one cycle every 8 frames. */
export const speedText = (s) => (s >= 1 ? String(s) : `1/${Math.round(1 / s)}`);

/**
 * A speed typed or read from a link: {speed, problem}. `speed` is null when the text is
 * not a speed; `problem` says what is wrong (the text quoted), null when nothing is, or
 * that an out-of-range speed was brought to the nearest one.
 */
export function readSpeed(raw) {
  const text = String(raw);
  const speed = normaliseSpeed(text);
  if (speed === null) return { speed, problem: `'${clip(text, 60)}' is not a positive number of cycles per frame` };
  const x = Number(text);
  if (x > MAX_SPEED || (x < 1 && Math.round(1 / x) > 1 / MIN_SPEED)) {
    return { speed, problem: `'${clip(text, 60)}' is outside 1/${1 / MIN_SPEED} to ${MAX_SPEED} cycles per frame; ${speedText(speed)} used` };
  }
  return { speed, problem: null };
}

export function describeSpeed(speed) {
  if (speed >= 1) return `cycle${speed === 1 ? '' : 's'} per frame`;
  return `= 1 cycle every ${Math.round(1 / speed)} frames`;
}
