//! UGAL and UGAL-S on the HyperX family (FB paper §3.1).
//!
//! At the source router, per packet, UGAL compares the estimated delay of the minimal
//! path (MIN AD: the productive first-hop output with the shortest queue) with that of a
//! Valiant path through a random intermediate router (dimension order to it, then to the
//! destination): route minimally iff `q_min·H_min ≤ q_nm·H_nm + threshold`, where `q` is
//! the queue estimate of the path's first-hop output port ([`QueueView`](super::QueueView):
//! downstream occupancy from credits plus flits committed to it in this router, summed over
//! its VCs) and `H` the path's hop count. A minimal packet then routes MIN AD at every hop; a non-minimal one
//! routes Valiant.
//!
//! UGAL uses the *greedy* allocator (every input decides from the queue state at the start
//! of the cycle), UGAL-S the *sequential* one (each decision is visible to the next): the
//! difference the FB paper's Fig. 5 shows on small batches.
//!
//! Deadlock freedom with `n' + 1` VC classes (n' = dimensions): Valiant's first phase uses
//! class 0 and its second phase class 1 (dimension order within each, so acyclic); a
//! minimal packet's hop `h` (0-based) uses class `1 + h`. Within class 1 only dimension-
//! ordered second-phase hops depend on each other; every other dependency goes from a
//! lower class to a higher one, so the channel dependency graph is acyclic. For the
//! 1-D flattened butterfly this is 2 VCs, as for VAL. Spare VCs are shared per class
//! (VC `v` belongs to class `v mod classes`).

use super::hyperx_min::{dor_port, min_ad_choice, vc_in_class, vc_in_class_at};
use super::valiant::two_phase_dor;
use super::{network_of, Algorithm, Decision, Decisions, RouteCtx, RouteNote, Routing, TrueQueue};
use crate::config::schema::Family;
use crate::config::AllocatorMode;
use crate::packet::Packet;
use crate::rng::SimRng;
use crate::topology::HyperX;

/// UGAL with the greedy allocator: see [`Ugal`].
pub(crate) const UGAL: Algorithm = Algorithm {
    name: "ugal",
    decisions: Decisions::QueueTimesHops {
        q: "q = queue estimate of each path’s first-hop output (downstream occupancy from credits + flits committed here); greedy allocator",
        true_queue: TrueQueue::None,
    },
    family: Family::HYPERX,
    description: "UGAL: MIN AD vs Valiant per packet at the source by q·H, greedy allocator (FB §3.1; n'+1 VCs)",
    params: &["routing.ugal_threshold"],
    build: |cfg, topo| Ok(Box::new(Ugal::new(network_of(topo)?, false, cfg.ugal_threshold))),
};

/// UGAL-S: UGAL with the sequential allocator.
pub(crate) const UGAL_S: Algorithm = Algorithm {
    name: "ugal_s",
    decisions: Decisions::QueueTimesHops {
        q: "q = queue estimate of each path’s first-hop output; sequential allocator (each input sees the earlier decisions)",
        true_queue: TrueQueue::None,
    },
    description: "UGAL-S: UGAL with the sequential allocator (FB §3.1)",
    build: |cfg, topo| Ok(Box::new(Ugal::new(network_of(topo)?, true, cfg.ugal_threshold))),
    ..UGAL
};

/// `pkt.phase` of a packet routed minimally (adaptively) by a source-routed algorithm;
/// phases 0 and 1 are the two Valiant phases.
pub(crate) const PHASE_MINIMAL: u8 = 2;

/// A minimal packet's next hop: MIN AD on VC class `1 + hops` of `1 + dims` classes.
pub(crate) fn route_minimal(hx: &HyperX, ctx: &RouteCtx, pkt: &Packet, rng: &mut SimRng) -> Decision {
    let q = ctx.here();
    let port = min_ad_choice(hx, &q, ctx.router, pkt.dst_router, rng).port;
    let classes = hx.dims() as u32 + 1;
    let class = (1 + pkt.hops as u32).min(classes - 1);
    Decision::Forward { port, vc: vc_in_class_at(&q, port, class, classes) }
}

