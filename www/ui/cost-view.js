// The "cost" view: the cost, power and design-space models of the three papers for the
// user's network size N, router radix R and bisection bandwidth β (the same
// models as `hiradix cost …` and docs/cost.md).
//
// - The analytic plots (FB paper Figs. 10, 11, 13, 15; dragonfly paper Figs. 2, 19) and the
//   table of every topology at N come from `costFigures` on the page's thread (a few ms)
//   and are redrawn as the inputs change.
// - The HyperX design search (regular and general designs, HyperX paper §3.1–3.2) and the
//   Fig. 8 curves — up to a hundred searches — run in a Web Worker (www/sim/cost-worker.js);
//   a change while it runs restarts it.
// - A bad input gets its message next to its control (`field: message` lines from Rust);
//   the plots of the last good inputs stay, dimmed.
// - State in the URL: view=cost&n=…&radix=…&beta=… (see splitCostParams / urlParams).
// The namespace, not named imports: a pkg/ built before the cost view existed leaves the
// rest of the page working (the view then says so).
import * as wasm from '../../pkg/hiradix.js';
import { lineChart } from '../render/plots.js';
import { clip, el, setChildren } from '../lib/dom.js';
import { MAX_VALUE_CHARS } from '../model/url-state.js';
import { messageOf } from '../lib/errors.js';

export const COST_DEFAULTS = { nodes: '4096', radix: '64', beta: '0.5' };
const URL_KEYS = { nodes: 'n', radix: 'radix', beta: 'beta' };

// One colour per topology, the same in every plot.
const COLOURS = {
  butterfly: '#8c564b',
  'folded Clos': '#d62728',
  hypercube: '#9467bd',
  'flattened butterfly': '#1f77b4',
  dragonfly: '#2ca02c',
  '3-D torus': '#ff7f0e',
  'electrical with repeaters': '#1f77b4',
  'active optical': '#ff7f0e',
  'cost per node': '#1f77b4',
  'cost per channel': '#d62728',
};
const colourOf = (name) => COLOURS[name] ?? (name.startsWith('HyperX') ? '#1f77b4' : name.startsWith('folded Clos') ? '#d62728' : '#555');

// The plots, in page order; hx-fig8 comes from the worker.
const PLOT_ORDER = ['hx-fig8', 'fb-fig11', 'df-fig19', 'fb-fig15', 'fb-fig10a', 'fb-fig10b', 'fb-fig13', 'df-fig2'];
const PLOT_NAMES = {
  'hx-fig8': 'HyperX paper Fig. 8: switches per terminal',
  'fb-fig11': 'FB paper Fig. 11: cost per node',
  'df-fig19': 'Dragonfly paper Fig. 19: cost per node',
  'fb-fig15': 'FB paper Fig. 15: network power per node',
  'fb-fig10a': 'FB paper Fig. 10(a): link cost / total cost',
  'fb-fig10b': 'FB paper Fig. 10(b): average global cable length',
  'fb-fig13': 'FB paper Fig. 13: cost vs dimension',
  'df-fig2': 'Dragonfly paper Fig. 2: cable cost',
};

const EXAMPLES = [
  { label: 'FB paper, 4K', nodes: '4K', radix: '64', beta: '1', title: 'FB paper Table 4 and Fig. 13: N = 4096, radix 64' },
  { label: 'HyperX Table 1', nodes: '2^17', radix: '128', beta: '0.5', title: 'HyperX paper Table 1: N = 2^17, R = 128, β = 0.5 (3780 switches)' },
  { label: 'Dragonfly, 16K', nodes: '16K', radix: '64', beta: '1', title: 'Dragonfly paper Fig. 19 at 16K nodes' },
  { label: 'radix 32, 64K', nodes: '64K', radix: '32', beta: '0.25', title: 'HyperX paper Fig. 8 at radix 32' },
];

/** `2^v` as 128, 1K, 64K, 1M. */
export function sizeLabel(n) {
  if (n >= 1 << 20 && n % (1 << 20) === 0) return `${n / (1 << 20)}M`;
  if (n >= 1024 && n % 1024 === 0) return `${n / 1024}K`;
  return String(Math.round(n));
}

