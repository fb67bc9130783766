//! Credit round-trip sensing for UGAL-L_CR (dragonfly paper §4.3.2, Fig. 17).
//!
//! Every router output `O` measures its credit round trip `t_crt(O)` with a *credit
//! timestamp queue* (CTQ) per output VC: a timestamp is pushed when a flit is sent towards
//! `O`, and the head is popped when the matching credit comes back; the difference is
//! `t_crt(O)`, and the register `t_d(O) = max(0, t_crt(O) − t_crt0(O))` keeps the excess
//! over the zero-load round trip. When a flit then leaves an input buffer of the router
//! for output `O`, the credit of its slot goes upstream only after an extra
//! `t_d(O) − min_o t_d(o)` cycles (the minimum over the router's network outputs, the
//! paper's estimate of the variation of `t_d`). Credits that travel back over global
//! channels are never delayed (no cyclic dependency, full use of the global channels),
//! and neither are credits to terminals (delaying those would only throttle injection,
//! never inform a routing decision).
//!
//! Choices where the paper is silent, and why:
//! - **When the clock starts.** As in Fig. 17(b): the timestamp is pushed when the output
//!   consumes the credit (the flit crosses the switch towards `O`), and popped when the
//!   credit of that downstream slot returns. The per-output register holds the latest
//!   measurement of any of the output's VCs (one CTQ per output VC, since credits of one
//!   VC return in order but those of different VCs need not).
//! - **Zero-load round trip.** `routing.crt0` if non-zero, else derived per output from the
//!   engine's timing: `2·latency(O) + pipeline_delay + packet_size − 1` (flit over the
//!   channel, through the downstream router, credit back).
//! - **Granularity** (`routing.cr_granularity = G`): the paper's imprecise tracking — only
//!   one credit event in every `G` is timestamped, so the CTQ is `G` times shorter.
//! - **Delays are capped** at [`MAX_CREDIT_DELAY`] cycles.
//!
//! The CTQs are fixed rings; delayed credits wait in a binary heap (earliest first) that
//! stops growing once the number of credits held back reaches its steady state.

use crate::routing::CrParams;
use std::cmp::Reverse;
use std::collections::BinaryHeap;
use crate::topology::{LinkClass, Network};


/// Longest extra delay a credit can get, in cycles.
pub const MAX_CREDIT_DELAY: u32 = 1024;

/// Ring state of one credit timestamp queue, and its credit events sent / returned
/// modulo the granularity (one record, so an event touches one cache line).
#[derive(Clone, Copy, Debug, Default)]
struct Ctq {
    head: u16,
    len: u16,
    sent: u16,
    returned: u16,
}

/// The per-router registers and queues of the mechanism, for the whole network.
pub(super) struct CreditRtt {
    granularity: u16,
    /// Timestamps per CTQ (one CTQ per credit counter = per downstream input VC index), a
    /// power of two.
    cap: usize,
    ts: Vec<u32>,
    ctq: Vec<Ctq>,
    /// Per port id (as an output): zero-load round trip and the `t_d` register.
    crt0: Vec<u32>,
    td: Vec<u32>,
    /// Per port id (as an input): credits returned over it may be delayed.
    delayable: Vec<bool>,
    /// Per port id: counts in its router's `min t_d`.
    network_port: Vec<bool>,
    /// Per router: first port id, radix, and `min_o t_d(o)`.
    router_ports: Vec<(u32, u32)>,
    td_min: Vec<u32>,
    /// Delayed credits on their way back: (arrival cycle, credit counter, flits), earliest
    /// first. Undelayed credits use the engine's timing wheel, which therefore keeps its
    /// size (a heap grows only with the credits actually held back).
    held: BinaryHeap<Reverse<(u64, u32, u16)>>,
    /// Credits delayed so far and their total extra delay (for inspection).
    pub delayed_credits: u64,
    pub delay_sum: u64,
}

impl CreditRtt {
    pub(super) fn new(net: &Network, params: CrParams, latency: &[u32], pipeline_delay: u32, packet_size: u32, vcs: u32, depth: u32) -> CreditRtt {
        let ports = net.total_ports();
        let granularity = params.granularity.clamp(1, u16::MAX as u32) as u16;
        // At most `depth` flits of one counter are outstanding, so at most ⌈depth / G⌉
        // of its timestamped events: the ring never fills (asserted in `on_send`).
        let cap = depth.div_ceil(granularity as u32).next_power_of_two() as usize;
        let nvc = ports * vcs as usize;
        let class = |id: usize| net.port_by_id(id).class;
        CreditRtt {
            granularity,
            cap,
            ts: vec![0; nvc * cap],
            ctq: vec![Ctq::default(); nvc],
            crt0: (0..ports)
                .map(|id| if params.crt0 > 0 { params.crt0 } else { 2 * latency[id] + pipeline_delay + packet_size - 1 })
                .collect(),
            td: vec![0; ports],
            delayable: (0..ports).map(|id| class(id) == LinkClass::Local).collect(),
            network_port: (0..ports).map(|id| class(id) != LinkClass::Terminal).collect(),
            router_ports: (0..net.routers() as u32).map(|r| (net.port_offset(r) as u32, net.radix(r))).collect(),
            td_min: vec![0; net.routers()],
            held: BinaryHeap::new(),
            delayed_credits: 0,
            delay_sum: 0,
        }
    }

