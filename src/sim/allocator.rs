//! Switch allocation (SPEC.md §1): separable input-first round-robin, or iSLIP, with
//! internal speedup, and the crossbar traversal of the winners.
//!
//! Each cycle a router collects its routed, pipeline-ready input VCs once into compact
//! [`Candidate`] records (everything a round needs: the output port, the downstream credit
//! counter, the input port and VC), then runs up to `speedup × iterations` rounds. In a
//! round every input port with grants left requests with its round-robin-first VC that
//! could cross now; every output grants its round-robin-closest requester. The winners
//! cross the switch in request order after the round, so the arbitration reads only state
//! from before the round and the rounds are independent of the order of traversals; then
//! they leave the candidate list (a VC's next packet must be routed first).

use super::router::wrap;
use super::table::Table;
use super::{OutEntry, Simulation, NO_PORT};

/// A routed, pipeline-ready input VC of the router being allocated.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct Candidate {
    /// Input VC index.
    iv: u32,
    /// Index of the downstream VC's credit counter, or `NO_PORT` for an ejection port.
    credit: u32,
    /// Output port id.
    op: u32,
    /// Router-local input port and VC, output port and output VC.
    in_port: u16,
    vc: u16,
    out: u16,
    out_vc: u16,
}

/// An input port's request in one round: its candidate and the output it wants.
#[derive(Clone, Copy, Debug, Default)]
struct Request {
    port: u32,
    cand: u32,
    out: u32,
}

/// Allocator scratch space, sized once for the largest router.
pub(super) struct Scratch {
    cands: Table<Candidate>,
    requests: Table<Request>,
    /// Candidates granted in the current round, in request order.
    grants: Table<u32>,
    /// Per local output port: best requesting input this round and its priority distance.
    best_input: Table<u32>,
    best_dist: Table<u32>,
    /// Grants left this cycle per local input and output port (`speedup` at the start).
    in_cap: Table<u32>,
    out_cap: Table<u32>,
}

impl Scratch {
    pub(super) fn new(radix: usize, vcs: usize) -> Scratch {
        Scratch {
            cands: vec![Candidate::default(); radix * vcs].into(),
            requests: vec![Request::default(); radix].into(),
            grants: vec![0; radix].into(),
            best_input: vec![u32::MAX; radix].into(),
            best_dist: vec![u32::MAX; radix].into(),
            in_cap: vec![0; radix].into(),
            out_cap: vec![0; radix].into(),
        }
    }
}

impl Scratch {
    /// Removes the candidates granted in the last round from the first `n` (the grants
    /// are in candidate order) and returns how many remain, in their order.
    fn drop_granted(&mut self, n: usize, granted: usize) -> usize {
        let (mut kept, mut g) = (0, 0);
        for i in 0..n {
            if g < granted && self.grants[g] as usize == i {
                g += 1;
            } else {
                self.cands[kept] = self.cands[i];
                kept += 1;
            }
        }
        kept
    }
}

impl Simulation {
    /// Allocates router `r`'s switch for this cycle and moves the winners into their
    /// output queues. iSLIP runs `islip_iterations` rounds per unit of speedup and moves
    /// its pointers only on first-iteration grants.
    pub(super) fn allocate_switch(&mut self, r: u32, now: u64) {
        let mut n = self.collect_candidates(r, now);
        if n == 0 {
            return;
        }
        let iterations = (self.alloc_rounds / self.speedup).max(1);
        for round in 0..self.alloc_rounds {
            let move_pointers = !self.islip || round % iterations == 0;
            let (ready, granted) = self.arbitrate(r, n, move_pointers);
            for g in 0..granted {
                let c = self.scratch.cands[self.scratch.grants[g] as usize];
                self.traverse(r, c, now);
            }
            // Every VC that could cross this cycle did: a VC that could not cannot later
            // (its input's or output's grants, output-queue slots and credits only shrink
            // while the switch is allocated), so another round would find no request.
            if granted == ready {
                break;
            }
            n = self.scratch.drop_granted(n, granted);
        }
    }

    /// Fills the candidate list with router `r`'s routed input VCs whose head is past the
    /// pipeline delay (in VC index order, so grouped by input port); returns their number.
    fn collect_candidates(&mut self, r: u32, now: u64) -> usize {
        let Simulation { ref nonempty, ref unrouted, ref inputs, ref local_vc, ref downstream, ref first_port, ref mut scratch, vcs, speedup, .. } = *self;
        let (inputs, local_vc, downstream) = (inputs.view(), local_vc.view(), downstream.view());
        let (mut cands, mut in_cap, mut out_cap) = (scratch.cands.view_mut(), scratch.in_cap.view_mut(), scratch.out_cap.view_mut());
        let first = first_port[r as usize] as usize;
        let first_vc = first * vcs as usize;
        let mut n = 0;
        for w in 0..nonempty.words_per_router {
            let mut bits = nonempty.word(r, w) & !unrouted.word(r, w);
            while bits != 0 {
                let local = w * 64 + bits.trailing_zeros() as usize;
                bits &= bits - 1;
                let head = inputs[first_vc + local];
                if head.ready_at > now {
                    continue;
                }
                let (in_port, vc) = local_vc[local];
                let op = first + head.out_port as usize;
                let down = downstream[op];
                let credit = if down == NO_PORT { NO_PORT } else { down * vcs + head.out_vc as u32 };
                cands[n] = Candidate { iv: (first_vc + local) as u32, credit, op: op as u32, in_port, vc, out: head.out_port, out_vc: head.out_vc };
                in_cap[in_port as usize] = speedup;
                out_cap[head.out_port as usize] = speedup;
                n += 1;
            }
        }
        n
    }