const fmt = (x, digits = 1) => (x === null || x === undefined || !Number.isFinite(x) ? '–' : x.toFixed(digits));
const tuple = (v) => (v.every((x) => x === v[0]) ? String(v[0]) : `(${v.join(', ')})`);
const muted = (...text) => el('span', { class: 'muted' }, ...text);
const num = (x) => el('td', { class: 'num' }, x);
// A topology's colour in the tables.
const colourSwatch = (name) => el('i', { class: 'sw', style: { background: colourOf(name) } });

/**
 * What a cost call threw, as {field: message}: the engine's `FieldError[]` (each path is
 * `nodes`, `radix` or `beta`; src/web/cost.rs), or any other error under `nodes`. The
 * messages quote the input, which may be anything a link held: shortened.
 * @param {unknown} thrown
 * @returns {Record<string, string>}
 */
export function fieldErrors(thrown) {
  const list = Array.isArray(thrown) ? thrown : [{ path: 'nodes', message: messageOf(thrown) }];
  const out = {};
  for (const { path, message } of list) {
    const field = Object.hasOwn(URL_KEYS, path) ? path : 'nodes';
    const text = clip(String(message), 300);
    out[field] = out[field] ? `${out[field]}\n${text}` : text;
  }
  return out;
}

/**
 * Removes the cost view's keys from a query string: {rest, open, values, problems} where
 * `rest` is the query for the simulation, `values` the cost inputs found (as typed; the
 * cost view shows a refused one next to its input, with its message) and `problems` what
 * a visitor would otherwise not see: an unknown view, an over-long value, and — when the
 * link does not open the cost view — the inputs' messages (one sentence each).
 */
export function splitCostParams(search) {
  const q = new URLSearchParams(search);
  const values = {};
  const problems = [];
  // As for the simulation's keys (www/model/url-state.js): a key given twice is reported.
  for (const key of [...Object.values(URL_KEYS), 'view']) {
    if (q.getAll(key).length > 1) problems.push(`${key}: given more than once; the first value is used`);
  }
  for (const [field, key] of Object.entries(URL_KEYS)) {
    const v = q.get(key);
    if (v !== null && v.length > MAX_VALUE_CHARS) problems.push(`${key}: value too long (${v.length} characters, at most ${MAX_VALUE_CHARS}); ignored`);
    else if (v !== null) values[field] = v;
    q.delete(key);
  }
  const view = q.get('view');
  if (view !== null && view !== 'cost' && view !== 'sim') problems.push(`view: '${clip(view, 60)}' is not cost or sim; ignored`);
  q.delete('view');
  const open = view === 'cost';
  if (!open) {
    const errors = costErrors(values);
    for (const field of Object.keys(values)) if (errors[field]) problems.push(`${URL_KEYS[field]}: ${errors[field]} (cost view)`);
  }
  return { rest: q.toString(), open, values, problems };
}

// The inputs' messages ({field: message}) for cost inputs over the defaults, as typed ones
// are checked (costQuery); {} if they are fine.
function costErrors(values) {
  if (!Object.keys(values).length || typeof wasm.costQuery !== 'function') return {};
  const all = { ...COST_DEFAULTS, ...values };
  try {
    wasm.costQuery(all.nodes, all.radix, all.beta);
    return {};
  } catch (e) {
    if (e instanceof WebAssembly.RuntimeError) throw e;
    return fieldErrors(e);
  }
}

/** Runs costHyperx in a worker; a new request while one runs restarts the worker. */
class SearchRunner {
  constructor(onResult) {
    this.onResult = onResult;
    this.worker = null;
    this.busy = false;
    this.id = 0;
  }

  start() {
    this.worker = new Worker(new URL('../sim/cost-worker.js', import.meta.url), { type: 'module' });
    this.worker.onmessage = (e) => {
      if (e.data.id !== this.id) return;
      this.busy = false;
      this.onResult(e.data);
    };
    this.worker.onerror = (e) => {
      this.busy = false;
      this.worker?.terminate();
      this.worker = null;
      this.onResult({ id: this.id, error: `the search worker failed: ${e.message ?? e}` });
    };
  }