    /// A flit was sent towards the downstream input VC `ci` (credit counter index).
    #[inline]
    pub(super) fn on_send(&mut self, ci: usize, now: u64) {
        let q = &mut self.ctq[ci];
        let n = q.sent;
        q.sent = if n + 1 == self.granularity { 0 } else { n + 1 };
        if n != 0 || q.len as usize == self.cap {
            debug_assert!(n != 0, "credit timestamp queue {ci} full");
            return;
        }
        let pos = (q.head as usize + q.len as usize) & (self.cap - 1);
        q.len += 1;
        self.ts[ci * self.cap + pos] = now as u32;
    }

    /// The credit of counter `ci` (a downstream input VC index) came back upstream, to
    /// output port id `out` of `router`.
    #[inline]
    pub(super) fn on_credit(&mut self, ci: usize, out: usize, router: usize, now: u64) {
        let q = &mut self.ctq[ci];
        let n = q.returned;
        q.returned = if n + 1 == self.granularity { 0 } else { n + 1 };
        if n != 0 || q.len == 0 {
            return;
        }
        let sent = self.ts[ci * self.cap + q.head as usize];
        q.head = ((q.head as usize + 1) & (self.cap - 1)) as u16;
        q.len -= 1;
        let crt = (now as u32).wrapping_sub(sent);
        self.set_td(out, router, crt.saturating_sub(self.crt0[out]));
    }

    fn set_td(&mut self, out: usize, router: usize, value: u32) {
        let old = self.td[out];
        if old == value {
            return;
        }
        self.td[out] = value;
        let min = self.td_min[router];
        if value < min {
            self.td_min[router] = value;
        } else if old == min {
            let (first, radix) = self.router_ports[router];
            let mut m = u32::MAX;
            for p in first as usize..(first + radix) as usize {
                if self.network_port[p] {
                    m = m.min(self.td[p]);
                }
            }
            self.td_min[router] = m;
        }
    }

    /// Extra delay of the credit returned over input port `in_port` for a flit that left
    /// towards output `out` of `router`.
    #[inline]
    pub(super) fn delay(&mut self, in_port: usize, out: usize, router: usize) -> u32 {
        if !self.delayable[in_port] {
            return 0;
        }
        let d = self.td[out].saturating_sub(self.td_min[router]).min(MAX_CREDIT_DELAY);
        if d > 0 {
            self.delayed_credits += 1;
            self.delay_sum += d as u64;
        }
        d
    }

    /// Holds back a credit of `flits` for counter `ci` until cycle `at`.
    #[inline]
    pub(super) fn hold(&mut self, at: u64, ci: u32, flits: u16) {
        self.held.push(Reverse((at, ci, flits)));
    }

    /// The next held credit due at or before `now`, if any.
    #[inline]
    pub(super) fn due(&mut self, now: u64) -> Option<(u32, u16)> {
        match self.held.peek() {
            Some(&Reverse((at, ci, flits))) if at <= now => {
                self.held.pop();
                Some((ci, flits))
            }
            _ => None,
        }
    }

    /// Every credit held back now, as (counter, flits) (for the invariant checks).
    pub(super) fn held(&self) -> impl Iterator<Item = (u32, u16)> + '_ {
        self.held.iter().map(|&Reverse((_, ci, flits))| (ci, flits))
    }

    /// Bytes of the queues and registers.
    pub(super) fn memory_bytes(&self) -> usize {
        fn bytes<T>(v: &[T]) -> usize {
            std::mem::size_of_val(v)
        }
        bytes(&self.ts) + bytes(&self.ctq) + bytes(&self.crt0) + bytes(&self.td) + bytes(&self.delayable) + bytes(&self.network_port) + bytes(&self.router_ports) + bytes(&self.td_min) + self.held.capacity() * 16
    }

    /// The `t_d` register of output port id `out`.
    pub(super) fn td(&self, out: usize) -> u32 {
        self.td[out]
    }
}
