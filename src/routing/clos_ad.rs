//! CLOS AD, non-minimal adaptive routing in a flattened Clos (FB paper §3.1), and the
//! variant the HyperX paper (§3.3) compares DAL against.
//!
//! **CLOS AD (FB paper).** Like UGAL, the source router decides per packet between the
//! minimal path (MIN AD) and a non-minimal one by comparing `q_min·H_min` with
//! `q_nm·H_nm (+ threshold)`. A non-minimal packet is routed "as if it were adaptively
//! routing to the middle stage of a Clos network": it traverses the dimensions `0..=dmax`
//! in increasing order (dmax = the highest dimension in which source and destination
//! differ, so the intermediate is among the closest common ancestors and never farther),
//! and in each takes the channel with the shortest queue *or stays*, staying being a
//! "dummy queue". Once it has passed dimension dmax the router it is at is its
//! intermediate, and it routes to the destination in dimension order.
//!
//! Choices the paper leaves open, documented here:
//! - *The dummy queue.* Staying in dimension d costs no channel now; in an offset
//!   dimension the packet will then take the direct channel to the destination's
//!   coordinate later, so the dummy queue is that channel's queue; in an aligned dimension
//!   staying needs no channel at all and its dummy queue is 0 (moving would cost two
//!   extra hops). Ties, including with the dummy, are broken at random.
//! - *The source estimate of the non-minimal path.* `q_nm` is the queue of the first
//!   channel the up phase would take at the source (its first non-stay choice, in
//!   dimension d0), and `H_nm = H_min + 1` if d0 is offset, `H_min + 2` if aligned — the
//!   hop count of a path with that one deroute. If the up phase would stay everywhere the
//!   non-minimal path is the minimal one and the packet routes minimally.
//!
//! The sequential allocator is the default (FB §3.1).
//!
//! **CLOS AD as the HyperX paper describes it (`clos_ad_hx`).** "Chooses, at a packet's
//! source node, between dimension ordered minimal routing and non-minimal routing, based
//! on estimates of queuing delay. If it chooses to route non-minimally, Clos-AD routes to
//! a randomly chosen lowest common ancestor switch ... dimension ordered minimal paths from
//! source to intermediate and from intermediate to destination." Hence: minimal = DOR, the
//! intermediate is uniformly random in every dimension `≤ dmax` (and equal to the source
//! above), the estimate is UGAL's on the first-hop port queues. Sequential allocator.
//!
//! VC classes (deadlock freedom): the up phase (increasing dimensions, at most one hop
//! each) uses class 0, the DOR phase to the destination class 1, and a minimal packet's hop
//! h class `1 + h` (MIN AD) — `n' + 1` classes, as for UGAL (see `ugal.rs`); the HyperX
//! variant's minimal packets use DOR on class 1, so it needs only 2.

use super::hyperx_min::{dor_port, min_ad_choice, shortest_of, shortest_trunk, vc_in_class_at};
use super::ugal::{route_minimal, PHASE_MINIMAL};
use super::{network_of, Algorithm, Decision, Decisions, RouteCtx, RouteNote, RouterQueues, Routing, TrueQueue};
use crate::config::schema::Family;
use crate::config::AllocatorMode;
use crate::packet::Packet;
use crate::rng::SimRng;
use crate::topology::HyperX;

/// CLOS AD as the flattened butterfly paper describes it: see [`ClosAd`].
pub(crate) const CLOS_AD: Algorithm = Algorithm {
    name: "clos_ad",
    decisions: Decisions::QueueTimesHops {
        q: "q_nm = the shortest first-hop queue towards a closest common ancestor (including staying); sequential allocator",
        true_queue: TrueQueue::None,
    },
    family: Family::HYPERX,
    description: "CLOS AD: UGAL-like choice; non-minimal packets pick the closest common ancestor adaptively, with a stay queue (FB §3.1)",
    params: &["routing.ugal_threshold"],
    build: |cfg, topo| Ok(Box::new(ClosAd::new(network_of(topo)?, cfg.ugal_threshold))),
};

