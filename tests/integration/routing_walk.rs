//! Every routing algorithm on every topology instance it supports: built from the catalog
//! (so algorithms and topologies added later are covered automatically), run at
//! saturating load on uniform and worst-case traffic with the invariant checks on and the
//! watchdog armed, and run in batch mode to check that every packet is delivered.

use crate::common::config_json;
use hiradix::catalog::catalog;
use hiradix::config::{InjectionMode, SimConfig};
use hiradix::experiment::run;
use hiradix::sim::Simulation;

/// Small instances: every catalog default plus uneven and trunked HyperX shapes.
fn instances() -> Vec<serde_json::Value> {
    let mut v: Vec<serde_json::Value> = catalog().topologies.iter().map(|t| t.default.clone()).collect();
    v.push(serde_json::json!({"type": "hyperx", "s": [3, 4], "k": [1, 2], "t": 2}));
    v.push(serde_json::json!({"type": "flattened_butterfly", "k": 3, "n": 3}));
    // Dragonflies whose groups are flattened butterflies (§3.2, Fig. 6), one with several
    // channels per group pair.
    v.push(serde_json::json!({"type": "dragonfly", "p": 2, "a": 4, "h": 2, "g": 9, "intra": [2, 2]}));
    v.push(serde_json::json!({"type": "dragonfly", "p": 1, "a": 8, "h": 2, "g": 6, "intra": [2, 2, 2]}));
    // Doubled channels between neighbours in the second dimension (Fig. 6(a)).
    v.push(serde_json::json!({"type": "dragonfly", "p": 2, "a": 8, "h": 2, "g": 5, "intra": [2, 4], "intra_trunking": [1, 2]}));
    // A tapered dragonfly (§3.2): one of the two channels between groups 0 and 1 removed.
    v.push(serde_json::json!({"type": "dragonfly", "p": 1, "a": 4, "h": 2, "g": 5, "taper": [[0, 1, 1]]}));
    // Channel slicing (§3.2): two parallel tapered dragonflies, packets spread at random.
    v.push(serde_json::json!({"type": "dragonfly", "p": 1, "a": 4, "h": 2, "g": 5, "taper": [[0, 1, 1]], "slices": 2, "slice_policy": "random"}));
    v
}

fn config(topology: &serde_json::Value, algorithm: &str, pattern: &str) -> SimConfig {
    config_json(topology).algorithm(algorithm).pattern(pattern).load(1.0).vcs(8).depth(4).watchdog(1500).build()
}

fn worst_case(topology: &serde_json::Value) -> &'static str {
    if topology["type"] == "dragonfly" {
        "group_shift"
    } else {
        "router_shift"
    }
}

