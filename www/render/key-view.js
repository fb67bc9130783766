// The key plots beside the picture: what a story's point is measured by, drawn from the
// same numbers as the picture (the link colours of its focus channels against the rest),
// next to the paper's own plot (Fig. 9 for the dragonfly, batch progress for Fig. 5,
// accepted throughput). Without a story: throughput, and Fig. 9 on a dragonfly or the
// latency otherwise.

import { barChart, classBars, lineChart, withFontSize } from './plots.js';
import { classMeans } from '../stories/story.js';
import { WINDOW, focusOwners } from '../model/decisions.js';
import { canvasById } from '../lib/dom.js';

const $ = (id) => document.getElementById(id);

const METRIC_WORDS = {
  occupancy: 'queue occupancy',
  utilization: 'utilization, flits/cycle',
};
const metricWords = (m) => METRIC_WORDS[m] ?? `occupancy of VC ${m.slice(2)}`;

/** The key plots an experiment shows: the story's, else defaults for the network. */
export function keyPlotsOf(panes, preset) {
  const focused = panes.some((p) => p.focus);
  // The class plots compare the story's focus with the rest: without a focus, none.
  const plots = preset?.keyPlots ? preset.keyPlots.filter((k) => (k !== 'classes' && k !== 'decisions') || focused) : [];
  const dragonfly = panes.some((p) => p.info.family === 'dragonfly');
  const batch = panes[0]?.info.batch;
  // With failed links, the packets lost to them.
  const failed = panes.some((p) => p.failedLinks > 0);
  for (const k of [batch ? 'batch' : 'throughput', failed ? 'unroutable' : dragonfly ? 'fig9' : 'latency', 'throughput']) {
    if (plots.length >= 2) break;
    if (!plots.includes(k)) plots.push(k);
  }
  return plots.slice(0, 2);
}

function caption(i, title, note) {
  const cap = $(`key-cap-${i}`);
  const text = `${title}\u0000${note}`;
  if (cap.dataset.text === text) return;
  cap.dataset.text = text;
  const b = document.createElement('span');
  b.textContent = title;
  const m = document.createElement('span');
  m.className = 'muted';
  m.textContent = note ? ` ${note}` : '';
  cap.replaceChildren(b, m);
}

const paneLabel = (p) => (p.variant.label ? `${p.variant.name} · ${p.short}` : p.short);

/**
 * Draws the key plots of the experiment in `experiments` (its story's, see keyPlotsOf) for
 * `panes`, large in `present` mode. Returns the plots drawn (`kinds`) and the numbers of the
 * class plot and of the decisions plot (null when not drawn), or null without panes.
 * @param {import('../sim/pane.js').Pane[]} panes
 * @param {import('../stories/experiment-state.js').ExperimentState} experiments
 * @param {boolean} present
 */
