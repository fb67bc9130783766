//! Following one packet through the network for the page (a "packet trace"), and the
//! per-hop routing notes of [`crate::routing::HopNote`]. Both are off by default and cost
//! the engine one comparison per injected and per sent packet (the trace) and one
//! `Option` test per routing decision (the notes).
//!
//! A trace is *armed* at a router: the next packet injected there is followed
//! ([`Simulation::trace_next_injected`]), or it starts on the packet at the head of an
//! input VC ([`Simulation::trace_queue_head`]). Every channel the packet leaves on is
//! recorded with the cycle and the downstream VC, until it is delivered.

use std::cell::Cell;

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

/// Trace state kept by the simulation.
#[derive(Clone, Debug)]
pub(super) struct Tracer {
    /// Router whose next injected packet will be followed (`NO_PORT`: none).
    pub(super) armed: u32,
    /// Packet id followed (`NO_PORT`: none, or delivered).
    pub(super) pid: u32,
    pub(super) trace: Option<Trace>,
}

impl Default for Tracer {
    fn default() -> Self {
        Tracer { armed: NO_PORT, pid: NO_PORT, trace: None }
    }
}

impl Simulation {
    /// Follows the next packet injected at router `router` (replacing any trace).
    pub fn trace_next_injected(&mut self, router: u32) {
        self.tracer = Tracer { armed: router, ..Tracer::default() };
    }

    /// Follows the packet at the head of input VC `vc` of port id `port`; false if that
    /// VC is empty.
    pub fn trace_queue_head(&mut self, port: usize, vc: u32) -> bool {
        let iv = port * self.vcs as usize + vc as usize;
        if iv >= self.buf_len.len() || self.buf_len[iv] == 0 {
            return false;
        }
        let slot = self.buf[iv * self.depth as usize + self.buf_head[iv] as usize];
        let router = self.port_router[port];
        let local = (port - self.first_port[router as usize] as usize) as u32;
        self.start_trace(slot.pid, TraceEvent::Found { cycle: self.now, router, port: local, vc, arrived: slot.arrived });
        true
    }

    /// Stops following.
    pub fn clear_trace(&mut self) {
        self.tracer = Tracer::default();
    }

    /// The packet followed so far (`None` if no trace started yet).
    pub fn trace(&self) -> Option<&Trace> {
        self.tracer.trace.as_ref()
    }

    /// The router a trace is armed at, waiting for its next injected packet.
    pub fn trace_armed_at(&self) -> Option<u32> {
        (self.tracer.armed != NO_PORT).then_some(self.tracer.armed)
    }

    fn start_trace(&mut self, pid: u32, first: TraceEvent) {
        let p = self.packets[pid];
        self.tracer = Tracer {
            armed: NO_PORT,
            pid,
            trace: Some(Trace { src: p.src, dst: p.dst, src_router: p.src_router, dst_router: p.dst_router, created: p.created, events: vec![first], delivered: false, nonminimal: p.nonminimal }),
        };
    }

    /// Hook: packet `pid` was injected at `router` into input VC index `iv`.
    #[cold]
    #[inline(never)]
    pub(super) fn trace_injected(&mut self, pid: u32, router: u32, iv: usize, arrives: u64) {
        let vcs = self.vcs as usize;
        let port = (iv / vcs - self.first_port[router as usize] as usize) as u32;
        self.start_trace(pid, TraceEvent::Injected { cycle: self.now, router, port, vc: (iv % vcs) as u32, arrives });
    }

    /// Hook: the followed packet left `router` on port id `op` for VC `vc` downstream.
    #[cold]
    #[inline(never)]
    pub(super) fn trace_sent(&mut self, router: u32, op: usize, vc: u32, arrives: u64) {
        let delivered = self.downstream[op] == NO_PORT;
        let port = (op - self.first_port[router as usize] as usize) as u32;
        let nonminimal = self.packets[self.tracer.pid].nonminimal;
        if let Some(t) = &mut self.tracer.trace {
            t.events.push(TraceEvent::Sent { cycle: self.now, router, port, vc, arrives });
            t.delivered = delivered;
            t.nonminimal = nonminimal;
        }
        if delivered {
            // The id is released now and may be reused by another packet.
            self.tracer.pid = NO_PORT;
        }
    }

    /// Records (or stops recording) the numbers behind every per-hop routing decision
    /// (DAL's [`HopNote`]), one per router: the last decision made there.
    pub fn record_hop_notes(&mut self, on: bool) {
        self.hop_notes = if on { vec![Cell::new(HopNote::default()); self.load.len()] } else { Vec::new() };
    }

    /// The last per-hop decision recorded at router `r`, if any.
    pub fn hop_note(&self, r: u32) -> Option<HopNote> {
        self.hop_notes.get(r as usize).map(Cell::get).filter(|n| n.valid)
    }
}
