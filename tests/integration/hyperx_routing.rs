//! The adaptive HyperX-family algorithms (UGAL, UGAL-S, CLOS AD and its HyperX variant,
//! DAL, adaptive 2DFB) and the comparison networks' routings (folded Clos up/down,
//! butterfly destination tags, hypercube e-cube): VC requirements, deadlock freedom at
//! and beyond saturation with the minimum number of VCs and tiny buffers (invariant
//! checks on, watchdog armed), complete delivery in batch mode, and determinism.

use crate::common::{config, fb, hx};
use hiradix::config::{AllocatorMode, InjectionMode, SimConfig, TopologyConfig};
use hiradix::experiment::run;
use hiradix::sim::Simulation;

fn cfg(topology: TopologyConfig, algorithm: &str, pattern: &str, load: f64, vcs: u32, depth: u32) -> SimConfig {
    config(topology)
        .algorithm(algorithm)
        .pattern(pattern)
        .load(load)
        .vcs(vcs)
        .depth(depth)
        .window(300, 300, 3000)
        .watchdog(1000)
        .seed(11)
        .build()
}

/// The VCs each algorithm needs on an instance, found from the error message of one VC
/// fewer, and the error path.
#[test]
fn vc_requirements_are_enforced() {
    let cases: &[(&str, TopologyConfig, u32)] = &[
        ("ugal", fb(4, 2), 2),
        ("ugal_s", hx(&[3, 3, 3], &[1], 2), 4),
        ("clos_ad", hx(&[3, 3, 3], &[1], 2), 4),
        ("clos_ad_hx", hx(&[3, 3, 3], &[1], 2), 2),
        ("dal", hx(&[3, 3, 3], &[1], 2), 2),
        ("adaptive_2dfb", TopologyConfig::dilated_flattened_butterfly(4, 3), 4),
        ("ecube", TopologyConfig::hypercube(4), 1),
        ("updown_ad", TopologyConfig::folded_clos(vec![4, 4], vec![2]), 1),
        ("dest_tag", TopologyConfig::butterfly(4, 2), 1),
    ];
    for (algo, topo, need) in cases {
        assert!(Simulation::new(&cfg(topo.clone(), algo, "uniform", 0.1, *need, 4)).is_ok(), "{algo} with {need} VCs");
        if *need > 1 {
            let e = Simulation::new(&cfg(topo.clone(), algo, "uniform", 0.1, need - 1, 4))
                .err()
                .unwrap_or_else(|| panic!("{algo} accepted {} VCs", need - 1));
            assert_eq!(e.0[0].path, "router.vcs", "{algo}: {e}");
            assert!(e.to_string().contains(&format!("at least {need} VCs")), "{e}");
        }
    }
}

#[test]
fn bad_combinations_are_errors_with_paths() {
    // DAL's deadlock freedom needs the sequential allocator and a free slot per hop.
    let mut c = cfg(hx(&[3, 3], &[1], 2), "dal", "uniform", 0.1, 2, 4);
    c.routing.allocator = AllocatorMode::Greedy;
    assert_eq!(Simulation::new(&c).err().unwrap().0[0].path, "routing.allocator");
    let mut c = cfg(hx(&[3, 3], &[1], 2), "dal", "uniform", 0.1, 2, 4);
    c.routing.dal_unblocked_credits = 0;
    assert_eq!(Simulation::new(&c).err().unwrap().0[0].path, "routing.dal_unblocked_credits");
    // Algorithms on the wrong family.
    for (algo, topo) in [
        ("updown_ad", fb(4, 2)),
        ("dest_tag", fb(4, 2)),
        ("dal", TopologyConfig::folded_clos(vec![4, 4], vec![4])),
        ("ugal", TopologyConfig::butterfly(4, 2)),
    ] {
        let e = Simulation::new(&cfg(topo, algo, "uniform", 0.1, 4, 4)).err().unwrap();
        assert_eq!(e.0[0].path, "routing.algorithm", "{algo}: {e}");
    }
    // Topology parameters.
    let e = Simulation::new(&cfg(TopologyConfig::folded_clos(vec![4, 4], vec![]), "updown_ad", "uniform", 0.1, 1, 4))
        .err()
        .unwrap();
    assert_eq!(e.0[0].path, "topology.up");
    let e = Simulation::new(&cfg(TopologyConfig::butterfly(1, 2), "dest_tag", "uniform", 0.1, 1, 4)).err().unwrap();
    assert_eq!(e.0[0].path, "topology.k");
    let mut c = cfg(fb(4, 2), "min", "uniform", 0.1, 1, 4);
    c.router.terminal_period = 0;
    assert_eq!(Simulation::new(&c).err().unwrap().0[0].path, "router.terminal_period");
}