  run(values) {
    if (this.busy) {
      // A wasm call cannot be interrupted: drop the worker with its stale search.
      this.worker?.terminate();
      this.worker = null;
    }
    if (!this.worker) this.start();
    this.id++;
    this.busy = true;
    this.worker.postMessage({ id: this.id, ...values });
  }
}

export class CostView {
  /**
   * root: the (empty) section to build into; onChange(): the inputs or visibility changed
   * (the page rewrites its URL); onCrash(err): a wasm trap.
   * @param {HTMLElement} root
   * @param {{onChange?: () => void, onCrash?: (err: unknown) => void}} [handlers]
   */
  constructor(
    root,
    {
      onChange = () => {},
      onCrash = (e) => {
        throw e;
      },
    } = {},
  ) {
    this.root = root;
    this.onChange = onChange;
    this.onCrash = onCrash;
    this.values = { ...COST_DEFAULTS };
    this.applied = null; // the inputs the plots show
    this.figures = null;
    this.search = null; // {result, ms} or {error}
    this.searching = false;
    this.errors = {};
    this.open = false;
    this.timer = null;
    this.runner = new SearchRunner((msg) => this.onSearch(msg));
    this.build();
    window.addEventListener('resize', () => this.open && this.draw());
  }

  build() {
    // Each input is as wide as what it takes (set through CSSOM: the CSP allows no style
    // attributes).
    const field = (name, label, hint, width) =>
      el(
        'div',
        { class: 'cost-field' },
        el('label', { for: `cost-${name}` }, label),
        el('input', {
          id: `cost-${name}`,
          type: 'text',
          inputmode: 'decimal',
          spellcheck: 'false',
          autocomplete: 'off',
          style: { width },
          title: hint,
          'aria-describedby': `cost-${name}-msg`,
        }),
        el('div', { id: `cost-${name}-msg`, class: 'ctl-msg', role: 'alert', hidden: true }),
      );
    const card = (title, id, status) =>
      el(
        'section',
        { class: 'cost-card' },
        el('h3', {}, title, status),
        el('table', { id: `cost-${id}-table`, class: 'cost-table' }),
        el('p', { id: `cost-${id}-note`, class: 'cost-note muted' }),
      );
    this.root.replaceChildren(
      el(
        'div',
        { class: 'cost-head' },
        el(
          'div',
          { class: 'cost-inputs' },
          field('nodes', 'terminals N', 'e.g. 4096, 2^17, 64K (K = 1024); 2 to 2^24', '7em'),
          field('radix', 'router radix R', 'ports per router, 4 to 1024 (the papers: 64, HyperX: 32–256)', '4.5em'),
          field('beta', 'bisection β', 'minimum relative bisection bandwidth, in (0, 1]; e.g. 0.5 or 1/8', '4.5em'),
        ),
        el(
          'div',
          { class: 'cost-examples' },
          muted('examples'),
          EXAMPLES.map((e) => {
            const b = el('button', { type: 'button', title: e.title }, e.label);
            b.addEventListener('click', () => this.setValues({ nodes: e.nodes, radix: e.radix, beta: e.beta }));
            return b;
          }),
        ),
        el(
          'p',
          { class: 'cost-intro muted' },
          "The papers' cost, power and design-space models (docs/cost.md), recomputed for your N, radix and β. N sets the marker on every curve and the tables; the radix re-prices the FB and dragonfly papers' networks (routers $390 each whatever the radix, Table 2); β drives the HyperX search and Fig. 8.",
        ),
      ),
      el(
        'div',
        { class: 'cost-tables' },
        card('HyperX design search ', 'search', el('span', { id: 'cost-search-status', class: 'muted' })),
        card(['Every topology at ', el('span', { id: 'cost-at-n' }, 'N')], 'at', null),
      ),
      el(
        'div',
        { id: 'cost-plots', class: 'cost-plots' },
        PLOT_ORDER.map((id) =>
          el(
            'figure',
            { class: 'cost-plot', dataset: { plot: id } },
            el('figcaption', {}, PLOT_NAMES[id]),
            el('canvas', { id: `cost-plot-${id}` }),
            el('div', { class: 'cost-legend' }),
            el('p', { class: 'cost-note muted' }),
          ),
        ),
      ),
    );
    for (const name of Object.keys(URL_KEYS)) {
      const input = this.input(name);
      input.addEventListener('input', () => {
        this.values[name] = input.value;
        clearTimeout(this.timer);
        this.timer = setTimeout(() => this.update(), 250);
      });
      input.addEventListener('change', () => {
        this.values[name] = input.value;
        clearTimeout(this.timer);
        this.update();
      });
    }
    this.syncInputs();
  }

