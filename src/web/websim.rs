//! [`WebSim`]: one simulation as the page sees it — built from the JSON config, stepped
//! by one of the page's simulation workers, read through flat arrays.

use wasm_bindgen::prelude::*;

use super::{field_errors, to_js};
use crate::config::{ConfigError, ConfigErrors, SimConfig};
use crate::inspect::NetworkInfo;
use crate::sim::history::{Event, History};
use crate::sim::Simulation;
use crate::topology::LinkClass;

/// Smoothing time constant of [`WebSim::channel_utilization`], in cycles.
pub const UTILIZATION_TIME_CONSTANT: f64 = 32.0;

/// One simulation as the page sees it.
///
/// Every packet is labeled (the measurement window is the whole run), so the engine's
/// minimal / non-minimal latency accumulators cover all delivered packets and the page can
/// plot their split over time (dragonfly paper Figs. 11–12). The papers' methodology with a
/// warm-up and a drained window is what [`super::run_experiment`] runs for the sweep.
#[wasm_bindgen]
pub struct WebSim {
    pub(super) sim: Simulation,
    /// Router drawing coordinates, `[x0, y0, x1, y1, …]`.
    positions: Vec<f32>,
    /// Directed router-to-router channels as `[src0, dst0, …]` router indices.
    endpoints: Vec<u32>,
    /// Per channel: the global id of the output port it leaves from, and of the
    /// downstream input port it feeds.
    pub(super) upstream_port: Vec<u32>,
    pub(super) downstream_port: Vec<u32>,
    /// Per port id: the channel feeding that input port (`u32::MAX` for terminal inputs).
    pub(super) channel_of_input: Vec<u32>,
    /// Snapshots and events for rewinding (`time_control.rs`).
    pub(super) history: History,
    /// Per channel: smoothed utilization, and the (cycle, flits sent) it was last sampled at.
    utilization: Vec<f32>,
    sampled_at: u64,
    sampled_flits: Vec<u64>,
    /// Global ids of the terminal (injection) ports of each router: router `r`'s are
    /// `terminal_ports[terminal_port_start[r]..terminal_port_start[r + 1]]`.
    terminal_ports: Vec<u32>,
    terminal_port_start: Vec<u32>,
    /// Terminals injecting at each router, in the same start-offset layout.
    injecting: Vec<u32>,
    injecting_start: Vec<u32>,
    /// Fig. 9 window: cycle and per-port flits sent at the last
    /// [`WebSim::global_channel_utilization`] call.
    pub(super) fig9_at: u64,
    pub(super) fig9_flits: Vec<u64>,
    /// Whether the engine records per-hop notes (`trace.rs`).
    pub(super) recording_hop_notes: bool,
    /// This simulation's share of its worker's memory budget (`budget.rs`), given back
    /// when the page frees it.
    _reservation: super::budget::Reservation,
}

/// Per-router ranges of a list grouped by router: `(items, start offsets)`.
fn grouped(routers: usize, mut of: impl FnMut(u32, &mut Vec<u32>)) -> (Vec<u32>, Vec<u32>) {
    let mut items = Vec::new();
    let mut start = vec![0];
    for r in 0..routers as u32 {
        of(r, &mut items);
        start.push(items.len() as u32);
    }
    (items, start)
}

