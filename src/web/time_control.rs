//! Time control and motion (docs/lecture.md, Time): rewinding (the engine's
//! [`History`]: periodic snapshots plus exact replay), running until something happens,
//! changing the offered load while running, the packets on the channels (drawn travelling
//! along the links), and the routing decisions counted at each router.
//!
//! Results that are more than one number cross to the page as named, typed objects
//! (serde-wasm-bindgen; `Rewindable`, [`RunUntil`], declared for the page in
//! `boundary.d.ts`), errors as `{path, message}` records.

use wasm_bindgen::prelude::*;

use super::{field_errors, WebSim};
use crate::sim::history::{Event, RunUntil};

#[wasm_bindgen]
impl WebSim {
    /// Changes the offered load while running (`traffic.load`'s range). Returns an empty
    /// array, or the errors as `[{path, message}]`. Rewinding past the change undoes it.
    #[wasm_bindgen(js_name = setLoad, unchecked_return_type = "FieldError[]")]
    pub fn set_load(&mut self, load: f64) -> JsValue {
        match self.history.apply(&mut self.sim, Event::Load(load)) {
            Ok(()) => js_sys::Array::new().into(),
            Err(e) => field_errors(&e),
        }
    }

    /// Goes back to cycle `cycle` (clamped to what the history holds), exactly as it was
    /// first reached there; what was done after it (load changes, failed links) is undone.
    /// Returns the cycle reached.
    #[wasm_bindgen(js_name = rewindTo)]
    pub fn rewind_to(&mut self, cycle: f64) -> f64 {
        let target = if cycle.is_finite() && cycle > 0.0 { cycle as u64 } else { 0 };
        let reached = self.history.rewind(&mut self.sim, target);
        self.restart_windows();
        reached as f64
    }

    /// How far back [`WebSim::rewind_to`] can go: `{earliest, max_replay, snapshots,
    /// bytes, budget}`.
    #[wasm_bindgen(unchecked_return_type = "Rewindable")]
    pub fn rewindable(&self) -> JsValue {
        serde_wasm_bindgen::to_value(&self.history.rewindable(self.sim.now())).unwrap_or(JsValue::NULL)
    }

    /// Runs until an event, at most `max_cycles` cycles: `decision` — the next routing
    /// decision at router `arg`; `nonminimal` — the next packet sent off its minimal path
    /// at router `arg`; `saturated` — the first saturated channel: one of the VC buffers it
    /// feeds is full, so the packets routed to that VC wait upstream (backpressure).
    /// Returns `{cycles, reached, channel, error}`.
    #[wasm_bindgen(js_name = runUntil, unchecked_return_type = "RunUntil")]
    pub fn run_until(&mut self, kind: &str, arg: u32, max_cycles: u32) -> Result<JsValue, JsError> {
        let routers = self.sim.network().routers();
        let at_router = |what: &str| {
            if (arg as usize) < routers {
                Ok(arg as usize)
            } else {
                Err(JsError::new(&format!("{what}: router {arg} does not exist ({routers} routers)")))
            }
        };
        let mut result = RunUntil { cycles: 0, reached: false, channel: None, error: None };
        let before = match kind {
            "decision" => self.sim.router_decisions()[at_router(kind)?].routed,
            "nonminimal" => self.sim.router_decisions()[at_router(kind)?].nonminimal,
            "saturated" => 0,
            other => return Err(JsError::new(&format!("unknown event '{other}': decision, nonminimal or saturated"))),
        };
        while result.cycles < max_cycles && !result.reached {
            if let Err(e) = self.history.advance(&mut self.sim, 1) {
                result.error = Some(e.to_string());
                break;
            }
            result.cycles += 1;
            let d = |sim: &crate::sim::Simulation| sim.router_decisions()[arg as usize];
            result.reached = match kind {
                "decision" => d(&self.sim).routed > before,
                "nonminimal" => d(&self.sim).nonminimal > before,
                _ => {
                    result.channel = self.full_channel();
                    result.channel.is_some()
                }
            };
        }
        Ok(serde_wasm_bindgen::to_value(&result).unwrap_or(JsValue::NULL))
    }

    /// The packets on router-to-router channels now, five numbers each: `[channel,
    /// progress, step, nonminimal, followed, …]` — `progress` in `(0, 1]` is how far the
    /// packet has travelled along the channel at the end of the last cycle and `step` how
    /// far it moves per cycle (1 / the channel's latency), so a slow animation can glide
    /// from `progress − step` to `progress`; `nonminimal` is 1 for a packet routed off its
    /// minimal path; `followed` is 1 for the packet the trace follows.
    #[wasm_bindgen(js_name = packetsOnChannels)]
    pub fn packets_on_channels(&self) -> Vec<f32> {
        let followed = self.sim.traced_packet();
        let mut out = Vec::new();
        for (port, ahead, pid, pkt) in self.sim.packets_on_channels() {
            let Some(&channel) = self.channel_of_input.get(port as usize) else { continue };
            if channel == u32::MAX {
                continue;
            }
            let latency = self.sim.channel_latency(self.upstream_port[channel as usize] as usize).max(1) as f32;
            out.extend([
                channel as f32,
                (latency - ahead as f32).max(1.0) / latency,
                1.0 / latency,
                f32::from(u8::from(pkt.nonminimal)),
                f32::from(u8::from(followed == Some(pid))),
            ]);
        }
        out
    }

    /// Per router, the routing decisions counted since the start: `[routed0, nonminimal0,
    /// routed1, …]` — packets routed onto a router-to-router channel there, and those sent
    /// off their minimal path there (UGAL's choice of Valiant at the source, DAL's deroute).
    #[wasm_bindgen(js_name = routerDecisions)]
    pub fn router_decisions(&self) -> Vec<f64> {
        self.sim.router_decisions().iter().flat_map(|d| [d.routed as f64, d.nonminimal as f64]).collect()
    }
}

impl WebSim {
    /// The first channel one of whose downstream VC buffers is full, if any.
    fn full_channel(&self) -> Option<u32> {
        let (vcs, depth) = (self.sim.vcs(), self.sim.buffer_depth());
        let full = |p: u32| (0..vcs).any(|vc| self.sim.input_occupancy(p as usize, vc) >= depth);
        self.downstream_port.iter().position(|&p| full(p)).map(|c| c as u32)
    }
}
