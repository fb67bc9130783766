//! The cycle-driven engine (docs/ARCHITECTURE.md, How a run flows).
//!
//! After construction a simulation is a set of flat arrays indexed by integer ids:
//! - *port id* `p` (see [`Network::port_id`]): per-port state, both directions;
//! - *VC index* `p·V + v`: input buffers and credits of input VC `v` of port `p`, and the
//!   commitments of output VC `v` of port `p`.
//!
//! `credits[iv]` is the sender's view of the free slots of input VC `iv`, so the credits
//! of output VC `v` of port `p` are `credits[downstream(p)·V + v]`, and a credit "arrives
//! upstream" by incrementing that same entry after the channel latency.
//!
//! One [`Simulation::step`] is one cycle, in this order:
//! 1. packets and credits whose channel latency has elapsed arrive (timing wheels);
//! 2. terminals generate packets into their source queues and inject;
//! 3. every router with work computes routes for its unrouted head packets (greedy or
//!    sequential), allocates its switch (separable input-first round-robin, or iSLIP)
//!    with internal speedup, and sends one packet per free output channel.
//!
//! A packet sent at cycle `t` on a channel of latency `L` is usable downstream at `t + L`
//! (never the same cycle), so routers only interact through state that is at least one
//! cycle old and the result does not depend on the order routers are visited — except
//! UGAL-G, which reads other routers' queues by design. Idle routers are skipped and
//! nothing in `step` allocates once the queues reached their steady-state capacity.

mod allocator;
mod check;
mod credit_rtt;
pub mod history;
pub mod memory;
mod router;
mod state;
mod table;
mod terminal;
mod trace;
mod view;

pub use crate::packet::{Packet, PacketStore};
pub use check::{DeadlockReport, SimError};
pub use trace::{Trace, TraceEvent};

use crate::config::{AllocatorMode, ConfigErrors, InjectionMode, SimConfig, SwitchAllocator};
use crate::rng::Streams;
use crate::routing::{self, QueueView, RouteNote, Routing};
use crate::stats::Stats;
use crate::topology::{FaultSet, LinkClass, Network, Topology};
use crate::traffic::Pattern;
use state::{InputBuffers, Observers, Params, Ports, Routers, Shape, Terminals, Watchdog, Wheels};
use std::collections::VecDeque;
use table::Table;

/// Marker for "no port" in port-indexed tables.
const NO_PORT: u32 = u32::MAX;

/// What a failed link adds to its output's queue estimate (declared with the routing that
/// reads it, [`crate::routing::FAILED_QUEUE`]).
pub(crate) use crate::routing::FAILED_QUEUE;

/// One input VC: the position and fill of its buffer ring, and the packet at its head,
/// so the switch allocator reads one small record: its id, the route chosen for it (valid
/// once the router's `unrouted` bit is clear) and the first cycle it may cross the switch.
/// (16 bytes: four share a cache line.) The head's own slot in the ring is not kept up to
/// date: the record is the head (see [`Simulation::buffered`]).
#[derive(Clone, Copy, Debug, Default)]
#[repr(align(16))]
struct InputVc {
    /// Low 32 bits of the head's ready cycle (see [`InputVc::ready`]).
    ready_low: u32,
    pid: u32,
    out_port: u16,
    out_vc: u16,
    buf_head: u16,
    buf_len: u16,
}

impl InputVc {
    /// The head may cross the switch at cycle `now`: its ready cycle is not after `now`.
    /// Exact while heads are never more than 2^31 cycles from ready (a packet waits far
    /// less in one buffer: the deadlock watchdog trips long before).
    #[inline]
    fn ready(&self, now: u64) -> bool {
        (now as u32).wrapping_sub(self.ready_low) as i32 >= 0
    }

    /// The head's ready cycle, given the current cycle `now`.
    fn ready_at(&self, now: u64) -> u64 {
        let behind = (now as u32).wrapping_sub(self.ready_low) as i32 as i64;
        (now as i64 - behind) as u64
    }

    /// The head is `pid`, ready at cycle `at`.
    #[inline]
    fn set_head(&mut self, pid: u32, at: u64) {
        (self.pid, self.ready_low) = (pid, at as u32);
    }
}

/// The channel of an output port: busy until `free_at`, and the flits sent over it so far
/// (one record, as sending a packet updates both).
#[derive(Clone, Copy, Debug, Default)]
#[repr(align(16))]
struct Channel {
    free_at: u64,
    sent: u64,
}

/// One slot of an input buffer: a packet and the low 32 bits of the cycle it arrived
/// (8 bytes, so buffers stay small in cache; see [`Slot::arrived`]).
#[derive(Clone, Copy, Debug, Default)]
struct Slot {
    arrived_low: u32,
    pid: u32,
}

impl Slot {
    fn new(now: u64, pid: u32) -> Slot {
        Slot { arrived_low: now as u32, pid }
    }
    /// The arrival cycle, given the current cycle (a packet waits far less than 2^32
    /// cycles in one buffer: the deadlock watchdog trips long before).
    #[inline]
    fn arrived(&self, now: u64) -> u64 {
        crate::packet::past_cycle(now, self.arrived_low)
    }
}

