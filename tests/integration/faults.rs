//! Failed links (HyperX paper §6): the fault-tolerant algorithms (DAL, folded-Clos
//! up-routing) deliver every packet around failures and stay deadlock-free at saturating
//! load; oblivious routing counts the packets it routes onto a failed link as unroutable,
//! exactly those and never a hang; a failure that disconnects the network is refused.

use crate::common::config_json;
use hiradix::config::{FaultConfig, InjectionMode, SimConfig};
use hiradix::experiment::run;
use hiradix::routing::dal::links_without_detour;
use hiradix::routing::updown::UpDownAdaptive;
use hiradix::routing::Routing;
use hiradix::sim::Simulation;
use hiradix::topology::{FaultSet, Topology};

fn config(topology: serde_json::Value, algorithm: &str, vcs: u32, faults: FaultConfig) -> SimConfig {
    config_json(&topology)
        .algorithm(algorithm)
        .vcs(vcs)
        .depth(4)
        .load(1.0)
        .watchdog(1500)
        .with(|c| c.faults = faults)
        .build()
}

fn random(fraction: f64) -> FaultConfig {
    FaultConfig { links: Vec::new(), random_fraction: fraction }
}

/// Runs `cfg` at full load with the invariant checks on (no deadlock, flits conserved),
/// then as a batch, which must complete: with every packet delivered if `covered` (the
/// algorithm's stated condition holds), else with the packets it cannot route counted.
fn deliver(cfg: &SimConfig, what: &str, covered: bool) {
    for pattern in ["uniform", "router_shift"] {
        let mut cfg = cfg.clone();
        cfg.traffic.pattern = pattern.into();
        let mut sim = Simulation::new(&cfg).unwrap_or_else(|e| panic!("{what}: {e}"));
        assert!(!sim.faults().is_empty(), "{what}: no link failed");
        sim.set_invariant_checks(true);
        if let Err(e) = sim.advance(2000) {
            panic!("{what}, {pattern} at full load: {e}");
        }
        if covered {
            assert_eq!(sim.stats().unroutable, 0, "{what}, {pattern}: packets found no way around");
        }
        let mut batch = cfg.clone();
        batch.traffic.injection = InjectionMode::Batch;
        batch.traffic.batch_size = 8;
        let r = run(&batch).unwrap_or_else(|e| panic!("{what} batch: {e}"));
        assert!(r.batch_normalized_latency.is_some(), "{what}, {pattern}: batch did not complete");
        if covered {
            assert_eq!(r.summary.unroutable_fraction, 0.0, "{what}, {pattern}: unroutable packets");
        }
    }
}

fn deliver_everything(cfg: &SimConfig, what: &str) {
    deliver(cfg, what, true);
}

/// Whether the failures of `cfg` meet the stated condition of its algorithm: DAL finds a
/// detour around every failed link, up/down routing a path between every two leaves.
fn covered(cfg: &SimConfig) -> bool {
    let topo = Topology::build(&cfg.topology).unwrap();
    let faults = FaultSet::from_config(&cfg.faults, topo.network(), cfg.seed).unwrap();
    if let Some(hx) = topo.as_hyperx() {
        return links_without_detour(hx, faults.flags()) == 0;
    }
    let clos = topo.as_folded_clos().expect("a HyperX or a folded Clos");
    let mut routing = UpDownAdaptive::new(clos);
    routing.set_faults(topo.network(), faults.flags()).unwrap();
    routing.unreachable_leaf_pairs() == 0
}