    /// One round over the first `n` candidates: requests, then grants (recorded in
    /// `scratch.grants`). Returns the number of candidates that could have crossed and
    /// the number granted.
    fn arbitrate(&mut self, r: u32, n: usize, move_pointers: bool) -> (usize, usize) {
        let Simulation { ref mut scratch, ref mut in_rr, ref mut out_rr, ref outq_len, ref credits, ref first_port, vcs, outq_cap, packet_size, .. } = *self;
        let Scratch { cands, requests, grants, best_input, best_dist, in_cap, out_cap } = scratch;
        let (cands, mut requests, mut grants) = (cands.view(), requests.view_mut(), grants.view_mut());
        let (mut best_input, mut best_dist, mut in_cap, mut out_cap) = (best_input.view_mut(), best_dist.view_mut(), in_cap.view_mut(), out_cap.view_mut());
        let (mut in_rr, mut out_rr, outq_len, credits) = (in_rr.view_mut(), out_rr.view_mut(), outq_len.view(), credits.view());
        let first = first_port[r as usize] as usize;
        let radix = first_port[r as usize + 1] as usize - first;
        let vcs = vcs as usize;
        // Requests: per input port, its round-robin-first VC that could cross now.
        let (mut nreq, mut ready, mut i) = (0, 0, 0);
        while i < n {
            let port = cands[i].in_port as usize;
            let open = in_cap[port] > 0;
            let rr = in_rr[first + port] as usize;
            let (mut best, mut best_d) = (usize::MAX, usize::MAX);
            while i < n && cands[i].in_port as usize == port {
                let c = &cands[i];
                let can_cross = open && out_cap[c.out as usize] > 0 && (outq_len[c.op as usize] as u32) < outq_cap && (c.credit == NO_PORT || credits[c.credit as usize] >= packet_size);
                if can_cross {
                    ready += 1;
                    let d = wrap(c.vc as usize + vcs - rr, vcs);
                    if d < best_d {
                        (best, best_d) = (i, d);
                    }
                }
                i += 1;
            }
            if best != usize::MAX {
                let out = cands[best].out as usize;
                let d = wrap(port + radix - out_rr[first + out] as usize, radix) as u32;
                if d < best_dist[out] {
                    best_dist[out] = d;
                    best_input[out] = port as u32;
                }
                requests[nreq] = Request { port: port as u32, cand: best as u32, out: out as u32 };
                nreq += 1;
            }
        }
        // Grants: every output to its round-robin-closest requester.
        let mut granted = 0;
        for k in 0..nreq {
            let Request { port, cand, out } = requests[k];
            if best_input[out as usize] != port {
                continue;
            }
            grants[granted] = cand;
            granted += 1;
            let c = &cands[cand as usize];
            in_cap[port as usize] -= 1;
            out_cap[out as usize] -= 1;
            if move_pointers {
                in_rr[first + port as usize] = wrap(c.vc as usize + 1, vcs) as u16;
                out_rr[first + out as usize] = wrap(port as usize + 1, radix) as u16;
            }
        }
        for k in 0..nreq {
            let out = requests[k].out as usize;
            best_dist[out] = u32::MAX;
            best_input[out] = u32::MAX;
        }
        (ready, granted)
    }

    /// Moves the head packet of candidate `c` through the switch into its output queue,
    /// consuming downstream credits and returning this buffer's credits upstream.
    fn traverse(&mut self, r: u32, c: Candidate, now: u64) {
        let (depth, vcs, size) = (self.depth as usize, self.vcs as usize, self.packet_size);
        let iv = c.iv as usize;
        let pid = self.inputs[iv].pid;
        self.inputs[iv].buf_head = wrap(self.inputs[iv].buf_head as usize + 1, depth) as u16;
        self.inputs[iv].buf_len -= 1;
        self.buf_flits[iv] -= size;
        let first_port = self.first_port[r as usize] as usize;
        let local = iv - first_port * vcs;
        if self.inputs[iv].buf_len == 0 {
            self.nonempty.clear(r, local);
        } else {
            self.load_head(iv);
            self.unrouted.set(r, local);
        }
        let op = c.op as usize;
        self.committed[op * vcs + c.out_vc as usize] -= size;
        if c.credit == NO_PORT {
            self.port_queues[op] -= size as u32;
        } else {
            // Committed flits become downstream flits: the port's queue stays the same.
            self.credits[c.credit as usize] -= size;
            if let Some(cr) = &mut self.cr {
                cr.on_send(c.credit as usize, now);
            }
        }
        let cap = self.outq_cap as usize;
        let q = op * cap + wrap(self.outq_head[op] as usize + self.outq_len[op] as usize, cap);
        self.outq[q] = OutEntry { pid, vc: c.out_vc as u32 };
        self.outq_len[op] += 1;
        if self.outq_len[op] == 1 {
            self.queued_outputs.set(r, c.out as usize);
        }
        // The credit leaves when the tail leaves this buffer and crosses the channel back.
        let in_port = first_port + c.in_port as usize;
        let at = now + (size as u64 - 1) + self.latency[in_port] as u64;
        // UGAL-L_CR (dragonfly §4.3.2): the credit may be held back.
        let delay = self.cr.as_mut().map_or(0, |cr| cr.delay(in_port, op, r as usize));
        match &mut self.cr {
            Some(cr) if delay > 0 => cr.hold(at + delay as u64, iv as u32, size),
            _ => self.schedule_credit(at, iv as u32, in_port, size),
        }
        self.last_progress = now;
    }
}
