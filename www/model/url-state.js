// The whole experiment in the URL's query string, readable and shareable:
//
//   ?topology.type=dragonfly&topology.p=4&…&routing.algorithm=ugal_l      config (--set paths)
//   &vary=routing.algorithm&values=ugal_l|ugal_l_cr|ugal_g                 side-by-side panes
//   &speed=5&metric=occupancy&cells=0&zoom=2&center=0.41,0.52&paused=1      speed and view
//   &routers=nonmin&packets=0                                              router colour, packets
//   &trace=12@340                                                          packet trace
//   &preset=ugal-l-misjudges                                               the story shown
//   &present=1                                                             present mode
//   ?story=z:<base64url> | ?story=stories/week3.json                       an opened story
//   &embed=1                                                               embedded (picture, point, run controls)
//
// Only config fields that differ from the defaults are written, as `path=value` exactly as
// the CLI's `--set path=value` takes them. A link with only `preset=…` loads that preset.
// `embed=1` is not part of the experiment: a link with only it opens as one without any.
// `trace=R@C` follows the next packet generated at router R from cycle C on: the run is
// deterministic, so the link shows the same packet's journey to whoever opens it.
//
// `story=` carries a story document that is not one of the page's own (www/stories/share.js):
// the whole document compressed ("z:" and deflate-raw as base64url, at most 16 000
// characters: Share story writes such a link) or the address of a document hosted on the
// page's site (a relative URL such as stories/week3.json, same origin only). The page opens
// it before reading the rest of the link (splitStoryParam): it registers the story for the
// session, and `preset=` then names it, whatever the link said (withPreset), so the rest
// (changed settings, view, speed, trace) applies to it as to a built-in story. While an
// opened story is shown, the address bar carries its `story=` first — what it was opened
// from: the link's own payload, the hosted address, or for a file the document compressed —
// so a reload or Copy link reopens it. A file's document too large for a link (past 16 000
// characters compressed) is not carried: the address bar then holds the experiment without
// `preset=`, and Download story saves the document. A refused `story=` (the notice says why)
// leaves nothing of the link applied: the page opens its first story.

import { MAX_VARIANTS, MAX_ZOOM, MIN_ZOOM, clampZoom, formatValue, newExperiment, parseValue, readSpeed, setPath, speedText, clone } from './experiment.js';
import { clip } from '../lib/dom.js';
import { messageOf } from '../lib/errors.js';

const PAGE_KEYS = new Set([
  'preset',
  'vary',
  'values',
  'speed',
  'metric',
  'cells',
  'zoom',
  'center',
  'paused',
  'smooth',
  'trace',
  'present',
  'embed',
  'routers',
  'packets',
]);

const round = (x, digits) => Number(Number(x).toFixed(digits));

/**
 * The query string (without '?') of an experiment (and of the packet trace `trace`,
 * {router, cycle}), after the opened story's `story=` value when given (see the header).
 */
export function encodeExperiment(model, exp, { paused = false, trace = null, present = false, embed = false, story = null } = {}) {
  const q = new URLSearchParams();
  if (story) q.set('story', story);
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
  if (v.routers === 'nonmin') q.set('routers', 'nonmin');
  if (v.packets === false) q.set('packets', '0');
  // The zoom the picture shows (the canvas clamps it) and a centre the reader accepts,
  // rounded to what a link needs: written as read back.
  const zoom = round(clampZoom(v.zoom), 3);
  const [cx, cy] = [v.cx, v.cy].map((c) => round(Math.min(MAX_CENTRE, Math.max(-MAX_CENTRE, c)), 4));
  if (Math.abs(zoom - 1) > 1e-3 || Math.abs(cx - 0.5) > 1e-4 || Math.abs(cy - 0.5) > 1e-4) {
    q.set('zoom', String(zoom));
    q.set('center', `${cx},${cy}`);
  }
  if (trace) q.set('trace', `${trace.router}@${trace.cycle}`);
  if (paused) q.set('paused', '1');
  if (present) q.set('present', '1');
  if (embed) q.set('embed', '1');
  return [...q].map(([k, v]) => `${linkText(k)}=${k === 'story' ? storyText(v) : linkText(v)}`).join('&');
}