#[test]
fn every_routing_on_every_topology() {
    let c = catalog();
    let mut walked = Vec::new();
    for topo in instances() {
        let family = c.topologies.iter().find(|t| t.name == topo["type"]).expect("a catalog topology").family;
        for algo in &c.routings {
            if algo.family != family {
                // Declared for another family: refused by name, unless the same name is also
                // declared for this family (dragonfly `min` and `val`), walked under that entry.
                if c.routings.iter().any(|r| r.name == algo.name && r.family == family) {
                    continue;
                }
                let e = Simulation::new(&config(&topo, algo.name, "uniform")).err();
                assert!(
                    e.as_ref().is_some_and(|e| e.0[0].path == "routing.algorithm"),
                    "{} (declared for {}) on {topo}: expected a routing.algorithm error, got {e:?}",
                    algo.name,
                    algo.family
                );
                continue;
            }
            for pattern in ["uniform", worst_case(&topo)] {
                let mut cfg = config(&topo, algo.name, pattern);
                if matches!(Simulation::new(&cfg), Err(e) if e.0[0].path == "router.vcs") {
                    cfg.router.vcs = 16; // algorithms whose VC need grows with the dimensions
                }
                let mut sim = Simulation::new(&cfg)
                    .unwrap_or_else(|e| panic!("{} on {topo} (declared for {family}): {e}", algo.name));
                sim.set_invariant_checks(true);
                if let Err(e) = sim.advance(1000) {
                    panic!("{} on {topo} with {pattern} at full load: {e}", algo.name);
                }
                assert!(sim.stats().delivered > 0, "{} on {topo}: nothing delivered", algo.name);
                // Batch: every packet arrives.
                let mut batch = cfg.clone();
                batch.traffic.injection = InjectionMode::Batch;
                batch.traffic.batch_size = 8;
                let r = run(&batch).unwrap_or_else(|e| panic!("{} on {topo} batch: {e}", algo.name));
                assert!(
                    r.batch_normalized_latency.is_some(),
                    "{} on {topo} with {pattern}: batch did not complete",
                    algo.name
                );
                assert_eq!(r.summary.labeled_packets, sim.network().terminals() as u64 * 8);
            }
            walked.push((algo.name, algo.family));
            // With a tenth of the links failed (HyperX §6): no deadlock at full load, and a
            // batch completes, every packet delivered or counted unroutable.
            if topo["type"] != "butterfly" {
                let mut cfg = config(&topo, algo.name, "uniform");
                cfg.router.vcs = 16;
                cfg.faults.random_fraction = 0.1;
                let mut sim = (1..50)
                    .find_map(|seed| {
                        cfg.seed = seed;
                        Simulation::new(&cfg).ok()
                    })
                    .unwrap_or_else(|| panic!("{} on {topo}: no connected fault set", algo.name));
                sim.set_invariant_checks(true);
                if let Err(e) = sim.advance(1000) {
                    panic!("{} on {topo} with failed links at full load: {e}", algo.name);
                }
                let mut batch = cfg.clone();
                batch.traffic.injection = InjectionMode::Batch;
                batch.traffic.batch_size = 8;
                let r = run(&batch).unwrap_or_else(|e| panic!("{} on {topo} batch with failed links: {e}", algo.name));
                assert!(
                    r.batch_normalized_latency.is_some(),
                    "{} on {topo} with failed links: batch did not complete",
                    algo.name
                );
            }
        }
    }
    eprintln!("walked {} (routing, topology) pairs: {walked:?}", walked.len());
    // Every declared routing walked on at least one instance of its family.
    for algo in &c.routings {
        assert!(walked.contains(&(algo.name, algo.family)), "{} ({}) was never walked", algo.name, algo.family);
    }
}

/// Each algorithm's declared decisions (what the page's inspector shows, src/routing/mod.rs
/// `Decisions`) are what the engine records: a q·H note at the source for the q·H
/// algorithms, per-hop notes for the per-hop one, neither for the others.
#[test]
fn declared_decisions_match_what_the_engine_records() {
    use hiradix::routing::{Decisions, ALGORITHMS};
    let c = catalog();
    for algo in ALGORITHMS {
        let topo = &c.topologies.iter().find(|t| t.family == algo.family).expect("a topology of its family").default;
        let mut cfg = config(topo, algo.name, worst_case(topo));
        cfg.traffic.load = 0.5;
        if matches!(Simulation::new(&cfg), Err(e) if e.0[0].path == "router.vcs") {
            cfg.router.vcs = 16;
        }
        let mut sim = Simulation::new(&cfg).unwrap_or_else(|e| panic!("{}: {e}", algo.name));
        sim.record_hop_notes(true);
        sim.advance(300).unwrap_or_else(|e| panic!("{}: {e}", algo.name));
        let routers = sim.network().routers() as u32;
        let q_notes = sim.route_notes().iter().any(|n| n.valid);
        let hop_notes = (0..routers).any(|r| sim.hop_note(r).is_some());
        let (want_q, want_hop) = match algo.decisions {
            Decisions::QueueTimesHops { .. } => (true, false),
            Decisions::PerHopDimensions { .. } => (false, true),
            Decisions::None | Decisions::QueueThreshold => (false, false),
        };
        assert_eq!(
            (q_notes, hop_notes),
            (want_q, want_hop),
            "{} on {}: q·H notes, per-hop notes",
            algo.name,
            algo.family
        );
    }
}
