//! Routing algorithms.
//!
//! A routing algorithm *proposes*: for the packet at the head of an input VC it returns
//! one output port and output VC ([`Decision::Forward`]) or asks to be asked again next
//! cycle ([`Decision::Wait`]). The engine *disposes*: it commits the decision (so the
//! queue estimate of later decisions sees it, per the allocator mode), and the switch
//! allocator moves the packet when the output VC has credits. Ejection at the destination
//! router is done by the engine; algorithms never see a packet that has arrived.
//!
//! Adaptive algorithms read congestion only through [`QueueView`], the credit-based
//! estimate of the FB paper §3.1: downstream occupancy `B − credits` plus flits already
//! committed to the output in this router. Only algorithms that are explicitly global
//! (UGAL-G) read other routers' state.

pub(crate) mod clos_ad;
pub mod dal;
pub(crate) mod dest_tag;
pub(crate) mod dilated;
pub(crate) mod dragonfly;
#[cfg(test)]
pub(crate) mod fixture;
pub(crate) mod hyperx_min;
pub(crate) mod ugal;
pub mod updown;
pub(crate) mod valiant;

use crate::config::schema::Family;
use crate::config::{AllocatorMode, ConfigErrors, RoutingConfig};
use crate::packet::Packet;
use crate::rng::SimRng;
use crate::topology::{BuiltTopology, Network, Topology};

/// What a routing algorithm decided for one packet at one router.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Decision {
    Forward {
        port: u32,
        vc: u32,
    },
    /// No acceptable output this cycle; ask again next cycle.
    Wait,
}

/// The numbers behind the last adaptive decision at a router, for inspection in the page
/// (its inspector, docs/lecture.md): e.g. `q_min·H_min` vs `q_nm·H_nm`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct RouteNote {
    pub cycle: u64,
    pub packet_src: u32,
    pub packet_dst: u32,
    /// Queue estimates and hop counts compared (minimal, non-minimal).
    pub q_min: u32,
    pub h_min: u32,
    pub q_nonmin: u32,
    pub h_nonmin: u32,
    /// For UGAL-L vs UGAL-G comparisons: the true queue of the global channel involved.
    pub q_true: u32,
    pub chose_minimal: bool,
    pub valid: bool,
}

impl RouteNote {
    /// UGAL's comparison (FB paper §3.1, dragonfly paper §4.2): route minimally iff
    /// `q_min·H_min ≤ q_nm·H_nm + threshold`; the note keeps the numbers and the outcome.
    pub fn ugal(
        now: u64,
        pkt: &Packet,
        (q_min, h_min): (u32, u32),
        (q_nonmin, h_nonmin): (u32, u32),
        q_true: u32,
        threshold: i64,
    ) -> RouteNote {
        let chose_minimal = (q_min as i64) * (h_min as i64) <= (q_nonmin as i64) * (h_nonmin as i64) + threshold;
        RouteNote {
            cycle: now,
            packet_src: pkt.src,
            packet_dst: pkt.dst,
            q_min,
            h_min,
            q_nonmin,
            h_nonmin,
            q_true,
            chose_minimal,
            valid: true,
        }
    }
}

/// Most dimensions a [`HopNote`] records (the HyperX limit).
pub const NOTE_DIMS: usize = 16;

/// One dimension of a per-hop decision (DAL, HyperX §3.3): the best output of each kind
/// in this dimension, as the algorithm saw it. "Free" = free downstream slots not promised
/// to packets already routed here, of the output's best adaptive VC; "queue" = the port's
/// queue estimate (the tie-breaker).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct DimNote {
    /// The packet still has to move in this dimension.
    pub offset: bool,
    /// Not derouted in this dimension yet (DAL allows one deroute per dimension).
    pub deroutable: bool,
    /// The aligning (minimal) output with the most free slots: its free slots and queue.
    pub min_free: u32,
    pub min_queue: u32,
    /// The same for the deroute outputs (to a switch still offset); `has_deroute` false
    /// when the dimension has none (aligned, or S = 2).
    pub has_deroute: bool,
    pub der_free: u32,
    pub der_queue: u32,
}

