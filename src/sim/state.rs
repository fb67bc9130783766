//! The engine's state, grouped by concern: each group is one struct of flat tables (see
//! the index invariants on [`super::Simulation`]), so the step loop's stages borrow the groups
//! they touch separately (`let Simulation { ports: Ports { .. }, .. } = *self`).

use super::table::Table;
use super::{
    router, trace, Arrival, Channel, CreditReturn, DeadlockReport, InputVc, OutEntry, RouterDecisions, Slot, Upstream,
};
use crate::config::SlicePolicy;
use crate::routing::RouteNote;
use std::collections::VecDeque;

/// Router parameters resolved from the config once (read in every stage).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
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

impl Params {
    /// The parameters as the step loop instantiated for shape `S` reads them: those the
    /// shape fixes are constants, so the compiler folds them into the hot loops (fewer
    /// values live across them; measured in docs/performance.md, "The router's shape").
    #[inline(always)]
    pub(super) fn shaped<S: Shape>(&self) -> Params {
        let mut p = *self;
        if let Some(vcs) = S::VCS {
            p.vcs = vcs;
        }
        if S::SINGLE_FLIT {
            p.packet_size = 1;
        }
        if S::DEFAULT_TIMING {
            (p.speedup, p.iterations, p.pipeline_delay, p.terminal_period) = (2, 1, 1, 1);
        }
        p
    }

    /// Whether shape `S` fixes nothing these parameters do not already have.
    fn fit<S: Shape>(&self) -> bool {
        *self == self.shaped::<S>()
    }
}

/// A router shape: the router parameters an instantiation of the step loop fixes at
/// compile time. The simulation picks the instantiation for its parameters once, when it
/// is built ([`step_for`]); a configuration no shape fits runs [`Configured`], which reads
/// every parameter from [`Params`]. Results do not depend on the instantiation.
pub(super) trait Shape {
    /// VCs per port, if fixed.
    const VCS: Option<u32>;
    /// Single-flit packets (the papers' experiments and the default).
    const SINGLE_FLIT: bool;
    /// The default router's timing (`RouterConfig::default`, which the benchmarks and the
    /// dragonfly figure presets keep): internal speedup 2 with separable allocation (one
    /// round per unit of speedup), a one-cycle pipeline and terminal channels of one flit
    /// per cycle. Buffer depths and output queues are never fixed (they vary between
    /// presets; fixing the output queue measured no gain).
    const DEFAULT_TIMING: bool;
}

/// Every parameter as configured.
pub(super) struct Configured;

impl Shape for Configured {
    const VCS: Option<u32> = None;
    const SINGLE_FLIT: bool = false;
    const DEFAULT_TIMING: bool = false;
}

/// Single-flit packets with `V` VCs per port (`V` = 0: as configured), with the default
/// router's timing or not.
pub(super) struct SingleFlit<const V: u32, const DEFAULT_TIMING: bool>;

impl<const V: u32, const T: bool> Shape for SingleFlit<V, T> {
    const VCS: Option<u32> = if V == 0 { None } else { Some(V) };
    const SINGLE_FLIT: bool = true;
    const DEFAULT_TIMING: bool = T;
}

/// The step loop instantiated for the shape of `params`: single-flit packets with 1, 2, 3,
/// 4 or 6 VCs (the counts the benchmarks, the figure presets and the default use) or any
/// other count, each with the default router's timing or any; else [`Configured`].
pub(super) fn step_for(params: &Params) -> fn(&mut super::Simulation) {
    if !params.fit::<SingleFlit<0, false>>() {
        super::Simulation::step_as::<Configured>
    } else if params.fit::<SingleFlit<0, true>>() {
        single_flit::<true>(params.vcs)
    } else {
        single_flit::<false>(params.vcs)
    }
}

/// [`step_for`] for single-flit packets and `vcs` VCs.
fn single_flit<const T: bool>(vcs: u32) -> fn(&mut super::Simulation) {
    use super::Simulation;
    match vcs {
        1 => Simulation::step_as::<SingleFlit<1, T>>,
        2 => Simulation::step_as::<SingleFlit<2, T>>,
        3 => Simulation::step_as::<SingleFlit<3, T>>,
        4 => Simulation::step_as::<SingleFlit<4, T>>,
        6 => Simulation::step_as::<SingleFlit<6, T>>,
        _ => Simulation::step_as::<SingleFlit<0, T>>,
    }
}

