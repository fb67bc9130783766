//! DAL, Dimensionally-Adaptive Load-balanced routing (HyperX paper §3.3).
//!
//! 1. On creation every offset dimension is *deroutable* (`pkt.route_bits` bit d = 0;
//!    set = already derouted in d). At every switch:
//! 2. take an offset dimension whose aligning (minimal) output is *unblocked*; if several
//!    are, the one with the shortest port queue (ties at random); else
//! 3. take a deroutable offset dimension with an unblocked output to a switch that is
//!    still offset from the destination in that dimension (shortest queue), and mark the
//!    dimension — at most one deroute per dimension; else
//! 4. push the packet into the *escape* VC, which routes minimally in dimension order.
//!    A packet in the escape VC stays there until it arrives ([`ESCAPE`] bit).
//!
//! **Unblocked** is not defined by the paper. In an input-queued network a saturated
//! channel shows as backlog committed to it in the upstream router long before the
//! downstream buffer fills, so the plain flow-control test (a free slot) would almost
//! never deroute with 32-flit VCs. Rules 2 and 3 therefore use two conditions on the
//! port's best adaptive VC (even VCs; the one with the most free slots):
//! - *free*: at least `routing.dal_unblocked_credits` (≥ 1, ≥ the packet size) downstream
//!   slots that are free and not promised to packets already routed here
//!   (credits − committed) — what deadlock freedom needs;
//! - *uncongested*: a queue estimate (`B −` those free slots) of at most
//!   `routing.dal_queue_threshold` flits (default 2).
//!
//! When neither a minimal nor a deroute output passes both, rule 2 is tried once more with
//! the *free* condition alone (a congested but flowing minimal output), and only then the
//! packet escapes (rule 4). On a 4×4×4 HyperX this raised DAL's UR saturation from 0.80 to
//! 0.88 (MIN AD: 0.90) and left Swap2 (0.95) unchanged; `docs/hyperx.md` records it.
//!
//! **VCs** (HyperX paper §4.1: "3 sets of 2 VCs, one VC in each set reserved for deadlock
//! avoidance"): even VCs are adaptive, odd VCs escape; a packet takes the VC of its kind
//! with the most free slots, so 6 VCs are 3 sets of (adaptive, escape). At least 2 VCs.
//!
//! **Deadlock freedom** (Duato): the escape VCs carry dimension-order routing, whose
//! channel dependency graph is acyclic, and escape packets never leave them. A packet
//! only takes an adaptive VC after reserving a free downstream slot in it (the unblocked
//! test counts this router's earlier commitments, which the sequential allocator makes
//! visible), so adaptive hops never wait on a full buffer, and any packet that cannot
//! move adaptively can always fall back to the escape network. Hence DAL requires the
//! sequential allocator (with the greedy one, inputs deciding in the same cycle could
//! promise the same slot twice) and `dal_unblocked_credits ≥ 1`. Livelock: at most two
//! hops per dimension (with failed links, a further deroute and the filter that makes the
//! hop after it minimal add at most one).
//!
//! **Failed links** (HyperX paper §6). Rules 2 and 3 never choose a failed link, and a
//! deroute only goes to a switch whose link to the destination's coordinate works (the
//! paper's "filters on random routes"). When every minimal link of an offset dimension has
//! failed, the packet may deroute in it again although it already did ("permit a further
//! deroute"); the filter makes the hop after it minimal. The escape network's dimension
//! order meets a failed link by a *detour*: two hops in the same dimension through a switch
//! linked to both ends, the first on an escape VC other than the highest, the second on the
//! highest escape VC (`DETOUR` marks the packet in between). Escape channels then stay
//! acyclic in the order (dimension, lower escape VCs, highest escape VC): a detour's first
//! hop waits only on its second, and every other escape hop only on later dimensions. With
//! a single escape VC (2 or 3 VCs) both hops share it, which is deadlock-free when each
//! fully connected subnetwork (a line of a dimension) has at most one failed link, the
//! paper's condition. A packet whose dimension offers no detour is counted unroutable.

