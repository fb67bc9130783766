//! The page's time controls in the engine: rewinding is exact (periodic snapshots plus
//! deterministic replay, with the load changes and link failures made while running
//! replayed at their cycles), and the per-router decision counts add up to the hops and
//! the non-minimal packets the statistics count.

use crate::common::{config, hx};
use hiradix::config::{InjectionMode, SimConfig, TopologyConfig};
use hiradix::sim::history::{Event, History};
use hiradix::sim::Simulation;

fn dragonfly(algorithm: &str) -> SimConfig {
    config(TopologyConfig::dragonfly(2, 4, 2, 9)).algorithm(algorithm).vcs(3).pattern("group_shift").load(0.4).build()
}

fn hyperx_dal() -> SimConfig {
    config(hx(&[4, 4], &[1], 4)).algorithm("dal").vcs(2).pattern("uniform").load(0.7).build()
}

/// Everything the page can observe of a simulation, plus the draws it will make next
/// (the state after 20 more cycles), as one comparable value.
fn fingerprint(sim: &Simulation) -> String {
    let mut ahead = sim.clone();
    ahead.advance(20).expect("no deadlock");
    let state = |s: &Simulation| {
        let st = s.stats();
        let channels: Vec<_> = s.packets_on_channels().map(|(port, at, _, p)| (port, at, p.src, p.dst)).collect();
        format!(
            "{} {} {} {} {} {} {} {:?} {:?} {:?} {:?}",
            s.now(),
            st.generated,
            st.delivered,
            st.latency_sum,
            st.hops_sum,
            st.unroutable,
            s.packets_in_sources(),
            s.buffered_flits(),
            s.sent_flits(),
            s.router_decisions(),
            channels
        )
    };
    format!("{} | {}", state(sim), state(&ahead))
}

/// Runs `cfg` for `end` cycles applying `events` at their cycles, with a history of
/// `budget` bytes (0: none), and returns the fingerprints at `marks` (after the events of
/// the mark's cycle).
fn reference(cfg: &SimConfig, events: &[(u64, Event)], marks: &[u64]) -> Vec<String> {
    let mut sim = Simulation::new(cfg).expect("valid");
    let mut out = Vec::new();
    let mut stops: Vec<u64> = events.iter().map(|e| e.0).chain(marks.iter().copied()).collect();
    stops.sort_unstable();
    stops.dedup();
    for stop in stops {
        sim.advance(stop - sim.now()).expect("no deadlock");
        for &(_, event) in events.iter().filter(|e| e.0 == stop) {
            match event {
                Event::Load(load) => sim.set_load(load).expect("valid load"),
                Event::LinkFailed { port, failed } => sim.set_link_failed(port, failed).expect("connected"),
            }
        }
        if marks.contains(&stop) {
            out.push(fingerprint(&sim));
        }
    }
    out
}

/// What a snapshot of `cfg`'s simulation costs once its queues have filled (1 000 cycles).
fn loaded_cost(cfg: &SimConfig) -> usize {
    let mut sim = Simulation::new(cfg).expect("valid");
    sim.advance(1000).expect("no deadlock");
    History::cost(&sim)
}