/// The numbers behind the last per-hop adaptive decision at a router (DAL), recorded only
/// while the page inspects ([`Routing::record_hop_notes`]); see `www/ui/inspector.js`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct HopNote {
    pub valid: bool,
    pub cycle: u64,
    pub packet_src: u32,
    pub packet_dst: u32,
    /// Router-to-router hops the packet had taken before this one.
    pub packet_hops: u32,
    pub in_port: u32,
    pub in_vc: u32,
    /// Free slots an output needed: to be unblocked (flowing) and to be uncongested.
    pub need_free: u32,
    pub need_uncongested: u32,
    /// Which rule decided: `minimal`, `deroute`, `minimal_congested`, `escape` (entered
    /// the escape VC now) or `in_escape` (already there: dimension order).
    pub rule: &'static str,
    pub port: u32,
    pub vc: u32,
    /// Dimension of the chosen output.
    pub dim: u32,
    pub dims: u32,
    pub per_dim: [DimNote; NOTE_DIMS],
}

/// Whether the latest of `ties` equally good candidates replaces the current pick: one
/// draw, true with probability `1/ties` (so every tied candidate ends up equally likely).
/// Out of line so that the loops of callers that rarely see ties (MIN AD, DAL) keep the
/// random stream's state out of their registers.
#[inline(never)]
pub fn wins_tie(rng: &mut SimRng, ties: u32) -> bool {
    rng.below(ties) == 0
}

/// What a failed link adds to its output's queue estimate (`port_queues`): every choice
/// by shortest queue or by `q·H` then avoids it while a working alternative exists, as
/// if its queue were endless (HyperX §6: failed links "are simply eliminated from the
/// possible routing alternates"), without a failure check in each algorithm's loops.
pub(crate) const FAILED_QUEUE: u32 = 1 << 24;

/// Read-only view of every router's output queue state (credits and commitments).
#[derive(Clone, Copy)]
pub struct QueueView<'a> {
    pub(crate) net: &'a Network,
    /// Free slots of each input VC as known upstream, indexed by the *downstream* input VC.
    pub(crate) credits: &'a [u16],
    /// Flits routed to each output VC but not yet through the switch.
    pub(crate) committed: &'a [u16],
    /// Downstream input port id of each output port (`u32::MAX` for terminal ports).
    pub(crate) downstream: &'a [u32],
    /// Per port id, [`QueueView::port_queue`] kept up to date by the engine.
    pub(crate) port_queues: &'a [u32],
    /// Per port id, whether its link has failed (HyperX §6); empty when none has, so
    /// that [`QueueView::alive`] costs no load then.
    pub(crate) failed: &'a [bool],
    pub(crate) vcs: u32,
    pub(crate) depth: u32,
}

impl<'a> QueueView<'a> {
    /// Output `port` of `router`, to read several of its VCs.
    #[inline]
    pub fn output(&self, router: u32, port: u32) -> Output<'a> {
        self.router(router).output(port)
    }
    /// Credits of every VC of output `port` (indexed by VC); `None` for a terminal output,
    /// which never runs out.
    #[inline]
    pub fn output_credits(&self, router: u32, port: u32) -> Option<&'a [u16]> {
        self.router(router).output_credits(port)
    }
    /// Credits (free downstream slots) of output VC `vc` of `port`; terminal outputs
    /// never run out.
    #[inline]
    pub fn credits(&self, router: u32, port: u32, vc: u32) -> u32 {
        self.output(router, port).credits(vc)
    }
    /// Queue estimate of one output VC: downstream occupancy plus committed flits.
    #[inline]
    pub fn vc_queue(&self, router: u32, port: u32, vc: u32) -> u32 {
        self.output(router, port).vc_queue(vc)
    }
    /// Queue estimate of a port: the sum of [`QueueView::vc_queue`] over its VCs (the
    /// engine maintains it as credits and commitments change, so it costs one load).
    #[inline]
    pub fn port_queue(&self, router: u32, port: u32) -> u32 {
        self.router(router).port_queue(port)
    }
    /// [`QueueView::port_queue`] of the port with id `id` in the per-port arrays.
    #[inline]
    pub fn port_queue_at(&self, id: u32) -> u32 {
        self.port_queues[id as usize]
    }
    /// Whether the link of port `port` of `router` works (has not failed).
    #[inline]
    pub fn alive(&self, router: u32, port: u32) -> bool {
        self.failed.is_empty() || !self.failed[self.net.port_id(router, port)]
    }
    /// [`QueueView::alive`] of the port with id `id`.
    #[inline]
    pub fn alive_at(&self, id: u32) -> bool {
        self.failed.is_empty() || !self.failed[id as usize]
    }
    /// Whether any link of the network has failed.
    #[inline]
    pub fn any_failed(&self) -> bool {
        !self.failed.is_empty()
    }
    pub fn vcs(&self) -> u32 {
        self.vcs
    }
    pub fn depth(&self) -> u32 {
        self.depth
    }
    /// The outputs of `router`, indexed by its port numbers: looks up the router's place
    /// in the per-port arrays once, for algorithms that read several of its ports.
    #[inline]
    pub fn router(&self, router: u32) -> RouterQueues<'_, 'a> {
        RouterQueues { view: self, first_id: self.net.port_offset(router) }
    }
}

