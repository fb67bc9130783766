// The experiment form, built entirely from the simulator's catalog (topologies with their
// parameters, routing algorithms per family, traffic patterns, router / traffic /
// measurement parameters with their ranges): nothing here lists a parameter by hand.
// Each control has a message line right below it for the errors that concern its path.

import { describeValue, getPath, readsParam } from '../model/experiment.js';
import { clip, el } from '../lib/dom.js';
import { formatLinks, parseLinks } from './faults.js';

const SECTIONS = [
  { id: 'topology', title: 'Topology', open: true },
  { id: 'routing', title: 'Routing', open: true },
  { id: 'traffic', title: 'Traffic', open: true },
  { id: 'router', title: 'Router', open: false },
  { id: 'faults', title: 'Failed links', open: true },
  { id: 'measurement', title: 'Measurement (sweep) and seed', open: false },
];

const sectionOf = (path) => (path === 'seed' ? 'measurement' : path.split('.')[0]);
export const controlId = (path) => `ctl-${path.replace(/[^a-z0-9]+/gi, '-')}`;

/** Parses a control's raw text for a parameter kind; returns {value} or {error}. */
export function parseControl(spec, raw) {
  const text = raw === null || raw === undefined ? '' : String(raw).trim();
  // Optional parameters (null by default): empty means "unset".
  if (spec.unset && (text === '' || text === 'null')) return { value: null };
  switch (spec.kind) {
    case 'int':
    case 'float': {
      if (text === '') return { error: 'enter a number' };
      const x = Number(text);
      if (!Number.isFinite(x)) return { error: `'${clip(text, 60)}' is not a number` };
      if (spec.kind === 'int' && !Number.isInteger(x)) return { error: `must be a whole number, got ${clip(text, 60)}` };
      if (x < spec.min || x > spec.max) return { error: `must be between ${spec.min} and ${spec.max}, got ${clip(text, 60)}` };
      return { value: x };
    }
    case 'int_list': {
      const parts = text
        .replace(/^\[|\]$/g, '')
        .split(/[\s,]+/)
        .filter(Boolean);
      if (!parts.length) return { error: 'enter one or more whole numbers, e.g. 8,8,8' };
      const xs = parts.map(Number);
      if (!xs.every((x) => Number.isInteger(x))) return { error: `'${clip(text, 60)}' is not a list of whole numbers (e.g. 8,8,8)` };
      const bad = xs.find((x) => x < spec.min || x > spec.max);
      if (bad !== undefined) return { error: `every value must be between ${spec.min} and ${spec.max}, got ${bad}` };
      return { value: xs };
    }
    case 'link_list':
      // Set by clicking links (✂), or typed: "0-1, 5-9/1" or [[0,1],[5,9,1]].
      return parseLinks(text, spec.max);
    case 'int_triples':
      return parseTriples(text, spec.max);
    case 'enum':
      if (!spec.options.includes(text)) return { error: `must be one of ${spec.options.join(', ')}, got '${clip(text, 60)}'` };
      return { value: text };
    default:
      return { value: text };
  }
}

/**
 * A list of [a, b, n] entries (the dragonfly's `topology.taper`: groups a and b keep n
 * channels), typed as "0-1:1, 2-3:1" or [[0,1,1],[2,3,1]]; empty is none.
 */
export function parseTriples(raw, max) {
  const text = String(raw ?? '').trim();
  const example = 'e.g. 0-1:1, 2-3:1 (groups 0 and 1 keep 1 channel, …)';
  if (text === '' || text === '[]') return { value: [] };
  let entries;
  if (text.startsWith('[')) {
    try {
      entries = JSON.parse(text);
    } catch {
      return { error: `'${clip(text, 60)}' is not a list of entries, ${example}` };
    }
    if (!Array.isArray(entries) || !entries.every((e) => Array.isArray(e) && e.length === 3)) {
      return { error: `'${clip(text, 60)}' is not a list of [group, group, kept] entries, ${example}` };
    }
  } else {
    entries = [];
    for (const token of text
      .replace(/\s*([-:])\s*/g, '$1')
      .split(/[\s,;]+/)
      .filter(Boolean)) {
      const m = /^(\d{1,6})-(\d{1,6}):(\d{1,6})$/.exec(token);
      if (!m) return { error: `'${clip(token, 40)}' is not an entry, ${example}` };
      entries.push(m.slice(1).map(Number));
    }
  }
  const bad = entries.flat().find((x) => !Number.isInteger(x) || x < 0 || x > max);
  if (bad !== undefined) return { error: `every number must be a whole number from 0 to ${max}, got ${describeValue(bad)}` };
  return { value: entries };
}