use super::hyperx_min::{dor_port, vc_in_class_at};
use super::{
    network_of, wins_tie, Algorithm, Decision, Decisions, HopKind, HopNote, HopRule, QueueView, RouteCtx, RouteNote,
    RouterQueues, Routing, NOTE_DIMS,
};
use crate::config::schema::Family;
use crate::config::AllocatorMode;
use crate::packet::Packet;
use crate::rng::SimRng;
use crate::topology::HyperX;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Mutex;

/// `route_bits` flag: the packet is in the escape (dimension-order) network.
pub(crate) const ESCAPE: u32 = 1 << 31;
/// `route_bits` flag: the packet took the first hop of an escape detour around a failed
/// link; its next hop is the second, on the highest escape VC.
pub(crate) const DETOUR: u32 = 1 << 30;

pub(crate) struct Dal {
    hx: HyperX,
    /// Free, unpromised slots an adaptive output VC needs to count as unblocked.
    unblocked: u32,
    /// Largest queue estimate of an unblocked adaptive output VC.
    queue_threshold: u32,
    /// Per-hop notes for the page's inspector, per router, while `recording`.
    recording: AtomicBool,
    notes: Mutex<Vec<HopNote>>,
}

impl Clone for Dal {
    fn clone(&self) -> Self {
        Dal {
            hx: self.hx.clone(),
            unblocked: self.unblocked,
            queue_threshold: self.queue_threshold,
            recording: AtomicBool::new(self.recording.load(Ordering::Relaxed)),
            notes: Mutex::new(self.notes.lock().map(|n| n.clone()).unwrap_or_default()),
        }
    }
}

/// DAL's rules (HyperX §3.3, numbered as there), named in its hop notes and explained by
/// the inspector.
const RULES: &[HopRule] = &[MINIMAL, DEROUTE, MINIMAL_CONGESTED, ESCAPE_RULE, IN_ESCAPE];
/// (2) An unblocked, uncongested aligning output.
const MINIMAL: HopRule =
    HopRule { name: "minimal", explains: "an unblocked, uncongested minimal output", hop: HopKind::Minimal };
/// (3) A deroute in a deroutable offset dimension.
const DEROUTE: HopRule = HopRule {
    name: "deroute",
    explains: "no minimal output was uncongested: one deroute in this dimension",
    hop: HopKind::Deroute,
};
/// (2') Nothing uncongested: an aligning output that is merely unblocked.
const MINIMAL_CONGESTED: HopRule = HopRule {
    name: "minimal_congested",
    explains: "nothing uncongested: a minimal output that is merely unblocked",
    hop: HopKind::Minimal,
};
/// (4) Nothing unblocked: the escape VC.
const ESCAPE_RULE: HopRule = HopRule {
    name: "escape",
    explains: "no output unblocked: the escape VC (dimension order from here on)",
    hop: HopKind::Escape,
};
/// Once in the escape VC, dimension order to the destination.
const IN_ESCAPE: HopRule =
    HopRule { name: "in_escape", explains: "already in the escape VC: dimension order", hop: HopKind::Escape };

/// DAL: see [`Dal`].
pub(crate) const DAL: Algorithm = Algorithm {
    name: "dal",
    decisions: Decisions::PerHopDimensions { rules: RULES },
    family: Family::HYPERX,
    description:
        "DAL: per hop, unblocked minimal dimension, else one deroute per dimension, else DOR escape VC (HyperX §3.3)",
    params: &["routing.dal_unblocked_credits", "routing.dal_queue_threshold"],
    build: |cfg, topo| build(cfg, network_of(topo)?),
};

