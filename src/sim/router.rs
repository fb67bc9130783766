//! The per-router stages of a cycle: route computation (greedy or sequential
//! allocation of routing decisions, FB paper §3.1), switch allocation (separable
//! input-first round-robin or iSLIP, with internal speedup) and output channels.

use super::{Simulation, NO_PORT};
use crate::routing::{Decision, RouteCtx};

/// Allocator scratch space, sized once for the largest radix.
pub(super) struct Scratch {
    /// Per local input port: requested input VC (`u32::MAX` = none).
    request: Vec<u32>,
    /// Per local output port: best requesting input this round and its priority distance.
    best_input: Vec<u32>,
    best_dist: Vec<u32>,
    in_cap: Vec<u32>,
    out_cap: Vec<u32>,
    /// Commitments of a greedy routing pass, applied after all inputs decided.
    pending: Vec<(u32, u16)>,
}

impl Scratch {
    pub(super) fn new(radix: usize) -> Scratch {
        Scratch {
            request: vec![u32::MAX; radix],
            best_input: vec![u32::MAX; radix],
            best_dist: vec![u32::MAX; radix],
            in_cap: vec![0; radix],
            out_cap: vec![0; radix],
            pending: Vec::with_capacity(radix * 16),
        }
    }
}

impl Simulation {
    /// Computes a route for every unrouted head packet of router `r`. Sequential: inputs
    /// decide one after another from a rotating start, each commitment visible to the
    /// next; greedy: all decide from the state at the start of the cycle.
    pub(super) fn route_router(&mut self, r: u32, now: u64) {
        let net = self.topo.network();
        let first_port = net.port_offset(r);
        let radix = net.radix(r) as usize;
        let vcs = self.vcs as usize;
        let nvc = radix * vcs;
        let depth = self.depth as usize;
        let start = self.rc_start[r as usize] as usize % nvc;
        self.rc_start[r as usize] = (start + 1) as u32;
        let mut pending = std::mem::take(&mut self.scratch.pending);
        for i in 0..nvc {
            let local = (start + i) % nvc;
            let iv = first_port * vcs + local;
            if self.buf_len[iv] == 0 {
                continue;
            }
            let pid = self.buf[iv * depth + self.buf_head[iv] as usize];
            let mut pkt = self.packets[pid];
            if pkt.routed {
                continue;
            }
            let in_port = (local / vcs) as u32;
            let decision = if pkt.dst_router == r {
                let (_, port) = net.terminal_port(pkt.dst);
                Decision::Forward { port, vc: 0 }
            } else {
                let ctx = RouteCtx {
                    now,
                    router: r,
                    in_port,
                    in_vc: (local % vcs) as u32,
                    queues: super::super::routing::QueueView {
                        net,
                        credits: &self.credits,
                        committed: &self.committed,
                        downstream: &self.downstream,
                        vcs: self.vcs,
                        depth: self.depth,
                    },
                };
                self.routing.route(&ctx, &mut pkt, &mut self.rng.routing, &mut self.notes[r as usize])
            };
            if let Decision::Forward { port, vc } = decision {
                debug_assert!(port < radix as u32 && vc < self.vcs, "routing chose port {port} vc {vc} at router {r}");
                pkt.routed = true;
                pkt.out_port = port;
                pkt.out_vc = vc as u16;
                let ov = ((first_port + port as usize) * vcs + vc as usize) as u32;
                if self.sequential {
                    self.committed[ov as usize] += pkt.size;
                } else {
                    pending.push((ov, pkt.size));
                }
            }
            self.packets[pid] = pkt;
        }
        for &(ov, size) in &pending {
            self.committed[ov as usize] += size;
        }
        pending.clear();
        self.scratch.pending = pending;
    }

    /// Whether the head of input VC `iv` can cross the switch now; returns its output port.
    #[inline]
    fn ready_output(&self, iv: usize, now: u64, first_port: usize) -> Option<usize> {
        if self.buf_len[iv] == 0 {
            return None;
        }
        let pkt = &self.packets[self.buf[iv * self.depth as usize + self.buf_head[iv] as usize]];
        if !pkt.routed || now < pkt.arrived + self.pipeline_delay {
            return None;
        }
        let out = pkt.out_port as usize;
        let op = first_port + out;
        if self.scratch.out_cap[out] == 0 || self.outq_len[op] as u32 >= self.outq_cap {
            return None;
        }
        let down = self.downstream[op];
        if down != NO_PORT && self.credits[down as usize * self.vcs as usize + pkt.out_vc as usize] < pkt.size {
            return None;
        }
        Some(out)
    }