export function renderKey(panes, experiments, present) {
  if (!panes.length) return null;
  const kinds = keyPlotsOf(panes, experiments.story);
  const metric = experiments.experiment.view.metric;
  const shown = { kinds, keyNumbers: null, decisionNumbers: null };
  withFontSize(present ? 16 : 12, () => {
    kinds.forEach((kind, i) => {
      const canvas = canvasById(`key-plot-${i}`);
      if (kind === 'classes') {
        const groups = panes.map((p) => {
          const m = p.focus && p.links && p.linksMetric === metric ? classMeans(p.links, p.focus) : { focus: NaN, rest: NaN, count: 0 };
          return { label: paneLabel(p), colour: p.colour, ...m };
        });
        shown.keyNumbers = {
          metric,
          panes: groups.map((g, k) => ({ pane: panes[k].variant.name, algorithm: panes[k].short, focus: g.focus, rest: g.rest, count: g.count })),
        };
        caption(i, 'The orange-cased channels vs the rest', `(mean ${metricWords(metric)}, as coloured)`);
        const range = experiments.look().range ?? 1;
        // Room above the tallest bar for its value.
        const yMax = Math.max(range, ...groups.flatMap((g) => [g.focus, g.rest]).filter(Number.isFinite)) * 1.18;
        classBars(canvas, { groups, yLabel: metric === 'utilization' ? 'flits/cycle' : 'fraction full', yMax });
      } else if (kind === 'decisions') {
        // Where routing decides: the routers owning a focus channel against the others.
        const groups = panes.map((p) => {
          const owners = focusOwners(p);
          const m = owners ? p.decisions.split(owners) : { inside: NaN, outside: NaN, routersInside: 0 };
          return { label: paneLabel(p), colour: p.colour, ...m, span: p.decisions.span };
        });
        shown.decisionNumbers = {
          panes: groups.map((g, k) => ({
            pane: panes[k].variant.name,
            algorithm: panes[k].short,
            owners: g.inside,
            others: g.outside,
            routersInside: g.routersInside,
            span: g.span,
          })),
        };
        caption(i, 'Where packets go non-minimally', `(share of the packets each router routed, last ${WINDOW} cycles)`);
        const shares = groups.flatMap((g) => [g.inside, g.outside]).filter(Number.isFinite);
        const pct = (v) => `${Math.round(100 * v)} %`;
        classBars(canvas, {
          groups: groups.map((g) => ({ label: g.label, colour: g.colour, focus: g.inside, rest: g.outside })),
          yLabel: 'non-minimal',
          yMax: Math.max(0.1, ...shares) * 1.22,
          labels: ['owns a cased channel', 'other routers'],
          format: pct,
          yFormat: pct,
          emptyText: 'counting decisions…',
        });
      } else if (kind === 'fig9') {
        const f = panes.find((p) => p.stats.fig9)?.stats.fig9;
        const groups = panes
          .filter((p) => p.stats.fig9)
          .map((p) => ({ label: p.variant.label ? p.variant.name : '', colour: p.colour, values: p.stats.fig9.per_channel }));
        const classes = f
          ? [
              { label: 'minimal', short: 'min', from: 0, to: f.minimal_channels, shade: '#fde6cf' },
              { label: 'same router', short: 'same', from: f.minimal_channels, to: f.minimal_channels + f.same_router_channels, shade: '#eef0f4' },
              { label: 'other global channels', short: 'other', from: f.minimal_channels + f.same_router_channels, to: f.per_channel.length, shade: '#f7f8fa' },
            ]
          : [];
        caption(i, 'Global channel utilization by class', '(Fig. 9; flits/cycle, averaged over groups)');
        barChart(canvas, { groups, classes, yLabel: 'flits/cycle', yMax: 1 });
      } else if (kind === 'batch') {
        caption(i, 'Batch delivered', '(fraction of all packets; the first to reach 1 wins)');
        lineChart(canvas, {
          series: panes.map((p) => {
            const total = p.info.terminals * p.info.batch_size;
            return {
              label: p.variant.label ? p.variant.name : '',
              colour: p.colour,
              width: 2.5,
              points: p.stats.samples.map((s) => [s.cycle, s.snap.c.delivered / total]),
            };
          }),
          xLabel: 'cycle',
          yLabel: 'delivered',
          yMax: 1,
          xMin: 0,
        });
      } else if (kind === 'unroutable') {
        caption(i, 'Packets lost to failed links', '(unroutable: routed onto a failed link; total)');
        const series = panes.map((p) => ({
          label: p.variant.label ? p.variant.name : '',
          colour: p.colour,
          width: 2.5,
          points: p.stats.samples.map((s) => [s.cycle, s.snap.c.unroutable]),
        }));
        const top = Math.max(10, ...series.flatMap((s) => s.points.map((q) => q[1])));
        // The legend says each pane's total so far, so a flat line at 0 reads as "none lost".
        const legendEntries = panes.map((p, k) => ({ label: `${paneLabel(p)}: ${series[k].points.at(-1)?.[1] ?? 0}`, colour: p.colour }));
        lineChart(canvas, { series, xLabel: 'cycle', yLabel: 'packets', yMax: top * 1.35, xMin: 0, legendEntries });
      } else if (kind === 'latency') {
        caption(i, 'Latency', '(cycles)');
        lineChart(canvas, {
          series: panes.map((p) => ({
            label: p.variant.label ? p.variant.name : '',
            colour: p.colour,
            width: 2.5,
            points: p.stats.samples.map((s) => [s.cycle, s.latency]),
          })),
          xLabel: 'cycle',
          yLabel: 'cycles',
        });
      } else {
        caption(i, 'Accepted throughput', '(flits/cycle/terminal; thin dashed: offered)');
        const top = Math.max(0.05, ...panes.flatMap((p) => p.stats.samples.flatMap((s) => [s.accepted, s.offered]).filter(Number.isFinite)));
        lineChart(canvas, {
          yMax: top * 1.45,
          series: panes.flatMap((p) => [
            { label: p.variant.label ? p.variant.name : '', colour: p.colour, width: 2.5, points: p.stats.samples.map((s) => [s.cycle, s.accepted]) },
            { label: '', colour: p.colour, width: 1, dash: [4, 4], points: p.stats.samples.map((s) => [s.cycle, s.offered]) },
          ]),
          xLabel: 'cycle',
          yLabel: 'flits/cycle',
        });
      }
    });
  });
  return shown;
}
