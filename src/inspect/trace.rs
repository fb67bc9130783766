//! The followed packet's hops (the page's trace panel, `www/ui/trace-view.js`) and DAL's
//! per-hop note (HyperX paper §4.2, shown by the inspector).

use serde::Serialize;

use super::class_name;
use crate::routing::HopNote;
use crate::sim::{Simulation, TraceEvent};

/// One dimension of a DAL per-hop note ([`crate::routing::DimNote`]).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct DimNoteView {
    pub offset: bool,
    pub deroutable: bool,
    pub min_free: u32,
    pub min_queue: u32,
    pub has_deroute: bool,
    pub der_free: u32,
    pub der_queue: u32,
}

/// The numbers behind one per-hop routing decision ([`HopNote`]): the packet, the input it
/// waits in, what the rule needed, the rule that chose, and every dimension's options.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct HopNoteView {
    pub cycle: u64,
    pub src: u32,
    pub dst: u32,
    pub hops: u32,
    pub in_port: u32,
    pub in_vc: u32,
    pub need_free: u32,
    pub need_uncongested: u32,
    pub rule: &'static str,
    pub port: u32,
    pub vc: u32,
    pub dim: u32,
    pub per_dim: Vec<DimNoteView>,
}

impl From<&HopNote> for HopNoteView {
    fn from(n: &HopNote) -> Self {
        let per_dim = n.per_dim[..n.dims as usize]
            .iter()
            .map(|d| DimNoteView {
                offset: d.offset,
                deroutable: d.deroutable,
                min_free: d.min_free,
                min_queue: d.min_queue,
                has_deroute: d.has_deroute,
                der_free: d.der_free,
                der_queue: d.der_queue,
            })
            .collect();
        HopNoteView {
            cycle: n.cycle,
            src: n.packet_src,
            dst: n.packet_dst,
            hops: n.packet_hops,
            in_port: n.in_port,
            in_vc: n.in_vc,
            need_free: n.need_free,
            need_uncongested: n.need_uncongested,
            rule: n.rule,
            port: n.port,
            vc: n.vc,
            dim: n.dim,
            per_dim,
        }
    }
}

/// How a traced packet left a router.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Departure {
    pub out_port: u32,
    pub out_vc: u32,
    /// The cycle it left.
    pub left: u64,
    /// The channel it took (`None` for its terminal, where it is delivered).
    pub channel: Option<u32>,
    pub class: &'static str,
    pub dim: u16,
    pub next_router: Option<u32>,
}

/// One router a traced packet visited.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct TraceHop {
    pub router: u32,
    pub in_port: u32,
    pub in_vc: u32,
    /// The cycle it became usable in its input VC.
    pub arrived: u64,
    /// The cycle it left its terminal (first hop only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub injected: Option<u64>,
    /// The cycle the trace found it already here (a trace of a queue's head).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub found: Option<u64>,
    /// How it left; absent while it is here.
    #[serde(flatten)]
    pub departure: Option<Departure>,
}

/// Where a traced packet was dropped as unroutable (a failed link, HyperX paper §6).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Unroutable {
    pub cycle: u64,
    pub router: u32,
    pub port: u32,
}

/// The followed packet.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct PacketTrace {
    pub src: u32,
    pub dst: u32,
    pub src_router: u32,
    pub dst_router: u32,
    pub created: u64,
    pub delivered: bool,
    pub delivered_at: Option<u64>,
    pub nonminimal: bool,
    /// One hop per router visited; none while it waits in its source queue.
    pub hops: Vec<TraceHop>,
    pub in_source: bool,
    pub unroutable: Option<Unroutable>,
}

/// The trace panel's state: the router whose next generated packet will be followed, the
/// cycle, and the followed packet.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct TraceView {
    pub armed: Option<u32>,
    pub now: u64,
    pub trace: Option<PacketTrace>,
}

