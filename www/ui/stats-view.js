// The statistics panel: plots over time, Fig. 9 bars, latency histograms, the sweep, the
// table comparing the panes, and the CSV / JSON exports of all of it.

import { barChart, histogramChart, lineChart } from '../render/plots.js';
import { CSV_HEADER, HIST_BINS } from '../model/stats.js';
import { encodeExperiment } from '../model/url-state.js';
import { canvasById, el, setChildren, swatch } from '../lib/dom.js';
import { curveSaturation } from '../sim/sweep.js';
import { readerOf, referenceLabel, referenceSource, referenceTooltip, sweepReferences } from '../stories/paper-values.js';

const $ = (id) => document.getElementById(id);
const DASH_MIN = [7, 4];
const DASH_NONMIN = [2, 3];

const series = (pane, key, extra = {}) => ({
  label: pane.variant.label ? pane.variant.name : '',
  colour: pane.colour,
  points: pane.stats.samples.map((s) => [s.cycle, s[key]]),
  ...extra,
});

// One legend for every chart: which colour is which pane (side by side only).
function paneLegend(panes) {
  const items = panes.length > 1 ? panes.map((p) => el('span', {}, swatch(p.colour), `${p.variant.name}: ${p.short}`)) : [];
  setChildren($('pane-legend'), items);
  return [];
}

/**
 * What the statistics are read from (read only): the panes, the load sweep, the model and
 * the experiment.
 * @typedef {{panes: import('../sim/pane.js').Pane[], sweep: import('../sim/sweep.js').Sweep | null, model: import('../model/experiment.js').Model | null, experiment: object | null}} StatsSource
 */

/** @param {StatsSource} src */
export function renderPlots(src) {
  const panes = src.panes;
  if (!panes.length) return;
  const legend = paneLegend(panes);
  lineChart(canvasById('plot-throughput'), {
    series: panes.flatMap((p) => [series(p, 'accepted'), series(p, 'offered', { label: '', width: 1, dash: [3, 3] })]),
    xLabel: 'cycle',
    yLabel: 'flits/cycle/terminal',
    legendEntries: [
      { label: 'accepted', colour: '#444' },
      { label: 'offered', colour: '#444', dash: [3, 3] },
    ],
  });
  lineChart(canvasById('plot-latency'), {
    series: panes.flatMap((p) => [
      series(p, 'latency'),
      series(p, 'latencyMin', { label: '', dash: DASH_MIN, width: 1.4 }),
      series(p, 'latencyNonmin', { label: '', dash: DASH_NONMIN, width: 1.4 }),
    ]),
    xLabel: 'cycle',
    yLabel: 'cycles',
    legendEntries: [
      { label: 'all', colour: '#444' },
      { label: 'minimal', colour: '#444', dash: DASH_MIN },
      { label: 'non-minimal', colour: '#444', dash: DASH_NONMIN },
    ],
  });
  lineChart(canvasById('plot-nonmin'), {
    series: panes.map((p) => series(p, 'nonminFraction')),
    xLabel: 'cycle',
    yLabel: 'fraction',
    yMax: 1,
    legendEntries: legend,
  });
  if (!$('fig9-box').hidden) renderFig9(panes);
  renderHistogram(panes);
  renderSweep(src);
}

function renderFig9(panes) {
  const f = panes.find((p) => p.stats.fig9)?.stats.fig9;
  const groups = panes.filter((p) => p.stats.fig9).map((p) => ({ label: '', colour: p.colour, values: p.stats.fig9.per_channel }));
  const classes = f
    ? [
        { label: 'minimal', short: 'min', from: 0, to: f.minimal_channels, shade: '#fbe3e3' },
        { label: 'same router', short: 'same', from: f.minimal_channels, to: f.minimal_channels + f.same_router_channels, shade: '#fdf2d8' },
        {
          label: 'other non-minimal global channels of the group',
          short: 'other',
          from: f.minimal_channels + f.same_router_channels,
          to: f.per_channel.length,
          shade: '#eef2f7',
        },
      ]
    : [];
  barChart(canvasById('plot-fig9'), { groups, classes, yLabel: 'flits/cycle', yMax: 1 });
}

