// The "cost" view: the cost, power and design-space models of the three papers for the
// user's network size N, router radix R and bisection bandwidth β (SPEC §6; the same
// models as `hiradix cost …` and docs/cost.md).
//
// - The analytic plots (FB paper Figs. 10, 11, 13, 15; dragonfly paper Figs. 2, 19) and the
//   table of every topology at N come from `costFigures` on the page's thread (a few ms)
//   and are redrawn as the inputs change.
// - The HyperX design search (regular and general designs, HyperX paper §3.1–3.2) and the
//   Fig. 8 curves — up to a hundred searches — run in a Web Worker (www/cost-worker.js);
//   a change while it runs restarts it.
// - A bad input gets its message next to its control (`field: message` lines from Rust);
//   the plots of the last good inputs stay, dimmed.
// - State in the URL: view=cost&n=…&radix=…&beta=… (see splitCostParams / urlParams).
// The namespace, not named imports: a pkg/ built before the cost view existed leaves the
// rest of the page working (the view then says so).
import * as wasm from '../pkg/hiradix.js';
import { lineChart } from './plots.js';

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
const esc = (s) => String(s).replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]);

/** Parses `field: message` lines (Rust's errors) into {field: message}. */
export function fieldErrors(text) {
  const out = {};
  for (const line of String(text).split('\n')) {
    const m = line.match(/^(nodes|radix|beta): (.*)$/);
    if (m) out[m[1]] = out[m[1]] ? `${out[m[1]]}\n${m[2]}` : m[2];
    else if (line.trim()) out.nodes = out.nodes ? `${out.nodes}\n${line}` : line;
  }
  return out;
}

/**
 * Removes the cost view's keys from a query string: {rest, open, values} where `rest` is
 * the query for the simulation and `values` the cost inputs found (as typed).
 */