/// Declares a group of the engine's flat tables that have one entry per unit (port id,
/// VC index): the struct, with any further fields after `and`, and from the one list of
/// its per-unit tables what the rest of the engine derives — their lengths, which
/// [`super::Simulation::check_tables`] checks; the bytes they hold
/// ([`super::Simulation::memory_bytes`]); and their bytes per unit, which the memory
/// estimate (`memory.rs`) counts before anything is allocated. A table added to a group
/// is counted everywhere.
macro_rules! table_group {
    (
        $(#[$meta:meta])* $name:ident {
            $($(#[$fmeta:meta])* $field:ident: $t:ty,)*
        } and {
            $($(#[$emeta:meta])* $extra:ident: $et:ty,)*
        }
    ) => {
        $(#[$meta])*
        #[derive(Clone)]
        pub(super) struct $name {
            $($(#[$fmeta])* pub(super) $field: Table<$t>,)*
            $($(#[$emeta])* pub(super) $extra: $et,)*
        }

        impl $name {
            /// Bytes per unit of the per-unit tables.
            pub(super) const BYTES_PER_UNIT: usize = 0 $(+ std::mem::size_of::<$t>())*;
            /// Each per-unit table's name and length.
            pub(super) fn lengths(&self) -> Vec<(&'static str, usize)> {
                vec![$((stringify!($field), self.$field.len())),*]
            }
            /// Bytes held by the per-unit tables.
            pub(super) fn table_bytes(&self) -> usize {
                0 $(+ std::mem::size_of_val::<[$t]>(&self.$field))*
            }
        }
    };
}

table_group! {
    /// Per port id: wiring, output channels and output queues.
    Ports {
        port_router: u32,
        downstream: u32,
        latency: u32,
        /// Upstream output port id of each input port (`NO_PORT` for terminal inputs), with
        /// the port's latency.
        upstream: Upstream,
        /// Queue estimate of each output port: flits downstream (depth − credits) plus
        /// committed flits, summed over its VCs; what routing reads as `port_queue`.
        port_queues: u32,
        channels: Channel,
        outq_head: u16,
        outq_len: u16,
        in_rr: u16,
        out_rr: u16,
        /// What an arrival into the port updates: its router (whose load grows) and the
        /// position of its VC 0 in the input VC bitsets (`nonempty` and `unrouted` have the
        /// same layout, so the arrival finds its bits by one addition), in one record.
        arrival_port: (u32, u32),
    } and {
        /// The output queues: `outq_cap` entries per port id, rings from `outq_head`.
        outq: Table<OutEntry>,
    }
}

table_group! {
    /// Per VC index: the input buffers and their flow control. Buffers are rings of `depth`
    /// slots holding packet ids and the cycle each arrived; the head's slot is stale (its
    /// `InputVc` record holds it).
    InputBuffers {
        credits: u16,
        committed: u16,
        /// Each input VC's buffer position and head packet.
        inputs: InputVc,
    } and {
        /// `depth` slots per VC index.
        buf: Table<Slot>,
        /// Per router, over its input VCs: non-empty, and head not yet routed.
        nonempty: router::RouterBits,
        unrouted: router::RouterBits,
        /// Router-local input VC index → (local port, VC).
        local_vc: Table<(u16, u16)>,
    }
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

#[cfg(test)]
mod tests {
    use super::{Configured, InputBuffers, Ports, SingleFlit};
    use crate::config::{SimConfig, SwitchAllocator, TopologyConfig};
    use crate::sim::Simulation;

    /// The step loop gives the same results in every instantiation: a simulation run by
    /// its shape's instantiation and by [`Configured`] (every parameter read from `Params`)
    /// agree on every counter and on the flits of every channel, for each VC count with an
    /// instantiation of its own and some without (5, 8), with the default router's timing and
    /// others (the FB figures' speedup 8, the HyperX figures' 4-cycle pipeline with
    /// two-iteration iSLIP), on adaptive routing that reads the queues and on UGAL-L_CR,
    /// whose credits are held back.
    #[test]
    fn every_shape_gives_the_results_of_the_configured_loop() {
        let fb = TopologyConfig::flattened_butterfly(8, 2);
        let df = TopologyConfig::dragonfly(2, 4, 2, 9);
        let timings: [fn(&mut SimConfig); 3] = [
            |_| {},
            |c| c.router.speedup = 8,
            |c| (c.router.pipeline_delay, c.router.switch_allocator) = (4, SwitchAllocator::Islip),
        ];
        for (topology, algorithm, vcs) in [(fb, "min_ad", &[1, 2, 3, 4, 5, 6][..]), (df, "ugal_l_cr", &[3, 4, 5, 6, 8])]
        {
            for (&v, timing) in vcs.iter().flat_map(|v| timings.iter().map(move |t| (v, t))) {
                let mut cfg = SimConfig::default();
                (cfg.topology, cfg.routing.algorithm, cfg.router.vcs) = (topology.clone(), algorithm.into(), v);
                cfg.traffic.load = 0.8;
                timing(&mut cfg);
                let mut shaped = Simulation::new(&cfg).unwrap();
                assert!(shaped.params.fit::<SingleFlit<0, false>>());
                let mut configured = shaped.clone();
                configured.step_shaped = Simulation::step_as::<Configured>;
                for _ in 0..500 {
                    shaped.step();
                    configured.step();
                }
                let case = format!("{algorithm} with {v} VCs, {:?}", cfg.router);
                assert!(shaped.stats().delivered > 1000, "{case}");
                assert_eq!(format!("{:?}", shaped.stats()), format!("{:?}", configured.stats()), "{case}");
                assert_eq!(shaped.sent_flits(), configured.sent_flits(), "{case}");
            }
        }
    }

    /// A shape fits a configuration only where it fixes what the configuration has: the
    /// default router fits the default timing, any other timing only the single-flit
    /// shapes, multi-flit packets none; the output queue is never fixed.
    #[test]
    fn shapes_fit_only_the_parameters_they_fix() {
        let params = |change: fn(&mut SimConfig)| {
            let mut cfg = SimConfig::default();
            change(&mut cfg);
            Simulation::new(&cfg).unwrap().params
        };
        for p in [params(|_| {}), params(|c| c.router.output_queue = Some(64))] {
            assert!(
                p.fit::<SingleFlit<0, true>>() && p.fit::<SingleFlit<4, true>>() && !p.fit::<SingleFlit<2, true>>()
            );
        }
        let timings: [fn(&mut SimConfig); 4] = [
            |c| c.router.speedup = 1,
            |c| c.router.pipeline_delay = 2,
            |c| c.router.terminal_period = 2,
            |c| (c.router.switch_allocator, c.router.islip_iterations) = (SwitchAllocator::Islip, 2),
        ];
        for change in timings {
            let p = params(change);
            assert!(p.fit::<SingleFlit<0, false>>() && !p.fit::<SingleFlit<0, true>>());
        }
        assert!(!params(|c| c.traffic.packet_size = 2).fit::<SingleFlit<0, false>>());
    }

    /// The declared groups are what a built simulation holds: every per-unit table has one
    /// entry per unit, and the bytes per unit the memory estimate counts are what the
    /// tables take.
    #[test]
    fn table_groups_describe_the_built_tables() {
        let sim = Simulation::new(&SimConfig::default()).unwrap();
        let ports = sim.network().total_ports();
        let vcs = sim.vcs() as usize;
        assert_eq!(sim.ports.lengths().len(), 11);
        assert!(sim.ports.lengths().iter().all(|&(_, n)| n == ports));
        assert!(sim.buffers.lengths().iter().all(|&(_, n)| n == ports * vcs));
        assert_eq!(sim.ports.table_bytes(), ports * Ports::BYTES_PER_UNIT);
        assert_eq!(sim.buffers.table_bytes(), ports * vcs * InputBuffers::BYTES_PER_UNIT);
        assert!(sim.memory_bytes() >= sim.ports.table_bytes() + sim.buffers.table_bytes());
    }
}
