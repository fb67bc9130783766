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

#[cfg(test)]
mod tests {
    use crate::config::{RoutingConfig, TopologyConfig};
    use crate::rng::SimRng;
    use crate::routing::fixture::{rng_drawing_first, RouterState};
    use crate::routing::Decision;

    /// VAL (FB paper §3.1) on the 4-ary 3-flat: the source draws the intermediate router,
    /// goes there by dimension order on VC class 0, turns to phase 1 there and goes on to
    /// the destination by dimension order on class 1; the packet counts as non-minimal when
    /// the detour is longer than the minimal path.
    #[test]
    fn val_goes_through_a_random_intermediate_on_class_0_then_on_class_1() {
        let s = RouterState::new(TopologyConfig::flattened_butterfly(4, 3), 2, 16);
        let hx = s.topo.as_hyperx().unwrap().clone();
        let val = s.routing("val", &RoutingConfig::default());
        let dst = hx.neighbor(0, 0, 1); // (1, 0): one hop
        let via = hx.neighbor(hx.neighbor(0, 0, 2), 1, 3); // (2, 3)
        let (decision, _, pkt) = s.route_at_source(&*val, s.packet_between(0, dst), &mut rng_drawing_first(16, via));
        assert_eq!(
            (pkt.intermediate, pkt.phase, pkt.nonminimal),
            (via, 0, true),
            "1 hop minimal, 2 + 2 through (2, 3)"
        );
        assert_eq!(decision, Decision::Forward { port: hx.port_to(0, 0, 2, 0), vc: 0 }, "dimension 0 first, class 0");
        // At the intermediate router: phase 1, dimension order to the destination, class 1.
        let mut pkt = pkt;
        let ctx = s.ctx(via, hx.port_to(via, 1, 0, 0), 0);
        let (decision, _) = RouterState::decide(&*val, &ctx, &mut pkt, &mut SimRng::new(1, 2));
        assert_eq!(pkt.phase, 1);
        assert_eq!(decision, Decision::Forward { port: hx.port_to(via, 0, 1, 0), vc: 1 }, "(2,3) → (1,3): class 1");
        // An intermediate on a minimal path (here the source itself) is not a detour.
        let (decision, _, pkt) = s.route_at_source(&*val, s.packet_between(0, dst), &mut rng_drawing_first(16, 0));
        assert_eq!((pkt.intermediate, pkt.phase, pkt.nonminimal), (0, 1, false));
        assert_eq!(decision, Decision::Forward { port: hx.port_to(0, 0, 1, 0), vc: 1 });
    }
}
