//! Statistics of the dragonfly paper's §4 plots that need the topology to interpret.
//!
//! - [`global_channel_utilization`]: Fig. 9 — the utilization of a group's global
//!   channels under group shift, split into the *minimal* channel (towards group
//!   `G + shift`), the *non-minimal channels on the same router* as the minimal one, and
//!   all *other* non-minimal channels; averaged over the groups.
//! - The latency of minimally vs non-minimally routed packets (Fig. 11) and the fraction
//!   routed non-minimally are in [`crate::stats::Summary`]
//!   (`avg_latency_minimal`, `avg_latency_nonminimal`, `nonminimal_fraction`); the latency
//!   histogram (Fig. 12) is [`crate::experiment::RunResult::latency_histogram`], which
//!   [`histogram_bins`] regroups into wider bins for plotting.

use crate::topology::Dragonfly;
use serde::Serialize;

/// Fig. 9: utilization (flits/cycle) of a group's global channels by class.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct GlobalChannelUtilization {
    /// One value per global channel position of a group, averaged over the groups:
    /// the minimal channel(s) first, then the other channels of the router(s) owning a
    /// minimal channel, then all the others (each class in slot order). Fig. 9's x axis.
    pub per_channel: Vec<f64>,
    /// Number of positions in the first two classes (the rest are "other").
    pub minimal_channels: usize,
    pub same_router_channels: usize,
    /// Mean utilization of each class.
    pub minimal: f64,
    pub same_router: f64,
    pub other: f64,
}

impl GlobalChannelUtilization {
    /// Class label of a position of [`GlobalChannelUtilization::per_channel`].
    pub fn class_of(&self, position: usize) -> &'static str {
        if position < self.minimal_channels {
            "minimal"
        } else if position < self.minimal_channels + self.same_router_channels {
            "same router"
        } else {
            "other"
        }
    }
}

/// Classifies the global output channels of every group for a group-shift pattern with
/// `shift`, from per-port-id utilization (e.g. [`crate::experiment::RunResult::channel_utilization`]);
/// a sliced network's groups of every slice together.
pub fn global_channel_utilization(df: &Dragonfly, utilization: &[f32], shift: u32) -> GlobalChannelUtilization {
    let net = df.network();
    let (g, ah) = (df.g, df.a * df.h);
    let mut per_channel = vec![0.0f64; ah as usize];
    let (mut n_min, mut n_same) = (0, 0);
    // Class sums and counts over every group's present channels: the class means stay
    // exact when groups differ (a tapered network's removed channels are left out).
    let (mut sum, mut count) = ([0.0f64; 3], [0usize; 3]);
    let groups = (0..df.slices).flat_map(|s| (0..g).map(move |grp| (df.slice_base(s), grp)));
    for (base, grp) in groups {
        let target = (grp + shift) % g;
        let minimal = df.slots_between(grp, target);
        let owners: Vec<u32> = minimal.iter().map(|&c| c / df.h).collect();
        let mut order: Vec<u32> = minimal.to_vec();
        order.extend((0..ah).filter(|c| !minimal.contains(c) && owners.contains(&(c / df.h))));
        let same = order.len() - minimal.len();
        let rest: Vec<u32> = (0..ah).filter(|c| !order.contains(c)).collect();
        order.extend(rest);
        (n_min, n_same) = (minimal.len(), same);
        for (pos, &c) in order.iter().enumerate() {
            let (router, port) = df.slot_owner(grp, c);
            let u = utilization[net.port_id(base + router, port)] as f64;
            per_channel[pos] += u / (g * df.slices) as f64;
            if !df.slot_absent(grp, c) {
                let class = if pos < minimal.len() {
                    0
                } else if pos < minimal.len() + same {
                    1
                } else {
                    2
                };
                sum[class] += u;
                count[class] += 1;
            }
        }
    }
    let mean = |k: usize| if count[k] == 0 { f64::NAN } else { sum[k] / count[k] as f64 };
    GlobalChannelUtilization {
        minimal: mean(0),
        same_router: mean(1),
        other: mean(2),
        per_channel,
        minimal_channels: n_min,
        same_router_channels: n_same,
    }
}

/// Regroups a `(latency, count)` histogram into bins of `width` cycles:
/// `(bin start, fraction of packets)`.
pub fn histogram_bins(histogram: &[(u64, u32)], width: u64) -> Vec<(u64, f64)> {
    let total: u64 = histogram.iter().map(|&(_, n)| n as u64).sum();
    let mut bins: Vec<(u64, f64)> = Vec::new();
    for &(lat, n) in histogram {
        let start = lat / width * width;
        match bins.last_mut() {
            Some((s, f)) if *s == start => *f += n as f64 / total as f64,
            _ => bins.push((start, n as f64 / total as f64)),
        }
    }
    bins
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::topology::GlobalArrangement;

    #[test]
    fn classes_of_the_1k_network() {
        let df = Dragonfly::new(4, 8, 4, 33, GlobalArrangement::Absolute, "t").unwrap();
        let mut util = vec![0.0f32; df.network().total_ports()];
        // Mark every group's minimal channel (to G+1) with 1.0, its router's others with 0.5.
        for grp in 0..33 {
            let c = df.slots_between(grp, (grp + 1) % 33)[0];
            for k in 0..4 {
                let (r, p) = df.slot_owner(grp, c / 4 * 4 + k);
                util[df.network().port_id(r, p)] = if c % 4 == k { 1.0 } else { 0.5 };
            }
        }
        let u = global_channel_utilization(&df, &util, 1);
        assert_eq!((u.minimal_channels, u.same_router_channels, u.per_channel.len()), (1, 3, 32));
        assert!((u.minimal - 1.0).abs() < 1e-9 && (u.same_router - 0.5).abs() < 1e-9 && u.other == 0.0);
        assert_eq!(u.class_of(0), "minimal");
        assert_eq!(u.class_of(3), "same router");
        assert_eq!(u.class_of(4), "other");
        let bins = histogram_bins(&[(3, 1), (4, 1), (12, 2)], 10);
        assert_eq!(bins, vec![(0, 0.5), (10, 0.5)]);
    }

    /// A sliced network: every slice's groups count, so a channel class busy in one of two
    /// slices is half busy.
    #[test]
    fn every_slice_counts() {
        let df = Dragonfly::new(2, 4, 2, 9, GlobalArrangement::Absolute, "t").unwrap().sliced(2, "t").unwrap();
        let mut util = vec![0.0f32; df.network().total_ports()];
        for grp in 0..9 {
            let (r, p) = df.slot_owner(grp, df.slots_between(grp, (grp + 1) % 9)[0]);
            util[df.network().port_id(df.slice_base(1) + r, p)] = 1.0;
        }
        let u = global_channel_utilization(&df, &util, 1);
        assert!((u.minimal - 0.5).abs() < 1e-9 && (u.per_channel[0] - 0.5).abs() < 1e-9, "{u:?}");
    }
}
