// The experiment the page shows: a simulator config (the CLI's JSON format), optionally one
// parameter varied across side-by-side panes, the speed and the view. Everything the page
// needs to reproduce a run; url-state.js writes it into the URL.
//
// Config paths are the CLI's `--set` paths (`router.vcs`, `topology.k`), and values are
// parsed the same way (JSON if it parses, else a string), so a page's URL can be replayed
// on the command line.

export const MAX_VARIANTS = 3;
export const VARIANT_COLOURS = ['#2563eb', '#e2720b', '#159447'];
export const VARIANT_NAMES = ['A', 'B', 'C'];

export const clone = (x) => (x === undefined ? undefined : JSON.parse(JSON.stringify(x)));

/** Whether `config` reads parameter `spec`: always, unless the catalog gives it a `used_when`. */
export function readsParam(spec, config) {
  const when = spec?.used_when;
  return !when || when.values.includes(getPath(config, when.path));
}

export function getPath(obj, path) {
  let node = obj;
  for (const part of path.split('.')) {
    if (node === null || typeof node !== 'object' || !(part in node)) return undefined;
    node = node[part];
  }
  return node;
}

export function setPath(obj, path, value) {
  const parts = path.split('.');
  let node = obj;
  for (let i = 0; i < parts.length - 1; i++) {
    if (node[parts[i]] === null || typeof node[parts[i]] !== 'object' || Array.isArray(node[parts[i]])) node[parts[i]] = {};
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

/** Leaves of a config as [path, value] (arrays are leaves). */
export function flatten(obj, prefix = '', out = []) {
  for (const [k, v] of Object.entries(obj)) {
    const path = prefix ? `${prefix}.${k}` : k;
    if (v !== null && typeof v === 'object' && !Array.isArray(v)) flatten(v, path, out);
    else out.push([path, v]);
  }
  return out;
}

export function sameValue(a, b) {
  return JSON.stringify(a) === JSON.stringify(b);
}

/** Everything the page knows about the simulator's configuration space (its catalog). */
export class Model {
  constructor(catalog) {
    this.catalog = catalog;
    this.defaults = catalog.default_config;
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
      if (r.families.split(/[ ,]+/).includes(family) && !out.some((x) => x.name === r.name)) out.push(r);
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

  /** Is `path` a settable config path (a leaf of some topology's complete config)? */
  knownPath(path) {
    if (path === 'topology.type') return true;
    if (path.startsWith('topology.')) {
      return this.catalog.topologies.some((t) => path.slice('topology.'.length) in t.default);
    }
    if (path === 'router.buffer_per_port') return true;
    return getPath(this.defaults, path) !== undefined;
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
    view: { metric: 'occupancy', vcCells: true, smooth: true, zoom: 1, cx: 0.5, cy: 0.5 },
    preset: '',
  };
}

/**
 * Speed in cycles per frame. Values ≥ 1 are rounded to whole cycles; below 1 the page
 * advances one cycle every round(1/speed) frames (slow motion). null if not a speed.
 */
export function normaliseSpeed(v) {
  const x = Number(v);
  if (!Number.isFinite(x) || x <= 0) return null;
  if (x >= 1) return Math.min(5000, Math.round(x));
  return 1 / Math.min(120, Math.round(1 / x));
}

export function describeSpeed(speed) {
  if (speed >= 1) return `cycle${speed === 1 ? '' : 's'} per frame`;
  return `= 1 cycle every ${Math.round(1 / speed)} frames`;
}
