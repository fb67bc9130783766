//! Channel slicing (dragonfly paper §3.2: "multiple networks can be connected in parallel
//! to add capacity"): `topology.slices` identical dragonflies, every node attached to each,
//! packets put on a slice whole by `topology.slice_policy`.
//!
//! Claims: the slices are separate copies of the network; the traffic runs between nodes,
//! each packet stays on its slice; every policy splits a node's packets evenly over a
//! healthy pair; with one slice degraded by failed links, the shortest-queue and shared-queue
//! policies carry a load that saturates round robin and random; link failures are refused only when they split a
//! slice; bad values are refused naming `topology.slices`.

use crate::common::config;
use hiradix::config::{SimConfig, SlicePolicy, TopologyConfig};
use hiradix::experiment::run;
use hiradix::sim::Simulation;
use hiradix::topology::{DragonflyConfig, Topology};

/// The 72-node dragonfly of Fig. 5 (p = h = 2, a = 4, g = 9), `slices` times.
fn sliced(slices: u32, policy: SlicePolicy) -> TopologyConfig {
    TopologyConfig::dragonfly(2, 4, 2, 9).sliced(slices, policy)
}

fn cfg(topology: TopologyConfig, algorithm: &str, load: f64) -> SimConfig {
    config(topology).algorithm(algorithm).load(load).vcs(3).seed(11).build()
}

#[test]
fn slices_are_separate_copies() {
    let topo = Topology::build(&sliced(3, SlicePolicy::ShortestQueue)).unwrap();
    let (net, df) = (topo.network(), topo.as_dragonfly().unwrap());
    let one = Topology::build(&sliced(1, SlicePolicy::ShortestQueue)).unwrap();
    let (routers, nodes) = (one.network().routers() as u32, one.network().terminals());
    assert_eq!((net.routers() as u32, net.terminals(), net.nodes(), net.slices()), (3 * routers, 3 * nodes, nodes, 3));
    for (r, port, q, qp) in net.channels() {
        assert_eq!(net.slice_of(r), net.slice_of(q), "channel {r}.{port} → {q} crosses slices");
        // The same channel as in the unsliced network, shifted by the slice.
        let base = net.slice_of(r) * routers;
        let plain = one.network().port(r - base, port);
        assert_eq!((plain.peer_router + base, plain.peer_port, plain.class), (q, qp, net.port(r, port).class));
    }
    for t in 0..net.terminals() as u32 {
        let (slice, node) = (t / nodes as u32, t % nodes as u32);
        let (r, p) = net.terminal_port(t);
        assert_eq!(
            (r, p),
            (slice * routers + one.network().terminal_router(node), one.network().terminal_port(node).1)
        );
        assert_eq!(df.group(r), df.group(one.network().terminal_router(node)));
    }
    assert!(net.positions.iter().flatten().all(|v| (0.0..=1.0).contains(v)));
    let (blocks, kind) = topo.drawing_blocks();
    assert_eq!(kind, "group");
    assert_eq!(blocks.iter().max(), Some(&(3 * 9 - 1)), "every slice's groups drawn as blocks of their own");
    assert_eq!(topo.absent_ports().len(), 0);
}

#[test]
fn bad_slices_are_refused_naming_the_field() {
    for slices in [0, 9] {
        let e = Simulation::new(&cfg(sliced(slices, SlicePolicy::RoundRobin), "min", 0.1)).err().expect("refused");
        assert!(e.0.iter().any(|e| e.path == "topology.slices"), "{slices}: {e}");
    }
    // 8 slices of a 32 768-node network: more terminal channels than the simulator's
    // limit, refused before anything is built.
    let mut big = cfg(DragonflyConfig { slices: 8, ..DragonflyConfig::new(16, 32, 16, 64) }.into(), "min", 0.1);
    big.traffic.source_queue_cap = 1;
    big.router.buffer_depth = 1;
    big.router.vcs = 2;
    let e = Simulation::new(&big).err().expect("refused");
    assert!(e.0.iter().any(|e| e.path == "topology.slices" && e.message.contains("limit")), "{e}");
}

/// Flits ejected at each slice's terminals after `cycles` of uniform traffic.
fn ejected_per_slice(policy: SlicePolicy, cycles: u64) -> Vec<u64> {
    let mut sim = Simulation::new(&cfg(sliced(2, policy), "ugal_l", 0.4)).unwrap();
    sim.advance(cycles).unwrap();
    let net = sim.network().clone();
    let sent = sim.sent_flits();
    let mut per_slice = vec![0u64; net.slices() as usize];
    for t in 0..net.terminals() as u32 {
        let (r, p) = net.terminal_port(t);
        per_slice[net.slice_of(r) as usize] += sent[net.port_id(r, p)];
    }
    assert!(sim.stats().delivered > 0);
    per_slice
}