    /// Separable input-first allocation with `speedup` grants per input and output per
    /// cycle: each round every input requests with its round-robin VC, every output grants
    /// its round-robin-closest requester. iSLIP runs `islip_iterations` rounds per unit of
    /// speedup and moves its pointers only on first-round grants.
    pub(super) fn allocate_switch(&mut self, r: u32, now: u64) {
        let net = self.topo.network();
        let first_port = net.port_offset(r);
        let radix = net.radix(r) as usize;
        let vcs = self.vcs as usize;
        for p in 0..radix {
            self.scratch.in_cap[p] = self.speedup;
            self.scratch.out_cap[p] = self.speedup;
        }
        for round in 0..self.alloc_rounds {
            let mut any_request = false;
            for p in 0..radix {
                self.scratch.request[p] = u32::MAX;
                if self.scratch.in_cap[p] == 0 {
                    continue;
                }
                let gp = first_port + p;
                let rr = self.in_rr[gp] as usize;
                for i in 0..vcs {
                    let v = (rr + i) % vcs;
                    if let Some(out) = self.ready_output(gp * vcs + v, now, first_port) {
                        self.scratch.request[p] = v as u32;
                        let dist = ((p + radix - self.out_rr[first_port + out] as usize) % radix) as u32;
                        if dist < self.scratch.best_dist[out] {
                            self.scratch.best_dist[out] = dist;
                            self.scratch.best_input[out] = p as u32;
                        }
                        any_request = true;
                        break;
                    }
                }
            }
            if !any_request {
                break;
            }
            let move_pointers = !self.islip || round % (self.alloc_rounds / self.speedup).max(1) == 0;
            for p in 0..radix {
                let v = self.scratch.request[p];
                if v == u32::MAX {
                    continue;
                }
                let iv = (first_port + p) * vcs + v as usize;
                let pid = self.buf[iv * self.depth as usize + self.buf_head[iv] as usize];
                let out = self.packets[pid].out_port as usize;
                if self.scratch.best_input[out] == p as u32 {
                    self.traverse(r, iv, pid, now);
                    self.scratch.in_cap[p] -= 1;
                    self.scratch.out_cap[out] -= 1;
                    if move_pointers {
                        self.in_rr[first_port + p] = ((v as usize + 1) % vcs) as u16;
                        self.out_rr[first_port + out] = ((p + 1) % radix) as u16;
                    }
                }
            }
            for out in 0..radix {
                self.scratch.best_dist[out] = u32::MAX;
                self.scratch.best_input[out] = u32::MAX;
            }
        }
    }

    /// Moves the head packet of input VC `iv` through the switch into its output queue,
    /// consuming downstream credits and returning this buffer's credits upstream.
    fn traverse(&mut self, r: u32, iv: usize, pid: u32, now: u64) {
        let depth = self.depth as usize;
        let vcs = self.vcs as usize;
        let pkt = self.packets[pid];
        self.buf_head[iv] = ((self.buf_head[iv] as usize + 1) % depth) as u16;
        self.buf_len[iv] -= 1;
        self.buf_flits[iv] -= pkt.size;
        let op = self.topo.network().port_offset(r) + pkt.out_port as usize;
        self.committed[op * vcs + pkt.out_vc as usize] -= pkt.size;
        let down = self.downstream[op];
        if down != NO_PORT {
            self.credits[down as usize * vcs + pkt.out_vc as usize] -= pkt.size;
            self.packets[pid].hops += 1;
        }
        let q = op * self.outq_cap as usize + (self.outq_head[op] + self.outq_len[op]) as usize % self.outq_cap as usize;
        self.outq[q] = pid;
        self.outq_len[op] += 1;
        // The credit leaves when the tail leaves this buffer and crosses the channel back.
        let in_port = iv / vcs;
        let at = now + (pkt.size as u64 - 1) + self.latency[in_port] as u64;
        self.schedule_credit(at, iv as u32, pkt.size);
        self.last_progress = now;
    }

    /// Each output channel that is free sends the head of its output queue.
    pub(super) fn send_outputs(&mut self, r: u32, now: u64) {
        let net = self.topo.network();
        let first_port = net.port_offset(r);
        let radix = net.radix(r) as usize;
        let cap = self.outq_cap as usize;
        for op in first_port..first_port + radix {
            if self.outq_len[op] == 0 || self.chan_free_at[op] > now {
                continue;
            }
            let pid = self.outq[op * cap + self.outq_head[op] as usize];
            self.outq_head[op] = ((self.outq_head[op] as usize + 1) % cap) as u16;
            self.outq_len[op] -= 1;
            self.load[r as usize] -= 1;
            let size = self.packets[pid].size as u64;
            self.chan_free_at[op] = now + size;
            self.sent_flits[op] += size;
            let at = now + self.latency[op] as u64;
            match self.downstream[op] {
                NO_PORT => self.deliver(pid, at + size - 1),
                down => {
                    let iv = down * self.vcs + self.packets[pid].out_vc as u32;
                    self.schedule_arrival(at, iv, pid);
                }
            }
        }
    }
}
