//! The per-router stages of a cycle other than switch allocation (`allocator.rs`): route
//! computation (greedy or sequential allocation of routing decisions, FB paper §3.1) and
//! the output channels.
//!
//! Each router keeps bitsets over its input VCs (bit `port·V + vc`): *non-empty* and
//! *head unrouted*, and one over its output ports: *output queue non-empty*. The head
//! packet of every input VC is mirrored in a small [`InputVc`](super::InputVc) record, so every stage visits
//! only VCs and ports with work, and a packet's own record is read once per hop, to route
//! it. The stages borrow the arrays they use as locals, so the hot loops keep their base
//! addresses in registers.

use super::table::{Table, View, ViewMut};
use super::{Arrival, Channel, OutEntry, Simulation, NO_PORT};
use crate::routing::{Decision, QueueView, RouteCtx};

/// `x mod n` for `x < 2n`, without a division.
#[inline(always)]
pub(super) fn wrap(x: usize, n: usize) -> usize {
    if x >= n { x - n } else { x }
}

/// A bitset per router over its input VCs or its ports (router-local indices).
#[derive(Clone, Debug)]
pub(super) struct RouterBits {
    pub(super) words_per_router: usize,
    bits: Table<u64>,
}

impl RouterBits {
    pub(super) fn new(routers: usize, per_router: usize) -> RouterBits {
        let words_per_router = per_router.div_ceil(64).max(1);
        RouterBits { words_per_router, bits: vec![0; routers * words_per_router].into() }
    }
    #[inline]
    pub(super) fn clear(&mut self, r: u32, local: usize) {
        self.bits[r as usize * self.words_per_router + local / 64] &= !(1 << (local % 64));
    }
    #[inline]
    pub(super) fn get(&self, r: u32, local: usize) -> bool {
        self.bits[r as usize * self.words_per_router + local / 64] & (1 << (local % 64)) != 0
    }
    /// Clears the bits of `mask` in word `w` of router `r`'s bitset.
    #[inline]
    pub(super) fn clear_bits(&mut self, r: u32, w: usize, mask: u64) {
        self.bits[r as usize * self.words_per_router + w] &= !mask;
    }
    /// Word `w` of router `r`'s bitset.
    #[inline]
    pub(super) fn word(&self, r: u32, w: usize) -> u64 {
        self.bits[r as usize * self.words_per_router + w]
    }
    /// The position of router `r`'s bit `local` among all routers' bits, for [`set_at`](Self::set_at).
    #[inline]
    pub(super) fn position(&self, r: u32, local: usize) -> usize {
        r as usize * self.words_per_router * 64 + local
    }
    /// Sets the bit at position `pos` (see [`position`](Self::position)).
    #[inline]
    pub(super) fn set_at(&mut self, pos: usize) {
        self.bits[pos / 64] |= 1 << (pos % 64);
    }
    /// Router `r`'s bitset, for a stage that updates one router's bits many times: the
    /// offset of its words is computed once, not per access.
    #[inline]
    pub(super) fn of(&mut self, r: u32) -> RouterBitsMut<'_> {
        let start = r as usize * self.words_per_router;
        RouterBitsMut(self.bits.range_mut(start..start + self.words_per_router))
    }
}

/// One router's bitset, mutably borrowed (see [`RouterBits::of`]).
pub(super) struct RouterBitsMut<'a>(ViewMut<'a, u64>);

impl RouterBitsMut<'_> {
    #[inline]
    pub(super) fn set(&mut self, local: usize) {
        self.0[local / 64] |= 1 << (local % 64);
    }
    #[inline]
    pub(super) fn clear(&mut self, local: usize) {
        self.0[local / 64] &= !(1 << (local % 64));
    }
}

/// The output channels to other routers, borrowed as local views by a stage that sends
/// packets over them (see [`Links::send`]).
pub(super) struct Links<'a> {
    channels: ViewMut<'a, Channel>,
    latency: View<'a, u32>,
    arrivals: ViewMut<'a, Vec<Arrival>>,
    wheel_mask: u64,
    size: u64,
}

