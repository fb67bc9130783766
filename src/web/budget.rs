//! One memory budget for everything a page's worker holds, so that an experiment too large
//! for it is refused by name instead of killing the worker. A worker runs one instance of
//! this module, so what this module counts is the worker's: every
//! [`WebSim`](super::WebSim) it holds — running panes and the ones staged to replace them —
//! reserves, when it is built, its configuration's memory estimate
//! ([`crate::sim::memory`]) plus its rewind history's budget twice (the snapshots, and the
//! copy a rewind makes of one), and gives them back when it is freed. A simulation that
//! does not fit beside the others is refused by name, before anything is allocated; the
//! history of one that fits takes what is left, up to [`REWIND_BUDGET_BYTES`], and keeps
//! its snapshots inside it as they grow ([`History`](crate::sim::history::History)).
//!
//! The allocator is counted too ([`Counting`]), so the page's tests can measure the heap
//! the worker really uses against what it reserved ([`worker_memory`]).

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::sync::atomic::{AtomicUsize, Ordering};

use wasm_bindgen::prelude::*;

use crate::config::{ConfigErrors, SimConfig};
use crate::sim::memory::{self, MEMORY_LIMIT};

/// The most bytes of snapshots one simulation's rewind history keeps.
pub const REWIND_BUDGET_BYTES: u64 = 64 << 20;

/// Everything a worker's simulations may take together: the engine's own limit for one
/// simulation ([`MEMORY_LIMIT`], 3 GiB of wasm32's 4 GiB).
pub const WORKER_LIMIT: u64 = MEMORY_LIMIT;

thread_local! {
    /// Bytes reserved by the simulations this worker holds.
    static RESERVED: Cell<u64> = const { Cell::new(0) };
    /// Simulations holding a reservation.
    static HOLDERS: Cell<u32> = const { Cell::new(0) };
    /// The most bytes reserved at once.
    static PEAK_RESERVED: Cell<u64> = const { Cell::new(0) };
}

/// A simulation's share of the worker's budget, given back when it is dropped.
pub(super) struct Reservation {
    bytes: u64,
}

impl Drop for Reservation {
    fn drop(&mut self) {
        RESERVED.with(|r| r.set(r.get() - self.bytes));
        HOLDERS.with(|h| h.set(h.get() - 1));
    }
}

/// Reserves room for a simulation of `cfg` beside the others this worker holds, and
/// returns it with the byte budget its rewind history gets. Refuses, naming the setting
/// that weighs most, a simulation whose estimate does not fit in what is left.
pub(super) fn reserve(cfg: &SimConfig) -> Result<(Reservation, usize), ConfigErrors> {
    let Some(estimate) = memory::estimate_tables(cfg) else {
        return Err(ConfigErrors::one("topology", "the network's size overflows 64 bits"));
    };
    let (reserved, holders) = (RESERVED.with(Cell::get), HOLDERS.with(Cell::get));
    let free = WORKER_LIMIT.saturating_sub(reserved);
    if estimate.total > free {
        let gib = |b: u64| b as f64 / (1u64 << 30) as f64;
        return Err(ConfigErrors::one(
            memory::over_limit_field(cfg, free, &estimate),
            format!(
                "the simulation would take up to {:.2} GiB, and this page's worker has {:.2} GiB of its {:.1} GiB left beside the {holders} simulation(s) it already holds: use a smaller network, fewer VCs, shallower queues, a smaller source queue cap, or fewer panes",
                gib(estimate.total),
                gib(free),
                gib(WORKER_LIMIT)
            ),
        ));
    }
    let history = REWIND_BUDGET_BYTES.min((free - estimate.total) / 2);
    let bytes = reservation(estimate.total, history);
    RESERVED.with(|r| r.set(reserved + bytes));
    PEAK_RESERVED.with(|p| p.set(p.get().max(reserved + bytes)));
    HOLDERS.with(|h| h.set(holders + 1));
    Ok((Reservation { bytes }, history as usize))
}

/// What a simulation of `estimate` bytes reserves with a rewind history of `history`
/// bytes: the snapshots, and the copy a rewind makes of one.
fn reservation(estimate: u64, history: u64) -> u64 {
    estimate.saturating_add(2 * history)
}

/// The system allocator, counting the bytes it has handed out (and the most at once).
pub struct Counting;

static HEAP: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);

// SAFETY: every call is passed on unchanged to `System`, which upholds `GlobalAlloc`'s
// contract; the counters are only read, never used to allocate.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        // SAFETY: the caller's contract for `alloc` is `System::alloc`'s.
        let p = unsafe { System.alloc(layout) };
        if !p.is_null() {
            let now = HEAP.fetch_add(layout.size(), Ordering::Relaxed) + layout.size();
            PEAK.fetch_max(now, Ordering::Relaxed);
        }
        p
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: `ptr` was allocated by `alloc` above (so by `System`) with `layout`.
        unsafe { System.dealloc(ptr, layout) };
        HEAP.fetch_sub(layout.size(), Ordering::Relaxed);
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // SAFETY: the caller's contract for `realloc` is `System::realloc`'s.
        let p = unsafe { System.realloc(ptr, layout, new_size) };
        if !p.is_null() {
            HEAP.fetch_sub(layout.size(), Ordering::Relaxed);
            let now = HEAP.fetch_add(new_size, Ordering::Relaxed) + new_size;
            PEAK.fetch_max(now, Ordering::Relaxed);
        }
        p
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

/// `{reserved, simulations, peak_reserved, limit, heap, peak_heap}`: the worker's budget and the heap it
/// really uses (the page's memory tests compare the two).
#[wasm_bindgen(js_name = workerMemory, unchecked_return_type = "WorkerMemory")]
pub fn worker_memory() -> JsValue {
    let m = crate::inspect::WorkerMemory {
        reserved: RESERVED.with(Cell::get) as f64,
        simulations: HOLDERS.with(Cell::get),
        peak_reserved: PEAK_RESERVED.with(Cell::get) as f64,
        limit: WORKER_LIMIT as f64,
        heap: HEAP.load(Ordering::Relaxed) as f64,
        peak_heap: PEAK.load(Ordering::Relaxed) as f64,
    };
    super::to_js(&m)
}

/// The most a simulation of `config_json` can reserve when it is built ([`reserve`]: its
/// estimate and a full rewind budget twice), or NaN for a configuration that does not
/// read or validate. The worker compares the sum over an experiment's panes with what is
/// free before building them.
#[wasm_bindgen(js_name = memoryNeed)]
pub fn memory_need(config_json: &str) -> f64 {
    SimConfig::from_json(config_json)
        .ok()
        .filter(|cfg| cfg.validate().is_ok())
        .and_then(|cfg| memory::estimate_tables(&cfg))
        .map_or(f64::NAN, |e| reservation(e.total, REWIND_BUDGET_BYTES) as f64)
}
