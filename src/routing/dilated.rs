//! Adaptive routing on the 2-dilated flattened butterfly (2DFB paper §III, Algorithm 1).
//!
//! *Minimal phase*: over the offset dimensions, most significant first, take the direct
//! link to the destination's coordinate if its queue is at most the threshold `Th`
//! (`routing.threshold`); a packet whose priority flag `h1` is set takes the direct link
//! whatever its queue (and clears `h1`) — unless that link is the one the packet came in
//! on. *Non-minimal phase*, if no direct link was taken: over the same dimensions, most
//! significant first, the first non-minimal link of the dimension (in descending port
//! order, as Algorithm 1 enumerates them) whose queue is at most `Th` and that is not the
//! input link; taking it sets `h1`. Otherwise the packet waits and tries again next cycle.
//!
//! Choices the paper leaves open, documented here:
//! - *One non-minimal hop per dimension* (the paper's §III text: "only one non-minimal
//!   forwarding in each dimension") is enforced with a per-dimension mark in `pkt.route_bits` (bits 0..15; bit 31 is `h1`), which
//!   Algorithm 1 alone does not guarantee when `h1` sends the packet on in another
//!   dimension first.
//! - *Dilation*: each router pair has two parallel links (K = 2); the "direct link" is the
//!   one of the two with the shorter queue, and the non-minimal enumeration visits both
//!   links of every other neighbour.
//! - *Queue and VCs*: the paper's switches have no virtual channels (OMNeT++ output
//!   queues). Here a packet's `h`-th hop uses VC class `h` of `2·n'` classes (at most two
//!   hops per dimension, so hop indices strictly increase and the channel dependency graph
//!   is acyclic), and "packets in queue" is the queue estimate of the VC of that class the
//!   packet would use (downstream occupancy plus flits committed here). Waiting on a
//!   per-class queue cannot deadlock: packets in the last class only eject, and by
//!   induction every class drains, so every queue a waiting packet watches eventually
//!   falls to ≤ Th.
//! - The sequential allocator is the default ("we are using a sequential allocation
//!   method").
//!
//! The 2DFB paper's links run at twice the terminal bandwidth (§IV: 2 Gb/s links, 1 Gb/s
//! terminals); model that with `router.terminal_period = 2`. *Minimal* on the 2DFB is the
//! `min` algorithm (dimension order, shorter of the two links).

use super::hyperx_min::vc_in_class;
use super::{network_of, Algorithm, Decision, Decisions, QueueView, RouteCtx, RouteNote, Routing};
use crate::config::schema::Family;
use crate::config::AllocatorMode;
use crate::packet::Packet;
use crate::rng::SimRng;
use crate::topology::HyperX;

/// Adaptive routing on the 2-dilated flattened butterfly: see [`Adaptive2dfb`].
pub(crate) const ADAPTIVE_2DFB: Algorithm = Algorithm {
    name: "adaptive_2dfb",
    decisions: Decisions::QueueThreshold,
    family: Family::HYPERX,
    description: "adaptive 2DFB: direct link if queue ≤ Th or priority flag, else one non-minimal hop per dimension, else wait (2DFB §III)",
    params: &["routing.threshold"],
    build: |cfg, topo| Ok(Box::new(Adaptive2dfb::new(network_of(topo)?, cfg.threshold))),
};

/// `route_bits` flag: the priority flag `h1` of Algorithm 1.
pub(crate) const H1: u32 = 1 << 31;

#[derive(Clone)]
pub(crate) struct Adaptive2dfb {
    hx: HyperX,
    threshold: u32,
}

impl Adaptive2dfb {
    pub(crate) fn new(hx: &HyperX, threshold: u32) -> Self {
        Adaptive2dfb { hx: hx.clone(), threshold }
    }
    fn classes(&self) -> u32 {
        2 * self.hx.dims() as u32
    }
}