/// Every algorithm with exactly its minimum VCs and 2-flit buffers, at full load on
/// benign and adversarial patterns, for 3000 cycles with the per-cycle invariant checks:
/// the watchdog must not trip and traffic must keep flowing.
#[test]
fn deadlock_free_beyond_saturation_with_minimum_vcs() {
    let dfb = |k, n| TopologyConfig::dilated_flattened_butterfly(k, n);
    let cases: Vec<(&str, TopologyConfig, u32, Vec<&str>)> = vec![
        ("ugal", fb(4, 3), 3, vec!["uniform", "router_shift", "bit_complement"]),
        ("ugal_s", hx(&[3, 4], &[1, 2], 2), 3, vec!["uniform", "router_shift", "swap2"]),
        ("clos_ad", fb(4, 3), 3, vec!["uniform", "router_shift", "bit_complement"]),
        ("clos_ad", hx(&[3, 3, 2], &[1], 2), 4, vec!["uniform", "swap2", "tornado"]),
        ("clos_ad_hx", hx(&[3, 4], &[1, 2], 2), 2, vec!["uniform", "router_shift", "swap2"]),
        ("dal", hx(&[4, 4, 4], &[1], 4), 2, vec!["uniform", "bit_complement", "swap2", "transpose"]),
        ("dal", hx(&[3, 4], &[1, 2], 2), 2, vec!["uniform", "router_shift", "swap2"]),
        ("dal", TopologyConfig::hypercube(5), 2, vec!["uniform", "bit_complement"]),
        ("adaptive_2dfb", dfb(4, 3), 4, vec!["uniform", "adversarial", "benign", "bit_complement"]),
        ("adaptive_2dfb", dfb(8, 2), 2, vec!["uniform", "adversarial", "random_permutation"]),
        ("ecube", TopologyConfig::hypercube(5), 1, vec!["uniform", "bit_complement", "router_shift"]),
        (
            "updown_ad",
            TopologyConfig::folded_clos(vec![4, 4, 2], vec![2, 4]),
            1,
            vec!["uniform", "router_shift", "bit_complement"],
        ),
        ("dest_tag", TopologyConfig::butterfly(2, 5), 1, vec!["uniform", "router_shift", "bit_complement"]),
    ];
    for (algo, topo, vcs, patterns) in cases {
        for pattern in patterns {
            let mut c = cfg(topo.clone(), algo, pattern, 1.0, vcs, 2);
            c.measurement.watchdog = 300;
            let mut sim = Simulation::new(&c).unwrap_or_else(|e| panic!("{algo} on {topo:?} {pattern}: {e}"));
            sim.set_invariant_checks(true);
            let mut last = 0;
            for _ in 0..6 {
                sim.advance(500).unwrap_or_else(|e| panic!("{algo} on {topo:?} with {pattern}: {e}"));
                let delivered = sim.stats().delivered;
                assert!(delivered > last, "{algo} on {topo:?} with {pattern}: no delivery in 500 cycles");
                last = delivered;
            }
        }
    }
}

/// Batch mode delivers every packet of every terminal, for every algorithm.
#[test]
fn batches_complete() {
    for (algo, topo, vcs, pattern) in [
        ("ugal", fb(4, 3), 3, "router_shift"),
        ("ugal_s", fb(8, 2), 2, "router_shift"),
        ("clos_ad", fb(8, 2), 2, "router_shift"),
        ("clos_ad_hx", hx(&[4, 4], &[1], 4), 2, "swap2"),
        ("dal", hx(&[4, 4], &[1], 4), 2, "swap2"),
        ("adaptive_2dfb", TopologyConfig::dilated_flattened_butterfly(8, 2), 2, "adversarial"),
        ("updown_ad", TopologyConfig::folded_clos(vec![8, 8], vec![4]), 1, "router_shift"),
        ("dest_tag", TopologyConfig::butterfly(8, 2), 1, "uniform"),
    ] {
        let mut c = cfg(topo, algo, pattern, 1.0, vcs, 4);
        c.traffic.injection = InjectionMode::Batch;
        c.traffic.batch_size = 20;
        let r = run(&c).unwrap_or_else(|e| panic!("{algo}: {e}"));
        let n = Simulation::new(&c).unwrap().network().terminals() as u64;
        assert_eq!(r.summary.labeled_packets, 20 * n, "{algo}");
        assert!(r.batch_normalized_latency.is_some(), "{algo}: batch did not complete");
    }
}

