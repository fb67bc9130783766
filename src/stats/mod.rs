//! Statistics: latency accumulators with histograms, the min/non-min split, and live
//! counters for the page.

pub mod dragonfly;

use crate::saturation::SaturationCause;
use serde::{Deserialize, Deserializer, Serialize};

/// Histogram bins are one cycle wide up to this latency; larger values go to the last bin.
pub(crate) const HISTOGRAM_BINS: usize = 4096;

/// Latency of a set of packets: count, sum, max and a 1-cycle histogram.
#[derive(Clone, Debug)]
pub struct LatencyStats {
    pub count: u64,
    pub sum: u64,
    pub max: u64,
    pub hist: Vec<u32>,
}

impl Default for LatencyStats {
    fn default() -> Self {
        LatencyStats { count: 0, sum: 0, max: 0, hist: vec![0; HISTOGRAM_BINS] }
    }
}

impl LatencyStats {
    #[inline]
    pub(crate) fn record(&mut self, latency: u64) {
        self.count += 1;
        self.sum += latency;
        self.max = self.max.max(latency);
        self.hist[(latency as usize).min(HISTOGRAM_BINS - 1)] += 1;
    }
    pub fn mean(&self) -> f64 {
        if self.count == 0 {
            f64::NAN
        } else {
            self.sum as f64 / self.count as f64
        }
    }
    /// The smallest latency at or below which a fraction `p` of packets fall.
    pub fn percentile(&self, p: f64) -> u64 {
        if self.count == 0 {
            return 0;
        }
        let target = (p * self.count as f64).ceil().max(1.0) as u64;
        let mut acc = 0u64;
        for (lat, &n) in self.hist.iter().enumerate() {
            acc += n as u64;
            if acc >= target {
                return if lat == HISTOGRAM_BINS - 1 { self.max } else { lat as u64 };
            }
        }
        self.max
    }
    pub fn clear(&mut self) {
        self.count = 0;
        self.sum = 0;
        self.max = 0;
        self.hist.iter_mut().for_each(|h| *h = 0);
    }
}

/// Counters the engine updates as packets are generated and delivered.
#[derive(Clone, Debug, Default)]
pub struct Stats {
    /// Packets created in `[label_start, label_end)` are labeled.
    pub label_start: u64,
    pub label_end: u64,
    pub labeled_created: u64,
    pub labeled_delivered: u64,
    /// Latency of labeled packets: all, minimally routed, non-minimally routed.
    pub latency: LatencyStats,
    pub latency_minimal: LatencyStats,
    pub latency_nonminimal: LatencyStats,
    pub labeled_hops: u64,
    /// Flits delivered / generated with time inside `[label_start, label_end)`.
    pub window_accepted_flits: u64,
    pub window_offered_flits: u64,
    /// Packets dropped because a source queue was full, inside the window.
    pub window_dropped: u64,
    /// Packets routed onto a failed link and dropped (HyperX §6), since the start; of
    /// them, the labeled ones; flits of those dropped inside the window.
    pub unroutable: u64,
    pub labeled_unroutable: u64,
    pub window_unroutable_flits: u64,
    /// Cumulative counters over all packets since the start (for live plots).
    pub generated: u64,
    pub dropped: u64,
    pub delivered: u64,
    pub delivered_flits: u64,
    pub delivered_nonminimal: u64,
    pub latency_sum: u64,
    pub hops_sum: u64,
    /// Hash of every generation event (cycle, source, destination), dropped ones included:
    /// equal fingerprints mean identical offered traffic.
    pub traffic_fingerprint: u64,
    /// Last delivery cycle (batch mode completion time).
    pub last_delivery: u64,
    /// Latency of all delivered packets since the start.
    pub live_latency: LatencyStats,
}

impl Stats {
    /// Every labeled packet has arrived or was dropped as unroutable.
    pub fn labeled_done(&self) -> bool {
        self.labeled_delivered + self.labeled_unroutable == self.labeled_created
    }
    /// Packets generated and neither dropped nor delivered yet.
    pub fn backlog(&self) -> u64 {
        self.generated - self.dropped - self.unroutable - self.delivered
    }

    /// Folds one generation event into [`Stats::traffic_fingerprint`].
    #[inline]
    pub(crate) fn note_generated(&mut self, cycle: u64, src: u32, dst: u32) {
        let x = cycle.wrapping_mul(0x9e37_79b9_7f4a_7c15) ^ ((src as u64) << 32 | dst as u64);
        self.traffic_fingerprint = (self.traffic_fingerprint ^ x).wrapping_mul(0x100_0000_01b3).rotate_left(17);
        self.generated += 1;
    }

    #[inline]
    pub(crate) fn in_window(&self, t: u64) -> bool {
        t >= self.label_start && t < self.label_end
    }
}

/// The cumulative counters of a running simulation, by name: what the page samples to
/// plot throughput, latency (overall, minimal, non-minimal), hops and backlog over time
/// and exports with its statistics. Every field counts since cycle 0 (except the two
/// backlogs, which are the present state), so the rate over an interval is the difference
/// of two samples divided by its cycles.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize)]
pub struct LiveCounters {
    /// Packets generated (dropped ones included).
    pub generated: u64,
    /// Packets dropped at a full source queue.
    pub dropped: u64,
    /// Packets delivered, and their flits.
    pub delivered: u64,
    pub delivered_flits: u64,
    /// Sums of the delivered packets' latencies (cycles from generation to delivery) and
    /// router-to-router hops.
    pub latency_sum: u64,
    pub hops_sum: u64,
    /// Delivered packets routed non-minimally.
    pub delivered_nonminimal: u64,
    /// Labeled packets delivered after a minimal route, and their latency sum; the same
    /// for non-minimal routes (the page labels every packet).
    pub minimal_delivered: u64,
    pub minimal_latency_sum: u64,
    pub nonminimal_delivered: u64,
    pub nonminimal_latency_sum: u64,
    /// Packets dropped because they were routed onto a failed link (HyperX §6).
    pub unroutable: u64,
    /// Cycle of the last delivery (a batch's completion time).
    pub last_delivery: u64,
    /// Packets in the network (buffers, queues, channels) and in source queues now.
    pub in_network: u64,
    pub in_sources: u64,
    /// A batch still has packets to generate or deliver (batch mode).
    pub batch_pending: bool,
}

