//! The memory a configuration will take, computed from the configuration alone with
//! checked arithmetic, before anything is allocated (a config must never allocate
//! past its estimate). `Simulation::new` refuses a configuration whose estimate exceeds
//! [`MEMORY_LIMIT`], naming the setting that contributes most. The estimate is an upper
//! bound: `tests/integration/memory_estimate.rs` measures peak resident memory at overload against it.

use super::state::{InputBuffers, Ports};
use super::{Arrival, CreditReturn, OutEntry, Slot};
use crate::config::{ConfigErrors, InjectionMode, SimConfig};
use crate::sim::Packet;
use crate::topology::graph::Port;
use std::mem::size_of;

/// The most memory a simulation may take: in the page 3 GiB (a wasm module's memory ends
/// at 4 GiB, and the page needs some), natively 16 GiB (the command line is for large
/// networks; these machines have 24 GiB).
pub const MEMORY_LIMIT: u64 = if cfg!(target_arch = "wasm32") { 3 << 30 } else { 16 << 30 };

/// The largest block one allocation may ask for: wasm32 addresses 4 GiB but a Rust
/// allocation is at most `isize::MAX` bytes, so a table of 2 GiB or more cannot exist there
/// however much memory is free; natively, far beyond [`MEMORY_LIMIT`].
pub const MAX_ALLOCATION: u64 = isize::MAX as u64;

/// What a configuration allocates, as far as the limits care.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Estimate {
    /// An upper bound of the bytes allocated in all.
    pub total: u64,
    /// The setting that contributes most to `total`.
    pub field: &'static str,
    /// An upper bound of the largest single allocation (one flat table, or a growable
    /// array at twice what it uses), and the setting that sizes it.
    pub largest: u64,
    pub largest_field: &'static str,
}

/// An upper bound of the bytes a simulation of `cfg` allocates, and the setting that
/// contributes most (for the message when it is too much); `None` on overflow.
pub fn estimate(cfg: &SimConfig) -> Option<(u64, &'static str)> {
    estimate_tables(cfg).map(|e| (e.total, e.field))
}

