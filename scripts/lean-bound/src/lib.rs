//! A lower bound for issue 32 (docs/performance.md, "What the work takes"): the work of
//! `hiradix bench` configuration `fb1024-min-0.5` (32-ary 2-flat flattened butterfly, MIN,
//! 2 VCs × 16 flits, single-flit packets, speedup 2 with separable input-first round-robin
//! allocation, output queues of 4, one-cycle channels and pipeline, uniform traffic at 0.5
//! from Bernoulli sources) written again for that one configuration alone: every size a
//! constant, one visit per router over per-router records (input VCs with their buffers
//! inline, output ports with their credits and queues inline), routing in the same pass
//! that collects the switch candidates, and none of the engine's other duties (statistics
//! beyond a delivered count and a latency sum, hop and decision counts, channel flit
//! counters, the watchdog, failed links, UGAL-L_CR, other algorithms, allocators and
//! timings, the page's views). It delivers what hiradix delivers (511.5 packets per cycle,
//! mean latency 5.93 cycles against hiradix's 511 and 5.94) but is not bit-identical to it
//! (packet ids, the injection VC and the credit order differ). Not the engine: a measurement.
//!
//!   scripts/lean-bound/count.sh

/// hiradix's PCG-64 (src/rng.rs), copied so this crate has no dependencies.
struct SimRng {
    lo: u64,
    hi: u64,
}
const MUL_LO: u64 = 0x4385_DF64_9FCC_F645;
const MUL_HI: u64 = 0x2360_ED05_1FC6_5DA4;
#[inline(always)]
fn widening_mul(a: u64, b: u64) -> (u64, u64) {
    #[cfg(not(target_arch = "wasm32"))]
    {
        let p = a as u128 * b as u128;
        (p as u64, (p >> 64) as u64)
    }
    #[cfg(target_arch = "wasm32")]
    {
        const M: u64 = 0xffff_ffff;
        let (a0, a1, b0, b1) = (a & M, a >> 32, b & M, b >> 32);
        let (p00, p01, p10, p11) = (a0 * b0, a0 * b1, a1 * b0, a1 * b1);
        let mid = (p00 >> 32) + (p01 & M) + (p10 & M);
        ((p00 & M) | (mid << 32), p11 + (p01 >> 32) + (p10 >> 32) + (mid >> 32))
    }
}
impl SimRng {
    fn new(seed: u64, purpose: u64) -> Self {
        let mix = |mut z: u64| {
            z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
            z ^ (z >> 31)
        };
        let hi = mix(seed ^ 0x9e37_79b9_7f4a_7c15);
        let lo = mix(seed.wrapping_add(purpose.wrapping_mul(0xd1b5_4a32_d192_ed03)) ^ purpose) | 1;
        SimRng { lo, hi }
    }
    #[inline]
    fn next_u64(&mut self) -> u64 {
        let (lo, carry) = widening_mul(self.lo, MUL_LO);
        let hi = carry.wrapping_add(self.lo.wrapping_mul(MUL_HI)).wrapping_add(self.hi.wrapping_mul(MUL_LO));
        (self.lo, self.hi) = (lo, hi);
        (hi ^ lo).rotate_right((hi >> 58) as u32)
    }
    #[inline]
    fn below(&mut self, n: u32) -> u32 {
        let wide = |x: u32| x as u64 * n as u64;
        let m = wide(self.next_u64() as u32);
        let (hi, lo) = ((m >> 32) as u32, m as u32);
        if lo > n.wrapping_neg() {
            let carry = lo.checked_add((wide(self.next_u64() as u32) >> 32) as u32).is_none();
            return hi + carry as u32;
        }
        hi
    }
}
use std::collections::VecDeque;

const R: usize = 32; // routers
const T: usize = 32; // terminals per router
const N: usize = R * T;
const P: usize = T + R - 1; // ports per router
const V: usize = 2;
const DEPTH: u8 = 16;
const OUTQ: u8 = 4;
const SPEEDUP: u32 = 2;
const NONE: u32 = u32::MAX;

#[derive(Clone, Copy, Default)]
struct Pkt {
    dst: u32,
    created: u32,
}

