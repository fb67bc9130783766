// Live statistics of one pane, sampled every few simulated cycles from the engine's
// cumulative counters (WebSim.liveCounters): throughput, latency overall and split by
// minimal / non-minimal routing, the non-minimal fraction, hops and backlog over time; the
// latency histograms over a sliding window; and for dragonflies the Fig. 9 global-channel
// utilization by class, smoothed over about FIG9_TAU cycles.

export const HIST_BINS = 1024;
const HIST_WINDOW = 12; // samples in the histogram window
const MAX_SAMPLES = 800;
const FIG9_TAU = 1500;

const ratio = (a, b) => (b > 0 ? a / b : NaN);

export class StatsTracker {
  constructor(info) {
    this.info = info;
    this.samples = [];
    this.first = null;
    this.last = null;
    this.histSnaps = [];
    this.fig9 = null;
    this.batchDone = null;
  }

  /** Rates between two counter snapshots. */
  rates(a, b) {
    const cycles = b.cycle - a.cycle;
    // The counters are named as src/stats/mod.rs's LiveCounters names them.
    const d = (k) => b.c[k] - a.c[k];
    const terms = this.info.terminals;
    const period = this.info.terminal_period;
    const delivered = d('delivered');
    return {
      cycle: b.cycle,
      cycles,
      accepted: ratio(d('delivered_flits') * period, cycles * terms),
      offered: ratio(d('generated') * this.info.packet_size * period, cycles * terms),
      latency: ratio(d('latency_sum'), delivered),
      latencyMin: ratio(d('minimal_latency_sum'), d('minimal_delivered')),
      latencyNonmin: ratio(d('nonminimal_latency_sum'), d('nonminimal_delivered')),
      nonminFraction: ratio(d('delivered_nonminimal'), delivered),
      hops: ratio(d('hops_sum'), delivered),
      delivered,
      inNetwork: b.c.in_network,
      inSources: b.c.in_sources,
      dropped: d('dropped'),
      unroutable: d('unroutable'),
      unroutableTotal: b.c.unroutable,
    };
  }

  sample(sim) {
    const snap = { cycle: sim.now(), c: sim.liveCounters() };
    if (!this.first) {
      this.first = snap;
      this.last = snap;
      this.histSnaps.push(sim.latencyHistograms(HIST_BINS));
      if (this.info.family === 'dragonfly') sim.globalChannelUtilization();
      return;
    }
    if (snap.cycle <= this.last.cycle) return;
    const r = this.rates(this.last, snap);
    r.snap = snap;
    this.samples.push(r);
    if (this.samples.length > MAX_SAMPLES) this.samples.splice(0, this.samples.length - MAX_SAMPLES);
    this.last = snap;
    this.histSnaps.push(sim.latencyHistograms(HIST_BINS));
    if (this.histSnaps.length > HIST_WINDOW + 1) this.histSnaps.shift();
    if (this.info.family === 'dragonfly') this.sampleFig9(sim);
    if (this.info.batch && this.batchDone === null && !snap.c.batch_pending && snap.c.generated > 0) {
      const cycles = snap.c.last_delivery + 1;
      this.batchDone = { cycles, perPacket: cycles / this.info.batch_size };
    }
  }

  sampleFig9(sim) {
    const u = sim.globalChannelUtilization();
    if (!u) return;
    if (!this.fig9) {
      this.fig9 = { per_channel: [...u.per_channel], cycles: u.cycles };
    } else {
      const w = 1 - Math.exp(-u.cycles / FIG9_TAU);
      const f = this.fig9;
      f.per_channel = f.per_channel.map((v, i) => (1 - w) * v + w * u.per_channel[i]);
      f.cycles += u.cycles;
    }
    const f = this.fig9;
    const mean = (a) => (a.length ? a.reduce((x, y) => x + y, 0) / a.length : NaN);
    const m = u.minimal_channels;
    const s = u.same_router_channels;
    f.minimal_channels = m;
    f.same_router_channels = s;
    f.minimal = mean(f.per_channel.slice(0, m));
    f.same_router = mean(f.per_channel.slice(m, m + s));
    f.other = mean(f.per_channel.slice(m + s));
  }

  /**
   * The simulation went back to `cycle` (a rewind): the samples after it are dropped, so
   * the plots and rates continue from there as if the later ones had never been taken.
   */
  rewind(cycle) {
    if (!this.first) return;
    this.samples = this.samples.filter((s) => s.cycle <= cycle);
    this.last = this.samples.at(-1)?.snap ?? this.first;
    if (this.first.cycle > cycle) {
      this.first = null;
      this.last = null;
    }
    // The histogram window restarts from the next sample.
    this.histSnaps = [];
    if (this.batchDone && this.batchDone.cycles > cycle) this.batchDone = null;
  }

  /** Rates over (about) the last `k` samples. */
  recent(k = 10) {
    const n = this.samples.length;
    if (!n) return null;
    const from = n > k ? this.samples[n - k - 1].snap : this.first;
    return this.rates(from, this.samples[n - 1].snap);
  }

  /**
   * Whether the source queues' backlog is growing: more than one packet per terminal
   * waiting, and up by more than one packet per terminal over the last `window` cycles
   * (a network that accepts 1 % less than half its bandwidth grows it by more). A standing
   * backlog that the network keeps up with (a sliced network's slower slice, say) is not
   * growth, nor is it while it settles.
   */
  backlogGrowing(window = 1000) {
    const n = this.samples.length;
    if (n < 2) return false;
    const last = this.samples[n - 1];
    let i = n - 1;
    while (i > 0 && last.cycle - this.samples[i].cycle < window) i--;
    const terms = this.info.terminals;
    return last.inSources > terms && last.inSources - this.samples[i].inSources > terms;
  }

  /** Latency histograms over the window: {min, nonmin, count}. */
  histogram() {
    const n = this.histSnaps.length;
    if (n < 2) return null;
    const a = this.histSnaps[0];
    const b = this.histSnaps[n - 1];
    const min = new Float64Array(HIST_BINS);
    const nonmin = new Float64Array(HIST_BINS);
    let count = 0;
    for (let i = 0; i < HIST_BINS; i++) {
      min[i] = b[i] - a[i];
      nonmin[i] = b[HIST_BINS + i] - a[HIST_BINS + i];
      count += min[i] + nonmin[i];
    }
    return { min, nonmin, count };
  }

  /** The time series as CSV rows (see CSV_HEADER). */
  csvRows(variant) {
    const fmt = (v) => (typeof v === 'number' && !Number.isInteger(v) ? (Number.isFinite(v) ? v.toFixed(5) : '') : v);
    return this.samples.map((s) =>
      [
        JSON.stringify(variant),
        s.cycle,
        s.offered,
        s.accepted,
        s.latency,
        s.latencyMin,
        s.latencyNonmin,
        s.nonminFraction,
        s.hops,
        s.inNetwork,
        s.inSources,
        s.dropped,
        s.unroutable,
      ]
        .map(fmt)
        .join(','),
    );
  }
}

export const CSV_HEADER =
  'variant,cycle,offered,accepted,latency,latency_minimal,latency_nonminimal,nonminimal_fraction,hops,packets_in_network,packets_in_source_queues,dropped,unroutable';
