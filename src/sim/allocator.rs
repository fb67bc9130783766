//! Switch allocation (FB paper §3.2; iSLIP as in the HyperX paper §4.1): separable
//! input-first round-robin, or iSLIP, with internal speedup, and the crossbar traversal of
//! the winners.
//!
//! Each cycle a router collects its routed, pipeline-ready input VCs once into compact
//! [`Candidate`] records (everything a round needs: the output port, the downstream credit
//! counter, the input port and VC), then runs up to `speedup × iterations` rounds. In a
//! round every input port with grants left requests with its round-robin-first VC that
//! could cross now; every output grants its round-robin-closest requester. The winners
//! cross the switch in request order after the round, so the arbitration reads only state
//! from before the round and the rounds are independent of the order of traversals; then
//! they leave the candidate list (a VC's next packet must be routed first). A winner that
//! would head an empty output queue with a free channel goes straight onto the channel, or
//! is delivered to its terminal (see `traverse`).

use super::router::{wrap, Links};
use super::state::{InputBuffers, Params, Ports, Routers, Shape, Wheels};
use super::table::Table;
use super::terminal::deliver;
use super::{CreditReturn, OutEntry, Simulation, Upstream, NO_PORT};

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

/// An input port's request in one round: its candidate, and the output and VC it wants.
#[derive(Clone, Copy, Debug, Default)]
struct Request {
    port: u32,
    cand: u32,
    out: u16,
    vc: u16,
}

/// Allocator scratch space, sized once for the largest router.
#[derive(Clone)]
pub(super) struct Scratch {
    cands: Table<Candidate>,
    requests: Table<Request>,
    /// Per local output port: the requester it grants this round so far, or `NO_PORT`.
    winner: Table<u32>,
    /// Candidates granted in the current round, in request order.
    grants: Table<u32>,
    /// Grants left this cycle per local input port (`speedup` at the start), and per local
    /// output port the grants it can still take: its grants left this cycle, bounded by
    /// the free slots of its output queue (both shrink by one per grant).
    in_cap: Table<u32>,
    out_room: Table<u32>,
}

impl Scratch {
    pub(super) fn new(radix: usize, vcs: usize) -> Scratch {
        Scratch {
            cands: vec![Candidate::default(); radix * vcs].into(),
            requests: vec![Request::default(); radix].into(),
            winner: vec![NO_PORT; radix].into(),
            grants: vec![0; radix].into(),
            in_cap: vec![0; radix].into(),
            out_room: vec![0; radix].into(),
        }
    }
}