/// One input VC: its ring of (pid, arrival cycle) and its head's route.
#[derive(Clone, Copy)]
#[repr(C, align(64))]
struct InVc {
    head: u8,
    len: u8,
    out: u8,
    ovc: u8,
    ready: u32,
    slots: [(u32, u32); DEPTH as usize],
}

/// One output port: channel, queue estimate, credits of the downstream VCs, output queue.
#[derive(Clone, Copy, Default)]
#[repr(C)]
struct Out {
    free_at: u32,
    queue_est: u32,
    credits: [u8; V],
    head: u8,
    len: u8,
    q: [(u32, u32); OUTQ as usize],
}

#[derive(Clone, Copy, Default)]
struct Cand {
    local: u8,
    port: u8,
    out: u8,
    ovc: u8,
}

struct Router {
    inputs: [InVc; P * V],
    outs: [Out; P],
    nonempty: [u64; 2],
    unrouted: [u64; 2],
    in_rr: [u8; P],
    out_rr: [u8; P],
    queued: u64,
    load: u32,
}

struct Sim {
    routers: Vec<Router>,
    packets: Vec<Pkt>,
    free: Vec<u32>,
    /// Arrivals and credits of the next cycle (every latency is one cycle).
    arrivals: Vec<(u16, u16, u32)>, // (router, input VC of the router, pid)
    credits: Vec<(u16, u16)>, // (router or N + terminal, output VC of the router)
    sources: Vec<VecDeque<u32>>,
    /// Terminal injection channels: free cycle and credits per VC of the router's input.
    inj_free: Vec<u32>,
    inj_credits: Vec<[u8; V]>,
    traffic: SimRng,
    delivered: u64,
    latency: u64,
    now: u32,
}

/// The port of router `r` that leads to router `s` (≠ r).
#[inline(always)]
fn port_to(r: usize, s: usize) -> usize {
    T + if s < r { s } else { s - 1 }
}

/// The router and port at the far end of router `r`'s network port `p`.
#[inline(always)]
fn far(r: usize, p: usize) -> (usize, usize) {
    let i = p - T;
    let s = if i < r { i } else { i + 1 };
    (s, port_to(s, r))
}

impl Sim {
    fn new(seed: u64) -> Sim {
        let vc = InVc { head: 0, len: 0, out: 0, ovc: 0, ready: 0, slots: [(0, 0); DEPTH as usize] };
        let out = Out { credits: [DEPTH; V], ..Out::default() };
        let routers = (0..R)
            .map(|_| Router {
                inputs: [vc; P * V],
                outs: [out; P],
                nonempty: [0; 2],
                unrouted: [0; 2],
                in_rr: [0; P],
                out_rr: [0; P],
                queued: 0,
                load: 0,
            })
            .collect();
        Sim {
            routers,
            packets: Vec::with_capacity(1 << 16),
            free: Vec::new(),
            arrivals: Vec::with_capacity(4096),
            credits: Vec::with_capacity(4096),
            sources: (0..N).map(|_| VecDeque::with_capacity(16)).collect(),
            inj_free: vec![0; N],
            inj_credits: vec![[DEPTH; V]; N],
            traffic: SimRng::new(seed, 1),
            delivered: 0,
            latency: 0,
            now: 0,
        }
    }

    #[inline(never)]
    fn step(&mut self) {
        let now = self.now;
        // Arrivals of packets sent last cycle.
        let arrivals = std::mem::take(&mut self.arrivals);
        for &(r, local, pid) in &arrivals {
            let (r, local) = (r as usize, local as usize);
            let router = &mut self.routers[r];
            let input = &mut router.inputs[local];
            let slot = (input.head + input.len) % DEPTH;
            input.slots[slot as usize] = (pid, now);
            if input.len == 0 {
                input.ready = now + 1;
                router.nonempty[local / 64] |= 1 << (local % 64);
                router.unrouted[local / 64] |= 1 << (local % 64);
            }
            input.len += 1;
            router.load += 1;
        }
        self.arrivals = arrivals;
        self.arrivals.clear();
        // Credits returned last cycle.
        let credits = std::mem::take(&mut self.credits);
        for &(r, ov) in &credits {
            let (r, ov) = (r as usize, ov as usize);
            if r >= R {
                self.inj_credits[r - R][ov] += 1;
                continue;
            }
            let out = &mut self.routers[r].outs[ov / V];
            out.credits[ov % V] += 1;
            out.queue_est -= 1;
        }
        self.credits = credits;
        self.credits.clear();
        self.terminals(now);
        for r in 0..R {
            if self.routers[r].load > 0 {
                self.visit(r, now);
            }
        }
        self.now += 1;
    }

