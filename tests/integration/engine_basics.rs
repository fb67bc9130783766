//! Engine tests that can fail for the right reason: analytic zero-load latency, flit and
//! credit conservation every cycle, determinism, and the deadlock watchdog with a
//! negative control.

use crate::common::{self, config};
use hiradix::config::{SimConfig, SwitchAllocator, TopologyConfig};
use hiradix::experiment::run;
use hiradix::rng::SimRng;
use hiradix::routing::{Decision, RouteCtx, RouteNote, Routing};
use hiradix::sim::{Packet, SimError, Simulation};
use hiradix::topology::HyperX;

fn fb(k: u32, n: u32, routing: &str, pattern: &str, load: f64) -> SimConfig {
    let drain = SimConfig::default().measurement.drain_limit;
    config(common::fb(k, n)).algorithm(routing).pattern(pattern).load(load).window(500, 500, drain).seed(3).build()
}

/// Zero-load latency = hops × (router delay + channel latency) + serialization,
/// here counted exactly: terminal channel in and out, one router delay per router on the
/// path (hops + 1), one channel latency per hop, and size − 1 cycles for the tail.
#[test]
fn zero_load_latency_is_analytic() {
    for (delay, local, terminal, size) in [(1, 1, 1, 1), (3, 2, 1, 1), (4, 1, 2, 4), (2, 5, 3, 2)] {
        let mut cfg = fb(4, 3, "min", "uniform", 0.0);
        cfg.router.pipeline_delay = delay;
        cfg.router.local_latency = local;
        cfg.router.terminal_latency = terminal;
        cfg.traffic.packet_size = size;
        let mut sim = Simulation::new(&cfg).unwrap();
        let hx = HyperX::flattened_butterfly(4, 3, "t").unwrap();
        let mut rng = SimRng::new(9, 9);
        for _ in 0..40 {
            let (src, dst) = (rng.below(64), rng.below(64));
            let before = sim.stats().latency_sum;
            let delivered = sim.stats().delivered;
            sim.inject(src, dst).unwrap();
            while sim.stats().delivered == delivered {
                sim.advance(1).unwrap();
            }
            let hops = hx.distance(src / 4, dst / 4) as u64;
            let expected = 2 * terminal as u64 + (hops + 1) * delay as u64 + hops * local as u64 + size as u64 - 1;
            assert_eq!(
                sim.stats().latency_sum - before,
                expected,
                "{src}→{dst}, {hops} hops, D={delay} Lc={local} Lt={terminal} size={size}"
            );
        }
    }
}

/// At a low Bernoulli load the measured average latency approaches the analytic
/// zero-load average over uniform random destinations.
#[test]
fn low_load_latency_matches_the_uniform_average() {
    let cfg = fb(4, 3, "min", "uniform", 0.02);
    let hx = HyperX::flattened_butterfly(4, 3, "t").unwrap();
    let mut total = 0u64;
    for s in 0..64u32 {
        for d in (0..64u32).filter(|&d| d != s) {
            total += 2 + (hx.distance(s / 4, d / 4) as u64 + 1) + hx.distance(s / 4, d / 4) as u64;
        }
    }
    let analytic = total as f64 / (64.0 * 63.0);
    let r = run(&cfg).unwrap().summary;
    assert!((r.avg_latency - analytic).abs() < 0.05 * analytic, "measured {} vs analytic {analytic}", r.avg_latency);
    assert!((r.accepted - 0.02).abs() < 0.005);
}

/// Flit conservation and `credits + in flight + buffered = depth` for every VC, checked
/// every cycle, over router variants and loads up to overload.
#[test]
fn invariants_hold_every_cycle() {
    for routing in ["min", "min_ad", "val"] {
        for (pattern, load) in [("uniform", 0.95), ("router_shift", 0.6)] {
            for (size, speedup, alloc) in
                [(1, 2, SwitchAllocator::Separable), (1, 1, SwitchAllocator::Islip), (3, 2, SwitchAllocator::Islip)]
            {
                let mut cfg = fb(4, 3, routing, pattern, load);
                cfg.traffic.packet_size = size;
                cfg.router.speedup = speedup;
                cfg.router.switch_allocator = alloc;
                cfg.router.local_latency = 2;
                let mut sim = Simulation::new(&cfg).unwrap();
                sim.set_invariant_checks(true);
                sim.advance(1200).unwrap();
                assert!(sim.stats().delivered > 1000, "{routing} {pattern}: only {} delivered", sim.stats().delivered);
            }
        }
    }
}

