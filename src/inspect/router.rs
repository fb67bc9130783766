//! A router's and a channel's detail, as the page's inspector shows them.

use serde::Serialize;

use super::{class_name, HopNoteView};
use crate::routing::Decisions;
use crate::sim::Simulation;

/// Per-VC state of one channel: downstream occupancy (the truth), upstream credits (the
/// sender's view), flits committed upstream, and the queue estimate adaptive routing reads.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct VcState {
    /// Flits in the downstream input VCs; `None` for a terminal output.
    pub flits: Option<Vec<u32>>,
    pub credits: Vec<u32>,
    pub committed: Vec<u32>,
    pub queue: Vec<u32>,
}

impl VcState {
    /// The channel leaving output port `port` of router `router` (global id `out`) and
    /// arriving at input port id `down`.
    fn of(sim: &Simulation, router: u32, port: u32, out: usize, down: Option<usize>) -> Self {
        let vcs = 0..sim.vcs();
        let q = sim.queues();
        VcState {
            flits: down.map(|d| vcs.clone().map(|v| sim.input_occupancy(d, v)).collect()),
            credits: vcs.clone().map(|v| sim.output_credits(out, v)).collect(),
            committed: vcs.clone().map(|v| sim.committed_flits(out, v)).collect(),
            queue: vcs.map(|v| q.vc_queue(router, port, v)).collect(),
        }
    }
}

/// One port of a router.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct PortDetail {
    pub port: u32,
    pub class: &'static str,
    pub dim: u16,
    /// The router and input port this output feeds; `None` for a terminal port.
    pub peer_router: Option<u32>,
    pub peer_port: Option<u32>,
    /// The terminal of a terminal port.
    pub terminal: Option<u32>,
    /// Flits in each input VC.
    pub in_flits: Vec<u32>,
    pub out: VcState,
    /// The port's queue estimate (without the failed-link penalty), and flits waiting in
    /// its output queue.
    pub port_queue: u32,
    pub output_queue: u32,
    /// Flits sent since the start.
    pub sent: u64,
    /// UGAL-L_CR's credit round-trip time `td` of this output, when measured.
    pub td: Option<u32>,
}

/// The last adaptive (UGAL) decision taken at a router: the queue lengths and hop counts it
/// compared (dragonfly paper §4.2), the true queue, and the choice.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct RouteNoteView {
    pub cycle: u64,
    pub src: u32,
    pub dst: u32,
    pub q_min: u32,
    pub h_min: u32,
    pub q_nonmin: u32,
    pub h_nonmin: u32,
    pub q_true: u32,
    pub chose_minimal: bool,
}

/// A terminal injecting at a router, and its source queue.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct TerminalDetail {
    pub terminal: u32,
    pub source_queue: u32,
}

/// UGAL-L_CR's credit delay counters (dragonfly paper §4.3).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct CreditDelay {
    pub delayed_credits: u64,
    pub delay_sum: u64,
}

/// Everything the inspector shows about a router.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct RouterDetail {
    pub router: u32,
    /// The dragonfly group, or the HyperX coordinates.
    pub group: Option<u32>,
    pub coords: Option<Vec<u32>>,
    pub load: u32,
    pub cycle: u64,
    pub ports: Vec<PortDetail>,
    /// The last adaptive decision taken here.
    pub note: Option<RouteNoteView>,
    pub terminals: Vec<TerminalDetail>,
    /// The last per-hop decision (DAL, while recording hop notes).
    pub hop_note: Option<HopNoteView>,
    pub recording_hop_notes: bool,
    pub credit_delay: Option<CreditDelay>,
    pub algorithm: String,
    /// What the algorithm's decisions mean (declared with it, `routing::Algorithm`).
    pub decisions: Option<Decisions>,
    pub ugal_threshold: i64,
    pub depth: u32,
    pub vcs: u32,
}

impl RouterDetail {
    /// Router `r` of `sim`, or `None` past the last router.
    pub fn of(sim: &Simulation, r: u32, recording_hop_notes: bool) -> Option<Self> {
        let net = sim.network();
        if r as usize >= net.routers() {
            return None;
        }
        let q = sim.queues();
        let sent = sim.sent_flits();
        let ports = (0..net.radix(r))
            .map(|p| {
                let port = net.port(r, p);
                let id = net.port_id(r, p);
                let (peer_router, peer_port, terminal) = if port.is_terminal() {
                    (None, None, Some(port.peer_port))
                } else {
                    (Some(port.peer_router), Some(port.peer_port), None)
                };
                let down = peer_router.map(|pr| net.port_id(pr, port.peer_port));
                let penalty = if sim.faults().failed(id) { crate::sim::FAILED_QUEUE } else { 0 };
                PortDetail {
                    port: p,
                    class: class_name(port.class),
                    dim: port.dim,
                    peer_router,
                    peer_port,
                    terminal,
                    in_flits: (0..sim.vcs()).map(|v| sim.input_occupancy(id, v)).collect(),
                    out: VcState::of(sim, r, p, id, down),
                    port_queue: q.port_queue(r, p) - penalty,
                    output_queue: sim.output_queue_len(id),
                    sent: sent[id],
                    td: sim.credit_round_trip(id).map(|c| c.0),
                }
            })
            .collect();
        let note = sim.route_notes()[r as usize];
        let note = note.valid.then_some(RouteNoteView {
            cycle: note.cycle,
            src: note.packet_src,
            dst: note.packet_dst,
            q_min: note.q_min,
            h_min: note.h_min,
            q_nonmin: note.q_nonmin,
            h_nonmin: note.h_nonmin,
            q_true: note.q_true,
            chose_minimal: note.chose_minimal,
        });
        let topology = sim.topology();
        let group = topology.as_dragonfly().map(|df| df.group(r));
        let coords = topology.as_hyperx().map(|hx| (0..hx.dims()).map(|d| hx.coord(r, d)).collect());
        let terminals = (0..net.terminals() as u32)
            .filter(|&t| net.inject_router(t) == r)
            .map(|t| TerminalDetail { terminal: t, source_queue: sim.source_queue_len(t) as u32 })
            .collect();
        let credit_delay =
            sim.credit_round_trip(0).map(|(_, delayed_credits, delay_sum)| CreditDelay { delayed_credits, delay_sum });
        let routing = &sim.config().routing;
        Some(RouterDetail {
            router: r,
            group,
            coords,
            load: sim.router_load(r),
            cycle: sim.now(),
            ports,
            note,
            terminals,
            hop_note: sim.hop_note(r).map(|n| HopNoteView::from(&n)),
            recording_hop_notes,
            credit_delay,
            algorithm: routing.algorithm.clone(),
            decisions: crate::routing::declaration(&routing.algorithm, sim.topology().family()).map(|a| a.decisions),
            ugal_threshold: routing.ugal_threshold,
            depth: sim.buffer_depth(),
            vcs: sim.vcs(),
        })
    }
}

