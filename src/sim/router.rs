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

use super::state::{InputBuffers, Observers, Params, Ports, Routers, Shape, Wheels};
use super::table::{Table, View, ViewMut};
use super::terminal::deliver;
use super::{Arrival, Channel, CreditReturn, OutEntry, Simulation, NO_PORT};
use crate::routing::{Decision, QueueView, RouteCtx, Routing};

/// `x mod n` for `x < 2n`, without a division.
#[inline(always)]
pub(super) fn wrap(x: usize, n: usize) -> usize {
    if x >= n {
        x - n
    } else {
        x
    }
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
    /// Whether the bitset holds `per_router` bits for each of `routers` routers.
    pub(super) fn covers(&self, routers: usize, per_router: usize) -> bool {
        self.words_per_router * 64 >= per_router && self.bits.len() == routers * self.words_per_router
    }
    /// The index of word `w` of router `r`'s bitset: below the table's length when `r` is
    /// below the number of routers the bitset was made for and `w` below
    /// `words_per_router` (the contract of the unchecked accessors below; debug builds
    /// assert it).
    #[inline(always)]
    fn index(&self, r: u32, w: usize) -> usize {
        debug_assert!(w < self.words_per_router && (r as usize + 1) * self.words_per_router <= self.bits.len());
        r as usize * self.words_per_router + w
    }
    #[inline]
    pub(super) fn get(&self, r: u32, local: usize) -> bool {
        self.bits[self.index(r, local / 64)] & (1 << (local % 64)) != 0
    }
    /// Clears the bits of `mask` in word `w` of router `r`'s bitset.
    ///
    /// # Safety
    /// `r` must be below the number of routers and `w` below `words_per_router`.
    #[inline]
    pub(super) unsafe fn clear_bits(&mut self, r: u32, w: usize, mask: u64) {
        let i = self.index(r, w);
        // SAFETY: `i` is in bounds by the caller's contract (see `index`).
        unsafe { *self.bits.get_unchecked_mut(i) &= !mask };
    }
    /// Word `w` of router `r`'s bitset.
    ///
    /// # Safety
    /// `r` must be below the number of routers and `w` below `words_per_router`.
    #[inline]
    pub(super) unsafe fn word(&self, r: u32, w: usize) -> u64 {
        // SAFETY: the index is in bounds by the caller's contract (see `index`).
        unsafe { *self.bits.get_unchecked(self.index(r, w)) }
    }
    /// The position of router `r`'s bit `local` among all routers' bits, for [`set_at`](Self::set_at).
    #[inline]
    pub(super) fn position(&self, r: u32, local: usize) -> usize {
        r as usize * self.words_per_router * 64 + local
    }
    /// Sets the bit at position `pos` (see [`position`](Self::position)).
    ///
    /// # Safety
    /// `pos` must be a position of this bitset: [`position`](Self::position) of a router
    /// id and a local index below the bitset's bits per router.
    #[inline]
    pub(super) unsafe fn set_at(&mut self, pos: usize) {
        // SAFETY: `pos / 64` < routers · words per router (the caller's contract).
        unsafe { *self.bits.get_unchecked_mut(pos / 64) |= 1 << (pos % 64) };
    }
    /// Router `r`'s bitset, for a stage that updates one router's bits many times: the
    /// offset of its words is computed once, not per access.
    #[inline]
    pub(super) fn of(&mut self, r: u32) -> RouterBitsMut<'_> {
        let start = r as usize * self.words_per_router;
        RouterBitsMut(self.bits.range_mut(start..start + self.words_per_router))
    }
    /// [`of`](Self::of) without a bounds check in release builds (the stages that take it
    /// once per router and round).
    ///
    /// # Safety
    /// `r` must be below the number of routers the bitset was made for.
    #[inline]
    pub(super) unsafe fn of_unchecked(&mut self, r: u32) -> RouterBitsMut<'_> {
        let start = r as usize * self.words_per_router;
        // SAFETY: the bitset holds `words_per_router` words per router and `r` is one of
        // its routers (the caller's contract).
        RouterBitsMut(unsafe { self.bits.range_mut_unchecked(start..start + self.words_per_router) })
    }
}