fn rewinds_exactly(cfg: &SimConfig, events: &[(u64, Event)], what: &str) {
    let marks = [0, 1, 63, 64, 300, 301, 517, 700];
    let expected = reference(cfg, events, &marks);
    let mut sim = Simulation::new(cfg).expect("valid");
    // Room for about four snapshots of the loaded network: the history thins out and
    // doubles its interval on the way.
    let budget = 9 * loaded_cost(cfg) / 2;
    let mut history = History::new(&sim, budget);
    for &(at, event) in events {
        let cycles = at - sim.now();
        history.advance(&mut sim, cycles).expect("no deadlock");
        history.apply(&mut sim, event).expect("accepted");
    }
    let cycles = 1000 - sim.now();
    history.advance(&mut sim, cycles).expect("no deadlock");
    assert!((3..=4).contains(&history.snapshots()), "{what}: {} snapshots", history.snapshots());
    assert!(history.bytes() <= budget, "{what}: {} bytes of snapshots over {budget}", history.bytes());
    assert_eq!(history.earliest(1000), 0, "{what}: the first snapshot was dropped");
    assert!(history.latest() + History::SPACING > 1000, "{what}: no recent snapshot ({})", history.latest());
    assert!(history.max_replay(1000) > History::SPACING, "{what}: the history never thinned out");
    for (&mark, want) in marks.iter().zip(&expected).rev() {
        assert_eq!(history.rewind(&mut sim, mark), mark, "{what}");
        assert_eq!(&fingerprint(&sim), want, "{what}: rewound to cycle {mark}");
    }
    // Rewinding is an undo: the run goes on from cycle 0 without the events.
    history.advance(&mut sim, 700).expect("no deadlock");
    assert_eq!(fingerprint(&sim), reference(cfg, &[], &[700])[0], "{what}: replay after the undo");
}

#[test]
fn rewinding_restores_the_state_first_reached() {
    let cfg = dragonfly("ugal_l");
    rewinds_exactly(&cfg, &[(300, Event::Load(0.7)), (517, Event::Load(0.2))], "UGAL-L dragonfly");
    let cfg = hyperx_dal();
    let sim = Simulation::new(&cfg).expect("valid");
    let net = sim.network();
    let link = (0..net.radix(0)).find(|&p| !net.port(0, p).is_terminal()).expect("a link");
    let port = net.port_id(0, link);
    rewinds_exactly(
        &cfg,
        &[
            (64, Event::LinkFailed { port, failed: true }),
            (301, Event::Load(0.9)),
            (301, Event::LinkFailed { port, failed: false }),
        ],
        "DAL HyperX with a link failed and restored",
    );
}

#[test]
fn rewind_clamps_to_the_history() {
    let cfg = dragonfly("min");
    let mut sim = Simulation::new(&cfg).expect("valid");
    let mut history = History::new(&sim, usize::MAX);
    history.advance(&mut sim, 100).expect("no deadlock");
    assert_eq!(history.rewind(&mut sim, 500), 100, "rewinding forward stays put");
    assert_eq!(history.rewind(&mut sim, 0), 0);
    assert_eq!(fingerprint(&sim), fingerprint(&Simulation::new(&cfg).expect("valid")));
}

#[test]
fn a_refused_event_is_not_recorded() {
    let cfg = dragonfly("min");
    let mut sim = Simulation::new(&cfg).expect("valid");
    let mut history = History::new(&sim, usize::MAX);
    history.advance(&mut sim, 10).expect("no deadlock");
    let err = history.apply(&mut sim, Event::Load(7.0)).expect_err("out of range");
    assert_eq!(err.0[0].path, "traffic.load", "{err}");
    assert_eq!(sim.config().traffic.load, 0.4);
    history.advance(&mut sim, 90).expect("no deadlock");
    assert_eq!(fingerprint(&sim), reference(&cfg, &[], &[100])[0]);
}

/// Every router-to-router hop is one routing decision at the router it leaves, and every
/// packet routed non-minimally was sent off the minimal path at exactly one router.
#[test]
fn decision_counts_add_up_to_hops_and_nonminimal_packets() {
    for algorithm in ["min", "val", "ugal_l", "ugal_l_cr"] {
        let mut cfg = dragonfly(algorithm);
        cfg.traffic.injection = InjectionMode::Batch;
        cfg.traffic.batch_size = 20;
        let mut sim = Simulation::new(&cfg).expect("valid");
        while sim.batch_pending() {
            sim.advance(100).expect("no deadlock");
        }
        let d = sim.router_decisions();
        let (routed, nonminimal) =
            (d.iter().map(|d| d.routed).sum::<u64>(), d.iter().map(|d| d.nonminimal).sum::<u64>());
        let s = sim.stats();
        assert_eq!(s.delivered, 72 * 20, "{algorithm}");
        assert_eq!(routed, s.hops_sum, "{algorithm}: decisions vs hops");
        assert_eq!(nonminimal, s.delivered_nonminimal, "{algorithm}: non-minimal decisions");
        match algorithm {
            "min" => assert_eq!(nonminimal, 0),
            _ => assert!(nonminimal > 0, "{algorithm} routed nothing non-minimally"),
        }
    }
}

