//! Minimal routing on the HyperX family: dimension order (MIN/DOR) and minimal adaptive
//! (MIN AD, FB paper §3.1).
//!
//! VC classes: an algorithm that needs `c` VC classes for deadlock freedom may use every
//! VC of the port; VC `v` belongs to class `v mod c`, and within its class a packet takes
//! the VC with the most credits. The channel dependency graph stays acyclic because class
//! order is preserved, and spare VCs relieve head-of-line blocking.

use super::{
    network_of, wins_tie, Algorithm, Decision, Decisions, QueueView, RouteCtx, RouteNote, RouterQueues, Routing,
};
use crate::config::schema::Family;
use crate::config::AllocatorMode;
use crate::packet::Packet;
use crate::rng::SimRng;
use crate::topology::HyperX;

/// MIN (DOR): see [`Dor`].
pub(crate) const MIN: Algorithm = Algorithm {
    name: "min",
    decisions: Decisions::None,
    family: Family::HYPERX,
    description: "dimension-order minimal routing; shortest queue among parallel links (MIN/DOR)",
    params: &[],
    build: |_, topo| Ok(Box::new(Dor::new(network_of(topo)?))),
};

/// E-cube: dimension order on the hypercube, the same routing as [`MIN`].
pub(crate) const ECUBE: Algorithm = Algorithm {
    name: "ecube",
    description: "e-cube routing on the hypercube: dimension order (the same as min)",
    ..MIN
};

/// MIN AD: see [`MinAd`].
pub(crate) const MIN_AD: Algorithm = Algorithm {
    name: "min_ad",
    decisions: Decisions::None,
    family: Family::HYPERX,
    description: "minimal adaptive: productive channel with the shortest queue, VC by hops remaining (FB §3.1)",
    params: &[],
    build: |_, topo| Ok(Box::new(MinAd::new(network_of(topo)?))),
};

/// The VC of class `class` (of `classes`) with the most credits on `port`.
#[inline(always)]
pub(crate) fn vc_in_class(q: &QueueView, router: u32, port: u32, class: u32, classes: u32) -> u32 {
    if single_vc_class(q.vcs(), class, classes) {
        class
    } else {
        best_vc_in_class(q.output_credits(router, port), q.vcs(), class, classes)
    }
}

/// [`vc_in_class`] at a router whose queues are already looked up.
#[inline]
pub(crate) fn vc_in_class_at(q: &RouterQueues, port: u32, class: u32, classes: u32) -> u32 {
    if single_vc_class(q.vcs(), class, classes) {
        class
    } else {
        best_vc_in_class(q.output_credits(port), q.vcs(), class, classes)
    }
}

/// Whether VC class `class` has a single VC (e.g. as many VCs as classes): then it is
/// the class's VC, without reading credits.
#[inline]
fn single_vc_class(vcs: u32, class: u32, classes: u32) -> bool {
    class + classes >= vcs
}

/// The VC of class `class` with the most credits (the lowest on ties) among the `vcs`
/// VCs of an output with `credits` (`None`: a terminal output).
#[inline]
fn best_vc_in_class(credits: Option<&[u16]>, vcs: u32, class: u32, classes: u32) -> u32 {
    // A terminal output never runs out of credits: every VC ties, the lowest wins.
    let Some(credits) = credits else { return class };
    let mut best = class;
    let mut best_credits = credits[class as usize];
    let mut v = class + classes;
    while v < vcs {
        let c = credits[v as usize];
        if c > best_credits {
            best = v;
            best_credits = c;
        }
        v += classes;
    }
    best
}

/// Among the parallel (trunk) ports `first..first + trunks`, the one with the shortest
/// queue (lowest index on ties): (port, its queue estimate). A failed link's queue
/// estimate is endless (`FAILED_QUEUE`), so a working trunk wins while there is one.
#[inline]
pub(crate) fn shortest_trunk(q: &RouterQueues, first: u32, trunks: u32) -> (u32, u32) {
    shortest_of(first, q.port_queues(first, trunks))
}

