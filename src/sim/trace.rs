//! Following one packet through the network for the page (a "packet trace"), and the
//! per-hop routing notes of [`crate::routing::HopNote`]. Both are off by default: the
//! trace costs the engine one test per cycle (and nothing per packet: while a trace runs,
//! the packet is looked for at the end of each cycle); the notes are the routing
//! algorithm's (DAL tests one flag per decision).
//!
//! A trace is *armed* at a router: the next packet generated at one of its terminals is
//! followed ([`Simulation::trace_next_generated`]) — the same packet in simulations that
//! differ only in routing, since their traffic is drawn identically — or it starts on the
//! packet at the head of an input VC ([`Simulation::trace_queue_head`]). Every channel the packet leaves on is
//! recorded with the cycle and the downstream VC, until it is delivered.

use super::{Simulation, NO_PORT};
use crate::routing::HopNote;

/// One event in a traced packet's life.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TraceEvent {
    /// Left its terminal at `cycle` into input VC `vc` of port `port` (local) of `router`,
    /// usable there from cycle `arrives`.
    Injected { cycle: u64, router: u32, port: u32, vc: u32, arrives: u64 },
    /// The trace started with the packet already buffered in input VC `vc` of `port` of
    /// `router`, where it arrived at cycle `arrived`.
    Found { cycle: u64, router: u32, port: u32, vc: u32, arrived: u64 },
    /// Left `router` on output `port` at `cycle` for input VC `vc` downstream, usable
    /// there from `arrives` (for a terminal port: delivered at `arrives`).
    Sent { cycle: u64, router: u32, port: u32, vc: u32, arrives: u64 },
    /// Routed at `router` onto its output `port`, whose link has failed, at `cycle`: dropped
    /// as unroutable (HyperX §6).
    Unroutable { cycle: u64, router: u32, port: u32 },
}

/// The packet being followed.
#[derive(Clone, Debug, Default)]
pub struct Trace {
    pub src: u32,
    pub dst: u32,
    pub src_router: u32,
    pub dst_router: u32,
    pub created: u64,
    pub events: Vec<TraceEvent>,
    /// Delivered (the last event is its `Sent` on a terminal port).
    pub delivered: bool,
    pub nonminimal: bool,
}

/// Where the followed packet is, as of the end of the last cycle.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Where {
    /// Waiting in terminal `t`'s source queue.
    Source {
        t: u32,
    },
    /// On a channel into input VC `vc` of port id `port`, usable there from `arrives`.
    Channel {
        port: usize,
        vc: u32,
        arrives: u64,
    },
    /// In input VC index `iv`.
    Buffer {
        iv: usize,
    },
    /// Through the switch, in the output queue of port id `op`, for VC `vc` downstream.
    OutQueue {
        op: usize,
        vc: u32,
    },
    Delivered,
}

/// Trace state kept by the simulation.
#[derive(Clone, Debug)]
pub(super) struct Tracer {
    /// A trace is armed or running: [`Simulation::step`] calls [`Simulation::trace_step`].
    pub(super) active: bool,
    /// Router whose next generated packet will be followed (`NO_PORT`: none), and its
    /// terminals.
    armed: u32,
    terminals: Vec<u32>,
    /// Packet id followed.
    pid: u32,
    at: Where,
    trace: Option<Trace>,
}

impl Default for Tracer {
    fn default() -> Self {
        Tracer { active: false, armed: NO_PORT, terminals: Vec::new(), pid: NO_PORT, at: Where::Delivered, trace: None }
    }
}

impl Simulation {
    /// Follows the next packet generated at a terminal of router `router` (the lowest
    /// such terminal if several generate in the same cycle), replacing any trace.
    pub fn trace_next_generated(&mut self, router: u32) {
        let net = self.topo.network();
        let terminals = (0..net.terminals() as u32).filter(|&t| net.inject_router(t) == router).collect();
        self.observers.tracer = Tracer { active: true, armed: router, terminals, ..Tracer::default() };
    }

    /// Follows the packet at the head of input VC `vc` of port id `port`; false if that
    /// VC is empty.
    pub fn trace_queue_head(&mut self, port: usize, vc: u32) -> bool {
        let iv = port * self.params.vcs as usize + vc as usize;
        if iv >= self.buffers.inputs.len() || self.buffers.inputs[iv].buf_len == 0 {
            return false;
        }
        let (pid, arrived) = self.buffered(iv, 0);
        let router = self.ports.port_router[port];
        let local = (port - self.routers.first_port[router as usize] as usize) as u32;
        self.start_trace(
            pid,
            Where::Buffer { iv },
            Some(TraceEvent::Found { cycle: self.now, router, port: local, vc, arrived }),
        );
        true
    }