/// The output queue state of one router (see [`QueueView::router`]): the same numbers as
/// the [`QueueView`] methods of the same names, by port number.
#[derive(Clone, Copy)]
pub struct RouterQueues<'v, 'a> {
    view: &'v QueueView<'a>,
    /// Id of the router's port 0 in the per-port arrays.
    first_id: usize,
}

impl<'a> RouterQueues<'_, 'a> {
    /// See [`QueueView::output`].
    #[inline]
    pub fn output(&self, port: u32) -> Output<'a> {
        let vcs = self.view.vcs as usize;
        let id = self.first_id + port as usize;
        Output {
            credits: self.output_credits(port),
            committed: &self.view.committed[id * vcs..][..vcs],
            depth: self.view.depth,
        }
    }
    /// See [`QueueView::output_credits`].
    #[inline]
    pub fn output_credits(&self, port: u32) -> Option<&'a [u16]> {
        let vcs = self.view.vcs as usize;
        let down = self.view.downstream[self.first_id + port as usize];
        (down != u32::MAX).then(|| &self.view.credits[down as usize * vcs..][..vcs])
    }
    /// Credits and commitments (indexed by VC) of output `port`, a channel to another
    /// router (not a terminal port): what [`Output::unpromised`] reads, as two slices.
    #[inline]
    pub fn channel_vcs(&self, port: u32) -> (&'a [u16], &'a [u16]) {
        let vcs = self.view.vcs as usize;
        let id = self.first_id + port as usize;
        let credits = self.output_credits(port).expect("a channel to another router has credits");
        (credits, &self.view.committed[id * vcs..][..vcs])
    }
    /// See [`QueueView::any_failed`].
    #[inline]
    pub fn any_failed(&self) -> bool {
        !self.view.failed.is_empty()
    }
    /// See [`QueueView::alive`].
    #[inline]
    pub fn alive(&self, port: u32) -> bool {
        self.view.failed.is_empty() || !self.view.failed[self.first_id + port as usize]
    }
    /// See [`QueueView::port_queue`].
    #[inline]
    pub fn port_queue(&self, port: u32) -> u32 {
        self.view.port_queues[self.first_id + port as usize]
    }
    /// Queue estimates of ports `first..first + count`, in port order.
    #[inline]
    pub fn port_queues(&self, first: u32, count: u32) -> &'a [u32] {
        &self.view.port_queues[self.first_id + first as usize..][..count as usize]
    }
    pub fn vcs(&self) -> u32 {
        self.view.vcs
    }
    pub fn depth(&self) -> u32 {
        self.view.depth
    }
}

/// The VCs of one output port (see [`QueueView::output`]).
#[derive(Clone, Copy)]
pub struct Output<'a> {
    /// Credits of each VC; `None` for a terminal port, which never runs out.
    credits: Option<&'a [u16]>,
    /// Flits routed to each VC that have not crossed the switch yet.
    committed: &'a [u16],
    depth: u32,
}

