//! Routing on the dragonfly (dragonfly paper §4): MIN, VAL and the UGAL family —
//! UGAL-L, UGAL-G (§4.2), UGAL-L_VC, UGAL-L_VCH and UGAL-L_CR (§4.3).
//!
//! **Paths (§4.1).** A minimal packet crosses one global channel: (1) if its router has
//! no channel to the destination group, a local hop to a router that has one, (2) the
//! global hop, (3) a local hop to the destination router. A non-minimal (Valiant) packet
//! does the same towards a random *intermediate group* first, then minimally to its
//! destination (steps 1–5, at most two global channels). The intermediate group is drawn
//! uniformly among the groups other than the source and the destination group, so every
//! non-minimal path really crosses two global channels (VAL is then exactly the
//! 2-global-hop load balancer whose throughput bound is 50 %); packets whose source and
//! destination share a group also travel through an intermediate group under VAL. When
//! two groups are joined by several channels (`g < ah + 1`), a router that owns one of
//! them uses it (the shortest queue among its own), otherwise the gateway is drawn at
//! random among them.
//!
//! **VCs (Fig. 7).** Non-minimal: VC0 on the source-group local hop and the first global
//! hop, VC1 on the intermediate-group local hop and the second global hop, VC2 on the
//! destination-group local hop. Minimal paths, when mixed with non-minimal ones, use the
//! same classes as the second half of a non-minimal path: VC1 (source-group local), VC1
//! (global), VC2 (destination-group local). MIN alone needs only 2 VCs (classes shifted
//! down by one); everything else needs 3. With more VCs, VC `v` belongs to class
//! `v mod classes` and a packet takes the VC of its class with the most credits.
//!
//! **UGAL decisions** are made once, at the source router, per packet: route minimally
//! iff `q_m·H_m ≤ q_nm·H_nm + threshold` (`routing.ugal_threshold`, default 0), where `H`
//! is the router-to-router hop count of the path (the non-minimal one estimated with the
//! first gateway when several exist) and `q` is, per algorithm:
//! - **UGAL-L**: the queue estimate (SPEC.md §1) of the first-hop output port of each path;
//! - **UGAL-G**: the queue of the *global channel* each path would use, read at the router
//!   that owns it — the ideal of §4.2 (for a packet staying in its group, whose minimal
//!   path has no global channel, the minimal first-hop port queue);
//! - **UGAL-L_VC** (§4.3.1): per-VC-class queues of the first-hop outputs: the class the
//!   minimal path uses there (VC1; VC2 for a packet staying in its group) vs VC0;
//! - **UGAL-L_VCH**: port-level queues when the two first-hop outputs differ, VC-level
//!   (as UGAL-L_VC) when they are the same port;
//! - **UGAL-L_CR** (§4.3.2): the UGAL-L_VCH rule, with the routers delaying upstream credits
//!   by the excess credit round trip of the output a flit leaves for (see
//!   [`CrParams`] and `src/sim/credit_rtt.rs`).
//!
//! The numbers behind every UGAL decision go to the router's [`RouteNote`]; `q_true` is
//! the true queue of the minimal path's global channel (what UGAL-G would have used).

use super::hyperx_min::vc_in_class;
use super::{CrParams, Decision, QueueView, RouteCtx, RouteNote, Routing};
use crate::config::RoutingConfig;
use crate::rng::SimRng;
use crate::sim::Packet;
use crate::topology::Dragonfly;

/// The algorithms of this family.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DfAlgorithm {
    Min,
    Val,
    UgalL,
    UgalG,
    UgalLVc,
    UgalLVch,
    UgalLCr,
}

impl DfAlgorithm {
    /// Catalog name → algorithm.
    pub fn from_name(name: &str) -> Option<DfAlgorithm> {
        Some(match name {
            "min" => DfAlgorithm::Min,
            "val" => DfAlgorithm::Val,
            "ugal_l" => DfAlgorithm::UgalL,
            "ugal_g" => DfAlgorithm::UgalG,
            "ugal_l_vc" => DfAlgorithm::UgalLVc,
            "ugal_l_vch" => DfAlgorithm::UgalLVch,
            "ugal_l_cr" => DfAlgorithm::UgalLCr,
            _ => return None,
        })
    }
}