  /** @param {string} name a cost input's name (a key of URL_KEYS) */
  input(name) {
    const input = this.root.querySelector(`#cost-${name}`);
    if (!(input instanceof HTMLInputElement)) throw new Error(`the cost view has no input #cost-${name}`);
    return input;
  }

  syncInputs() {
    for (const name of Object.keys(URL_KEYS)) {
      const el = this.input(name);
      if (el.value !== this.values[name]) el.value = this.values[name];
    }
  }

  /**
   * Sets the inputs (as typed; missing ones keep their value) and recomputes if open;
   * closed, checks them, so a refused one has its message once the view opens.
   */
  setValues(values) {
    Object.assign(this.values, values);
    this.syncInputs();
    if (this.open) this.update();
    else {
      this.showErrors(costErrors(this.values));
      this.onChange();
    }
  }

  show(open) {
    this.open = open;
    this.root.hidden = !open;
    if (open) {
      if (!this.applied || Object.keys(URL_KEYS).some((k) => this.values[k] !== this.applied[k])) this.update();
      else this.draw();
    }
    this.onChange();
  }

  /** The cost view's part of the page URL ('' when closed and at the defaults). */
  urlParams() {
    const q = new URLSearchParams();
    if (this.open) q.set('view', 'cost');
    // A refused input is not shared: the link holds the inputs the view shows results for.
    const shared = (k) => (this.errors[k] ? (this.applied?.[k] ?? COST_DEFAULTS[k]) : this.values[k]);
    const changed = Object.keys(URL_KEYS).some((k) => shared(k) !== COST_DEFAULTS[k]);
    if (this.open || changed) for (const [field, key] of Object.entries(URL_KEYS)) q.set(key, shared(field));
    return q.toString();
  }

  // ------------------------------------------------------------- compute

  update() {
    const v = { ...this.values };
    let figures;
    try {
      if (typeof wasm.costFigures !== 'function')
        throw new Error('nodes: the wasm module (pkg/) is older than the cost view; rebuild it with scripts/build-wasm.sh');
      figures = wasm.costFigures(v.nodes, v.radix, v.beta);
    } catch (e) {
      if (e instanceof WebAssembly.RuntimeError) {
        this.onCrash(e);
        return;
      }
      this.showErrors(fieldErrors(e));
      if (!this.figures) this.draw();
      this.onChange();
      return;
    }
    this.showErrors({});
    this.applied = v;
    this.figures = figures;
    this.searching = true;
    this.search = null;
    this.runner.run(v);
    this.draw();
    this.onChange();
  }

  onSearch(msg) {
    this.searching = false;
    this.search = msg;
    this.draw();
  }

  showErrors(errors) {
    this.errors = errors;
    for (const name of Object.keys(URL_KEYS)) {
      const msg = this.root.querySelector(`#cost-${name}-msg`);
      if (!(msg instanceof HTMLElement)) continue;
      const text = errors[name];
      msg.textContent = text ?? '';
      msg.hidden = !text;
      this.input(name).classList.toggle('invalid', Boolean(text));
      this.input(name).setAttribute('aria-invalid', text ? 'true' : 'false');
    }
    this.root.querySelector('#cost-plots').classList.toggle('stale', Object.keys(errors).length > 0);
    this.root.querySelector('.cost-tables').classList.toggle('stale', Object.keys(errors).length > 0);
  }

  // ------------------------------------------------------------- drawing