#[wasm_bindgen]
impl WebSim {
    /// Builds a simulation from a JSON config (the same format as the CLI's). Throws every
    /// config problem as `[{path, message}]`.
    #[wasm_bindgen(constructor)]
    pub fn new(config_json: &str) -> Result<WebSim, JsValue> {
        let cfg = SimConfig::from_json(config_json).map_err(|e| field_errors(&e))?;
        cfg.validate().map_err(|e| field_errors(&e))?;
        let (reservation, history_budget) = super::budget::reserve(&cfg).map_err(|e| field_errors(&e))?;
        let mut sim = Simulation::new(&cfg).map_err(|e| field_errors(&e))?;
        sim.set_invariant_checks(false);
        sim.stats_mut().label_start = 0;
        sim.stats_mut().label_end = u64::MAX;
        let net = sim.network();
        let positions = net.positions.iter().flat_map(|&[x, y]| [x, y]).collect();
        let mut endpoints = Vec::new();
        let mut downstream_port = Vec::new();
        let mut upstream_port = Vec::new();
        // A tapered dragonfly's removed channels are not drawn: they do not exist.
        for (src, src_port, dst, dst_port) in sim.router_channels() {
            endpoints.extend([src, dst]);
            upstream_port.push(net.port_id(src, src_port) as u32);
            downstream_port.push(net.port_id(dst, dst_port) as u32);
        }
        let channels = upstream_port.len();
        let (terminal_ports, terminal_port_start) = grouped(net.routers(), |r, out| {
            out.extend((0..net.radix(r)).filter(|&p| net.port(r, p).is_terminal()).map(|p| net.port_id(r, p) as u32));
        });
        let mut by_router = vec![Vec::new(); net.routers()];
        for t in 0..net.terminals() as u32 {
            by_router[net.inject_router(t) as usize].push(t);
        }
        let (injecting, injecting_start) = grouped(net.routers(), |r, out| out.extend(&by_router[r as usize]));
        let ports = net.total_ports();
        let mut channel_of_input = vec![u32::MAX; ports];
        for (c, &p) in downstream_port.iter().enumerate() {
            channel_of_input[p as usize] = c as u32;
        }
        let history = History::new(&sim, history_budget);
        Ok(WebSim {
            sim,
            positions,
            endpoints,
            downstream_port,
            upstream_port,
            channel_of_input,
            history,
            utilization: vec![0.0; channels],
            sampled_at: 0,
            sampled_flits: vec![0; channels],
            terminal_ports,
            terminal_port_start,
            injecting,
            injecting_start,
            fig9_at: 0,
            fig9_flits: vec![0; ports],
            recording_hop_notes: false,
            _reservation: reservation,
        })
    }

    /// Advances the simulation by `cycles` cycles (keeping snapshots for rewinding). Fails
    /// (and stays put) when the deadlock watchdog trips; the message names the blocked
    /// routers and VCs.
    pub fn advance(&mut self, cycles: u32) -> Result<(), JsError> {
        self.history.advance(&mut self.sim, u64::from(cycles)).map_err(|e| JsError::new(&e.to_string()))
    }

    /// The current cycle.
    pub fn now(&self) -> f64 {
        self.sim.now() as f64
    }

    /// Virtual channels per port.
    pub fn vcs(&self) -> u32 {
        self.sim.vcs()
    }

    /// Flits per VC buffer.
    #[wasm_bindgen(js_name = bufferDepth)]
    pub fn buffer_depth(&self) -> u32 {
        self.sim.buffer_depth()
    }

    /// Router drawing coordinates, `[x0, y0, x1, y1, …]`, each in `[0, 1]`.
    #[wasm_bindgen(js_name = routerPositions)]
    pub fn router_positions(&self) -> Vec<f32> {
        self.positions.clone()
    }

    /// Channel endpoints, `[src0, dst0, src1, dst1, …]` as router indices. Each direction of
    /// a link is its own channel, and parallel (trunked) links appear once each.
    #[wasm_bindgen(js_name = channelEndpoints)]
    pub fn channel_endpoints(&self) -> Vec<u32> {
        self.endpoints.clone()
    }

    /// Per channel: 1 for a dragonfly global channel, 0 otherwise.
    #[wasm_bindgen(js_name = channelClasses)]
    pub fn channel_classes(&self) -> Vec<u8> {
        let net = self.sim.network();
        self.upstream_port.iter().map(|&p| u8::from(net.port_by_id(p as usize).class == LinkClass::Global)).collect()
    }