/// A packet on its way over a channel into input VC `vc` of port id `port`.
#[derive(Clone, Copy, Debug)]
struct Arrival {
    pid: u32,
    port: u32,
    vc: u32,
}

/// Credits on their way back over a channel: `flits` of input VC `iv`, for the upstream
/// output port id `up` (`NO_PORT` when the upstream is a terminal).
#[derive(Clone, Copy, Debug)]
struct CreditReturn {
    iv: u32,
    up: u32,
    flits: u16,
    /// UGAL-L_CR's round-trip measurement (see `credit_rtt`), 0 without.
    round_trip: credit_rtt::RoundTrip,
}

/// Stands in for the routing algorithm while the routers' pass borrows it (see
/// [`Simulation::step`]); never asked to route.
#[derive(Clone)]
struct Unplugged;

impl Routing for Unplugged {
    fn vcs_required(&self) -> u32 {
        0
    }
    fn route(
        &self,
        _: &routing::RouteCtx,
        _: &mut Packet,
        _: &mut crate::rng::SimRng,
        _: &mut RouteNote,
    ) -> routing::Decision {
        unreachable!("the routing algorithm is in use by the routers' pass")
    }
}

/// Where the credits of an input port go back to: the upstream output port id (`NO_PORT`
/// for a terminal's), and the latency of the channel (the same as `Ports::latency`), which
/// crossing the switch reads together.
#[derive(Clone, Copy, Debug)]
struct Upstream {
    port: u32,
    latency: u32,
}

/// The routing decisions taken at one router, for the page's per-router counts: packets it
/// routed onto a router-to-router channel, and those among them it sent off the minimal
/// path (the routing set their `nonminimal` flag at this router: UGAL's choice of Valiant
/// at the source, DAL's first deroute, …).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct RouterDecisions {
    pub routed: u64,
    pub nonminimal: u64,
}

/// A packet in an output queue and the downstream VC it was allocated.
#[derive(Clone, Copy, Debug, Default)]
struct OutEntry {
    pid: u32,
    vc: u32,
}

/// A running simulation.
///
/// # Index invariants
///
/// The engine's hot loops index some tables without a bounds check (`table.rs`); each such
/// access cites the facts below that bound its index. `P` is the number of port ids, `V`
/// the VCs per port, `R` the largest router radix.
///
/// 1. `first_port` has an entry per router and a last one equal to `P`, and never
///    decreases, so router `r`'s ports are `first_port[r]..first_port[r + 1]`, fewer than
///    `R`; every router id used is below the number of routers.
/// 2. Per-port tables have `P` entries, per-VC tables `P · V`, per-terminal tables one per
///    terminal; `downstream`, `upstream` and `inject_port` hold port ids below `P` (or
///    `NO_PORT`), and `arrival_port` positions within the input bitsets.
/// 3. Every route the engine stores names a port of its router (below its radix) and a VC
///    below `V`: `route_inputs` checks each routing decision.
/// 4. The input bitsets of router `r` have bits set only below its radix · `V`, the output
///    bitset only below its radix (bits are set for arrivals into its VCs and for routes).
/// 5. The allocator's scratch tables, `pending` and `local_vc` have `R · V` (candidates)
///    or `R` entries.
/// 6. An input VC's ring position `buf_head` is below the buffer depth.
/// 7. The timing wheels have `wheel_mask + 1` slots.
///
/// [`Simulation::check_tables`] verifies 1, 2, 5 and 7 when the simulation is built.
///
/// The state is grouped by concern (`state.rs`): resolved parameters, per-port,
/// per-input-VC, per-router and per-terminal tables, the timing wheels, the watchdog and
/// what the page observes; each stage of the step loop borrows the groups it touches.
#[derive(Clone)]
pub struct Simulation {
    cfg: SimConfig,
    topo: Topology,
    routing: Box<dyn Routing>,
    pattern: Pattern,
    rng: Streams,
    now: u64,
    /// The failed links (HyperX §6): routing reads them through [`QueueView`]; a packet
    /// routed onto one is dropped as unroutable (`route_router`).
    faults: FaultSet,
    /// Input VCs whose head a routing pass found unroutable, dropped after the pass.
    unroutable: Vec<u32>,

    params: Params,
    ports: Ports,
    buffers: InputBuffers,
    routers: Routers,
    terminals: Terminals,
    wheels: Wheels,
    packets: PacketStore,
    stats: Stats,
    watchdog: Watchdog,
    observers: Observers,
    check_invariants: bool,
    /// UGAL-L_CR's credit round-trip registers and queues (`None` for other algorithms).
    cr: Option<credit_rtt::CreditRtt>,
    // Scratch of the allocators, reused every cycle: the switch allocator's, and the
    // commitments of a greedy routing pass (output port id, VC), applied after all
    // inputs decided.
    scratch: allocator::Scratch,
    pending: Table<(u32, u16)>,
    /// The step loop instantiated for the router's shape (`state::step_for`).
    step_shaped: fn(&mut Simulation),
}

