//! Routing on the comparison networks of the FB paper (§3.3, Table 1), the HyperX paper
//! (§4.1, Fig. 7) and the 2DFB paper (§IV): the folded Clos with adaptive up-routing and
//! deterministic down-routing, and the conventional butterfly with destination-tag
//! routing. (The third, the hypercube with e-cube routing, is `min` — dimension order —
//! on the hypercube, registered as `ecube`.)

use super::{Decision, RouteCtx, RouteNote, Routing};
use crate::config::AllocatorMode;
use crate::packet::Packet;
use crate::rng::SimRng;
use crate::topology::{Butterfly, FoldedClos};

/// The VC of `port` with the most credits (one VC class).
#[inline]
fn roomiest_vc(ctx: &RouteCtx, port: u32) -> u32 {
    super::hyperx_min::vc_in_class(&ctx.queues, ctx.router, port, 0, 1)
}

/// Folded Clos (Kim, Dally, Abts, SC06, as used by FB §3.3 Table 1 "adaptive sequential"):
/// below the nearest common ancestor of source and destination a packet goes *up* on the
/// up port with the shortest queue (ties at random; sequential allocator, so inputs of
/// one cycle see each other's choices); at a common ancestor it goes *down* on the unique
/// port towards the destination. Up/down routing never turns down-then-up, so one VC is
/// deadlock free.
pub struct UpDownAdaptive {
    clos: FoldedClos,
}

impl UpDownAdaptive {
    pub fn new(clos: &FoldedClos) -> Self {
        UpDownAdaptive { clos: clos.clone() }
    }
}

impl Routing for UpDownAdaptive {
    fn vcs_required(&self) -> u32 {
        1
    }
    fn default_allocator(&self) -> AllocatorMode {
        AllocatorMode::Sequential
    }
    fn route(&self, ctx: &RouteCtx, pkt: &mut Packet, rng: &mut SimRng, _note: &mut RouteNote) -> Decision {
        let here = ctx.router;
        if let Some(port) = self.clos.down_port(here, pkt.dst) {
            return Decision::Forward { port, vc: roomiest_vc(ctx, port) };
        }
        let (first, count) = self.clos.up_ports(here);
        debug_assert!(count > 0, "top switches are ancestors of every terminal");
        let q = &ctx.queues;
        let (mut best, mut best_len, mut ties) = (first, u32::MAX, 0);
        for port in first..first + count {
            let len = q.port_queue(here, port);
            if len < best_len {
                (best, best_len, ties) = (port, len, 1);
            } else if len == best_len {
                ties += 1;
                if rng.below(ties) == 0 {
                    best = port;
                }
            }
        }
        Decision::Forward { port: best, vc: roomiest_vc(ctx, best) }
    }
}

/// Destination-tag routing on the k-ary n-fly: at stage s take the output named by the
/// destination's digit n−1−s. One path per pair, one VC (the network is acyclic).
pub struct DestinationTag {
    bf: Butterfly,
}

impl DestinationTag {
    pub fn new(bf: &Butterfly) -> Self {
        DestinationTag { bf: bf.clone() }
    }
}

impl Routing for DestinationTag {
    fn vcs_required(&self) -> u32 {
        1
    }
    fn route(&self, ctx: &RouteCtx, pkt: &mut Packet, _rng: &mut SimRng, _note: &mut RouteNote) -> Decision {
        let port = self.bf.tag_port(ctx.router, pkt.dst);
        Decision::Forward { port, vc: roomiest_vc(ctx, port) }
    }
}