#[test]
fn dal_routes_around_failed_links() {
    let shapes = [
        serde_json::json!({"type": "hyperx", "s": [4, 4, 4], "k": [1], "t": 2}),
        serde_json::json!({"type": "hyperx", "s": [8, 8], "k": [1], "t": 4}),
        serde_json::json!({"type": "hyperx", "s": [3, 4], "k": [1, 2], "t": 2}),
    ];
    let (mut covered_runs, mut uncovered_runs) = (0, 0);
    for shape in &shapes {
        for (fraction, vcs) in [(0.05, 4), (0.1, 6), (0.2, 4)] {
            for seed in 1..=2 {
                let mut cfg = config(shape.clone(), "dal", vcs, random(fraction));
                cfg.seed = seed;
                let ok = covered(&cfg);
                deliver(&cfg, &format!("DAL on {shape} with {fraction} failed, {vcs} VCs, seed {seed}"), ok);
                if ok {
                    covered_runs += 1;
                } else {
                    uncovered_runs += 1;
                }
            }
        }
    }
    assert!(covered_runs >= 12 && uncovered_runs >= 1, "{covered_runs} covered, {uncovered_runs} not");
}

#[test]
fn dal_with_one_escape_vc_survives_one_failure_per_line() {
    // Two VCs: one escape VC, so detours share it; one failed link per line of dimension 0.
    let links = (0..4).map(|line| vec![line * 4, line * 4 + 1]).collect();
    let cfg = config(
        serde_json::json!({"type": "hyperx", "s": [4, 4], "k": [1], "t": 2}),
        "dal",
        2,
        FaultConfig { links, random_fraction: 0.0 },
    );
    deliver_everything(&cfg, "DAL with 2 VCs");
}

/// DAL's stated condition (HyperX §6): "DAL permits a second deroute in a dimension
/// where the only minimal link has failed", which finds a way around a failed link when
/// the rest of its fully connected line works — one failed link per line. On a 4×4×4
/// HyperX with one failed link in every one of its 48 lines, DAL loses no packet at any
/// load from 0.1 to 1.0, on uniform traffic and bit complement (past one failure per line,
/// at a fifth of the links failed, it does: `dal_routes_around_failed_links`).
#[test]
fn dal_loses_nothing_at_any_load_with_one_failed_link_per_line() {
    let id = |c: [u32; 3]| c[0] + 4 * c[1] + 16 * c[2];
    let mut links = Vec::new();
    for dim in 0..3 {
        for a in 0..4 {
            for b in 0..4 {
                // The line along `dim` through (a, b) in the other two dimensions; its failed
                // link sits at a position that varies from line to line.
                let at = |x: u32| {
                    let mut c = [a, b, b];
                    c[dim] = x;
                    c[(dim + 1) % 3] = a;
                    c[(dim + 2) % 3] = b;
                    id(c)
                };
                let x = (a + b) % 3;
                links.push(vec![at(x), at(x + 1)]);
            }
        }
    }
    let mut cfg = config(
        serde_json::json!({"type": "hyperx", "s": [4, 4, 4], "k": [1], "t": 2}),
        "dal",
        6,
        FaultConfig { links, random_fraction: 0.0 },
    );
    cfg.measurement.warmup = 500;
    cfg.measurement.measure = 1000;
    assert!(covered(&cfg), "one failed link per line leaves a detour around each");
    let faults = FaultSet::from_config(&cfg.faults, Topology::build(&cfg.topology).unwrap().network(), 1).unwrap();
    assert_eq!(faults.links(), 48, "one failed link in each of the 48 lines");
    for pattern in ["uniform", "bit_complement"] {
        for tenth in 1..=10 {
            cfg.traffic.pattern = pattern.into();
            cfg.traffic.load = tenth as f64 / 10.0;
            let s = run(&cfg).unwrap().summary;
            assert_eq!(s.unroutable_fraction, 0.0, "{pattern} at {}: {s:?}", cfg.traffic.load);
        }
    }
}