/// One router's bitset, mutably borrowed (see [`RouterBits::of`]).
pub(super) struct RouterBitsMut<'a>(ViewMut<'a, u64>);

impl RouterBitsMut<'_> {
    /// The number of words per router.
    #[inline(always)]
    pub(super) fn words(&self) -> usize {
        self.0.len()
    }
    /// Word `w` (bounds-checked; in a loop over `0..words()` the check folds away).
    #[inline(always)]
    pub(super) fn word(&self, w: usize) -> u64 {
        self.0[w]
    }
    /// Sets bit `local`, bounds-checked (for the rare paths).
    pub(super) fn set_checked(&mut self, local: usize) {
        self.0[local / 64] |= 1 << (local % 64);
    }
    /// Clears bit `local`, bounds-checked.
    pub(super) fn clear_checked(&mut self, local: usize) {
        self.0[local / 64] &= !(1 << (local % 64));
    }
    /// Sets bit `local`.
    ///
    /// # Safety
    /// `local` must be below the bits per router the bitset was made for.
    #[inline]
    pub(super) unsafe fn set(&mut self, local: usize) {
        // SAFETY: the view holds the router's words, and `local / 64` is one of them by the
        // caller's contract.
        unsafe { *self.0.get_unchecked_mut(local / 64) |= 1 << (local % 64) };
    }
    /// Clears bit `local`.
    ///
    /// # Safety
    /// As for [`set`](Self::set).
    #[inline]
    pub(super) unsafe fn clear(&mut self, local: usize) {
        // SAFETY: as for `set`.
        unsafe { *self.0.get_unchecked_mut(local / 64) &= !(1 << (local % 64)) };
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
    pub(super) fn new(
        channels: &'a mut Table<Channel>,
        latency: &'a Table<u32>,
        arrivals: &'a mut Table<Vec<Arrival>>,
        wheel_mask: u64,
        packet_size: u16,
    ) -> Links<'a> {
        Links {
            channels: channels.view_mut(),
            latency: latency.view(),
            arrivals: arrivals.view_mut(),
            wheel_mask,
            size: packet_size as u64,
        }
    }
    /// The latency of port `port`'s channel, in cycles.
    ///
    /// # Safety
    /// `port` must be a port id (below the number of ports).
    #[inline(always)]
    pub(super) unsafe fn latency(&self, port: usize) -> u64 {
        // SAFETY: the caller's contract.
        unsafe { *self.latency.get_unchecked(port) as u64 }
    }
    /// Whether output port `op`'s channel can take a packet at cycle `now`.
    ///
    /// # Safety
    /// As for [`latency`](Self::latency).
    #[inline(always)]
    pub(super) unsafe fn free(&self, op: usize, now: u64) -> bool {
        // SAFETY: the caller's contract.
        unsafe { self.channels.get_unchecked(op).free_at <= now }
    }
    /// Occupies the channel of output port `op` from cycle `now` for `busy` cycles with a
    /// packet (a terminal channel, which may be slower than one flit per cycle); returns
    /// the cycle its head reaches the far end.
    ///
    /// # Safety
    /// As for [`latency`](Self::latency).
    #[inline(always)]
    pub(super) unsafe fn occupy(&mut self, op: usize, now: u64, busy: u64) -> u64 {
        // SAFETY: `op` is a port id (the caller's contract).
        let channel = unsafe { self.channels.get_unchecked_mut(op) };
        channel.free_at = now + busy;
        channel.sent += self.size;
        // SAFETY: as above.
        now + unsafe { self.latency(op) }
    }
    /// Sends packet `pid` at cycle `now` over the channel of output port `op` to input VC
    /// `vc` of port id `down`: the channel is busy for the packet's flits, and the packet
    /// is usable downstream after the channel latency.
    ///
    /// # Safety
    /// As for [`latency`](Self::latency).
    #[inline(always)]
    pub(super) unsafe fn send(&mut self, op: usize, down: u32, vc: u32, pid: u32, now: u64) {
        // SAFETY: `op` is a port id (the caller's contract); the wheel has `wheel_mask + 1`
        // slots (invariant 7).
        let channel = unsafe { self.channels.get_unchecked_mut(op) };
        channel.free_at = now + self.size;
        channel.sent += self.size;
        // SAFETY: `op` is a port id (the caller's contract).
        let at = now + unsafe { self.latency(op) };
        debug_assert!(at > now && at - now <= self.wheel_mask);
        // SAFETY: the index is masked below the wheel's `wheel_mask + 1` slots (7).
        unsafe { self.arrivals.get_unchecked_mut((at & self.wheel_mask) as usize) }.push(Arrival {
            pid,
            port: down,
            vc,
        });
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
    #[inline(always)]
    pub(crate) fn route_router<R: Routing>(&mut self, routing: &R, r: u32, now: u64) {
        if self.params.sequential {
            self.route_inputs::<R, true>(routing, r, now);
        } else {
            self.route_inputs::<R, false>(routing, r, now);
        }
        if !self.unroutable.is_empty() {
            self.drop_unroutable(r, now);
        }
    }

    /// [`Self::route_router`] for one allocator mode, so that the greedy pass carries
    /// nothing the sequential one needs to renew its view.
    #[inline(always)]
    fn route_inputs<R: Routing, const SEQUENTIAL: bool>(&mut self, routing: &R, r: u32, now: u64) {
        let Simulation {
            ref topo,
            ref mut packets,
            ref mut rng,
            ref mut pending,
            ref faults,
            ref mut unroutable,
            observers: Observers { ref mut notes, ref mut decisions, .. },
            buffers: InputBuffers { ref mut inputs, ref mut unrouted, ref mut committed, ref credits, ref local_vc, .. },
            ports: Ports { ref mut port_queues, ref downstream, .. },
            routers: Routers { ref mut rc_start, ref first_port, .. },
            params: Params { vcs, depth, packet_size, .. },
            ..
        } = *self;
        let failed = faults.flags_if_any();
        let (mut inputs_v, local_vc_v, downstream_v) = (inputs.view_mut(), local_vc.view(), downstream.view());
        let net = topo.network();
        // SAFETY: `r` is a router id, so `r + 1` < `first_port`'s length (invariant 1).
        let (first, next) =
            unsafe { (*first_port.get_unchecked(r as usize), *first_port.get_unchecked(r as usize + 1)) };
        let (first, radix) = (first as usize, (next - first) as usize);
        let nvc = radix * vcs as usize;
        let first_vc = first * vcs as usize;
        let mut pending = pending.view_mut();
        let start = rc_start[r as usize] as usize;
        rc_start[r as usize] = wrap(start + 1, nvc) as u32;
        let (rng, note, decided) = (&mut rng.routing, &mut notes[r as usize], &mut decisions[r as usize]);
        // What the algorithm sees, built once for every input of the router (each sets its
        // own input port and VC). The view borrows the commitment tables, so the sequential
        // allocator, which updates them between decisions, renews it after each commitment.
        let base = RouteCtx {
            now,
            router: r,
            first_port: first,
            in_port: 0,
            in_vc: 0,
            queues: QueueView { net, credits, committed: &[], downstream, port_queues: &[], failed, vcs, depth },
        };
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
            let part = if words == 1 {
                !0
            } else if i == 0 {
                !0u64 << start_bit
            } else if i == words {
                (1u64 << start_bit) - 1
            } else {
                !0
            };
            // SAFETY: (this loop) `r` is a router id (invariant 1), `w` < `words`.
            let mut bits = (unsafe { unrouted.word(r, w) } & part).rotate_right(rot);
            let offset = w * 64 + rot as usize;
            let mut routed = 0u64;
            while bits != 0 {
                let local = (bits.trailing_zeros() as usize + offset) & mask;
                bits &= bits - 1;
                let iv = first_vc + local;
                // SAFETY: `local` is a set bit of router `r`'s input VCs (< radix · V:
                // invariant 4), so `iv` < first_port[r + 1] · V ≤ P · V (1).
                let pkt = &mut packets[unsafe { inputs_v.get_unchecked(iv) }.pid];
                let was_nonminimal = pkt.nonminimal;
                let decision = if pkt.dst_router == r {
                    Decision::Forward { port: net.terminal_port(pkt.dst).1, vc: 0 }
                } else {
                    // SAFETY: `local` < radix · V ≤ R · V (4, 5).
                    let (in_port, in_vc) = unsafe { *local_vc_v.get_unchecked(local) };
                    (ctx.in_port, ctx.in_vc) = (in_port as u32, in_vc as u32);
                    routing.route(&ctx, pkt, rng, note)
                };
                let Decision::Forward { port, vc } = decision else { continue };
                // Invariant 3: a route names a port of this router and a VC that exist.
                assert!(
                    (port as usize) < radix && vc < vcs,
                    "the routing chose port {port} VC {vc} at router {r} (radix {}, {vcs} VCs)",
                    net.radix(r)
                );
                let op = first + port as usize;
                routed |= 1 << (local % 64);
                if !failed.is_empty() && failed[op] {
                    // Routed onto a failed link (oblivious routing, or no way around): the
                    // head is dropped after this pass (its route kept for the trace).
                    // SAFETY: `iv` < P · V (as above).
                    unsafe { inputs_v.get_unchecked_mut(iv) }.out_port = port as u16;
                    unroutable.push(iv as u32);
                    continue;
                }
                // SAFETY: `op` < first_port[r + 1] ≤ P (just checked; 1).
                if unsafe { *downstream_v.get_unchecked(op) } != NO_PORT {
                    pkt.hops += 1;
                    decided.routed += 1;
                    decided.nonminimal += u64::from(pkt.nonminimal && !was_nonminimal);
                }
                // SAFETY: `iv` < P · V (as above).
                let input = unsafe { inputs_v.get_unchecked_mut(iv) };
                (input.out_port, input.out_vc) = (port as u16, vc as u16);
                if SEQUENTIAL {
                    committed[op * vcs as usize + vc as usize] += packet_size;
                    port_queues[op] += packet_size as u32;
                    ctx = with_commitments(&base, committed, port_queues);
                } else {
                    // SAFETY: one entry per routed input VC of the router: `pending_len` <
                    // radix · V ≤ R · V, `pending`'s length (invariants 4, 5).
                    unsafe { *pending.get_unchecked_mut(pending_len) = (op as u32, vc as u16) };
                    pending_len += 1;
                }
            }
            // SAFETY: `r` is a router id (1), `w` < `words`.
            unsafe { unrouted.clear_bits(r, w, routed) };
        }
        for &(op, vc) in &pending[..pending_len] {
            // SAFETY: `op` < P and `vc` < V were checked when the route was chosen (3).
            unsafe {
                *committed.get_unchecked_mut(op as usize * vcs as usize + vc as usize) += packet_size;
                *port_queues.get_unchecked_mut(op as usize) += packet_size as u32;
            }
        }
    }

    /// Drops the heads of the input VCs of router `r` that the last routing pass routed
    /// onto a failed link, counting them as unroutable (HyperX §6: such a packet "must be
    /// retried from the source"; the simulator counts it and does not retry), and returns
    /// their buffer slots' credits upstream as if they had left.
    #[cold]
    #[inline(never)]
    fn drop_unroutable(&mut self, r: u32, now: u64) {
        let (vcs, depth, size) = (self.params.vcs as usize, self.params.depth as usize, self.params.packet_size);
        let first_vc = self.routers.first_port[r as usize] as usize * vcs;
        for k in 0..self.unroutable.len() {
            let iv = self.unroutable[k] as usize;
            let input = &mut self.buffers.inputs[iv];
            let pid = input.pid;
            if self.observers.tracer.active {
                let out = input.out_port as u32;
                self.trace_unroutable(pid, now, r, out);
            }
            let input = &mut self.buffers.inputs[iv];
            input.buf_head = wrap(input.buf_head as usize + 1, depth) as u16;
            input.buf_len -= 1;
            let local = iv - first_vc;
            if input.buf_len == 0 {
                self.buffers.nonempty.of(r).clear_checked(local);
            } else {
                let slot = self.buffers.buf[iv * depth + input.buf_head as usize];
                input.set_head(slot.pid, slot.arrived(now) + self.params.pipeline_delay);
                self.buffers.unrouted.of(r).set_checked(local);
            }
            let in_port = iv / vcs;
            let at = now + (size as u64 - 1) + self.ports.latency[in_port] as u64;
            let up = self.ports.upstream[in_port].port;
            self.wheels.credit_wheel[(at & self.wheels.wheel_mask) as usize].push(CreditReturn {
                iv: iv as u32,
                up,
                flits: size,
                round_trip: 0,
            });
            self.routers.load[r as usize] -= 1;
            self.watchdog.in_network -= 1;
            let pkt = self.packets[pid];
            let s = &mut self.stats;
            s.unroutable += 1;
            if s.in_window(now) {
                s.window_unroutable_flits += size as u64;
            }
            if pkt.labeled {
                s.labeled_unroutable += 1;
            }
            self.packets.release(pid);
        }
        self.unroutable.clear();
        self.watchdog.last_progress = now;
    }

    /// Each output channel of router `r` that is free sends the head of its output queue.
    /// (A packet that crossed the switch this cycle into an empty queue of a free channel
    /// was sent or delivered by `traverse` already, which left the channel busy.)
    pub(super) fn send_outputs<S: Shape>(&mut self, r: u32, now: u64) {
        let Simulation {
            ref mut stats,
            ref mut packets,
            ref mut watchdog,
            ports:
                Ports {
                    ref mut channels, ref mut outq_head, ref mut outq_len, ref outq, ref downstream, ref latency, ..
                },
            routers: Routers { ref mut queued_outputs, ref first_port, ref mut load, .. },
            wheels: Wheels { ref mut arrivals, wheel_mask, .. },
            ref params,
            ..
        } = *self;
        let Params { outq_cap, packet_size, terminal_period, .. } = params.shaped::<S>();
        // SAFETY: `r` is a router id (invariant 1).
        let first = unsafe { *first_port.get_unchecked(r as usize) } as usize;
        let (cap, size) = (outq_cap as usize, packet_size as u64);
        let terminal_busy = size * terminal_period;
        let (mut outq_head, mut outq_len, outq, downstream) =
            (outq_head.view_mut(), outq_len.view_mut(), outq.view(), downstream.view());
        let mut links = Links::new(channels, latency, arrivals, wheel_mask, packet_size);
        // SAFETY: `r` is a router id (invariant 1), and the bitset covers every router
        // (`check_tables`).
        let mut queued = unsafe { queued_outputs.of_unchecked(r) };
        let mut sent = 0;
        for w in 0..queued.words() {
            let mut bits = queued.word(w);
            while bits != 0 {
                let out = w * 64 + bits.trailing_zeros() as usize;
                bits &= bits - 1;
                let op = first + out;
                // SAFETY: (this loop) `out` is a set bit of router `r`'s outputs (< radix:
                // invariant 4), so `op` < first_port[r + 1] ≤ P (1); the queue position is
                // wrapped below `cap`.
                if !unsafe { links.free(op, now) } {
                    continue;
                }
                // SAFETY: `op` < P.
                let head = unsafe { *outq_head.get_unchecked(op) } as usize;
                // SAFETY: `op` < P and `head` < `cap` (the ring's head is kept wrapped).
                let OutEntry { pid, vc } = unsafe { *outq.get_unchecked(op * cap + head) };
                // SAFETY: `op` < P.
                unsafe { *outq_head.get_unchecked_mut(op) = wrap(head + 1, cap) as u16 };
                // SAFETY: `op` < P.
                let len = unsafe { outq_len.get_unchecked_mut(op) };
                *len -= 1;
                if *len == 0 {
                    // SAFETY: `out` is one of router `r`'s ports (< radix ≤ R: 4).
                    unsafe { queued.clear(out) };
                }
                sent += 1;
                // SAFETY: `op` < P.
                match unsafe { *downstream.get_unchecked(op) } {
                    NO_PORT => {
                        // Terminal channels may be slower: one flit per `terminal_period` cycles.
                        // SAFETY: `op` < P.
                        let at = unsafe { links.occupy(op, now, terminal_busy) } + terminal_busy - 1;
                        deliver(stats, packets, watchdog, pid, at, now);
                    }
                    // SAFETY: `op` < P.
                    down => unsafe { links.send(op, down, vc, pid, now) },
                }
            }
        }
        // SAFETY: `r` is a router id: below `load`'s length, the number of routers (1).
        unsafe { *load.get_unchecked_mut(r as usize) -= sent };
    }
}
