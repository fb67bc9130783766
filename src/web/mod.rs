//! The WebAssembly API used by the static page (`index.html`, `www/main.js`).
//!
//! Compiled only for `wasm32` (see `lib.rs`). The page drives a [`WebSim`] with a coarse
//! API, following the rustwasm examples: it calls [`WebSim::advance`] once per animation
//! frame and then reads flat typed arrays for drawing — router positions, channel
//! endpoints, per-channel occupancy — one bulk transfer each, no per-object calls. The
//! static arrays (positions, endpoints) are read once per simulation.
//!
//! Panics are not fatal to the page: the panic hook logs them to the console *and* keeps
//! the message, which the page reads with [`last_panic`] to show an error banner after the
//! trapped call threw.

use std::cell::RefCell;

use wasm_bindgen::prelude::*;

use crate::config::SimConfig;
use crate::sim::Simulation;

/// Smoothing time constant of [`WebSim::channel_utilization`], in cycles.
pub const UTILIZATION_TIME_CONSTANT: f64 = 32.0;

thread_local! {
    static LAST_PANIC: RefCell<Option<String>> = const { RefCell::new(None) };
}

#[wasm_bindgen(start)]
fn start() {
    std::panic::set_hook(Box::new(|info| {
        let message = info.to_string();
        LAST_PANIC.with(|p| *p.borrow_mut() = Some(message));
        console_error_panic_hook::hook(info);
    }));
}

/// The message of the last Rust panic, if any (the page shows it in its error banner).
#[wasm_bindgen(js_name = lastPanic)]
pub fn last_panic() -> Option<String> {
    LAST_PANIC.with(|p| p.borrow().clone())
}

/// Panics on purpose, so the page's tests can check that a panic shows the error banner
/// instead of killing the page.
#[wasm_bindgen(js_name = panicForTest)]
pub fn panic_for_test() {
    panic!("panic requested by the page's test hook");
}

/// The catalog of topologies, routing algorithms, traffic patterns and parameters, as
/// JSON (see [`crate::catalog`]); the page builds its controls from it.
#[wasm_bindgen(js_name = catalogJson)]
pub fn catalog_json() -> String {
    serde_json::to_string(&crate::catalog::catalog()).expect("the catalog serialises")
}

/// One simulation as the page sees it.
#[wasm_bindgen]
pub struct WebSim {
    sim: Simulation,
    /// Router drawing coordinates, `[x0, y0, x1, y1, …]`.
    positions: Vec<f32>,
    /// Directed router-to-router channels as `[src0, dst0, …]` router indices.
    endpoints: Vec<u32>,
    /// Per channel: the global id of the downstream input port it feeds.
    downstream_port: Vec<u32>,
    /// Per channel: occupancy of the current frame (reused buffer).
    occupancy: Vec<f32>,
    /// Per channel: the global id of the output port it leaves from.
    upstream_port: Vec<u32>,
    /// Per channel: smoothed utilization, and the (cycle, flits sent) it was last sampled at.
    utilization: Vec<f32>,
    sampled_at: u64,
    sampled_flits: Vec<u64>,
}

#[wasm_bindgen]
impl WebSim {
    /// Builds a simulation from a JSON config (the same format as the CLI's). The error's
    /// message lists every config problem, one `path: message` per line.
    #[wasm_bindgen(constructor)]
    pub fn new(config_json: &str) -> Result<WebSim, JsError> {
        let cfg = SimConfig::from_json(config_json).map_err(|e| JsError::new(&e.to_string()))?;
        let sim = Simulation::new(&cfg).map_err(|e| JsError::new(&e.to_string()))?;
        let net = sim.network();
        let positions = net.positions.iter().flat_map(|&[x, y]| [x, y]).collect();
        let mut endpoints = Vec::new();
        let mut downstream_port = Vec::new();
        let mut upstream_port = Vec::new();
        for (src, src_port, dst, dst_port) in net.channels() {
            endpoints.extend([src, dst]);
            upstream_port.push(net.port_id(src, src_port) as u32);
            downstream_port.push(net.port_id(dst, dst_port) as u32);
        }
        let channels = upstream_port.len();
        let occupancy = vec![0.0; downstream_port.len()];
        Ok(WebSim {
            sim,
            positions,
            endpoints,
            downstream_port,
            occupancy,
            upstream_port,
            utilization: vec![0.0; channels],
            sampled_at: 0,
            sampled_flits: vec![0; channels],
        })
    }

    /// Advances the simulation by `cycles` cycles. Fails (and stays put) when the deadlock
    /// watchdog trips; the message names the blocked routers and VCs.
    pub fn advance(&mut self, cycles: u32) -> Result<(), JsError> {
        self.sim.advance(u64::from(cycles)).map_err(|e| JsError::new(&e.to_string()))
    }

    /// The current cycle.
    pub fn now(&self) -> f64 {
        self.sim.now() as f64
    }

    /// Number of routers.
    #[wasm_bindgen(js_name = routerCount)]
    pub fn router_count(&self) -> u32 {
        self.sim.network().routers() as u32
    }

