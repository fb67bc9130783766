//! Routing on the dragonfly (dragonfly paper §4): MIN, VAL and the UGAL family —
//! UGAL-L, UGAL-G (§4.2), UGAL-L_VC, UGAL-L_VCH and UGAL-L_CR (§4.3).
//!
//! **Paths (§4.1).** A minimal packet crosses one global channel: (1) if its router has
//! no channel to the destination group, a local hop to a router that has one, (2) the
//! global hop, (3) a local hop to the destination router. A non-minimal (Valiant) packet
//! does the same towards a random *intermediate group* first, then minimally to its
//! destination (steps 1–5, at most two global channels). The intermediate group is drawn
//! at the source router per `routing.intermediate_group`: uniformly among all `g` groups
//! (`any`, the default and the paper's reading: its steps "If Gs ≠ Gi …" and "If Gi ≠ Gd
//! …" are written for an intermediate group that may be the source or the destination
//! group, whose packet then travels minimally; on group shift that crowds 2 in `g` of
//! UGAL's packets onto the minimal channel), or among the groups other than the source and
//! the destination group (`other`: every non-minimal path crosses two global channels,
//! the 2-global-hop load balancer of footnote 7's 50 % bound). docs/faithfulness.md gives
//! what each choice measures. UGAL's
//! non-minimal candidate is drawn by the same rule; a candidate that coincides with the
//! minimal path is taken without a comparison. Packets whose source and destination share
//! a group also travel through an intermediate group under VAL. When
//! two groups are joined by several channels (`g < ah + 1`), a router that owns one of
//! them uses it (the shortest queue among its own), otherwise the gateway is drawn at
//! random among them.
//!
//! **Groups that are not fully connected** (§3.2, Fig. 6): in a flattened-butterfly group
//! every local segment of a path (to the gateway, to the destination) takes the
//! dimension-order route inside the group, one or more hops, all in the segment's VC class;
//! hop counts count them. Dimension order is acyclic inside a group, and the classes still
//! rise from segment to segment, so the VCs below stay deadlock-free. Where the gateway is
//! drawn among several (`g < ah + 1`), a router draws again at every hop of the segment,
//! but only among the nearest gateways its dimension-ordered route can still reach (after
//! a hop in dimension d, those agreeing with it in dimensions 0..=d), so the segment stays
//! dimension-ordered and gets closer to a gateway at every hop.
//!
//! **Failed links** (HyperX §6 applied here): MIN and VAL keep their paths (the group
//! pair's channels are all they choose among) and a packet they route onto a failed link is
//! counted unroutable. The UGAL family routes only over paths that work end to end: at the
//! source it checks both candidates' links (the minimal path, and the non-minimal one on to
//! any working channel from the landing router's group),
//! draws up to [`MAX_REDRAWS`] more intermediate groups for a working non-minimal path
//! (and, when neither path works after them, takes the first intermediate group in order
//! that gives one), and takes the working one without a comparison when only one works.
//! Where a router chooses among several channels to a group, it chooses among the working
//! ones. **Gateway fallback:** a router whose own channels to a group have all failed sends
//! a packet that reached it over a terminal or global channel to another gateway of its
//! group over a local hop — the first of the packet's segment in this group, in the
//! segment's VC class, as from a router that owns no channel there; in a
//! flattened-butterfly group also a packet passing through on its dimension-ordered way
//! (see [`DragonflyRouting::fallback`]). So MIN and VAL lose a packet only when no channel
//! of the group pair works, or when a gateway's channel fails while a packet is on its way
//! to it through a fully connected group (counted unroutable).
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
//! - **UGAL-L**: the queue estimate ([`QueueView`]) of the first-hop output port of each path;
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

use super::hyperx_min::vc_in_class_at;
use super::{network_of, Algorithm, CrParams, Decision, Decisions, QueueView, RouteCtx, RouteNote, Routing, TrueQueue};
use crate::config::schema::Family;
use crate::config::{ConfigErrors, IntermediateGroup, RoutingConfig};
use crate::packet::Packet;
use crate::rng::SimRng;
use crate::topology::{Dragonfly, LinkClass, Topology};

/// Intermediate groups UGAL draws at most, beyond the first, looking for a non-minimal
/// path that works when links have failed.
const MAX_REDRAWS: u32 = 8;

/// The algorithms of this family.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum DfAlgorithm {
    Min,
    Val,
    UgalL,
    UgalG,
    UgalLVc,
    UgalLVch,
    UgalLCr,
}

/// Dragonfly minimal routing (§4.1).
pub(crate) const MIN: Algorithm = Algorithm {
    name: "min",
    decisions: Decisions::None,
    family: Family::DRAGONFLY,
    description: "dragonfly minimal: local, global, local hop (dragonfly §4.1; 2 VCs)",
    params: &[],
    build: |cfg, topo| build(DfAlgorithm::Min, cfg, topo),
};
/// Dragonfly Valiant routing (§4.1).
pub(crate) const VAL: Algorithm = Algorithm {
    name: "val",
    description: "dragonfly Valiant: via a random intermediate group (dragonfly §4.1; 3 VCs, Fig. 7)",
    build: |cfg, topo| build(DfAlgorithm::Val, cfg, topo),
    ..MIN
};
/// UGAL-L (§4.2).
pub(crate) const UGAL_L: Algorithm = Algorithm {
    name: "ugal_l",
    decisions: Decisions::QueueTimesHops {
        q: "q = occupancy of each path’s local first-hop output port, all the source router can sense",
        true_queue: TrueQueue::Compare,
    },
    description: "UGAL-L: MIN vs VAL at the source by q·H of the local first-hop queues (dragonfly §4.2)",
    params: &["routing.ugal_threshold"],
    build: |cfg, topo| build(DfAlgorithm::UgalL, cfg, topo),
    ..MIN
};
/// UGAL-G (§4.2).
pub(crate) const UGAL_G: Algorithm = Algorithm {
    name: "ugal_g",
    decisions: Decisions::QueueTimesHops {
        q: "q = queue of the global channel each path would take, read at the router that owns it (the ideal)",
        true_queue: TrueQueue::Read,
    },
    description: "UGAL-G: MIN vs VAL by q·H of the global channels' own queues, the ideal (dragonfly §4.2)",
    build: |cfg, topo| build(DfAlgorithm::UgalG, cfg, topo),
    ..UGAL_L
};
/// UGAL-L_VC (§4.3.1).
pub(crate) const UGAL_L_VC: Algorithm = Algorithm {
    name: "ugal_l_vc",
    decisions: Decisions::QueueTimesHops {
        q: "q = occupancy of the first-hop VC: VC 1 (minimal) vs VC 0 (non-minimal)",
        true_queue: TrueQueue::Compare,
    },
    description: "UGAL-L_VC: per-VC queues, q(VC1) minimal vs q(VC0) non-minimal (dragonfly §4.3.1)",
    build: |cfg, topo| build(DfAlgorithm::UgalLVc, cfg, topo),
    ..UGAL_L
};
/// UGAL-L_VCH (§4.3.1).
pub(crate) const UGAL_L_VCH: Algorithm = Algorithm {
    name: "ugal_l_vch",
    decisions: Decisions::QueueTimesHops {
        q: "port queues when the paths leave on different ports, VC queues when on the same port",
        true_queue: TrueQueue::Compare,
    },
    description: "UGAL-L_VCH: port queues, VC queues when both paths start on the same port (dragonfly §4.3.1)",
    build: |cfg, topo| build(DfAlgorithm::UgalLVch, cfg, topo),
    ..UGAL_L
};
/// UGAL-L_CR (§4.3.2).
pub(crate) const UGAL_L_CR: Algorithm = Algorithm {
    name: "ugal_l_cr",
    decisions: Decisions::QueueTimesHops {
        q: "as UGAL-L_VCH, but credits come back late by the measured credit round-trip excess t_d, so congested paths look fuller sooner",
        true_queue: TrueQueue::Compare,
    },
    description: "UGAL-L_CR: UGAL-L_VCH plus credit round-trip sensing and delayed credits (dragonfly §4.3.2)",
    params: &["routing.ugal_threshold", "routing.crt0", "routing.cr_granularity"],
    build: |cfg, topo| build(DfAlgorithm::UgalLCr, cfg, topo),
    ..MIN
};