impl Simulation {
    /// Builds a simulation; every configuration problem comes back with its field path.
    pub fn new(cfg: &SimConfig) -> Result<Simulation, ConfigErrors> {
        cfg.validate()?;
        memory::check(cfg, memory::MEMORY_LIMIT)?;
        let topo = Topology::build(&cfg.topology)?;
        let routing = routing::build(&cfg.routing, &topo, cfg.router.vcs)?;
        Self::assemble(cfg, topo, routing)
    }

    /// Builds a simulation with a routing algorithm supplied by the caller instead of the
    /// one `cfg.routing` names (research extensions, and the watchdog's negative control).
    pub fn with_routing(
        cfg: &SimConfig,
        make: impl FnOnce(&Topology) -> Box<dyn Routing>,
    ) -> Result<Simulation, ConfigErrors> {
        cfg.validate()?;
        memory::check(cfg, memory::MEMORY_LIMIT)?;
        let topo = Topology::build(&cfg.topology)?;
        let routing = make(&topo);
        if cfg.router.vcs < routing.vcs_required() {
            return Err(ConfigErrors::one(
                "router.vcs",
                format!("the routing needs {} VCs, got {}", routing.vcs_required(), cfg.router.vcs),
            ));
        }
        Self::assemble(cfg, topo, routing)
    }

    /// Checks that `cfg` builds, with every check [`Simulation::new`] makes (validation, the
    /// memory estimate, the topology, the routing algorithm, the traffic pattern, the
    /// failed links), without allocating the engine's tables: what the page's "would this
    /// build?" and a sweep's up-front validation need.
    pub fn check(cfg: &SimConfig) -> Result<(), ConfigErrors> {
        cfg.validate()?;
        memory::check(cfg, memory::MEMORY_LIMIT)?;
        let topo = Topology::build(&cfg.topology)?;
        let mut routing = routing::build(&cfg.routing, &topo, cfg.router.vcs)?;
        Self::traffic_and_faults(cfg, &topo, &mut routing).map(drop)
    }

    /// The traffic pattern and the failed links of `cfg` on `topo`, the latter told to
    /// `routing`: the last checks before the engine is built.
    fn traffic_and_faults(
        cfg: &SimConfig,
        topo: &Topology,
        routing: &mut Box<dyn Routing>,
    ) -> Result<(Pattern, FaultSet), ConfigErrors> {
        let pattern = Pattern::build(&cfg.traffic, topo, cfg.seed)?;
        let net = topo.network();
        let faults = FaultSet::from_config_without(&cfg.faults, net, cfg.seed, &topo.absent_ports())?;
        if !faults.is_empty() {
            routing.set_faults(net, faults.flags()).map_err(|e| ConfigErrors::one("faults", e))?;
        }
        Ok((pattern, faults))
    }