impl Output<'_> {
    /// Free downstream slots of VC `vc`.
    #[inline]
    pub fn credits(&self, vc: u32) -> u32 {
        self.credits.map_or(self.depth, |c| c[vc as usize] as u32)
    }
    /// Queue estimate of VC `vc`: downstream occupancy plus committed flits.
    #[inline]
    pub fn vc_queue(&self, vc: u32) -> u32 {
        self.depth - self.credits(vc) + self.committed[vc as usize] as u32
    }
    /// Free slots of VC `vc` not yet promised to a routed packet.
    #[inline]
    pub fn unpromised(&self, vc: u32) -> u32 {
        self.credits(vc).saturating_sub(self.committed[vc as usize] as u32)
    }
}

/// Everything an algorithm may look at when routing one packet.
pub struct RouteCtx<'a> {
    pub now: u64,
    pub router: u32,
    /// Id of the router's port 0 in the per-port arrays (see [`RouteCtx::here`]).
    pub first_port: usize,
    /// Input port the packet sits in (a terminal port at the source router).
    pub in_port: u32,
    pub in_vc: u32,
    pub queues: QueueView<'a>,
}

impl RouteCtx<'_> {
    /// The output queues of the router the packet is at: [`QueueView::router`] without
    /// looking up the router's place in the per-port arrays.
    #[inline]
    pub fn here(&self) -> RouterQueues<'_, '_> {
        RouterQueues { view: &self.queues, first_id: self.first_port }
    }
    /// Whether the packet is at its source router (it sits in a terminal input port).
    #[inline]
    pub fn at_source(&self) -> bool {
        self.queues.net.port(self.router, self.in_port).is_terminal()
    }
}

/// A routing algorithm. One file per family; registered in [`build`]. Every algorithm is
/// `Clone` (through [`RoutingClone`]) so that a whole simulation can be copied: the page's
/// rewind keeps periodic copies and replays from them.
pub trait Routing: Send + Sync + RoutingClone + RoutePass {
    /// VCs per port this algorithm needs for deadlock freedom.
    fn vcs_required(&self) -> u32;
    /// The allocator the paper uses with this algorithm (FB paper §3.1).
    fn default_allocator(&self) -> AllocatorMode {
        AllocatorMode::Greedy
    }
    /// Route the packet at the head of an input VC. `note` receives the numbers behind an
    /// adaptive choice (left alone by oblivious algorithms).
    fn route(&self, ctx: &RouteCtx, pkt: &mut Packet, rng: &mut SimRng, note: &mut RouteNote) -> Decision;
    /// UGAL-L_CR (dragonfly §4.3.2): routers measure credit round trips and delay upstream
    /// credits with these parameters; `None` (the default) for every other algorithm.
    fn credit_round_trip(&self) -> Option<CrParams> {
        None
    }
    /// Starts or stops recording the numbers behind every per-hop decision, the last one
    /// per router ([`HopNote`]; DAL). Off by default: the page turns it on while it
    /// inspects, so the engine never pays for it otherwise. Others ignore it.
    fn record_hop_notes(&self, _routers: usize, _on: bool) {}
    /// The last per-hop decision recorded at `router`, if any.
    fn hop_note(&self, _router: u32) -> Option<HopNote> {
        None
    }
    /// The failed links changed (`failed`: a flag per port id of `net`): algorithms that
    /// keep tables derived from them (folded-Clos up-routing's disallowed uplinks) renew
    /// them. The others read failures through [`QueueView`] and ignore this.
    /// Refuses a set whose tables would be too large (the error names why).
    fn set_faults(&mut self, _net: &Network, _failed: &[bool]) -> Result<(), String> {
        Ok(())
    }
}

/// Copies a boxed routing algorithm; implemented for every `Routing` that is `Clone`.
pub trait RoutingClone {
    fn clone_box(&self) -> Box<dyn Routing>;
}

impl<T: Routing + Clone + 'static> RoutingClone for T {
    fn clone_box(&self) -> Box<dyn Routing> {
        Box::new(self.clone())
    }
}