/// Builds algorithm `alg` of this family (each declaration above names its own) for the
/// dragonfly `topo`.
fn build(alg: DfAlgorithm, cfg: &RoutingConfig, topo: &Topology) -> Result<Box<dyn Routing>, ConfigErrors> {
    let df: &Dragonfly = network_of(topo)?;
    let cr = CrParams { crt0: cfg.crt0, granularity: cfg.cr_granularity.max(1) };
    Ok(Box::new(DragonflyRouting::new(df, alg, cfg.ugal_threshold, cr).with_intermediate(cfg.intermediate_group)))
}

/// A global channel seen from its source group (§4.1 step 2: from `R_a` to `R_b`).
#[derive(Clone, Copy, Debug)]
struct GlobalChannel {
    /// Router owning the channel (`R_a`), and the channel's port there.
    gateway: u32,
    gport: u32,
    /// The channel's port id in the per-port arrays, to read its queue at the gateway.
    id: u32,
    /// Router the channel lands on in the target group (`R_b`).
    landing: u32,
}

impl GlobalChannel {
    /// Stands for the channel of a path that has none (never read).
    const NONE: GlobalChannel = GlobalChannel { gateway: u32::MAX, gport: u32::MAX, id: u32::MAX, landing: u32::MAX };

    /// Router-to-router hops of the minimal path from `from` (in the channel's source
    /// group) to `dst` (in its target group) through this channel: §4.1 steps 1–3.
    #[inline]
    fn path_hops(&self, df: &Dragonfly, from: u32, dst: u32) -> u32 {
        local_hops(df, from, self.gateway) + 1 + local_hops(df, self.landing, dst)
    }
}

/// Local hops between two routers of one group (§3.2: several in a flattened-butterfly
/// group); a fully connected group compares the router ids, sparing the hot path of UGAL's
/// hop counts two table lookups.
#[inline]
fn local_hops(df: &Dragonfly, a: u32, b: u32) -> u32 {
    if df.intra.len() <= 1 {
        (a != b) as u32
    } else {
        df.local_hops(df.index(a), df.index(b))
    }
}

/// The first hop towards another group, and the global channel it leads to (in the
/// [`ExitTable`]; a port and a reference, so that it travels in registers).
#[derive(Clone, Copy, Debug)]
struct Hop<'a> {
    /// Output port at the current router: the channel's own port when the router is the
    /// gateway, else the local port to the gateway (§4.1 step 1).
    port: u32,
    channel: &'a GlobalChannel,
}

/// How one router leaves its group for one other group (§4.1 steps 1–2), precomputed
/// for every (router, target group) pair so that routing a packet there costs a table
/// lookup, plus queue reads or a random draw when there is a choice (`g < ah + 1` only).
/// Eight bytes, so the table of the paper's 1K network (70 KB) stays in cache.
#[derive(Clone, Copy, Debug)]
struct Exit {
    /// The router's output port towards the first candidate: the only one when
    /// `count == 1` (always the case with `g = ah + 1`), the one UGAL's hop-count estimate
    /// uses otherwise.
    port: u16,
    /// The candidate channels, `channels[first..first + count]` of the [`ExitTable`]:
    /// - the router's own channels to the target group when it has any; with several it
    ///   takes the one whose port has the shortest queue (the first on ties);
    /// - else every channel of its group to the target group; with several the gateway
    ///   is drawn uniformly at random and reached over a local hop.
    ///
    /// `count == 0` marks the router's own group (never looked up).
    count: u16,
    first: u32,
}

/// The [`Exit`] of every (router, target group) pair, and the channels they choose among:
/// `a·g·g` exits and `g·a·h` channels per slice (channel slicing: each slice its own).
#[derive(Clone)]
struct ExitTable {
    /// `exits[router·g + target]`.
    exits: Vec<Exit>,
    /// For every ordered pair of groups `(G, T)`, the channels from `G` to `T` in the
    /// order of [`Dragonfly::slots_between`], so that a router's own channels among them
    /// are contiguous.
    channels: Vec<GlobalChannel>,
    /// Where each pair's channels are in `channels`: `(first, count)` at
    /// `pairs[(slice·g + G)·g + T]` (the gateway fallback's candidates).
    pairs: Vec<(u32, u32)>,
}

impl ExitTable {
    fn new(df: &Dragonfly) -> ExitTable {
        let (a, g) = (df.a, df.g);
        let net = df.network();
        let home = Exit { port: u16::MAX, count: 0, first: 0 };
        let mut exits = vec![home; (df.routers() * g) as usize];
        let mut channels = Vec::with_capacity((df.slices * g * a * df.h) as usize);
        let mut pairs = vec![(0, 0); (df.slices * g * g) as usize];
        for (slice, grp) in (0..df.slices).flat_map(|s| (0..g).map(move |grp| (s, grp))) {
            let base = df.slice_base(slice);
            for target in (0..g).filter(|&t| t != grp) {
                let group_first = channels.len() as u32;
                let slots = df.slots_between(grp, target);
                pairs[((slice * g + grp) * g + target) as usize] = (group_first, slots.len() as u32);
                channels.extend(slots.iter().map(|&c| {
                    let (gateway, gport) = df.slot_owner(grp, c);
                    let gateway = base + gateway;
                    GlobalChannel {
                        gateway,
                        gport,
                        id: net.port_id(gateway, gport) as u32,
                        landing: net.port(gateway, gport).peer_router,
                    }
                }));
                for i in 0..a {
                    let owned_by_i = |c: u32| c / df.h == i;
                    let own = slots.iter().filter(|&&c| owned_by_i(c)).count() as u32;
                    let (first, count) = match slots.iter().position(|&c| owned_by_i(c)) {
                        Some(at) => (group_first + at as u32, own),
                        None => (group_first, slots.len() as u32),
                    };
                    let channel = channels[first as usize];
                    let port = if own > 0 { channel.gport } else { df.local_port(i, df.index(channel.gateway)) };
                    let (port, count) =
                        (u16::try_from(port).expect("radix < 2^16"), u16::try_from(count).expect("radix < 2^16"));
                    exits[((base + grp * a + i) * g + target) as usize] = Exit { port, count, first };
                }
            }
        }
        ExitTable { exits, channels, pairs }
    }

