//! Lower bounds for issue 32 (docs/performance.md, "What the work takes"): the work of two
//! `hiradix bench` configurations written again for those configurations alone —
//! `fb1024-min-0.5` ([`fb`]) and `dragonfly1k-ugal_l-0.3` ([`df`]) — with every size a
//! constant, one visit per router over per-router records (input VCs with their buffers
//! inline, output ports with their credits and queues inline), routing in the same pass
//! that collects the switch candidates, and none of the engine's other duties (statistics
//! beyond a delivered count and a latency sum, hop and decision counts, channel flit
//! counters, the watchdog, failed links, UGAL-L_CR, other algorithms, allocators and
//! timings, the page's views). The router ([`engine`]) is hiradix's default: speedup 2
//! with separable input-first round-robin allocation, output queues of 4, one-cycle
//! channels and pipeline, 16-flit VCs, single-flit packets from Bernoulli sources with
//! uniform destinations. They deliver what hiradix delivers but are not bit-identical to
//! it (packet ids, the injection VC, the order of routing and of credits differ). Not the
//! engine: a measurement.
//!
//!   scripts/lean-bound/count.sh

mod df;
mod engine;
mod fb;
mod rng;

/// The result of a run: packets delivered and their total latency in cycles.
pub struct Run {
    pub delivered: u64,
    pub latency: u64,
}

/// Runs `fb1024-min-0.5` for `cycles` cycles.
pub fn fb(cycles: u32) -> Run {
    let mut sim = fb::sim();
    (0..cycles).for_each(|_| sim.step());
    Run { delivered: sim.delivered, latency: sim.latency }
}

/// Runs `dragonfly1k-ugal_l-0.3` for `cycles` cycles.
pub fn df(cycles: u32) -> Run {
    let mut sim = df::sim();
    (0..cycles).for_each(|_| sim.step());
    Run { delivered: sim.delivered, latency: sim.latency }
}

/// [`fb`] for the wasm build; returns the packets delivered.
#[no_mangle]
pub extern "C" fn run_fb(cycles: u32) -> u64 {
    fb(cycles).delivered
}

/// [`df`] for the wasm build; returns the packets delivered.
#[no_mangle]
pub extern "C" fn run_df(cycles: u32) -> u64 {
    df(cycles).delivered
}