    #[inline(never)]
    fn terminals(&mut self, now: u32) {
        let threshold = (0.5f64 * (1u64 << 53) as f64) as u64;
        for t in 0..N {
            let mut fresh = None;
            if self.traffic.next_u64() >> 11 < threshold {
                let dst = self.traffic.below(N as u32);
                let pkt = Pkt { dst, created: now };
                fresh = Some(match self.free.pop() {
                    Some(pid) => {
                        self.packets[pid as usize] = pkt;
                        pid
                    }
                    None => {
                        self.packets.push(pkt);
                        self.packets.len() as u32 - 1
                    }
                });
            }
            let queued = !self.sources[t].is_empty();
            let head = if queued { self.sources[t].front().copied() } else { fresh };
            let Some(pid) = head else { continue };
            let credits = &mut self.inj_credits[t];
            let vc = if credits[1] > credits[0] { 1 } else { 0 };
            if self.inj_free[t] > now || credits[vc] == 0 {
                if let Some(f) = fresh {
                    self.sources[t].push_back(f);
                }
                continue;
            }
            credits[vc] -= 1;
            self.inj_free[t] = now + 1;
            if queued {
                self.sources[t].pop_front();
                if let Some(f) = fresh {
                    self.sources[t].push_back(f);
                }
            }
            self.arrivals.push(((t / T) as u16, ((t % T) * V + vc) as u16, pid));
        }
    }