/// Builds the dragonfly algorithm `cfg.algorithm` names (which must be one of this family).
pub fn build(cfg: &RoutingConfig, df: &Dragonfly) -> Box<dyn Routing> {
    let alg = DfAlgorithm::from_name(&cfg.algorithm).expect("a dragonfly algorithm");
    let cr = CrParams { crt0: cfg.crt0, granularity: cfg.cr_granularity.max(1) };
    Box::new(DragonflyRouting::new(df, alg, cfg.ugal_threshold, cr))
}

/// The first hop towards another group, and the global channel it leads to.
#[derive(Clone, Copy, Debug)]
struct Hop {
    /// Output port at the current router.
    port: u32,
    /// Router owning the global channel, and its port there.
    gateway: u32,
    gport: u32,
    /// Router the global channel lands on.
    landing: u32,
}

pub struct DragonflyRouting {
    df: Dragonfly,
    alg: DfAlgorithm,
    threshold: i64,
    cr: Option<CrParams>,
}

impl DragonflyRouting {
    pub fn new(df: &Dragonfly, alg: DfAlgorithm, threshold: i64, cr: CrParams) -> Self {
        DragonflyRouting { df: df.clone(), alg, threshold, cr: (alg == DfAlgorithm::UgalLCr).then_some(cr) }
    }

    fn classes(&self) -> u32 {
        if self.alg == DfAlgorithm::Min { 2 } else { 3 }
    }

    /// The hop from `here` towards group `target ≠ group(here)`.
    #[inline]
    fn toward_group(&self, q: &QueueView, here: u32, target: u32, rng: &mut SimRng) -> Hop {
        let df = &self.df;
        let (grp, idx) = (df.group(here), df.index(here));
        let slots = df.slots_between(grp, target);
        let net = q.net;
        if let [c] = *slots {
            // One channel per group pair (g = ah + 1): no choice to make.
            let (gateway, gport) = df.slot_owner(grp, c);
            let port = if gateway == here { gport } else { df.local_port(idx, df.index(gateway)) };
            return Hop { port, gateway, gport, landing: net.port(gateway, gport).peer_router };
        }
        let mut own: Option<(u32, u32)> = None;
        for &c in slots {
            if c / df.h == idx {
                let port = df.global_port(c % df.h);
                let len = q.port_queue(here, port);
                if own.is_none_or(|(_, best)| len < best) {
                    own = Some((port, len));
                }
            }
        }
        if let Some((port, _)) = own {
            return Hop { port, gateway: here, gport: port, landing: net.port(here, port).peer_router };
        }
        let c = if slots.len() == 1 { slots[0] } else { slots[rng.below(slots.len() as u32) as usize] };
        let (gateway, gport) = df.slot_owner(grp, c);
        Hop { port: df.local_port(idx, df.index(gateway)), gateway, gport, landing: net.port(gateway, gport).peer_router }
    }

    /// Estimated router-to-router hops from `from` to `dst` on a minimal path (first
    /// gateway when several exist; the router's own channel when it has one).
    fn hops_from(&self, q: &QueueView, from: u32, dst: u32) -> u32 {
        let df = &self.df;
        let (grp, gd) = (df.group(from), df.group(dst));
        if grp == gd {
            return (from != dst) as u32;
        }
        let slots = df.slots_between(grp, gd);
        let c = slots.iter().copied().find(|&c| c / df.h == df.index(from)).unwrap_or(slots[0]);
        let (gateway, gport) = df.slot_owner(grp, c);
        (gateway != from) as u32 + 1 + (q.net.port(gateway, gport).peer_router != dst) as u32
    }

    /// Queue estimate of VC class `class` of an output: the sum over its VCs.
    #[inline]
    fn class_queue(&self, q: &QueueView, router: u32, port: u32, class: u32) -> u32 {
        let classes = self.classes();
        let out = q.output(router, port);
        let mut v = class;
        let mut sum = 0;
        while v < q.vcs() {
            sum += out.vc_queue(v);
            v += classes;
        }
        sum
    }