/// Builds DAL from a configuration, rejecting the settings that would void its deadlock
/// freedom.
pub fn build(cfg: &crate::config::RoutingConfig, hx: &HyperX) -> Result<Box<dyn Routing>, crate::config::ConfigErrors> {
    use crate::config::ConfigErrors;
    if cfg.allocator == AllocatorMode::Greedy {
        return Err(ConfigErrors::one("routing.allocator", "DAL needs the sequential allocator: its adaptive hops reserve a downstream slot, which greedy allocation can promise twice"));
    }
    if cfg.dal_unblocked_credits == 0 {
        return Err(ConfigErrors::one(
            "routing.dal_unblocked_credits",
            "must be at least 1 (an adaptive hop needs a free downstream slot)",
        ));
    }
    Ok(Box::new(Dal::new(hx, cfg.dal_unblocked_credits, cfg.dal_queue_threshold)))
}

/// The failed links (router pairs whose every parallel link failed) around which DAL has
/// no detour: no third switch of their line linked to both ends. DAL delivers every packet
/// when there are none (always so with one failed link per line, the paper's condition);
/// otherwise packets that need such a link are counted unroutable.
pub fn links_without_detour(hx: &HyperX, failed: &[bool]) -> usize {
    let net = hx.network();
    if failed.is_empty() {
        return 0;
    }
    let cut = |a: u32, d: usize, m: u32| {
        let first = hx.port_to(a, d, m, 0);
        (first..first + hx.layout()[d].trunks).all(|p| failed[net.port_id(a, p)])
    };
    let mut missing = 0;
    for a in 0..hx.routers() {
        for (d, dim) in hx.layout().iter().enumerate() {
            let own = hx.coord(a, d);
            for m in own + 1..dim.extent {
                if cut(a, d, m)
                    && !(0..dim.extent).any(|c| c != own && c != m && !cut(a, d, c) && !cut(hx.neighbor(a, d, c), d, m))
                {
                    missing += 1;
                }
            }
        }
    }
    missing
}

impl Dal {
    pub(crate) fn new(hx: &HyperX, unblocked_credits: u32, queue_threshold: u32) -> Self {
        Dal {
            hx: hx.clone(),
            unblocked: unblocked_credits.max(1),
            queue_threshold,
            recording: AtomicBool::new(false),
            notes: Mutex::new(Vec::new()),
        }
    }
}

/// The adaptive VC (even index) of `port` with the most unpromised free slots (the
/// lowest on ties), and that number.
#[inline]
fn best_adaptive_vc(q: &RouterQueues, port: u32) -> (u32, u32) {
    let (credits, committed) = q.channel_vcs(port);
    let unpromised = |v: usize| (credits[v] as u32).saturating_sub(committed[v] as u32);
    let mut best = (0, unpromised(0));
    let mut v = 2;
    while v < credits.len() {
        let free = unpromised(v);
        if free > best.1 {
            best = (v as u32, free);
        }
        v += 2;
    }
    best
}

/// The best candidate output so far: shortest port queue, ties broken uniformly at random.
#[derive(Clone, Copy)]
struct Pick {
    port: u32,
    vc: u32,
    len: u32,
    dim: usize,
    ties: u32,
}

/// Offers a candidate output to `best`: it replaces a pick with a longer queue, and one
/// with an equal queue with probability `1/ties`.
#[inline]
fn offer(best: &mut Option<Pick>, port: u32, vc: u32, len: u32, dim: usize, rng: &mut SimRng) {
    match best {
        Some(b) if len > b.len => {}
        Some(b) if len == b.len => {
            b.ties += 1;
            if wins_tie(rng, b.ties) {
                (b.port, b.vc, b.dim) = (port, vc, dim);
            }
        }
        _ => *best = Some(Pick { port, vc, len, dim, ties: 1 }),
    }
}

impl Dal {
    /// The best of the aligning outputs whose best adaptive VC has at least `need` free,
    /// unpromised slots (see [`offer`]). `q` holds the queues of `here`.
    #[inline]
    fn best_minimal(&self, q: &RouterQueues, here: u32, dst: u32, need: u32, rng: &mut SimRng) -> Option<Pick> {
        let hx = &self.hx;
        let mut best = None;
        for (d, ((&own, &target), dim)) in hx.coords(here).iter().zip(hx.coords(dst)).zip(hx.layout()).enumerate() {
            if own == target {
                continue;
            }
            let first = dim.port_toward(own as u32, target as u32);
            for port in first..first + dim.trunks {
                if !q.alive(port) {
                    continue;
                }
                let (vc, free) = best_adaptive_vc(q, port);
                if free >= need {
                    offer(&mut best, port, vc, q.port_queue(port), d, rng);
                }
            }
        }
        best
    }

