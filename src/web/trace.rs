//! The page's packet trace and DAL's per-hop notes: arming and reading the engine's trace
//! (`sim/trace.rs`) as the hops the page lists and draws ([`TraceView`]).

use wasm_bindgen::prelude::*;

use super::{to_js, WebSim};
use crate::inspect::TraceView;

#[wasm_bindgen]
impl WebSim {
    /// Starts (or stops) recording the numbers behind every per-hop routing decision
    /// (DAL); `routerDetail` then shows the last one at each router as `hop_note`. Off by
    /// default: it costs the engine time.
    #[wasm_bindgen(js_name = recordHopNotes)]
    pub fn record_hop_notes(&mut self, on: bool) {
        if on != self.recording_hop_notes {
            self.sim.record_hop_notes(on);
            self.recording_hop_notes = on;
        }
    }

    /// Follows the next packet generated at a terminal of router `r` (the same packet in
    /// panes that differ only in routing).
    #[wasm_bindgen(js_name = traceNextAt)]
    pub fn trace_next_at(&mut self, r: u32) -> bool {
        if r as usize >= self.sim.network().routers() {
            return false;
        }
        self.sim.trace_next_generated(r);
        true
    }

    /// Follows the packet at the head of input VC `vc` of port `port` of router `r`;
    /// false if that VC is empty.
    #[wasm_bindgen(js_name = traceQueueHead)]
    pub fn trace_queue_head(&mut self, r: u32, port: u32, vc: u32) -> bool {
        let net = self.sim.network();
        if r as usize >= net.routers() || port >= net.radix(r) || vc >= self.sim.vcs() {
            return false;
        }
        let id = net.port_id(r, port);
        self.sim.trace_queue_head(id, vc)
    }

    /// Stops following.
    #[wasm_bindgen(js_name = traceClear)]
    pub fn trace_clear(&mut self) {
        self.sim.clear_trace();
    }

    /// The trace ([`TraceView`]): the router whose next generated packet will be followed
    /// (`armed`), the cycle, and the followed packet — one hop per router visited, its
    /// departure absent while the packet is there; no hops while it waits in its source
    /// queue (`in_source`).
    #[wasm_bindgen(unchecked_return_type = "TraceView")]
    pub fn trace(&self) -> JsValue {
        to_js(&TraceView::of(&self.sim, &self.upstream_port))
    }
}