/// The port with the shortest queue (lowest index on ties) among consecutive ports from
/// `first` whose queue estimates are `queues` (not empty).
#[inline]
pub(crate) fn shortest_of(first: u32, queues: &[u32]) -> (u32, u32) {
    let mut best = (first, queues[0]);
    for (port, &len) in (first + 1..).zip(&queues[1..]) {
        if len < best.1 {
            best = (port, len);
        }
    }
    best
}

/// The dimension-order next hop from `router` towards `target` (which must differ).
#[inline]
pub(crate) fn dor_port(hx: &HyperX, q: &QueueView, router: u32, target: u32) -> u32 {
    let ((&own, &m), dim) = hx
        .coords(router)
        .iter()
        .zip(hx.coords(target))
        .zip(hx.layout())
        .find(|((own, m), _)| own != m)
        .expect("target differs from router");
    let first = dim.port_toward(own as u32, m as u32);
    // With one link per switch pair there is no queue to compare.
    if dim.trunks == 1 {
        first
    } else {
        shortest_trunk(&q.router(router), first, dim.trunks).0
    }
}

/// MIN AD's choice at one router ([`min_ad_choice`]).
#[derive(Clone, Copy, Debug)]
pub(crate) struct MinAdChoice {
    /// The chosen productive output and its queue estimate.
    pub port: u32,
    pub queue: u32,
    /// Hops still to go: the number of offset dimensions (≥ 1).
    pub hops: u32,
}

/// The productive output with the shortest queue (MIN AD, FB §3.1), ties broken at random
/// (in port order, one draw per tie). A failed link's queue estimate is endless
/// (`FAILED_QUEUE`), so a working link wins while there is one (HyperX §6: "links
/// with hard errors are simply eliminated from the possible routing alternates"). `here`
/// must differ from `dst`.
#[inline(always)]
pub(crate) fn min_ad_choice(hx: &HyperX, q: &RouterQueues, here: u32, dst: u32, rng: &mut SimRng) -> MinAdChoice {
    let mut best = MinAdChoice { port: u32::MAX, queue: u32::MAX, hops: 0 };
    let mut ties = 0;
    for ((&own, &target), dim) in hx.coords(here).iter().zip(hx.coords(dst)).zip(hx.layout()) {
        if own == target {
            continue;
        }
        best.hops += 1;
        let first = dim.port_toward(own as u32, target as u32);
        for (port, &len) in (first..).zip(q.port_queues(first, dim.trunks)) {
            if len < best.queue {
                (best.port, best.queue) = (port, len);
                ties = 1;
            } else if len == best.queue {
                ties += 1;
                if wins_tie(rng, ties) {
                    best.port = port;
                }
            }
        }
    }
    debug_assert!(best.port != u32::MAX, "min_ad_choice at the destination router");
    best
}

/// MIN / DOR: correct offset dimensions in increasing order; among parallel links the
/// shortest queue. One VC class suffices (a dimension is crossed in one hop).
#[derive(Clone)]
pub(crate) struct Dor {
    hx: HyperX,
}

impl Dor {
    pub(crate) fn new(hx: &HyperX) -> Self {
        Dor { hx: hx.clone() }
    }
}

impl Routing for Dor {
    fn vcs_required(&self) -> u32 {
        1
    }
    fn route(&self, ctx: &RouteCtx, pkt: &mut Packet, _rng: &mut SimRng, _note: &mut RouteNote) -> Decision {
        let port = dor_port(&self.hx, &ctx.queues, ctx.router, pkt.dst_router);
        Decision::Forward { port, vc: vc_in_class_at(&ctx.here(), port, 0, 1) }
    }
}

/// MIN AD (FB paper §3.1): at every hop the productive channel with the shortest queue;
/// the VC class is the number of hops remaining minus one, so it strictly decreases along
/// the path (n' classes). Ties are broken at random so equal queues share load.
#[derive(Clone)]
pub(crate) struct MinAd {
    hx: HyperX,
}

impl MinAd {
    pub(crate) fn new(hx: &HyperX) -> Self {
        MinAd { hx: hx.clone() }
    }
}