  draw() {
    if (!this.open) return;
    if (!this.figures) {
      // Opened with bad inputs (e.g. from a link): empty axes that say what to do.
      for (const id of PLOT_ORDER) {
        const fig = this.root.querySelector(`[data-plot="${id}"]`);
        fig.querySelector('figcaption').textContent = PLOT_NAMES[id];
        lineChart(fig.querySelector('canvas'), { series: [], emptyText: 'enter a valid N, radix and β above' });
      }
      return;
    }
    const plots = new Map(this.figures.plots.map((p) => [p.id, p]));
    const fig8 = this.search?.result?.plot;
    for (const id of PLOT_ORDER) {
      const fig = this.root.querySelector(`[data-plot="${id}"]`);
      const data = id === 'hx-fig8' ? fig8 : plots.get(id);
      if (id === 'hx-fig8' && !data) {
        fig.querySelector('figcaption').textContent = `HyperX paper Fig. 8: switches per terminal, radix ${this.figures.query.radix}`;
        lineChart(fig.querySelector('canvas'), {
          series: [],
          xLabel: 'network size N (terminals)',
          yLabel: 'switches / N',
          emptyText: this.search?.error ? 'the search failed (see above)' : 'searching in a Web Worker…',
        });
        fig.querySelector('.cost-legend').replaceChildren();
        continue;
      }
      this.drawPlot(fig, data);
    }
    this.drawSearch();
    this.drawAtN();
  }

  drawPlot(fig, p) {
    fig.querySelector('figcaption').textContent = p.title;
    fig.querySelector('.cost-note').textContent = p.note;
    const canvas = fig.querySelector('canvas');
    const tx = p.log_x ? Math.log2 : (x) => x;
    const series = p.series.map((s) => ({
      label: s.name,
      colour: colourOf(s.name),
      dash: s.dashed ? [6, 4] : [],
      width: 1.8,
      markers: p.log_x || p.id === 'fb-fig13',
      points: s.points.map(([x, y]) => [tx(x), y === null ? NaN : y]),
    }));
    const xs = series.flatMap((s) => s.points.map((q) => q[0]));
    const opts = {
      series: p.empty ? [] : series,
      xLabel: p.x_label,
      yLabel: p.y_label,
      yMax: p.y_max ?? undefined,
      legendEntries: [],
      emptyText: p.empty ?? 'nothing to draw',
      markX: p.mark_x === null || p.mark_x === undefined ? undefined : tx(p.mark_x),
      markLabel: p.mark_label,
    };
    if (p.log_x && xs.length) {
      const lo = Math.floor(Math.min(...xs));
      const hi = Math.ceil(Math.max(...xs));
      const step = Math.max(1, Math.ceil((hi - lo) / 9));
      const ticks = [];
      for (let e = lo; e <= hi; e += step) ticks.push(e);
      Object.assign(opts, { xMin: lo, xMax: hi, xTicks: ticks, xFormat: (e) => sizeLabel(2 ** e) });
    } else if (p.id === 'fb-fig13' && xs.length) {
      const hi = Math.max(...xs);
      Object.assign(opts, { xMin: 0, xMax: hi + 1, xTicks: [...new Set(xs)], xFormat: String });
    }
    lineChart(canvas, opts);
    const line = (s) => el('i', { style: { borderTop: `2px ${s.dash.length ? 'dashed' : 'solid'} ${s.colour}` } });
    setChildren(fig.querySelector('.cost-legend'), p.empty ? [] : series.map((s) => el('span', {}, line(s), s.label)));
  }

