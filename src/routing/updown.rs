//! Routing on the folded Clos, the comparison network of the FB paper (§3.3, Table 1), the
//! HyperX paper (§4.1, Fig. 7) and the 2DFB paper (§IV): adaptive up-routing and
//! deterministic down-routing.

use super::{network_of, Algorithm, Decision, Decisions, RouteCtx, RouteNote, Routing};
use crate::config::schema::Family;
use crate::config::AllocatorMode;
use crate::packet::Packet;
use crate::rng::SimRng;
use crate::topology::{FoldedClos, Network};

/// Up/down routing on the folded Clos: see [`UpDownAdaptive`].
pub(crate) const UPDOWN_AD: Algorithm = Algorithm {
    name: "updown_ad",
    decisions: Decisions::None,
    family: Family::FOLDED_CLOS,
    description:
        "adaptive up-routing to a common ancestor (shortest queue, sequential), deterministic down-routing (FB Table 1)",
    params: &[],
    build: |_, topo| Ok(Box::new(UpDownAdaptive::new(network_of(topo)?))),
};

/// The VC of `port` with the most credits (one VC class).
#[inline]
pub(super) fn roomiest_vc(ctx: &RouteCtx, port: u32) -> u32 {
    super::hyperx_min::vc_in_class(&ctx.queues, ctx.router, port, 0, 1)
}

/// Folded Clos (Kim, Dally, Abts, SC06, as used by FB §3.3 Table 1 "adaptive sequential"):
/// below the nearest common ancestor of source and destination a packet goes *up* on the
/// up port with the shortest queue (ties at random; sequential allocator, so inputs of
/// one cycle see each other's choices); at a common ancestor it goes *down* on the unique
/// port towards the destination. Up/down routing never turns down-then-up, so one VC is
/// deadlock free.
///
/// **Failed links** (HyperX paper §6): failed uplinks are never chosen, and neither is an
/// uplink from which every way up leads to an ancestor whose deterministic down path to
/// the destination meets a failed downlink: each up port keeps a table of the destinations
/// it must not carry, compressed into ranges of terminals ("contiguous ranges of
/// destinations can be handled by a single entry"), rebuilt when links fail or recover.
#[derive(Clone)]
pub struct UpDownAdaptive {
    clos: FoldedClos,
    /// Per port id: the destination terminal ranges `[lo, hi)` that up port must not
    /// carry (empty without failed links).
    disallowed: Vec<Vec<(u32, u32)>>,
    /// See [`UpDownAdaptive::unreachable_leaf_pairs`].
    unreachable: usize,
}

impl UpDownAdaptive {
    pub fn new(clos: &FoldedClos) -> Self {
        UpDownAdaptive { clos: clos.clone(), disallowed: Vec::new(), unreachable: 0 }
    }

    /// Entries of the disallowed-uplink tables, over all switches (the paper's table
    /// size after range compression).
    pub fn table_entries(&self) -> usize {
        self.disallowed.iter().map(Vec::len).sum()
    }

    /// Ordered pairs of leaf switches between which up/down routing finds no working path
    /// (the network may still be connected through paths that turn down and up again,
    /// which up/down routing never takes): packets between them are counted unroutable.
    pub fn unreachable_leaf_pairs(&self) -> usize {
        self.unreachable
    }

    fn allowed(&self, port_id: usize, dst: u32) -> bool {
        self.disallowed.get(port_id).is_none_or(|ranges| !ranges.iter().any(|&(lo, hi)| (lo..hi).contains(&dst)))
    }
}

/// Largest (switch, leaf switch) table [`reachability`] builds (16 M entries, 16 MB).
const MAX_REACH_ENTRIES: u64 = 1 << 24;

/// `reach[router][leaf]`: whether up/down routing from `router` can reach leaf switch
/// `leaf` over working links (at an ancestor: its down path; below: some working up port
/// to a switch that can).
fn reachability(clos: &FoldedClos, failed: &[bool]) -> Vec<Vec<bool>> {
    let net = clos.network();
    let per_leaf = clos.terminals_per_leaf();
    let leaves = clos.switches_at(0);
    let mut reach = vec![Vec::new(); net.routers()];
    // Higher levels first: a switch's answer depends on its parents'.
    let mut routers: Vec<u32> = (0..net.routers() as u32).collect();
    routers.sort_by_key(|&r| std::cmp::Reverse(clos.level_of(r).0));
    for r in routers {
        let row = (0..leaves)
            .map(|leaf| {
                let dst = leaf * per_leaf;
                if clos.down_port(r, dst).is_some() {
                    let mut at = r;
                    while clos.level_of(at).0 > 0 {
                        let p = clos.down_port(at, dst).expect("an ancestor's child is one");
                        if failed[net.port_id(at, p)] {
                            return false;
                        }
                        at = net.port(at, p).peer_router;
                    }
                    true
                } else {
                    let (first, count) = clos.up_ports(r);
                    (first..first + count).any(|u| {
                        !failed[net.port_id(r, u)] && reach[net.port(r, u).peer_router as usize][leaf as usize]
                    })
                }
            })
            .collect();
        reach[r as usize] = row;
    }
    reach
}

