//! Valiant's algorithm on the HyperX family (FB paper §3.1): a random intermediate router
//! chosen at the source, dimension-order routing to it on VC class 0, then to the
//! destination on VC class 1.

use super::hyperx_min::{dor_port, vc_in_class};
use super::{network_of, Algorithm, Decision, Decisions, RouteCtx, RouteNote, Routing};
use crate::config::schema::Family;
use crate::packet::Packet;
use crate::rng::SimRng;
use crate::topology::HyperX;

/// VAL on the HyperX family: see [`Valiant`].
pub(crate) const VAL: Algorithm = Algorithm {
    name: "val",
    decisions: Decisions::None,
    family: Family::HYPERX,
    description: "Valiant: DOR to a random intermediate router on VC 0, then to the destination on VC 1",
    params: &[],
    build: |_, topo| Ok(Box::new(Valiant::new(network_of(topo)?))),
};

#[derive(Clone)]
pub(crate) struct Valiant {
    hx: HyperX,
}

impl Valiant {
    pub(crate) fn new(hx: &HyperX) -> Self {
        Valiant { hx: hx.clone() }
    }
}

/// Routes a packet in the two Valiant phases: towards `pkt.intermediate` (phase 0), then
/// towards its destination (phase 1); shared by every algorithm that sends a packet
/// through an intermediate router with DOR.
pub(crate) fn two_phase_dor(hx: &HyperX, ctx: &RouteCtx, pkt: &mut Packet) -> Decision {
    if pkt.phase == 0 && ctx.router == pkt.intermediate {
        pkt.phase = 1;
    }
    let target = if pkt.phase == 0 { pkt.intermediate } else { pkt.dst_router };
    let port = dor_port(hx, &ctx.queues, ctx.router, target);
    Decision::Forward { port, vc: vc_in_class(&ctx.queues, ctx.router, port, pkt.phase as u32, 2) }
}

impl Routing for Valiant {
    fn vcs_required(&self) -> u32 {
        2
    }
    fn route(&self, ctx: &RouteCtx, pkt: &mut Packet, rng: &mut SimRng, _note: &mut RouteNote) -> Decision {
        if ctx.at_source() && pkt.intermediate == Packet::NONE {
            let hx = &self.hx;
            let via = rng.below(hx.routers());
            pkt.intermediate = via;
            pkt.phase = 0;
            pkt.nonminimal = hx.distance(ctx.router, via) + hx.distance(via, pkt.dst_router)
                > hx.distance(ctx.router, pkt.dst_router);
        }
        two_phase_dor(&self.hx, ctx, pkt)
    }
}
