//! A test fixture: one router's view of the network in a chosen state, to test routing
//! decisions directly rather than through whole simulations.
//!
//! [`RouterState`] owns the arrays a [`QueueView`] borrows, laid out and kept consistent
//! exactly as the engine keeps them (`src/sim/mod.rs`, checked by `src/sim/check.rs`):
//! credits per *downstream* input VC, flits committed per output VC, the downstream input
//! port of every output port, the per-port queue estimate (Σ over VCs of
//! `depth − credits + committed`, plus `FAILED_QUEUE` on a failed link) and the failed
//! flags (empty while no link has failed). Every queue starts empty (credits = depth).
//!
//! ```ignore
//! let mut s = RouterState::new(TopologyConfig::flattened_butterfly(8, 2), 2, 32);
//! s.set_queue(0, port, 0, 9); // 9 flits downstream of output `port` of router 0, VC 0
//! let (decision, note, pkt) = s.route(&*s.routing("ugal", &RoutingConfig::default()), s.packet_between(0, 1), &mut rng);
//! ```

use super::FAILED_QUEUE;
use super::{declaration, Decision, QueueView, RouteCtx, RouteNote, Routing};
use crate::config::{RoutingConfig, TopologyConfig};
use crate::packet::Packet;
use crate::rng::SimRng;
use crate::topology::{Network, Topology};

/// The queue state of a whole network, as routing sees it through a [`QueueView`].
pub(crate) struct RouterState {
    pub topo: Topology,
    /// Free slots of each input VC (indexed by port id × VCs + VC), as known upstream.
    credits: Vec<u16>,
    /// Flits routed to each output VC (port id × VCs + VC) but not through the switch.
    committed: Vec<u16>,
    /// Downstream input port id of each output port (`u32::MAX` for terminal ports).
    downstream: Vec<u32>,
    /// Per port id: Σ over VCs of `depth − credits + committed` (+ FAILED_QUEUE if failed).
    port_queues: Vec<u32>,
    /// Per port id, failed; empty while no link has failed (as the engine passes it).
    failed: Vec<bool>,
    pub vcs: u32,
    pub depth: u32,
    /// The cycle routing sees (`RouteCtx::now`).
    pub now: u64,
}

impl RouterState {
    /// A network built from `cfg` with `vcs` VCs of `depth` flits per port, all empty.
    pub(crate) fn new(cfg: TopologyConfig, vcs: u32, depth: u32) -> RouterState {
        RouterState::of(Topology::build(&cfg).expect("a valid topology"), vcs, depth)
    }

    /// The same for an already built topology.
    pub(crate) fn of(topo: Topology, vcs: u32, depth: u32) -> RouterState {
        let net = topo.network();
        let ports = net.total_ports();
        let downstream = (0..ports)
            .map(|id| {
                let port = net.port_by_id(id);
                if port.is_terminal() {
                    u32::MAX
                } else {
                    net.port_id(port.peer_router, port.peer_port) as u32
                }
            })
            .collect();
        let n = ports * vcs as usize;
        let depth16 = u16::try_from(depth).expect("depth < 2^16");
        RouterState {
            credits: vec![depth16; n],
            committed: vec![0; n],
            downstream,
            port_queues: vec![0; ports],
            failed: Vec::new(),
            topo,
            vcs,
            depth,
            now: 1000,
        }
    }

    pub(crate) fn net(&self) -> &Network {
        self.topo.network()
    }

    /// Sets the downstream occupancy of output VC `vc` of `port` of `router` to `flits`
    /// (its credits become `depth − flits`). Panics on a terminal port (never runs out).
    pub(crate) fn set_queue(&mut self, router: u32, port: u32, vc: u32, flits: u32) -> &mut Self {
        assert!(flits <= self.depth, "{flits} flits do not fit in a VC of depth {}", self.depth);
        assert!(vc < self.vcs);
        let id = self.net().port_id(router, port);
        let down = self.downstream[id];
        assert!(down != u32::MAX, "router {router} port {port} is a terminal port: it has no credits");
        self.credits[down as usize * self.vcs as usize + vc as usize] = (self.depth - flits) as u16;
        self.refresh(id);
        self
    }

    /// Adds `flits` routed to output VC `vc` of `port` of `router` that have not crossed the
    /// switch yet (what the engine commits when a decision is made).
    pub(crate) fn commit(&mut self, router: u32, port: u32, vc: u32, flits: u32) -> &mut Self {
        assert!(vc < self.vcs);
        let id = self.net().port_id(router, port);
        let slot = &mut self.committed[id * self.vcs as usize + vc as usize];
        *slot = slot.checked_add(u16::try_from(flits).expect("< 2^16")).expect("< 2^16");
        self.refresh(id);
        self
    }

    /// Fails the link of `port` of `router`, both directions (as the engine's
    /// `set_link_failed`: both ends' queue estimates become endless).
    pub(crate) fn fail(&mut self, router: u32, port: u32) -> &mut Self {
        let id = self.net().port_id(router, port);
        let peer = self.downstream[id];
        assert!(peer != u32::MAX, "router {router} port {port} is a terminal port");
        if self.failed.is_empty() {
            self.failed = vec![false; self.port_queues.len()];
        }
        for end in [id, peer as usize] {
            self.failed[end] = true;
            self.refresh(end);
        }
        self
    }

    /// Recomputes the queue estimate of port id `id` as the engine defines it.
    fn refresh(&mut self, id: usize) {
        let vcs = self.vcs as usize;
        let down = self.downstream[id];
        let mut sum = 0;
        for v in 0..vcs {
            let credits = if down == u32::MAX { self.depth } else { self.credits[down as usize * vcs + v] as u32 };
            sum += self.depth - credits + self.committed[id * vcs + v] as u32;
        }
        if self.failed.get(id).copied().unwrap_or(false) {
            sum += FAILED_QUEUE;
        }
        self.port_queues[id] = sum;
    }