    /// Stops following.
    pub fn clear_trace(&mut self) {
        self.observers.tracer = Tracer::default();
    }

    /// The packet followed so far (`None` if no trace started yet).
    pub fn trace(&self) -> Option<&Trace> {
        self.observers.tracer.trace.as_ref()
    }

    /// The id of the packet followed while it is in the network or its source queue.
    pub fn traced_packet(&self) -> Option<u32> {
        (self.observers.tracer.active
            && self.observers.tracer.pid != NO_PORT
            && self.observers.tracer.at != Where::Delivered)
            .then_some(self.observers.tracer.pid)
    }

    /// The router a trace is armed at, waiting for its next generated packet.
    pub fn trace_armed_at(&self) -> Option<u32> {
        (self.observers.tracer.armed != NO_PORT).then_some(self.observers.tracer.armed)
    }

    fn start_trace(&mut self, pid: u32, at: Where, first: Option<TraceEvent>) {
        let p = self.packets[pid];
        self.observers.tracer = Tracer {
            active: true,
            armed: NO_PORT,
            terminals: Vec::new(),
            pid,
            at,
            trace: Some(Trace {
                src: p.src,
                dst: p.dst,
                src_router: self.topo.network().inject_router(p.src),
                dst_router: p.dst_router,
                created: p.created(self.now),
                events: first.into_iter().collect(),
                delivered: false,
                nonminimal: p.nonminimal,
            }),
        };
    }

    /// Called at the end of every cycle while a trace is active: finds where the packet
    /// went, without any hook in the per-packet paths. In one cycle a packet moves at
    /// most from an input buffer through the switch onto its next channel (it cannot
    /// leave a router in the cycle it arrives: the router delay is at least 1), so looking
    /// in its buffer, its router's output queues and the arrival wheel finds it; a packet
    /// found nowhere was delivered (its id is free until the next cycle's generation).
    #[cold]
    #[inline(never)]
    pub(super) fn trace_step(&mut self, now: u64) {
        if self.observers.tracer.armed != NO_PORT {
            self.trace_find_generated(now);
            if self.observers.tracer.armed != NO_PORT {
                return;
            }
        }
        let pid = self.observers.tracer.pid;
        let vcs = self.params.vcs as usize;
        loop {
            match self.observers.tracer.at {
                Where::Delivered => {
                    self.observers.tracer.active = false;
                    return;
                }
                Where::Source { t } => {
                    if self.terminals.source[t as usize].contains(&pid) {
                        return;
                    }
                    // Injected this cycle: on the terminal channel.
                    let (router, local) = self.topo.network().inject_port(t);
                    let port = self.routers.first_port[router as usize] as usize + local as usize;
                    let arrives = now + self.ports.latency[port] as u64;
                    let Some(a) = self.wheels.arrivals[(arrives & self.wheels.wheel_mask) as usize]
                        .iter()
                        .find(|a| a.pid == pid && a.port as usize == port)
                        .copied()
                    else {
                        self.observers.tracer.at = Where::Delivered; // not found: give up (cannot happen)
                        continue;
                    };
                    if let Some(tr) = &mut self.observers.tracer.trace {
                        tr.events.push(TraceEvent::Injected { cycle: now, router, port: local, vc: a.vc, arrives });
                    }
                    self.observers.tracer.at = Where::Channel { port, vc: a.vc, arrives };
                }
                Where::Channel { port, vc, arrives } => {
                    if arrives > now {
                        return;
                    }
                    self.observers.tracer.at = Where::Buffer { iv: port * vcs + vc as usize };
                }
                Where::Buffer { iv } => {
                    if (0..self.buffers.inputs[iv].buf_len as usize).any(|k| self.buffered(iv, k).0 == pid) {
                        return;
                    }
                    // Through the switch this cycle: in an output queue, or already sent.
                    let router = self.ports.port_router[iv / vcs] as usize;
                    let cap = self.params.outq_cap as usize;
                    let ports = self.routers.first_port[router] as usize..self.routers.first_port[router + 1] as usize;
                    let queued = ports.clone().find_map(|op| {
                        (0..self.ports.outq_len[op] as usize)
                            .map(|k| {
                                self.ports.outq
                                    [op * cap + super::router::wrap(self.ports.outq_head[op] as usize + k, cap)]
                            })
                            .find(|e| e.pid == pid)
                            .map(|e| (op, e.vc))
                    });
                    if let Some((op, vc)) = queued {
                        self.observers.tracer.at = Where::OutQueue { op, vc };
                        return;
                    }
                    let sent = ports.clone().find_map(|op| {
                        let down = self.ports.downstream[op];
                        if down == NO_PORT {
                            return None;
                        }
                        let at = now + self.ports.latency[op] as u64;
                        self.wheels.arrivals[(at & self.wheels.wheel_mask) as usize]
                            .iter()
                            .find(|a| a.pid == pid && a.port == down)
                            .map(|a| (op, a.vc))
                    });
                    match sent {
                        Some((op, vc)) => self.trace_sent(now, op, vc),
                        None => {
                            let dst = self.observers.tracer.trace.as_ref().map_or(0, |t| t.dst);
                            let (r, p) = self.topo.network().terminal_port(dst);
                            let op = self.routers.first_port[r as usize] as usize + p as usize;
                            self.trace_sent(now, op, 0);
                        }
                    }
                }
                Where::OutQueue { op, vc } => {
                    let cap = self.params.outq_cap as usize;
                    if (0..self.ports.outq_len[op] as usize).any(|k| {
                        self.ports.outq[op * cap + super::router::wrap(self.ports.outq_head[op] as usize + k, cap)].pid
                            == pid
                    }) {
                        return;
                    }
                    self.trace_sent(now, op, vc);
                }
            }
        }
    }