/// On a long run the snapshots stay dense near the present (stepping back replays little)
/// and thin out into the past, within the budget.
#[test]
fn snapshots_thin_out_into_the_past() {
    let cfg = dragonfly("min");
    let mut sim = Simulation::new(&cfg).expect("valid");
    let budget = 17 * loaded_cost(&cfg) / 2;
    let mut history = History::new(&sim, budget);
    history.advance(&mut sim, 20_000).expect("no deadlock");
    let cycles: Vec<u64> = history.cycles().collect();
    assert!((7..=10).contains(&cycles.len()), "{cycles:?}");
    assert!(history.bytes() <= budget);
    assert_eq!(cycles[0], 0);
    assert!(history.latest() + History::SPACING > 20_000, "stepping back replays more than SPACING: {cycles:?}");
    let gaps: Vec<u64> = cycles.windows(2).map(|w| w[1] - w[0]).collect();
    assert!(gaps.first() > gaps.last(), "the oldest gap is not the widest: {cycles:?}");
    assert!(history.max_replay(20_000) < 15_000, "a rewind may replay most of the run: {cycles:?}");
    assert_eq!(history.rewind(&mut sim, 19_999), 19_999);
    assert_eq!(fingerprint(&sim), reference(&cfg, &[], &[19_999])[0]);
}

/// The history counts each snapshot at what it holds when taken: past saturation, with a
/// large source-queue cap, the snapshots grow with the queues (one share link took the
/// page's worker from 1.5 to 4.8 GiB), and the history drops old ones to stay inside its
/// bytes, keeping the first and a recent one.
#[test]
fn the_history_stays_within_its_bytes_as_source_queues_grow() {
    let mut cfg = SimConfig::default();
    cfg.topology = TopologyConfig::flattened_butterfly(4, 2);
    cfg.traffic.pattern = "router_shift".into();
    cfg.traffic.load = 1.0;
    cfg.traffic.source_queue_cap = 100_000;
    let mut sim = Simulation::new(&cfg).expect("valid");
    let first = History::cost(&sim);
    let budget = 40 * first;
    let mut history = History::new(&sim, budget);
    let mut grew = false;
    for _ in 0..40 {
        history.advance(&mut sim, 500).expect("no deadlock");
        assert!(history.bytes() <= budget, "{} bytes of snapshots over {budget}", history.bytes());
        grew |= History::cost(&sim) > 4 * first;
    }
    assert!(grew, "the source queues did not grow the snapshots: the test tests nothing");
    assert_eq!(history.earliest(sim.now()), 0, "the first snapshot was dropped");
    assert!(history.snapshots() >= 2, "only the first snapshot is kept");
    assert_eq!(history.rewind(&mut sim, 19_990), 19_990);
    assert_eq!(fingerprint(&sim), reference(&cfg, &[], &[19_990])[0]);
}

/// A simulation larger than its history's budget keeps no snapshot: it cannot be rewound,
/// and the history says so (the earliest cycle is the current one).
#[test]
fn a_simulation_larger_than_the_budget_cannot_be_rewound() {
    let cfg = dragonfly("min");
    let mut sim = Simulation::new(&cfg).expect("valid");
    let mut history = History::new(&sim, History::cost(&sim) - 1);
    history.advance(&mut sim, 300).expect("no deadlock");
    assert_eq!(history.snapshots(), 0);
    assert_eq!(history.earliest(sim.now()), 300);
    assert_eq!(history.rewind(&mut sim, 10), 300, "stays put");
    assert_eq!(history.max_replay(300), 0);
}
