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
use super::{hyperx, Algorithm, Decision, Decisions, QueueView, RouteCtx, RouteNote, Routing};
use crate::config::AllocatorMode;
use crate::packet::Packet;
use crate::rng::SimRng;
use crate::topology::HyperX;

/// Adaptive routing on the 2-dilated flattened butterfly: see [`Adaptive2dfb`].
pub const ADAPTIVE_2DFB: Algorithm = Algorithm {
    name: "adaptive_2dfb",
    decisions: Decisions::QueueThreshold,
    family: "hyperx",
    description: "adaptive 2DFB: direct link if queue ≤ Th or priority flag, else one non-minimal hop per dimension, else wait (2DFB §III)",
    params: &["routing.threshold"],
    build: |cfg, topo| Ok(Box::new(Adaptive2dfb::new(hyperx(topo)?, cfg.threshold))),
};

/// `route_bits` flag: the priority flag `h1` of Algorithm 1.
pub const H1: u32 = 1 << 31;

#[derive(Clone)]
pub struct Adaptive2dfb {
    hx: HyperX,
    threshold: u32,
}

impl Adaptive2dfb {
    pub fn new(hx: &HyperX, threshold: u32) -> Self {
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