#[test]
fn every_policy_splits_the_packets_evenly_on_a_healthy_pair() {
    for policy in [SlicePolicy::RoundRobin, SlicePolicy::Random, SlicePolicy::ShortestQueue, SlicePolicy::SharedQueue] {
        let per_slice = ejected_per_slice(policy, 3000);
        let (lo, hi) = (per_slice[0].min(per_slice[1]) as f64, per_slice[0].max(per_slice[1]) as f64);
        assert!(lo > 0.95 * hi, "{policy:?}: {per_slice:?}");
        // Half the offered load on each slice's terminals: 0.4 flits per cycle per node.
        let total = (per_slice[0] + per_slice[1]) as f64 / 3000.0 / 72.0;
        assert!((0.75..0.85).contains(&total), "{policy:?}: {total} flits per cycle per node");
    }
}

#[test]
fn every_packet_stays_on_its_slice_and_arrives() {
    // A batch: every node's every channel sends 10 packets, all delivered (the batch
    // completes only if no packet is lost between slices).
    let mut c = cfg(sliced(2, SlicePolicy::ShortestQueue), "ugal_l", 1.0);
    c.traffic.injection = hiradix::config::InjectionMode::Batch;
    c.traffic.batch_size = 10;
    let r = run(&c).unwrap();
    assert!(r.batch_normalized_latency.is_some());
    assert_eq!(r.summary.labeled_packets, 2 * 72 * 10);
}

/// Slice 1 degraded: 12 of its 36 global channels failed (UGAL-L routes around them).
fn degraded(policy: SlicePolicy, load: f64) -> SimConfig {
    let mut c = cfg(sliced(2, policy), "ugal_l", load);
    let topo = Topology::build(&c.topology).unwrap();
    let net = topo.network();
    let base = net.routers() as u32 / 2;
    let globals: Vec<(u32, u32)> = net
        .channels()
        .filter(|&(r, p, q, _)| r >= base && r < q && net.port(r, p).class == hiradix::topology::LinkClass::Global)
        .map(|(r, _, q, _)| (r, q))
        .collect();
    assert_eq!(globals.len(), 36);
    c.faults.links = globals.iter().step_by(3).take(12).map(|&(r, q)| vec![r, q]).collect();
    c
}

#[test]
fn queue_aware_policies_carry_what_saturates_a_fixed_split() {
    let sq = run(&degraded(SlicePolicy::ShortestQueue, 0.5)).unwrap().summary;
    assert!(!sq.saturated && sq.accepted > 0.49 && sq.unroutable_fraction == 0.0, "{sq:?}");
    for policy in [SlicePolicy::RoundRobin, SlicePolicy::Random] {
        let fixed = run(&degraded(policy, 0.5)).unwrap().summary;
        assert!(fixed.saturated && fixed.accepted < sq.accepted, "{policy:?}: {fixed:?}");
    }
    // One queue per node, its head leaving on whichever slice takes it.
    let shared = run(&degraded(SlicePolicy::SharedQueue, 0.5)).unwrap().summary;
    assert!(!shared.saturated && shared.accepted > 0.49 && shared.unroutable_fraction == 0.0, "{shared:?}");
}

#[test]
fn a_failure_is_refused_only_when_it_splits_a_slice() {
    let mut sim = Simulation::new(&cfg(sliced(2, SlicePolicy::ShortestQueue), "ugal_l", 0.2)).unwrap();
    let net = sim.network().clone();
    // Router 36, the first of slice 1: all but its last link may fail; the last would cut
    // it (and its terminals) off from its slice.
    let links: Vec<usize> =
        (0..net.radix(36)).filter(|&p| !net.port(36, p).is_terminal()).map(|p| net.port_id(36, p)).collect();
    for &id in &links[..links.len() - 1] {
        sim.set_link_failed(id, true).unwrap();
    }
    let e = sim.set_link_failed(*links.last().unwrap(), true).unwrap_err();
    assert!(e.contains("disconnect"), "{e}");
    // A packet put in by hand stays in one slice too: its two terminals must share it.
    assert!(sim.inject(0, 72 + 5).unwrap_err().message.contains("different slices"));
    assert!(sim.inject(72, 72 + 5).is_ok());
    sim.advance(500).unwrap();
    assert!(sim.stats().delivered > 0);
}

#[test]
fn deterministic_with_every_policy() {
    for policy in [SlicePolicy::RoundRobin, SlicePolicy::Random, SlicePolicy::ShortestQueue, SlicePolicy::SharedQueue] {
        let c = cfg(sliced(2, policy), "ugal_l_cr", 0.6);
        let (a, b) = (run(&c).unwrap().summary, run(&c).unwrap().summary);
        assert_eq!(format!("{a:?}"), format!("{b:?}"), "{policy:?}");
    }
}