#[test]
fn same_seed_same_results_and_routing_leaves_traffic_identical() {
    let a = run(&fb(4, 3, "min_ad", "uniform", 0.5)).unwrap().summary;
    let b = run(&fb(4, 3, "min_ad", "uniform", 0.5)).unwrap().summary;
    assert_eq!(format!("{a:?}"), format!("{b:?}")); // (NaN-safe: no non-minimal packets)
    let fingerprint = |routing: &str, seed: u64| {
        let mut cfg = fb(4, 3, routing, "uniform", 0.5);
        cfg.seed = seed;
        let mut sim = Simulation::new(&cfg).unwrap();
        sim.advance(2000).unwrap();
        (sim.stats().traffic_fingerprint, sim.stats().generated)
    };
    let min = fingerprint("min", 5);
    assert_eq!(min, fingerprint("val", 5), "changing only the routing changed the offered traffic");
    assert_eq!(min, fingerprint("min_ad", 5));
    assert_ne!(min, fingerprint("min", 6), "a different seed must give different traffic");
}

/// Negative control for the watchdog: on a 1-D flattened butterfly (4 routers), route
/// every packet one router "clockwise" at a time on a single VC. Router-shift traffic by
/// two makes the channel dependencies cyclic, so at full load the network must deadlock.
#[derive(Clone)]
struct Clockwise(HyperX);

impl Routing for Clockwise {
    fn vcs_required(&self) -> u32 {
        1
    }
    fn route(&self, ctx: &RouteCtx, _pkt: &mut Packet, _rng: &mut SimRng, _note: &mut RouteNote) -> Decision {
        let next = (self.0.coord(ctx.router, 0) + 1) % self.0.s[0];
        Decision::Forward { port: self.0.port_to(ctx.router, 0, next, 0), vc: 0 }
    }
}

#[test]
fn watchdog_trips_on_a_deadlock() {
    let mut cfg = fb(4, 2, "min", "router_shift", 1.0);
    cfg.traffic.shift = 2;
    cfg.router.vcs = 1;
    cfg.router.buffer_depth = 2;
    cfg.measurement.watchdog = 200;
    let mut sim = Simulation::with_routing(&cfg, |t| Box::new(Clockwise(t.as_hyperx().unwrap().clone()))).unwrap();
    let err = sim.advance(5000).unwrap_err();
    let SimError::Deadlock(report) = &err;
    assert!(report.cycle < 5000 && !report.blocked.is_empty(), "{err}");
    assert!(err.to_string().contains("deadlock"));
    // The same network with the shipped minimal routing never deadlocks.
    let mut ok = Simulation::new(&cfg).unwrap();
    ok.advance(5000).unwrap();
}

#[test]
fn bad_configurations_are_errors_with_paths() {
    let mut cfg = fb(4, 3, "val", "uniform", 0.5);
    cfg.router.vcs = 1;
    let e = Simulation::new(&cfg).err().unwrap();
    assert_eq!(e.0[0].path, "router.vcs", "{e}");
    let mut cfg = fb(4, 3, "warp_drive", "uniform", 0.5);
    assert_eq!(Simulation::new(&cfg).err().unwrap().0[0].path, "routing.algorithm");
    cfg.routing.algorithm = "min".into();
    cfg.traffic.pattern = "bit_complement".into();
    cfg.topology = TopologyConfig::flattened_butterfly(3, 2);
    assert_eq!(Simulation::new(&cfg).err().unwrap().0[0].path, "traffic.pattern");
    cfg.topology = TopologyConfig::hyperx(vec![4, 0], vec![1], 2);
    assert_eq!(Simulation::new(&cfg).err().unwrap().0[0].path, "topology.s[1]");
}