#[test]
fn folded_clos_up_routing_avoids_failed_downlinks() {
    for (shape, fraction) in [
        (serde_json::json!({"type": "folded_clos", "down": [8, 8], "up": [8]}), 0.1),
        (serde_json::json!({"type": "folded_clos", "down": [4, 4, 4], "up": [4, 4]}), 0.1),
        (serde_json::json!({"type": "folded_clos", "down": [4, 4, 4], "up": [4, 4]}), 0.25),
    ] {
        for seed in 1..=2 {
            let mut cfg = config(shape.clone(), "updown_ad", 1, random(fraction));
            cfg.seed = seed;
            let ok = covered(&cfg);
            assert!(ok || fraction > 0.2, "{shape} with {fraction} failed, seed {seed}: a pair up/down cannot reach");
            deliver(&cfg, &format!("up/down on {shape} with {fraction} failed, seed {seed}"), ok);
        }
    }
}

#[test]
fn disallowed_uplink_tables_are_range_compressed() {
    // down [4, 4], up [4]: 4 leaves, 4 spines. Fail the link from spine 0 (router 4) down
    // to leaf 1: the other three leaves must not send leaf 1's terminals (4..8) up to
    // spine 0, one range each; leaf 1 itself reaches everything through its other spines.
    let topo = Topology::build(
        &serde_json::from_value(serde_json::json!({"type": "folded_clos", "down": [4, 4], "up": [4]})).unwrap(),
    )
    .unwrap();
    let (net, clos) = (topo.network(), topo.as_folded_clos().unwrap());
    let faults = FaultSet::from_config(&FaultConfig { links: vec![vec![4, 1]], random_fraction: 0.0 }, net, 1).unwrap();
    let mut routing = UpDownAdaptive::new(clos);
    routing.set_faults(net, faults.flags()).unwrap();
    assert_eq!(routing.table_entries(), 3);
    let cfg = config(
        serde_json::json!({"type": "folded_clos", "down": [4, 4], "up": [4]}),
        "updown_ad",
        1,
        FaultConfig { links: vec![vec![4, 1]], random_fraction: 0.0 },
    );
    deliver_everything(&cfg, "up/down with one failed downlink");
}

#[test]
fn oblivious_routing_counts_exactly_the_packets_sent_onto_a_failed_link() {
    // One line of 8 switches, one terminal each, link 0–1 failed: under uniform traffic DOR
    // sends 2 of the 56 ordered pairs over it, so 1/28 of the packets are unroutable.
    let mut cfg = config(
        serde_json::json!({"type": "hyperx", "s": [8], "k": [1], "t": 1}),
        "min",
        1,
        FaultConfig { links: vec![vec![0, 1]], random_fraction: 0.0 },
    );
    cfg.traffic.load = 0.3;
    cfg.measurement.measure = 20_000;
    let r = run(&cfg).expect("runs");
    let s = &r.summary;
    let n = s.labeled_packets as f64;
    let p = 1.0 / 28.0;
    let sigma = (p * (1.0 - p) / n).sqrt();
    assert!((s.unroutable_fraction - p).abs() < 4.0 * sigma, "unroutable {} vs {p} (n = {n})", s.unroutable_fraction);
    assert!(!s.saturated, "dropped packets are not backlog: {:?}", s.saturation);
    // Accepted = offered less the unroutable share.
    assert!((s.accepted - 0.3 * (1.0 - p)).abs() < 0.01, "accepted {}", s.accepted);
    // MIN AD with one dimension has no way around either; DAL has.
    cfg.routing.algorithm = "dal".into();
    cfg.router.vcs = 2;
    let dal = run(&cfg).expect("runs").summary;
    assert_eq!(dal.unroutable_fraction, 0.0);
    assert!((dal.accepted - 0.3).abs() < 0.01, "DAL accepted {}", dal.accepted);
}