/// CLOS AD as the HyperX paper describes it: see [`ClosAdHx`].
pub(crate) const CLOS_AD_HX: Algorithm = Algorithm {
    name: "clos_ad_hx",
    decisions: Decisions::QueueTimesHops {
        q: "q_nm = first-hop queue towards a random closest common ancestor",
        true_queue: TrueQueue::None,
    },
    description: "CLOS AD as the HyperX paper describes it: random closest common ancestor, DOR (HyperX §3.3; 2 VCs)",
    build: |cfg, topo| Ok(Box::new(ClosAdHx::new(network_of(topo)?, cfg.ugal_threshold))),
    ..CLOS_AD
};

/// One step of the up phase at `here`, considering dimensions `from..=dmax`: the first
/// dimension whose shortest queue is a real channel rather than the dummy "stay" queue,
/// as (dimension, port, queue); `None` if the packet stays in all of them. `q` holds the
/// queues of `here`.
fn up_step(
    hx: &HyperX,
    q: &RouterQueues,
    here: u32,
    dst: u32,
    from: usize,
    dmax: usize,
    rng: &mut SimRng,
) -> Option<(usize, u32, u32)> {
    let (at, to) = (hx.coords(here), hx.coords(dst));
    for d in from..=dmax {
        let dim = &hx.layout()[d];
        let (own, target) = (at[d] as u32, to[d] as u32);
        let dummy = if own != target { shortest_trunk(q, dim.port_toward(own, target), dim.trunks).1 } else { 0 };
        let mut best: Option<u32> = None; // None = stay
        let mut best_q = dummy;
        let mut ties = 1;
        // Every other coordinate m ≠ own, in increasing order: its trunks are the next
        // `trunks` ports of the dimension.
        let trunks = q.port_queues(dim.first_port, dim.ports()).chunks_exact(dim.trunks as usize);
        for (first, trunk_queues) in (dim.first_port..).step_by(dim.trunks as usize).zip(trunks) {
            let (port, len) = shortest_of(first, trunk_queues);
            if len < best_q {
                best = Some(port);
                best_q = len;
                ties = 1;
            } else if len == best_q {
                ties += 1;
                if rng.below(ties) == 0 {
                    best = Some(port);
                }
            }
        }
        if let Some(port) = best {
            return Some((d, port, best_q));
        }
    }
    None
}

/// CLOS AD of the FB paper.
#[derive(Clone)]
pub(crate) struct ClosAd {
    hx: HyperX,
    threshold: i64,
}

impl ClosAd {
    pub(crate) fn new(hx: &HyperX, threshold: i64) -> Self {
        ClosAd { hx: hx.clone(), threshold }
    }

    fn classes(&self) -> u32 {
        self.hx.dims() as u32 + 1
    }

    /// Continues the up phase (from dimension `pkt.route_bits`) or, past it, routes to the
    /// destination in dimension order.
    fn route_nonminimal(&self, ctx: &RouteCtx, pkt: &mut Packet, rng: &mut SimRng) -> Decision {
        let hx = &self.hx;
        let q = ctx.here();
        if pkt.phase == 0 {
            let dmax = hx
                .highest_offset_dim(hx.network().inject_router(pkt.src), pkt.dst_router)
                .expect("source differs from destination");
            if let Some((d, port, _)) = up_step(hx, &q, ctx.router, pkt.dst_router, pkt.route_bits as usize, dmax, rng)
            {
                pkt.route_bits = d as u32 + 1;
                return Decision::Forward { port, vc: vc_in_class_at(&q, port, 0, self.classes()) };
            }
            pkt.phase = 1;
            pkt.intermediate = ctx.router;
        }
        let port = dor_port(hx, &ctx.queues, ctx.router, pkt.dst_router);
        Decision::Forward { port, vc: vc_in_class_at(&q, port, 1, self.classes()) }
    }
}