  drawSearch() {
    const status = this.root.querySelector('#cost-search-status');
    const table = this.root.querySelector('#cost-search-table');
    const note = this.root.querySelector('#cost-search-note');
    const q = this.figures.query;
    const problem = `N = ${q.nodes}, R = ${q.radix}, β = ${q.beta}`;
    if (this.searching || !this.search) {
      status.textContent = `— searching (${problem}) in a Web Worker…`;
      this.root.dataset.search = 'running';
      return;
    }
    if (this.search.error) {
      status.textContent = '';
      table.replaceChildren();
      note.textContent = `The search failed: ${this.search.error}`;
      this.root.dataset.search = 'error';
      return;
    }
    const r = this.search.result;
    status.textContent = `— ${problem}`;
    const row = (name, d) => {
      if (!d) return el('tr', {}, el('th', {}, name), el('td', { colspan: 7 }, `no HyperX of radix ${q.radix} connects ${q.nodes} terminals at β = ${q.beta}`));
      const [t0, t1] = d.t_range ?? [d.terminals_per_switch, d.terminals_per_switch];
      const tr = t0 === t1 ? null : [' ', muted(`(${t0}..${t1})`)];
      return el(
        'tr',
        {},
        el('th', {}, name),
        num(d.switches),
        num(d.dims),
        el('td', {}, tuple(d.shape)),
        el('td', {}, tuple(d.trunking)),
        num([d.terminals_per_switch, tr]),
        num(d.ports_used),
        num(fmt(d.beta, 3)),
      );
    };
    const head = el(
      'tr',
      {},
      ['', 'switches', 'L', 'S', 'K', 'T', 'ports used', 'β'].map((h) => el('th', {}, h)),
    );
    const clos = el(
      'tr',
      { class: 'clos' },
      el('th', {}, 'folded Clos'),
      num(r.clos.switches),
      el('td', { colspan: 6 }, `${r.clos.levels} levels of radix-${q.radix} switches at β = ${q.beta}`),
    );
    table.replaceChildren(el('thead', {}, head), el('tbody', {}, row('regular', r.regular), row('general', r.general), clos));
    const ties = r.general_ties > 1 ? ` ${r.general_ties} general shapes tie; the first in (L, S) order is shown.` : '';
    note.textContent = `Fewest switches P = ΠS meeting T + Σ K(S − 1) ≤ R, T·P ≥ N and min(K·S)/2T ≥ β (eqs. 2–9). T is the smallest feasible value (the feasible range in brackets).${ties} ${r.shapes_evaluated} shapes evaluated; search and Fig. 8 took ${fmt(this.search.ms, 0)} ms in a Web Worker.`;
    this.root.dataset.search = 'done';
  }

  drawAtN() {
    const a = this.figures.at_n;
    const q = this.figures.query;
    this.root.querySelector('#cost-at-n').textContent =
      `N = ${q.nodes}${sizeLabel(q.nodes) !== String(q.nodes) ? ` (${sizeLabel(q.nodes)})` : ''}, radix ${q.radix}`;
    const rows = a.rows.map((r) =>
      r.config === null
        ? el(
            'tr',
            {},
            el('th', {}, colourSwatch(r.topology), r.topology),
            el('td', { colspan: 5, class: 'muted' }, `cannot be built with radix-${q.radix} routers`),
          )
        : el(
            'tr',
            {},
            el('th', {}, colourSwatch(r.topology), r.topology),
            el('td', {}, r.config),
            num(Math.round(r.routers)),
            num(fmt(r.cost_per_node)),
            num(fmt(r.cost_per_node_df)),
            num(fmt(r.power_per_node, 2)),
          ),
    );
    const fig = (label, figure) => el('th', {}, label, el('br'), muted(figure));
    const head = el(
      'tr',
      {},
      el('th'),
      el('th', {}, 'configuration'),
      el('th', {}, 'routers'),
      fig('$/node', 'Fig. 11'),
      fig('$/node', 'Fig. 19'),
      fig('W/node', 'Fig. 15'),
    );
    this.root.querySelector('#cost-at-table').replaceChildren(el('thead', {}, head), el('tbody', {}, rows));
    const parts = [];
    if (a.fb_dimension) parts.push(`Flattened butterfly (§5.1.2): n' = ${a.fb_dimension.n_prime}, k' = ${a.fb_dimension.k_prime}.`);
    if (a.fb_saving_vs_clos !== null) parts.push(`It costs ${fmt(100 * a.fb_saving_vs_clos, 0)} % less than the folded Clos.`);
    parts.push(`Floor edge E = √(N/75) = ${fmt(a.edge_m, 1)} m. Fig. 11 prices all cables electrical (FB paper), Fig. 19 optical from 8 m (dragonfly paper).`);
    this.root.querySelector('#cost-at-note').textContent = parts.join(' ');
  }
}