impl Stats {
    /// The counters of [`LiveCounters`] kept here; the caller fills in the engine's
    /// present state (`in_network`, `in_sources`, `batch_pending`).
    pub(crate) fn live_counters(&self) -> LiveCounters {
        LiveCounters {
            generated: self.generated,
            dropped: self.dropped,
            delivered: self.delivered,
            delivered_flits: self.delivered_flits,
            latency_sum: self.latency_sum,
            hops_sum: self.hops_sum,
            delivered_nonminimal: self.delivered_nonminimal,
            minimal_delivered: self.latency_minimal.count,
            minimal_latency_sum: self.latency_minimal.sum,
            nonminimal_delivered: self.latency_nonminimal.count,
            nonminimal_latency_sum: self.latency_nonminimal.sum,
            unroutable: self.unroutable,
            last_delivery: self.last_delivery,
            ..LiveCounters::default()
        }
    }
}

/// Summary of one measured run (the papers' methodology, see [`crate::experiment`]). It
/// reads back from the JSON it writes (`hiradix merge` collects the points of a sweep run
/// on a cluster): JSON has no NaN, so an undefined mean is written as `null` and read back
/// as NaN.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct Summary {
    /// The configured offered load, flits/cycle/terminal.
    #[serde(deserialize_with = "f64_or_nan")]
    pub offered_load: f64,
    /// The offered load measured: flits the sources generated during the window (dropped
    /// ones included), per cycle per terminal (batch mode: the accepted throughput).
    #[serde(deserialize_with = "f64_or_nan")]
    pub offered_measured: f64,
    /// Accepted throughput, flits/cycle/terminal, over the measurement window.
    #[serde(deserialize_with = "f64_or_nan")]
    pub accepted: f64,
    #[serde(deserialize_with = "f64_or_nan")]
    pub avg_latency: f64,
    pub p50_latency: u64,
    pub p99_latency: u64,
    pub max_latency: u64,
    #[serde(deserialize_with = "f64_or_nan")]
    pub avg_hops: f64,
    /// Fraction of labeled packets routed non-minimally.
    #[serde(deserialize_with = "f64_or_nan")]
    pub nonminimal_fraction: f64,
    #[serde(deserialize_with = "f64_or_nan")]
    pub avg_latency_minimal: f64,
    #[serde(deserialize_with = "f64_or_nan")]
    pub avg_latency_nonminimal: f64,
    pub labeled_packets: u64,
    /// Fraction of labeled packets routed onto a failed link and dropped as unroutable
    /// (0 without failed links; HyperX §6).
    #[serde(default)]
    pub unroutable_fraction: f64,
    /// The point is saturated ([`crate::saturation`]): `saturation.is_some()`.
    pub saturated: bool,
    /// Why it is saturated, if it is.
    pub saturation: Option<SaturationCause>,
    /// Cycles simulated in total.
    pub cycles: u64,
}

/// A number, or NaN for `null` (how serde_json writes NaN).
impl Summary {
    /// Checks that every number lies where a run can put it (a summary read back from a
    /// file may have been written by anyone): finite or, for a mean over no packets, NaN;
    /// loads and throughputs in [0, 16] flits/cycle, latencies and cycles within the
    /// longest run, fractions in [0, 1]. Names the first field that does not.
    pub fn check_ranges(&self) -> Result<(), String> {
        let max_cycles = crate::config::MAX_RUN_CYCLES as f64;
        let reals = [
            ("offered_load", self.offered_load, 0.0, 1.0, false),
            ("offered_measured", self.offered_measured, 0.0, 16.0, false),
            ("accepted", self.accepted, 0.0, 16.0, false),
            ("avg_latency", self.avg_latency, 0.0, max_cycles, true),
            ("avg_hops", self.avg_hops, 0.0, 1e4, true),
            ("nonminimal_fraction", self.nonminimal_fraction, 0.0, 1.0, true),
            ("avg_latency_minimal", self.avg_latency_minimal, 0.0, max_cycles, true),
            ("avg_latency_nonminimal", self.avg_latency_nonminimal, 0.0, max_cycles, true),
            ("unroutable_fraction", self.unroutable_fraction, 0.0, 1.0, false),
        ];
        for (name, v, lo, hi, nan_allowed) in reals {
            if !((nan_allowed && v.is_nan()) || (lo..=hi).contains(&v)) {
                return Err(format!("{name}: {v} is outside [{lo}, {hi}]"));
            }
        }
        let counts = [
            ("p50_latency", self.p50_latency),
            ("p99_latency", self.p99_latency),
            ("max_latency", self.max_latency),
            ("cycles", self.cycles),
        ];
        for (name, v) in counts {
            if v > crate::config::MAX_RUN_CYCLES {
                return Err(format!("{name}: {v} is more than the longest run"));
            }
        }
        if self.saturated != self.saturation.is_some() {
            return Err("saturated: contradicts saturation".into());
        }
        Ok(())
    }
}

fn f64_or_nan<'de, D: Deserializer<'de>>(d: D) -> Result<f64, D::Error> {
    Ok(Option::<f64>::deserialize(d)?.unwrap_or(f64::NAN))
}