    /// The first candidate channel of `exit`.
    #[inline]
    fn channel(&self, exit: &Exit) -> &GlobalChannel {
        &self.channels[exit.first as usize]
    }

    /// The hop through the first candidate of `exit`.
    #[inline]
    fn hop(&self, exit: &Exit) -> Hop<'_> {
        Hop { port: exit.port as u32, channel: self.channel(exit) }
    }

    /// Every candidate channel of `exit`.
    fn candidates(&self, exit: &Exit) -> &[GlobalChannel] {
        &self.channels[exit.first as usize..exit.first as usize + exit.count as usize]
    }
}

#[derive(Clone)]
pub(crate) struct DragonflyRouting {
    df: Dragonfly,
    alg: DfAlgorithm,
    threshold: i64,
    cr: Option<CrParams>,
    intermediate: IntermediateGroup,
    /// VC classes: 2 for MIN, 3 otherwise (Fig. 7).
    classes: u32,
    table: ExitTable,
    /// The groups have parallel local channels (Fig. 6(a)): a local hop takes the one
    /// with the shortest queue.
    trunked: bool,
}

impl DragonflyRouting {
    pub(crate) fn new(df: &Dragonfly, alg: DfAlgorithm, threshold: i64, cr: CrParams) -> Self {
        let cr = (alg == DfAlgorithm::UgalLCr).then_some(cr);
        let classes = if alg == DfAlgorithm::Min { 2 } else { 3 };
        DragonflyRouting {
            df: df.clone(),
            alg,
            threshold,
            cr,
            intermediate: IntermediateGroup::default(),
            classes,
            table: ExitTable::new(df),
            trunked: df.is_trunked(),
        }
    }

    /// The same routing with the intermediate group drawn by `rule`.
    pub(crate) fn with_intermediate(mut self, rule: IntermediateGroup) -> Self {
        self.intermediate = rule;
        self
    }

    /// Draws the intermediate group of a packet from group `gs` to group `gd`, or `None`
    /// when the draw makes the path minimal (`any` drew `gs` or `gd`) or no group
    /// qualifies (`other` with `g = 2`).
    #[inline]
    fn draw_intermediate(&self, gs: u32, gd: u32, rng: &mut SimRng) -> Option<u32> {
        let g = self.df.g;
        match self.intermediate {
            IntermediateGroup::Any => {
                let gi = rng.below(g);
                (gi != gs && gi != gd).then_some(gi)
            }
            IntermediateGroup::Other => self.draw_other_group(gs, gd, rng),
        }
    }

    /// Draws a group uniformly among those other than `gs` and `gd` (`None` if there is
    /// none, `g = 2`).
    #[inline]
    fn draw_other_group(&self, gs: u32, gd: u32, rng: &mut SimRng) -> Option<u32> {
        let candidates = self.df.g - if gs == gd { 1 } else { 2 };
        if candidates == 0 {
            return None;
        }
        let (lo, hi) = (gs.min(gd), gs.max(gd));
        let mut gi = rng.below(candidates);
        if gi >= lo {
            gi += 1;
        }
        if gs != gd && gi >= hi {
            gi += 1;
        }
        Some(gi)
    }

    /// The exit of `router` towards group `target ≠ group(router)`.
    #[inline]
    fn exit(&self, router: u32, target: u32) -> &Exit {
        let exit = &self.table.exits[(router * self.df.g + target) as usize];
        debug_assert!(exit.count > 0, "router {router} is in group {target}");
        exit
    }