    /// One router's cycle: route the new heads, allocate the switch, send the outputs.
    #[inline(never)]
    fn visit(&mut self, r: usize, now: u32) {
        let Sim { routers, packets, arrivals, credits, delivered, latency, free, .. } = self;
        let router = &mut routers[r];
        let mut cands = [Cand::default(); P * V];
        let mut n = 0;
        let mut in_cap = [0u8; P];
        let mut out_room = [0u8; P];
        // Routing and candidates in one pass over the non-empty VCs.
        for w in 0..2 {
            let mut bits = router.nonempty[w];
            let unrouted = router.unrouted[w];
            while bits != 0 {
                let local = w * 64 + bits.trailing_zeros() as usize;
                let bit = bits & bits.wrapping_neg();
                bits &= bits - 1;
                let input = &mut router.inputs[local];
                if unrouted & bit != 0 {
                    let pid = input.slots[input.head as usize].0;
                    let dst = packets[pid as usize].dst as usize;
                    let (out, ovc) = if dst / T == r {
                        (dst % T, 0)
                    } else {
                        let out = port_to(r, dst / T);
                        let c = router.outs[out].credits;
                        (out, usize::from(c[1] > c[0]))
                    };
                    (input.out, input.ovc) = (out as u8, ovc as u8);
                    router.outs[out].queue_est += 1;
                    router.unrouted[w] &= !bit;
                }
                let input = &router.inputs[local];
                if input.ready > now {
                    continue;
                }
                let port = local / V;
                cands[n] = Cand { local: local as u8, port: port as u8, out: input.out, ovc: input.ovc };
                in_cap[port] = SPEEDUP as u8;
                let o = &router.outs[input.out as usize];
                out_room[input.out as usize] = (SPEEDUP as u8).min(OUTQ - o.len);
                n += 1;
            }
        }
        let mut sent = 0;
        for _round in 0..SPEEDUP {
            // Requests: per input port its round-robin-first VC that can cross.
            let mut winner = [NONE; P];
            let mut requests = [(0u8, 0u8); P];
            let (mut nreq, mut ready, mut i) = (0, 0, 0);
            while i < n {
                let port = cands[i].port as usize;
                let open = in_cap[port] > 0;
                let rr = router.in_rr[port] as usize;
                let (mut best, mut best_d) = (usize::MAX, usize::MAX);
                while i < n && cands[i].port as usize == port {
                    let c = cands[i];
                    let o = &router.outs[c.out as usize];
                    if open && out_room[c.out as usize] > 0 && ((c.out as usize) < T || o.credits[c.ovc as usize] > 0) {
                        ready += 1;
                        let d = (c.local as usize % V + V - rr) % V;
                        if d < best_d {
                            (best, best_d) = (i, d);
                        }
                    }
                    i += 1;
                }
                if best != usize::MAX {
                    let out = cands[best].out as usize;
                    let (held, pointer) = (winner[out], router.out_rr[out] as u32);
                    if held == NONE || held < pointer && port as u32 >= pointer {
                        winner[out] = port as u32;
                    }
                    requests[nreq] = (port as u8, best as u8);
                    nreq += 1;
                }
            }
            let mut granted = 0;
            for &(port, best) in &requests[..nreq] {
                let c = cands[best as usize];
                if winner[c.out as usize] != port as u32 {
                    continue;
                }
                granted += 1;
                in_cap[port as usize] -= 1;
                out_room[c.out as usize] -= 1;
                router.in_rr[port as usize] = ((c.local as usize % V + 1) % V) as u8;
                router.out_rr[c.out as usize] = ((port as usize + 1) % P) as u8;
                // Crossing.
                let local = c.local as usize;
                let input = &mut router.inputs[local];
                let pid = input.slots[input.head as usize].0;
                input.head = (input.head + 1) % DEPTH;
                input.len -= 1;
                if input.len == 0 {
                    router.nonempty[local / 64] &= !(1 << (local % 64));
                } else {
                    input.ready = input.slots[input.head as usize].1 + 1;
                    router.unrouted[local / 64] |= 1 << (local % 64);
                }
                // The freed slot's credit goes upstream.
                let port = local / V;
                credits.push(if port < T {
                    ((R + r * T + port) as u16, (local % V) as u16)
                } else {
                    let (s, sp) = far(r, port);
                    (s as u16, (sp * V + local % V) as u16)
                });
                let out = c.out as usize;
                let o = &mut router.outs[out];
                if out >= T {
                    o.credits[c.ovc as usize] -= 1;
                } else {
                    o.queue_est -= 1;
                }
                if o.len == 0 && o.free_at <= now {
                    o.free_at = now + 1;
                    if out < T {
                        *delivered += 1;
                        *latency += (now + 1 - packets[pid as usize].created) as u64;
                        free.push(pid);
                    } else {
                        let (s, sp) = far(r, out);
                        arrivals.push((s as u16, (sp * V + c.ovc as usize) as u16, pid));
                    }
                    sent += 1;
                } else {
                    o.q[((o.head + o.len) % OUTQ) as usize] = (pid, c.ovc as u32);
                    o.len += 1;
                    router.queued |= 1 << out;
                }
                // Drop the granted candidate (marked: its port can no longer request).
                cands[best as usize].out = u8::MAX;
            }
            if granted == ready {
                break;
            }
            // Remove granted candidates.
            let mut k = 0;
            for j in 0..n {
                if cands[j].out != u8::MAX {
                    cands[k] = cands[j];
                    k += 1;
                }
            }
            n = k;
        }
        // Output channels.
        let mut queued = router.queued;
        while queued != 0 {
            let out = queued.trailing_zeros() as usize;
            queued &= queued - 1;
            let o = &mut router.outs[out];
            if o.free_at > now {
                continue;
            }
            let (pid, vc) = o.q[o.head as usize];
            o.head = (o.head + 1) % OUTQ;
            o.len -= 1;
            if o.len == 0 {
                router.queued &= !(1 << out);
            }
            o.free_at = now + 1;
            sent += 1;
            if out < T {
                *delivered += 1;
                *latency += (now + 1 - packets[pid as usize].created) as u64;
                free.push(pid);
            } else {
                let (s, sp) = far(r, out);
                arrivals.push((s as u16, (sp * V + vc as usize) as u16, pid));
            }
        }
        router.load -= sent;
    }
}

/// Runs `cycles` cycles; returns the packets delivered.
#[no_mangle]
pub extern "C" fn run(cycles: u32) -> u64 {
    let mut sim = Sim::new(1);
    for _ in 0..cycles {
        sim.step();
    }
    sim.delivered
}