/// [`estimate`] with the largest single allocation.
pub fn estimate_tables(cfg: &SimConfig) -> Option<Estimate> {
    let (routers, ports, terminals) = cfg.topology.size()?;
    let r = &cfg.router;
    let (vcs, depth) = (r.vcs as u64, r.depth_per_vc() as u64);
    let outq_cap = r.output_queue.unwrap_or(2 * r.speedup) as u64;
    let size = |n: usize| n as u64;
    // Per port: the network's port record and the engine's per-port tables (`Ports`, as
    // declared), plus per-channel statistics and routing tables, counted generously at 64
    // bytes.
    let per_port = size(size_of::<Port>() + Ports::BYTES_PER_UNIT) + 64;
    let tables = ports.checked_mul(per_port)?;
    // The flits of every input VC are one table.
    let flit_table = ports.checked_mul(vcs)?.checked_mul(depth)?.checked_mul(size(size_of::<Slot>()))?;
    let buffers = ports
        .checked_mul(vcs)?
        .checked_mul(depth.checked_mul(size(size_of::<Slot>()))?.checked_add(size(InputBuffers::BYTES_PER_UNIT))?)?;
    let queues = ports.checked_mul(outq_cap)?.checked_mul(size(size_of::<OutEntry>()))?;
    // Live packets: in buffers (whole packets: virtual cut-through) and output queues, in
    // flight, and in the source queues — each holds at most its cap, and no more than the
    // terminal can generate in the whole run. A packet costs its record, a free-list entry
    // and a source queue slot; growable arrays may hold twice what they use.
    let m = &cfg.measurement;
    let cycles = m.warmup.checked_add(m.measure)?.checked_add(m.drain_limit)?;
    let t = &cfg.traffic;
    let generated = match t.injection {
        InjectionMode::Batch => t.batch_size as u64,
        InjectionMode::Bernoulli => ((t.load * cycles as f64 / t.packet_size as f64).ceil() as u64).saturating_add(1),
    };
    let per_terminal = generated.min(t.source_queue_cap as u64).checked_add(1)?;
    let per_packet = 2 * size(size_of::<Packet>() + 4 + 4);
    let buffered = ports.checked_mul(vcs.checked_mul(depth.checked_div(t.packet_size as u64)?)?.checked_add(1)?)?;
    let buffers = buffers.checked_add(buffered.checked_mul(per_packet)?)?;
    let queues = queues.checked_add(ports.checked_mul(outq_cap)?.checked_mul(per_packet)?)?;
    let packet_bytes = terminals.checked_mul(per_terminal)?.checked_mul(per_packet)?;
    // The timing wheels: a channel starts at most one packet (and returns one credit) per
    // `packet_size` cycles, so at most `latency / packet_size + 1` of each are in flight on
    // it; the events may sit in growable arrays of twice that, plus a slot header per cycle
    // of the wheel. Then per router (notes, bitsets, load) and per terminal, and a fixed
    // part for the allocator's scratch, statistics' histograms and the trace.
    let latency = r.terminal_latency.max(r.local_latency).max(r.global_latency) as u64;
    let in_flight = ports.checked_mul(latency.checked_div(t.packet_size as u64)?.checked_add(1)?)?;
    let slots = 2 * (latency + t.packet_size as u64 + 2);
    let wheels = in_flight
        .checked_mul(2 * size(size_of::<Arrival>() + size_of::<CreditReturn>()))?
        .checked_add(slots.checked_mul(2 * 24)?)?;
    let small = routers.checked_mul(256)?.checked_add(terminals.checked_mul(64)?)?.checked_add(16 << 20)?;
    let total = tables
        .checked_add(buffers)?
        .checked_add(queues)?
        .checked_add(packet_bytes)?
        .checked_add(wheels)?
        .checked_add(small)?;
    let contributions = [
        (buffers, if r.buffer_per_port.is_some() { "router.buffer_per_port" } else { "router.buffer_depth" }),
        (queues, "router.output_queue"),
        (packet_bytes, "traffic.source_queue_cap"),
        (tables + small, "topology"),
    ];
    let field = contributions.iter().max_by_key(|(b, _)| *b).map(|(_, f)| *f).unwrap_or("topology");
    // Single allocations: the flit table; the packet store, one growable array of every
    // live packet (counted in `packet_bytes` at twice its size, as it may grow); the
    // output-queue ring, one table.
    let out_table = ports.checked_mul(outq_cap)?.checked_mul(size(size_of::<OutEntry>()))?;
    let tables = [
        (flit_table, contributions[0].1),
        (packet_bytes.checked_add(buffered.checked_mul(per_packet)?)?, "traffic.source_queue_cap"),
        (out_table, "router.output_queue"),
    ];
    let (largest, largest_field) = tables.into_iter().max_by_key(|(b, _)| *b).expect("three tables");
    Some(Estimate { total, field, largest, largest_field })
}

/// The setting to name when `cfg`'s estimate `e` exceeds `limit` bytes: the one that
/// contributes most, unless the network is too large even at the least of every per-port
/// and per-terminal setting (one flit per VC, one packet per output queue and per source
/// queue). Then none of those stands in the way, and the network itself is named.
pub fn over_limit_field(cfg: &SimConfig, limit: u64, e: &Estimate) -> &'static str {
    let mut least = cfg.clone();
    least.traffic.source_queue_cap = 1;
    (least.router.buffer_depth, least.router.buffer_per_port, least.router.output_queue) = (1, None, Some(1));
    match estimate_tables(&least) {
        Some(l) if l.total <= limit => e.field,
        _ => "topology",
    }
}

/// Refuses a configuration whose [`estimate`] exceeds `limit` bytes, or one of whose tables
/// would exceed [`MAX_ALLOCATION`], naming the setting that contributes most; checked
/// before anything is allocated.
pub fn check(cfg: &SimConfig, limit: u64) -> Result<(), ConfigErrors> {
    let gib = |b: u64| b as f64 / (1u64 << 30) as f64;
    match estimate_tables(cfg) {
        None => Err(ConfigErrors::one("topology", "the network's size overflows 64 bits")),
        Some(e) if e.total > limit => Err(ConfigErrors::one(over_limit_field(cfg, limit, &e), format!("the simulation would take up to {:.1} GiB, over the limit of {:.1} GiB: use a smaller network, fewer VCs, shallower queues, a smaller source queue cap or a shorter run", gib(e.total), gib(limit)))),
        Some(e) if e.largest > MAX_ALLOCATION => Err(ConfigErrors::one(e.largest_field, format!("one of the simulation's tables would take up to {:.1} GiB, more than one allocation can hold here ({:.1} GiB): use a smaller network, fewer VCs, shallower queues or a smaller source queue cap", gib(e.largest), gib(MAX_ALLOCATION)))),
        Some(_) => Ok(()),
    }
}