function renderHistogram(panes) {
  const hists = panes.map((p) => p.stats.histogram());
  // x range: the 99.5th percentile of the panes' latencies.
  let xMax = 20;
  for (const h of hists) {
    if (!h || !h.count) continue;
    let acc = 0;
    for (let i = 0; i < HIST_BINS; i++) {
      acc += h.min[i] + h.nonmin[i];
      if (acc >= 0.995 * h.count) {
        xMax = Math.max(xMax, i + 1);
        break;
      }
    }
  }
  const width = Math.max(1, Math.ceil(xMax / 60));
  const bin = (arr, total) => {
    const out = [];
    for (let i = 0; i < HIST_BINS; i += width) {
      let s = 0;
      for (let k = i; k < Math.min(HIST_BINS, i + width); k++) s += arr[k];
      out.push(s / total);
    }
    return out;
  };
  const s = [];
  panes.forEach((p, i) => {
    const h = hists[i];
    if (!h || !h.count) return;
    s.push({ label: '', colour: p.colour, bins: bin(h.min, h.count), width });
    s.push({ label: '', colour: p.colour, dash: [5, 3], bins: bin(h.nonmin, h.count), width });
  });
  histogramChart(canvasById('plot-histogram'), {
    series: s,
    xLabel: 'latency (cycles)',
    yLabel: 'fraction of packets',
    xMax: Math.ceil(xMax / width) * width,
    legendEntries: [
      { label: 'minimal', colour: '#444' },
      { label: 'non-minimal', colour: '#444', dash: [5, 3] },
    ],
  });
}

/** A paper value's colour: its pane's, or dark grey when it is drawn for several panes. */
const referenceColour = (ref) => (ref.series.length > 1 ? '#1c2430' : ref.series[0].colour);

function renderSweep(src) {
  const sw = src.sweep;
  const ser = sw?.series ?? [];
  // A setting the configuration does not read (the catalog's used_when) is no condition.
  const references = sweepReferences(ser, src.model ? readerOf(src.model) : undefined);
  const finite = ser.flatMap((s) => s.points.filter((p) => !p.saturated && Number.isFinite(p.avg_latency)).map((p) => p.avg_latency));
  const yMax = finite.length ? Math.max(...finite) * 1.25 : undefined;
  lineChart(canvasById('plot-sweep'), {
    series: ser.map((s) => ({
      label: s.label ? s.name : '',
      colour: s.colour,
      markers: true,
      points: s.points.map((p) => [p.load, p.saturated ? NaN : p.avg_latency]),
      saturated: new Set(s.points.map((p, i) => (p.saturated ? i : -1)).filter((i) => i >= 0)),
    })),
    xLabel: 'offered load (flits/cycle/terminal); × saturated',
    yLabel: 'latency (cycles)',
    xMin: 0,
    yMax,
    emptyText: 'press “Run sweep”: one point per load, as they finish',
    legendEntries: [],
    references: references.map((r) => ({ x: r.entry.value, colour: referenceColour(r), label: referenceLabel(r, ser.length) })),
  });
  renderPaperValues(references, ser.length);
}

/**
 * Under the sweep plot, the source of each paper value it draws (the plot's label is
 * short), in full and, with the configuration it is stated for, as a tooltip on the entry
 * and on the plot. Nothing when no paper value applies.
 */
function renderPaperValues(references, paneCount) {
  const list = paperValuesList();
  const items = references.map((r) =>
    el(
      'li',
      { title: referenceTooltip(r, paneCount) },
      el('span', { class: 'paper-swatch', style: { borderTopColor: referenceColour(r) } }),
      referenceSource(r, paneCount),
    ),
  );
  setChildren(list, items);
  list.hidden = !items.length;
  const tooltip = references.map((r) => referenceTooltip(r, paneCount)).join('\n\n');
  if (tooltip) $('plot-sweep').title = tooltip;
  else $('plot-sweep').removeAttribute('title');
}

/** The list of paper values under the sweep plot, made on first use. */
function paperValuesList() {
  let list = $('sweep-paper-values');
  if (!list) {
    list = el('ul', { id: 'sweep-paper-values', class: 'paper-values', 'aria-label': "the papers' stated values drawn on the sweep plot" });
    $('plot-sweep').after(list);
  }
  return list;
}

const f = (x, d = 3) => (Number.isFinite(x) ? x.toFixed(d) : '–');