    /// The best of the deroute outputs (to a switch still offset from the destination) of
    /// the deroutable offset dimensions whose best adaptive VC has at least `need` free,
    /// unpromised slots.
    #[allow(clippy::too_many_arguments)]
    fn best_deroute(
        &self,
        qv: &QueueView,
        q: &RouterQueues,
        here: u32,
        dst: u32,
        derouted: u32,
        need: u32,
        rng: &mut SimRng,
    ) -> Option<Pick> {
        let hx = &self.hx;
        let faults = q.any_failed();
        let mut best = None;
        for (d, ((&own, &target), dim)) in hx.coords(here).iter().zip(hx.coords(dst)).zip(hx.layout()).enumerate() {
            if own == target {
                continue;
            }
            let first = dim.port_toward(own as u32, target as u32);
            let direct = first..first + dim.trunks;
            // A further deroute is allowed where every minimal link has failed (§6).
            let minimal_failed = faults && !direct.clone().any(|p| q.alive(p));
            if derouted & (1 << d) != 0 && !minimal_failed {
                continue;
            }
            for port in (dim.first_port..dim.first_port + dim.ports()).filter(|p| !direct.contains(p)) {
                if faults && !(q.alive(port) && self.links_to(qv, here, d, port, target as u32)) {
                    continue;
                }
                let (vc, free) = best_adaptive_vc(q, port);
                if free >= need {
                    offer(&mut best, port, vc, q.port_queue(port), d, rng);
                }
            }
        }
        best
    }
}

impl Routing for Dal {
    fn vcs_required(&self) -> u32 {
        2
    }
    fn default_allocator(&self) -> AllocatorMode {
        AllocatorMode::Sequential
    }
    fn route(&self, ctx: &RouteCtx, pkt: &mut Packet, rng: &mut SimRng, _note: &mut RouteNote) -> Decision {
        if !self.recording.load(Ordering::Relaxed) {
            return self.decide(ctx, pkt, rng).0;
        }
        // Recording for the page's inspector: the same decision, then its numbers.
        let before = *pkt;
        let (decision, rule, dim) = self.decide(ctx, pkt, rng);
        let note = self.explain(ctx, &before, decision, rule, dim);
        if let Some(slot) = self.notes.lock().expect("not poisoned").get_mut(ctx.router as usize) {
            *slot = note;
        }
        decision
    }
    fn record_hop_notes(&self, routers: usize, on: bool) {
        *self.notes.lock().expect("not poisoned") = if on { vec![HopNote::default(); routers] } else { Vec::new() };
        self.recording.store(on, Ordering::Relaxed);
    }
    fn hop_note(&self, router: u32) -> Option<HopNote> {
        self.notes.lock().expect("not poisoned").get(router as usize).copied().filter(|n| n.valid)
    }
}

impl Dal {
    /// The decision, which rule made it and the dimension of the chosen output
    /// (`usize::MAX` for the escape VC's dimension order: the lowest offset dimension).
    #[inline(always)]
    fn decide(&self, ctx: &RouteCtx, pkt: &mut Packet, rng: &mut SimRng) -> (Decision, &'static str, usize) {
        let q = ctx.here();
        if pkt.route_bits & ESCAPE != 0 {
            return self.escape(ctx, &q, pkt, IN_ESCAPE.name);
        }
        let free = self.unblocked.max(pkt.size as u32);
        let uncongested = free.max(q.depth().saturating_sub(self.queue_threshold));
        // (2) an unblocked, uncongested aligning output in some offset dimension.
        match self.best_minimal(&q, ctx.router, pkt.dst_router, uncongested, rng) {
            Some(b) => (Decision::Forward { port: b.port, vc: b.vc }, MINIMAL.name, b.dim),
            None => self.deroute_or_escape(ctx, &q, pkt, free, uncongested, rng),
        }
    }