#[test]
fn faults_are_deterministic_and_leave_the_traffic_unchanged() {
    let shape = serde_json::json!({"type": "hyperx", "s": [4, 4], "k": [1], "t": 2});
    let mut cfg = config(shape.clone(), "dal", 4, random(0.1));
    cfg.traffic.load = 0.4;
    let a = Simulation::new(&cfg).unwrap();
    let b = Simulation::new(&cfg).unwrap();
    assert_eq!(a.faults(), b.faults());
    let (ra, rb) = (run(&cfg).unwrap(), run(&cfg).unwrap());
    assert_eq!(ra.summary, rb.summary);
    // The same seed without faults offers the same packets (the fault stream is its own).
    let mut none = cfg.clone();
    none.faults = FaultConfig::default();
    let mut with = Simulation::new(&cfg).unwrap();
    let mut without = Simulation::new(&none).unwrap();
    with.advance(500).unwrap();
    without.advance(500).unwrap();
    assert_eq!(with.stats().traffic_fingerprint, without.stats().traffic_fingerprint);
}

#[test]
fn links_fail_and_recover_while_running() {
    let shape = serde_json::json!({"type": "hyperx", "s": [4, 4], "k": [1], "t": 2});
    let mut cfg = config(shape, "dal", 4, FaultConfig::default());
    cfg.traffic.load = 0.6;
    let mut sim = Simulation::new(&cfg).unwrap();
    sim.set_invariant_checks(true);
    sim.advance(300).unwrap();
    let net = sim.network().clone();
    let link = |a: u32, b: u32| net.link_port(a, b, 0).unwrap();
    // One failed link in each of router 0's lines (the paper's condition for DAL), failed
    // one by one under load, then restored.
    for p in [link(0, 1), link(0, 4)] {
        sim.set_link_failed(p, true).unwrap();
        sim.advance(300).unwrap();
    }
    assert_eq!(sim.faults().links(), 2);
    for p in [link(0, 1), link(0, 4)] {
        sim.set_link_failed(p, false).unwrap();
        sim.advance(300).unwrap();
    }
    assert!(sim.faults().is_empty());
    assert_eq!(sim.stats().unroutable, 0, "DAL found a way around every failure");
    // Cutting router 0 off entirely is refused, and leaves the set as it was.
    for b in [1, 2, 3, 4, 8] {
        sim.set_link_failed(link(0, b), true).unwrap();
    }
    let err = sim.set_link_failed(link(0, 12), true).expect_err("would disconnect router 0");
    assert!(err.contains("disconnect"), "{err}");
    assert_eq!(sim.faults().links(), 5);
    assert!(sim.stats().delivered > 0);
}

#[test]
fn dragonfly_ugal_routes_around_a_failed_global_channel() {
    // The 72-node dragonfly (g = ah + 1: one channel per group pair); fail the channel
    // between groups 0 and 1. MIN has no other path and counts the packets between the two
    // groups as unroutable; the UGAL family takes the non-minimal path for them.
    let topo = serde_json::json!({"type": "dragonfly", "p": 2, "a": 4, "h": 2, "g": 9});
    let built = Topology::build(&serde_json::from_value(topo.clone()).unwrap()).unwrap();
    let df = built.as_dragonfly().unwrap();
    let (gateway, port) = df.slot_owner(0, df.slots_between(0, 1)[0]);
    let peer = built.network().port(gateway, port).peer_router;
    let faults = FaultConfig { links: vec![vec![gateway, peer]], random_fraction: 0.0 };
    let mut cfg = config(topo, "min", 3, faults);
    cfg.traffic.load = 0.2;
    let min = run(&cfg).unwrap().summary;
    // Packets from group 0 to 1 or back: 2 · 8 · 8 of 72 · 71 ordered terminal pairs.
    let expected = 128.0 / (72.0 * 71.0);
    assert!((min.unroutable_fraction - expected).abs() < 0.5 * expected, "MIN: {}", min.unroutable_fraction);
    for algorithm in ["ugal_l", "ugal_g", "ugal_l_vc", "ugal_l_vch", "ugal_l_cr"] {
        cfg.routing.algorithm = algorithm.into();
        let s = run(&cfg).unwrap().summary;
        assert_eq!(s.unroutable_fraction, 0.0, "{algorithm}");
        assert!(!s.saturated && (s.accepted - 0.2).abs() < 0.01, "{algorithm}: {s:?}");
    }
}

