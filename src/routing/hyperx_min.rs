//! Minimal routing on the HyperX family: dimension order (MIN/DOR) and minimal adaptive
//! (MIN AD, FB paper §3.1).
//!
//! VC classes: an algorithm that needs `c` VC classes for deadlock freedom may use every
//! VC of the port; VC `v` belongs to class `v mod c`, and within its class a packet takes
//! the VC with the most credits. The channel dependency graph stays acyclic because class
//! order is preserved, and spare VCs relieve head-of-line blocking.

use super::{hyperx, wins_tie, Algorithm, Decision, Decisions, QueueView, RouteCtx, RouteNote, RouterQueues, Routing};
use crate::config::schema::Family;
use crate::config::AllocatorMode;
use crate::packet::Packet;
use crate::rng::SimRng;
use crate::topology::HyperX;

/// MIN (DOR): see [`Dor`].
pub(crate) const MIN: Algorithm = Algorithm {
    name: "min",
    decisions: Decisions::None,
    family: Family::HyperX,
    description: "dimension-order minimal routing; shortest queue among parallel links (MIN/DOR)",
    params: &[],
    build: |_, topo| Ok(Box::new(Dor::new(hyperx(topo)?))),
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
    family: Family::HyperX,
    description: "minimal adaptive: productive channel with the shortest queue, VC by hops remaining (FB §3.1)",
    params: &[],
    build: |_, topo| Ok(Box::new(MinAd::new(hyperx(topo)?))),
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