/** @param {HTMLElement} table @param {StatsSource} src */
export function renderStatsTable(table, src) {
  const panes = src.panes;
  if (!panes.length) return;
  const recent = panes.map((p) => p.stats.recent(10));
  /** @type {[string, (r: (typeof recent)[number]) => string][]} */
  const rows = [
    ['offered load', (r) => f(r?.offered)],
    ['accepted throughput', (r) => f(r?.accepted)],
    ['latency (cycles)', (r) => f(r?.latency, 1)],
    ['  minimally routed', (r) => f(r?.latencyMin, 1)],
    ['  non-minimally routed', (r) => f(r?.latencyNonmin, 1)],
    ['non-minimal packets', (r) => (r && Number.isFinite(r.nonminFraction) ? `${(100 * r.nonminFraction).toFixed(1)} %` : '–')],
    ['hops', (r) => f(r?.hops, 2)],
    ['packets in the network', (r) => (r ? String(r.inNetwork) : '–')],
    ['packets in source queues', (r) => (r ? String(r.inSources) : '–')],
    ['unroutable (failed link)', (r) => (r ? String(r.unroutableTotal) : '–')],
  ];
  const extra = [];
  if (panes[0].info.batch) {
    extra.push(['batch delivered after', panes.map((p) => (p.stats.batchDone ? `${p.stats.batchDone.cycles} cycles` : 'running'))]);
    extra.push(['  per packet of the batch', panes.map((p) => (p.stats.batchDone ? f(p.stats.batchDone.perPacket, 2) : '–'))]);
  }
  if (panes.some((p) => p.stats.fig9)) {
    extra.push(['global util.: minimal channel', panes.map((p) => f(p.stats.fig9?.minimal))]);
    extra.push(['  same-router channels', panes.map((p) => f(p.stats.fig9?.same_router))]);
    extra.push(['  other channels', panes.map((p) => f(p.stats.fig9?.other))]);
  }
  const sat = src.sweep?.series ?? [];
  if (sat.some((s) => s.points.length)) {
    const curves = sat.map((s) => curveSaturation(s.points));
    extra.push(['sweep: saturation starts at load', curves.map((c) => c.text)]);
    extra.push(['  saturation throughput', curves.map((c) => c.throughputText)]);
    extra.push(['  peak accepted (any load)', curves.map((c) => f(c.peakAccepted))]);
  }
  const head = el(
    'thead',
    {},
    el(
      'tr',
      {},
      el('th', {}, `last ${panes[0].stats.recent(10)?.cycles ?? 0} cycles`),
      panes.map((p) => el('th', {}, swatch(p.colour, true), ` ${p.variant.label ? `${p.variant.name}: ${p.short}` : p.short}`)),
    ),
  );
  // Indented labels (sub-rows) keep their indent as non-breaking spaces.
  const body = [...rows.map(([label, fn]) => [label, recent.map(fn)]), ...extra].map(([label, cells]) =>
    el(
      'tr',
      {},
      el('td', {}, label.replace(/^ {2}/, '\u00a0\u00a0')),
      cells.map((c) => el('td', {}, c)),
    ),
  );
  setChildren(table, [head, el('tbody', {}, body)]);
}

/** @param {StatsSource} src */
export function statsCsv(src) {
  const lines = [CSV_HEADER];
  for (const p of src.panes) lines.push(...p.stats.csvRows(p.variant.label || p.info.algorithm));
  const sw = src.sweep?.series ?? [];
  if (sw.some((s) => s.points.length)) {
    lines.push(
      '',
      'sweep_variant,offered_load,accepted,avg_latency,p99_latency,avg_latency_minimal,avg_latency_nonminimal,nonminimal_fraction,avg_hops,saturated',
    );
    for (const s of sw) {
      for (const p of s.points) {
        lines.push(
          [
            s.label || s.name,
            p.load,
            p.accepted,
            p.avg_latency,
            p.p99_latency,
            p.avg_latency_minimal,
            p.avg_latency_nonminimal,
            p.nonminimal_fraction,
            p.avg_hops,
            p.saturated,
          ]
            .map((v) => (v === null ? '' : v))
            .join(','),
        );
      }
    }
  }
  return `${lines.join('\n')}\n`;
}

/** @param {StatsSource} src */
export function statsJson(src) {
  return {
    url: `${location.origin}${location.pathname}?${encodeExperiment(src.model, src.experiment)}`,
    experiment: src.experiment,
    panes: src.panes.map((p) => ({
      variant: p.variant.name,
      label: p.variant.label,
      config: p.config,
      cycle: p.now,
      samples: p.stats.samples.map(({ snap, ...rest }) => rest),
      fig9: p.stats.fig9,
      batch: p.stats.batchDone,
    })),
    sweep: (src.sweep?.series ?? []).map((s) => ({ variant: s.name, label: s.label, points: s.points })),
  };
}
