//! Minimal routing on the HyperX family: dimension order (MIN/DOR) and minimal adaptive
//! (MIN AD, FB paper §3.1).
//!
//! VC classes: an algorithm that needs `c` VC classes for deadlock freedom may use every
//! VC of the port; VC `v` belongs to class `v mod c`, and within its class a packet takes
//! the VC with the most credits. The channel dependency graph stays acyclic because class
//! order is preserved, and spare VCs relieve head-of-line blocking.

use super::{Decision, QueueView, RouteCtx, RouteNote, Routing};
use crate::config::AllocatorMode;
use crate::rng::SimRng;
use crate::sim::Packet;
use crate::topology::HyperX;

/// The VC of class `class` (of `classes`) with the most credits on `port`.
#[inline]
pub fn vc_in_class(q: &QueueView, router: u32, port: u32, class: u32, classes: u32) -> u32 {
    // A terminal output never runs out of credits: every VC ties, the lowest wins.
    let Some(credits) = q.output_credits(router, port) else { return class };
    let mut best = class;
    let mut best_credits = credits[class as usize];
    let mut v = class + classes;
    while v < q.vcs() {
        let c = credits[v as usize];
        if c > best_credits {
            best = v;
            best_credits = c;
        }
        v += classes;
    }
    best
}

/// Among the `k` trunk ports towards coordinate `m` of dimension `d`, the one with the
/// shortest queue (lowest index on ties).
#[inline]
pub fn shortest_trunk(hx: &HyperX, q: &QueueView, router: u32, d: usize, m: u32) -> (u32, u32) {
    let first = hx.port_to(router, d, m, 0);
    let mut best = (first, q.port_queue(router, first));
    for trunk in 1..hx.k[d] {
        let p = first + trunk;
        let len = q.port_queue(router, p);
        if len < best.1 {
            best = (p, len);
        }
    }
    best
}

/// The dimension-order next hop from `router` towards `target` (which must differ).
#[inline]
pub fn dor_port(hx: &HyperX, q: &QueueView, router: u32, target: u32) -> u32 {
    let d = hx.first_offset_dim(router, target).expect("target differs from router");
    shortest_trunk(hx, q, router, d, hx.coord(target, d)).0
}

/// The productive output with the shortest queue (MIN AD, FB §3.1), ties broken at random:
/// (port, its queue estimate). `here` must differ from `dst`.
pub fn min_ad_choice(hx: &HyperX, q: &QueueView, here: u32, dst: u32, rng: &mut SimRng) -> (u32, u32) {
    let mut best = (u32::MAX, u32::MAX);
    let mut ties = 0;
    for d in 0..hx.dims() {
        let m = hx.coord(dst, d);
        if m == hx.coord(here, d) {
            continue;
        }
        let first = hx.port_to(here, d, m, 0);
        for p in first..first + hx.k[d] {
            let len = q.port_queue(here, p);
            if len < best.1 {
                best = (p, len);
                ties = 1;
            } else if len == best.1 {
                ties += 1;
                if rng.below(ties) == 0 {
                    best.0 = p;
                }
            }
        }
    }
    debug_assert!(best.0 != u32::MAX, "min_ad_choice at the destination router");
    best
}

/// MIN / DOR: correct offset dimensions in increasing order; among parallel links the
/// shortest queue. One VC class suffices (a dimension is crossed in one hop).
pub struct Dor {
    hx: HyperX,
}

impl Dor {
    pub fn new(hx: &HyperX) -> Self {
        Dor { hx: hx.clone() }
    }
}

impl Routing for Dor {
    fn vcs_required(&self) -> u32 {
        1
    }
    fn route(&self, ctx: &RouteCtx, pkt: &mut Packet, _rng: &mut SimRng, _note: &mut RouteNote) -> Decision {
        let port = dor_port(&self.hx, &ctx.queues, ctx.router, pkt.dst_router);
        Decision::Forward { port, vc: vc_in_class(&ctx.queues, ctx.router, port, 0, 1) }
    }
}

/// MIN AD (FB paper §3.1): at every hop the productive channel with the shortest queue;
/// the VC class is the number of hops remaining minus one, so it strictly decreases along
/// the path (n' classes). Ties are broken at random so equal queues share load.
pub struct MinAd {
    hx: HyperX,
}

impl MinAd {
    pub fn new(hx: &HyperX) -> Self {
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
        let (hx, here) = (&self.hx, ctx.router);
        let (port, _) = min_ad_choice(hx, &ctx.queues, here, pkt.dst_router, rng);
        let remaining = hx.distance(here, pkt.dst_router);
        Decision::Forward { port, vc: vc_in_class(&ctx.queues, here, port, remaining - 1, hx.dims() as u32) }
    }
}