    /// The source-router decision; returns the first output and its VC class (Fig. 7).
    fn decide_at_source(&self, ctx: &RouteCtx, pkt: &mut Packet, rng: &mut SimRng, note: &mut RouteNote) -> (u32, u32) {
        let df = &self.df;
        let q = &ctx.queues;
        let here = ctx.router;
        let (gs, gd) = (df.group(here), df.group(pkt.dst_router));
        let (min, h_min, min_class) = if gs == gd {
            let port = df.local_port(df.index(here), df.index(pkt.dst_router));
            (Hop { port, gateway: u32::MAX, gport: 0, landing: pkt.dst_router }, 1, 2)
        } else {
            let hop = self.toward_group(q, here, gd, rng);
            (hop, (hop.gateway != here) as u32 + 1 + (hop.landing != pkt.dst_router) as u32, 1)
        };
        let candidates = df.g - if gs == gd { 1 } else { 2 };
        if self.alg == DfAlgorithm::Min || candidates == 0 {
            return (min.port, min_class);
        }
        // Intermediate group: uniform among the groups other than gs and gd.
        let (lo, hi) = (gs.min(gd), gs.max(gd));
        let mut gi = rng.below(candidates);
        if gi >= lo {
            gi += 1;
        }
        if gs != gd && gi >= hi {
            gi += 1;
        }
        let nm = self.toward_group(q, here, gi, rng);
        let go_nonminimal = |pkt: &mut Packet| {
            pkt.intermediate = gi;
            pkt.phase = 0;
            pkt.nonminimal = true;
            (nm.port, 0)
        };
        if self.alg == DfAlgorithm::Val {
            return go_nonminimal(pkt);
        }
        let h_nm = (nm.gateway != here) as u32 + 1 + self.hops_from(q, nm.landing, pkt.dst_router);
        let global_min = if gs == gd { q.port_queue(here, min.port) } else { q.port_queue(min.gateway, min.gport) };
        let vc_level = || (self.class_queue(q, here, min.port, min_class), self.class_queue(q, here, nm.port, 0));
        let (q_min, q_nm) = match self.alg {
            DfAlgorithm::UgalL => (q.port_queue(here, min.port), q.port_queue(here, nm.port)),
            DfAlgorithm::UgalG => (global_min, q.port_queue(nm.gateway, nm.gport)),
            DfAlgorithm::UgalLVc => vc_level(),
            DfAlgorithm::UgalLVch | DfAlgorithm::UgalLCr => {
                if min.port != nm.port {
                    (q.port_queue(here, min.port), q.port_queue(here, nm.port))
                } else {
                    vc_level()
                }
            }
            DfAlgorithm::Min | DfAlgorithm::Val => unreachable!(),
        };
        *note = RouteNote::ugal(ctx.now, pkt, (q_min, h_min), (q_nm, h_nm), if gs == gd { 0 } else { global_min }, self.threshold);
        if note.chose_minimal {
            (min.port, min_class)
        } else {
            go_nonminimal(pkt)
        }
    }

    /// Next hop of a packet already on its way; advances the Valiant phase on reaching
    /// the intermediate group.
    #[inline]
    fn next_hop(&self, q: &QueueView, here: u32, pkt: &mut Packet, rng: &mut SimRng) -> (u32, u32) {
        let df = &self.df;
        let (grp, gd) = (df.group(here), df.group(pkt.dst_router));
        // Phase 0 first: a non-minimal packet between two routers of one group leaves
        // its group before it may head for the destination.
        if pkt.phase == 0 && pkt.intermediate != Packet::NONE {
            if grp == pkt.intermediate {
                pkt.phase = 1;
            } else {
                return (self.toward_group(q, here, pkt.intermediate, rng).port, 0);
            }
        }
        if grp == gd {
            return (df.local_port(df.index(here), df.index(pkt.dst_router)), 2);
        }
        (self.toward_group(q, here, gd, rng).port, 1)
    }
}

impl Routing for DragonflyRouting {
    fn vcs_required(&self) -> u32 {
        self.classes()
    }
    fn credit_round_trip(&self) -> Option<CrParams> {
        self.cr
    }
    fn route(&self, ctx: &RouteCtx, pkt: &mut Packet, rng: &mut SimRng, note: &mut RouteNote) -> Decision {
        let (port, class) = if pkt.hops == 0 && pkt.route_bits == 0 {
            pkt.route_bits = 1;
            self.decide_at_source(ctx, pkt, rng, note)
        } else {
            self.next_hop(&ctx.queues, ctx.router, pkt, rng)
        };
        let classes = self.classes();
        let class = class + classes - 3; // MIN: Fig. 7 classes 1, 2 become 0, 1.
        Decision::Forward { port, vc: vc_in_class(&ctx.queues, ctx.router, port, class, classes) }
    }
}