    /// The channels a story's focus selects on this network (`focus_json`: the document's
    /// `focus`, see [`crate::story::focus_mask`]), 1 = selected; empty when the focus does
    /// not show here (another pattern, or nothing selected). Throws when the focus is not
    /// one the story format allows.
    #[wasm_bindgen(js_name = focusChannels)]
    pub fn focus_channels(&self, focus_json: &str) -> Result<Vec<u8>, JsError> {
        let focus: crate::story::Focus =
            serde_json::from_str(focus_json).map_err(|e| JsError::new(&format!("focus: {e}")))?;
        Ok(crate::story::focus_mask(&focus, &self.sim).unwrap_or_default())
    }

    /// Per router, the structural block it is drawn in: its group (dragonfly), its tile of
    /// the dimensions above the first two (HyperX family), else 0.
    #[wasm_bindgen(js_name = routerGroups)]
    pub fn router_groups(&self) -> Vec<u32> {
        self.sim.topology().drawing_blocks().0
    }

    /// What the page needs to know about the network ([`NetworkInfo`]): its type and
    /// family, sizes, counters' units, drawing blocks and the family's shape.
    #[wasm_bindgen(js_name = networkInfo, unchecked_return_type = "NetworkInfo")]
    pub fn network_info(&self) -> JsValue {
        to_js(&NetworkInfo::of(&self.sim))
    }

    /// Per channel and VC, the flits buffered in the downstream input VC the channel feeds:
    /// channel `c`'s VC `v` at `c·V + v`.
    #[wasm_bindgen(js_name = vcOccupancy)]
    pub fn vc_occupancy(&self) -> Vec<u16> {
        let vcs = self.sim.vcs() as usize;
        let flits = self.sim.buffered_flits();
        let mut out = Vec::with_capacity(self.downstream_port.len() * vcs);
        for &port in &self.downstream_port {
            let base = port as usize * vcs;
            out.extend_from_slice(&flits[base..base + vcs]);
        }
        out
    }