    fn assemble(cfg: &SimConfig, topo: Topology, mut routing: Box<dyn Routing>) -> Result<Simulation, ConfigErrors> {
        let r = &cfg.router;
        let (pattern, faults) = Self::traffic_and_faults(cfg, &topo, &mut routing)?;
        let net = topo.network();
        let (vcs, depth) = (r.vcs, r.depth_per_vc());
        let ports = net.total_ports();
        let nvc = ports * vcs as usize;

        let mut downstream = vec![NO_PORT; ports];
        let mut latency = vec![0u32; ports];
        for id in 0..ports {
            let port = net.port_by_id(id);
            latency[id] = match port.class {
                LinkClass::Terminal => r.terminal_latency,
                LinkClass::Local => r.local_latency,
                LinkClass::Global => r.global_latency,
            };
            if !port.is_terminal() {
                downstream[id] = net.port_id(port.peer_router, port.peer_port) as u32;
            }
        }
        let mut upstream: Vec<Upstream> = latency.iter().map(|&latency| Upstream { port: NO_PORT, latency }).collect();
        for (id, &down) in downstream.iter().enumerate() {
            if down != NO_PORT {
                upstream[down as usize].port = id as u32;
            }
        }
        let max_latency = latency.iter().copied().max().unwrap_or(1) as u64;
        let wheel = (max_latency + cfg.traffic.packet_size as u64 + 2).next_power_of_two().max(16) as usize;
        let cr = routing
            .credit_round_trip()
            .map(|p| credit_rtt::CreditRtt::new(net, p, &latency, r.pipeline_delay, cfg.traffic.packet_size, vcs));
        let sequential = match cfg.routing.allocator {
            AllocatorMode::Auto => routing.default_allocator() == AllocatorMode::Sequential,
            mode => mode == AllocatorMode::Sequential,
        };
        let islip = r.switch_allocator == SwitchAllocator::Islip;
        let outq_cap = r.output_queue.unwrap_or(2 * r.speedup);
        let terminals = net.terminals();
        let routers = net.routers();
        let batch = if cfg.traffic.injection == InjectionMode::Batch { cfg.traffic.batch_size } else { 0 };
        let input_bits = router::RouterBits::new(routers, net.max_radix() as usize * vcs as usize);
        let arrival_port = (0..ports)
            .map(|id| net.router_of_port(id))
            .enumerate()
            .map(|(id, r)| (r, input_bits.position(r, (id - net.port_offset(r)) * vcs as usize) as u32))
            .collect::<Vec<_>>()
            .into();
        let params = Params {
            vcs,
            depth,
            pipeline_delay: r.pipeline_delay as u64,
            speedup: r.speedup,
            iterations: if islip { r.islip_iterations } else { 1 },
            sequential,
            outq_cap,
            packet_size: cfg.traffic.packet_size as u16,
            terminal_period: r.terminal_period as u64,
        };
        let sim = Simulation {
            step_shaped: state::step_for(&params),
            rng: Streams::new(cfg.seed),
            now: 0,
            unroutable: Vec::with_capacity(net.max_radix() as usize * vcs as usize),
            params,
            ports: Ports {
                port_router: (0..ports).map(|id| net.router_of_port(id)).collect(),
                downstream: downstream.into(),
                upstream: upstream.into(),
                port_queues: (0..ports).map(|id| if faults.failed(id) { FAILED_QUEUE } else { 0 }).collect(),
                latency: latency.into(),
                channels: vec![Channel::default(); ports].into(),
                outq: vec![OutEntry::default(); ports * outq_cap as usize].into(),
                outq_head: vec![0; ports].into(),
                outq_len: vec![0; ports].into(),
                in_rr: vec![0; ports].into(),
                out_rr: vec![0; ports].into(),
                arrival_port,
            },
            buffers: InputBuffers {
                buf: vec![Slot::default(); nvc * depth as usize].into(),
                credits: vec![depth as u16; nvc].into(),
                committed: vec![0; nvc].into(),
                inputs: vec![InputVc::default(); nvc].into(),
                nonempty: input_bits.clone(),
                unrouted: input_bits,
                local_vc: (0..net.max_radix() as usize * vcs as usize)
                    .map(|l| ((l / vcs as usize) as u16, (l % vcs as usize) as u16))
                    .collect(),
            },
            routers: Routers {
                first_port: (0..=routers)
                    .map(|r| if r < routers { net.port_offset(r as u32) as u32 } else { ports as u32 })
                    .collect(),
                load: vec![0; routers].into(),
                rc_start: vec![0; routers].into(),
                queued_outputs: router::RouterBits::new(routers, net.max_radix() as usize),
            },
            terminals: Terminals {
                inject_port: (0..terminals as u32)
                    .map(|t| net.inject_port(t))
                    .map(|(r, p)| net.port_id(r, p) as u32)
                    .collect(),
                source: vec![VecDeque::new(); terminals].into(),
                inject_free_at: vec![0; terminals].into(),
                batch_left: vec![batch; terminals],
                dest_router: (0..terminals as u32).map(|t| net.terminal_router(t)).collect(),
                slices: net.slices(),
                nodes: net.nodes() as u32,
                policy: topo.slice_policy(),
                next_slice: vec![0; if net.slices() > 1 { net.nodes() } else { 0 }],
            },
            wheels: Wheels {
                arrivals: vec![Vec::new(); wheel].into(),
                credit_wheel: vec![Vec::new(); wheel].into(),
                wheel_mask: wheel as u64 - 1,
            },
            packets: PacketStore::default(),
            stats: Stats::default(),
            watchdog: Watchdog {
                in_network: 0,
                last_progress: 0,
                watchdog_limit: cfg.measurement.watchdog
                    + max_latency
                    + cfg.traffic.packet_size as u64 * r.terminal_period as u64
                    + r.pipeline_delay as u64,
                deadlock: None,
            },
            observers: Observers {
                notes: vec![RouteNote::default(); routers],
                decisions: vec![RouterDecisions::default(); routers],
                tracer: trace::Tracer::default(),
            },
            check_invariants: cfg!(debug_assertions),
            cr,
            scratch: allocator::Scratch::new(net.max_radix() as usize, vcs as usize),
            pending: vec![(0, 0); net.max_radix() as usize * vcs as usize].into(),
            cfg: cfg.clone(),
            faults,
            topo,
            routing,
            pattern,
        };
        sim.check_tables();
        Ok(sim)
    }

