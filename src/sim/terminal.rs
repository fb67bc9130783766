//! Terminals: packet generation (Bernoulli or batch), injection into the router, and
//! delivery with statistics.

use super::state::{Configured, Params, Shape, Watchdog};
use super::{Packet, PacketStore, Simulation};
use crate::config::{InjectionMode, SlicePolicy};
use crate::rng::Chance;
use crate::stats::Stats;

impl Simulation {
    /// Step 2 of a cycle: every terminal may generate a packet into its source queue and
    /// inject the head of that queue into its router's terminal input port.
    ///
    /// Called once per cycle, so not inlined: inside `step` its loop would compete for
    /// registers with the router loops (measured: fewer instructions out of line).
    #[inline(never)]
    pub(super) fn generate_and_inject<S: Shape>(&mut self, now: u64) {
        if self.terminals.slices > 1 {
            return self.generate_and_inject_sliced(now);
        }
        let terminals = self.terminals.source.len() as u32;
        let rate = self.generation_chance();
        let batch = self.cfg.traffic.injection == InjectionMode::Batch;
        // Packets are labeled by creation time, so all packets of this cycle alike.
        let labeled = self.stats.in_window(now);
        for t in 0..terminals {
            let ti = t as usize;
            // Generation. In Bernoulli mode the traffic stream is drawn the same way
            // whatever the network state (a full source queue draws, then drops).
            let generate = if batch {
                self.terminals.batch_left[ti] > 0 && self.terminals.source[ti].len() < 2
            } else {
                self.rng.traffic.draw(rate)
            };
            let fresh = if generate { self.generate::<S>(t, now, labeled) } else { None };
            // SAFETY: (this loop) `ti` < `terminals`, the source table's length, which
            // never changes.
            // Injection of the source queue's head. A packet generated into an empty
            // queue is that head: it is offered directly and queued only if it cannot
            // leave now, which spares most packets a push and a pop.
            match fresh {
                // SAFETY: `ti` < `terminals` (the loop comment).
                Some(pid) if unsafe { self.terminals.source.get_unchecked(ti) }.is_empty() => {
                    // SAFETY: `ti` < `terminals`.
                    if !unsafe { self.try_inject::<S>(ti, pid, now) } {
                        // SAFETY: `ti` < `terminals`.
                        unsafe { self.terminals.source.get_unchecked_mut(ti) }.push_back(pid);
                    }
                }
                _ => {
                    if let Some(pid) = fresh {
                        // SAFETY: `ti` < `terminals`.
                        unsafe { self.terminals.source.get_unchecked_mut(ti) }.push_back(pid);
                    }
                    // SAFETY: `ti` < `terminals`.
                    if let Some(&head) = unsafe { self.terminals.source.get_unchecked(ti) }.front() {
                        // SAFETY: `ti` < `terminals`.
                        if unsafe { self.try_inject::<S>(ti, head, now) } {
                            // SAFETY: `ti` < `terminals`.
                            unsafe { self.terminals.source.get_unchecked_mut(ti) }.pop_front();
                        }
                    }
                }
            }
        }
    }

    /// The chance that a terminal channel generates a packet in a cycle: terminal channels
    /// carry one flit per `terminal_period` cycles, and the offered load is a fraction of
    /// that bandwidth.
    fn generation_chance(&self) -> Chance {
        Chance::new(self.cfg.traffic.load / (self.params.packet_size as u64 * self.params.terminal_period) as f64)
    }