impl<'a> Links<'a> {
    pub(super) fn new(channels: &'a mut Table<Channel>, latency: &'a Table<u32>, arrivals: &'a mut Table<Vec<Arrival>>, wheel_mask: u64, packet_size: u16) -> Links<'a> {
        Links { channels: channels.view_mut(), latency: latency.view(), arrivals: arrivals.view_mut(), wheel_mask, size: packet_size as u64 }
    }
    /// The latency of port `port`'s channel, in cycles.
    #[inline(always)]
    pub(super) fn latency(&self, port: usize) -> u64 {
        self.latency[port] as u64
    }
    /// Whether output port `op`'s channel can take a packet at cycle `now`.
    #[inline(always)]
    pub(super) fn free(&self, op: usize, now: u64) -> bool {
        self.channels[op].free_at <= now
    }
    /// Sends packet `pid` at cycle `now` over the channel of output port `op` to input VC
    /// `vc` of port id `down`: the channel is busy for the packet's flits, and the packet
    /// is usable downstream after the channel latency.
    #[inline(always)]
    pub(super) fn send(&mut self, op: usize, down: u32, vc: u32, pid: u32, now: u64) {
        let channel = &mut self.channels[op];
        channel.free_at = now + self.size;
        channel.sent += self.size;
        let at = now + self.latency[op] as u64;
        debug_assert!(at > now && at - now <= self.wheel_mask);
        self.arrivals[(at & self.wheel_mask) as usize].push(Arrival { pid, port: down, vc });
    }
}

/// `ctx` reading the commitment tables `committed` and `port_queues`.
#[inline(always)]
fn with_commitments<'a>(ctx: &RouteCtx<'a>, committed: &'a [u16], port_queues: &'a [u32]) -> RouteCtx<'a> {
    RouteCtx { queues: QueueView { committed, port_queues, ..ctx.queues }, ..*ctx }
}

impl Simulation {
    /// Computes a route for every unrouted head packet of router `r`. Sequential: inputs
    /// decide one after another from a rotating start, each commitment visible to the
    /// next; greedy: all decide from the state at the start of the cycle, and their
    /// commitments are applied afterwards.
    pub(super) fn route_router(&mut self, r: u32, now: u64) {
        if self.sequential {
            self.route_inputs::<true>(r, now);
        } else {
            self.route_inputs::<false>(r, now);
        }
    }

