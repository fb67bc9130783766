//! The per-router stages of a cycle: route computation (greedy or sequential
//! allocation of routing decisions, FB paper §3.1), switch allocation (separable
//! input-first round-robin or iSLIP, with internal speedup) and output channels.
//!
//! Each router keeps two bitsets over its input VCs (bit `port·V + vc`): *non-empty* and
//! *head unrouted*, and the head packet of every input VC is mirrored in a small
//! [`Head`] record, so both stages visit only VCs with work, and a packet's own record is
//! read once per hop, to route it.

use super::table::Table;
use super::{Head, OutEntry, Simulation, NO_PORT};
use crate::routing::{Decision, QueueView, RouteCtx};

/// `x mod n` for `x < 2n`, without a division.
#[inline(always)]
pub(super) fn wrap(x: usize, n: usize) -> usize {
    if x >= n { x - n } else { x }
}

/// Allocator scratch space, sized once for the largest radix.
pub(super) struct Scratch {
    /// Routed, pipeline-ready input VCs of the router being allocated (local indices).
    candidates: Vec<u32>,
    /// Requests of the current round: (input port, index in `candidates`, output port).
    requests: Vec<(u32, u32, u32)>,
    /// Per local output port: best requesting input this round and its priority distance.
    best_input: Table<u32>,
    best_dist: Table<u32>,
    in_cap: Table<u32>,
    out_cap: Table<u32>,
    /// Commitments of a greedy routing pass (output port id, VC), applied after all inputs decided.
    pending: Vec<(u32, u16)>,
}

impl Scratch {
    pub(super) fn new(radix: usize) -> Scratch {
        Scratch {
            candidates: Vec::with_capacity(radix * 4),
            requests: Vec::with_capacity(radix),
            best_input: vec![u32::MAX; radix].into(),
            best_dist: vec![u32::MAX; radix].into(),
            in_cap: vec![0; radix].into(),
            out_cap: vec![0; radix].into(),
            pending: Vec::with_capacity(radix * 16),
        }
    }
}

/// Per-router bitsets over input VCs.
#[derive(Clone, Debug)]
pub(super) struct VcBits {
    words_per_router: usize,
    bits: Table<u64>,
}

impl VcBits {
    pub(super) fn new(routers: usize, vcs_per_router: usize) -> VcBits {
        let words_per_router = vcs_per_router.div_ceil(64).max(1);
        VcBits { words_per_router, bits: vec![0; routers * words_per_router].into() }
    }
    #[inline]
    pub(super) fn set(&mut self, r: u32, local: usize) {
        self.bits[r as usize * self.words_per_router + local / 64] |= 1 << (local % 64);
    }
    #[inline]
    pub(super) fn clear(&mut self, r: u32, local: usize) {
        self.bits[r as usize * self.words_per_router + local / 64] &= !(1 << (local % 64));
    }
    #[inline]
    pub(super) fn get(&self, r: u32, local: usize) -> bool {
        self.bits[r as usize * self.words_per_router + local / 64] & (1 << (local % 64)) != 0
    }
    /// Word `w` of router `r`'s bitset.
    #[inline]
    fn word(&self, r: u32, w: usize) -> u64 {
        self.bits[r as usize * self.words_per_router + w]
    }
}

impl Simulation {
    /// First port id and radix of router `r`.
    #[inline]
    fn ports_of(&self, r: u32) -> (usize, usize) {
        let first = self.first_port[r as usize] as usize;
        (first, self.first_port[r as usize + 1] as usize - first)
    }