    /// Checks the index invariants 1, 2, 5 and 7 (see [`Simulation`]) once, so that the
    /// unchecked accesses that rely on them are sound whatever topology was built.
    fn check_tables(&self) {
        let (routers, ports, vcs) = (self.routers.load.len(), self.ports.port_router.len(), self.params.vcs as usize);
        let fp = &self.routers.first_port;
        assert!(
            fp.len() == routers + 1 && fp[routers] as usize == ports && fp.windows(2).all(|w| w[0] <= w[1]),
            "port offsets do not cover the ports"
        );
        let max_radix = fp.windows(2).map(|w| (w[1] - w[0]) as usize).max().unwrap_or(0);
        for (name, len) in self.ports.lengths() {
            assert!(len == ports, "the per-port table {name} has {len} entries for {ports} ports");
        }
        for (name, len) in self.buffers.lengths() {
            assert!(len == ports * vcs, "the per-VC table {name} has {len} entries for {} VCs", ports * vcs);
        }
        assert!(
            self.buffers.buf.len() == ports * vcs * self.params.depth as usize
                && self.ports.outq.len() == ports * self.params.outq_cap as usize
        );
        let port_ok = |&p: &u32| p == NO_PORT || (p as usize) < ports;
        assert!(
            self.ports.downstream.iter().all(port_ok)
                && self.ports.upstream.iter().all(|u| port_ok(&u.port))
                && self.terminals.inject_port.iter().all(|&p| (p as usize) < ports),
            "a port id out of range"
        );
        let terminals = self.terminals.source.len();
        assert!(
            self.terminals.inject_port.len() == terminals
                && self.terminals.inject_free_at.len() == terminals
                && self.terminals.dest_router.len() == terminals
        );
        assert!(
            self.buffers.local_vc.len() >= max_radix * vcs
                && self.pending.len() >= max_radix * vcs
                && self.scratch.fits(max_radix, vcs)
        );
        assert!(
            self.buffers.local_vc.iter().all(|&(port, vc)| (port as usize) < max_radix && (vc as usize) < vcs),
            "a local VC out of range"
        );
        assert!(
            self.buffers.nonempty.covers(routers, max_radix * vcs)
                && self.buffers.unrouted.covers(routers, max_radix * vcs)
                && self.routers.queued_outputs.covers(routers, max_radix)
        );
        assert!(
            self.buffers.nonempty.words_per_router == self.buffers.unrouted.words_per_router,
            "the input bitsets differ in layout"
        );
        let bits = self.buffers.nonempty.words_per_router * 64;
        assert!(
            self.ports
                .arrival_port
                .iter()
                .all(|&(r, vc0)| (r as usize) < routers && (vc0 as usize) + vcs <= routers * bits),
            "an arrival record out of range"
        );
        assert!(
            self.wheels.arrivals.len() as u64 == self.wheels.wheel_mask + 1
                && self.wheels.credit_wheel.len() as u64 == self.wheels.wheel_mask + 1
        );
    }

    /// Advances one cycle. After a deadlock has been detected the simulation stays put.
    pub fn step(&mut self) {
        (self.step_shaped)(self)
    }

    /// [`Self::step`] instantiated for router shape `S` (see [`state::Shape`]).
    fn step_as<S: Shape>(&mut self) {
        if self.watchdog.deadlock.is_some() {
            return;
        }
        let now = self.now;
        self.deliver_arrivals::<S>(now);
        self.deliver_credits(now);
        self.generate_and_inject::<S>(now);
        // The routers' pass is instantiated for the routing algorithm (`RoutePass`): the
        // algorithm is moved out of the simulation while it runs (a zero-sized stand-in
        // takes its place, without allocating) and put back after.
        let routing = std::mem::replace(&mut self.routing, Box::new(Unplugged));
        for r in 0..self.routers.load.len() as u32 {
            // SAFETY: `r` < the table's length, which never changes.
            if unsafe { *self.routers.load.get_unchecked(r as usize) } > 0 {
                routing.route_router(self, r, now);
                self.allocate_switch::<S>(r, now);
                self.send_outputs::<S>(r, now);
            }
        }
        self.routing = routing;
        if self.observers.tracer.active {
            self.trace_step(now);
        }
        if self.check_invariants {
            if let Err(msg) = self.verify_invariants() {
                panic!("engine invariant broken at cycle {now}: {msg}");
            }
        }
        if self.watchdog.in_network > 0 && now - self.watchdog.last_progress > self.watchdog.watchdog_limit {
            self.watchdog.deadlock = Some(self.deadlock_report());
        }
        self.now += 1;
    }

    /// Puts one packet from terminal `src` to terminal `dst` into `src`'s source queue now
    /// (in addition to the configured traffic); returns its packet id.
    pub fn inject(&mut self, src: u32, dst: u32) -> Result<u32, crate::config::ConfigError> {
        let n = self.topo.network().terminals() as u32;
        if src >= n || dst >= n {
            return Err(crate::config::ConfigError::new(
                "inject",
                format!("terminals are 0 to {}, got {src} → {dst}", n.saturating_sub(1)),
            ));
        }
        let net = self.topo.network();
        let slice = |t: u32| net.slice_of(net.terminal_router(t));
        if slice(src) != slice(dst) {
            let msg = format!("terminals {src} and {dst} are in different slices ({} and {})", slice(src), slice(dst));
            return Err(crate::config::ConfigError::new("inject", msg));
        }
        let labeled = self.stats.in_window(self.now);
        let pkt = Packet::new(src, dst, net.terminal_router(dst), self.now, self.params.packet_size, labeled);
        let pid = self.packets.alloc(pkt);
        self.terminals.source[src as usize].push_back(pid);
        if labeled {
            self.stats.labeled_created += 1;
        }
        Ok(pid)
    }