/// Queues too large to allocate are refused, naming the setting, before anything is
/// allocated (a 32-ary 3-flat with 16 VCs × 4096 flits would need 47 GiB of buffers; the
/// limit is `sim::memory::MEMORY_LIMIT`).
#[test]
fn queues_beyond_the_memory_limit_are_errors_not_aborts() {
    let mut cfg = fb(32, 3, "min", "uniform", 0.5);
    cfg.router.vcs = 16;
    cfg.router.buffer_depth = 4096;
    let e = Simulation::new(&cfg).err().expect("47 GiB of buffers accepted");
    assert_eq!(e.0[0].path, "router.buffer_depth", "{e}");
    assert!(e.to_string().contains("GiB"), "{e}");
    cfg.router.buffer_per_port = Some(65536);
    assert_eq!(Simulation::new(&cfg).err().unwrap().0[0].path, "router.buffer_per_port");
    let mut cfg = fb(32, 3, "min", "uniform", 0.5);
    cfg.router.output_queue = Some(65535);
    assert_eq!(Simulation::new(&cfg).err().unwrap().0[0].path, "router.output_queue");
    // The papers' large networks stay well within the limit: the HyperX paper's N = 4096
    // with DAL's 6 VCs × 32 flits, and the FB paper's 64K nodes (16-ary 4-flat) with 4 VCs.
    let mut cfg = fb(16, 4, "min", "uniform", 0.5);
    cfg.router.buffer_depth = 32;
    Simulation::new(&cfg).expect("the FB paper's 64K-node network");
}

/// Batch mode delivers every packet and reports the normalized completion time.
#[test]
fn batch_mode_completes() {
    let mut cfg = fb(4, 3, "min_ad", "router_shift", 1.0);
    cfg.traffic.injection = hiradix::config::InjectionMode::Batch;
    cfg.traffic.batch_size = 20;
    let r = run(&cfg).unwrap();
    let norm = r.batch_normalized_latency.expect("batch finished");
    // Router shift under minimal routing: 4 terminals share one channel, so a batch of
    // 20 per terminal needs at least 80 cycles (4 per packet).
    assert!((4.0..6.0).contains(&norm), "{norm}");
    assert_eq!(r.summary.labeled_packets, 64 * 20);
}

/// Packets in flight are not a deadlock: 1000-cycle channels, 64-flit packets on terminal
/// channels 16 times slower than the routers' (1024 cycles to serialise one packet), and the
/// shortest watchdog, at a trickle and at overload, run without a deadlock report.
#[test]
fn long_channels_are_not_taken_for_a_deadlock() {
    for load in [0.01, 0.9] {
        let mut cfg = fb(4, 2, "min", "uniform", load);
        cfg.router.terminal_latency = 1000;
        cfg.router.local_latency = 1000;
        cfg.router.terminal_period = 16;
        cfg.router.buffer_depth = 64;
        cfg.traffic.packet_size = 64;
        cfg.measurement.watchdog = 10;
        let mut sim = Simulation::new(&cfg).unwrap();
        sim.advance(20_000).unwrap_or_else(|e| panic!("load {load}: {e}"));
        assert!(sim.stats().delivered > 0, "load {load}: nothing delivered");
    }
}

/// A routing that names a port its router does not have.
#[derive(Clone)]
struct OutOfRange;

impl Routing for OutOfRange {
    fn vcs_required(&self) -> u32 {
        1
    }
    fn route(&self, _ctx: &RouteCtx, _pkt: &mut Packet, _rng: &mut SimRng, _note: &mut RouteNote) -> Decision {
        Decision::Forward { port: 1000, vc: 0 }
    }
}

/// A routing supplied by the caller cannot make the engine index out of bounds: its
/// decision is checked (it used to write past the end of the engine's tables).
#[test]
#[should_panic(expected = "the routing chose port 1000")]
fn a_routing_naming_a_port_that_does_not_exist_is_caught() {
    let cfg = fb(4, 2, "min", "uniform", 0.5);
    let mut sim = Simulation::with_routing(&cfg, |_| Box::new(OutOfRange)).unwrap();
    let _ = sim.advance(100);
}