    /// Rules 3, 2' and 4, when no aligning output is uncongested (rare below saturation,
    /// hence out of line).
    #[inline(never)]
    fn deroute_or_escape(
        &self,
        ctx: &RouteCtx,
        q: &RouterQueues,
        pkt: &mut Packet,
        free: u32,
        uncongested: u32,
        rng: &mut SimRng,
    ) -> (Decision, &'static str, usize) {
        let (here, dst) = (ctx.router, pkt.dst_router);
        // (3) a deroute in a deroutable offset dimension to a switch still offset.
        if let Some(b) = self.best_deroute(&ctx.queues, q, here, dst, pkt.route_bits, uncongested, rng) {
            pkt.route_bits |= 1 << b.dim;
            pkt.nonminimal = true;
            return (Decision::Forward { port: b.port, vc: b.vc }, DEROUTE.name, b.dim);
        }
        // (2') nothing uncongested: an aligning output that is merely unblocked.
        if let Some(b) = self.best_minimal(q, here, dst, free, rng) {
            return (Decision::Forward { port: b.port, vc: b.vc }, MINIMAL_CONGESTED.name, b.dim);
        }
        // (4) escape.
        pkt.route_bits |= ESCAPE;
        self.escape(ctx, q, pkt, ESCAPE_RULE.name)
    }

    /// The escape network's hop: dimension order on an escape (odd) VC, or a detour
    /// around a failed link (see the module documentation).
    #[inline]
    fn escape(
        &self,
        ctx: &RouteCtx,
        q: &RouterQueues,
        pkt: &mut Packet,
        rule: &'static str,
    ) -> (Decision, &'static str, usize) {
        let port = dor_port(&self.hx, &ctx.queues, ctx.router, pkt.dst_router);
        if !q.any_failed() {
            return (Decision::Forward { port, vc: vc_in_class_at(q, port, 1, 2) }, rule, usize::MAX);
        }
        self.escape_around_failures(ctx, q, pkt, port, rule)
    }

    /// [`Dal::escape`] in a network with failed links.
    #[cold]
    #[inline(never)]
    fn escape_around_failures(
        &self,
        ctx: &RouteCtx,
        q: &RouterQueues,
        pkt: &mut Packet,
        port: u32,
        rule: &'static str,
    ) -> (Decision, &'static str, usize) {
        // The highest odd VC.
        let highest = (q.vcs() - 1) | 1;
        let highest = if highest < q.vcs() { highest } else { highest - 2 };
        if q.alive(port) {
            if pkt.route_bits & DETOUR != 0 {
                pkt.route_bits &= !DETOUR;
                return (Decision::Forward { port, vc: highest }, "detour", usize::MAX);
            }
            return (Decision::Forward { port, vc: vc_in_class_at(q, port, 1, 2) }, rule, usize::MAX);
        }
        // A detour: through the switch of the same dimension, linked to both ends, with
        // the shortest queue.
        let hx = &self.hx;
        let (here, dst) = (ctx.router, pkt.dst_router);
        let d = (0..hx.dims()).find(|&d| hx.coord(here, d) != hx.coord(dst, d)).expect("not at the destination");
        let (target, dim) = (hx.coord(dst, d), &hx.layout()[d]);
        let direct = hx.port_to(here, d, target, 0)..hx.port_to(here, d, target, 0) + dim.trunks;
        let via = (dim.first_port..dim.first_port + dim.ports())
            .filter(|&p| !direct.contains(&p) && q.alive(p) && self.links_to(&ctx.queues, here, d, p, target))
            .min_by_key(|&p| q.port_queue(p));
        let Some(via) = via else {
            // No detour in this dimension: the packet is unroutable.
            return (Decision::Forward { port, vc: 1 }, "unroutable", usize::MAX);
        };
        pkt.route_bits |= DETOUR;
        // The escape VCs below the highest (the only one when there is one).
        let (credits, _) = q.channel_vcs(via);
        let vc = (1..highest).step_by(2).max_by_key(|&v| (credits[v as usize], std::cmp::Reverse(v))).unwrap_or(1);
        (Decision::Forward { port: via, vc }, "detour", usize::MAX)
    }