/** The text a `parseTriples` control shows for a list of entries. */
export const formatTriples = (entries) => entries.map(([a, b, n]) => `${a}-${b}:${n}`).join(', ');

export class Controls {
  /** `onChange(path, value)` is called with a parsed, range-checked value. */
  constructor(root, model, { onChange }) {
    this.root = root;
    this.model = model;
    this.onChange = onChange;
    this.rows = new Map(); // path → {row, input, msg, spec, range}
    this.builtFor = null;
  }

  // The controls for a config: the selects, the topology's own parameters, then every
  // catalog parameter.
  specsFor(config) {
    const m = this.model;
    const cat = m.catalog;
    const routings = m.routingsFor(m.familyOf(config));
    return [
      { path: 'topology.type', label: 'network', kind: 'select', options: cat.topologies.map((t) => [t.name, t.name.replace(/_/g, ' '), t.description]) },
      ...(m.topologyEntry(config.topology.type)?.params ?? []),
      { path: 'routing.algorithm', label: 'algorithm', kind: 'select', options: routings.map((r) => [r.name, r.name, r.description]) },
      { path: 'traffic.pattern', label: 'pattern', kind: 'select', options: cat.patterns.map((p) => [p.name, p.name.replace(/_/g, ' '), p.description]) },
      ...cat.params,
    ];
  }

  build(config) {
    this.root.replaceChildren();
    this.rows.clear();
    const bodies = new Map();
    for (const s of SECTIONS) {
      const body = el('div', { class: 'ctl-section-body' });
      this.root.append(el('details', { class: 'ctl-section', 'data-section': s.id, open: s.open }, [el('summary', { text: s.title }), body]));
      bodies.set(s.id, body);
    }
    for (const spec of this.specsFor(config)) bodies.get(sectionOf(spec.path))?.append(this.makeRow(spec));
    this.builtFor = this.keyOf(config);
  }

  keyOf(config) {
    return `${config.topology.type}|${this.model.familyOf(config)}`;
  }

  makeRow(spec) {
    const id = controlId(spec.path);
    const msg = el('div', { class: 'ctl-msg', id: `${id}-msg`, role: 'alert', hidden: true });
    let input;
    let range = null;
    if (spec.kind === 'select' || spec.kind === 'enum') {
      input = el('select', { id, 'aria-describedby': msg.id });
      const opts = spec.kind === 'enum' ? spec.options.map((o) => [o, o.replace(/_/g, ' '), '']) : spec.options;
      for (const [value, label, title] of opts) input.append(el('option', { value, text: label, title: title || undefined }));
      input.addEventListener('change', () => this.commit(spec, input.value));
    } else if (spec.kind === 'int_list') {
      input = el('input', {
        id,
        type: 'text',
        inputmode: 'numeric',
        'aria-describedby': msg.id,
        placeholder: spec.unset ? `empty: ${spec.unset}` : 'e.g. 8,8,8',
      });
      input.addEventListener('change', () => this.commit(spec, input.value));
    } else if (spec.kind === 'int_triples') {
      input = el('input', { id, type: 'text', 'aria-describedby': msg.id, placeholder: 'none — e.g. 0-1:1, 2-3:1' });
      input.addEventListener('change', () => this.commit(spec, input.value));
    } else if (spec.kind === 'link_list') {
      input = el('input', { id, type: 'text', 'aria-describedby': msg.id, placeholder: 'none — e.g. 0-1, 5-9/1, or click links (✂)' });
      input.addEventListener('change', () => this.commit(spec, input.value));
    } else {
      input = el('input', {
        id,
        type: 'number',
        min: spec.min,
        max: spec.max,
        step: spec.kind === 'int' ? '1' : 'any',
        'aria-describedby': msg.id,
        // Optional parameters: empty = the default the catalog describes.
        placeholder: spec.unset ? `default: ${spec.unset}` : undefined,
      });
      input.addEventListener('change', () => this.commit(spec, input.value));
      if (spec.path === 'traffic.load') {
        range = el('input', { id: `${id}-range`, type: 'range', min: spec.min, max: spec.max, step: '0.01', 'aria-label': 'offered load' });
        range.addEventListener('input', () => {
          input.value = Number(range.value).toFixed(2);
        });
        range.addEventListener('change', () => this.commit(spec, range.value));
      }
    }
    const when = spec.used_when ? ` (read only with ${spec.used_when.path} = ${spec.used_when.values.join(' | ')})` : '';
    const help = `${spec.unset ? `${spec.help} (empty: ${spec.unset})` : spec.help}${when}`;
    const label = el('label', { for: id, text: spec.label, title: help ? `${spec.path}: ${help}` : spec.path });
    const field = el('div', { class: 'ctl-field' }, range ? [range, input] : [input]);
    const row = el('div', { class: 'ctl', 'data-path': spec.path }, [label, field, msg]);
    this.rows.set(spec.path, { row, input, msg, spec, range });
    return row;
  }

