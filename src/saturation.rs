//! When a measured point counts as saturated — the one rule `run`, `sweep`, the figures and
//! the page share — and the saturation throughput of a load–latency curve
//! ([`CurveSaturation`]).
//!
//! A network is saturated at an offered load when it cannot keep up with it: its backlog
//! (packets generated and not yet delivered, in source queues and in the network) grows
//! without bound instead of staying stationary. The papers read this off their curves as
//! the load where latency goes vertical and accepted throughput stops following the offered
//! load (FB paper §3.2, dragonfly paper §4.1, HyperX paper §4.1); BookSim and SuperSim flag
//! it when accepted falls below offered or latency diverges. Over the measurement window
//! of `W` cycles, with `N` terminals,
//!
//! ```text
//! accepted flits = offered flits − dropped flits − (backlog at the end − backlog at the start)
//! ```
//!
//! exactly (every flit generated in the window is delivered in it, still waiting at its
//! end, or dropped by a full source queue). A point is saturated, for the first of these
//! causes that holds:
//!
//! 1. [`SaturationCause::NotDrained`]: its labeled packets did not all arrive within
//!    `measurement.drain_limit` cycles after the window;
//! 2. [`SaturationCause::SourcesFull`]: a source queue overflowed during the window
//!    (`traffic.source_queue_cap`), so packets were dropped;
//! 3. [`SaturationCause::BacklogGrew`]: accepted throughput fell below the offered load
//!    (both measured over the window) by more than the statistical tolerance, i.e. the
//!    backlog grew during the window by more than a stationary backlog fluctuates.
//!
//! **The tolerance.** Below saturation the backlog `B` is stationary, so its growth over
//! the window, `B_end − B_start`, has mean 0 and, when the window is long against the
//! backlog's correlation time, standard deviation `σ = √(2·Var B)`. `Var B` is measured:
//! the run samples the backlog every `W/256` cycles during the window ([`BacklogSamples`])
//! and takes the variance of the samples about their least-squares line (the line removes
//! the growth itself, which would otherwise widen the tolerance of exactly the points it
//! should flag). Its floor is the Poisson value `λ·T` (Little's law: `λ` packets offered per
//! cycle, `T` their mean latency; exact for a network without contention, an M/G/∞
//! system), so a short window of a quiet network is not judged on a few samples. A point
//! counts as saturated when the growth exceeds [`Z`] = 4 such standard deviations (a
//! stationary Gaussian fluctuation does so with probability 3·10⁻⁵), in flits
//! (× packet size). Comparing with the offered flits *measured* in the window, not the
//! nominal load, removes the Bernoulli sources' own sampling noise from the test.
//! `tests/integration/saturation.rs` checks that no point of a sweep at up to 80 % of each network's
//! known capacity is flagged over several seeds, and that accepted-below-offered points
//! whose labeled packets drain are.
//!
//! A latency multiple of the zero-load latency is deliberately not a cause: Valiant and
//! the non-minimal paths of adaptive routing double the zero-load latency by design, and
//! every point whose latency diverges also grows its backlog (cause 3) or fails to drain
//! (cause 1).

use serde::{Deserialize, Serialize};

/// Standard deviations of the stationary backlog fluctuation beyond which the backlog's
/// growth over the window counts as saturation (see the module documentation).
pub const Z: f64 = 4.0;

/// Why a measured point counts as saturated (see the module documentation).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SaturationCause {
    /// The labeled packets did not drain within the drain limit.
    NotDrained,
    /// A source queue overflowed during the window.
    SourcesFull,
    /// Accepted throughput fell below the offered load beyond the statistical tolerance.
    BacklogGrew,
}

impl SaturationCause {
    /// The cause's name in CSV and JSON (`not_drained`, `sources_full`, `backlog_grew`).
    pub fn name(self) -> &'static str {
        match self {
            SaturationCause::NotDrained => "not_drained",
            SaturationCause::SourcesFull => "sources_full",
            SaturationCause::BacklogGrew => "backlog_grew",
        }
    }

    /// The cause in a few words, for tables and the page.
    pub fn describe(self) -> &'static str {
        match self {
            SaturationCause::NotDrained => "labeled packets did not drain",
            SaturationCause::SourcesFull => "source queues overflowed",
            SaturationCause::BacklogGrew => "accepted below offered",
        }
    }
}

/// What the saturation test reads of one measured window.
#[derive(Clone, Copy, Debug)]
pub struct WindowCounts {
    /// Every labeled packet arrived within the drain limit.
    pub drained: bool,
    /// Packets dropped by full source queues during the window.
    pub dropped: u64,
    /// Flits generated (offered, dropped ones included) during the window.
    pub offered_flits: u64,
    /// Flits delivered during the window.
    pub accepted_flits: u64,
    /// Flits of packets dropped during the window as unroutable (routed onto a failed
    /// link): lost, not backlog, so they are not counted as growth.
    pub unroutable_flits: u64,
    /// Window length in cycles.
    pub window: u64,
    /// Flits per packet.
    pub packet_size: u32,
    /// Mean latency of the labeled packets (generation to delivery), cycles.
    pub mean_latency: f64,
    /// Variance of the backlog (packets) about its trend during the window
    /// ([`BacklogSamples::detrended_variance`]).
    pub backlog_variance: f64,
}

