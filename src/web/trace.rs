//! The page's packet trace and DAL's per-hop notes: arming and reading the engine's trace
//! (`sim/trace.rs`) as JSON hops the page lists and draws.

use serde_json::{json, Value};
use wasm_bindgen::prelude::*;

use super::WebSim;
use crate::routing::HopNote;
use crate::sim::TraceEvent;

/// A DAL per-hop note as JSON (see [`HopNote`]).
pub(super) fn hop_note_json(n: &HopNote) -> Value {
    let dims: Vec<Value> = n.per_dim[..n.dims as usize]
        .iter()
        .map(|d| {
            json!({
                "offset": d.offset, "deroutable": d.deroutable,
                "min_free": d.min_free, "min_queue": d.min_queue,
                "has_deroute": d.has_deroute, "der_free": d.der_free, "der_queue": d.der_queue,
            })
        })
        .collect();
    json!({
        "cycle": n.cycle, "src": n.packet_src, "dst": n.packet_dst, "hops": n.packet_hops,
        "in_port": n.in_port, "in_vc": n.in_vc,
        "need_free": n.need_free, "need_uncongested": n.need_uncongested,
        "rule": n.rule, "port": n.port, "vc": n.vc, "dim": n.dim, "per_dim": dims,
    })
}

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

    /// The trace as JSON: `{armed, now, trace}`, where `armed` is the router whose next
    /// generated packet will be followed (or null) and `trace` null or `{src, dst,
    /// src_router, dst_router, created, delivered, delivered_at, nonminimal, hops: [{router,
    /// in_port, in_vc, arrived, injected, out_port, out_vc, left, next_router, channel,
    /// class, dim}], in_source}` — one hop per router visited, `left` null while the packet
    /// is there; no hops while it waits in its source queue (`in_source`).
    #[wasm_bindgen(js_name = traceJson)]
    pub fn trace_json(&self) -> String {
        let sim = &self.sim;
        let net = sim.network();
        let trace = sim.trace().map(|t| {
            let mut hops: Vec<Value> = Vec::new();
            let mut delivered_at = None;
            let mut unroutable = Value::Null;
            for e in &t.events {
                match *e {
                    TraceEvent::Injected { cycle, router, port, vc, arrives } => {
                        hops.push(json!({"router": router, "in_port": port, "in_vc": vc, "arrived": arrives, "injected": cycle}));
                    }
                    TraceEvent::Found { cycle, router, port, vc, arrived } => {
                        hops.push(json!({"router": router, "in_port": port, "in_vc": vc, "arrived": arrived, "found": cycle}));
                    }
                    TraceEvent::Sent { cycle, router, port, vc, arrives } => {
                        let p = net.port(router, port);
                        let id = net.port_id(router, port) as u32;
                        let channel = self.upstream_port.iter().position(|&u| u == id);
                        let terminal = p.is_terminal();
                        if let Some(Value::Object(h)) = hops.last_mut() {
                            for (k, v) in [
                                ("out_port", json!(port)),
                                ("out_vc", json!(vc)),
                                ("left", json!(cycle)),
                                ("channel", json!(channel)),
                                ("class", json!(super::inspect::class_name(p.class))),
                                ("dim", json!(p.dim)),
                                ("next_router", if terminal { Value::Null } else { json!(p.peer_router) }),
                            ] {
                                h.insert(k.into(), v);
                            }
                        }
                        if terminal {
                            delivered_at = Some(arrives);
                        } else {
                            hops.push(json!({"router": p.peer_router, "in_port": p.peer_port, "in_vc": vc, "arrived": arrives}));
                        }
                    }
                    TraceEvent::Unroutable { cycle, router, port } => {
                        unroutable = json!({"cycle": cycle, "router": router, "port": port});
                    }
                }
            }
            json!({
                "src": t.src, "dst": t.dst, "src_router": t.src_router, "dst_router": t.dst_router,
                "created": t.created, "delivered": t.delivered, "delivered_at": delivered_at,
                "nonminimal": t.nonminimal, "hops": hops, "in_source": t.events.is_empty(),
                "unroutable": unroutable,
            })
        });
        json!({"armed": sim.trace_armed_at(), "now": sim.now(), "trace": trace}).to_string()
    }
}
