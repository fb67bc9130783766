//! What the page's inspector reads from the engine: DAL's per-hop notes (the numbers
//! behind each decision, recorded only on request) and the packet trace. Neither may
//! change a run's results.

use hiradix::config::{SimConfig, TopologyConfig};
use hiradix::routing::{Decisions, HopKind};
use hiradix::sim::{Simulation, TraceEvent};

fn dal(pattern: &str, load: f64) -> SimConfig {
    let mut c = SimConfig::default();
    c.topology = TopologyConfig::hyperx(vec![4, 4, 4], vec![1], 4);
    c.routing.algorithm = "dal".into();
    c.traffic.pattern = pattern.into();
    c.traffic.load = load;
    c.router.vcs = 6;
    c.router.buffer_depth = 8;
    c.seed = 5;
    c
}

fn fingerprint(sim: &Simulation) -> (u64, u64, u64, Vec<u64>) {
    let s = sim.stats();
    (s.delivered, s.latency_sum, s.delivered_nonminimal, sim.sent_flits().to_vec())
}

#[test]
fn recording_notes_or_tracing_changes_nothing() {
    let c = dal("swap2", 0.8);
    let mut plain = Simulation::new(&c).unwrap();
    let mut watched = Simulation::new(&c).unwrap();
    watched.record_hop_notes(true);
    watched.trace_next_generated(3);
    plain.advance(1500).unwrap();
    watched.advance(1500).unwrap();
    assert_eq!(fingerprint(&plain), fingerprint(&watched));
    assert!(plain.hop_note(0).is_none(), "no notes unless recording");
    assert!(watched.trace().is_some_and(|t| t.delivered));
}

/// Every recorded DAL decision agrees with the rule it names, by its own numbers.
#[test]
fn dal_notes_explain_the_decision() {
    let mut sim = Simulation::new(&dal("swap2", 0.8)).unwrap();
    sim.record_hop_notes(true);
    let Some(Decisions::PerHopDimensions { rules }) =
        hiradix::routing::declaration("dal", hiradix::config::schema::Family::HYPERX).map(|a| a.decisions)
    else {
        panic!("DAL declares per-hop decisions")
    };
    let mut seen = std::collections::BTreeMap::<&str, u32>::new();
    for _ in 0..1500 {
        sim.advance(1).unwrap();
        for r in 0..sim.network().routers() as u32 {
            let Some(n) = sim.hop_note(r) else { continue };
            if n.cycle + 1 != sim.now() {
                continue; // decided in an earlier cycle: already checked
            }
            *seen.entry(n.rule).or_default() += 1;
            let rule =
                rules.iter().find(|r| r.name == n.rule).expect("every rule DAL names is declared, for the inspector");
            assert_eq!(rule.hop == HopKind::Escape, n.rule.contains("escape"), "{rule:?}");
            assert_eq!(n.dims, 3);
            let d = &n.per_dim[n.dim as usize];
            assert!(d.offset, "the chosen dimension is offset: {n:?}");
            let offset: Vec<_> = n.per_dim[..3].iter().filter(|d| d.offset).collect();
            let deroute_ok = |need: u32| offset.iter().any(|d| d.deroutable && d.has_deroute && d.der_free >= need);
            match n.rule {
                "minimal" => assert!(d.min_free >= n.need_uncongested, "{n:?}"),
                "deroute" => {
                    assert!(
                        offset.iter().all(|d| d.min_free < n.need_uncongested),
                        "a minimal output was uncongested: {n:?}"
                    );
                    assert!(d.deroutable && d.has_deroute && d.der_free >= n.need_uncongested, "{n:?}");
                }
                "minimal_congested" => {
                    assert!(
                        offset.iter().all(|d| d.min_free < n.need_uncongested) && !deroute_ok(n.need_uncongested),
                        "{n:?}"
                    );
                    assert!(d.min_free >= n.need_free, "{n:?}");
                }
                "escape" => {
                    assert!(
                        offset.iter().all(|d| d.min_free < n.need_free) && !deroute_ok(n.need_uncongested),
                        "{n:?}"
                    );
                }
                "in_escape" => {}
                other => panic!("unknown rule {other}"),
            }
            // Even VCs are adaptive, odd VCs escape.
            assert_eq!(n.vc % 2 == 1, n.rule.contains("escape"), "{n:?}");
            assert!(n.need_uncongested >= n.need_free);
        }
    }
    for rule in ["minimal", "deroute"] {
        assert!(seen.get(rule).copied().unwrap_or(0) > 10, "{rule} seen: {seen:?}");
    }
}

