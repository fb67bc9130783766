//! Invariant checks and the deadlock watchdog's report.

use super::{Simulation, NO_PORT};
use std::fmt;

/// One blocked input VC in a deadlock report.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct BlockedVc {
    pub router: u32,
    pub port: u32,
    pub vc: u32,
    /// Output port and VC the head packet waits for (`None` if it has no route yet).
    pub wants: Option<(u32, u32)>,
    pub credits: u32,
}

/// What the watchdog saw when it tripped.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct DeadlockReport {
    pub cycle: u64,
    pub packets_in_network: u64,
    /// The first blocked VCs (at most 32).
    pub blocked: Vec<BlockedVc>,
}

/// Errors a running simulation can report.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SimError {
    Deadlock(DeadlockReport),
}

impl fmt::Display for SimError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SimError::Deadlock(d) => {
                write!(
                    f,
                    "deadlock at cycle {}: {} packets in the network and none moved; blocked:",
                    d.cycle, d.packets_in_network
                )?;
                for b in d.blocked.iter().take(8) {
                    write!(f, " [router {} port {} vc {}", b.router, b.port, b.vc)?;
                    if let Some((p, v)) = b.wants {
                        write!(f, " → port {p} vc {v}, {} credits", b.credits)?;
                    }
                    write!(f, "]")?;
                }
                Ok(())
            }
        }
    }
}

impl std::error::Error for SimError {}