export function splitCostParams(search) {
  const q = new URLSearchParams(search);
  const values = {};
  for (const [field, key] of Object.entries(URL_KEYS)) {
    if (q.has(key)) values[field] = q.get(key);
    q.delete(key);
  }
  const open = q.get('view') === 'cost';
  q.delete('view');
  return { rest: q.toString(), open, values };
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
    this.worker = new Worker(new URL('./cost-worker.js', import.meta.url), { type: 'module' });
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
   */
  constructor(root, { onChange = () => {}, onCrash = (e) => { throw e; } } = {}) {
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
    const field = (name, label, hint, width) => `
      <div class="cost-field">
        <label for="cost-${name}">${label}</label>
        <input id="cost-${name}" type="text" inputmode="decimal" spellcheck="false" autocomplete="off"
          style="width:${width}" title="${esc(hint)}" aria-describedby="cost-${name}-msg">
        <div id="cost-${name}-msg" class="ctl-msg" role="alert" hidden></div>
      </div>`;
    this.root.innerHTML = `
      <div class="cost-head">
        <div class="cost-inputs">
          ${field('nodes', 'terminals N', 'e.g. 4096, 2^17, 64K (K = 1024); 2 to 2^24', '7em')}
          ${field('radix', 'router radix R', 'ports per router, 4 to 1024 (the papers: 64, HyperX: 32–256)', '4.5em')}
          ${field('beta', 'bisection β', 'minimum relative bisection bandwidth, in (0, 1]; e.g. 0.5 or 1/8', '4.5em')}
        </div>
        <div class="cost-examples"><span class="muted">examples</span>
          ${EXAMPLES.map((e, i) => `<button type="button" data-example="${i}" title="${esc(e.title)}">${esc(e.label)}</button>`).join('')}
        </div>
        <p class="cost-intro muted">The papers' cost, power and design-space models (docs/cost.md), recomputed for your N, radix and β.
          N sets the marker on every curve and the tables; the radix re-prices the FB and dragonfly papers' networks
          (routers $390 each whatever the radix, Table 2); β drives the HyperX search and Fig. 8.</p>
      </div>
      <div class="cost-tables">
        <section class="cost-card">
          <h3>HyperX design search <span id="cost-search-status" class="muted"></span></h3>
          <table id="cost-search-table" class="cost-table"></table>
          <p id="cost-search-note" class="cost-note muted"></p>
        </section>
        <section class="cost-card">
          <h3>Every topology at <span id="cost-at-n">N</span></h3>
          <table id="cost-at-table" class="cost-table"></table>
          <p id="cost-at-note" class="cost-note muted"></p>
        </section>
      </div>
      <div id="cost-plots" class="cost-plots">
        ${PLOT_ORDER.map((id) => `
          <figure class="cost-plot" data-plot="${id}">
            <figcaption>${PLOT_NAMES[id]}</figcaption>
            <canvas id="cost-plot-${id}"></canvas>
            <div class="cost-legend"></div>
            <p class="cost-note muted"></p>
          </figure>`).join('')}
      </div>`;
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
    this.root.querySelectorAll('[data-example]').forEach((b) =>
      b.addEventListener('click', () => {
        const e = EXAMPLES[Number(b.dataset.example)];
        this.setValues({ nodes: e.nodes, radix: e.radix, beta: e.beta });
      }),
    );
    this.syncInputs();
  }

  input(name) {
    return this.root.querySelector(`#cost-${name}`);
  }

  syncInputs() {
    for (const name of Object.keys(URL_KEYS)) {
      const el = this.input(name);
      if (el.value !== this.values[name]) el.value = this.values[name];
    }
  }

  /** Sets the inputs (as typed; missing ones keep their value) and recomputes if open. */
  setValues(values) {
    Object.assign(this.values, values);
    this.syncInputs();
    if (this.open) this.update();
    else this.onChange();
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
    const changed = Object.keys(URL_KEYS).some((k) => this.values[k] !== COST_DEFAULTS[k]);
    if (this.open || changed) for (const [field, key] of Object.entries(URL_KEYS)) q.set(key, this.values[field]);
    return q.toString();
  }

  // ------------------------------------------------------------- compute

  update() {
    const v = { ...this.values };
    let figures;
    try {
      if (typeof wasm.costFigures !== 'function') throw new Error('nodes: the wasm module (pkg/) is older than the cost view; rebuild it with scripts/build-wasm.sh');
      figures = JSON.parse(wasm.costFigures(v.nodes, v.radix, v.beta));
    } catch (e) {
      if (e instanceof WebAssembly.RuntimeError) {
        this.onCrash(e);
        return;
      }
      this.showErrors(fieldErrors(e?.message ?? e));
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
        lineChart(fig.querySelector('canvas'), { series: [], xLabel: 'network size N (terminals)', yLabel: 'switches / N', emptyText: this.search?.error ? 'the search failed (see above)' : 'searching in a Web Worker…' });
        fig.querySelector('.cost-legend').innerHTML = '';
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
    fig.querySelector('.cost-legend').innerHTML = p.empty
      ? ''
      : series.map((s) => `<span><i style="border-top: 2px ${s.dash.length ? 'dashed' : 'solid'} ${s.colour}"></i>${esc(s.label)}</span>`).join('');
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
      table.innerHTML = '';
      note.textContent = `The search failed: ${this.search.error}`;
      this.root.dataset.search = 'error';
      return;
    }
    const r = this.search.result;
    status.textContent = `— ${problem}`;
    const row = (name, d) => {
      if (!d) return `<tr><th>${name}</th><td colspan="7">no HyperX of radix ${q.radix} connects ${q.nodes} terminals at β = ${q.beta}</td></tr>`;
      const [t0, t1] = d.t_range ?? [d.terminals_per_switch, d.terminals_per_switch];
      const tr = t0 === t1 ? '' : ` <span class="muted">(${t0}..${t1})</span>`;
      return `<tr><th>${name}</th><td class="num">${d.switches}</td><td class="num">${d.dims}</td><td>${tuple(d.shape)}</td><td>${tuple(d.trunking)}</td><td class="num">${d.terminals_per_switch}${tr}</td><td class="num">${d.ports_used}</td><td class="num">${fmt(d.beta, 3)}</td></tr>`;
    };
    table.innerHTML = `<thead><tr><th></th><th>switches</th><th>L</th><th>S</th><th>K</th><th>T</th><th>ports used</th><th>β</th></tr></thead>
      <tbody>${row('regular', r.regular)}${row('general', r.general)}
      <tr class="clos"><th>folded Clos</th><td class="num">${r.clos.switches}</td><td colspan="6">${r.clos.levels} levels of radix-${q.radix} switches at β = ${q.beta}</td></tr></tbody>`;
    const ties = r.general_ties > 1 ? ` ${r.general_ties} general shapes tie; the first in (L, S) order is shown.` : '';
    note.textContent = `Fewest switches P = ΠS meeting T + Σ K(S − 1) ≤ R, T·P ≥ N and min(K·S)/2T ≥ β (eqs. 2–9). T is the smallest feasible value (the feasible range in brackets).${ties} ${r.shapes_evaluated} shapes evaluated; search and Fig. 8 took ${fmt(this.search.ms, 0)} ms in a Web Worker.`;
    this.root.dataset.search = 'done';
  }

  drawAtN() {
    const a = this.figures.at_n;
    const q = this.figures.query;
    this.root.querySelector('#cost-at-n').textContent = `N = ${q.nodes}${sizeLabel(q.nodes) !== String(q.nodes) ? ` (${sizeLabel(q.nodes)})` : ''}, radix ${q.radix}`;
    const rows = a.rows
      .map((r) =>
        r.config === null
          ? `<tr><th><i class="sw" style="background:${colourOf(r.topology)}"></i>${esc(r.topology)}</th><td colspan="5" class="muted">cannot be built with radix-${q.radix} routers</td></tr>`
          : `<tr><th><i class="sw" style="background:${colourOf(r.topology)}"></i>${esc(r.topology)}</th><td>${esc(r.config)}</td><td class="num">${Math.round(r.routers)}</td><td class="num">${fmt(r.cost_per_node)}</td><td class="num">${fmt(r.cost_per_node_df)}</td><td class="num">${fmt(r.power_per_node, 2)}</td></tr>`,
      )
      .join('');
    this.root.querySelector('#cost-at-table').innerHTML = `<thead><tr><th></th><th>configuration</th><th>routers</th><th>$/node<br><span class="muted">Fig. 11</span></th><th>$/node<br><span class="muted">Fig. 19</span></th><th>W/node<br><span class="muted">Fig. 15</span></th></tr></thead><tbody>${rows}</tbody>`;
    const parts = [];
    if (a.fb_dimension) parts.push(`Flattened butterfly (§5.1.2): n' = ${a.fb_dimension.n_prime}, k' = ${a.fb_dimension.k_prime}.`);
    if (a.fb_saving_vs_clos !== null) parts.push(`It costs ${fmt(100 * a.fb_saving_vs_clos, 0)} % less than the folded Clos.`);
    parts.push(`Floor edge E = √(N/75) = ${fmt(a.edge_m, 1)} m. Fig. 11 prices all cables electrical (FB paper), Fig. 19 optical from 8 m (dragonfly paper).`);
    this.root.querySelector('#cost-at-note').textContent = parts.join(' ');
  }
}
