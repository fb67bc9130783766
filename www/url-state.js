// The whole experiment in the URL's query string, readable and shareable:
//
//   ?topology.type=dragonfly&topology.p=4&…&routing.algorithm=ugal_l      config (--set paths)
//   &vary=routing.algorithm&values=ugal_l|ugal_l_cr|ugal_g                 side-by-side panes
//   &speed=5&metric=occupancy&cells=0&zoom=2&center=0.41,0.52&paused=1      speed and view
//   &trace=12@340                                                          packet trace
//   &preset=ugal-l-misjudges                                               the story shown
//
// Only config fields that differ from the defaults are written, as `path=value` exactly as
// the CLI's `--set path=value` takes them. A link with only `preset=…` loads that preset.
// `trace=R@C` follows the next packet generated at router R from cycle C on: the run is
// deterministic, so the link shows the same packet's journey to whoever opens it.

import { formatValue, newExperiment, normaliseSpeed, parseValue, setPath, clone } from './experiment.js';

const PAGE_KEYS = new Set(['preset', 'vary', 'values', 'speed', 'metric', 'cells', 'zoom', 'center', 'paused', 'smooth', 'trace']);

const round = (x, digits) => Number(Number(x).toFixed(digits));

/** The query string (without '?') of an experiment (and of the packet trace `trace`, {router, cycle}). */
export function encodeExperiment(model, exp, { paused = false, trace = null } = {}) {
  const q = new URLSearchParams();
  if (exp.preset) q.set('preset', exp.preset);
  for (const [path, value] of model.diff(exp.config)) q.set(path, formatValue(value));
  if (exp.compare?.values?.length) {
    q.set('vary', exp.compare.param);
    q.set('values', exp.compare.values.map(formatValue).join('|'));
  }
  q.set('speed', String(round(exp.speed, 4)));
  const v = exp.view;
  if (v.metric !== 'occupancy') q.set('metric', v.metric);
  if (!v.vcCells) q.set('cells', '0');
  if (v.smooth === false) q.set('smooth', '0');
  if (Math.abs(v.zoom - 1) > 1e-3 || Math.abs(v.cx - 0.5) > 1e-4 || Math.abs(v.cy - 0.5) > 1e-4) {
    q.set('zoom', String(round(v.zoom, 3)));
    q.set('center', `${round(v.cx, 4)},${round(v.cy, 4)}`);
  }
  if (trace) q.set('trace', `${trace.router}@${trace.cycle}`);
  if (paused) q.set('paused', '1');
  return q.toString();
}

/**
 * Reads an experiment from a query string. Never throws: returns {experiment, problems,
 * paused, trace}, where `problems` lists what could not be used (one sentence each) and the
 * experiment holds everything that could (null for an empty query). `presets` maps preset
 * ids to {experiment}.
 */
export function decodeExperiment(model, search, presets) {
  const problems = [];
  let params;
  try {
    params = new URLSearchParams(search);
  } catch (e) {
    return { experiment: null, problems: [`the link's parameters could not be read (${e.message})`], paused: false };
  }
  const keys = [...params.keys()];
  if (keys.length === 0) return { experiment: null, problems, paused: false };

  const presetId = params.get('preset') ?? '';
  const preset = presetId ? presets.get(presetId) : null;
  if (presetId && !preset) problems.push(`preset: unknown story '${presetId}' (one of: ${[...presets.keys()].join(', ')})`);
  const configKeys = keys.filter((k) => !PAGE_KEYS.has(k));
  let exp;
  if (preset && configKeys.length === 0 && !params.has('vary')) {
    exp = clone(preset.experiment);
  } else {
    // The defaults of the named topology type, then every override.
    const type = params.get('topology.type');
    const known = model.catalog.topologies.map((t) => t.name);
    let config;
    if (type && !known.includes(type)) {
      problems.push(`topology.type: unknown topology '${type}' (one of: ${known.join(', ')})`);
      config = model.defaultsFor(model.defaults.topology.type);
    } else {
      config = model.defaultsFor(type ?? model.defaults.topology.type);
    }
    for (const key of configKeys) {
      if (key === 'topology.type') continue;
      if (!/^[a-z_]+(\.[a-z_0-9]+)*$/.test(key) || !model.knownPath(key)) {
        problems.push(`${key}: unknown parameter, ignored`);
        continue;
      }
      setPath(config, key, parseValue(params.get(key)));
    }
    exp = newExperiment(config);
    if (preset) exp.preset = presetId;
  }

  if (params.has('vary')) {
    const param = params.get('vary');
    const raw = params.get('values') ?? '';
    const values = raw.split('|').filter((s) => s.trim() !== '').map(parseValue);
    if (!model.knownPath(param)) problems.push(`vary: unknown parameter '${param}'; side-by-side mode off`);
    else if (values.length < 2) problems.push(`values: side by side needs at least two values separated by '|', got '${raw}'`);
    else exp.compare = { param, values: values.slice(0, 3) };
  }
  if (params.has('speed')) {
    const s = normaliseSpeed(params.get('speed'));
    if (s === null) problems.push(`speed: '${params.get('speed')}' is not a positive number of cycles per frame`);
    else exp.speed = s;
  }
  if (params.has('metric')) {
    const m = params.get('metric');
    if (/^(occupancy|utilization|vc\d{1,2})$/.test(m)) exp.view.metric = m;
    else problems.push(`metric: unknown link colour '${m}'`);
  }
  if (params.has('cells')) exp.view.vcCells = params.get('cells') !== '0';
  if (params.has('smooth')) exp.view.smooth = params.get('smooth') !== '0';
  if (params.has('zoom')) {
    const z = Number(params.get('zoom'));
    const c = (params.get('center') ?? '0.5,0.5').split(',').map(Number);
    if (!(z > 0) || c.length !== 2 || !c.every(Number.isFinite)) problems.push(`zoom: '${params.get('zoom')}' with center '${params.get('center')}' is not a view`);
    else Object.assign(exp.view, { zoom: z, cx: c[0], cy: c[1] });
  }
  let trace = null;
  if (params.has('trace')) {
    const m = /^(\d{1,9})@(\d{1,12})$/.exec(params.get('trace'));
    if (m) trace = { router: Number(m[1]), cycle: Number(m[2]) };
    else problems.push(`trace: '${params.get('trace')}' is not ROUTER@CYCLE (e.g. 12@340); no packet traced`);
  }
  return { experiment: exp, problems, paused: params.get('paused') === '1', trace };
}