impl Simulation {
    pub(super) fn deadlock_report(&self) -> DeadlockReport {
        let net = self.topo.network();
        let vcs = self.params.vcs as usize;
        let mut blocked = Vec::new();
        'outer: for r in 0..net.routers() as u32 {
            for p in 0..net.radix(r) {
                for v in 0..self.params.vcs {
                    let iv = net.port_id(r, p) * vcs + v as usize;
                    if self.buffers.inputs[iv].buf_len == 0 {
                        continue;
                    }
                    let head = &self.buffers.inputs[iv];
                    let routed = !self.buffers.unrouted.get(r, iv - net.port_offset(r) * vcs);
                    let wants = routed.then_some((head.out_port as u32, head.out_vc as u32));
                    let credits = wants.map_or(0, |(op, ov)| self.output_credits(net.port_id(r, op), ov));
                    blocked.push(BlockedVc { router: r, port: p, vc: v, wants, credits });
                    if blocked.len() == 32 {
                        break 'outer;
                    }
                }
            }
        }
        DeadlockReport { cycle: self.now, packets_in_network: self.watchdog.in_network, blocked }
    }

    /// Checks flit conservation and credit consistency:
    /// - for every input VC with an upstream sender: credits held upstream + credits in
    ///   flight back + flits in flight towards it + flits in the upstream output queue for it
    ///   + flits buffered in it = buffer depth;
    /// - live packets = packets in source queues + packets in the network;
    /// - committed flits of each output VC = flits of routed head packets waiting for it;
    /// - the per-router bitsets and queue estimates agree with the queues they summarise.
    pub fn verify_invariants(&self) -> Result<(), String> {
        let vcs = self.params.vcs as usize;
        let nvc = self.buffers.credits.len();
        let mut held = vec![0u64; nvc];
        for slot in self.wheels.credit_wheel.iter() {
            for c in slot {
                held[c.iv as usize] += c.flits as u64;
            }
        }
        for (iv, n) in self.cr.iter().flat_map(|cr| cr.held()) {
            held[iv as usize] += n as u64; // credits UGAL-L_CR holds back
        }
        let mut flying = 0u64;
        for slot in self.wheels.arrivals.iter() {
            for a in slot {
                held[a.port as usize * vcs + a.vc as usize] += self.packets[a.pid].size as u64;
                flying += 1;
            }
        }
        let cap = self.params.outq_cap as usize;
        let mut queued = 0u64;
        for op in 0..self.ports.outq_len.len() {
            let r = self.ports.port_router[op];
            let out = op - self.routers.first_port[r as usize] as usize;
            if self.routers.queued_outputs.get(r, out) != (self.ports.outq_len[op] > 0) {
                return Err(format!(
                    "output port {op}: {} packets queued but its bit is {}",
                    self.ports.outq_len[op],
                    self.routers.queued_outputs.get(r, out)
                ));
            }
            for i in 0..self.ports.outq_len[op] as usize {
                let entry = self.ports.outq[op * cap + (self.ports.outq_head[op] as usize + i) % cap];
                queued += 1;
                if self.ports.downstream[op] != NO_PORT {
                    held[self.ports.downstream[op] as usize * vcs + entry.vc as usize] +=
                        self.packets[entry.pid].size as u64;
                }
            }
        }
        let mut buffered = 0u64;
        let mut committed = vec![0u64; nvc];
        #[allow(clippy::needless_range_loop)] // `iv` indexes a dozen per-VC tables
        for iv in 0..nvc {
            let port = iv / vcs;
            let r = self.ports.port_router[port];
            let first_port = self.topo.network().port_offset(r);
            let mut flits = 0u64;
            for k in 0..self.buffers.inputs[iv].buf_len as usize {
                flits += self.packets[self.buffered(iv, k).0].size as u64;
            }
            let local = iv - first_port * vcs;
            if self.buffers.inputs[iv].buf_len > 0 {
                let head = self.buffers.inputs[iv];
                if !self.buffers.nonempty.get(r, local) {
                    return Err(format!("input VC {iv}: non-empty but its bit is clear"));
                }
                if !self.buffers.unrouted.get(r, local) {
                    committed[(first_port + head.out_port as usize) * vcs + head.out_vc as usize] +=
                        self.params.packet_size as u64;
                }
            } else if self.buffers.nonempty.get(r, local) {
                return Err(format!("input VC {iv}: empty but its bit is set"));
            }
            buffered += self.buffers.inputs[iv].buf_len as u64;
            if flits != self.buffers.inputs[iv].buf_len as u64 * self.params.packet_size as u64 {
                return Err(format!(
                    "input VC {iv}: {flits} flits counted, {} packets of {} recorded",
                    self.buffers.inputs[iv].buf_len, self.params.packet_size
                ));
            }
            let total = self.buffers.credits[iv] as u64 + held[iv] + flits;
            if total != self.params.depth as u64 {
                return Err(format!(
                    "input VC {iv}: credits {} + in flight {} + buffered {flits} = {total} ≠ depth {}",
                    self.buffers.credits[iv], held[iv], self.params.depth
                ));
            }
        }
        for (ov, (&routed, &recorded)) in committed.iter().zip(self.buffers.committed.iter()).enumerate() {
            if routed != recorded as u64 {
                return Err(format!("output VC {ov}: committed {recorded} but {routed} flits routed to it"));
            }
        }
        let view = self.queues();
        for op in 0..self.ports.port_queues.len() {
            let r = self.ports.port_router[op];
            let port = (op - self.topo.network().port_offset(r)) as u32;
            let mut sum: u32 = (0..self.params.vcs).map(|v| view.vc_queue(r, port, v)).sum();
            if self.faults.failed(op) {
                sum += super::FAILED_QUEUE;
            }
            if sum != self.ports.port_queues[op] {
                return Err(format!(
                    "output port {op}: queue estimate {} but its VCs sum to {sum}",
                    self.ports.port_queues[op]
                ));
            }
        }
        if buffered + queued + flying != self.watchdog.in_network {
            return Err(format!(
                "packets in network: {} buffered + {queued} queued + {flying} in flight ≠ {}",
                buffered, self.watchdog.in_network
            ));
        }
        let live = self.packets.live() as u64;
        let sources = self.packets_in_sources() as u64;
        if live != sources + self.watchdog.in_network {
            return Err(format!(
                "{live} live packets ≠ {sources} in sources + {} in network",
                self.watchdog.in_network
            ));
        }
        Ok(())
    }
}