    /// A packet generated this cycle at one of the armed router's terminals starts the
    /// trace: at the back of the terminal's source queue, or — injected at once — on the
    /// arrival wheel (the router's terminal input ports receive nothing else).
    fn trace_find_generated(&mut self, now: u64) {
        for i in 0..self.observers.tracer.terminals.len() {
            let t = self.observers.tracer.terminals[i];
            if let Some(&pid) = self.terminals.source[t as usize].back() {
                if self.packets[pid].created(now) == now {
                    self.start_trace(pid, Where::Source { t }, None);
                    return;
                }
            }
            let (router, local) = self.topo.network().inject_port(t);
            let port = self.routers.first_port[router as usize] as usize + local as usize;
            let arrives = now + self.ports.latency[port] as u64;
            let slot = (arrives & self.wheels.wheel_mask) as usize;
            let found = self.wheels.arrivals[slot]
                .iter()
                .find(|a| a.port as usize == port && self.packets[a.pid].created(now) == now)
                .copied();
            if let Some(a) = found {
                self.start_trace(
                    a.pid,
                    Where::Channel { port, vc: a.vc, arrives },
                    Some(TraceEvent::Injected { cycle: now, router, port: local, vc: a.vc, arrives }),
                );
                return;
            }
        }
    }

    /// The followed packet left on output port id `op` at cycle `now`, for VC `vc`
    /// downstream (a terminal port: delivered).
    fn trace_sent(&mut self, now: u64, op: usize, vc: u32) {
        let router = self.ports.port_router[op];
        let port = (op - self.routers.first_port[router as usize] as usize) as u32;
        let down = self.ports.downstream[op];
        let at = now + self.ports.latency[op] as u64;
        let (arrives, next) = if down == NO_PORT {
            let busy = self.params.packet_size as u64 * self.params.terminal_period;
            (at + busy - 1, Where::Delivered)
        } else {
            (at, Where::Channel { port: down as usize, vc, arrives: at })
        };
        let delivered = down == NO_PORT;
        // The record is still the packet's: its id is released at delivery but only
        // reused by the next cycle's generation.
        let nonminimal = self.packets[self.observers.tracer.pid].nonminimal;
        if let Some(t) = &mut self.observers.tracer.trace {
            t.events.push(TraceEvent::Sent { cycle: now, router, port, vc, arrives });
            t.delivered = delivered;
            t.nonminimal = nonminimal;
        }
        self.observers.tracer.at = next;
    }

    /// The followed packet `pid` was dropped at `router`, routed onto its failed output
    /// `port`: the trace ends there.
    #[cold]
    pub(super) fn trace_unroutable(&mut self, pid: u32, now: u64, router: u32, port: u32) {
        if !self.observers.tracer.active || self.observers.tracer.pid != pid || self.observers.tracer.armed != NO_PORT {
            return;
        }
        if let Some(t) = &mut self.observers.tracer.trace {
            t.events.push(TraceEvent::Unroutable { cycle: now, router, port });
            t.delivered = false;
        }
        self.observers.tracer.at = Where::Delivered;
    }

    /// Records (or stops recording) the numbers behind every per-hop routing decision
    /// (DAL's [`HopNote`]), one per router: the last decision made there.
    pub fn record_hop_notes(&mut self, on: bool) {
        self.routing.record_hop_notes(self.routers.load.len(), on);
    }

    /// The last per-hop decision recorded at router `r`, if any.
    pub fn hop_note(&self, r: u32) -> Option<HopNote> {
        self.routing.hop_note(r)
    }
}