// A story's value in a link: also its ':' and '/' as they are ("z:…", stories/week3.json).
const storyText = (s) => linkText(s).replace(/%(3A|2F)/g, (m) => decodeURIComponent(m));

// The key of one `key=value` pair of a query string, or null when it cannot be decoded.
function pairKey(pair) {
  const key = pair.split('=', 1)[0].replace(/\+/g, ' ');
  try {
    return decodeURIComponent(key);
  } catch {
    return null;
  }
}

/**
 * Splits the opened story's `story=` off a query string (see the header): {story, rest,
 * problems, error}, `story` its value (null without one) and `rest` the query without it,
 * every other pair exactly as it was (decodeExperiment reads it); `error` when the value
 * cannot be read at all. Never throws.
 * @param {string} search
 * @returns {{story: string | null, rest: string, problems: string[], error: string | null}}
 */
export function splitStoryParam(search) {
  const text = search.startsWith('?') ? search.slice(1) : search;
  const pairs = text.split('&');
  const isStory = pairs.map((p) => pairKey(p) === 'story');
  if (!isStory.includes(true)) return { story: null, rest: search, problems: [], error: null };
  const values = pairs.filter((_, i) => isStory[i]).map((p) => readValue(p.slice(p.indexOf('=') + 1 || p.length)));
  const problems = values.length > 1 ? ['story: given more than once; the first value is used'] : [];
  const story = values[0];
  if (story === null) return { story: null, rest: '', problems, error: "the link's story= value could not be read (bad percent-encoding)" };
  return { story, rest: pairs.filter((_, i) => !isStory[i]).join('&'), problems, error: null };
}

// A value of a query string's pair as URLSearchParams reads it ('+' is a space), or null.
function readValue(raw) {
  try {
    return decodeURIComponent(raw.replace(/\+/g, ' '));
  } catch {
    return null;
  }
}

/** A query string with `preset=` set to `id` (every other pair as it was). */
export function withPreset(search, id) {
  const text = search.startsWith('?') ? search.slice(1) : search;
  const rest = text.split('&').filter((p) => p !== '' && pairKey(p) !== 'preset');
  return [`preset=${linkText(id)}`, ...rest].join('&');
}

// A key or value in a link: percent-encoded, except the characters lists are written
// with ([ ] , |), which a URL's query may hold as they are. The link stays readable
// (faults.links=[[0,1],[5,9,1]], values=min|val), a third as long as with every bracket
// and comma escaped, and reads back the same.
const linkText = (s) => encodeURIComponent(s).replace(/%(5B|5D|2C|7C)/g, (m) => decodeURIComponent(m));

// A share link is short (a full experiment is well under 2 000 characters); longer values
// are refused before they are parsed, so a hostile link cannot make the page parse, copy
// or print megabytes. The lists of failed links (faults.links, and `values` when the panes
// compare it) grow with every link clicked, 6 to 12 characters a link ([12,345],): they
// may take the whole link, MAX_QUERY_CHARS, about 2 000 failed links. (A network of the
// page may have more links than that, but failing most of them disconnects it.) Copy
// link reads its own link back and warns the sharer of anything over these limits.
export const MAX_VALUE_CHARS = 2000;
export const MAX_QUERY_CHARS = 20_000;
const LIST_KEYS = new Set(['faults.links', 'topology.taper', 'values']);

/** The most characters a link's value for `key` may have. */
export const maxValueChars = (key) => (LIST_KEYS.has(key) ? MAX_QUERY_CHARS : MAX_VALUE_CHARS);

// A view's centre in a link: within 100 unit squares of the picture.
const MAX_CENTRE = 100;

/**
 * Reads an experiment from a query string. Never throws: returns {experiment, problems,
 * paused, present, embed, trace}, where `problems` lists what could not be used (one sentence each, with
 * any text from the link shortened) and the experiment holds everything that could (null
 * for an empty query). `presets` maps preset ids to {experiment}.
 *
 * Every config key is looked up in the catalog's own paths (for the link's network type),
 * every value must parse to the type its parameter takes (see typeProblem): an unknown
 * key, a prototype key such as __proto__ or a value of the wrong type is reported and
 * left out. The engine then checks the values themselves, as it does the CLI's.
 */