    /// Whether the switch that port `port` (of dimension `d`) of `here` leads to has a
    /// working link to coordinate `target` of that dimension (or is at it).
    fn links_to(&self, qv: &QueueView, here: u32, d: usize, port: u32, target: u32) -> bool {
        let hx = &self.hx;
        let dim = &hx.layout()[d];
        let m = dim.coord_of_port(hx.coord(here, d), port);
        if m == target {
            return true;
        }
        let via = hx.neighbor(here, d, m);
        let first = hx.port_to(via, d, target, 0);
        (first..first + dim.trunks).any(|p| qv.alive(via, p))
    }

    /// The numbers behind a decision, per dimension, from the queue state it was made on
    /// (`pkt` as it was before the decision). Only called while recording.
    #[cold]
    fn explain(&self, ctx: &RouteCtx, pkt: &Packet, decision: Decision, rule: &'static str, dim: usize) -> HopNote {
        let hx = &self.hx;
        let q = &ctx.here();
        let (here, dst) = (ctx.router, pkt.dst_router);
        let need_free = self.unblocked.max(pkt.size as u32);
        let (port, vc) = match decision {
            Decision::Forward { port, vc } => (port, vc),
            Decision::Wait => (u32::MAX, u32::MAX),
        };
        let mut note = HopNote {
            valid: true,
            cycle: ctx.now,
            packet_src: pkt.src,
            packet_dst: pkt.dst,
            packet_hops: pkt.hops as u32,
            in_port: ctx.in_port,
            in_vc: ctx.in_vc,
            need_free,
            need_uncongested: need_free.max(q.depth().saturating_sub(self.queue_threshold)),
            rule,
            port,
            vc,
            dim: if dim == usize::MAX {
                (0..hx.dims()).find(|&d| hx.coord(here, d) != hx.coord(dst, d)).unwrap_or(0) as u32
            } else {
                dim as u32
            },
            dims: hx.dims().min(NOTE_DIMS) as u32,
            per_dim: Default::default(),
        };
        // The output with the most free slots (shorter queue on ties) among `ports`.
        let best_of = |ports: &mut dyn Iterator<Item = u32>| -> Option<(u32, u32)> {
            let mut best: Option<(u32, u32)> = None;
            for p in ports {
                let (free, len) = (best_adaptive_vc(q, p).1, q.port_queue(p));
                if best.is_none_or(|(f, l)| free > f || free == f && len < l) {
                    best = Some((free, len));
                }
            }
            best
        };
        for d in 0..hx.dims().min(NOTE_DIMS) {
            let (own, target) = (hx.coord(here, d), hx.coord(dst, d));
            let n = &mut note.per_dim[d];
            n.offset = own != target;
            n.deroutable = pkt.route_bits & (1 << d) == 0 && pkt.route_bits & ESCAPE == 0;
            if !n.offset {
                continue;
            }
            let direct = hx.port_to(here, d, target, 0);
            if let Some((free, len)) = best_of(&mut (direct..direct + hx.k[d])) {
                (n.min_free, n.min_queue) = (free, len);
            }
            let (base, count) = hx.dim_ports(d);
            if let Some((free, len)) =
                best_of(&mut (base..base + count).filter(|p| !(direct..direct + hx.k[d]).contains(p)))
            {
                (n.has_deroute, n.der_free, n.der_queue) = (true, free, len);
            }
        }
        note
    }
}

#[cfg(test)]
mod tests {
    use super::ESCAPE;
    use crate::config::{RoutingConfig, TopologyConfig};
    use crate::packet::Packet;
    use crate::routing::fixture::{rng_drawing_first, RouterState};
    use crate::routing::Decision;
    use crate::topology::HyperX;