impl TraceView {
    /// The trace of `sim`; `upstream_port[c]` is the output port id channel `c` leaves from.
    pub fn of(sim: &Simulation, upstream_port: &[u32]) -> Self {
        let net = sim.network();
        let trace = sim.trace().map(|t| {
            let mut hops: Vec<TraceHop> = Vec::new();
            let mut delivered_at = None;
            let mut unroutable = None;
            let arrival = |router, in_port, in_vc, arrived| TraceHop {
                router,
                in_port,
                in_vc,
                arrived,
                injected: None,
                found: None,
                departure: None,
            };
            for e in &t.events {
                match *e {
                    TraceEvent::Injected { cycle, router, port, vc, arrives } => {
                        hops.push(TraceHop { injected: Some(cycle), ..arrival(router, port, vc, arrives) });
                    }
                    TraceEvent::Found { cycle, router, port, vc, arrived } => {
                        hops.push(TraceHop { found: Some(cycle), ..arrival(router, port, vc, arrived) });
                    }
                    TraceEvent::Sent { cycle, router, port, vc, arrives } => {
                        let p = net.port(router, port);
                        let id = net.port_id(router, port) as u32;
                        let terminal = p.is_terminal();
                        if let Some(hop) = hops.last_mut() {
                            hop.departure = Some(Departure {
                                out_port: port,
                                out_vc: vc,
                                left: cycle,
                                channel: upstream_port.iter().position(|&u| u == id).map(|c| c as u32),
                                class: class_name(p.class),
                                dim: p.dim,
                                next_router: (!terminal).then_some(p.peer_router),
                            });
                        }
                        if terminal {
                            delivered_at = Some(arrives);
                        } else {
                            hops.push(arrival(p.peer_router, p.peer_port, vc, arrives));
                        }
                    }
                    TraceEvent::Unroutable { cycle, router, port } => {
                        unroutable = Some(Unroutable { cycle, router, port });
                    }
                }
            }
            PacketTrace {
                src: t.src,
                dst: t.dst,
                src_router: t.src_router,
                dst_router: t.dst_router,
                created: t.created,
                delivered: t.delivered,
                delivered_at,
                nonminimal: t.nonminimal,
                hops,
                in_source: t.events.is_empty(),
                unroutable,
            }
        });
        TraceView { armed: sim.trace_armed_at(), now: sim.now(), trace }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::{SimConfig, TopologyConfig};

    /// A packet followed across a HyperX to its delivery: its hops chain (each departure
    /// names the next hop's router and the channel between them), the first hop says when
    /// it was injected, the last leaves on the destination's terminal port.
    #[test]
    fn a_followed_packet_hops_from_router_to_router() {
        let mut cfg = SimConfig::default();
        cfg.topology = TopologyConfig::hyperx(vec![4, 4], vec![1], 2);
        cfg.routing.algorithm = "dal".into();
        cfg.router.vcs = 4;
        cfg.traffic.load = 0.3;
        let mut sim = Simulation::new(&cfg).unwrap();
        let net = sim.network();
        let channels: Vec<(u32, u32, u32, u32)> = sim.router_channels().collect();
        let upstream: Vec<u32> = channels.iter().map(|&(r, p, _, _)| net.port_id(r, p) as u32).collect();
        sim.trace_next_generated(5);
        assert_eq!(TraceView::of(&sim, &upstream).armed, Some(5));
        sim.advance(400).unwrap();
        let view = TraceView::of(&sim, &upstream);
        let t = view.trace.expect("a packet followed");
        assert!(t.delivered && t.delivered_at.is_some() && !t.in_source && t.unroutable.is_none());
        assert_eq!((t.hops[0].router, t.hops.last().unwrap().router), (t.src_router, t.dst_router));
        assert!(t.hops[0].injected.is_some() && t.hops[1..].iter().all(|h| h.injected.is_none()));
        for pair in t.hops.windows(2) {
            let d = pair[0].departure.as_ref().expect("left");
            let c = d.channel.expect("a router-to-router channel") as usize;
            assert_eq!(d.next_router, Some(pair[1].router));
            assert_eq!((channels[c].0, channels[c].2), (pair[0].router, pair[1].router));
            assert!(pair[1].arrived > d.left);
        }
        let last = t.hops.last().unwrap().departure.as_ref().expect("delivered");
        assert_eq!((last.channel, last.next_router, last.class), (None, None, "terminal"));
    }
}
