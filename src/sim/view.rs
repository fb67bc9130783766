//! Read-only views of the engine's state for inspection and drawing (the web page's
//! `WebSim`), beyond the accessors in `mod.rs`. Nothing here changes the simulation, so
//! looking at a run never alters its results.

use super::Simulation;

impl Simulation {
    /// Flits buffered in every input VC, indexed by VC index `port id · V + vc` (the whole
    /// array, for one bulk read per animation frame). Packets all have the configured
    /// size, so a VC's flits are its packets times that size.
    pub fn buffered_flits(&self) -> Vec<u16> {
        self.buffers.inputs.iter().map(|input| input.buf_len * self.params.packet_size).collect()
    }

    /// Flits buffered in all input VCs of port id `port`.
    pub fn port_buffered_flits(&self, port: usize) -> u32 {
        (0..self.params.vcs).map(|vc| self.input_occupancy(port, vc)).sum()
    }

    /// Packets waiting in terminal `terminal`'s source queue.
    pub fn source_queue_len(&self, terminal: u32) -> usize {
        self.terminals.source[terminal as usize].len()
    }

    /// Flits routed to output VC `vc` of port id `port` that have not crossed the switch
    /// yet (the "committed" part of the queue estimate, [`crate::routing::QueueView`]).
    pub fn committed_flits(&self, port: usize, vc: u32) -> u32 {
        self.buffers.committed[port * self.params.vcs as usize + vc as usize] as u32
    }

    /// Packets that crossed the switch to output port id `port` and wait for its channel.
    pub fn output_queue_len(&self, port: usize) -> u32 {
        self.ports.outq_len[port] as u32
    }

    /// The cumulative counters the page samples, with the engine's present backlog.
    pub fn live_counters(&self) -> crate::stats::LiveCounters {
        crate::stats::LiveCounters {
            in_network: self.packets_in_network(),
            in_sources: self.packets_in_sources() as u64,
            batch_pending: self.batch_pending(),
            ..self.stats.live_counters()
        }
    }

    /// Packets inside router `router`: in its input VCs or its output queues.
    pub fn router_load(&self, router: u32) -> u32 {
        self.routers.load[router as usize]
    }
}

#[cfg(test)]
mod tests {
    use crate::config::SimConfig;
    use crate::sim::Simulation;

    #[test]
    fn views_agree_with_the_accessors() {
        let mut cfg = SimConfig::default();
        cfg.traffic.load = 0.9;
        let mut sim = Simulation::new(&cfg).unwrap();
        sim.advance(300).unwrap();
        let vcs = sim.vcs();
        let ports = sim.network().total_ports();
        assert_eq!(sim.buffered_flits().len(), ports * vcs as usize);
        let mut total = 0u64;
        for p in 0..ports {
            for v in 0..vcs {
                assert_eq!(sim.buffered_flits()[p * vcs as usize + v as usize] as u32, sim.input_occupancy(p, v));
                total += sim.input_occupancy(p, v) as u64;
            }
        }
        assert!(total > 0, "a loaded network buffers flits");
        let load: u64 = (0..sim.network().routers() as u32).map(|r| sim.router_load(r) as u64).sum();
        let outq: u64 = (0..ports).map(|p| sim.output_queue_len(p) as u64).sum();
        assert_eq!(load, total + outq, "single-flit packets: router loads = buffered + output-queued");
        let queued: usize = (0..sim.network().terminals() as u32).map(|t| sim.source_queue_len(t)).sum();
        assert_eq!(queued, sim.packets_in_sources());
    }
}