    /// The view routing reads.
    pub(crate) fn view(&self) -> QueueView<'_> {
        QueueView {
            net: self.topo.network(),
            credits: &self.credits,
            committed: &self.committed,
            downstream: &self.downstream,
            port_queues: &self.port_queues,
            failed: &self.failed,
            vcs: self.vcs,
            depth: self.depth,
        }
    }

    /// What an algorithm sees for the packet at the head of input VC `in_vc` of `in_port`
    /// of `router`.
    pub(crate) fn ctx(&self, router: u32, in_port: u32, in_vc: u32) -> RouteCtx<'_> {
        RouteCtx {
            now: self.now,
            router,
            first_port: self.net().port_offset(router),
            in_port,
            in_vc,
            queues: self.view(),
        }
    }

    /// [`RouterState::ctx`] for a packet just injected by `pkt`'s source terminal.
    pub(crate) fn ctx_at_source(&self, pkt: &Packet) -> RouteCtx<'_> {
        let (router, port) = self.net().inject_port(pkt.src);
        self.ctx(router, port, 0)
    }

    /// A single-flit packet from terminal `src` to terminal `dst`, as the engine creates
    /// it (`Packet::new` with the destination's router), created now.
    pub(crate) fn packet(&self, src: u32, dst: u32) -> Packet {
        Packet::new(src, dst, self.net().terminal_router(dst), self.now, 1, true)
    }

    /// A packet from the first terminal of router `src` to the first terminal of `dst`.
    pub(crate) fn packet_between(&self, src: u32, dst: u32) -> Packet {
        let t = self.topo.terminals_per_router();
        self.packet(src * t, dst * t)
    }

    /// The algorithm `name` of this network's family, built by its declaration.
    pub(crate) fn routing(&self, name: &str, cfg: &RoutingConfig) -> Box<dyn Routing> {
        let cfg = RoutingConfig { algorithm: name.into(), ..cfg.clone() };
        let algorithm = declaration(name, self.topo.family()).expect("a declared algorithm");
        let routing = (algorithm.build)(&cfg, &self.topo).unwrap_or_else(|e| panic!("{name}: {e:?}"));
        assert!(self.vcs >= routing.vcs_required(), "{name} needs {} VCs", routing.vcs_required());
        routing
    }

    /// Routes `pkt` (updated as the algorithm leaves it) in `ctx`: the decision and note.
    pub(crate) fn decide(
        routing: &dyn Routing,
        ctx: &RouteCtx,
        pkt: &mut Packet,
        rng: &mut SimRng,
    ) -> (Decision, RouteNote) {
        let mut note = RouteNote::default();
        let decision = routing.route(ctx, pkt, rng, &mut note);
        (decision, note)
    }

    /// Routes `pkt` at its source router: the decision, the note and the packet afterwards.
    pub(crate) fn route_at_source(
        &self,
        routing: &dyn Routing,
        mut pkt: Packet,
        rng: &mut SimRng,
    ) -> (Decision, RouteNote, Packet) {
        let ctx = self.ctx_at_source(&pkt);
        let (decision, note) = RouterState::decide(routing, &ctx, &mut pkt, rng);
        (decision, note, pkt)
    }
}

/// A random stream whose first `below(n)` draw is `value` (to fix an algorithm's random
/// choice, e.g. UGAL's intermediate router, when it is the first draw of a decision).
pub(crate) fn rng_drawing_first(n: u32, value: u32) -> SimRng {
    (0..10_000)
        .map(|seed| SimRng::new(seed, 31))
        .find(|rng| rng.clone().below(n) == value)
        .expect("a seed draws every value")
}

/// The port of a decision to forward (panics on `Wait`).
pub(crate) fn port_of(d: Decision) -> u32 {
    match d {
        Decision::Forward { port, .. } => port,
        Decision::Wait => panic!("expected a forward decision, got Wait"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The fixture keeps the per-port queue estimate as the engine's consistency check
    /// defines it: the sum of the VC estimates, plus FAILED_QUEUE on a failed link.
    #[test]
    fn port_queues_are_the_engine_estimate() {
        let mut s = RouterState::new(TopologyConfig::flattened_butterfly(4, 3), 3, 16);
        let hx = s.topo.as_hyperx().unwrap().clone();
        let p = hx.port_to(0, 0, 1, 0);
        s.set_queue(0, p, 0, 5).set_queue(0, p, 2, 3).commit(0, p, 1, 2);
        let v = s.view();
        assert_eq!(v.vc_queue(0, p, 0), 5);
        assert_eq!(v.vc_queue(0, p, 1), 2);
        assert_eq!(v.credits(0, p, 2), 13);
        assert_eq!(v.port_queue(0, p), 10);
        assert!(!v.any_failed());
        s.fail(0, p);
        let v = s.view();
        let peer = s.net().port(0, p);
        assert!(!v.alive(0, p) && !v.alive(peer.peer_router, peer.peer_port));
        assert_eq!(v.port_queue(0, p), 10 + FAILED_QUEUE);
        assert_eq!(v.port_queue(peer.peer_router, peer.peer_port), FAILED_QUEUE);
        // Terminal outputs never run out; commitments still count.
        s.commit(0, 0, 0, 1);
        assert_eq!(s.view().port_queue(0, 0), 1);
        assert_eq!(s.view().credits(0, 0, 0), 16);
    }
}