    /// Computes a route for every unrouted head packet of router `r`. Sequential: inputs
    /// decide one after another from a rotating start, each commitment visible to the
    /// next; greedy: all decide from the state at the start of the cycle.
    pub(super) fn route_router(&mut self, r: u32, now: u64) {
        let words = self.unrouted.words_per_router;
        let (first_port, radix) = self.ports_of(r);
        let first_vc = first_port * self.vcs as usize;
        let nvc = radix * self.vcs as usize;
        let start = self.rc_start[r as usize] as usize % nvc;
        self.rc_start[r as usize] = (start + 1) as u32;
        // Visit set bits at or after `start`, then those before it.
        for pass in 0..2 {
            for w in 0..words {
                let mut bits = self.unrouted.word(r, w);
                let lo = w * 64;
                if pass == 0 && lo + 64 <= start || pass == 1 && lo >= start {
                    continue;
                }
                if pass == 0 && lo < start {
                    bits &= !0u64 << (start - lo);
                } else if pass == 1 && lo + 64 > start {
                    bits &= (1u64 << (start - lo)) - 1;
                }
                while bits != 0 {
                    let local = lo + bits.trailing_zeros() as usize;
                    bits &= bits - 1;
                    self.route_head(r, first_vc + local, local, now);
                }
            }
        }
        let mut pending = std::mem::take(&mut self.scratch.pending);
        for &(op, vc) in &pending {
            self.commit(op as usize, vc as usize, self.packet_size);
        }
        pending.clear();
        self.scratch.pending = pending;
    }

    /// Routes the head packet of input VC `iv` (local index `local`) at router `r`.
    #[inline]
    fn route_head(&mut self, r: u32, iv: usize, local: usize, now: u64) {
        let pid = self.heads[iv].pid;
        let net = self.topo.network();
        let first_port = self.first_port[r as usize] as usize;
        let pkt = &mut self.packets[pid];
        let decision = if pkt.dst_router == r {
            Decision::Forward { port: net.terminal_port(pkt.dst).1, vc: 0 }
        } else {
            let ctx = RouteCtx {
                now,
                router: r,
                in_port: self.local_vc[local].0 as u32,
                in_vc: self.local_vc[local].1 as u32,
                queues: QueueView { net, credits: &self.credits, committed: &self.committed, downstream: &self.downstream, port_queues: &self.port_queues, vcs: self.vcs, depth: self.depth },
            };
            self.routing.route(&ctx, pkt, &mut self.rng.routing, &mut self.notes[r as usize])
        };
        if let Decision::Forward { port, vc } = decision {
            debug_assert!(port < net.radix(r) && vc < self.vcs, "routing chose port {port} vc {vc} at router {r}");
            let op = first_port + port as usize;
            if self.downstream[op] != NO_PORT {
                pkt.hops += 1;
            }
            self.heads[iv].out_port = port as u16;
            self.heads[iv].out_vc = vc as u16;
            self.unrouted.clear(r, local);
            if self.sequential {
                self.commit(op, vc as usize, self.packet_size);
            } else {
                self.scratch.pending.push((op as u32, vc as u16));
            }
        }
    }

    /// `size` flits are routed to VC `vc` of output port id `op`.
    #[inline]
    fn commit(&mut self, op: usize, vc: usize, size: u16) {
        self.committed[op * self.vcs as usize + vc] += size;
        self.port_queues[op] += size as u32;
    }

    /// Whether the routed, pipeline-ready head of input VC `iv` can cross the switch now.
    #[inline]
    fn head_ready(&self, iv: usize, first_port: usize) -> bool {
        let head = &self.heads[iv];
        let out = head.out_port as usize;
        let op = first_port + out;
        if self.scratch.out_cap[out] == 0 || self.outq_len[op] as u32 >= self.outq_cap {
            return false;
        }
        let down = self.downstream[op];
        down == NO_PORT || self.credits[down as usize * self.vcs as usize + head.out_vc as usize] >= self.packet_size
    }