impl Routing for ClosAd {
    fn vcs_required(&self) -> u32 {
        self.classes()
    }
    fn default_allocator(&self) -> AllocatorMode {
        AllocatorMode::Sequential
    }
    fn route(&self, ctx: &RouteCtx, pkt: &mut Packet, rng: &mut SimRng, note: &mut RouteNote) -> Decision {
        let hx = &self.hx;
        if pkt.intermediate != Packet::NONE {
            return if pkt.phase == PHASE_MINIMAL {
                route_minimal(hx, ctx, pkt, rng)
            } else {
                self.route_nonminimal(ctx, pkt, rng)
            };
        }
        // The source decision.
        let (here, dst) = (ctx.router, pkt.dst_router);
        let q = ctx.here();
        let min = min_ad_choice(hx, &q, here, dst, rng);
        let (min_port, q_min, h_min) = (min.port, min.queue, min.hops);
        let dmax = hx.highest_offset_dim(here, dst).expect("source differs from destination");
        let up = up_step(hx, &q, here, dst, 0, dmax, rng);
        let (q_nm, h_nm) = match up {
            Some((d, _, len)) => (len, h_min + if hx.coord(here, d) != hx.coord(dst, d) { 1 } else { 2 }),
            None => (q_min, h_min),
        };
        *note = RouteNote::ugal(ctx.now, pkt, (q_min, h_min), (q_nm, h_nm), 0, self.threshold);
        note.chose_minimal |= up.is_none();
        if note.chose_minimal {
            pkt.intermediate = dst;
            pkt.phase = PHASE_MINIMAL;
            return Decision::Forward { port: min_port, vc: vc_in_class_at(&q, min_port, 1, self.classes()) };
        }
        let (d, port, _) = up.expect("non-minimal has a first hop");
        pkt.phase = 0;
        pkt.intermediate = here; // updated to the real intermediate when the up phase ends
        pkt.route_bits = d as u32 + 1;
        pkt.nonminimal = true;
        Decision::Forward { port, vc: vc_in_class_at(&q, port, 0, self.classes()) }
    }
}

/// CLOS AD as described by the HyperX paper §3.3 (random closest common ancestor, DOR).
#[derive(Clone)]
pub(crate) struct ClosAdHx {
    hx: HyperX,
    threshold: i64,
}

impl ClosAdHx {
    pub(crate) fn new(hx: &HyperX, threshold: i64) -> Self {
        ClosAdHx { hx: hx.clone(), threshold }
    }
}

impl Routing for ClosAdHx {
    fn vcs_required(&self) -> u32 {
        2
    }
    fn default_allocator(&self) -> AllocatorMode {
        AllocatorMode::Sequential
    }
    fn route(&self, ctx: &RouteCtx, pkt: &mut Packet, rng: &mut SimRng, note: &mut RouteNote) -> Decision {
        let hx = &self.hx;
        let q = &ctx.queues;
        if pkt.intermediate == Packet::NONE {
            let (here, dst) = (ctx.router, pkt.dst_router);
            let dmax = hx.highest_offset_dim(here, dst).expect("source differs from destination");
            let mut via = here;
            for d in 0..=dmax {
                via = hx.neighbor(via, d, rng.below(hx.s[d]));
            }
            let h_min = hx.distance(here, dst);
            let h_nm = hx.distance(here, via) + hx.distance(via, dst);
            let q_min = q.port_queue(here, dor_port(hx, q, here, dst));
            let q_nm = q.port_queue(here, dor_port(hx, q, here, if via == here { dst } else { via }));
            *note = RouteNote::ugal(ctx.now, pkt, (q_min, h_min), (q_nm, h_nm), 0, self.threshold);
            if note.chose_minimal {
                pkt.intermediate = dst;
                pkt.phase = 1;
            } else {
                pkt.intermediate = via;
                pkt.phase = 0;
                pkt.nonminimal = h_nm > h_min;
            }
        }
        super::valiant::two_phase_dor(hx, ctx, pkt)
    }
}

#[cfg(test)]
mod tests {
    use crate::config::{RoutingConfig, TopologyConfig};
    use crate::routing::fixture::{rng_drawing_first, RouterState};
    use crate::routing::Decision;