/// The VC of `class` the packet would take on `port`, and its queue estimate.
#[inline]
fn class_queue(q: &QueueView, router: u32, port: u32, class: u32, classes: u32) -> (u32, u32) {
    let vc = vc_in_class(q, router, port, class, classes);
    (vc, q.vc_queue(router, port, vc))
}

impl Routing for Adaptive2dfb {
    fn vcs_required(&self) -> u32 {
        self.classes()
    }
    fn default_allocator(&self) -> AllocatorMode {
        AllocatorMode::Sequential
    }
    fn route(&self, ctx: &RouteCtx, pkt: &mut Packet, _rng: &mut SimRng, _note: &mut RouteNote) -> Decision {
        let hx = &self.hx;
        let q = &ctx.queues;
        let (here, dst) = (ctx.router, pkt.dst_router);
        let classes = self.classes();
        let class = (pkt.hops as u32).min(classes - 1);
        let in_port = q.net.port(here, ctx.in_port);
        let came_from = if in_port.is_terminal() { u32::MAX } else { in_port.peer_router };
        let th = self.threshold;
        // Minimal phase, most significant dimension first.
        for d in (0..hx.dims()).rev() {
            let target = hx.coord(dst, d);
            if hx.coord(here, d) == target {
                continue;
            }
            if hx.neighbor(here, d, target) == came_from {
                continue;
            }
            let first = hx.port_to(here, d, target, 0);
            let (mut port, (mut vc, mut len)) = (first, class_queue(q, here, first, class, classes));
            for p in first + 1..first + hx.k[d] {
                let (v, l) = class_queue(q, here, p, class, classes);
                if l < len {
                    (port, vc, len) = (p, v, l);
                }
            }
            if pkt.route_bits & H1 != 0 || len <= th {
                pkt.route_bits &= !H1;
                return Decision::Forward { port, vc };
            }
        }
        // Non-minimal phase: the first non-minimal link with a short enough queue.
        for d in (0..hx.dims()).rev() {
            let (own, target) = (hx.coord(here, d), hx.coord(dst, d));
            if own == target || pkt.route_bits & (1 << d) != 0 {
                continue;
            }
            let (base, count) = hx.dim_ports(d);
            let direct = hx.port_to(here, d, target, 0);
            for port in (base..base + count).rev() {
                if port >= direct && port < direct + hx.k[d] {
                    continue;
                }
                if q.net.port(here, port).peer_router == came_from {
                    continue;
                }
                let (vc, len) = class_queue(q, here, port, class, classes);
                if len <= th {
                    pkt.route_bits |= H1 | (1 << d);
                    pkt.nonminimal = true;
                    return Decision::Forward { port, vc };
                }
            }
        }
        Decision::Wait
    }
}

#[cfg(test)]
mod tests {
    use super::H1;
    use crate::config::{RoutingConfig, TopologyConfig};
    use crate::routing::fixture::{rng_drawing_first, RouterState};
    use crate::routing::Decision;