/// Routes a Valiant-phase packet with the two-phase DOR of VAL, mapping its phase to VC
/// classes 0 and 1 of `classes`.
pub(crate) fn route_valiant(hx: &HyperX, ctx: &RouteCtx, pkt: &mut Packet, classes: u32) -> Decision {
    match two_phase_dor(hx, ctx, pkt) {
        Decision::Forward { port, .. } => {
            Decision::Forward { port, vc: vc_in_class(&ctx.queues, ctx.router, port, pkt.phase as u32, classes) }
        }
        Decision::Wait => Decision::Wait,
    }
}

/// UGAL (greedy) or UGAL-S (sequential).
#[derive(Clone)]
pub(crate) struct Ugal {
    hx: HyperX,
    sequential: bool,
    threshold: i64,
}

impl Ugal {
    pub(crate) fn new(hx: &HyperX, sequential: bool, threshold: i64) -> Self {
        Ugal { hx: hx.clone(), sequential, threshold }
    }
}

impl Routing for Ugal {
    fn vcs_required(&self) -> u32 {
        self.hx.dims() as u32 + 1
    }
    fn default_allocator(&self) -> AllocatorMode {
        if self.sequential {
            AllocatorMode::Sequential
        } else {
            AllocatorMode::Greedy
        }
    }
    fn route(&self, ctx: &RouteCtx, pkt: &mut Packet, rng: &mut SimRng, note: &mut RouteNote) -> Decision {
        let hx = &self.hx;
        let classes = hx.dims() as u32 + 1;
        if pkt.intermediate == Packet::NONE {
            // The source decision.
            let (here, dst) = (ctx.router, pkt.dst_router);
            let min = min_ad_choice(hx, &ctx.here(), here, dst, rng);
            let (min_port, q_min, h_min) = (min.port, min.queue, min.hops);
            let via = rng.below(hx.routers());
            let h_nm = hx.distance(here, via) + hx.distance(via, dst);
            let first_target = if via == here { dst } else { via };
            let q_nm = ctx.queues.port_queue(here, dor_port(hx, &ctx.queues, here, first_target));
            *note = RouteNote::ugal(ctx.now, pkt, (q_min, h_min), (q_nm, h_nm), 0, self.threshold);
            if note.chose_minimal {
                pkt.intermediate = dst;
                pkt.phase = PHASE_MINIMAL;
                let vc = vc_in_class(&ctx.queues, here, min_port, 1 + pkt.hops as u32, classes);
                return Decision::Forward { port: min_port, vc };
            }
            pkt.intermediate = via;
            pkt.phase = 0;
            pkt.nonminimal = h_nm > h_min;
        }
        if pkt.phase == PHASE_MINIMAL {
            route_minimal(hx, ctx, pkt, rng)
        } else {
            route_valiant(hx, ctx, pkt, classes)
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::config::{RoutingConfig, TopologyConfig};
    use crate::routing::fixture::{port_of, rng_drawing_first, RouterState};
    use crate::routing::Decision;

    /// UGAL's source decision on the 4-ary 3-flat (FB paper §3.1): minimal iff
    /// `q_m·H_m ≤ q_nm·H_nm + threshold`. Router 0 = (0,0) sends to (1,1): H_m = 2, the
    /// minimal output is the dimension-0 port (its dimension-1 port is kept 10 flits longer);
    /// the intermediate router is fixed at (2,2), so H_nm = 4 and q_nm is the queue of the
    /// dimension-0 port towards x = 2.
    #[test]
    fn ugal_compares_queue_times_hops_with_a_threshold() {
        // (threshold, q_m, q_nm, minimal?, what the row checks)
        let rows: &[(i64, u32, u32, bool, &str)] = &[
            (0, 0, 0, true, "empty network: minimal"),
            (0, 8, 4, true, "tie 8·2 = 4·4: minimal (≤, not <)"),
            (0, 9, 4, false, "9·2 > 4·4: non-minimal wins"),
            (2, 9, 4, true, "threshold 2: 18 ≤ 16 + 2, minimal again"),
            (1, 9, 4, false, "threshold 1: 18 > 17, still non-minimal"),
            (-1, 8, 4, false, "a negative threshold turns the tie non-minimal"),
            (0, 20, 10, true, "tie at other values"),
            (0, 21, 10, false, "one flit over the tie"),
        ];
        for &(threshold, q_m, q_nm, minimal, what) in rows {
            let mut s = RouterState::new(TopologyConfig::flattened_butterfly(4, 3), 3, 32);
            let hx = s.topo.as_hyperx().unwrap().clone();
            let dst = hx.neighbor(hx.neighbor(0, 0, 1), 1, 1);
            let via = hx.neighbor(hx.neighbor(0, 0, 2), 1, 2);
            let (min_port, other_min, nm_port) =
                (hx.port_to(0, 0, 1, 0), hx.port_to(0, 1, 1, 0), hx.port_to(0, 0, 2, 0));
            s.set_queue(0, min_port, 0, q_m).set_queue(0, other_min, 0, q_m + 10).set_queue(0, nm_port, 0, q_nm);
            let ugal = s.routing("ugal", &RoutingConfig { ugal_threshold: threshold, ..Default::default() });
            let mut rng = rng_drawing_first(hx.routers(), via);
            let (decision, note, pkt) = s.route_at_source(&*ugal, s.packet_between(0, dst), &mut rng);
            assert_eq!((note.h_min, note.h_nonmin, note.q_min, note.q_nonmin), (2, 4, q_m, q_nm), "{what}: premise");
            assert_eq!(note.chose_minimal, minimal, "{what}");
            if minimal {
                assert_eq!(decision, Decision::Forward { port: min_port, vc: 1 }, "{what}: MIN AD hop on class 1");
                assert_eq!((pkt.intermediate, pkt.nonminimal), (dst, false), "{what}");
            } else {
                assert_eq!(decision, Decision::Forward { port: nm_port, vc: 0 }, "{what}: Valiant phase 0 on class 0");
                assert_eq!((pkt.intermediate, pkt.nonminimal), (via, true), "{what}");
            }
        }
    }

    /// UGAL-S decides by the same rule (only the allocator differs); a packet routed
    /// minimally keeps routing MIN AD at later hops (the shortest productive queue).
    #[test]
    fn ugal_s_same_rule_and_minimal_packets_stay_minimal_adaptive() {
        let mut s = RouterState::new(TopologyConfig::flattened_butterfly(4, 3), 3, 32);
        let hx = s.topo.as_hyperx().unwrap().clone();
        let dst = hx.neighbor(hx.neighbor(0, 0, 1), 1, 1);
        let via = hx.neighbor(hx.neighbor(0, 0, 2), 1, 2);
        let (min_port, other_min, nm_port) = (hx.port_to(0, 0, 1, 0), hx.port_to(0, 1, 1, 0), hx.port_to(0, 0, 2, 0));
        s.set_queue(0, min_port, 0, 9).set_queue(0, other_min, 0, 19).set_queue(0, nm_port, 0, 4);
        let ugal_s = s.routing("ugal_s", &RoutingConfig::default());
        let (_, note, _) = s.route_at_source(&*ugal_s, s.packet_between(0, dst), &mut rng_drawing_first(16, via));
        assert!(!note.chose_minimal, "18 > 16: non-minimal under UGAL-S too");
        // A minimal packet at its second router: the remaining productive port.
        let mut pkt = s.packet_between(0, dst);
        let (mid, in_port) = (hx.neighbor(0, 0, 1), hx.port_to(hx.neighbor(0, 0, 1), 0, 0, 0));
        pkt.intermediate = dst;
        pkt.phase = super::PHASE_MINIMAL;
        pkt.hops = 1;
        let ctx = s.ctx(mid, in_port, 1);
        let (d, _) = RouterState::decide(&*ugal_s, &ctx, &mut pkt, &mut rng_drawing_first(16, 0));
        assert_eq!(port_of(d), hx.port_to(mid, 1, 1, 0));
        assert_eq!(d, Decision::Forward { port: hx.port_to(mid, 1, 1, 0), vc: 2 }, "hop 1 on class 2");
    }
}
