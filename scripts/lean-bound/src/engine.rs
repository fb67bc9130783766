//! The router and terminals of the lean bound, for any [`Network`]: `T` terminals per
//! router (its ports `0..T`), `P` ports per router, `V` VCs per port, `PV` = `P · V` input
//! VCs per router (at most 128). Router `r`'s terminals are `r·T .. r·T + T`. Every channel
//! takes one cycle, buffers hold `DEPTH` single-flit packets per VC, output queues `OUTQ`,
//! the switch has speedup 2 with separable input-first round-robin allocation, and a head
//! may leave one cycle after it arrived (hiradix's default router).

use crate::rng::SimRng;
use std::collections::VecDeque;

pub(crate) const DEPTH: u8 = 16;
const OUTQ: u8 = 4;
const SPEEDUP: u8 = 2;
const NONE: u32 = u32::MAX;

/// A packet: its destination terminal, creation cycle and the routing's state.
#[derive(Clone, Copy, Default)]
pub(crate) struct Pkt {
    pub(crate) dst: u32,
    pub(crate) created: u32,
    /// Free for the routing algorithm (the dragonfly's intermediate group and phase).
    pub(crate) route: u32,
}

/// One output port: its channel, queue estimate (flits downstream and committed),
/// credits of the downstream VCs and output queue.
#[derive(Clone, Copy)]
#[repr(C)]
pub(crate) struct Out<const V: usize> {
    free_at: u32,
    pub(crate) queue: u32,
    pub(crate) credits: [u8; V],
    head: u8,
    len: u8,
    q: [(u32, u32); OUTQ as usize],
}

/// A topology with its routing algorithm.
pub(crate) trait Network<const V: usize> {
    /// The router and port at the far end of router `r`'s network port `p`.
    fn far(&self, r: usize, p: usize) -> (usize, usize);
    /// The output port and VC of packet `pkt` at router `r`, which is not its destination's.
    fn route(&self, r: usize, pkt: &mut Pkt, outs: &[Out<V>], rng: &mut SimRng) -> (usize, usize);
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

#[derive(Clone, Copy, Default)]
struct Cand {
    local: u8,
    port: u8,
    out: u8,
    ovc: u8,
}

struct Router<const P: usize, const V: usize, const PV: usize> {
    inputs: [InVc; PV],
    outs: [Out<V>; P],
    nonempty: [u64; 2],
    unrouted: [u64; 2],
    in_rr: [u8; P],
    out_rr: [u8; P],
    queued: u64,
    load: u32,
}

pub(crate) struct Sim<N, const T: usize, const P: usize, const V: usize, const PV: usize> {
    net: N,
    routers: Vec<Router<P, V, PV>>,
    packets: Vec<Pkt>,
    free: Vec<u32>,
    /// Arrivals and credits of the next cycle.
    arrivals: Vec<(u16, u16, u32)>, // (router, input VC of the router, pid)
    credits: Vec<(u32, u16)>, // (router, or routers + terminal; output VC of it)
    sources: Vec<VecDeque<u32>>,
    /// Terminal injection channels: free cycle and credits per VC of the router's input.
    inj_free: Vec<u32>,
    inj_credits: Vec<[u8; V]>,
    /// Generation threshold: a terminal generates when the top 53 bits of a draw are below.
    threshold: u64,
    traffic: SimRng,
    routing: SimRng,
    pub(crate) delivered: u64,
    pub(crate) latency: u64,
    now: u32,
}

impl<N: Network<V>, const T: usize, const P: usize, const V: usize, const PV: usize> Sim<N, T, P, V, PV> {
    pub(crate) fn new(net: N, routers: usize, load: f64, seed: u64) -> Self {
        assert!(PV == P * V && PV <= 128 && P <= 64);
        let vc = InVc { head: 0, len: 0, out: 0, ovc: 0, ready: 0, slots: [(0, 0); DEPTH as usize] };
        let out = Out { free_at: 0, queue: 0, credits: [DEPTH; V], head: 0, len: 0, q: [(0, 0); OUTQ as usize] };
        let terminals = routers * T;
        Sim {
            net,
            routers: (0..routers)
                .map(|_| Router {
                    inputs: [vc; PV],
                    outs: [out; P],
                    nonempty: [0; 2],
                    unrouted: [0; 2],
                    in_rr: [0; P],
                    out_rr: [0; P],
                    queued: 0,
                    load: 0,
                })
                .collect(),
            packets: Vec::with_capacity(1 << 16),
            free: Vec::new(),
            arrivals: Vec::with_capacity(routers * P),
            credits: Vec::with_capacity(routers * P),
            sources: (0..terminals).map(|_| VecDeque::with_capacity(16)).collect(),
            inj_free: vec![0; terminals],
            inj_credits: vec![[DEPTH; V]; terminals],
            threshold: (load * (1u64 << 53) as f64) as u64,
            traffic: SimRng::new(seed, 1),
            routing: SimRng::new(seed, 2),
            delivered: 0,
            latency: 0,
            now: 0,
        }
    }