    /// A 4×4 HyperX (one terminal per switch), 2 VCs (VC 0 adaptive, VC 1 escape) of 8
    /// flits, DAL's defaults: an output is *unblocked* with ≥ 1 unpromised free slot on VC 0
    /// and *uncongested* with ≥ 8 − 2 = 6.
    fn state() -> (RouterState, HyperX) {
        let s = RouterState::new(TopologyConfig::hyperx(vec![4, 4], vec![1], 1), 2, 8);
        let hx = s.topo.as_hyperx().unwrap().clone();
        (s, hx)
    }

    fn route(s: &RouterState, dst: u32, route_bits: u32) -> (Decision, Packet) {
        let dal = s.routing("dal", &RoutingConfig::default());
        let mut pkt = s.packet_between(0, dst);
        pkt.route_bits = route_bits;
        let ctx = s.ctx_at_source(&pkt);
        let (d, _) = RouterState::decide(&*dal, &ctx, &mut pkt, &mut rng_drawing_first(4, 0));
        (d, pkt)
    }

    /// The rules of HyperX §3.3 at switch (0,0) for a packet to (1,1): both dimensions
    /// offset, minimal outputs `a` (dimension 0, to x = 1) and `b` (dimension 1, to y = 1).
    #[test]
    fn dal_minimal_then_deroute_then_escape() {
        type Setup = fn(&mut RouterState, &HyperX);
        // (row, route_bits before, setup, expected port, VC, route_bits after, non-minimal)
        #[allow(clippy::type_complexity)]
        let rows: &[(&str, u32, Setup, fn(&HyperX) -> u32, u32, u32, bool)] = &[
            (
                "unblocked uncongested minimal outputs: the shorter queue",
                0,
                |s, hx| {
                    s.set_queue(0, hx.port_to(0, 0, 1, 0), 0, 1).set_queue(0, hx.port_to(0, 1, 1, 0), 0, 2);
                },
                |hx| hx.port_to(0, 0, 1, 0),
                0,
                0,
                false,
            ),
            (
                "a congested (5 free < 6): b, the only uncongested, although its port queue is longer",
                0,
                |s, hx| {
                    s.set_queue(0, hx.port_to(0, 0, 1, 0), 0, 3);
                    s.set_queue(0, hx.port_to(0, 1, 1, 0), 0, 1).set_queue(0, hx.port_to(0, 1, 1, 0), 1, 6);
                },
                |hx| hx.port_to(0, 1, 1, 0),
                0,
                0,
                false,
            ),
            (
                "promised slots count: a's 3 committed flits leave 5 unpromised, congested",
                0,
                |s, hx| {
                    s.commit(0, hx.port_to(0, 0, 1, 0), 0, 3);
                    s.set_queue(0, hx.port_to(0, 1, 1, 0), 0, 1).set_queue(0, hx.port_to(0, 1, 1, 0), 1, 6);
                },
                |hx| hx.port_to(0, 1, 1, 0),
                0,
                0,
                false,
            ),
            (
                "all minimal congested: one deroute (the shortest), its dimension marked",
                0,
                |s, hx| {
                    s.set_queue(0, hx.port_to(0, 0, 1, 0), 0, 3).set_queue(0, hx.port_to(0, 1, 1, 0), 0, 3);
                    for p in [hx.port_to(0, 0, 2, 0), hx.port_to(0, 0, 3, 0), hx.port_to(0, 1, 2, 0)] {
                        s.set_queue(0, p, 1, 1);
                    }
                },
                |hx| hx.port_to(0, 1, 3, 0),
                0,
                1 << 1,
                true,
            ),
            (
                "minimal and deroutes congested: a merely unblocked minimal output",
                0,
                |s, hx| {
                    s.set_queue(0, hx.port_to(0, 0, 1, 0), 0, 3).set_queue(0, hx.port_to(0, 1, 1, 0), 0, 3);
                    s.set_queue(0, hx.port_to(0, 1, 1, 0), 1, 1);
                    for p in
                        [hx.port_to(0, 0, 2, 0), hx.port_to(0, 0, 3, 0), hx.port_to(0, 1, 2, 0), hx.port_to(0, 1, 3, 0)]
                    {
                        s.set_queue(0, p, 0, 3);
                    }
                },
                |hx| hx.port_to(0, 0, 1, 0),
                0,
                0,
                false,
            ),
            (
                "both dimensions already derouted: no second deroute, the congested minimal output",
                0b11,
                |s, hx| {
                    s.set_queue(0, hx.port_to(0, 0, 1, 0), 0, 3).set_queue(0, hx.port_to(0, 1, 1, 0), 0, 3);
                    s.set_queue(0, hx.port_to(0, 1, 1, 0), 1, 1);
                },
                |hx| hx.port_to(0, 0, 1, 0),
                0,
                0b11,
                false,
            ),
            (
                "nothing unblocked: the escape VC in dimension order (dimension 0 first)",
                0,
                |s, hx| {
                    for p in [
                        hx.port_to(0, 0, 1, 0),
                        hx.port_to(0, 1, 1, 0),
                        hx.port_to(0, 0, 2, 0),
                        hx.port_to(0, 0, 3, 0),
                        hx.port_to(0, 1, 2, 0),
                        hx.port_to(0, 1, 3, 0),
                    ] {
                        s.set_queue(0, p, 0, 8);
                    }
                },
                |hx| hx.port_to(0, 0, 1, 0),
                1,
                ESCAPE,
                false,
            ),
        ];
        for &(what, bits, setup, port, vc, bits_after, nonminimal) in rows {
            let (mut s, hx) = state();
            setup(&mut s, &hx);
            let dst = hx.neighbor(hx.neighbor(0, 0, 1), 1, 1);
            let (d, pkt) = route(&s, dst, bits);
            assert_eq!(d, Decision::Forward { port: port(&hx), vc }, "{what}");
            assert_eq!((pkt.route_bits, pkt.nonminimal), (bits_after, nonminimal), "{what}");
        }
    }

