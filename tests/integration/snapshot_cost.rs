//! A rewind snapshot allocates no more than the history counts it as
//! ([`History::cost`]): the page's memory budget (src/web/budget.rs) rests on it. Measured
//! with a counting allocator, in a test binary of its own so that no other test allocates
//! meanwhile.

use hiradix::config::{SimConfig, TopologyConfig};
use hiradix::sim::history::History;
use hiradix::sim::Simulation;
use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering};

struct Counting;

static ALLOCATED: AtomicUsize = AtomicUsize::new(0);

// SAFETY: every call is passed on unchanged to `System`; the counter is only read.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        ALLOCATED.fetch_add(layout.size(), Ordering::SeqCst);
        // SAFETY: the caller's contract is `System::alloc`'s.
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: `ptr` came from `System` with `layout`.
        unsafe { System.dealloc(ptr, layout) }
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

/// Bytes allocated while copying `sim` (a realloc counts as a fresh allocation: over, not
/// under).
fn copy_bytes(sim: &Simulation) -> usize {
    let before = ALLOCATED.load(Ordering::SeqCst);
    let copy = sim.clone();
    let bytes = ALLOCATED.load(Ordering::SeqCst) - before;
    drop(copy);
    bytes
}

#[test]
fn a_snapshot_takes_no_more_than_its_counted_cost() {
    let json = |v: serde_json::Value| -> TopologyConfig { serde_json::from_value(v).expect("a topology") };
    let cases: Vec<(&str, TopologyConfig, &str, &str, f64, u64)> = vec![
        ("fresh 1K dragonfly, UGAL-L_CR", TopologyConfig::dragonfly(4, 8, 4, 33), "ugal_l_cr", "uniform", 0.3, 0),
        (
            "loaded 1K dragonfly, UGAL-L_CR",
            TopologyConfig::dragonfly(4, 8, 4, 33),
            "ugal_l_cr",
            "group_shift",
            0.5,
            2000,
        ),
        (
            "HyperX DAL",
            json(serde_json::json!({"type": "hyperx", "s": [4, 4, 4], "k": [1], "t": 4})),
            "dal",
            "swap2",
            0.8,
            1000,
        ),
        ("16-ary 2-flat past saturation", TopologyConfig::flattened_butterfly(16, 2), "min", "router_shift", 1.0, 3000),
        (
            "2DFB",
            json(serde_json::json!({"type": "dilated_flattened_butterfly", "k": 8, "n": 2})),
            "adaptive_2dfb",
            "uniform",
            0.5,
            1000,
        ),
    ];
    for (what, topology, algorithm, pattern, load, cycles) in cases {
        let mut cfg = SimConfig::default();
        cfg.topology = topology;
        cfg.routing.algorithm = algorithm.into();
        cfg.router.vcs = 4;
        cfg.traffic.pattern = pattern.into();
        cfg.traffic.load = load;
        cfg.traffic.source_queue_cap = 100_000;
        let mut sim = match Simulation::new(&cfg) {
            Ok(sim) => sim,
            Err(e) => panic!("{what}: {e}"),
        };
        sim.advance(cycles).expect("no deadlock");
        let (copy, counted) = (copy_bytes(&sim), History::cost(&sim));
        assert!(copy <= counted, "{what}: a copy allocates {copy} bytes, the history counts {counted}");
    }
}
