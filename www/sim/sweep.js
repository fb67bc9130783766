// The load–latency sweep: one configuration per (pane, offered load), run in a Web Worker
// one at a time, lowest loads first and the panes interleaved so every curve grows as the
// points arrive. A pane's higher loads are skipped once it saturated.

import { sweepLoads } from '../../pkg/hiradix.js';
import { messageOf } from '../lib/errors.js';

/**
 * Reads "0.05:0.5:0.05" (start:stop:step) or "0.1, 0.2, 0.4" into loads in (0, 1] with the
 * engine's rule (`sweepLoads`: experiment::parse_loads, as the CLI's --loads and a story's
 * sweep), or says what is wrong.
 * @param {string} text
 * @returns {{loads: number[], error?: undefined} | {error: string, loads?: undefined}}
 */
export function parseLoads(text) {
  try {
    return { loads: Array.from(sweepLoads(String(text))) };
  } catch (e) {
    return { error: Array.isArray(e) && e.length ? String(e[0].message) : messageOf(e) };
  }
}

/**
 * A curve's saturation, as `hiradix sweep` reports it (src/saturation.rs,
 * CurveSaturation): where it starts — between the last unsaturated and the first saturated
 * load — and the saturation throughput, the accepted throughput at the last unsaturated
 * load (a lower bound, "≥", if no point saturated). The peak accepted throughput at any
 * load is kept apart: past the onset it can keep rising while part of the traffic starves,
 * so it is no saturation throughput. Each point's `saturated` flag comes from the engine's
 * one rule (labeled packets not drained, a source queue full, or accepted below offered
 * beyond its statistical tolerance).
 */
export function curveSaturation(points) {
  const sorted = [...points].sort((a, b) => a.load - b.load);
  const first = sorted.findIndex((p) => p.saturated);
  const onset = first >= 0 ? sorted[first].load : null;
  const below = first >= 0 ? sorted.slice(0, first) : sorted;
  const lastUnsaturated = below.length ? below.at(-1).load : 0;
  const throughput = below.length ? below.at(-1).accepted : 0;
  const peakAccepted = sorted.reduce((m, p) => Math.max(m, Number.isFinite(p.accepted) ? p.accepted : 0), 0);
  let text;
  let throughputText;
  if (onset === null) {
    text = `> ${lastUnsaturated}`;
    throughputText = `≥ ${throughput.toFixed(3)}`;
  } else if (!below.length) {
    text = `≤ ${onset}`;
    throughputText = `< ${onset}`;
  } else {
    text = `${lastUnsaturated}–${onset}`;
    throughputText = throughput.toFixed(3);
  }
  return { onset, lastUnsaturated, throughput, peakAccepted, text, throughputText };
}

/** A copy of `config` as the sweep runs it: packets injected by a Bernoulli process, as in the papers. */
export function sweptConfig(config) {
  const swept = JSON.parse(JSON.stringify(config));
  swept.traffic.injection = 'bernoulli';
  return swept;
}

export class Sweep {
  constructor(onUpdate) {
    this.onUpdate = onUpdate;
    this.worker = null;
    this.reset();
  }

  reset() {
    this.series = [];
    this.jobs = [];
    this.done = 0;
    this.total = 0;
    this.running = false;
    this.error = null;
    this.nextId = 1;
    this.current = null;
  }

  /**
   * variants: [{name, colour, label, config}]. Each series keeps the config it runs
   * (Bernoulli injection; the load is set per point), for the papers' values beside it.
   */
  start(variants, loads) {
    this.stop();
    this.reset();
    this.series = variants.map((v) => ({ name: v.name, colour: v.colour, label: v.label, config: sweptConfig(v.config), points: [], saturatedAt: Infinity }));
    for (const load of loads) {
      this.series.forEach((s, i) => {
        const config = sweptConfig(s.config);
        config.traffic.load = load;
        this.jobs.push({ series: i, load, config });
      });
    }
    this.total = this.jobs.length;
    this.running = true;
    this.worker = new Worker(new URL('./sweep-worker.js', import.meta.url), { type: 'module' });
    this.worker.onmessage = (e) => this.receive(e.data);
    this.worker.onerror = (e) => {
      this.error = `the sweep worker failed: ${e.message ?? e}`;
      this.stop();
      this.onUpdate(this);
    };
    this.next();
    this.onUpdate(this);
  }

  next() {
    while (this.jobs.length) {
      const job = this.jobs[0];
      if (job.load > this.series[job.series].saturatedAt) {
        this.jobs.shift();
        this.done++;
        continue;
      }
      job.id = this.nextId++;
      this.current = job;
      this.worker.postMessage({ id: job.id, config: job.config });
      return;
    }
    this.running = false;
    this.worker?.terminate();
    this.worker = null;
  }

  receive({ id, result, error }) {
    const job = this.current;
    if (!job || job.id !== id) return;
    this.jobs.shift();
    this.done++;
    if (error) {
      this.error = `${this.series[job.series].name}, load ${job.load}: ${error}`;
      this.stop();
    } else {
      const s = result.summary;
      this.series[job.series].points.push({ load: job.load, ...s });
      if (s.saturated) this.series[job.series].saturatedAt = job.load;
      this.next();
    }
    this.onUpdate(this);
  }

  stop() {
    this.worker?.terminate();
    this.worker = null;
    this.running = false;
    this.jobs = [];
  }
}