    /// CLOS AD's source decision (FB paper §3.1) on the 8-ary 2-flat, router 0 to router 1:
    /// the non-minimal candidate is the shortest channel of the up phase, where staying (the
    /// dummy queue: the direct channel's) counts as a candidate; a non-minimal candidate in
    /// the offset dimension has H_nm = H_m + 1 = 2. Minimal iff q_m·1 ≤ q_nm·2 + threshold.
    #[test]
    fn clos_ad_chooses_by_the_stay_queue_and_q_times_h() {
        // (threshold, direct queue, queue to router 5, other queues, non-minimal?, row)
        let rows: &[(i64, u32, u32, u32, bool, &str)] = &[
            (0, 0, 0, 0, false, "empty: minimal (no channel shorter than staying)"),
            (0, 10, 20, 20, false, "every channel longer than the stay queue: stay, minimal"),
            (0, 10, 4, 20, true, "10·1 > 4·2: non-minimal through the shortest channel"),
            (0, 8, 4, 20, false, "tie 8·1 = 4·2: minimal"),
            (2, 10, 4, 20, false, "threshold 2: 10 ≤ 8 + 2, minimal"),
            (1, 10, 4, 20, true, "threshold 1: 10 > 9, non-minimal"),
        ];
        for &(threshold, q_direct, q5, q_other, nonminimal, what) in rows {
            let mut s = RouterState::new(TopologyConfig::flattened_butterfly(8, 2), 2, 32);
            let hx = s.topo.as_hyperx().unwrap().clone();
            for m in 1..8 {
                let q = match m {
                    1 => q_direct,
                    5 => q5,
                    _ => q_other,
                };
                s.set_queue(0, hx.port_to(0, 0, m, 0), 0, q);
            }
            let clos = s.routing("clos_ad", &RoutingConfig { ugal_threshold: threshold, ..Default::default() });
            // Ties are drawn at random; the rows above avoid them except on the empty network.
            let (decision, note, pkt) = s.route_at_source(&*clos, s.packet_between(0, 1), &mut rng_drawing_first(8, 0));
            assert_eq!(!note.chose_minimal, nonminimal, "{what}");
            assert_eq!(pkt.nonminimal, nonminimal, "{what}");
            if nonminimal {
                assert_eq!((note.q_nonmin, note.h_nonmin), (q5, 2), "{what}");
                assert_eq!(
                    decision,
                    Decision::Forward { port: hx.port_to(0, 0, 5, 0), vc: 0 },
                    "{what}: up phase, class 0"
                );
                assert_eq!(pkt.route_bits, 1, "{what}: dimension 0 passed");
            } else if q_direct > 0 {
                assert_eq!(
                    decision,
                    Decision::Forward { port: hx.port_to(0, 0, 1, 0), vc: 1 },
                    "{what}: MIN AD, class 1"
                );
            }
        }
    }

    /// CLOS AD as the HyperX paper describes it: UGAL's comparison on the dimension-order
    /// first hops, towards a random closest common ancestor (fixed here at router 5).
    #[test]
    fn clos_ad_hx_compares_dimension_order_first_hops() {
        for (q_direct, q5, nonminimal) in [(8, 4, false), (9, 4, true)] {
            let mut s = RouterState::new(TopologyConfig::flattened_butterfly(8, 2), 2, 32);
            let hx = s.topo.as_hyperx().unwrap().clone();
            s.set_queue(0, hx.port_to(0, 0, 1, 0), 0, q_direct).set_queue(0, hx.port_to(0, 0, 5, 0), 0, q5);
            let clos = s.routing("clos_ad_hx", &RoutingConfig::default());
            let (decision, note, pkt) = s.route_at_source(&*clos, s.packet_between(0, 1), &mut rng_drawing_first(8, 5));
            assert_eq!((note.h_min, note.h_nonmin), (1, 2));
            assert_eq!(pkt.nonminimal, nonminimal, "q_m {q_direct}, q_nm {q5}");
            let port = hx.port_to(0, 0, if nonminimal { 5 } else { 1 }, 0);
            assert_eq!(crate::routing::fixture::port_of(decision), port);
        }
    }
}