/// Backlog samples (packets generated, not dropped and not yet delivered) taken at equal
/// intervals during the window.
#[derive(Clone, Debug, Default)]
pub struct BacklogSamples(pub Vec<f64>);

impl BacklogSamples {
    /// Variance of the samples about their least-squares line (0 with fewer than 3).
    pub fn detrended_variance(&self) -> f64 {
        let y = &self.0;
        let n = y.len();
        if n < 3 {
            return 0.0;
        }
        let nf = n as f64;
        let mean_x = (nf - 1.0) / 2.0;
        let mean_y = y.iter().sum::<f64>() / nf;
        let (mut sxy, mut sxx) = (0.0, 0.0);
        for (i, &v) in y.iter().enumerate() {
            let dx = i as f64 - mean_x;
            sxy += dx * (v - mean_y);
            sxx += dx * dx;
        }
        let slope = sxy / sxx;
        let rss: f64 = y.iter().enumerate().map(|(i, &v)| (v - mean_y - slope * (i as f64 - mean_x)).powi(2)).sum();
        rss / (nf - 2.0)
    }
}

/// The backlog growth, in flits, that a stationary (unsaturated) network exceeds with
/// probability below 3·10⁻⁵: `Z · size · √(2·max(Var B, λ·T))` (see the module
/// documentation).
pub fn tolerance_flits(w: &WindowCounts) -> f64 {
    let size = w.packet_size.max(1) as f64;
    let packets_per_cycle = w.offered_flits as f64 / size / w.window.max(1) as f64;
    let latency = if w.mean_latency.is_finite() { w.mean_latency } else { 0.0 };
    let variance = w.backlog_variance.max(packets_per_cycle * latency);
    Z * size * (2.0 * variance).sqrt()
}

/// The rule: why the window counts as saturated, or `None` if it does not.
pub fn cause(w: &WindowCounts) -> Option<SaturationCause> {
    if !w.drained {
        return Some(SaturationCause::NotDrained);
    }
    if w.dropped > 0 {
        return Some(SaturationCause::SourcesFull);
    }
    let growth = w.offered_flits as f64 - w.accepted_flits as f64 - w.unroutable_flits as f64;
    (growth > tolerance_flits(w)).then_some(SaturationCause::BacklogGrew)
}

/// Where one load–latency curve saturates, and its saturation throughput in the papers'
/// sense: the load the network carries before its backlog starts to grow (FB paper §3.2,
/// dragonfly paper §4.1, HyperX paper §4.1 read it where latency goes vertical).
///
/// The highest accepted throughput is kept apart, as [`peak_accepted`](Self::peak_accepted):
/// past the onset it can keep rising while part of the traffic starves — a network whose
/// bottleneck is uneven (some group pairs tapered) saturates at the bottleneck's bound, but
/// the unaffected pairs go on accepting more as the load rises — so it is set by where a
/// sweep stops, not by the network.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct CurveSaturation {
    /// The lowest offered load measured saturated (`None`: no point saturated).
    pub onset_load: Option<f64>,
    /// The highest offered load below `onset_load` (or of the curve) measured unsaturated
    /// (0 if the first point already saturated).
    pub last_unsaturated_load: f64,
    /// The saturation throughput: the accepted throughput at `last_unsaturated_load` (0 if
    /// the first point saturated). The network saturates between it and the first saturated
    /// point's accepted throughput; a lower bound when the curve never saturates.
    pub throughput: f64,
    /// The highest accepted throughput at any load, saturated points included — never the
    /// saturation throughput (see the type's documentation).
    pub peak_accepted: f64,
}

impl CurveSaturation {
    /// Reads a curve given as (offered load, saturated, accepted) points, in any order.
    pub fn of(points: impl IntoIterator<Item = (f64, bool, f64)>) -> CurveSaturation {
        let mut points: Vec<(f64, bool, f64)> = points.into_iter().collect();
        points.sort_by(|a, b| a.0.total_cmp(&b.0));
        let onset_load = points.iter().find(|p| p.1).map(|p| p.0);
        let last_unsaturated = points.iter().take_while(|p| !p.1).last();
        let peak_accepted = points.iter().map(|p| p.2).filter(|a| a.is_finite()).fold(0.0, f64::max);
        CurveSaturation {
            onset_load,
            last_unsaturated_load: last_unsaturated.map_or(0.0, |p| p.0),
            throughput: last_unsaturated.map_or(0.0, |p| p.2),
            peak_accepted,
        }
    }

    /// Whether the curve reached saturation (otherwise [`throughput`](Self::throughput) is
    /// only a lower bound).
    pub fn reached(&self) -> bool {
        self.onset_load.is_some()
    }