    /// Step 2 with channel slicing (dragonfly §3.2). Every terminal channel draws as
    /// without slices, so a node offers `load` on each of its channels together; the node
    /// puts each packet on the slice its policy picks (the packet's source and destination
    /// terminals are the two nodes' channels to that slice); then every terminal injects
    /// the head of its source queue. Under `shared_queue` a node's packets wait in one
    /// queue (its slice-0 terminal's) and take their slice when they leave. It reads the
    /// router parameters as configured (`Configured`) whatever the shape: one instance
    /// serves every shaped step loop, as sliced networks are rare.
    #[inline(never)]
    fn generate_and_inject_sliced(&mut self, now: u64) {
        let terminals = self.terminals.source.len() as u32;
        let (nodes, slices) = (self.terminals.nodes, self.terminals.slices);
        let rate = self.generation_chance();
        let batch = self.cfg.traffic.injection == InjectionMode::Batch;
        let labeled = self.stats.in_window(now);
        for t in 0..terminals {
            let node = t % nodes;
            let generate = if batch {
                // A batch node keeps at most two packets per slice waiting, as a node
                // without slices keeps two.
                let waiting: usize =
                    (0..slices).map(|s| self.terminals.source[(s * nodes + node) as usize].len()).sum();
                self.terminals.batch_left[t as usize] > 0 && waiting < 2 * slices as usize
            } else {
                self.rng.traffic.draw(rate)
            };
            if generate {
                let dst = self.pattern.destination(node, &mut self.rng.traffic);
                let first = self.pick_slice(node) * nodes;
                if let Some(pid) = self.create::<Configured>(first + node, t, first + dst, now, labeled) {
                    self.terminals.source[(first + node) as usize].push_back(pid);
                }
            }
        }
        if self.terminals.policy == SlicePolicy::SharedQueue {
            for node in 0..nodes {
                self.inject_shared(node, now);
            }
            return;
        }
        for t in 0..terminals as usize {
            if let Some(&head) = self.terminals.source[t].front() {
                // SAFETY: `t` < `terminals`, the per-terminal tables' length.
                if unsafe { self.try_inject::<Configured>(t, head, now) } {
                    self.terminals.source[t].pop_front();
                }
            }
        }
    }

    /// `shared_queue`: the heads of node `node`'s queue leave on the slices whose terminal
    /// channel can take them now, trying the slices in turn from the one after the last
    /// used; each packet gets the source and destination terminals of its slice as it leaves.
    fn inject_shared(&mut self, node: u32, now: u64) {
        let (nodes, slices) = (self.terminals.nodes, self.terminals.slices);
        let start = self.terminals.next_slice[node as usize];
        for k in 0..slices {
            let Some(&head) = self.terminals.source[node as usize].front() else { return };
            let slice = (start + k) % slices;
            let terminal = slice * nodes + node;
            let pkt = &mut self.packets[head];
            let dst = slice * nodes + pkt.dst % nodes;
            (pkt.src, pkt.dst, pkt.dst_router) = (terminal, dst, self.terminals.dest_router[dst as usize]);
            // SAFETY: `terminal` < slices · nodes, the per-terminal tables' length.
            if unsafe { self.try_inject::<Configured>(terminal as usize, head, now) } {
                self.terminals.source[node as usize].pop_front();
                self.terminals.next_slice[node as usize] = (slice + 1) % slices;
            }
        }
    }

    /// The slice node `node` sends its next packet on, by `topology.slice_policy`
    /// (`shared_queue`: slice 0, whose source queue is the node's; the slice is chosen as
    /// the packet leaves).
    fn pick_slice(&mut self, node: u32) -> u32 {
        let (nodes, slices) = (self.terminals.nodes, self.terminals.slices);
        let next = &mut self.terminals.next_slice[node as usize];
        let slice = match self.terminals.policy {
            SlicePolicy::SharedQueue => return 0,
            SlicePolicy::RoundRobin => *next,
            SlicePolicy::Random => self.rng.traffic.below(slices),
            SlicePolicy::ShortestQueue => {
                let queued = |s: u32| self.terminals.source[(s * nodes + node) as usize].len();
                (0..slices).map(|k| (*next + k) % slices).min_by_key(|&s| queued(s)).unwrap_or(0)
            }
        };
        *next = (slice + 1) % slices;
        slice
    }

    /// Terminal `t` generates a packet at cycle `now`: draws its destination and counts
    /// it; returns its id, or `None` if the source queue is full and it is dropped. The
    /// caller queues or injects it.
    #[inline]
    fn generate<S: Shape>(&mut self, t: u32, now: u64, labeled: bool) -> Option<u32> {
        let dst = self.pattern.destination(t, &mut self.rng.traffic);
        self.create::<S>(t, t, dst, now, labeled)
    }