impl Routing for MinAd {
    fn vcs_required(&self) -> u32 {
        self.hx.dims() as u32
    }
    fn default_allocator(&self) -> AllocatorMode {
        AllocatorMode::Greedy
    }
    fn route(&self, ctx: &RouteCtx, pkt: &mut Packet, rng: &mut SimRng, _note: &mut RouteNote) -> Decision {
        let q = ctx.here();
        let choice = min_ad_choice(&self.hx, &q, ctx.router, pkt.dst_router, rng);
        Decision::Forward {
            port: choice.port,
            vc: vc_in_class_at(&q, choice.port, choice.hops - 1, self.hx.dims() as u32),
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::config::{RoutingConfig, TopologyConfig};
    use crate::rng::SimRng;
    use crate::routing::fixture::{port_of, RouterState};
    use crate::routing::Decision;

    /// MIN (DOR) on HyperX S = (4, 4), K = 2: from (0, 0) to (1, 1) it corrects dimension 0
    /// first, over the parallel link with the shorter queue (the first on ties; a failed one
    /// never while the other works), on the VC with the most credits (the lowest on ties);
    /// at (1, 0) it takes dimension 1.
    #[test]
    fn dor_corrects_the_lowest_dimension_over_the_shortest_trunk() {
        /// Flits on trunk 0's VCs, on trunk 1's VCs, whether trunk 0 failed, the expected
        /// trunk and VC, what the row checks.
        type Row = ([u32; 2], [u32; 2], bool, (u32, u32), &'static str);
        let rows: &[Row] = &[
            ([0, 0], [0, 0], false, (0, 0), "empty: the first trunk, VC 0"),
            ([3, 0], [0, 0], false, (1, 0), "the second trunk's queue is shorter"),
            ([0, 2], [1, 0], false, (1, 1), "2 against 1 flits: trunk 1, whose VC 1 has more credits"),
            ([1, 1], [2, 0], false, (0, 0), "2 against 2: the first trunk, VCs tied: VC 0"),
            ([0, 0], [6, 6], true, (1, 0), "a failed trunk is never taken while the other works"),
        ];
        for &(t0, t1, failed, (trunk, vc), what) in rows {
            let mut s = RouterState::new(TopologyConfig::hyperx(vec![4, 4], vec![2], 1), 2, 8);
            let hx = s.topo.as_hyperx().unwrap().clone();
            let dst = hx.neighbor(hx.neighbor(0, 0, 1), 1, 1);
            for (t, flits) in [(0, t0), (1, t1)] {
                for (v, f) in flits.into_iter().enumerate() {
                    s.set_queue(0, hx.port_to(0, 0, 1, t), v as u32, f);
                }
            }
            if failed {
                s.fail(0, hx.port_to(0, 0, 1, 0));
            }
            let min = s.routing("min", &RoutingConfig::default());
            let (decision, _, _) = s.route_at_source(&*min, s.packet_between(0, dst), &mut SimRng::new(1, 2));
            assert_eq!(decision, Decision::Forward { port: hx.port_to(0, 0, 1, trunk), vc }, "{what}");
        }
        // One hop on, at (1, 0), only dimension 1 is left: its first trunk (both empty), on
        // VC 1 since VC 0 holds flits.
        let mut s = RouterState::new(TopologyConfig::hyperx(vec![4, 4], vec![2], 1), 2, 8);
        let hx = s.topo.as_hyperx().unwrap().clone();
        let (mid, dst) = (hx.neighbor(0, 0, 1), hx.neighbor(hx.neighbor(0, 0, 1), 1, 1));
        s.set_queue(mid, hx.port_to(mid, 1, 1, 0), 0, 2);
        s.set_queue(mid, hx.port_to(mid, 1, 1, 1), 0, 2);
        let min = s.routing("min", &RoutingConfig::default());
        let mut pkt = s.packet_between(0, dst);
        let ctx = s.ctx(mid, hx.port_to(mid, 0, 0, 0), 0);
        let (decision, _) = RouterState::decide(&*min, &ctx, &mut pkt, &mut SimRng::new(1, 2));
        assert_eq!(decision, Decision::Forward { port: hx.port_to(mid, 1, 1, 0), vc: 1 }, "at (1, 0)");
    }

    /// E-cube on the hypercube is dimension order: the lowest differing address bit first.
    #[test]
    fn ecube_flips_the_lowest_differing_bit() {
        let s = RouterState::new(TopologyConfig::hypercube(4), 1, 8);
        let hx = s.topo.as_hyperx().unwrap().clone();
        let ecube = s.routing("ecube", &RoutingConfig::default());
        for (src, dst) in [(0b0000, 0b1010), (0b0110, 0b0011), (0b1111, 0b0111)] {
            let lowest = (0..4).find(|d| (src ^ dst) >> d & 1 == 1).unwrap();
            let (decision, _, _) = s.route_at_source(&*ecube, s.packet_between(src, dst), &mut SimRng::new(1, 2));
            let want = hx.port_to(src, lowest, 1 - hx.coord(src, lowest), 0);
            assert_eq!(decision, Decision::Forward { port: want, vc: 0 }, "{src:04b} → {dst:04b}");
        }
    }

    /// MIN AD (FB paper §3.1) on the 4-ary 3-flat from (0, 0) to (1, 1): the productive
    /// output with the shorter queue, on VC class hops − 1 (1 at the source, 0 one hop
    /// before the destination); equal queues are shared at random; a failed productive
    /// link is never taken while the other works.
    #[test]
    fn min_ad_takes_the_shortest_productive_queue_on_the_class_of_hops_left() {
        let fresh = || RouterState::new(TopologyConfig::flattened_butterfly(4, 3), 2, 16);
        let hx = fresh().topo.as_hyperx().unwrap().clone();
        let dst = hx.neighbor(hx.neighbor(0, 0, 1), 1, 1);
        let (d0, d1) = (hx.port_to(0, 0, 1, 0), hx.port_to(0, 1, 1, 0));
        let decide = |s: &RouterState, seed: u64| {
            let min_ad = s.routing("min_ad", &RoutingConfig::default());
            s.route_at_source(&*min_ad, s.packet_between(0, dst), &mut SimRng::new(seed, 2)).0
        };
        // (queue on the dimension-0 output, on the dimension-1 output, expected port). One
        // of the queue's flits sits on VC 1, the VC of class 1, which the packet takes
        // although VC 0 has more credits.
        for (q0, q1, want, what) in [(5, 2, d1, "dimension 1 is shorter"), (1, 4, d0, "dimension 0 is shorter")] {
            let mut s = fresh();
            s.set_queue(0, d0, 0, q0 - 1).set_queue(0, d0, 1, 1).set_queue(0, d1, 0, q1 - 1).set_queue(0, d1, 1, 1);
            assert_eq!(decide(&s, 1), Decision::Forward { port: want, vc: 1 }, "{what}: class 1 with two hops left");
        }
        // A non-productive output's short queue is never taken.
        let mut s = fresh();
        s.set_queue(0, d0, 0, 3).set_queue(0, d1, 0, 3);
        let ports: std::collections::BTreeSet<u32> = (0..64).map(|seed| port_of(decide(&s, seed))).collect();
        assert_eq!(ports, [d0, d1].into(), "a tie is broken at random between the productive outputs");
        s.fail(0, d0);
        assert!((0..16).all(|seed| port_of(decide(&s, seed)) == d1), "the failed productive link is avoided");
        // One hop before the destination: class 0, although its VC holds flits.
        let mid = hx.neighbor(0, 0, 1);
        let mut s = fresh();
        s.set_queue(mid, hx.port_to(mid, 1, 1, 0), 0, 3);
        let min_ad = s.routing("min_ad", &RoutingConfig::default());
        let mut pkt = s.packet_between(0, dst);
        let ctx = s.ctx(mid, hx.port_to(mid, 0, 0, 0), 1);
        let (decision, _) = RouterState::decide(&*min_ad, &ctx, &mut pkt, &mut SimRng::new(1, 2));
        assert_eq!(decision, Decision::Forward { port: hx.port_to(mid, 1, 1, 0), vc: 0 });
    }
}