export function decodeExperiment(model, search, presets) {
  const problems = [];
  if (search.length > MAX_QUERY_CHARS) {
    return {
      experiment: null,
      problems: [`the link is too long (${search.length} characters, at most ${MAX_QUERY_CHARS}); nothing in it was used`],
      paused: false,
    };
  }
  let params;
  try {
    params = new URLSearchParams(search);
  } catch (e) {
    return { experiment: null, problems: [`the link's parameters could not be read (${messageOf(e)})`], paused: false };
  }
  const keys = [...new Set(params.keys())];
  if (keys.length === 0) return { experiment: null, problems, paused: false };
  const embed = readEmbed(params, problems);
  if (keys.every((k) => k === 'embed')) return { experiment: null, problems, paused: false, embed };
  for (const key of keys) {
    if (params.getAll(key).length > 1) problems.push(`${keyName(key)}: given more than once; the first value is used`);
  }
  // The link's values, each read once; an over-long one is refused (and reported) here.
  const raw = new Map();
  for (const key of keys) {
    const value = params.get(key);
    const max = maxValueChars(key);
    if (value.length > max) problems.push(`${keyName(key)}: value too long (${value.length} characters, at most ${max}); ignored`);
    else raw.set(key, value);
  }
  const get = (key) => raw.get(key) ?? null;
  const has = (key) => raw.has(key);

  const presetId = get('preset') ?? '';
  const preset = presetId ? presets.get(presetId) : null;
  if (presetId && !preset) problems.push(`preset: unknown story '${clip(presetId, 60)}' (one of: ${[...presets.keys()].join(', ')})`);
  const configKeys = keys.filter((k) => !PAGE_KEYS.has(k));
  let exp;
  if (preset && configKeys.length === 0 && !has('vary')) {
    exp = clone(preset.experiment);
  } else {
    exp = newExperiment(configFromLink(model, configKeys, get, problems));
    if (preset) exp.preset = presetId;
  }
  if (has('vary')) exp.compare = compareFromLink(model, exp.config, get('vary'), get('values') ?? '', problems);
  else if (has('values')) problems.push('values: read only together with vary; ignored');
  readView(exp, get, has, problems);
  let trace = null;
  if (has('trace')) {
    const m = /^(\d{1,9})@(\d{1,12})$/.exec(get('trace'));
    if (m) trace = { router: Number(m[1]), cycle: Number(m[2]) };
    else problems.push(`trace: '${clip(get('trace'), 60)}' is not ROUTER@CYCLE (e.g. 12@340); no packet traced`);
  }
  const paused = get('paused') === '1';
  if (has('paused') && !['0', '1'].includes(get('paused'))) problems.push(`paused: '${clip(get('paused'), 60)}' is not 0 or 1; ignored`);
  const present = get('present') === '1';
  if (has('present') && !['0', '1'].includes(get('present'))) problems.push(`present: '${clip(get('present'), 60)}' is not 0 or 1; ignored`);
  return { experiment: exp, problems, paused, present, embed, trace };
}

/**
 * Whether a link asks for the embedded page (`embed=1`: the picture, the story's point and
 * the run controls, for an iframe); read before anything else is, so the page never shows
 * its chrome first. A value other than 0 or 1 is reported in `problems` (when given).
 * @param {URLSearchParams} params
 * @param {string[] | null} problems
 */
export function readEmbed(params, problems = null) {
  const v = params.get('embed');
  if (v === null) return false;
  if (v !== '0' && v !== '1') problems?.push(`embed: '${clip(v, 60)}' is not 0 or 1; ignored`);
  return v === '1';
}

// A link's key in a message.
const keyName = (key) => (key === '' ? '(a parameter without a name)' : clip(key, 60));

// The config of a link: the defaults of its network type, then every override that names
// a parameter of that network and has the right type.
function configFromLink(model, configKeys, get, problems) {
  const known = model.catalog.topologies.map((t) => t.name);
  let type = get('topology.type') ?? model.defaults.topology.type;
  if (!known.includes(type)) {
    problems.push(`topology.type: unknown topology '${clip(type, 60)}' (one of: ${known.join(', ')})`);
    type = model.defaults.topology.type;
  }
  const config = model.defaultsFor(type);
  for (const key of configKeys) {
    if (key === 'topology.type') continue;
    const text = get(key);
    if (text === null) continue; // too long: reported already
    const value = parseValue(text);
    const problem = model.entryProblem(key, value, type);
    if (problem) problems.push(`${keyName(key)}: ${problem}; ignored`);
    else setPath(config, key, value);
  }
  return config;
}