    /// Algorithm 1 of the 2DFB paper on the 2-dilated 4-ary 3-flat (4×4 routers, two links
    /// per neighbour), threshold Th = 4, router 0 to its dimension-0 neighbour x = 1: the
    /// direct link (the shorter of its two) while its queue ≤ Th, else the first non-minimal
    /// link of the dimension in descending port order with queue ≤ Th, else wait.
    #[test]
    fn direct_link_within_threshold_else_one_nonminimal_hop() {
        // (direct trunk queues, queue of every non-minimal link, expected: Some((x, trunk))
        // = the link to coordinate x, None = wait, row)
        #[allow(clippy::type_complexity)]
        let rows: &[((u32, u32), u32, Option<(u32, u32)>, &str)] = &[
            ((0, 0), 0, Some((1, 0)), "empty: the direct link (first trunk on a tie)"),
            ((5, 3), 0, Some((1, 1)), "the shorter trunk of the direct pair"),
            ((4, 9), 0, Some((1, 0)), "queue = Th: still direct (≤, not <)"),
            ((5, 5), 0, Some((3, 1)), "direct > Th: the highest non-minimal port (x = 3, trunk 1)"),
            ((5, 5), 5, None, "every queue > Th: wait"),
        ];
        for &((t0, t1), q_nm, expect, what) in rows {
            let mut s = RouterState::new(TopologyConfig::dilated_flattened_butterfly(4, 3), 4, 16);
            let hx = s.topo.as_hyperx().unwrap().clone();
            let dst = hx.neighbor(0, 0, 1);
            s.set_queue(0, hx.port_to(0, 0, 1, 0), 0, t0).set_queue(0, hx.port_to(0, 0, 1, 1), 0, t1);
            for x in [2, 3] {
                for trunk in 0..2 {
                    s.set_queue(0, hx.port_to(0, 0, x, trunk), 0, q_nm);
                }
            }
            let alg = s.routing("adaptive_2dfb", &RoutingConfig { threshold: 4, ..Default::default() });
            let (decision, _, pkt) = s.route_at_source(&*alg, s.packet_between(0, dst), &mut rng_drawing_first(2, 0));
            match expect {
                None => assert_eq!(decision, Decision::Wait, "{what}"),
                Some((x, trunk)) => {
                    assert_eq!(decision, Decision::Forward { port: hx.port_to(0, 0, x, trunk), vc: 0 }, "{what}");
                    let nonminimal = x != 1;
                    assert_eq!(pkt.nonminimal, nonminimal, "{what}");
                    let bits = if nonminimal { H1 | 1 } else { 0 };
                    assert_eq!(pkt.route_bits, bits, "{what}: h1 and the dimension-0 mark");
                }
            }
        }
    }

    /// The non-minimal enumeration descends through the ports, skipping links over Th; a
    /// packet with `h1` set takes the direct link whatever its queue and clears `h1`; a
    /// dimension already derouted in is not derouted in again.
    #[test]
    fn descending_order_priority_flag_and_one_deroute_per_dimension() {
        let mut s = RouterState::new(TopologyConfig::dilated_flattened_butterfly(4, 3), 4, 16);
        let hx = s.topo.as_hyperx().unwrap().clone();
        let dst = hx.neighbor(0, 0, 1);
        s.set_queue(0, hx.port_to(0, 0, 1, 0), 0, 9).set_queue(0, hx.port_to(0, 0, 1, 1), 0, 8);
        s.set_queue(0, hx.port_to(0, 0, 3, 1), 0, 5).set_queue(0, hx.port_to(0, 0, 3, 0), 0, 5);
        let alg = s.routing("adaptive_2dfb", &RoutingConfig { threshold: 4, ..Default::default() });
        let mut rng = rng_drawing_first(2, 0);
        let (d, _, _) = s.route_at_source(&*alg, s.packet_between(0, dst), &mut rng);
        assert_eq!(d, Decision::Forward { port: hx.port_to(0, 0, 2, 1), vc: 0 }, "x = 3 over Th: next lower port");
        let mut pkt = s.packet_between(0, dst);
        pkt.route_bits = H1;
        let ctx = s.ctx_at_source(&pkt);
        let (d, _) = RouterState::decide(&*alg, &ctx, &mut pkt, &mut rng);
        assert_eq!(d, Decision::Forward { port: hx.port_to(0, 0, 1, 1), vc: 0 }, "h1: direct (shorter trunk) over Th");
        assert_eq!(pkt.route_bits & H1, 0, "h1 cleared");
        let mut pkt = s.packet_between(0, dst);
        pkt.route_bits = 1;
        let (d, _) = RouterState::decide(&*alg, &ctx, &mut pkt, &mut rng);
        assert_eq!(d, Decision::Wait, "already derouted in dimension 0, direct over Th: wait");
    }
}
