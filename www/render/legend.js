// The legend under the picture: what the link colour shows (and the ramp's labels, after
// the story's range), the story's focus channels, failed links, the routers' colour; and
// the same legend as text for the PNG export. Reads the experiment (ExperimentState) and
// the panes; writes only the DOM (and, through ExperimentState, the metric a network lacks).

import { selectById } from '../lib/dom.js';
import { SHARE_FULL, WINDOW as DECISION_WINDOW } from '../model/decisions.js';
import { COLOURS, DENSE_CHANNELS } from './network-view.js';
import { PACKET_LEGEND } from './motion.js';

/** @typedef {import('../stories/experiment-state.js').ExperimentState} ExperimentState */
/** @typedef {import('../sim/pane.js').Pane} Pane */

const $ = (id) => document.getElementById(id);

/** The ramp's three labels (idle, middle, full colour) for a metric and the story's `range`. */
export function rampLabels(metric, range = 1) {
  const r = range;
  const num = (x) => String(Number(x.toFixed(3)));
  const pct = (x) => `${Number((100 * x).toFixed(1))} %`;
  const ge = r < 1 ? '≥ ' : '';
  if (metric === 'utilization') return ['idle', num(r / 2), `${ge}${num(r)} flit/cycle`];
  return ['idle', pct(r / 2), r < 1 ? `${ge}${pct(r)}` : 'full'];
}

/** What the link colour means, for a metric. */
export function legendMetricText(metric) {
  return (
    {
      occupancy: "link colour: flits buffered where the channel arrives, over that input port's capacity (all VCs)",
      utilization: 'link colour: flits sent on the channel per cycle (smoothed over ≈32 cycles)',
    }[metric] ?? `link colour: flits in VC ${metric.slice(2)} where the channel arrives, over the VC's depth`
  );
}

/**
 * The link metric menu (one entry per VC of the network), the legend's metric row and the
 * ramp. A VC the network lacks (a link's vc9 on 4 VCs: the page reports it) falls back to
 * all VCs; without panes (the simulator crashed) the network's VCs are unknown: kept as asked.
 * @param {ExperimentState} experiments
 * @param {Pane[]} panes
 */
export function syncMetric(experiments, panes) {
  const sel = selectById('link-metric');
  const vcs = panes[0]?.vcs ?? 1;
  const opts = [
    ['occupancy', 'occupancy (all VCs)'],
    ['utilization', 'utilization'],
  ];
  for (let v = 0; v < vcs; v++) opts.push([`vc${v}`, `VC ${v} occupancy`]);
  const want = experiments.experiment.view.metric;
  const key = opts.map((o) => o[0]).join();
  if (sel.dataset.key !== key) {
    sel.replaceChildren(...opts.map(([v, t]) => new Option(t, v)));
    sel.dataset.key = key;
  }
  if (panes.length && !opts.some((o) => o[0] === want)) experiments.setView({ metric: 'occupancy' });
  sel.value = experiments.experiment.view.metric;
  const dense = panes.some((p) => p.info.channels > DENSE_CHANNELS)
    ? `; in networks of over ${DENSE_CHANNELS.toLocaleString('en')} channels only those at least half full are coloured, the others stay grey`
    : '';
  const range = experiments.look().range ?? 1;
  const [, mid, hi] = rampLabels(sel.value, range);
  $('legend-metric').textContent = `${legendMetricText(sel.value)}${range !== 1 ? `; full colour from ${hi.replace('≥ ', '')} on` : ''}${dense}`;
  $('ramp-mid').textContent = mid;
  $('ramp-hi').textContent = hi;
  syncFocusLegend(experiments, panes);
}

/**
 * The legend's row for a story's focus channels (shown only while some pane has them).
 * @param {ExperimentState} experiments
 * @param {Pane[]} panes
 */
export function syncFocusLegend(experiments, panes) {
  const rule = experiments.focus;
  const on = Boolean(rule && panes.some((p) => p.focus));
  $('legend-focus-row').hidden = !on;
  $('legend-focus').textContent = on ? `orange casing: ${rule.label}${rule.dim === 1 ? '' : '; the other channels are dimmed'}` : '';
  syncFailedLegend(panes);
}

/**
 * The legend's row for failed links (shown while some pane has one).
 * @param {Pane[]} panes
 */
export function syncFailedLegend(panes) {
  const counts = panes.map((p) => p.failedLinks ?? 0);
  const on = counts.some((n) => n > 0);
  const each = counts.every((n) => n === counts[0]) ? `${counts[0]}` : counts.map((n, i) => `${panes[i].variant.name}: ${n}`).join(', ');
  $('legend-failed-row').hidden = !on;
  $('legend-failed').textContent = on ? `dashed, crossed out: failed link (carries nothing; ${each} failed)` : '';
  document.body.classList.toggle('has-failed', on);
}

/**
 * The legend's router row says what the routers' colour shows.
 * @param {ExperimentState} experiments
 */
export function syncRouterLegend(experiments) {
  const byShare = experiments.experiment?.view.routers === 'nonmin';
  $('legend-router').textContent = byShare
    ? `router: share of its routed packets sent non-minimally, last ${DECISION_WINDOW} cycles (white = none, darkest ≥ ${100 * SHARE_FULL} %)`
    : 'router: white = idle, darker = fuller injection buffers';
}

/**
 * What the PNG export draws under the networks: the ramp and what it means, and the packet
 * symbols while the picture draws packets (`packetsShown`).
 * @param {ExperimentState} experiments
 * @param {Pane[]} panes
 * @param {boolean} packetsShown
 */
export function exportLegend(experiments, panes, packetsShown) {
  const exp = experiments.experiment;
  const metric = exp.view.metric;
  const rule = experiments.focus;
  return {
    text: legendMetricText(metric),
    labels: rampLabels(metric, experiments.look().range ?? 1),
    focus: rule && panes.some((p) => p.focus) ? `orange casing: ${rule.label}` : null,
    focusColour: COLOURS.focus,
    extra: `${exp.view.routers === 'nonmin' ? `router: share of its routed packets sent non-minimally (last ${DECISION_WINDOW} cycles; darkest ≥ ${100 * SHARE_FULL} %)` : 'router: white = idle, darker = fuller injection buffers'} · ring: packets waiting at the source${panes.some((p) => p.failedLinks > 0) ? ' · dashed, crossed out: failed link' : ''}`,
    packets: packetsShown ? PACKET_LEGEND : null,
  };
}