    /// Fails (`failed`) or restores the link of port id `port` while the simulation runs
    /// (the page's click on a link). The stated rule for what is under way: packets already
    /// on the link, or past the switch in its output queue, are delivered; packets routed to
    /// it but not yet through the switch are routed again, and credits in flight return.
    /// Refuses a failure that would disconnect the network, and a terminal port.
    pub fn set_link_failed(&mut self, port: usize, failed: bool) -> Result<(), String> {
        let net = self.topo.network();
        let before = self.faults.clone();
        self.faults.set(net, port, failed)?;
        if let Err(e) = self.routing.set_faults(net, self.faults.flags()) {
            self.faults = before;
            self.routing.set_faults(net, self.faults.flags()).expect("the previous set was accepted");
            return Err(e);
        }
        if before == self.faults {
            return Ok(());
        }
        let peer = self.ports.downstream[port] as usize;
        let vcs = self.params.vcs as usize;
        for end in [port, peer] {
            if failed {
                self.ports.port_queues[end] += FAILED_QUEUE;
            } else {
                self.ports.port_queues[end] -= FAILED_QUEUE;
                continue;
            }
            let r = self.ports.port_router[end];
            let first = self.routers.first_port[r as usize] as usize;
            let out = (end - first) as u16;
            for local in 0..(self.routers.first_port[r as usize + 1] as usize - first) * vcs {
                let iv = first * vcs + local;
                let input = self.buffers.inputs[iv];
                if self.buffers.nonempty.get(r, local) && !self.buffers.unrouted.get(r, local) && input.out_port == out
                {
                    // Routed again: its commitment, the hop and the decision it counted are
                    // undone (what the algorithm stored in the packet, e.g. DAL's deroutes
                    // and the non-minimal mark, is kept).
                    self.buffers.committed[end * vcs + input.out_vc as usize] -= self.params.packet_size;
                    self.ports.port_queues[end] -= self.params.packet_size as u32;
                    self.packets[input.pid].hops -= 1;
                    self.observers.decisions[r as usize].routed -= 1;
                    self.buffers.unrouted.of(r).set_checked(local);
                }
            }
        }
        Ok(())
    }

    /// Changes the offered load while running (the page's load control), within the range
    /// of `traffic.load`; the error names the field.
    pub fn set_load(&mut self, load: f64) -> Result<(), ConfigErrors> {
        let mut cfg = self.cfg.clone();
        cfg.traffic.load = load;
        cfg.validate()?;
        self.cfg = cfg;
        Ok(())
    }

    /// Advances `cycles` cycles, stopping early with an error on deadlock.
    pub fn advance(&mut self, cycles: u64) -> Result<(), SimError> {
        for _ in 0..cycles {
            self.step();
            if let Some(report) = &self.watchdog.deadlock {
                return Err(SimError::Deadlock(report.clone()));
            }
        }
        Ok(())
    }

    /// Step 1a: the packets whose channel latency ends now enter their input buffers; a
    /// packet arriving into an empty VC becomes its head and marks the VC non-empty and
    /// unrouted.
    fn deliver_arrivals<S: Shape>(&mut self, now: u64) {
        let slot = (now & self.wheels.wheel_mask) as usize;
        let mut events = std::mem::take(&mut self.wheels.arrivals[slot]);
        let Simulation {
            buffers: InputBuffers { ref mut buf, ref mut inputs, ref mut nonempty, ref mut unrouted, .. },
            routers: Routers { ref mut load, .. },
            ports: Ports { ref arrival_port, .. },
            ref params,
            ..
        } = *self;
        let Params { vcs, depth, packet_size, pipeline_delay, .. } = params.shaped::<S>();
        let (vcs, depth) = (vcs as usize, depth as usize);
        let (mut buf, mut inputs, mut load, arrival_port) =
            (buf.view_mut(), inputs.view_mut(), load.view_mut(), arrival_port.view());
        for &Arrival { pid, port, vc } in &events {
            // SAFETY: (this loop) an arrival names a port id with a peer (< P: invariants
            // 1, 2) and a VC a route chose (< V: 3), so `iv` < P · V; the ring position is
            // wrapped below `depth`; `router` is a router id (< the number of routers: 1).
            let iv = port as usize * vcs + vc as usize;
            // SAFETY: `iv` < P · V (see the loop comment).
            let input = unsafe { inputs.get_unchecked_mut(iv) };
            debug_assert!((input.buf_len as usize + 1) * packet_size as usize <= depth, "buffer overflow at VC {iv}");
            if input.buf_len > 0 {
                // Checked: the position is below `depth` only while credit flow control
                // keeps the buffer from overflowing.
                buf[iv * depth + router::wrap(input.buf_head as usize + input.buf_len as usize, depth)] =
                    Slot::new(now, pid);
            }
            input.buf_len += 1;
            // SAFETY: `port` < P (2).
            let (router, vc0_bit) = unsafe { *arrival_port.get_unchecked(port as usize) };
            // SAFETY: `router` is a router id (1).
            unsafe { *load.get_unchecked_mut(router as usize) += 1 };
            if input.buf_len == 1 {
                // The packet is the new head: it lives in the VC's record (its slot is not
                // written, sparing a cache miss on the buffer at most arrivals).
                input.set_head(pid, now + pipeline_delay);
                let pos = vc0_bit as usize + vc as usize;
                // SAFETY: `vc0_bit` is the position of the port's VC 0 in its router's
                // bits, and `vc` < V (invariant 3).
                unsafe {
                    nonempty.set_at(pos);
                    unrouted.set_at(pos);
                }
            }
        }
        if !events.is_empty() {
            self.watchdog.last_progress = now;
        }
        events.clear();
        self.wheels.arrivals[slot] = events;
    }

