//! The engine's state, grouped by concern: each group is one struct of flat tables (see
//! the index invariants on [`super::Simulation`]), so the step loop's stages borrow the groups
//! they touch separately (`let Simulation { ports: Ports { .. }, .. } = *self`).

use super::table::Table;
use super::{router, trace, Arrival, Channel, CreditReturn, DeadlockReport, InputVc, OutEntry, RouterDecisions, Slot};
use crate::config::SlicePolicy;
use crate::routing::RouteNote;
use std::collections::VecDeque;

/// Router parameters resolved from the config once (read in every stage).
#[derive(Clone, Copy, Debug)]
pub(super) struct Params {
    pub(super) vcs: u32,
    pub(super) depth: u32,
    pub(super) pipeline_delay: u64,
    pub(super) speedup: u32,
    /// Allocation rounds per unit of speedup: `islip_iterations` for iSLIP (which moves
    /// its pointers only in the first of them), else 1.
    pub(super) iterations: u32,
    pub(super) sequential: bool,
    pub(super) outq_cap: u32,
    pub(super) packet_size: u16,
    /// Cycles per flit on terminal channels.
    pub(super) terminal_period: u64,
}

/// Per port id: wiring, output channels and output queues.
#[derive(Clone)]
pub(super) struct Ports {
    pub(super) port_router: Table<u32>,
    pub(super) downstream: Table<u32>,
    pub(super) latency: Table<u32>,
    /// Upstream output port id of each input port (`NO_PORT` for terminal inputs).
    pub(super) upstream: Table<u32>,
    /// Queue estimate of each output port: flits downstream (depth − credits) plus
    /// committed flits, summed over its VCs; what routing reads as `port_queue`.
    pub(super) port_queues: Table<u32>,
    pub(super) channels: Table<Channel>,
    pub(super) outq: Table<OutEntry>,
    pub(super) outq_head: Table<u16>,
    pub(super) outq_len: Table<u16>,
    pub(super) in_rr: Table<u16>,
    pub(super) out_rr: Table<u16>,
    /// What an arrival into the port updates: its router (whose load grows) and the
    /// position of its VC 0 in the input VC bitsets (`nonempty` and `unrouted` have the
    /// same layout, so the arrival finds its bits by one addition), in one record.
    pub(super) arrival_port: Table<(u32, u32)>,
}

/// Per VC index: the input buffers and their flow control. Buffers are rings of `depth`
/// slots holding packet ids and the cycle each arrived; the head's slot is stale (its
/// `InputVc` record holds it).
#[derive(Clone)]
pub(super) struct InputBuffers {
    pub(super) buf: Table<Slot>,
    pub(super) credits: Table<u16>,
    pub(super) committed: Table<u16>,
    /// Each input VC's buffer position and head packet.
    pub(super) inputs: Table<InputVc>,
    /// Per router, over its input VCs: non-empty, and head not yet routed.
    pub(super) nonempty: router::RouterBits,
    pub(super) unrouted: router::RouterBits,
    /// Router-local input VC index → (local port, VC).
    pub(super) local_vc: Table<(u16, u16)>,
}

/// Per router.
#[derive(Clone)]
pub(super) struct Routers {
    /// Its first port id (the network's port offsets, kept here for the hot loop).
    pub(super) first_port: Table<u32>,
    /// Packets inside it (input VCs and output queues): idle routers are skipped.
    pub(super) load: Table<u32>,
    /// Where its next routing pass starts among its input VCs (round robin).
    pub(super) rc_start: Table<u32>,
    /// Over its ports: output queue non-empty.
    pub(super) queued_outputs: router::RouterBits,
}

/// Per terminal: its injection port id, source queue, channel, batch budget, and the
/// router that delivers to it (its packets' destination router).
#[derive(Clone)]
pub(super) struct Terminals {
    pub(super) inject_port: Table<u32>,
    pub(super) source: Table<VecDeque<u32>>,
    pub(super) inject_free_at: Table<u64>,
    pub(super) batch_left: Vec<u32>,
    pub(super) dest_router: Table<u32>,
    /// Channel slicing (dragonfly §3.2): terminal `s·nodes + n` is node `n`'s channel to
    /// slice `s`; a node puts each packet on a slice by `policy`, starting its search at
    /// `next_slice[n]`. One slice: every terminal is a node.
    pub(super) slices: u32,
    pub(super) nodes: u32,
    pub(super) policy: SlicePolicy,
    pub(super) next_slice: Vec<u32>,
}

/// Timing wheels: packet arrivals and credit returns, by the cycle they are due.
#[derive(Clone)]
pub(super) struct Wheels {
    pub(super) arrivals: Table<Vec<Arrival>>,
    pub(super) credit_wheel: Table<Vec<CreditReturn>>,
    pub(super) wheel_mask: u64,
}

/// Deadlock detection: packets in the network and the last cycle one moved.
#[derive(Clone)]
pub(super) struct Watchdog {
    pub(super) in_network: u64,
    pub(super) last_progress: u64,
    /// Cycles without progress after which the watchdog reports a deadlock: the configured
    /// `measurement.watchdog` plus the longest a packet can legitimately be out of sight
    /// (crossing the slowest channel, serialised on a slow terminal channel, in the router
    /// pipeline), so that long channels are never taken for a deadlock.
    pub(super) watchdog_limit: u64,
    pub(super) deadlock: Option<DeadlockReport>,
}

/// What the page observes of routing: the last adaptive decision and the decision counts
/// of each router, and the packet trace (idle by default).
#[derive(Clone)]
pub(super) struct Observers {
    pub(super) notes: Vec<RouteNote>,
    pub(super) decisions: Vec<RouterDecisions>,
    pub(super) tracer: trace::Tracer,
}