    /// Separable input-first allocation with `speedup` grants per input and output per
    /// cycle: each round every input requests with its round-robin-first ready VC, every
    /// output grants its round-robin-closest requester. iSLIP runs `islip_iterations`
    /// rounds per unit of speedup and moves its pointers only on first-iteration grants.
    /// The routed, pipeline-ready VCs are collected once per cycle (in port order); a VC
    /// that wins leaves the list, since its next packet must be routed first.
    pub(super) fn allocate_switch(&mut self, r: u32, now: u64) {
        let (first_port, radix) = self.ports_of(r);
        let vcs = self.vcs as usize;
        let mut cands = std::mem::take(&mut self.scratch.candidates);
        cands.clear();
        for w in 0..self.nonempty.words_per_router {
            let mut bits = self.nonempty.word(r, w) & !self.unrouted.word(r, w);
            while bits != 0 {
                let local = w * 64 + bits.trailing_zeros() as usize;
                bits &= bits - 1;
                let head = &self.heads[first_port * vcs + local];
                if head.ready_at <= now {
                    cands.push(local as u32);
                    self.scratch.in_cap[self.local_vc[local].0 as usize] = self.speedup;
                    self.scratch.out_cap[head.out_port as usize] = self.speedup;
                }
            }
        }
        let iterations = (self.alloc_rounds / self.speedup).max(1);
        for round in 0..self.alloc_rounds {
            // Request phase, port by port over the candidates.
            self.scratch.requests.clear();
            let (mut cur_port, mut best_ci, mut best_d) = (usize::MAX, 0usize, usize::MAX);
            let mut ready = 0;
            for (ci, &local) in cands.iter().enumerate() {
                if local == u32::MAX {
                    continue;
                }
                let (p, v) = self.local_vc[local as usize];
                let (p, v) = (p as usize, v as usize);
                if p != cur_port {
                    if best_d != usize::MAX {
                        self.push_request(cur_port, best_ci, cands[best_ci], first_port, radix);
                    }
                    (cur_port, best_d) = (p, usize::MAX);
                }
                if self.scratch.in_cap[p] == 0 || !self.head_ready(first_port * vcs + local as usize, first_port) {
                    continue;
                }
                ready += 1;
                let d = wrap(v + vcs - self.in_rr[first_port + p] as usize, vcs);
                if d < best_d {
                    (best_ci, best_d) = (ci, d);
                }
            }
            if best_d != usize::MAX {
                self.push_request(cur_port, best_ci, cands[best_ci], first_port, radix);
            }
            if self.scratch.requests.is_empty() {
                break;
            }
            // Grant phase.
            let move_pointers = !self.islip || round % iterations == 0;
            let mut granted = 0;
            for i in 0..self.scratch.requests.len() {
                let (p, ci, out) = self.scratch.requests[i];
                if self.scratch.best_input[out as usize] != p {
                    continue;
                }
                let local = cands[ci as usize] as usize;
                let v = self.local_vc[local].1;
                self.traverse(r, first_port * vcs + local, now);
                granted += 1;
                cands[ci as usize] = u32::MAX;
                self.scratch.in_cap[p as usize] -= 1;
                self.scratch.out_cap[out as usize] -= 1;
                if move_pointers {
                    self.in_rr[first_port + p as usize] = wrap(v as usize + 1, vcs) as u16;
                    self.out_rr[first_port + out as usize] = wrap(p as usize + 1, radix) as u16;
                }
            }
            for i in 0..self.scratch.requests.len() {
                let out = self.scratch.requests[i].2 as usize;
                self.scratch.best_dist[out] = u32::MAX;
                self.scratch.best_input[out] = u32::MAX;
            }
            // Every VC that could cross this cycle did: a VC that could not cannot later
            // (its input's or output's grants, output-queue slots and credits only shrink
            // while the switch is allocated), so another round would find no request.
            if granted == ready {
                break;
            }
        }
        self.scratch.candidates = cands;
    }

    /// Records input port `p`'s request (candidate `ci`, router-local VC `local`) and
    /// updates its output's round-robin-closest requester.
    #[inline]
    fn push_request(&mut self, p: usize, ci: usize, local: u32, first_port: usize, radix: usize) {
        let iv = first_port * self.vcs as usize + local as usize;
        let out = self.heads[iv].out_port as usize;
        let d = wrap(p + radix - self.out_rr[first_port + out] as usize, radix) as u32;
        if d < self.scratch.best_dist[out] {
            self.scratch.best_dist[out] = d;
            self.scratch.best_input[out] = p as u32;
        }
        self.scratch.requests.push((p as u32, ci as u32, out as u32));
    }