    /// Step 1b: the credits whose channel latency ends now (and, for UGAL-L_CR, the held-back
    /// credits now due) reach their upstream counters.
    fn deliver_credits(&mut self, now: u64) {
        let slot = (now & self.wheels.wheel_mask) as usize;
        let mut events = std::mem::take(&mut self.wheels.credit_wheel[slot]);
        if self.cr.is_none() {
            // The common case, without UGAL-L_CR's bookkeeping: two counters per credit.
            let (mut credits, mut port_queues) = (self.buffers.credits.view_mut(), self.ports.port_queues.view_mut());
            for &CreditReturn { iv, up, flits, .. } in &events {
                // SAFETY: a credit return names the input VC a packet left (< P · V) and
                // its upstream port (< P: invariants 1, 2).
                unsafe {
                    *credits.get_unchecked_mut(iv as usize) += flits;
                    if up != NO_PORT {
                        *port_queues.get_unchecked_mut(up as usize) -= flits as u32;
                    }
                }
            }
        } else {
            for &CreditReturn { iv, up, flits, round_trip } in &events {
                // SAFETY: a credit return names the input VC a packet left and its upstream
                // port (invariants 1, 2).
                unsafe { self.return_credit(iv, up, flits, round_trip) };
            }
            while let Some((iv, n, round_trip)) = self.cr.as_mut().and_then(|cr| cr.due(now)) {
                let up = self.ports.upstream[iv as usize / self.params.vcs as usize].port;
                // SAFETY: `iv` indexed `upstream` (checked) by its port, so it is an input VC;
                // `up` comes from `upstream` (invariant 2).
                unsafe { self.return_credit(iv, up, n, round_trip) };
            }
        }
        if !events.is_empty() {
            self.watchdog.last_progress = now;
        }
        events.clear();
        self.wheels.credit_wheel[slot] = events;
    }

    /// `n` credits of input VC `iv`, carrying `round_trip`, reach upstream output port id
    /// `up` (or a terminal).
    ///
    /// # Safety
    /// `iv` must be an input VC (below P · V) and `up` a port id or `NO_PORT`.
    #[inline]
    unsafe fn return_credit(&mut self, iv: u32, up: u32, n: u16, round_trip: credit_rtt::RoundTrip) {
        // SAFETY: a credit return names the input VC a packet left (< P · V) and its
        // upstream port (< P: invariants 1, 2).
        unsafe { *self.buffers.credits.get_unchecked_mut(iv as usize) += n };
        if up == NO_PORT {
            return; // an injection credit, back at a terminal
        }
        // SAFETY: `up` < P (2).
        unsafe { *self.ports.port_queues.get_unchecked_mut(up as usize) -= n as u32 };
        if let Some(cr) = &mut self.cr {
            // SAFETY: `up` < P (2).
            cr.on_credit(round_trip, up as usize, unsafe { *self.ports.port_router.get_unchecked(up as usize) }
                as usize);
        }
    }

    /// The `k`-th packet waiting in input VC `iv` (0 = the head; `k < buf_len`) and the
    /// cycle it arrived.
    fn buffered(&self, iv: usize, k: usize) -> (u32, u64) {
        let input = &self.buffers.inputs[iv];
        if k == 0 {
            (input.pid, input.ready_at(self.now) - self.params.pipeline_delay)
        } else {
            let slot = self.buffers.buf[iv * self.params.depth as usize
                + router::wrap(input.buf_head as usize + k, self.params.depth as usize)];
            (slot.pid, slot.arrived(self.now))
        }
    }

    /// A packet will be usable in input VC `vc` of port id `port` at cycle `at`.
    #[inline]
    fn schedule_arrival(&mut self, at: u64, port: u32, vc: u32, pid: u32) {
        debug_assert!(at > self.now && at - self.now <= self.wheels.wheel_mask);
        // SAFETY: the wheel has `wheel_mask + 1` slots (invariant 7).
        unsafe { self.wheels.arrivals.get_unchecked_mut((at & self.wheels.wheel_mask) as usize) }.push(Arrival {
            pid,
            port,
            vc,
        });
    }