/// Everything the inspector shows about a channel.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ChannelDetail {
    pub channel: u32,
    pub src: u32,
    pub src_port: u32,
    pub dst: u32,
    pub dst_port: u32,
    pub class: &'static str,
    pub dim: u16,
    #[serde(flatten)]
    pub vcs: VcState,
    pub sent: u64,
    pub cycle: u64,
    pub depth: u32,
    pub td: Option<u32>,
}

impl ChannelDetail {
    /// Channel `channel`, leaving output port id `up` and feeding input port id `down`.
    pub fn of(sim: &Simulation, channel: u32, up: usize, down: usize) -> Self {
        let net = sim.network();
        let (src, dst) = (net.router_of_port(up), net.router_of_port(down));
        let (src_port, dst_port) = ((up - net.port_offset(src)) as u32, (down - net.port_offset(dst)) as u32);
        let port = net.port_by_id(up);
        ChannelDetail {
            channel,
            src,
            src_port,
            dst,
            dst_port,
            class: class_name(port.class),
            dim: port.dim,
            vcs: VcState::of(sim, src, src_port, up, Some(down)),
            sent: sim.sent_flits()[up],
            cycle: sim.now(),
            depth: sim.buffer_depth(),
            td: sim.credit_round_trip(up).map(|c| c.0),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::SimConfig;

    fn dragonfly_ugal_l_cr() -> Simulation {
        let mut cfg = SimConfig::default();
        cfg.topology =
            serde_json::from_value(serde_json::json!({"type": "dragonfly", "p": 2, "a": 4, "h": 2, "g": 9})).unwrap();
        cfg.routing.algorithm = "ugal_l_cr".into();
        cfg.traffic.load = 0.4;
        let mut sim = Simulation::new(&cfg).unwrap();
        sim.advance(300).unwrap();
        sim
    }

    /// A dragonfly router under UGAL-L_CR: one entry per port, terminal ports without a peer
    /// router and network ports with one, the ports' input flits summing to its load, its
    /// group, its last UGAL decision with the hop counts of §4.2, and the credit round trips.
    #[test]
    fn a_router_shows_its_ports_group_and_last_decision() {
        let sim = dragonfly_ugal_l_cr();
        let net = sim.network();
        let busy = (0..net.routers() as u32).find(|&r| sim.route_notes()[r as usize].valid).expect("a decision");
        let d = RouterDetail::of(&sim, busy, false).unwrap();
        assert_eq!(d.ports.len(), net.radix(busy) as usize);
        assert_eq!(d.group, Some(busy / 4));
        assert!(d.coords.is_none() && d.hop_note.is_none() && d.credit_delay.is_some());
        for p in &d.ports {
            assert_eq!(p.terminal.is_some(), p.peer_router.is_none(), "port {}", p.port);
            assert_eq!(p.out.flits.is_none(), p.class == "terminal");
            assert_eq!((p.in_flits.len(), p.out.credits.len()), (d.vcs as usize, d.vcs as usize));
            assert!(p.td.is_some(), "UGAL-L_CR measures every output's credit round trip");
        }
        let flits: u32 = d.ports.iter().flat_map(|p| &p.in_flits).sum();
        assert_eq!(flits, d.load);
        assert_eq!(d.terminals.len(), 2);
        let note = d.note.expect("a UGAL decision");
        assert!(note.h_min >= 1 && note.h_nonmin > note.h_min, "non-minimal paths are longer: {note:?}");
        assert!(RouterDetail::of(&sim, net.routers() as u32, false).is_none());
    }

    /// A channel shows its endpoints (those of the router-to-router channel it is) and the
    /// same VC state as the upstream router's port.
    #[test]
    fn a_channel_matches_its_routers_port() {
        let sim = dragonfly_ugal_l_cr();
        let net = sim.network();
        for (c, (src, src_port, dst, dst_port)) in sim.router_channels().enumerate().step_by(7) {
            let ch = ChannelDetail::of(&sim, c as u32, net.port_id(src, src_port), net.port_id(dst, dst_port));
            assert_eq!((ch.src, ch.src_port, ch.dst, ch.dst_port), (src, src_port, dst, dst_port));
            let router = RouterDetail::of(&sim, src, false).unwrap();
            assert_eq!(ch.vcs, router.ports[src_port as usize].out);
            assert_eq!(ch.vcs.flits.as_ref().map(Vec::len), Some(sim.vcs() as usize));
        }
    }
}