    /// A packet from terminal `src` to terminal `dst`, generated at cycle `now` by the
    /// terminal channel `by` (whose batch it counts against; `src` itself without
    /// slices): counts it and returns its id, or `None` if `src`'s source queue is full
    /// and it is dropped. Inlined into both generators (measured: out of line it costs
    /// 2 % of the instructions of a 1K flattened butterfly at load 0.5).
    #[inline(always)]
    fn create<S: Shape>(&mut self, src: u32, by: u32, dst: u32, now: u64, labeled: bool) -> Option<u32> {
        let size = self.params.shaped::<S>().packet_size;
        if labeled {
            self.stats.window_offered_flits += size as u64;
        }
        self.stats.note_generated(now, src, dst);
        if self.terminals.source[src as usize].len() >= self.cfg.traffic.source_queue_cap as usize {
            self.stats.dropped += 1;
            if labeled {
                self.stats.window_dropped += 1;
            }
            return None;
        }
        if labeled {
            self.stats.labeled_created += 1;
        }
        if self.cfg.traffic.injection == InjectionMode::Batch {
            self.terminals.batch_left[by as usize] -= 1;
        }
        let pkt = Packet::new(src, dst, self.terminals.dest_router[dst as usize], now, size, labeled);
        Some(self.packets.alloc(pkt))
    }

    /// Sends packet `pid` from terminal `ti` over its channel into the router's input VC
    /// with most credits, if the channel is free and a VC has room for the whole packet;
    /// returns whether it left.
    ///
    /// # Safety
    /// `ti` must be a terminal (below the number of terminals).
    #[inline(always)]
    unsafe fn try_inject<S: Shape>(&mut self, ti: usize, pid: u32, now: u64) -> bool {
        // SAFETY: (this function) `ti` is a terminal (< the per-terminal tables' length:
        // the caller's contract), and its injection port a port id (< P: invariant 2).
        // SAFETY: `ti` < `terminals` (the function comment).
        if unsafe { *self.terminals.inject_free_at.get_unchecked(ti) } > now {
            return false;
        }
        let Params { packet_size: size, vcs, terminal_period, .. } = self.params.shaped::<S>();
        // SAFETY: `ti` < `terminals`.
        let port = unsafe { *self.terminals.inject_port.get_unchecked(ti) } as usize;
        let first = port * vcs as usize;
        let credits = &mut self.buffers.credits[first..first + vcs as usize];
        // The input VC with most credits (the first of equals), if it fits the packet.
        let (mut best, mut most) = (0, credits[0]);
        for (vc, &c) in credits.iter().enumerate().skip(1) {
            if c > most {
                (best, most) = (vc, c);
            }
        }
        if most < size {
            return false;
        }
        credits[best] -= size;
        // SAFETY: `ti` < `terminals`.
        unsafe { *self.terminals.inject_free_at.get_unchecked_mut(ti) = now + size as u64 * terminal_period };
        self.watchdog.in_network += 1;
        self.watchdog.last_progress = now;
        // SAFETY: `port` is a port id (invariant 2).
        self.schedule_arrival(
            now + unsafe { *self.ports.latency.get_unchecked(port) } as u64,
            port as u32,
            best as u32,
            pid,
        );
        true
    }
}

/// Packet `pid` reaches its destination terminal at cycle `at` (the current cycle is
/// `now`): its statistics, and its record freed.
#[inline]
pub(super) fn deliver(
    stats: &mut Stats,
    packets: &mut PacketStore,
    watchdog: &mut Watchdog,
    pid: u32,
    at: u64,
    now: u64,
) {
    let pkt = packets[pid];
    let latency = at - pkt.created(at);
    let s = stats;
    s.delivered += 1;
    s.delivered_flits += pkt.size as u64;
    s.latency_sum += latency;
    s.hops_sum += pkt.hops as u64;
    s.last_delivery = at;
    s.live_latency.record(latency);
    if pkt.nonminimal {
        s.delivered_nonminimal += 1;
    }
    if s.in_window(at) {
        s.window_accepted_flits += pkt.size as u64;
    }
    if pkt.labeled {
        s.labeled_delivered += 1;
        s.labeled_hops += pkt.hops as u64;
        s.latency.record(latency);
        if pkt.nonminimal {
            s.latency_nonminimal.record(latency);
        } else {
            s.latency_minimal.record(latency);
        }
    }
    watchdog.in_network -= 1;
    watchdog.last_progress = now;
    packets.release(pid);
}