// Side by side from a link: the parameter must be one the page can vary for this config,
// with two or three values of its type.
function compareFromLink(model, config, param, raw, problems) {
  if (param === null) return null; // too long: reported already
  const spec = model.variableParams(config).find((p) => p.path === param);
  if (!spec) {
    problems.push(`vary: '${clip(param, 60)}' is not a parameter the panes can vary; side-by-side mode off`);
    return null;
  }
  const values = raw
    .split('|')
    .filter((s) => s.trim() !== '')
    .map(parseValue);
  if (values.length < 2) {
    problems.push(`values: side by side needs at least two values separated by '|', got '${clip(raw, 60)}'; side-by-side mode off`);
    return null;
  }
  if (values.length > MAX_VARIANTS)
    problems.push(`values: at most ${MAX_VARIANTS} values side by side, got ${values.length}; the first ${MAX_VARIANTS} are used`);
  const used = values.slice(0, MAX_VARIANTS);
  const type = config.topology.type;
  for (const v of used) {
    const problem = model.entryProblem(param, v, type);
    if (problem) {
      problems.push(`values: ${param} ${problem}; side-by-side mode off`);
      return null;
    }
  }
  return { param, values: used };
}

// Speed, link colours, cells, smoothing and zoom: each checked, the defaults otherwise.
function readView(exp, get, has, problems) {
  if (has('speed')) {
    // Not a speed: the experiment's own; out of range: the nearest. Either way said.
    const { speed, problem } = readSpeed(get('speed'));
    if (problem) problems.push(`speed: ${problem}${speed === null ? `; ${speedText(exp.speed)} used` : ''}`);
    if (speed !== null) exp.speed = speed;
  }
  if (has('metric')) {
    const m = get('metric');
    if (/^(occupancy|utilization|vc\d{1,2})$/.test(m)) exp.view.metric = m;
    else problems.push(`metric: unknown link colour '${clip(m, 60)}'`);
  }
  const flag = (key) => {
    const v = get(key);
    if (v === '0' || v === '1') return v === '1';
    problems.push(`${key}: '${clip(v, 60)}' is not 0 or 1; ignored`);
    return null;
  };
  if (has('cells')) exp.view.vcCells = flag('cells') ?? exp.view.vcCells;
  if (has('smooth')) exp.view.smooth = flag('smooth') ?? exp.view.smooth;
  if (has('packets')) exp.view.packets = flag('packets') ?? exp.view.packets;
  if (has('routers')) {
    const r = get('routers');
    if (r === 'fill' || r === 'nonmin') exp.view.routers = r;
    else problems.push(`routers: unknown router colour '${clip(r, 60)}' (fill or nonmin)`);
  }
  if (has('center') && !has('zoom')) problems.push('center: read only together with zoom; ignored');
  if (has('zoom')) {
    const z = Number(get('zoom'));
    const c = (get('center') ?? '0.5,0.5').split(',').map(Number);
    // Finite and positive, the centre within MAX_CENTRE; a zoom the canvas cannot show is
    // brought into MIN_ZOOM–MAX_ZOOM, with a word that it is not the one asked for.
    const ok = Number.isFinite(z) && z > 0 && c.length === 2 && c.every((x) => Number.isFinite(x) && Math.abs(x) <= MAX_CENTRE);
    if (!ok) {
      const centre = has('center') ? ` with center '${clip(get('center'), 60)}'` : '';
      problems.push(
        `zoom: '${clip(get('zoom'), 60)}'${centre} is not a view (zoom a positive number, center two numbers from -${MAX_CENTRE} to ${MAX_CENTRE})`,
      );
    } else {
      const zoom = clampZoom(z);
      if (zoom !== z) problems.push(`zoom: '${clip(get('zoom'), 60)}' is outside ${MIN_ZOOM} to ${MAX_ZOOM}; ${zoom} used`);
      Object.assign(exp.view, { zoom, cx: c[0], cy: c[1] });
    }
  }
}