    /// "0.45–0.5" (saturation starts between the last unsaturated and the first saturated
    /// load), "≤ 0.1" (the first point saturated) or "> 0.9" (none did).
    pub fn onset_text(&self) -> String {
        match self.onset_load {
            None => format!("> {}", self.last_unsaturated_load),
            Some(on) if self.last_unsaturated_load == 0.0 => format!("≤ {on}"),
            Some(on) => format!("{}–{on}", self.last_unsaturated_load),
        }
    }

    /// The saturation throughput to three decimals, "≥ 0.600" when the curve never
    /// saturated (a lower bound), "< first load" when its first point already did.
    pub fn throughput_text(&self) -> String {
        match self.onset_load {
            None => format!("≥ {:.3}", self.throughput),
            Some(on) if self.last_unsaturated_load == 0.0 => format!("< {on}"),
            Some(_) => format!("{:.3}", self.throughput),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn window(offered: u64, accepted: u64, latency: f64) -> WindowCounts {
        WindowCounts {
            drained: true,
            dropped: 0,
            offered_flits: offered,
            accepted_flits: accepted,
            unroutable_flits: 0,
            window: 2000,
            packet_size: 1,
            mean_latency: latency,
            backlog_variance: 0.0,
        }
    }

    #[test]
    fn the_backlog_variance_leaves_out_the_trend() {
        // A pure ramp has no variance about its line; alternating ±1 about a ramp has ≈ 1.
        assert!(BacklogSamples((0..100).map(|i| 3.0 * i as f64).collect()).detrended_variance() < 1e-9);
        let v = BacklogSamples((0..100).map(|i| 3.0 * i as f64 + if i % 2 == 0 { 1.0 } else { -1.0 }).collect())
            .detrended_variance();
        assert!((v - 1.0).abs() < 0.05, "{v}");
        assert_eq!(BacklogSamples(vec![1.0, 5.0]).detrended_variance(), 0.0);
        // A measured variance above the Poisson floor widens the tolerance.
        let w = window(18_720, 18_720 - 60, 30.0);
        assert!(tolerance_flits(&WindowCounts { backlog_variance: 1000.0, ..w }) > tolerance_flits(&w));
    }

    #[test]
    fn the_causes_in_order() {
        // 72 terminals at 0.13 for 2000 cycles (18 720 flits), 30-cycle latency:
        // λ = 9.36 packets/cycle, λT = 280.8, σ = √(2·280.8) ≈ 23.7, tolerance ≈ 95 flits.
        let w = window(18_720, 18_720 - 60, 30.0);
        assert!((tolerance_flits(&w) - 4.0 * (2.0f64 * 9.36 * 30.0).sqrt()).abs() < 1e-9);
        assert_eq!(cause(&w), None);
        // Accepting 0.125 of 0.13 is 720 flits behind.
        assert_eq!(cause(&window(18_720, 18_000, 30.0)), Some(SaturationCause::BacklogGrew));
        assert_eq!(cause(&WindowCounts { dropped: 1, ..w }), Some(SaturationCause::SourcesFull));
        assert_eq!(cause(&WindowCounts { drained: false, dropped: 1, ..w }), Some(SaturationCause::NotDrained));
        // An idle window, and a window that delivered more than it offered.
        assert_eq!(cause(&window(0, 0, f64::NAN)), None);
        assert_eq!(cause(&window(100, 180, 10.0)), None);
        for c in [SaturationCause::NotDrained, SaturationCause::SourcesFull, SaturationCause::BacklogGrew] {
            assert_eq!(serde_json::to_value(c).unwrap(), c.name());
        }
    }

    #[test]
    fn curve_saturation_reads_onset_throughput_and_peak() {
        let c = CurveSaturation::of([(0.3, false, 0.3), (0.1, false, 0.1), (0.5, true, 0.46), (0.7, true, 0.44)]);
        assert_eq!(
            c,
            CurveSaturation { onset_load: Some(0.5), last_unsaturated_load: 0.3, throughput: 0.3, peak_accepted: 0.46 }
        );
        assert_eq!((c.onset_text(), c.throughput_text()), ("0.3–0.5".into(), "0.300".into()));
        let first = CurveSaturation::of([(0.2, true, 0.1)]);
        assert_eq!(
            (first.onset_text(), first.throughput_text(), first.throughput),
            ("≤ 0.2".into(), "< 0.2".into(), 0.0)
        );
        assert_eq!(CurveSaturation::of([(0.125, false, 0.2), (0.13, true, 0.125)]).onset_text(), "0.125–0.13");
        // An uneven bottleneck: accepted keeps rising past the onset while part of the
        // traffic starves; the saturation throughput stays at the onset.
        let uneven =
            CurveSaturation::of([(0.5, false, 0.5), (0.55, false, 0.549), (0.6, true, 0.566), (0.9, true, 0.7)]);
        assert_eq!((uneven.throughput, uneven.peak_accepted), (0.549, 0.7));
        // A curve that never saturates gives a lower bound, and says so.
        let never = CurveSaturation::of([(0.3, false, 0.3), (0.6, false, 0.6)]);
        assert!(!never.reached());
        assert_eq!((never.onset_text(), never.throughput_text()), ("> 0.6".into(), "≥ 0.600".into()));
    }
}