    /// Per-channel queue occupancy in `[0, 1]`: flits buffered in the downstream input
    /// port the channel feeds (all its VCs) over that port's buffer capacity.
    #[wasm_bindgen(js_name = channelOccupancy)]
    pub fn channel_occupancy(&self) -> Vec<f32> {
        let capacity = (self.sim.vcs() * self.sim.buffer_depth()) as f32;
        self.downstream_port.iter().map(|&port| self.sim.port_buffered_flits(port as usize) as f32 / capacity).collect()
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
            for ((u, prev), &port) in self.utilization.iter_mut().zip(&mut self.sampled_flits).zip(&self.upstream_port)
            {
                let flits = sent[port as usize];
                let rate = (flits - *prev) as f32 / elapsed as f32;
                *u = keep * *u + (1.0 - keep) * rate.min(1.0);
                *prev = flits;
            }
            self.sampled_at = now;
        }
        self.utilization.clone()
    }

    /// Per-router injection occupancy in `[0, 1]`: flits buffered in the input VCs of the
    /// router's terminal ports (packets injected but not yet switched) over their capacity.
    /// It rises when a router cannot accept its terminals' traffic.
    #[wasm_bindgen(js_name = routerInjectionOccupancy)]
    pub fn router_injection_occupancy(&self) -> Vec<f32> {
        let per_port = (self.sim.vcs() * self.sim.buffer_depth()) as f32;
        self.terminal_port_start
            .windows(2)
            .map(|w| {
                let ports = &self.terminal_ports[w[0] as usize..w[1] as usize];
                let sum: u32 = ports.iter().map(|&p| self.sim.port_buffered_flits(p as usize)).sum();
                if ports.is_empty() {
                    0.0
                } else {
                    sum as f32 / (per_port * ports.len() as f32)
                }
            })
            .collect()
    }

    /// Per router, the mean number of packets waiting in the source queues of the
    /// terminals that inject there (grows without bound past saturation, up to the cap).
    #[wasm_bindgen(js_name = routerSourceQueues)]
    pub fn router_source_queues(&self) -> Vec<f32> {
        self.injecting_start
            .windows(2)
            .map(|w| {
                let terms = &self.injecting[w[0] as usize..w[1] as usize];
                let sum: usize = terms.iter().map(|&t| self.sim.source_queue_len(t)).sum();
                if terms.is_empty() {
                    0.0
                } else {
                    sum as f32 / terms.len() as f32
                }
            })
            .collect()
    }

    /// The cumulative counters for live statistics, as an object named by
    /// [`crate::stats::LiveCounters`] (`{generated, delivered, delivered_flits, …}`).
    #[wasm_bindgen(js_name = liveCounters, unchecked_return_type = "LiveCounters")]
    pub fn live_counters(&self) -> JsValue {
        serde_wasm_bindgen::to_value(&self.sim.live_counters()).unwrap_or(JsValue::NULL)
    }

    /// Fails (`failed`) or restores the link of channel `channel` (both of its directions)
    /// while the simulation runs (HyperX §6; `Simulation::set_link_failed` states what
    /// happens to packets under way). Returns `[]`, or why it was refused as
    /// `[{path, message}]` (a failure that would disconnect the network, or a channel that
    /// does not exist).
    #[wasm_bindgen(js_name = setChannelFailed, unchecked_return_type = "FieldError[]")]
    pub fn set_channel_failed(&mut self, channel: u32, failed: bool) -> JsValue {
        let Some(&port) = self.upstream_port.get(channel as usize) else {
            let message = format!("channel {channel} does not exist");
            return field_errors(&ConfigErrors(vec![ConfigError::new("channel", message.as_str())]));
        };
        let event = Event::LinkFailed { port: port as usize, failed };
        field_errors(&self.history.apply(&mut self.sim, event).err().unwrap_or(ConfigErrors(Vec::new())))
    }

    /// The channel of a link as `faults.links` names it (`[a, b]` or `[a, b, trunk]`: the
    /// `trunk`-th link between routers a and b, from a's side), or -1 when there is none.
    #[wasm_bindgen(js_name = linkChannel)]
    pub fn link_channel(&self, a: u32, b: u32, trunk: u32) -> i32 {
        let Ok(port) = self.sim.network().link_port(a, b, trunk) else { return -1 };
        self.upstream_port.iter().position(|&p| p as usize == port).map_or(-1, |c| c as i32)
    }

    /// Per channel: 1 if its link has failed.
    #[wasm_bindgen(js_name = failedChannels)]
    pub fn failed_channels(&self) -> Vec<u8> {
        let faults = self.sim.faults();
        self.upstream_port.iter().map(|&p| u8::from(faults.failed(p as usize))).collect()
    }

    /// The link of channel `channel` as `faults.links` names it: `[router, router, trunk]`
    /// (trunk: its index among the parallel links of the pair, in port order at the first
    /// router); empty for a channel that does not exist.
    #[wasm_bindgen(js_name = channelLink)]
    pub fn channel_link(&self, channel: u32) -> Vec<u32> {
        let Some(&port) = self.upstream_port.get(channel as usize) else { return Vec::new() };
        let (a, b, trunk) = self.sim.network().link_of(port as usize);
        vec![a, b, trunk]
    }

    /// The configuration in effect (with the load set while running), with every default
    /// filled in ([`SimConfig`], as its JSON names it).
    #[wasm_bindgen(unchecked_return_type = "SimConfig")]
    pub fn config(&self) -> JsValue {
        to_js(self.sim.config())
    }
}

impl WebSim {
    /// Restarts the windows the page's rates are measured over (channel utilization, the
    /// Fig. 9 panel) at the current cycle, after the simulation jumped back in time.
    pub(super) fn restart_windows(&mut self) {
        let (now, sent) = (self.sim.now(), self.sim.sent_flits());
        for (prev, &port) in self.sampled_flits.iter_mut().zip(&self.upstream_port) {
            *prev = sent[port as usize];
        }
        self.sampled_at = now;
        self.fig9_at = now;
        self.fig9_flits = sent;
    }
}