    /// Failed links (HyperX §6) for a packet from (0,0) to (1,0) that already derouted in
    /// dimension 0: a failed minimal link permits a further deroute, but only to a switch
    /// whose own link to x = 1 works; without the failure it stays minimal.
    #[test]
    fn dal_further_deroute_around_a_failed_minimal_link() {
        // (row, fail the minimal link, fail (3,0)–(1,0), minimal congested, expected x)
        let rows: &[(&str, bool, bool, bool, u32)] = &[
            ("no failure: the minimal link", false, false, false, 1),
            ("derouted already, minimal congested: no second deroute", false, false, true, 1),
            ("minimal link failed: a further deroute, to the shorter (x = 3)", true, false, false, 3),
            ("and (3,0)–(1,0) failed too: the filter leaves x = 2", true, true, false, 2),
        ];
        for &(what, fail_min, fail_far, congested, x) in rows {
            let (mut s, hx) = state();
            let dst = hx.neighbor(0, 0, 1);
            s.set_queue(0, hx.port_to(0, 0, 2, 0), 1, 1);
            if congested {
                s.set_queue(0, hx.port_to(0, 0, 1, 0), 0, 3);
            }
            if fail_min {
                s.fail(0, hx.port_to(0, 0, 1, 0));
            }
            if fail_far {
                let far = hx.neighbor(0, 0, 3);
                s.fail(far, hx.port_to(far, 0, 1, 0));
            }
            let (d, pkt) = route(&s, dst, 1);
            assert_eq!(d, Decision::Forward { port: hx.port_to(0, 0, x, 0), vc: 0 }, "{what}");
            assert_eq!(pkt.nonminimal, x != 1, "{what}");
            assert_eq!(pkt.route_bits, 1, "{what}: the dimension stays marked");
        }
    }
}