    /// The hop from the packet's router towards group `target ≠` its group; `dst` is the
    /// packet's destination router when `target` is its group (so that, with failed links,
    /// the channel's far side is checked too). Always inlined: out of line it cost 3 % of the
    /// instructions of the 1K dragonfly under UGAL-L (measured).
    #[inline(always)]
    fn toward_group(&self, ctx: &RouteCtx, target: u32, dst: Option<u32>, rng: &mut SimRng) -> Hop<'_> {
        let exit = self.exit(ctx.router, target);
        let mut hop = if exit.count == 1 { self.table.hop(exit) } else { self.choose(exit, ctx, dst, rng) };
        if ctx.queues.any_failed() && hop.channel.gateway == ctx.router {
            hop = self.fallback(ctx, hop, target, dst, rng);
        }
        if self.trunked {
            Hop { port: self.spread(ctx, hop.port), ..hop }
        } else {
            hop
        }
    }

    /// `port` of the packet's router or, when it is the first of parallel local channels
    /// (trunking, Fig. 6(a)), the one of them with the shortest queue (a failed one's is
    /// endless; on a tie the first). Out of line: untrunked groups never call it.
    #[inline(never)]
    fn spread(&self, ctx: &RouteCtx, port: u32) -> u32 {
        if self.df.is_global_port(port) {
            return port;
        }
        let q = ctx.here();
        let trunks = self.df.local_trunks(port);
        (port..port + trunks).min_by_key(|&p| q.port_queue(p)).unwrap_or(port)
    }

    /// The local port of the packet's router towards router `to` of its group, spread over
    /// parallel channels when the groups are trunked.
    #[inline]
    fn local_hop(&self, ctx: &RouteCtx, to: u32) -> u32 {
        let port = self.df.local_port(self.df.index(ctx.router), self.df.index(to));
        if self.trunked {
            self.spread(ctx, port)
        } else {
            port
        }
    }

    /// The hop of an [`Exit`] with several candidates, kept out of line so that the
    /// common single-candidate case stays a table lookup.
    #[inline(never)]
    fn choose(&self, exit: &Exit, ctx: &RouteCtx, dst: Option<u32>, rng: &mut SimRng) -> Hop<'_> {
        let here = ctx.router;
        let candidates = self.table.candidates(exit);
        let faults = ctx.queues.any_failed();
        if candidates[0].gateway == here {
            // The router's own channels: the shortest queue (a failed channel's is endless),
            // among those whose far side works when links have failed.
            let q = ctx.here();
            let channel = candidates
                .iter()
                .filter(|ch| !faults || self.channel_works(&ctx.queues, ch, dst))
                .min_by_key(|ch| q.port_queue(ch.gport))
                .unwrap_or(&candidates[0]);
            return Hop { port: channel.gport, channel };
        }
        let channel = if self.df.intra.len() <= 1 && !faults {
            &candidates[rng.below(exit.count as u32) as usize]
        } else {
            // A working gateway among the nearest that the packet's local route can still
            // reach in dimension order (see the module documentation); none: the first.
            self.pick_nearest(
                candidates,
                ctx,
                |ch| {
                    !faults
                        || self.local_works(&ctx.queues, here, ch.gateway) && self.channel_works(&ctx.queues, ch, dst)
                },
                rng,
            )
            .unwrap_or(&candidates[0])
        };
        Hop { port: self.df.local_port(self.df.index(here), self.df.index(channel.gateway)), channel }
    }

    /// Gateway fallback, with failed links: when `hop` takes the router's own channel to
    /// group `target` and it does not work (none of its own does, or not their far side), a
    /// working channel of another gateway of the group, reached over local hops in the
    /// segment's VC class. In a fully connected group only if the packet did not arrive
    /// over a local channel: that hop is then the first of its segment, as when the router
    /// owns no channel to `target`. In a flattened-butterfly group also after local hops:
    /// [`Self::pick_nearest`] keeps to the gateways the dimension-ordered route can still
    /// reach (the one the packet was heading for, through this router, is among them), so
    /// Fig. 7's classes and the dimension order stay as they are. Else `hop` (the packet is
    /// counted unroutable where it meets the failed link).
    #[cold]
    #[inline(never)]
    fn fallback<'t>(
        &'t self,
        ctx: &RouteCtx,
        hop: Hop<'t>,
        target: u32,
        dst: Option<u32>,
        rng: &mut SimRng,
    ) -> Hop<'t> {
        let (df, here, q) = (&self.df, ctx.router, &ctx.queues);
        let net = df.network();
        let local_arrival = net.port(here, ctx.in_port).class == LinkClass::Local;
        if self.channel_works(q, hop.channel, dst) || local_arrival && df.intra.len() <= 1 {
            return hop;
        }
        let candidates = self.pair_channels(here, target);
        let works = |ch: &GlobalChannel| {
            ch.gateway != here && self.local_works(q, here, ch.gateway) && self.channel_works(q, ch, dst)
        };
        match self.pick_nearest(candidates, ctx, works, rng) {
            Some(channel) => Hop { port: df.local_port(df.index(here), df.index(channel.gateway)), channel },
            None => hop,
        }
    }

    /// A uniformly drawn candidate among those that pass `ok`, are nearest the packet's
    /// router and continue its local route in dimension order: after a local hop in
    /// dimension `d`, only gateways that agree with the router in dimensions `0..=d` (the
    /// gateway the last hop headed for always does), so that a multi-hop local segment
    /// stays dimension-ordered. Counts, then takes the k-th: no allocation.
    fn pick_nearest<'t>(
        &self,
        candidates: &'t [GlobalChannel],
        ctx: &RouteCtx,
        ok: impl Fn(&GlobalChannel) -> bool,
        rng: &mut SimRng,
    ) -> Option<&'t GlobalChannel> {
        let (df, here) = (&self.df, ctx.router);
        let port = df.network().port(here, ctx.in_port);
        let multi_hop = df.intra.len() > 1 && port.class == LinkClass::Local;
        let aligned = if multi_hop { port.dim as usize + 1 } else { 0 };
        let eligible = |ch: &GlobalChannel| df.agree(df.index(here), df.index(ch.gateway), aligned) && ok(ch);
        let (mut nearest, mut count) = (u32::MAX, 0);
        for ch in candidates.iter().filter(|ch| eligible(ch)) {
            let d = df.local_hops(df.index(here), df.index(ch.gateway));
            if d < nearest {
                (nearest, count) = (d, 1);
            } else if d == nearest {
                count += 1;
            }
        }
        if count == 0 {
            return None;
        }
        let k = rng.below(count) as usize;
        candidates
            .iter()
            .filter(|ch| eligible(ch) && df.local_hops(df.index(here), df.index(ch.gateway)) == nearest)
            .nth(k)
    }

    /// With failed links: whether `channel` works and, when `dst` is given (the channel
    /// leads into the destination's group), so does the local route from where it lands.
    fn channel_works(&self, q: &QueueView, channel: &GlobalChannel, dst: Option<u32>) -> bool {
        q.alive_at(channel.id) && dst.is_none_or(|d| self.local_works(q, channel.landing, d))
    }

    /// Whether every link of the local route from `from` to `to` (routers of one group) works.
    fn local_works(&self, q: &QueueView, mut from: u32, to: u32) -> bool {
        let (df, net) = (&self.df, self.df.network());
        while from != to {
            let (first, trunks) = df.local_link(df.index(from), df.index(to));
            let Some(port) = (first..first + trunks).find(|&p| q.alive(from, p)) else { return false };
            from = net.port(from, port).peer_router;
        }
        true
    }

    /// Whether the minimal route from `from` to `dst` in another group, through `channel`
    /// (a channel of `from`'s group towards `dst`'s), works end to end.
    fn via_works(&self, q: &QueueView, from: u32, channel: &GlobalChannel, dst: u32) -> bool {
        self.local_works(q, from, channel.gateway)
            && q.alive_at(channel.id)
            && self.local_works(q, channel.landing, dst)
    }

    /// With failed links, which of the source router's two candidate paths work end to end
    /// (the non-minimal one through any working way on from its intermediate group's
    /// landing router).
    #[cold]
    fn paths_work(&self, q: &QueueView, here: u32, dst: u32, min: &Hop, nm: &Hop) -> (bool, bool) {
        let nm_works = self.local_works(q, here, nm.channel.gateway)
            && q.alive_at(nm.channel.id)
            && self.onward_works(q, nm.channel.landing, dst);
        (self.min_works(q, here, dst, min), nm_works)
    }

    /// Whether the minimal path `min` from `here` to `dst` works end to end.
    fn min_works(&self, q: &QueueView, here: u32, dst: u32, min: &Hop) -> bool {
        let df = &self.df;
        if df.group(here) == df.group(dst) {
            self.local_works(q, here, dst)
        } else {
            self.via_works(q, here, min.channel, dst)
        }
    }

    /// Whether a packet that reached router `from` over a global channel can go on to `dst`
    /// in another group: a working channel of `from`'s group to it over a working local
    /// route (its own channels, or by the choice among gateways or the gateway fallback,
    /// which both take any working one).
    fn onward_works(&self, q: &QueueView, from: u32, dst: u32) -> bool {
        self.pair_channels(from, self.df.group(dst)).iter().any(|ch| self.via_works(q, from, ch, dst))
    }

    /// Every channel from `router`'s group to group `target`, in its slice.
    fn pair_channels(&self, router: u32, target: u32) -> &[GlobalChannel] {
        let df = &self.df;
        let pair = (df.network().slice_of(router) * df.g + df.group(router)) * df.g + target;
        let (first, count) = self.table.pairs[pair as usize];
        &self.table.channels[first as usize..(first + count) as usize]
    }

    /// Estimated router-to-router hops from `from` to `dst`, in another group `gd`, on a
    /// minimal path: through the router's own channel when it has one, else through the
    /// group's first.
    #[inline]
    fn hops_to_other_group(&self, from: u32, dst: u32, gd: u32) -> u32 {
        self.table.channel(self.exit(from, gd)).path_hops(&self.df, from, dst)
    }

    /// Queue estimate of VC class `class` of output `port` of the packet's router: the sum
    /// over its VCs.
    #[inline]
    fn class_queue(&self, ctx: &RouteCtx, port: u32, class: u32) -> u32 {
        let classes = self.classes;
        let out = ctx.here().output(port);
        let mut v = class;
        let mut sum = 0;
        while v < ctx.queues.vcs() {
            sum += out.vc_queue(v);
            v += classes;
        }
        sum
    }

    /// Forwards on `port` of the packet's router in VC class `class` of Fig. 7.
    #[inline]
    fn forward(&self, ctx: &RouteCtx, port: u32, class: u32) -> Decision {
        let classes = self.classes;
        let class = class + classes - 3; // MIN: Fig. 7 classes 1, 2 become 0, 1.
        Decision::Forward { port, vc: vc_in_class_at(&ctx.here(), port, class, classes) }
    }

    /// The first hop of a packet, at its source router. Kept out of line so that
    /// [`Routing::route`] stays small for the more frequent [`Self::next_hop`].
    #[inline(never)]
    fn first_hop(&self, ctx: &RouteCtx, pkt: &mut Packet, rng: &mut SimRng, note: &mut RouteNote) -> Decision {
        let (port, class) = self.decide_at_source(ctx, pkt, rng, note);
        self.forward(ctx, port, class)
    }

    /// The source-router decision; returns the first output and its VC class (Fig. 7).
    #[inline]
    fn decide_at_source(&self, ctx: &RouteCtx, pkt: &mut Packet, rng: &mut SimRng, note: &mut RouteNote) -> (u32, u32) {
        let df = &self.df;
        let q = &ctx.queues;
        let (here, dst) = (ctx.router, pkt.dst_router);
        let (gs, gd) = (df.group(here), df.group(dst));
        let (min, h_min, min_class) = if gs == gd {
            let port = self.local_hop(ctx, dst);
            (Hop { port, channel: &GlobalChannel::NONE }, local_hops(df, here, dst), 2)
        } else {
            let hop = self.toward_group(ctx, gd, Some(dst), rng);
            (hop, hop.channel.path_hops(df, here, dst), 1)
        };
        if self.alg == DfAlgorithm::Min {
            return (min.port, min_class);
        }
        // With failed links (HyperX §6), UGAL takes only a path that works end to end: a
        // few draws for a working non-minimal one, and no comparison when one of the two
        // is broken.
        let checks_paths = q.any_failed() && self.alg != DfAlgorithm::Val;
        let drawn = self.draw_intermediate(gs, gd, rng).or_else(|| {
            // `any` drew the source or destination group, which makes the path minimal:
            // UGAL takes it unless a failed link breaks it, and then needs a path through
            // another group.
            let broken = checks_paths && !self.min_works(q, here, dst, &min);
            broken.then(|| self.draw_other_group(gs, gd, rng)).flatten()
        });
        let Some(mut gi) = drawn else {
            return (min.port, min_class);
        };
        let mut nm = self.toward_group(ctx, gi, None, rng);
        let mut broken = None;
        if checks_paths {
            let (mut min_works, mut nm_works) = self.paths_work(q, here, dst, &min, &nm);
            for _ in 0..MAX_REDRAWS {
                if nm_works {
                    break;
                }
                let Some(again) = self.draw_intermediate(gs, gd, rng) else { continue };
                (gi, nm) = (again, self.toward_group(ctx, again, None, rng));
                (min_works, nm_works) = self.paths_work(q, here, dst, &min, &nm);
            }
            if !min_works && !nm_works {
                // Neither works after the draws: the first working non-minimal path in
                // group order, if any (so a packet is unroutable only when no path with
                // two global channels works).
                for again in (0..df.g).filter(|&x| x != gs && x != gd) {
                    let hop = self.toward_group(ctx, again, None, rng);
                    if self.paths_work(q, here, dst, &min, &hop).1 {
                        (gi, nm, nm_works) = (again, hop, true);
                        break;
                    }
                }
            }
            if min_works != nm_works {
                broken = Some(!min_works);
            }
        }
        let go_nonminimal = |pkt: &mut Packet| {
            pkt.intermediate = gi;
            pkt.phase = 0;
            pkt.nonminimal = true;
            (nm.port, 0)
        };
        if self.alg == DfAlgorithm::Val || broken == Some(true) {
            return go_nonminimal(pkt);
        }
        if broken == Some(false) {
            return (min.port, min_class);
        }
        // The intermediate group is neither gs nor gd, so the landing router is not in gd.
        let h_nm = local_hops(df, here, nm.channel.gateway) + 1 + self.hops_to_other_group(nm.channel.landing, dst, gd);
        let local = ctx.here();
        let global_min = if gs == gd { local.port_queue(min.port) } else { q.port_queue_at(min.channel.id) };
        let vc_level = || (self.class_queue(ctx, min.port, min_class), self.class_queue(ctx, nm.port, 0));
        let (q_min, q_nm) = match self.alg {
            DfAlgorithm::UgalL => (local.port_queue(min.port), local.port_queue(nm.port)),
            DfAlgorithm::UgalG => (global_min, q.port_queue_at(nm.channel.id)),
            DfAlgorithm::UgalLVc => vc_level(),
            DfAlgorithm::UgalLVch | DfAlgorithm::UgalLCr => {
                if min.port != nm.port {
                    (local.port_queue(min.port), local.port_queue(nm.port))
                } else {
                    vc_level()
                }
            }
            DfAlgorithm::Min | DfAlgorithm::Val => unreachable!(),
        };
        *note = RouteNote::ugal(
            ctx.now,
            pkt,
            (q_min, h_min),
            (q_nm, h_nm),
            if gs == gd { 0 } else { global_min },
            self.threshold,
        );
        if note.chose_minimal {
            (min.port, min_class)
        } else {
            go_nonminimal(pkt)
        }
    }

    /// Next hop of a packet already on its way; advances the Valiant phase on reaching
    /// the intermediate group.
    #[inline]
    fn next_hop(&self, ctx: &RouteCtx, pkt: &mut Packet, rng: &mut SimRng) -> (u32, u32) {
        let df = &self.df;
        let here = ctx.router;
        let (grp, gd) = (df.group(here), df.group(pkt.dst_router));
        // Phase 0 first: a non-minimal packet between two routers of one group leaves
        // its group before it may head for the destination.
        if pkt.phase == 0 && pkt.intermediate != Packet::NONE {
            if grp == pkt.intermediate {
                pkt.phase = 1;
            } else {
                return (self.toward_group(ctx, pkt.intermediate, None, rng).port, 0);
            }
        }
        if grp == gd {
            return (self.local_hop(ctx, pkt.dst_router), 2);
        }
        (self.toward_group(ctx, gd, Some(pkt.dst_router), rng).port, 1)
    }
}