  commit(spec, raw) {
    const parsed = parseControl(spec, raw);
    if (parsed.error) {
      this.showMessage(spec.path, parsed.error);
      return;
    }
    this.showMessage(spec.path, null);
    this.onChange(spec.path, parsed.value);
  }

  /**
   * Shows a config in the form (rebuilding it when the network type changed). A parameter
   * that only some configurations read (the catalog's `used_when`, e.g. UGAL-L_CR's t_crt0)
   * is hidden unless one of `readers` — the panes' configs — reads it, it is the parameter
   * the panes vary, or it has a message.
   */
  show(config, { readers = [config], varied = null } = {}) {
    if (this.keyOf(config) !== this.builtFor) this.build(config);
    for (const [path, { row, spec }] of this.rows) {
      row.hidden = !readers.some((c) => readsParam(spec, c)) && path !== varied && !row.classList.contains('invalid');
    }
    for (const [path, { input, range, spec }] of this.rows) {
      const v = getPath(config, path);
      if (v === undefined || v === null) {
        input.value = '';
        continue;
      }
      if (spec.kind === 'link_list') input.value = Array.isArray(v) ? formatLinks(v) : String(v);
      else if (spec.kind === 'int_triples') input.value = Array.isArray(v) ? formatTriples(v) : String(v);
      else input.value = spec.kind === 'int_list' ? (Array.isArray(v) ? v.join(',') : String(v)) : String(v);
      if (range) range.value = String(v);
    }
  }

  showMessage(path, message) {
    const r = this.rows.get(path);
    if (!r) return false;
    r.msg.textContent = message ?? '';
    r.msg.hidden = !message;
    r.row.classList.toggle('invalid', Boolean(message));
    if (message) r.row.hidden = false;
    return true;
  }

  clearErrors() {
    for (const path of this.rows.keys()) this.showMessage(path, null);
  }

  /** The control an error path belongs to: itself, an ancestor, or its section's select. */
  rowFor(path) {
    let p = path.replace(/\[\d+\]/g, '');
    while (p) {
      if (this.rows.has(p)) return p;
      const cut = p.lastIndexOf('.');
      if (cut < 0) break;
      p = p.slice(0, cut);
    }
    const fallback = [
      ['router.buffer_per_port', 'router.buffer_depth'],
      ['topology', 'topology.type'],
      ['routing', 'routing.algorithm'],
      ['traffic', 'traffic.pattern'],
      ['router', 'router.vcs'],
      ['measurement', 'measurement.warmup'],
    ];
    for (const [prefix, target] of fallback) {
      if ((path === prefix || path.startsWith(`${prefix}.`)) && this.rows.has(target)) return target;
    }
    return null;
  }

  /**
   * Shows errors ([{path, message}]) next to their controls, prefixed by `prefix` (the
   * side-by-side pane they concern). Returns the ones that have no control.
   */
  setErrors(errors, prefix = '') {
    const unplaced = [];
    const byRow = new Map();
    for (const e of errors) {
      const target = this.rowFor(e.path);
      if (!target) {
        unplaced.push(e);
        continue;
      }
      const text = `${prefix}${target === e.path ? '' : `${e.path}: `}${e.message}`;
      byRow.set(target, byRow.has(target) ? `${byRow.get(target)}\n${text}` : text);
    }
    for (const [path, text] of byRow) this.showMessage(path, text);
    return unplaced;
  }

  /** Marks the parameter that differs between the side-by-side panes. */
  setVaried(path) {
    for (const [p, { row }] of this.rows) row.classList.toggle('varied', p === path);
  }
}