impl Scratch {
    /// Whether the scratch tables fit routers of `radix` ports with `vcs` VCs each.
    pub(super) fn fits(&self, radix: usize, vcs: usize) -> bool {
        self.cands.len() >= radix * vcs
            && [self.requests.len(), self.winner.len(), self.grants.len(), self.in_cap.len(), self.out_room.len()]
                .iter()
                .all(|&n| n >= radix)
    }
    /// Removes the candidates granted in the last round from the first `n` (the grants
    /// are in candidate order) and returns how many remain, in their order: the
    /// candidates before the first grant stay where they are, each run between two grants
    /// moves down.
    fn drop_granted(&mut self, n: usize, granted: usize) -> usize {
        if granted == 0 {
            return n;
        }
        let mut kept = self.grants[0] as usize;
        for g in 0..granted {
            let next = if g + 1 < granted { self.grants[g + 1] as usize } else { n };
            for i in self.grants[g] as usize + 1..next {
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
    ///
    /// Not inlined: inside `step` it costs ~1 % more instructions (register pressure).
    #[inline(never)]
    pub(super) fn allocate_switch<S: Shape>(&mut self, r: u32, now: u64) {
        let mut n = self.collect_candidates::<S>(r, now);
        if n == 0 {
            return;
        }
        let Params { speedup, iterations, .. } = self.params.shaped::<S>();
        let rounds = speedup * iterations;
        for round in 0..rounds {
            let move_pointers = round % iterations == 0;
            let (ready, granted) = self.arbitrate::<S>(r, n, move_pointers);
            self.traverse::<S>(r, granted, now);
            // Every VC that could cross this cycle did: a VC that could not cannot later
            // (its input's or output's grants, output-queue slots and credits only shrink
            // while the switch is allocated), so another round would find no request.
            if granted == ready || round + 1 == rounds {
                break;
            }
            n = self.scratch.drop_granted(n, granted);
        }
    }

    /// Fills the candidate list with router `r`'s routed input VCs whose head is past the
    /// pipeline delay (in VC index order, so grouped by input port); returns their number.
    fn collect_candidates<S: Shape>(&mut self, r: u32, now: u64) -> usize {
        let Simulation {
            ref mut scratch,
            buffers: InputBuffers { ref nonempty, ref unrouted, ref inputs, ref local_vc, .. },
            ports: Ports { ref downstream, ref outq_len, .. },
            routers: Routers { ref first_port, .. },
            ref params,
            ..
        } = *self;
        let Params { vcs, speedup, outq_cap, .. } = params.shaped::<S>();
        let (inputs, local_vc, downstream, outq_len) =
            (inputs.view(), local_vc.view(), downstream.view(), outq_len.view());
        let (mut cands, mut in_cap, mut out_room) =
            (scratch.cands.view_mut(), scratch.in_cap.view_mut(), scratch.out_room.view_mut());
        // SAFETY: `r` is a router id (invariant 1).
        let first = unsafe { *first_port.get_unchecked(r as usize) } as usize;
        let first_vc = first * vcs as usize;
        let mut n = 0;
        for w in 0..nonempty.words_per_router {
            // SAFETY: `r` is a router id (invariant 1), `w` < `words_per_router`.
            let mut bits = unsafe { nonempty.word(r, w) & !unrouted.word(r, w) };
            while bits != 0 {
                let local = w * 64 + bits.trailing_zeros() as usize;
                bits &= bits - 1;
                // SAFETY: `local` is a set bit of router `r`'s input VCs, so below its
                // radix · V (invariant 4), and `first_vc + local` below P · V (1).
                let head = unsafe { *inputs.get_unchecked(first_vc + local) };
                if !head.ready(now) {
                    continue;
                }
                // SAFETY: `local` < radix · V ≤ R · V = `local_vc`'s length (4, 5).
                let (in_port, vc) = unsafe { *local_vc.get_unchecked(local) };
                // A non-empty, routed VC holds a route checked against the radix (3).
                let op = first + head.out_port as usize;
                // SAFETY: `op` < first_port[r + 1] ≤ P (1, 3).
                let down = unsafe { *downstream.get_unchecked(op) };
                let credit = if down == NO_PORT { NO_PORT } else { down * vcs + head.out_vc as u32 };
                // SAFETY: `n` counts distinct set bits so far, fewer than radix · V ≤ R · V
                // (4, 5); `in_port`, `out_port` < radix ≤ R (3, 5); `op` < P (1, 3).
                unsafe {
                    *cands.get_unchecked_mut(n) = Candidate {
                        iv: (first_vc + local) as u32,
                        credit,
                        op: op as u32,
                        in_port,
                        vc,
                        out: head.out_port,
                        out_vc: head.out_vc,
                    };
                    *in_cap.get_unchecked_mut(in_port as usize) = speedup;
                    *out_room.get_unchecked_mut(head.out_port as usize) =
                        speedup.min(outq_cap - *outq_len.get_unchecked(op) as u32);
                }
                n += 1;
            }
        }
        n
    }

    /// One round over the first `n` candidates: requests, then grants (recorded in
    /// `scratch.grants`). Returns the number of candidates that could have crossed and
    /// the number granted.
    fn arbitrate<S: Shape>(&mut self, r: u32, n: usize, move_pointers: bool) -> (usize, usize) {
        let Simulation {
            ref mut scratch,
            ports: Ports { ref mut in_rr, ref mut out_rr, .. },
            buffers: InputBuffers { ref credits, .. },
            routers: Routers { ref first_port, .. },
            ref params,
            ..
        } = *self;
        let Params { vcs, packet_size, .. } = params.shaped::<S>();
        let Scratch { cands, requests, winner, grants, in_cap, out_room } = scratch;
        let (mut requests, mut winner, mut grants, mut in_cap, mut out_room) =
            (requests.view_mut(), winner.view_mut(), grants.view_mut(), in_cap.view_mut(), out_room.view_mut());
        let (mut in_rr, mut out_rr, credits) = (in_rr.view_mut(), out_rr.view_mut(), credits.view());
        let cands = &cands[..n];
        // SAFETY: `r` is a router id, so `r + 1` < `first_port`'s length (invariant 1).
        let (first, next) =
            unsafe { (*first_port.get_unchecked(r as usize), *first_port.get_unchecked(r as usize + 1)) };
        let (first, radix) = (first as usize, (next - first) as usize);
        let vcs = vcs as usize;
        // Every index below is a router-local port (`in_port`, `out` < radix ≤ R: invariants
        // 3, 5, so within the scratch tables, and `first + port` < P: 1), a candidate's
        // downstream credit counter (< P · V: 2, 3) or a count of requests or grants (at
        // most one per input port, so < radix ≤ R).
        // Requests, in input port order: per input port, its round-robin-first VC that could
        // cross now. Every output keeps its round-robin-first requester so far: the first at
        // or after its pointer, else the first.
        let (mut nreq, mut ready, mut i) = (0, 0, 0);
        let n = cands.len();
        while i < n {
            let port = cands[i].in_port as usize;
            // SAFETY: `port` is a local port (above).
            let open = unsafe { *in_cap.get_unchecked(port) } > 0;
            // SAFETY: `first + port` < first_port[r + 1] ≤ P (invariants 1, 3).
            let rr = unsafe { *in_rr.get_unchecked(first + port) } as usize;
            let (mut best, mut best_d) = (usize::MAX, usize::MAX);
            while i < n && cands[i].in_port as usize == port {
                let c = &cands[i];
                // SAFETY: `c.out` is a local port, `c.credit` a credit counter (above).
                let can_cross = open
                    && unsafe { *out_room.get_unchecked(c.out as usize) } > 0
                    && (c.credit == NO_PORT || unsafe { *credits.get_unchecked(c.credit as usize) } >= packet_size);
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
                let Candidate { out, vc, .. } = cands[best];
                let out = out as usize;
                // SAFETY: `out` is a local port, `nreq` a count of requests (above).
                unsafe {
                    let (held, pointer) = (*winner.get_unchecked(out), *out_rr.get_unchecked(first + out) as u32);
                    if held == NO_PORT || held < pointer && port as u32 >= pointer {
                        *winner.get_unchecked_mut(out) = port as u32;
                    }
                    *requests.get_unchecked_mut(nreq) =
                        Request { port: port as u32, cand: best as u32, out: out as u16, vc };
                }
                nreq += 1;
            }
        }
        // Grants: every output to its round-robin-first requester (which resets the output).
        let mut granted = 0;
        for k in 0..nreq {
            // SAFETY: `k` < `nreq`, a count of requests; `out` and `port` are local ports,
            // `granted` ≤ `k` a count of grants (above).
            unsafe {
                let Request { port, cand, out, vc } = *requests.get_unchecked(k);
                if *winner.get_unchecked(out as usize) != port {
                    continue;
                }
                *winner.get_unchecked_mut(out as usize) = NO_PORT;
                *grants.get_unchecked_mut(granted) = cand;
                granted += 1;
                *in_cap.get_unchecked_mut(port as usize) -= 1;
                *out_room.get_unchecked_mut(out as usize) -= 1;
                if move_pointers {
                    *in_rr.get_unchecked_mut(first + port as usize) = wrap(vc as usize + 1, vcs) as u16;
                    *out_rr.get_unchecked_mut(first + out as usize) = wrap(port as usize + 1, radix) as u16;
                }
            }
        }
        (ready, granted)
    }

    /// Moves the winners of the last round (`scratch.grants[..granted]`) through the switch
    /// into their output queues, consuming downstream credits and returning the credits of
    /// the buffers they leave upstream.
    ///
    /// A winner for an output whose queue is empty and whose channel is free would be sent
    /// by `send_outputs` at the end of this cycle, as the queue's head: it is sent right
    /// away instead, or delivered if the output is a terminal's, sparing the queue a push
    /// and a pop. (The delivery then comes before those of packets queued at other
    /// terminal outputs, which changes only the order in which packet ids return to the
    /// store: statistics are sums and histograms, and no result depends on an id.)
    fn traverse<S: Shape>(&mut self, r: u32, granted: usize, now: u64) {
        let Simulation {
            ref scratch,
            ref mut cr,
            buffers:
                InputBuffers {
                    ref mut inputs,
                    ref buf,
                    ref mut nonempty,
                    ref mut unrouted,
                    ref mut committed,
                    ref mut credits,
                    ..
                },
            ports:
                Ports {
                    ref mut port_queues,
                    ref mut outq,
                    ref outq_head,
                    ref mut outq_len,
                    ref latency,
                    ref upstream,
                    ref downstream,
                    ref mut channels,
                    ..
                },
            routers: Routers { ref mut queued_outputs, ref first_port, ref mut load, .. },
            wheels: Wheels { ref mut credit_wheel, ref mut arrivals, wheel_mask, .. },
            ref mut watchdog,
            ref mut stats,
            ref mut packets,
            ref params,
            ..
        } = *self;
        let Params { packet_size, depth, vcs, outq_cap, pipeline_delay, terminal_period, .. } = params.shaped::<S>();
        let (mut inputs, buf, mut committed, mut port_queues, mut credits) =
            (inputs.view_mut(), buf.view(), committed.view_mut(), port_queues.view_mut(), credits.view_mut());
        let (mut outq, outq_head, mut outq_len, upstream) =
            (outq.view_mut(), outq_head.view(), outq_len.view_mut(), upstream.view());
        let downstream = downstream.view();
        let mut links = Links::new(channels, latency, arrivals, wheel_mask, packet_size);
        let (cands, grants) = (scratch.cands.view(), scratch.grants.view());
        // SAFETY: `r` is a router id (invariant 1), and the bitsets cover every router
        // (`check_tables`).
        let (mut nonempty, mut unrouted, mut queued) =
            unsafe { (nonempty.of_unchecked(r), unrouted.of_unchecked(r), queued_outputs.of_unchecked(r)) };
        let (depth, vcs, cap, size) = (depth as usize, vcs as usize, outq_cap as usize, packet_size);
        // SAFETY: `r` is a router id (invariant 1).
        let first = unsafe { *first_port.get_unchecked(r as usize) } as usize;
        let first_vc = first * vcs;
        let mut sent = 0;
        for &g in &grants[..granted] {
            // SAFETY: `g` indexes a candidate collected this cycle (< n ≤ R · V); its `iv`
            // is an input VC of router `r` (< P · V: 1, 4), `op` an output port (< P: 1, 3),
            // `c.credit` a credit counter (< P · V: 2, 3), `out_vc` < V (3), `buf_head` <
            // depth (6), and the output queue position is wrapped below `cap`.
            let c = unsafe { *cands.get_unchecked(g as usize) };
            let iv = c.iv as usize;
            // SAFETY: `iv` is an input VC of router `r` (< P · V: 1, 4).
            let input = unsafe { inputs.get_unchecked_mut(iv) };
            let pid = input.pid;
            input.buf_head = wrap(input.buf_head as usize + 1, depth) as u16;
            input.buf_len -= 1;
            let local = iv - first_vc;
            if input.buf_len == 0 {
                // SAFETY: `local` is an input VC of router `r` (< radix · V: invariant 4).
                unsafe { nonempty.clear(local) };
            } else {
                // The next packet becomes the head: mirror it into the VC's record.
                // SAFETY: `iv` < P · V and `buf_head` < depth (6): below P · V · depth.
                let slot = unsafe { *buf.get_unchecked(iv * depth + input.buf_head as usize) };
                input.set_head(slot.pid, slot.arrived(now) + pipeline_delay);
                // SAFETY: as above.
                unsafe { unrouted.set(local) };
            }
            let op = c.op as usize;
            // SAFETY: `op` < P and `out_vc` < V (3); `c.credit` < P · V (2, 3).
            unsafe {
                *committed.get_unchecked_mut(op * vcs + c.out_vc as usize) -= size;
                if c.credit == NO_PORT {
                    *port_queues.get_unchecked_mut(op) -= size as u32;
                } else {
                    // Committed flits become downstream flits: the port's queue stays the same.
                    *credits.get_unchecked_mut(c.credit as usize) -= size;
                }
            }
            // SAFETY: `op` < P (1, 3).
            let queue_len = unsafe { *outq_len.get_unchecked(op) };
            // SAFETY: (to the end of the loop) `op` and `in_port` are port ids of router `r`
            // (< P: invariants 1, 3), `c.out` a port of it (< radix ≤ R: 3).
            if queue_len == 0 && unsafe { links.free(op, now) } {
                if c.credit != NO_PORT {
                    // SAFETY: `op` < P (as above).
                    unsafe { links.send(op, *downstream.get_unchecked(op), c.out_vc as u32, pid, now) };
                } else {
                    // Terminal channels may be slower: one flit per `terminal_period` cycles.
                    let busy = size as u64 * terminal_period;
                    // SAFETY: `op` < P (as above).
                    let at = unsafe { links.occupy(op, now, busy) } + busy - 1;
                    deliver(stats, packets, watchdog, pid, at, now);
                }
                sent += 1;
            } else {
                // SAFETY: `op` < P (1, 3). The queue slot is indexed checked: it is below
                // `cap` only while the switch allocator keeps the queue from overflowing.
                let q = op * cap + wrap(unsafe { *outq_head.get_unchecked(op) } as usize + queue_len as usize, cap);
                outq[q] = OutEntry { pid, vc: c.out_vc as u32 };
                // SAFETY: `op` < P.
                unsafe { *outq_len.get_unchecked_mut(op) += 1 };
                if queue_len == 0 {
                    // SAFETY: `c.out` < radix ≤ R (3).
                    unsafe { queued.set(c.out as usize) };
                }
            }
            // The credit leaves when the tail leaves this buffer and crosses the channel back.
            let in_port = first + c.in_port as usize;
            // SAFETY: `in_port` < first_port[r + 1] ≤ P (1, 3).
            let Upstream { port: up, latency } = unsafe { *upstream.get_unchecked(in_port) };
            let at = now + (size as u64 - 1) + latency as u64;
            let mut round_trip = 0;
            // UGAL-L_CR (dragonfly §4.3.2): this buffer's credit may be held back, and
            // carries the round trip it completes; the downstream credit's starts now.
            if let Some(cr) = cr {
                let delay = cr.delay(in_port, op, r as usize);
                if up != NO_PORT {
                    round_trip = cr.round_trip(pid, at + delay as u64);
                }
                if c.credit != NO_PORT {
                    cr.on_send(c.credit as usize, pid, now);
                }
                if delay > 0 {
                    cr.hold(at + delay as u64, iv as u32, size, round_trip);
                    continue;
                }
            }
            debug_assert!(at > now && at - now <= wheel_mask);
            // SAFETY: the wheel has `wheel_mask + 1` slots (invariant 7).
            unsafe { credit_wheel.get_unchecked_mut((at & wheel_mask) as usize) }.push(CreditReturn {
                iv: iv as u32,
                up,
                flits: size,
                round_trip,
            });
        }
        // SAFETY: `r` is a router id: below `load`'s length, the number of routers (1).
        unsafe { *load.get_unchecked_mut(r as usize) -= sent };
        if granted > 0 {
            watchdog.last_progress = now;
        }
    }
}