impl Clone for Box<dyn Routing> {
    fn clone(&self) -> Self {
        self.clone_box()
    }
}

/// The engine's route computation at a router, instantiated for every algorithm by the
/// blanket implementation below (an algorithm declares nothing for it): the engine makes
/// one dynamic call per router visit, and each routing decision is a static call to the
/// algorithm's [`Routing::route`], which the compiler may inline.
pub trait RoutePass {
    /// Computes the routes of router `r`'s unrouted head packets with this algorithm
    /// (part of step 3 of a cycle, [`crate::sim::Simulation::step`]).
    #[doc(hidden)]
    fn route_router(&self, sim: &mut crate::sim::Simulation, r: u32, now: u64);
}

impl<T: Routing> RoutePass for T {
    fn route_router(&self, sim: &mut crate::sim::Simulation, r: u32, now: u64) {
        sim.route_router(self, r, now)
    }
}

/// Parameters of UGAL-L_CR's credit round-trip mechanism (implemented by the engine in
/// `src/sim/credit_rtt.rs`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CrParams {
    /// Zero-load credit round trip in cycles; 0 = derived per output from the timing.
    pub crt0: u32,
    /// Timestamp one credit event of every `granularity` (1 = every one).
    pub granularity: u32,
}

/// One routing algorithm as users choose it: the single declaration from which `--list`,
/// the page's menu, both front ends' validation (through [`build`]) and the catalog's
/// "read only with" notes of the `routing.*` parameters are derived. Each algorithm's file
/// declares its own; [`ALGORITHMS`] registers it with one line.
#[derive(Clone, Copy)]
pub struct Algorithm {
    /// Its `routing.algorithm` value (unique within a family).
    pub name: &'static str,
    /// The topology family it runs on (see [`Topology::family`]).
    pub family: Family,
    /// One line for `--list` and the page, citing the paper section.
    pub description: &'static str,
    /// The `routing.*` parameters it reads, besides `routing.algorithm` and
    /// `routing.allocator` (which every algorithm reads).
    pub params: &'static [&'static str],
    /// What the page's inspector shows of its decisions at a router.
    pub decisions: Decisions,
    /// Builds it for a network of its family ([`build`] checks the family first).
    pub build: Builder,
}

/// What the page's inspector shows of an algorithm's decisions at a router (exported with
/// the algorithm in the catalog and in `routerDetail`, so the page names no algorithm).
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Decisions {
    /// Nothing beyond the ports: the route follows from the packet (oblivious, minimal).
    None,
    /// At the source, the minimal path against a non-minimal one by q·H (UGAL: FB §3.1,
    /// dragonfly §4.2–4.3): the last decision's numbers ([`RouteNote`]). `q` says what q
    /// measures for this algorithm; `true_queue` what is shown beside it.
    QueueTimesHops { q: &'static str, true_queue: TrueQueue },
    /// Hop by hop, dimension by dimension, with each output's state (DAL, HyperX §3.3),
    /// from the notes recorded while a router is inspected ([`HopNote`]), each decision
    /// made by one of `rules`.
    PerHopDimensions { rules: &'static [HopRule] },
    /// A direct link while its queue is within a threshold, else one non-minimal hop (the
    /// 2DFB paper's Algorithm 1), with each output's state.
    QueueThreshold,
}

/// A rule a per-hop algorithm decides a hop by, as the inspector explains it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
pub struct HopRule {
    /// The name its hop notes give it ([`HopNote::rule`]).
    pub name: &'static str,
    /// What it means, as one clause.
    pub explains: &'static str,
    /// The kind of hop it picks.
    pub hop: HopKind,
}

/// The kind of hop a [`HopRule`] picks.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum HopKind {
    /// Towards the destination.
    Minimal,
    /// Away from it, in a dimension still offset.
    Deroute,
    /// Into (or along) the escape VC, in dimension order.
    Escape,
}

/// What the inspector sets beside the queue a q·H decision sensed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum TrueQueue {
    /// Nothing: the sensed queue is the one the path meets.
    None,
    /// The true queue of the minimal global channel, against the sensed one: what the
    /// source router cannot see (UGAL-L, dragonfly §4.2).
    Compare,
    /// The true queue of the minimal global channel, which the algorithm reads (UGAL-G).
    Read,
}