    #[inline(never)]
    pub(crate) fn step(&mut self) {
        let now = self.now;
        let routers = self.routers.len();
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
            if r >= routers {
                self.inj_credits[r - routers][ov] += 1;
                continue;
            }
            let out = &mut self.routers[r].outs[ov / V];
            out.credits[ov % V] += 1;
            out.queue -= 1;
        }
        self.credits = credits;
        self.credits.clear();
        self.terminals(now);
        for r in 0..routers {
            if self.routers[r].load > 0 {
                self.visit(r, now);
            }
        }
        self.now += 1;
    }

    #[inline(never)]
    fn terminals(&mut self, now: u32) {
        let terminals = self.sources.len();
        for t in 0..terminals {
            let mut fresh = None;
            if self.traffic.next_u64() >> 11 < self.threshold {
                let dst = self.traffic.below(terminals as u32);
                let pkt = Pkt { dst, created: now, route: 0 };
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
            // The input VC with the most credits (the first of equals).
            let credits = &mut self.inj_credits[t];
            let mut vc = 0;
            for v in 1..V {
                if credits[v] > credits[vc] {
                    vc = v;
                }
            }
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
        let routers = self.routers.len();
        let Sim { net, routers: all, packets, arrivals, credits, delivered, latency, free, routing, .. } = self;
        let router = &mut all[r];
        let mut cands = [Cand::default(); PV];
        let mut n = 0;
        let mut in_cap = [0u8; P];
        let mut out_room = [0u8; P];
        // Routing and candidates in one pass over the non-empty VCs.
        for w in 0..PV.div_ceil(64) {
            let mut bits = router.nonempty[w];
            let unrouted = router.unrouted[w];
            while bits != 0 {
                let local = w * 64 + bits.trailing_zeros() as usize;
                let bit = bits & bits.wrapping_neg();
                bits &= bits - 1;
                let input = &mut router.inputs[local];
                if unrouted & bit != 0 {
                    let pkt = &mut packets[input.slots[input.head as usize].0 as usize];
                    let dst = pkt.dst as usize;
                    let (out, ovc) = if dst / T == r { (dst % T, 0) } else { net.route(r, pkt, &router.outs, routing) };
                    (input.out, input.ovc) = (out as u8, ovc as u8);
                    router.outs[out].queue += 1;
                    router.unrouted[w] &= !bit;
                }
                let input = &router.inputs[local];
                if input.ready > now {
                    continue;
                }
                let port = local / V;
                cands[n] = Cand { local: local as u8, port: port as u8, out: input.out, ovc: input.ovc };
                in_cap[port] = SPEEDUP;
                let o = &router.outs[input.out as usize];
                out_room[input.out as usize] = SPEEDUP.min(OUTQ - o.len);
                n += 1;
            }
        }
        let mut sent = 0;
        for _round in 0..SPEEDUP {
            // Requests: per input port its round-robin-first VC that can cross; every
            // output keeps its round-robin-first requester.
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
                    let out_ok =
                        out_room[c.out as usize] > 0 && ((c.out as usize) < T || o.credits[c.ovc as usize] > 0);
                    if open && out_ok {
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
            // Grants, each crossing the switch at once.
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
                    ((routers + r * T + port) as u32, (local % V) as u16)
                } else {
                    let (s, sp) = net.far(r, port);
                    (s as u32, (sp * V + local % V) as u16)
                });
                let out = c.out as usize;
                let o = &mut router.outs[out];
                if out >= T {
                    o.credits[c.ovc as usize] -= 1;
                } else {
                    o.queue -= 1;
                }
                if o.len == 0 && o.free_at <= now {
                    o.free_at = now + 1;
                    if out < T {
                        *delivered += 1;
                        *latency += (now + 1 - packets[pid as usize].created) as u64;
                        free.push(pid);
                    } else {
                        let (s, sp) = net.far(r, out);
                        arrivals.push((s as u16, (sp * V + c.ovc as usize) as u16, pid));
                    }
                    sent += 1;
                } else {
                    o.q[((o.head + o.len) % OUTQ) as usize] = (pid, c.ovc as u32);
                    o.len += 1;
                    router.queued |= 1 << out;
                }
                cands[best as usize].out = u8::MAX;
            }
            if granted == ready {
                break;
            }
            // The granted candidates leave the list.
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
                let (s, sp) = net.far(r, out);
                arrivals.push((s as u16, (sp * V + vc as usize) as u16, pid));
            }
        }
        router.load -= sent;
    }
}