/// Path lengths stay within each algorithm's bound: at most one deroute per dimension for
/// DAL and adaptive 2DFB (≤ 2 hops per dimension), at most twice the offset span for the
/// source-routed algorithms; destination tags take exactly n − 1 hops; up/down paths are
/// even.
#[test]
fn hop_counts_respect_the_algorithms() {
    let avg_hops = |c: &SimConfig| run(c).unwrap().summary.avg_hops;
    let dims = 3.0;
    for algo in ["dal", "ugal_s", "clos_ad", "clos_ad_hx"] {
        let h = avg_hops(&cfg(hx(&[4, 4, 4], &[1], 4), algo, "bit_complement", 0.6, 6, 8));
        assert!(h >= 3.0 && h <= 2.0 * dims, "{algo}: {h} hops on bit complement (minimal 3, at most 6)");
    }
    let h =
        avg_hops(&cfg(TopologyConfig::dilated_flattened_butterfly(4, 3), "adaptive_2dfb", "adversarial", 1.0, 4, 4));
    assert!((1.0..=4.0).contains(&h), "adaptive 2DFB: {h}");
    let h = avg_hops(&cfg(TopologyConfig::butterfly(4, 3), "dest_tag", "uniform", 0.3, 1, 8));
    assert!((h - 2.0).abs() < 1e-9, "butterfly: {h}");
    // Folded Clos with 3 levels: 2 hops within a level-2 subtree, 4 otherwise.
    let h =
        avg_hops(&cfg(TopologyConfig::folded_clos(vec![4, 4, 4], vec![4, 4]), "updown_ad", "router_shift", 0.3, 1, 8));
    assert!((2.0..=4.0).contains(&h), "folded Clos: {h}");
    // e-cube on the hypercube is minimal: bit complement crosses every dimension.
    let h = avg_hops(&cfg(TopologyConfig::hypercube(5), "ecube", "bit_complement", 0.1, 1, 8));
    assert!((h - 5.0).abs() < 1e-9, "hypercube: {h}");
}

/// Same configuration and seed ⇒ the same result, for every algorithm here.
#[test]
fn deterministic() {
    for (algo, topo, vcs, pattern) in [
        ("ugal", fb(8, 2), 2, "router_shift"),
        ("clos_ad", hx(&[4, 4], &[1], 4), 3, "swap2"),
        ("dal", hx(&[4, 4], &[1], 4), 6, "swap2"),
        ("adaptive_2dfb", TopologyConfig::dilated_flattened_butterfly(4, 3), 4, "adversarial"),
        ("updown_ad", TopologyConfig::folded_clos(vec![4, 4], vec![2]), 1, "uniform"),
    ] {
        let c = cfg(topo, algo, pattern, 0.5, vcs, 8);
        let (a, b) = (run(&c).unwrap(), run(&c).unwrap());
        assert_eq!(format!("{:?}", a.summary), format!("{:?}", b.summary), "{algo}");
        assert_eq!(a.channel_utilization, b.channel_utilization, "{algo}");
    }
}

/// UGAL's route note shows the numbers behind the last source decision.
#[test]
fn ugal_fills_the_route_note() {
    let mut sim = Simulation::new(&cfg(fb(8, 2), "ugal_s", "router_shift", 0.5, 2, 8)).unwrap();
    sim.advance(500).unwrap();
    let notes: Vec<_> = sim.route_notes().iter().filter(|n| n.valid).collect();
    assert_eq!(notes.len(), 8, "every router decided");
    for n in notes {
        assert_eq!(n.h_min, 1);
        assert!(n.h_nonmin <= 2);
        let minimal = n.q_min as i64 * n.h_min as i64 <= n.q_nonmin as i64 * n.h_nonmin as i64;
        assert_eq!(minimal, n.chose_minimal, "{n:?}");
    }
}
