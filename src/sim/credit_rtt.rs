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
//! - **When the clock starts.** As in Fig. 17(b): the timestamp is taken when the output
//!   consumes the credit (the flit crosses the switch towards `O`), and the round trip
//!   ends when the credit of that downstream slot returns. The per-output register holds
//!   the latest measurement of any of the output's VCs.
//! - **Zero-load round trip.** `routing.crt0` if non-zero, else derived per output from the
//!   engine's timing: `2·latency(O) + pipeline_delay + packet_size − 1` (flit over the
//!   channel, through the downstream router, credit back).
//! - **Granularity** (`routing.cr_granularity = G`): the paper's imprecise tracking — only
//!   one credit event in every `G` per output VC is timestamped, so the CTQ is `G` times
//!   shorter.
//! - **Delays are capped** at [`MAX_CREDIT_DELAY`] cycles.
//!
//! **How the CTQ is modelled.** A CTQ pairs the k-th credit that returns on a VC with the
//! k-th timestamp pushed for it. Credits of one VC are generated in the order its flits
//! arrived (the input buffer is a FIFO), so the k-th credit is the one of the k-th flit
//! sent. The engine therefore keeps each timestamped flit's switch time with its packet
//! (indexed by packet id), computes the round trip when the downstream router creates the
//! credit and knows when it will reach upstream, and lets the credit carry that number
//! back: `t_d` changes when the credit arrives, as with a queue, but no per-VC ring is
//! touched twice per hop (the rings of the 1K dragonfly, 0.7 MiB, did not stay in a core's
//! cache). The only difference from a hardware FIFO: a held-back credit overtaken by a
//! later credit of the same VC still reports its own flit's round trip. Round trips are
//! carried in 16 bits, saturating at 65 534 cycles, far beyond where the delay saturates.
//!
//! Delayed credits wait in a binary heap (earliest first) that stops growing once the
//! number of credits held back reaches its steady state.

use crate::routing::CrParams;
use crate::topology::{LinkClass, Network};
use std::cmp::Reverse;
use std::collections::BinaryHeap;

/// Longest extra delay a credit can get, in cycles.
pub const MAX_CREDIT_DELAY: u32 = 1024;

/// A round trip carried by a credit: cycles + 1, saturated; 0 = no measurement.
pub(super) type RoundTrip = u16;

/// Timestamp of a packet whose current hop is not measured.
const UNTIMED: u32 = u32::MAX;

/// The per-router registers and the timestamps of the mechanism, for the whole network.
#[derive(Clone)]
pub(super) struct CreditRtt {
    granularity: u16,
    /// Per credit counter (downstream input VC index): credit events modulo the
    /// granularity (empty when every event is timestamped).
    sent: Vec<u16>,
    /// Per packet id: when the packet crossed the switch towards its current input VC, if
    /// that event is timestamped, else [`UNTIMED`].
    stamp: Vec<u32>,
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
    /// Delayed credits on their way back: (arrival cycle, credit counter, flits, round
    /// trip), earliest first. Undelayed credits use the engine's timing wheel, which
    /// therefore keeps its size (a heap grows only with the credits actually held back).
    held: BinaryHeap<Reverse<(u64, u32, u16, RoundTrip)>>,
    /// Credits delayed so far and their total extra delay (for inspection).
    pub delayed_credits: u64,
    pub delay_sum: u64,
}

impl CreditRtt {
    pub(super) fn new(
        net: &Network,
        params: CrParams,
        latency: &[u32],
        pipeline_delay: u32,
        packet_size: u32,
        vcs: u32,
    ) -> CreditRtt {
        let ports = net.total_ports();
        let granularity = params.granularity.clamp(1, u16::MAX as u32) as u16;
        let counters = if granularity > 1 { ports * vcs as usize } else { 0 };
        let class = |id: usize| net.port_by_id(id).class;
        CreditRtt {
            granularity,
            sent: vec![0; counters],
            stamp: Vec::new(),
            crt0: (0..ports)
                .map(
                    |id| if params.crt0 > 0 { params.crt0 } else { 2 * latency[id] + pipeline_delay + packet_size - 1 },
                )
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

    /// Packet `pid` crosses the switch towards the downstream input VC `ci` (credit counter
    /// index): its switch time is kept if this credit event is timestamped.
    #[inline]
    pub(super) fn on_send(&mut self, ci: usize, pid: u32, now: u64) {
        let timed = self.granularity == 1 || {
            let n = &mut self.sent[ci];
            let first = *n == 0;
            *n = if *n + 1 == self.granularity { 0 } else { *n + 1 };
            first
        };
        let pid = pid as usize;
        if pid >= self.stamp.len() {
            self.stamp.resize((pid + 1).next_power_of_two(), UNTIMED);
        }
        self.stamp[pid] = if timed { now as u32 } else { UNTIMED };
    }

    /// The round trip that the credit of packet `pid`, leaving its input buffer now and
    /// reaching the upstream router at cycle `back`, measures (none if its hop was not
    /// timestamped). Call before the packet's next [`CreditRtt::on_send`].
    #[inline]
    pub(super) fn round_trip(&self, pid: u32, back: u64) -> RoundTrip {
        match self.stamp.get(pid as usize) {
            Some(&t) if t != UNTIMED => {
                (back as u32).wrapping_sub(t).saturating_add(1).min(RoundTrip::MAX as u32) as RoundTrip
            }
            _ => 0,
        }
    }

    /// A credit carrying `round_trip` came back upstream, to output port id `out` of
    /// `router`.
    #[inline]
    pub(super) fn on_credit(&mut self, round_trip: RoundTrip, out: usize, router: usize) {
        if round_trip != 0 {
            let crt = round_trip as u32 - 1;
            self.set_td(out, router, crt.saturating_sub(self.crt0[out]));
        }
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

    /// Holds back a credit of `flits` for counter `ci`, carrying `round_trip`, until cycle
    /// `at`.
    #[inline]
    pub(super) fn hold(&mut self, at: u64, ci: u32, flits: u16, round_trip: RoundTrip) {
        self.held.push(Reverse((at, ci, flits, round_trip)));
    }

    /// The next held credit due at or before `now`, if any.
    #[inline]
    pub(super) fn due(&mut self, now: u64) -> Option<(u32, u16, RoundTrip)> {
        match self.held.peek() {
            Some(&Reverse((at, ci, flits, round_trip))) if at <= now => {
                self.held.pop();
                Some((ci, flits, round_trip))
            }
            _ => None,
        }
    }

    /// Every credit held back now, as (counter, flits) (for the invariant checks).
    pub(super) fn held(&self) -> impl Iterator<Item = (u32, u16)> + '_ {
        self.held.iter().map(|&Reverse((_, ci, flits, _))| (ci, flits))
    }

    /// Bytes of the queues and registers.
    pub(super) fn memory_bytes(&self) -> usize {
        fn bytes<T>(v: &[T]) -> usize {
            std::mem::size_of_val(v)
        }
        bytes(&self.sent)
            + bytes(&self.stamp)
            + bytes(&self.crt0)
            + bytes(&self.td)
            + bytes(&self.delayable)
            + bytes(&self.network_port)
            + bytes(&self.router_ports)
            + bytes(&self.td_min)
            + self.held.capacity() * std::mem::size_of::<(u64, u32, u16, RoundTrip)>()
    }

    /// The `t_d` register of output port id `out`.
    pub(super) fn td(&self, out: usize) -> u32 {
        self.td[out]
    }
}