impl Routing for UpDownAdaptive {
    fn vcs_required(&self) -> u32 {
        1
    }
    fn default_allocator(&self) -> AllocatorMode {
        AllocatorMode::Sequential
    }
    fn route(&self, ctx: &RouteCtx, pkt: &mut Packet, rng: &mut SimRng, _note: &mut RouteNote) -> Decision {
        let here = ctx.router;
        if let Some(port) = self.clos.down_port(here, pkt.dst) {
            return Decision::Forward { port, vc: roomiest_vc(ctx, port) };
        }
        let (first, count) = self.clos.up_ports(here);
        debug_assert!(count > 0, "top switches are ancestors of every terminal");
        let q = &ctx.queues;
        let faults = q.any_failed();
        let (mut best, mut best_len, mut ties) = (first, u32::MAX, 0);
        for port in first..first + count {
            if faults && !(q.alive(here, port) && self.allowed(ctx.first_port + port as usize, pkt.dst)) {
                continue;
            }
            let len = q.port_queue(here, port);
            if len < best_len {
                (best, best_len, ties) = (port, len, 1);
            } else if len == best_len {
                ties += 1;
                if rng.below(ties) == 0 {
                    best = port;
                }
            }
        }
        // No allowed uplink (failures that up/down routing cannot route around): the
        // first, counted unroutable if it has failed.
        Decision::Forward { port: best, vc: roomiest_vc(ctx, best) }
    }
    fn set_faults(&mut self, net: &Network, failed: &[bool]) -> Result<(), String> {
        if !failed.contains(&true) {
            (self.disallowed, self.unreachable) = (Vec::new(), 0);
            return Ok(());
        }
        let clos = &self.clos;
        let entries = net.routers() as u64 * clos.switches_at(0) as u64;
        if entries > MAX_REACH_ENTRIES {
            return Err(format!(
                "folded-Clos up-routing around failed links needs a table of {entries} (switch, leaf) entries, above the simulator's {MAX_REACH_ENTRIES}: fail links in a smaller folded Clos"
            ));
        }
        let reach = reachability(clos, failed);
        let leaves = clos.switches_at(0) as usize;
        self.unreachable =
            (0..leaves).map(|l| reach[l].iter().enumerate().filter(|&(m, &ok)| m != l && !ok).count()).sum();
        let per_leaf = clos.terminals_per_leaf();
        let mut disallowed = vec![Vec::new(); net.total_ports()];
        for r in 0..net.routers() as u32 {
            let (first, count) = clos.up_ports(r);
            for u in first..first + count {
                let id = net.port_id(r, u);
                if failed[id] {
                    continue; // never chosen: routing skips failed links
                }
                let peer = net.port(r, u).peer_router as usize;
                let ranges: &mut Vec<(u32, u32)> = &mut disallowed[id];
                for (leaf, &ok) in reach[peer].iter().enumerate() {
                    if ok {
                        continue;
                    }
                    let (lo, hi) = (leaf as u32 * per_leaf, (leaf as u32 + 1) * per_leaf);
                    match ranges.last_mut() {
                        Some(last) if last.1 == lo => last.1 = hi,
                        _ => ranges.push((lo, hi)),
                    }
                }
            }
        }
        self.disallowed = disallowed;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use crate::config::{RoutingConfig, TopologyConfig};
    use crate::rng::SimRng;
    use crate::routing::fixture::{port_of, RouterState};
    use crate::topology::FoldedClos;

    /// Up/down routing on a two-level folded Clos (4 leaves of 4 terminals, 4 spines; FB
    /// paper §3.3): a packet for another leaf goes up on the up port with the shortest
    /// queue (ties shared at random), never on a failed one while another works; a packet
    /// for its own leaf, and every packet at a spine, goes down on the one port towards its
    /// destination, whatever the queues.
    #[test]
    fn up_on_the_shortest_queue_down_on_the_one_path() {
        let fresh = || RouterState::new(TopologyConfig::folded_clos(vec![4, 4], vec![4]), 1, 8);
        let s = fresh();
        let clos = s.topo.get::<FoldedClos>().unwrap().clone();
        let (up0, ups) = clos.up_ports(0);
        assert_eq!(ups, 4);
        let routing = |s: &RouterState| s.routing("updown_ad", &RoutingConfig::default());
        let decide = |s: &RouterState, dst: u32, seed: u64| {
            port_of(s.route_at_source(&*routing(s), s.packet(0, dst), &mut SimRng::new(seed, 2)).0)
        };
        // Another leaf: the shortest up queue.
        let mut s = fresh();
        s.set_queue(0, up0, 0, 3).set_queue(0, up0 + 1, 0, 1).set_queue(0, up0 + 2, 0, 2).set_queue(0, up0 + 3, 0, 1);
        let chosen: std::collections::BTreeSet<u32> = (0..64).map(|seed| decide(&s, 13, seed)).collect();
        assert_eq!(chosen, [up0 + 1, up0 + 3].into(), "the two shortest up queues, shared at random");
        s.fail(0, up0 + 1).fail(0, up0 + 3);
        assert!((0..16).all(|seed| decide(&s, 13, seed) == up0 + 2), "failed uplinks are never taken");
        // Its own leaf: down to the terminal, not up (the up queues are empty).
        assert_eq!(decide(&fresh(), 2, 1), clos.down_port(0, 2).unwrap());
        // At a spine: down towards the destination's leaf, however long that queue is.
        let mut s = fresh();
        let spine = s.net().port(0, up0).peer_router;
        let down = clos.down_port(spine, 13).unwrap();
        s.set_queue(spine, down, 0, 8);
        let mut pkt = s.packet(0, 13);
        let (decision, _) = RouterState::decide(&*routing(&s), &s.ctx(spine, 0, 0), &mut pkt, &mut SimRng::new(1, 2));
        assert_eq!(port_of(decision), down);
    }
}