    /// [`Self::route_router`] for one allocator mode, so that the greedy pass carries
    /// nothing the sequential one needs to renew its view.
    #[inline(always)]
    fn route_inputs<const SEQUENTIAL: bool>(&mut self, r: u32, now: u64) {
        let Simulation { ref topo, ref routing, ref mut packets, ref mut rng, ref mut notes, ref mut inputs, ref mut unrouted, ref mut committed, ref mut port_queues, ref credits, ref downstream, ref local_vc, ref mut pending, ref mut rc_start, ref first_port, vcs, depth, packet_size, .. } = *self;
        let net = topo.network();
        let first = first_port[r as usize] as usize;
        let nvc = (first_port[r as usize + 1] as usize - first) * vcs as usize;
        let first_vc = first * vcs as usize;
        let start = rc_start[r as usize] as usize;
        rc_start[r as usize] = wrap(start + 1, nvc) as u32;
        let (rng, note) = (&mut rng.routing, &mut notes[r as usize]);
        // What the algorithm sees, built once for every input of the router (each sets its
        // own input port and VC). The view borrows the commitment tables, so the sequential
        // allocator, which updates them between decisions, renews it after each commitment.
        let base = RouteCtx { now, router: r, first_port: first, in_port: 0, in_vc: 0, queues: QueueView { net, credits, committed: &[], downstream, port_queues: &[], vcs, depth } };
        let mut ctx = with_commitments(&base, committed, port_queues);
        // Visit set bits at or after `start`, then those before it. A single word is swept
        // once, rotated right by `start` so that its bits come in that order; several are
        // swept as the start word's bits from `start` on, the following words, the words
        // before it (wrapping around), and the start word's bits before `start`.
        let words = unrouted.words_per_router;
        let mut pending_len = 0;
        let (start_word, start_bit) = (start / 64, start % 64);
        // Bit `b` of a swept (rotated) word stands for input `(b + offset) & mask` of the
        // router, `offset` being the word's first input plus the rotation.
        let (sweeps, rot, mask) = if words == 1 { (1, start_bit as u32, 63) } else { (words + 1, 0, !0) };
        for i in 0..sweeps {
            let w = wrap(start_word + i, words);
            let part = if words == 1 { !0 } else if i == 0 { !0u64 << start_bit } else if i == words { (1u64 << start_bit) - 1 } else { !0 };
            let mut bits = (unrouted.word(r, w) & part).rotate_right(rot);
            let offset = w * 64 + rot as usize;
            let mut routed = 0u64;
            while bits != 0 {
                let local = (bits.trailing_zeros() as usize + offset) & mask;
                bits &= bits - 1;
                let iv = first_vc + local;
                let pkt = &mut packets[inputs[iv].pid];
                let decision = if pkt.dst_router == r {
                    Decision::Forward { port: net.terminal_port(pkt.dst).1, vc: 0 }
                } else {
                    let (in_port, in_vc) = local_vc[local];
                    (ctx.in_port, ctx.in_vc) = (in_port as u32, in_vc as u32);
                    routing.route(&ctx, pkt, rng, note)
                };
                let Decision::Forward { port, vc } = decision else { continue };
                debug_assert!(port < net.radix(r) && vc < vcs, "routing chose port {port} vc {vc} at router {r}");
                let op = first + port as usize;
                if downstream[op] != NO_PORT {
                    pkt.hops += 1;
                }
                let input = &mut inputs[iv];
                (input.out_port, input.out_vc) = (port as u16, vc as u16);
                routed |= 1 << (local % 64);
                if SEQUENTIAL {
                    committed[op * vcs as usize + vc as usize] += packet_size;
                    port_queues[op] += packet_size as u32;
                    ctx = with_commitments(&base, committed, port_queues);
                } else {
                    pending[pending_len] = (op as u32, vc as u16);
                    pending_len += 1;
                }
            }
            unrouted.clear_bits(r, w, routed);
        }
        for i in 0..pending_len {
            let (op, vc) = pending[i];
            committed[op as usize * vcs as usize + vc as usize] += packet_size;
            port_queues[op as usize] += packet_size as u32;
        }
    }

    /// Each output channel of router `r` that is free sends the head of its output queue.
    /// (A packet that crossed the switch this cycle into an empty queue of a free channel
    /// to another router was sent by `traverse` already, which left the channel busy.)
    pub(super) fn send_outputs(&mut self, r: u32, now: u64) {
        let first = self.first_port[r as usize] as usize;
        let (cap, size) = (self.outq_cap as usize, self.packet_size as u64);
        let terminal_busy = size * self.terminal_period;
        for w in 0..self.queued_outputs.words_per_router {
            let mut bits = self.queued_outputs.word(r, w);
            while bits != 0 {
                let out = w * 64 + bits.trailing_zeros() as usize;
                bits &= bits - 1;
                let op = first + out;
                if self.channels[op].free_at > now {
                    continue;
                }
                let head = self.outq_head[op] as usize;
                let OutEntry { pid, vc } = self.outq[op * cap + head];
                self.outq_head[op] = wrap(head + 1, cap) as u16;
                self.outq_len[op] -= 1;
                if self.outq_len[op] == 0 {
                    self.queued_outputs.clear(r, out);
                }
                match self.downstream[op] {
                    NO_PORT => {
                        // Terminal channels may be slower: one flit per `terminal_period` cycles.
                        let channel = &mut self.channels[op];
                        channel.free_at = now + terminal_busy;
                        channel.sent += size;
                        self.deliver(pid, now + self.latency[op] as u64 + terminal_busy - 1);
                    }
                    down => Links::new(&mut self.channels, &self.latency, &mut self.arrivals, self.wheel_mask, self.packet_size).send(op, down, vc, pid, now),
                }
                self.load[r as usize] -= 1;
            }
        }
    }
}