/// A traced packet's events form a path from its source to its destination.
#[test]
fn a_trace_follows_one_packet_to_its_destination() {
    let mut sim = Simulation::new(&dal("uniform", 0.5)).unwrap();
    sim.advance(200).unwrap();
    sim.trace_next_generated(9);
    assert_eq!(sim.trace_armed_at(), Some(9));
    for _ in 0..2000 {
        sim.advance(1).unwrap();
        if sim.trace().is_some_and(|t| t.delivered) {
            break;
        }
    }
    let t = sim.trace().expect("a packet was generated at router 9").clone();
    assert!(t.delivered);
    assert_eq!(sim.trace_armed_at(), None);
    let net = sim.network();
    let TraceEvent::Injected { router, arrives, .. } = t.events[0] else {
        panic!("starts with its injection: {:?}", t.events)
    };
    assert_eq!((router, t.src_router), (9, 9));
    let (mut at, mut ready) = (router, arrives);
    for (i, e) in t.events[1..].iter().enumerate() {
        let TraceEvent::Sent { cycle, router, port, arrives, .. } = *e else { panic!("{e:?}") };
        assert_eq!(router, at, "hop {i} leaves from where the previous one arrived");
        assert!(cycle >= ready && arrives > cycle);
        let p = net.port(router, port);
        if i + 2 == t.events.len() {
            assert!(p.is_terminal() && router == t.dst_router, "the last hop ejects at the destination");
        } else {
            assert!(!p.is_terminal());
            (at, ready) = (p.peer_router, arrives);
        }
    }
    assert!(t.events.len() >= 2 && t.events.len() <= 2 + 6, "DAL: at most two hops per dimension: {:?}", t.events);
    // A new trace can start on a packet waiting in a queue.
    sim.clear_trace();
    assert!(sim.trace().is_none());
    let vcs = sim.vcs();
    let found = (0..sim.network().total_ports())
        .flat_map(|p| (0..vcs).map(move |v| (p, v)))
        .find(|&(p, v)| sim.input_occupancy(p, v) > 0);
    let (p, v) = found.expect("a loaded network buffers packets");
    assert!(sim.trace_queue_head(p, v));
    assert!(matches!(sim.trace().unwrap().events[0], TraceEvent::Found { .. }));
}

/// Simulations that differ only in routing see the same traffic, so the next packet
/// generated at a router is the same packet in each: a trace compares its paths.
#[test]
fn the_same_packet_is_traced_under_each_routing() {
    let mut seen = Vec::new();
    for algo in ["dal", "min", "clos_ad_hx"] {
        let mut c = dal("swap2", 0.6);
        c.routing.algorithm = algo.into();
        let mut sim = Simulation::new(&c).unwrap();
        sim.advance(400).unwrap();
        sim.trace_next_generated(5);
        for _ in 0..3000 {
            sim.advance(1).unwrap();
            if sim.trace().is_some_and(|t| t.delivered) {
                break;
            }
        }
        let t = sim.trace().unwrap();
        assert!(t.delivered, "{algo}");
        seen.push((t.src, t.dst, t.created));
    }
    assert!(seen.windows(2).all(|w| w[0] == w[1]), "{seen:?}");
}