/// How an [`Algorithm`] is built from its configuration for a network of its family.
pub type Builder = fn(&RoutingConfig, &Topology) -> Result<Box<dyn Routing>, ConfigErrors>;

/// Every routing algorithm, one line each.
pub const ALGORITHMS: &[Algorithm] = &[
    hyperx_min::MIN,
    hyperx_min::MIN_AD,
    valiant::VAL,
    ugal::UGAL,
    ugal::UGAL_S,
    clos_ad::CLOS_AD,
    clos_ad::CLOS_AD_HX,
    dal::DAL,
    dilated::ADAPTIVE_2DFB,
    hyperx_min::ECUBE,
    updown::UPDOWN_AD,
    dest_tag::DEST_TAG,
    dragonfly::MIN,
    dragonfly::VAL,
    dragonfly::UGAL_L,
    dragonfly::UGAL_G,
    dragonfly::UGAL_L_VC,
    dragonfly::UGAL_L_VCH,
    dragonfly::UGAL_L_CR,
];

/// The network as its family's type `T`, for an algorithm's `build` (which [`build`] only
/// calls on its own family, so the error names a mismatch that cannot happen through it):
/// `network_of::<HyperX>(topo)`.
pub(crate) fn network_of<T: BuiltTopology>(topo: &Topology) -> Result<&T, ConfigErrors> {
    topo.get().ok_or_else(|| {
        ConfigErrors::one("topology.type", format!("the algorithm does not run on a {} network", topo.family()))
    })
}

/// Builds the algorithm a configuration names for a topology, checking the VC count.
/// The declaration of the algorithm named `name` for networks of `family`, if any.
pub fn declaration(name: &str, family: Family) -> Option<&'static Algorithm> {
    ALGORITHMS.iter().find(|a| a.name == name && a.family == family)
}

pub fn build(cfg: &RoutingConfig, topo: &Topology, vcs: u32) -> Result<Box<dyn Routing>, ConfigErrors> {
    let path = "routing.algorithm";
    let named = || ALGORITHMS.iter().filter(|a| a.name == cfg.algorithm);
    let routing = match declaration(&cfg.algorithm, topo.family()) {
        Some(algorithm) => (algorithm.build)(cfg, topo)?,
        None => {
            let families: Vec<&str> = named().map(|a| a.family.name()).collect();
            return Err(ConfigErrors::one(
                path,
                if families.is_empty() {
                    let names: Vec<&str> = ALGORITHMS.iter().map(|a| a.name).collect();
                    format!("unknown routing algorithm '{}'; one of: {}", cfg.algorithm, names.join(", "))
                } else {
                    format!("{} runs on {} networks, not on this topology", cfg.algorithm, families.join(" and "))
                },
            ));
        }
    };
    if vcs < routing.vcs_required() {
        return Err(ConfigErrors::one(
            "router.vcs",
            format!(
                "{} needs at least {} VCs per port for deadlock freedom, got {vcs}",
                cfg.algorithm,
                routing.vcs_required()
            ),
        ));
    }
    Ok(routing)
}

#[cfg(test)]
mod tests {
    use super::ALGORITHMS;
    use crate::config::schema::params;

    /// Each algorithm is declared once per family, and the parameters it says it reads are
    /// declared routing parameters (so the catalog's conditions name real settings).
    #[test]
    fn declarations_are_unique_and_name_declared_parameters() {
        let declared: Vec<&str> = params().iter().map(|p| p.path).collect();
        for (i, a) in ALGORITHMS.iter().enumerate() {
            assert!(
                !ALGORITHMS[..i].iter().any(|b| b.name == a.name && b.family == a.family),
                "{} ({}) is registered twice",
                a.name,
                a.family
            );
            for p in a.params {
                assert!(
                    p.starts_with("routing.") && declared.contains(p),
                    "{}: {p} is not a routing parameter",
                    a.name
                );
            }
        }
    }
}
