//! The saturation rule of `hiradix::saturation`, as `run`, `sweep`, the figures and the page
//! apply it: a point whose accepted throughput is stuck below the offered load is saturated
//! even when its labeled packets drain; one whose labeled packets do not drain is too; and
//! no point well below a network's known capacity is flagged, over several seeds.

use crate::common::config;
use hiradix::config::{SimConfig, TopologyConfig};
use hiradix::experiment::run;
use hiradix::saturation::SaturationCause;
use hiradix::stats::Summary;

/// The 72-terminal dragonfly of the dragonfly paper's Fig. 5 (p = h = 2, a = 4, g = 9).
fn dragonfly(algorithm: &str, pattern: &str, load: f64, seed: u64) -> SimConfig {
    config(TopologyConfig::dragonfly(2, 4, 2, 9))
        .vcs(3)
        .algorithm(algorithm)
        .pattern(pattern)
        .load(load)
        .seed(seed)
        .build()
}

/// The default 8-ary 2-flat (64 terminals).
fn flat(algorithm: &str, pattern: &str, load: f64, seed: u64) -> SimConfig {
    config(TopologyConfig::default()).vcs(2).algorithm(algorithm).pattern(pattern).load(load).seed(seed).build()
}

fn summary(c: &SimConfig) -> Summary {
    run(c).unwrap_or_else(|e| panic!("{} {} {}: {e}", c.routing.algorithm, c.traffic.pattern, c.traffic.load)).summary
}

/// Group shift sends every packet of a group to the next group, over the one global
/// channel per router pair: MIN's capacity is exactly 1/(ah) = 0.125. At 0.13 it accepts
/// 0.125 and its labeled packets still drain: saturated, because accepted falls below
/// offered by far more than the tolerance.
#[test]
fn accepted_below_offered_is_saturated_even_when_the_labeled_packets_drain() {
    let s = summary(&dragonfly("min", "group_shift", 0.13, 1));
    assert!((s.accepted - 0.125).abs() < 0.002, "{s:?}");
    assert!((s.offered_measured - 0.13).abs() < 0.005, "{s:?}");
    assert_eq!(s.saturation, Some(SaturationCause::BacklogGrew), "{s:?}");
    assert!(s.saturated && s.avg_latency.is_finite(), "drained, so its latency is measured: {s:?}");
    // Just below capacity it keeps up.
    let below = summary(&dragonfly("min", "group_shift", 0.11, 1));
    assert_eq!(below.saturation, None, "{below:?}");
}

/// Labeled packets that do not arrive within the drain limit saturate the point.
#[test]
fn labeled_packets_that_do_not_drain_saturate_the_point() {
    let mut c = dragonfly("min", "group_shift", 0.3, 1);
    c.measurement.drain_limit = 100;
    c.traffic.source_queue_cap = 1_000_000;
    let s = summary(&c);
    assert_eq!(s.saturation, Some(SaturationCause::NotDrained), "{s:?}");
    // With a small source queue the same load overflows it (and drains: the queues are short).
    let mut c = dragonfly("min", "group_shift", 0.3, 1);
    c.traffic.source_queue_cap = 4;
    c.measurement.drain_limit = 20_000;
    assert_eq!(summary(&c).saturation, Some(SaturationCause::SourcesFull));
}

/// No false alarms: every point at most 80 % of its network's capacity (known analytically
/// or from the papers) stays unsaturated, on four seeds. 4 standard deviations make a
/// chance flag improbable (3·10⁻⁵ per point); a systematic one would show here.
#[test]
fn points_well_below_capacity_are_not_flagged() {
    // (configuration builder, algorithm, pattern, capacity)
    type Build = fn(&str, &str, f64, u64) -> SimConfig;
    let cases: [(Build, &str, &str, f64); 6] = [
        (flat, "min", "uniform", 1.0),
        (flat, "val", "uniform", 0.5),
        (flat, "ugal", "router_shift", 0.5),
        (dragonfly, "min", "uniform", 1.0),
        (dragonfly, "min", "group_shift", 0.125),
        (dragonfly, "ugal_l", "uniform", 0.8),
    ];
    let mut flagged = Vec::new();
    let mut points = 0;
    for (build, algorithm, pattern, capacity) in cases {
        for step in 1..=4 {
            let load = ((0.8 * capacity * step as f64 / 4.0) * 1000.0).round() / 1000.0;
            for seed in 1..=4 {
                let s = summary(&build(algorithm, pattern, load, seed));
                points += 1;
                if s.saturated {
                    flagged.push(format!(
                        "{algorithm} {pattern} {load} seed {seed}: {:?} accepted {} of {}",
                        s.saturation, s.accepted, s.offered_measured
                    ));
                }
            }
        }
    }
    assert!(flagged.is_empty(), "{} of {points} points flagged:\n{}", flagged.len(), flagged.join("\n"));
}