    /// Moves the head packet of input VC `iv` through the switch into its output queue,
    /// consuming downstream credits and returning this buffer's credits upstream.
    fn traverse(&mut self, r: u32, iv: usize, now: u64) {
        let (depth, vcs, size) = (self.depth as usize, self.vcs as usize, self.packet_size);
        let Head { pid, out_port, out_vc, .. } = self.heads[iv];
        self.buf_head[iv] = wrap(self.buf_head[iv] as usize + 1, depth) as u16;
        self.buf_len[iv] -= 1;
        self.buf_flits[iv] -= size;
        let first_port = self.first_port[r as usize] as usize;
        let local = iv - first_port * vcs;
        if self.buf_len[iv] == 0 {
            self.nonempty.clear(r, local);
        } else {
            self.load_head(iv);
            self.unrouted.set(r, local);
        }
        let op = first_port + out_port as usize;
        self.committed[op * vcs + out_vc as usize] -= size;
        let down = self.downstream[op];
        if down == NO_PORT {
            self.port_queues[op] -= size as u32;
        } else {
            // Committed flits become downstream flits: the port's queue stays the same.
            self.credits[down as usize * vcs + out_vc as usize] -= size;
            if let Some(cr) = &mut self.cr {
                cr.on_send(down as usize * vcs + out_vc as usize, now);
            }
        }
        let cap = self.outq_cap as usize;
        let q = op * cap + wrap(self.outq_head[op] as usize + self.outq_len[op] as usize, cap);
        self.outq[q] = OutEntry { pid, vc: out_vc as u32 };
        self.outq_len[op] += 1;
        // The credit leaves when the tail leaves this buffer and crosses the channel back.
        let in_port = first_port + self.local_vc[local].0 as usize;
        let at = now + (size as u64 - 1) + self.latency[in_port] as u64;
        // UGAL-L_CR (dragonfly §4.3.2): the credit may be held back.
        let delay = self.cr.as_mut().map_or(0, |cr| cr.delay(in_port, op, r as usize));
        match &mut self.cr {
            Some(cr) if delay > 0 => cr.hold(at + delay as u64, iv as u32, size),
            _ => self.schedule_credit(at, iv as u32, size),
        }
        self.last_progress = now;
    }

    /// Mirrors the packet now at the head of input VC `iv` into its [`Head`] record.
    #[inline]
    pub(super) fn load_head(&mut self, iv: usize) {
        let slot = self.buf[iv * self.depth as usize + self.buf_head[iv] as usize];
        self.heads[iv] = Head { ready_at: slot.arrived + self.pipeline_delay, pid: slot.pid, out_port: 0, out_vc: 0 };
    }

    /// Each output channel that is free sends the head of its output queue.
    pub(super) fn send_outputs(&mut self, r: u32, now: u64) {
        let (first_port, radix) = self.ports_of(r);
        let cap = self.outq_cap as usize;
        for op in first_port..first_port + radix {
            if self.outq_len[op] == 0 || self.chan_free_at[op] > now {
                continue;
            }
            let OutEntry { pid, vc } = self.outq[op * cap + self.outq_head[op] as usize];
            self.outq_head[op] = wrap(self.outq_head[op] as usize + 1, cap) as u16;
            self.outq_len[op] -= 1;
            self.load[r as usize] -= 1;
            let size = self.packet_size as u64;
            // Terminal channels may be slower: one flit per `terminal_period` cycles.
            let busy = if self.downstream[op] == NO_PORT { size * self.cfg.router.terminal_period as u64 } else { size };
            self.chan_free_at[op] = now + busy;
            self.sent_flits[op] += size;
            let at = now + self.latency[op] as u64;
            match self.downstream[op] {
                NO_PORT => self.deliver(pid, at + busy - 1),
                down => self.schedule_arrival(at, down, vc, pid),
            }
        }
    }
}