/// Gateway fallback: with g = 5 groups every pair has two channels, on different routers.
/// When one of the channels between groups 0 and 1 fails, its router hands the packets
/// from its terminals (and those landing on it from other groups) to the other gateway
/// over a local hop: every algorithm, MIN and VAL included, loses none and never
/// deadlocks, and nothing crosses the failed channel.
#[test]
fn dragonfly_gateways_fall_back_to_another_channel_of_the_pair() {
    let topo = serde_json::json!({"type": "dragonfly", "p": 2, "a": 4, "h": 2, "g": 5});
    let built = Topology::build(&serde_json::from_value(topo.clone()).unwrap()).unwrap();
    let df = built.as_dragonfly().unwrap();
    assert_eq!(df.slots_between(0, 1).len(), 2);
    let (gateway, port) = df.slot_owner(0, df.slots_between(0, 1)[0]);
    let id = built.network().port_id(gateway, port);
    let peer = built.network().port(gateway, port).peer_router;
    for algorithm in ["min", "val", "ugal_l", "ugal_g", "ugal_l_vc", "ugal_l_vch", "ugal_l_cr"] {
        let faults = FaultConfig { links: vec![vec![gateway, peer]], random_fraction: 0.0 };
        let mut cfg = config(topo.clone(), algorithm, 3, faults);
        cfg.traffic.load = 0.15;
        let mut sim = Simulation::new(&cfg).unwrap();
        sim.set_invariant_checks(true);
        sim.advance(3000).unwrap();
        assert_eq!(sim.stats().unroutable, 0, "{algorithm} routed onto the failed channel");
        assert_eq!(sim.sent_flits()[id], 0, "{algorithm}");
        deliver_everything(&cfg, algorithm);
    }
}

/// The same in flattened-butterfly groups (2×4, a = 8; g = 5: four channels per group pair):
/// with two of every pair's four channels failed, a packet whose dimension-ordered way to a
/// gateway passes a router whose own channels there failed is handed on, not dropped.
#[test]
fn dragonfly_fallback_inside_flattened_butterfly_groups() {
    let topo = serde_json::json!({"type": "dragonfly", "p": 1, "a": 8, "h": 2, "g": 5, "intra": [2, 4]});
    let built = Topology::build(&serde_json::from_value(topo.clone()).unwrap()).unwrap();
    let df = built.as_dragonfly().unwrap();
    let mut links = Vec::new();
    for x in 0..5 {
        for y in x + 1..5 {
            for &c in &df.slots_between(x, y)[..2] {
                let (r, p) = df.slot_owner(x, c);
                links.push(vec![r, built.network().port(r, p).peer_router]);
            }
        }
    }
    for algorithm in ["min", "val", "ugal_l"] {
        let faults = FaultConfig { links: links.clone(), random_fraction: 0.0 };
        let mut cfg = config(topo.clone(), algorithm, 3, faults);
        cfg.traffic.load = 0.1;
        let mut sim = Simulation::new(&cfg).unwrap();
        sim.set_invariant_checks(true);
        sim.advance(3000).unwrap();
        assert_eq!(sim.stats().unroutable, 0, "{algorithm} routed onto a failed channel");
    }
}

