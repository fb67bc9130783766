//! Terminals: packet generation (Bernoulli or batch), injection into the router, and
//! delivery with statistics.

use super::{Packet, Simulation};
use crate::config::InjectionMode;
use crate::rng::Chance;

impl Simulation {
    /// Step 2 of a cycle: every terminal may generate a packet into its source queue and
    /// inject the head of that queue into its router's terminal input port.
    pub(super) fn generate_and_inject(&mut self, now: u64) {
        let terminals = self.source.len() as u32;
        let size = self.packet_size;
        // Terminal channels carry one flit per `terminal_period` cycles; the offered load
        // is a fraction of that bandwidth.
        let period = self.terminal_period;
        let rate = Chance::new(self.cfg.traffic.load / (size as u64 * period) as f64);
        let batch = self.cfg.traffic.injection == InjectionMode::Batch;
        let cap = self.cfg.traffic.source_queue_cap as usize;
        for t in 0..terminals {
            let ti = t as usize;
            // Generation. In Bernoulli mode the traffic stream is drawn the same way
            // whatever the network state (a full source queue draws, then drops).
            let generate = if batch {
                self.batch_left[ti] > 0 && self.source[ti].len() < 2
            } else {
                self.rng.traffic.draw(rate)
            };
            if generate {
                let dst = self.pattern.destination(t, &mut self.rng.traffic);
                let labeled = self.stats.in_window(now);
                if labeled {
                    self.stats.window_offered_flits += size as u64;
                }
                self.stats.note_generated(now, t, dst);
                if self.source[ti].len() < cap {
                    let net = self.topo.network();
                    let pkt = Packet::new(t, dst, net.inject_router(t), net.terminal_router(dst), now, size, labeled);
                    let pid = self.packets.alloc(pkt);
                    self.source[ti].push_back(pid);
                    if labeled {
                        self.stats.labeled_created += 1;
                    }
                    if batch {
                        self.batch_left[ti] -= 1;
                    }
                } else {
                    self.stats.dropped += 1;
                    if labeled {
                        self.stats.window_dropped += 1;
                    }
                }
            }
            // Injection over the terminal channel, into the input VC with most credits.
            if self.inject_free_at[ti] > now || self.source[ti].is_empty() {
                continue;
            }
            let port = self.inject_port[ti] as usize;
            let base = port * self.vcs as usize;
            let mut best = None;
            let mut best_credits = size - 1;
            for v in 0..self.vcs {
                if self.credits[base + v as usize] > best_credits {
                    best_credits = self.credits[base + v as usize];
                    best = Some(v);
                }
            }
            if let Some(vc) = best {
                let pid = self.source[ti].pop_front().expect("non-empty");
                self.credits[base + vc as usize] -= size;
                self.inject_free_at[ti] = now + size as u64 * period;
                self.in_network += 1;
                self.schedule_arrival(now + self.latency[port] as u64, port as u32, vc, pid);
            }
        }
    }

    /// A packet reaches its destination terminal at cycle `at`.
    pub(super) fn deliver(&mut self, pid: u32, at: u64) {
        let pkt = self.packets[pid];
        let latency = at - pkt.created;
        let s = &mut self.stats;
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
        self.in_network -= 1;
        self.last_progress = self.now;
        self.packets.release(pid);
    }
}