    /// The queue-state view routing algorithms read.
    pub fn queues(&self) -> QueueView<'_> {
        QueueView {
            net: self.topo.network(),
            credits: &self.buffers.credits,
            committed: &self.buffers.committed,
            downstream: &self.ports.downstream,
            port_queues: &self.ports.port_queues,
            failed: self.faults.flags_if_any(),
            vcs: self.params.vcs,
            depth: self.params.depth,
        }
    }

    // ----- read-only accessors (CLI, experiments, page) -----

    pub fn now(&self) -> u64 {
        self.now
    }
    pub fn config(&self) -> &SimConfig {
        &self.cfg
    }
    pub fn topology(&self) -> &Topology {
        &self.topo
    }
    pub fn network(&self) -> &Network {
        self.topo.network()
    }
    /// The failed links.
    pub fn faults(&self) -> &FaultSet {
        &self.faults
    }

    /// The channels between routers that exist (a tapered network's removed ones left
    /// out), in the order the page draws them: `(src, src_port, dst, dst_port)`.
    pub fn router_channels(&self) -> impl Iterator<Item = (u32, u32, u32, u32)> + '_ {
        let net = self.network();
        net.channels().filter(move |&(src, src_port, _, _)| !self.faults().is_absent(net.port_id(src, src_port)))
    }
    pub fn stats(&self) -> &Stats {
        &self.stats
    }
    pub fn stats_mut(&mut self) -> &mut Stats {
        &mut self.stats
    }
    pub fn vcs(&self) -> u32 {
        self.params.vcs
    }
    pub fn buffer_depth(&self) -> u32 {
        self.params.depth
    }
    /// Whether route decisions are allocated sequentially (else greedily).
    pub fn sequential_allocation(&self) -> bool {
        self.params.sequential
    }
    /// Flits buffered in input VC `vc` of port id `port`.
    pub fn input_occupancy(&self, port: usize, vc: u32) -> u32 {
        self.buffers.inputs[port * self.params.vcs as usize + vc as usize].buf_len as u32
            * self.params.packet_size as u32
    }
    /// Credits (free downstream slots) of output VC `vc` of port id `port`.
    pub fn output_credits(&self, port: usize, vc: u32) -> u32 {
        match self.ports.downstream[port] {
            NO_PORT => self.params.depth,
            down => self.buffers.credits[down as usize * self.params.vcs as usize + vc as usize] as u32,
        }
    }
    /// Flits sent on each output port since the start, indexed by port id.
    pub fn sent_flits(&self) -> Vec<u64> {
        self.ports.channels.iter().map(|c| c.sent).collect()
    }
    /// The last adaptive routing decision made at each router.
    pub fn route_notes(&self) -> &[RouteNote] {
        &self.observers.notes
    }
    /// The routing decisions taken at each router so far.
    pub fn router_decisions(&self) -> &[RouterDecisions] {
        &self.observers.decisions
    }
    /// The packets on channels now: `(port id of the input they are bound for, cycles until
    /// they are usable there (0: at the start of the next cycle), packet id, packet)`,
    /// router-to-router and injection channels alike.
    pub fn packets_on_channels(&self) -> impl Iterator<Item = (u32, u64, u32, &Packet)> + '_ {
        let (now, mask) = (self.now, self.wheels.wheel_mask);
        self.wheels.arrivals.iter().enumerate().flat_map(move |(slot, wheel)| {
            let ahead = (slot as u64).wrapping_sub(now) & mask;
            wheel.iter().map(move |a| (a.port, ahead, a.pid, &self.packets[a.pid]))
        })
    }
    /// The latency in cycles of the channel leaving port id `port`.
    pub fn channel_latency(&self, port: usize) -> u32 {
        self.ports.latency[port]
    }
    /// UGAL-L_CR: the `t_d` register (credit round trip minus its zero-load value) of output
    /// port id `port`, and (credits delayed so far, their total extra delay); `None` for
    /// algorithms without credit round-trip sensing.
    pub fn credit_round_trip(&self, port: usize) -> Option<(u32, u64, u64)> {
        self.cr.as_ref().map(|cr| (cr.td(port), cr.delayed_credits, cr.delay_sum))
    }
    /// Packets buffered in routers or on channels.
    pub fn packets_in_network(&self) -> u64 {
        self.watchdog.in_network
    }
    /// Packets waiting in source queues.
    pub fn packets_in_sources(&self) -> usize {
        self.terminals.source.iter().map(|q| q.len()).sum()
    }
    /// Terminals that still have batch packets to generate (batch mode).
    pub fn batch_pending(&self) -> bool {
        self.terminals.batch_left.iter().any(|&b| b > 0)
            || self.packets_in_sources() > 0
            || self.watchdog.in_network > 0
    }
    /// Deadlock detected by the watchdog, if any.
    pub fn deadlock(&self) -> Option<&DeadlockReport> {
        self.watchdog.deadlock.as_ref()
    }
    /// Enables or disables the per-cycle invariant checks (on by default in debug builds).
    pub fn set_invariant_checks(&mut self, on: bool) {
        self.check_invariants = on;
    }
}

impl Simulation {
    /// Bytes held by the engine's arrays (buffers, queues, wheels, packet store, source
    /// queues), counted from their capacities: the simulation's own memory footprint.
    pub fn memory_bytes(&self) -> usize {
        fn bytes<T>(v: &[T]) -> usize {
            std::mem::size_of_val(v)
        }
        let per_port = self.ports.table_bytes() + bytes(&self.ports.outq);
        let per_vc = self.buffers.table_bytes() + bytes(&self.buffers.buf);
        let wheels = self.wheels.arrivals.iter().map(|w| w.capacity() * std::mem::size_of::<Arrival>()).sum::<usize>()
            + self
                .wheels
                .credit_wheel
                .iter()
                .map(|w| w.capacity() * std::mem::size_of::<CreditReturn>())
                .sum::<usize>();
        let sources = self.terminals.source.iter().map(|q| q.capacity() * 4).sum::<usize>();
        per_port
            + per_vc
            + wheels
            + sources
            + self.packets.memory_bytes()
            + self.cr.as_ref().map_or(0, |cr| cr.memory_bytes())
    }
}