#[test]
fn tapered_dragonfly_never_uses_a_removed_channel() {
    // g = 5 groups of a·h = 8 slots: two channels per group pair. Keep one between groups
    // 0 and 1 and between 2 and 3.
    let topo =
        serde_json::json!({"type": "dragonfly", "p": 2, "a": 4, "h": 2, "g": 5, "taper": [[0, 1, 1], [3, 2, 1]]});
    let built = Topology::build(&serde_json::from_value(topo.clone()).unwrap()).unwrap();
    let df = built.as_dragonfly().unwrap();
    assert_eq!(
        (df.links_between(0, 1), df.links_between(1, 0), df.links_between(2, 3), df.links_between(0, 2)),
        (1, 1, 1, 2)
    );
    assert_eq!(built.absent_ports().len(), 4, "two channels removed, two ends each");
    for algorithm in ["min", "val", "ugal_l", "ugal_g"] {
        let mut cfg = config(topo.clone(), algorithm, 3, FaultConfig::default());
        cfg.traffic.load = 0.15;
        let mut sim = Simulation::new(&cfg).unwrap();
        sim.set_invariant_checks(true);
        sim.advance(3000).unwrap();
        assert_eq!(sim.stats().unroutable, 0, "{algorithm} used a removed channel");
        // Nothing was ever sent on a removed channel.
        let sent = sim.sent_flits();
        assert!(built.absent_ports().iter().all(|&p| sent[p] == 0), "{algorithm}");
        assert!(sim.set_link_failed(built.absent_ports()[0], false).is_err(), "a removed channel cannot be restored");
    }
    // Keeping none, and groups that do not exist, are refused with the entry's path.
    for (taper, want) in [
        (serde_json::json!([[0, 1, 0]]), "at least 1"),
        (serde_json::json!([[0, 9, 1]]), "two different groups"),
        (serde_json::json!([[0, 1]]), "an entry is"),
    ] {
        let mut t = topo.clone();
        t["taper"] = taper;
        let e = Topology::build(&serde_json::from_value(t).unwrap()).unwrap_err();
        assert_eq!(e.0[0].path, "topology.taper[0]");
        assert!(e.0[0].message.contains(want), "{e}");
    }
}

/// Tapering keeps each pair's first channels in slot order (docs/dragonfly.md says so and
/// why): with every group pair of p = h = 2, a = 8, g = 9 (two channels per pair) tapered to
/// one, routers 0–3 of every group keep both their global channels and routers 4–7 none.
#[test]
fn tapering_keeps_the_first_channels_in_slot_order() {
    let pairs: Vec<[u32; 3]> = (0..9).flat_map(|a| (a + 1..9).map(move |b| [a, b, 1])).collect();
    let topo = serde_json::json!({"type": "dragonfly", "p": 2, "a": 8, "h": 2, "g": 9, "taper": pairs});
    let built = Topology::build(&serde_json::from_value(topo).unwrap()).unwrap();
    let net = built.network();
    let absent: std::collections::HashSet<usize> = built.absent_ports().into_iter().collect();
    for r in 0..net.routers() as u32 {
        let kept = (0..net.radix(r))
            .filter(|&p| net.port(r, p).class == hiradix::topology::LinkClass::Global)
            .filter(|&p| !absent.contains(&net.port_id(r, p)))
            .count();
        assert_eq!(kept, if r % 8 < 4 { 2 } else { 0 }, "router {r}");
    }
}

#[test]
fn a_traced_packet_dropped_at_a_failed_link_says_so() {
    // A line of 4 with one terminal each, link 0–1 failed, DOR: every packet router 0
    // sends to router 1 is unroutable; follow the next one router 0 generates for 1.
    let mut cfg = config(
        serde_json::json!({"type": "hyperx", "s": [4], "k": [1], "t": 1}),
        "min",
        1,
        FaultConfig { links: vec![vec![0, 1]], random_fraction: 0.0 },
    );
    cfg.traffic.load = 0.0;
    let mut sim = Simulation::new(&cfg).unwrap();
    sim.trace_next_generated(0);
    sim.inject(0, 1).unwrap();
    sim.advance(50).unwrap();
    let trace = sim.trace().expect("traced");
    assert!(!trace.delivered);
    let port = sim.network().link_port(0, 1, 0).unwrap() - sim.network().port_offset(0);
    assert!(
        matches!(trace.events.last(), Some(hiradix::sim::TraceEvent::Unroutable { router: 0, port: p, .. }) if *p as usize == port),
        "{trace:?}"
    );
    assert_eq!(sim.stats().unroutable, 1);
}