impl Routing for DragonflyRouting {
    fn vcs_required(&self) -> u32 {
        self.classes
    }
    fn credit_round_trip(&self) -> Option<CrParams> {
        self.cr
    }
    #[inline]
    fn route(&self, ctx: &RouteCtx, pkt: &mut Packet, rng: &mut SimRng, note: &mut RouteNote) -> Decision {
        if pkt.hops == 0 && pkt.route_bits == 0 {
            pkt.route_bits = 1;
            return self.first_hop(ctx, pkt, rng, note);
        }
        let (port, class) = self.next_hop(ctx, pkt, rng);
        self.forward(ctx, port, class)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::topology::GlobalArrangement;

    /// Every exit offers exactly the channels of §4.1 step 1: the router's own channels to
    /// the target group when it has any, else all of its group's; its hop goes through the
    /// first of them and lands where the network's wiring says, in the router's own slice.
    #[test]
    fn exits_match_the_wiring() {
        let shapes =
            [(4, 2, 9, 1), (4, 2, 5, 1), (4, 2, 4, 1), (8, 4, 12, 1), (3, 3, 4, 1), (4, 2, 2, 1), (4, 2, 5, 3)];
        for arrangement in [GlobalArrangement::Absolute, GlobalArrangement::Palmtree] {
            for (a, h, g, slices) in shapes {
                let df =
                    Dragonfly::new(1, a, h, g, arrangement, "topology").unwrap().sliced(slices, "topology").unwrap();
                let table = ExitTable::new(&df);
                for router in 0..df.routers() {
                    let (grp, i) = (df.group(router), df.index(router));
                    let slice = df.network().slice_of(router);
                    for target in (0..g).filter(|&t| t != grp) {
                        let exit = table.exits[(router * g + target) as usize];
                        let slots = df.slots_between(grp, target);
                        let own: Vec<u32> = slots.iter().copied().filter(|&c| c / h == i).collect();
                        let expected = if own.is_empty() { slots.to_vec() } else { own.clone() };
                        let candidates = table.candidates(&exit);
                        assert_eq!(candidates.len(), expected.len());
                        for (ch, &c) in candidates.iter().zip(&expected) {
                            let (owner, gport) = df.slot_owner(grp, c);
                            assert_eq!((ch.gateway, ch.gport), (df.slice_base(slice) + owner, gport));
                            assert_eq!(df.network().slice_of(ch.landing), slice);
                            assert_eq!(ch.landing, df.network().port(ch.gateway, ch.gport).peer_router);
                            assert_eq!(ch.id as usize, df.network().port_id(ch.gateway, ch.gport));
                            assert_eq!(df.group(ch.landing), target);
                        }
                        let first = candidates[0];
                        let port = if own.is_empty() { df.local_port(i, df.index(first.gateway)) } else { first.gport };
                        assert_eq!(exit.port as u32, port);
                    }
                }
            }
        }
    }

    use crate::routing::fixture::{rng_drawing_first, RouterState};

    /// A dragonfly in a fixture: `p` terminals, `a` routers per group, `h` global channels
    /// each, `g` groups, fully connected groups, 3 VCs of 32 flits.
    fn df_state(p: u32, a: u32, h: u32, g: u32) -> (RouterState, Dragonfly) {
        let df = Dragonfly::new(p, a, h, g, GlobalArrangement::Absolute, "topology").unwrap();
        (RouterState::of(Topology::new(df.clone()), 3, 32), df)
    }

    /// Router `r`'s global ports and the router at their far end.
    fn globals(s: &RouterState, r: u32) -> Vec<(u32, u32)> {
        let net = s.net();
        (0..net.radix(r))
            .filter(|&p| net.port(r, p).class == LinkClass::Global)
            .map(|p| (p, net.port(r, p).peer_router))
            .collect()
    }

    fn ugal(s: &RouterState, name: &str, threshold: i64, dst: u32, gi: u32, g: u32) -> (Decision, RouteNote, Packet) {
        let alg = s.routing(name, &RoutingConfig { ugal_threshold: threshold, ..Default::default() });
        s.route_at_source(&*alg, s.packet_between(0, dst), &mut rng_drawing_first(g, gi))
    }

    /// UGAL-L (dragonfly §4.2) on the balanced dragonfly p = 2, a = 4, h = 2, g = 9 (one
    /// channel per group pair, so the only random choice is the intermediate group). Router 0
    /// sends to the far end of its own global channel (H_m = 1, q_m = that channel's port);
    /// the intermediate group is reached through router 1 (q_nm = the local port to it).
    /// Minimal iff q_m·H_m ≤ q_nm·H_nm + threshold.
    #[test]
    fn ugal_l_minimal_iff_q_times_h_within_threshold() {
        let (s0, df) = df_state(2, 4, 2, 9);
        let (min_port, dst) = globals(&s0, 0)[0];
        let gi = df.group(globals(&s0, 1)[0].1);
        let nm_port = df.local_port(0, 1);
        let (_, probe, _) = ugal(&s0, "ugal_l", 0, dst, gi, 9);
        let (hm, hn) = (probe.h_min, probe.h_nonmin);
        assert_eq!(hm, 1, "premise: the destination is at the far end of the minimal channel");
        assert!(hn >= 3, "premise: H_nm = {hn}");
        // (threshold, q_m, q_nm, minimal?, row)
        let rows: Vec<(i64, u32, u32, bool, &str)> = vec![
            (0, 0, 0, true, "empty: minimal"),
            (0, 2 * hn, 2, true, "tie q_m·H_m = q_nm·H_nm: minimal (≤, not <)"),
            (0, 2 * hn + 1, 2, false, "one flit over the tie: non-minimal"),
            (1, 2 * hn + 1, 2, true, "threshold 1 absorbs it"),
            (-1, 2 * hn, 2, false, "a negative threshold turns the tie non-minimal"),
            (0, 20, 0, false, "an idle non-minimal first hop against a loaded minimal one"),
        ];
        for (threshold, q_m, q_nm, minimal, what) in rows {
            let (mut s, _) = df_state(2, 4, 2, 9);
            s.set_queue(0, min_port, 0, q_m).set_queue(0, nm_port, 0, q_nm);
            let (d, note, pkt) = ugal(&s, "ugal_l", threshold, dst, gi, 9);
            assert_eq!((note.q_min, note.q_nonmin), (q_m, q_nm), "{what}: premise");
            assert_eq!(note.chose_minimal, minimal, "{what}");
            assert_eq!(pkt.nonminimal, !minimal, "{what}");
            if minimal {
                assert_eq!(
                    d,
                    Decision::Forward { port: min_port, vc: 1 },
                    "{what}: minimal global hop on VC1 (Fig. 7)"
                );
            } else {
                assert_eq!(d, Decision::Forward { port: nm_port, vc: 0 }, "{what}: source-group hop on VC0");
                assert_eq!(pkt.intermediate, gi, "{what}");
            }
        }
    }

    /// When both paths leave on the same port (router 0 reaches the destination group and
    /// the intermediate group through router 1), UGAL-L's port queues are equal and it stays
    /// minimal; UGAL-L_VCH compares the VCs (VC1 minimal vs VC0 non-minimal, §4.3.1), and
    /// UGAL-L_CR decides by the same rule (its credit round trip is the engine's: delayed
    /// credits, `src/sim/credit_rtt.rs`).
    #[test]
    fn ugal_l_vch_and_cr_compare_vcs_on_a_shared_port() {
        let (s0, df) = df_state(2, 4, 2, 9);
        let ones = globals(&s0, 1);
        let dst = ones[0].1;
        let gi = df.group(ones[1].1);
        let port = df.local_port(0, 1);
        let (_, probe, _) = ugal(&s0, "ugal_l_vch", 0, dst, gi, 9);
        let (hm, hn) = (probe.h_min, probe.h_nonmin);
        assert_eq!(hm, 2, "premise: local hop to router 1, then its global channel");
        assert!(hn > hm);
        // (VC1 flits, VC0 flits, minimal under VCH/CR?, row)
        let rows = [
            (0, 0, true, "empty: minimal"),
            (hn, hm, true, "tie of VC queues times hops: minimal"),
            (hn + 1, hm, false, "VC1 one flit over the tie: non-minimal"),
            (20, 0, false, "loaded VC1, idle VC0: non-minimal (UGAL-L cannot tell)"),
            (0, 20, true, "loaded VC0: minimal"),
        ];
        for (vc1, vc0, minimal, what) in rows {
            let (mut s, _) = df_state(2, 4, 2, 9);
            s.set_queue(0, port, 1, vc1).set_queue(0, port, 0, vc0);
            let (_, note, _) = ugal(&s, "ugal_l", 0, dst, gi, 9);
            assert!(note.chose_minimal, "{what}: UGAL-L sees one port queue on both paths");
            for name in ["ugal_l_vch", "ugal_l_cr"] {
                let (d, note, pkt) = ugal(&s, name, 0, dst, gi, 9);
                assert_eq!((note.q_min, note.q_nonmin), (vc1, vc0), "{name} {what}: VC-level queues");
                assert_eq!(note.chose_minimal, minimal, "{name} {what}");
                assert_eq!(pkt.nonminimal, !minimal, "{name} {what}");
                assert_eq!(d, Decision::Forward { port, vc: if minimal { 1 } else { 0 } }, "{name} {what}");
            }
        }
        assert!(s0.routing("ugal_l_cr", &RoutingConfig::default()).credit_round_trip().is_some());
        assert!(s0.routing("ugal_l_vch", &RoutingConfig::default()).credit_round_trip().is_none());
        // Different first-hop ports: VCH compares port queues, as UGAL-L.
        let (min_port, dst) = globals(&s0, 0)[0];
        let (mut s, _) = df_state(2, 4, 2, 9);
        s.set_queue(0, min_port, 0, 20);
        let (_, note, _) = ugal(&s, "ugal_l_vch", 0, dst, df.group(ones[0].1), 9);
        assert_eq!((note.q_min, note.q_nonmin, note.chose_minimal), (20, 0, false));
    }

    /// Gateway fallback (failed links): on p = 1, a = 4, h = 2, g = 5 every group pair has
    /// two channels. A router whose own channel to the destination group failed sends a
    /// packet from its terminal to the other gateway over a local hop; a packet that came
    /// over a local channel (fully connected group) keeps the failed channel (unroutable).
    #[test]
    fn gateway_fallback_when_own_global_channel_failed() {
        let (s0, df) = df_state(1, 4, 2, 5);
        let own = globals(&s0, 0);
        let (gport, target, other) = own
            .iter()
            .find_map(|&(p, far)| {
                let x = df.group(far);
                let mine = own.iter().filter(|&&(_, f)| df.group(f) == x).count();
                let other = (1..4).find(|&r| globals(&s0, r).iter().any(|&(_, f)| df.group(f) == x))?;
                (mine == 1).then_some((p, x, other))
            })
            .expect("router 0 shares a group pair with another gateway");
        let dst = (0..df.routers()).find(|&r| df.group(r) == target).unwrap();
        // (row, fail router 0's channel, arrived over a local channel, expected port)
        let rows = [
            ("working channel: the global hop", false, false, gport),
            (
                "failed, from the terminal: local hop to the other gateway",
                true,
                false,
                df.local_port(0, df.index(other)),
            ),
            ("failed, arrived over a local channel: the failed channel", true, true, gport),
        ];
        for (what, failed, local, port) in rows {
            let (mut s, _) = df_state(1, 4, 2, 5);
            if failed {
                s.fail(0, gport);
            }
            let min = s.routing("min", &RoutingConfig::default());
            let mut pkt = s.packet_between(0, dst);
            let ctx = if local {
                pkt.hops = 1;
                pkt.route_bits = 1;
                let from = (1..4).find(|&r| r != other).unwrap();
                s.ctx(0, df.local_port(0, from), 0)
            } else {
                s.ctx_at_source(&pkt)
            };
            let (d, _) = RouterState::decide(&*min, &ctx, &mut pkt, &mut rng_drawing_first(2, 0));
            assert_eq!(crate::routing::fixture::port_of(d), port, "{what}");
        }
    }

    /// UGAL-G (dragonfly §4.2) compares the queues of the global channels themselves, where
    /// UGAL-L sees only its own outputs. Router 0 reaches both the destination group and the
    /// intermediate group through router 1's two global channels: loading them changes
    /// UGAL-G's choice, never UGAL-L's (its local port to router 1 stays empty); both notes
    /// show the minimal global channel's true queue.
    #[test]
    fn ugal_g_reads_the_global_channels_ugal_l_cannot_see() {
        let (s0, df) = df_state(2, 4, 2, 9);
        let ones = globals(&s0, 1);
        let ((min_global, dst), (nm_global, far)) = (ones[0], ones[1]);
        let gi = df.group(far);
        let (_, probe, _) = ugal(&s0, "ugal_g", 0, dst, gi, 9);
        let (hm, hn) = (probe.h_min, probe.h_nonmin);
        assert_eq!(hm, 2, "premise: local hop to router 1, then its global channel");
        // (minimal global channel's flits, non-minimal global channel's flits, UGAL-G minimal?, row)
        let rows = [
            (0, 0, true, "empty: minimal"),
            (hn, hm, true, "tie q_m·H_m = q_nm·H_nm: minimal"),
            (hn + 1, hm, false, "one flit over the tie: non-minimal"),
            (20, 0, false, "a loaded minimal global channel: non-minimal"),
            (0, 20, true, "a loaded non-minimal global channel: minimal"),
        ];
        for (q_min, q_nm, minimal, what) in rows {
            let (mut s, _) = df_state(2, 4, 2, 9);
            s.set_queue(1, min_global, 0, q_min).set_queue(1, nm_global, 0, q_nm);
            let (d, note, pkt) = ugal(&s, "ugal_g", 0, dst, gi, 9);
            assert_eq!((note.q_min, note.q_nonmin, note.q_true), (q_min, q_nm, q_min), "{what}: global queues");
            assert_eq!((note.chose_minimal, pkt.nonminimal), (minimal, !minimal), "{what}");
            let port = df.local_port(0, 1);
            assert_eq!(d, Decision::Forward { port, vc: if minimal { 1 } else { 0 } }, "{what}");
            let (_, local, _) = ugal(&s, "ugal_l", 0, dst, gi, 9);
            assert!(local.chose_minimal, "{what}: UGAL-L sees only its empty local port");
            assert_eq!(local.q_true, q_min, "{what}: UGAL-L's note shows the queue it could not see");
        }
    }

    /// UGAL-L_VC (§4.3.1) compares VC queues — VC1 of the minimal output against VC0 of the
    /// non-minimal one — even when the paths leave on different ports, where UGAL-L_VCH
    /// compares the ports' queues.
    #[test]
    fn ugal_l_vc_compares_vc_queues_on_different_ports() {
        let (s0, df) = df_state(2, 4, 2, 9);
        let (min_port, dst) = globals(&s0, 0)[0];
        let gi = df.group(globals(&s0, 1)[0].1);
        let nm_port = df.local_port(0, 1);
        // (min port VC0, min port VC1, nm port VC0, VC minimal?, VCH minimal?, row)
        let rows = [
            (0, 0, 0, true, true, "empty: minimal"),
            (20, 0, 0, true, false, "VC0 of the minimal port is not the minimal path's VC"),
            (0, 20, 0, false, false, "a loaded VC1 on the minimal port: non-minimal"),
            (0, 20, 20, true, true, "VC1 against an equally loaded VC0 over more hops: minimal"),
        ];
        for (min_vc0, min_vc1, nm_vc0, vc_minimal, vch_minimal, what) in rows {
            let (mut s, _) = df_state(2, 4, 2, 9);
            s.set_queue(0, min_port, 0, min_vc0).set_queue(0, min_port, 1, min_vc1).set_queue(0, nm_port, 0, nm_vc0);
            let (_, note, _) = ugal(&s, "ugal_l_vc", 0, dst, gi, 9);
            assert_eq!((note.q_min, note.q_nonmin), (min_vc1, nm_vc0), "{what}: VC-level queues");
            assert_eq!(note.chose_minimal, vc_minimal, "{what}: UGAL-L_VC");
            let (_, note, _) = ugal(&s, "ugal_l_vch", 0, dst, gi, 9);
            assert_eq!(note.q_min, min_vc0 + min_vc1, "{what}: UGAL-L_VCH's port queue");
            assert_eq!(note.chose_minimal, vch_minimal, "{what}: UGAL-L_VCH");
        }
    }

    /// UGAL-L_CR (§4.3.2) hands the engine its credit round-trip parameters — t_crt0 and the
    /// tracking granularity G (at least 1) — which delays the credits it returns
    /// (`src/sim/credit_rtt.rs`); the decision itself, on the credits routing sees, is
    /// UGAL-L_VCH's, state for state.
    #[test]
    fn ugal_l_cr_declares_its_round_trip_and_decides_as_vch() {
        let (s0, df) = df_state(2, 4, 2, 9);
        // (crt0, granularity) → the parameters the engine gets
        let rows = [((0, 1), (0, 1)), ((40, 4), (40, 4)), ((7, 0), (7, 1))];
        for ((crt0, cr_granularity), (want_crt0, want_granularity)) in rows {
            let cfg = RoutingConfig { crt0, cr_granularity, ..Default::default() };
            let cr = s0.routing("ugal_l_cr", &cfg).credit_round_trip();
            assert_eq!(
                cr,
                Some(CrParams { crt0: want_crt0, granularity: want_granularity }),
                "{crt0}, {cr_granularity}"
            );
            for other in ["min", "val", "ugal_l", "ugal_g", "ugal_l_vc", "ugal_l_vch"] {
                assert_eq!(s0.routing(other, &cfg).credit_round_trip(), None, "{other}");
            }
        }
        let ones = globals(&s0, 1);
        let port = df.local_port(0, 1);
        for (dst, gi) in [(ones[0].1, df.group(ones[1].1)), (globals(&s0, 0)[0].1, df.group(ones[0].1))] {
            for (vc0, vc1, other) in [(0, 0, 0), (3, 9, 0), (9, 3, 5), (0, 30, 2), (12, 12, 12)] {
                let (mut s, _) = df_state(2, 4, 2, 9);
                s.set_queue(0, port, 0, vc0).set_queue(0, port, 1, vc1).set_queue(0, globals(&s0, 0)[0].0, 0, other);
                let cr = ugal(&s, "ugal_l_cr", 0, dst, gi, 9);
                let vch = ugal(&s, "ugal_l_vch", 0, dst, gi, 9);
                assert_eq!((cr.0, cr.1, cr.2.nonminimal), (vch.0, vch.1, vch.2.nonminimal), "{vc0} {vc1} {other}");
            }
        }
    }

    /// Trunked groups (§3.2, Fig. 6(a)): between two routers of a group with parallel local
    /// channels, a hop takes the one with the shortest queue (the first on a tie), and never
    /// a failed one while another works.
    #[test]
    fn trunked_groups_spread_over_the_shortest_parallel_channel() {
        let df = Dragonfly::new(2, 4, 2, 9, GlobalArrangement::Absolute, "topology")
            .unwrap()
            .trunked(&[2], "topology")
            .unwrap();
        let (first, trunks) = df.local_link(0, 1);
        assert_eq!(trunks, 2, "premise: two parallel channels between routers 0 and 1");
        let second = first + 1;
        // (flits on the first, on the second, first failed, expected port, row)
        let rows = [
            (0, 0, false, first, "empty: the first"),
            (5, 0, false, second, "the first loaded: the second"),
            (0, 5, false, first, "the second loaded: the first"),
            (5, 5, false, first, "a tie: the first"),
            (0, 9, true, second, "the first failed: the second, however loaded"),
        ];
        for name in ["min", "ugal_l"] {
            for (q_first, q_second, failed, port, what) in rows {
                let mut s = RouterState::of(Topology::new(df.clone()), 3, 32);
                s.set_queue(0, first, 2, q_first).set_queue(0, second, 2, q_second);
                if failed {
                    s.fail(0, first);
                }
                let alg = s.routing(name, &RoutingConfig::default());
                let (d, _, _) = s.route_at_source(&*alg, s.packet_between(0, 1), &mut rng_drawing_first(9, 0));
                assert_eq!(crate::routing::fixture::port_of(d), port, "{name}: {what}");
            }
        }
    }
}