    /// Number of terminals.
    #[wasm_bindgen(js_name = terminalCount)]
    pub fn terminal_count(&self) -> u32 {
        self.sim.network().terminals() as u32
    }

    /// Router drawing coordinates, `[x0, y0, x1, y1, …]`, each in `[0, 1]`.
    #[wasm_bindgen(js_name = routerPositions)]
    pub fn router_positions(&self) -> Vec<f32> {
        self.positions.clone()
    }

    /// Number of (unidirectional) router-to-router channels.
    #[wasm_bindgen(js_name = channelCount)]
    pub fn channel_count(&self) -> u32 {
        self.downstream_port.len() as u32
    }

    /// Channel endpoints, `[src0, dst0, src1, dst1, …]` as router indices. Each direction of
    /// a link is its own channel, and parallel (trunked) links appear once each.
    #[wasm_bindgen(js_name = channelEndpoints)]
    pub fn channel_endpoints(&self) -> Vec<u32> {
        self.endpoints.clone()
    }

    /// Per-channel queue occupancy in `[0, 1]`: flits buffered in the downstream input
    /// port the channel feeds (all its VCs) over that port's buffer capacity.
    #[wasm_bindgen(js_name = channelOccupancy)]
    pub fn channel_occupancy(&mut self) -> Vec<f32> {
        let vcs = self.sim.vcs() as usize;
        let capacity = (vcs as u32 * self.sim.buffer_depth()) as f32;
        let buffered = self.sim.buffered_flits();
        for (occ, &port) in self.occupancy.iter_mut().zip(&self.downstream_port) {
            let start = port as usize * vcs;
            let flits: u32 = buffered[start..start + vcs].iter().map(|&f| u32::from(f)).sum();
            *occ = flits as f32 / capacity;
        }
        self.occupancy.clone()
    }

    /// Per-channel utilization in `[0, 1]`: flits sent per cycle, smoothed exponentially
    /// with a time constant of [`UTILIZATION_TIME_CONSTANT`] cycles (so that stepping one
    /// cycle per frame does not flicker). Each call samples the counters since the last.
    #[wasm_bindgen(js_name = channelUtilization)]
    pub fn channel_utilization(&mut self) -> Vec<f32> {
        let now = self.sim.now();
        let elapsed = now.saturating_sub(self.sampled_at);
        if elapsed > 0 {
            let keep = (-(elapsed as f64) / UTILIZATION_TIME_CONSTANT).exp() as f32;
            let sent = self.sim.sent_flits();
            for ((u, prev), &port) in self.utilization.iter_mut().zip(&mut self.sampled_flits).zip(&self.upstream_port) {
                let flits = sent[port as usize];
                let rate = (flits - *prev) as f32 / elapsed as f32;
                *u = keep * *u + (1.0 - keep) * rate.min(1.0);
                *prev = flits;
            }
            self.sampled_at = now;
        }
        self.utilization.clone()
    }

    /// Per-router terminal backlog in `[0, 1]`: packets waiting in the source queues of the
    /// router's terminals over their capacity (`traffic.source_queue_cap` each). Near 0
    /// below saturation; it grows to 1 when the network cannot accept the offered load.
    #[wasm_bindgen(js_name = routerBacklog)]
    pub fn router_backlog(&self) -> Vec<f32> {
        let net = self.sim.network();
        let cap = self.sim.config().traffic.source_queue_cap.max(1) as f32;
        let mut waiting = vec![0u32; net.routers()];
        let mut terminals = vec![0u32; net.routers()];
        for t in 0..net.terminals() as u32 {
            let r = net.terminal_router(t) as usize;
            waiting[r] += self.sim.source_queue_len(t) as u32;
            terminals[r] += 1;
        }
        waiting
            .iter()
            .zip(&terminals)
            .map(|(&w, &n)| if n == 0 { 0.0 } else { (w as f32 / (cap * n as f32)).min(1.0) })
            .collect()
    }

    /// Cumulative counters for live statistics, `[generated packets, delivered packets,
    /// delivered flits, sum of delivered packets' latencies, sum of their hops, packets in
    /// the network, packets in source queues, packets dropped at full source queues,
    /// delivered packets that were routed non-minimally]`.
    #[wasm_bindgen(js_name = liveCounters)]
    pub fn live_counters(&self) -> Vec<f64> {
        let s = self.sim.stats();
        vec![
            s.generated as f64,
            s.delivered as f64,
            s.delivered_flits as f64,
            s.latency_sum as f64,
            s.hops_sum as f64,
            self.sim.packets_in_network() as f64,
            self.sim.packets_in_sources() as f64,
            s.dropped as f64,
            s.delivered_nonminimal as f64,
        ]
    }

    /// The configuration in effect, with every default filled in, as pretty JSON.
    #[wasm_bindgen(js_name = configJson)]
    pub fn config_json(&self) -> String {
        self.sim.config().to_json()
    }
}
