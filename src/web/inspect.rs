//! Inspection and topology-aware statistics for the page, as JSON: a router's ports with
//! their VC occupancies, credits and queue estimates and its last adaptive routing
//! decision; a channel's VCs; the dragonfly's Fig. 9 global-channel utilization by class;
//! the latency histograms of minimally and non-minimally routed packets.

use serde_json::{json, Value};
use wasm_bindgen::prelude::*;

use super::WebSim;
use crate::stats::dragonfly::global_channel_utilization;
use crate::stats::HISTOGRAM_BINS;
use crate::topology::{LinkClass, Topology};

pub(super) fn class_name(class: LinkClass) -> &'static str {
    match class {
        LinkClass::Terminal => "terminal",
        LinkClass::Local => "local",
        LinkClass::Global => "global",
    }
}

impl WebSim {
    /// Per-VC state of the channel leaving output port id `out` and arriving at input port
    /// id `down`: downstream occupancy (the truth), upstream credits (the sender's view),
    /// flits committed upstream, and the queue estimate adaptive routing reads.
    fn vc_state(&self, router: u32, port: u32, out: usize, down: Option<usize>) -> Value {
        let sim = &self.sim;
        let q = sim.queues();
        let vcs = sim.vcs();
        json!({
            "flits": down.map(|d| (0..vcs).map(|v| sim.input_occupancy(d, v)).collect::<Vec<_>>()),
            "credits": (0..vcs).map(|v| sim.output_credits(out, v)).collect::<Vec<_>>(),
            "committed": (0..vcs).map(|v| sim.committed_flits(out, v)).collect::<Vec<_>>(),
            "queue": (0..vcs).map(|v| q.vc_queue(router, port, v)).collect::<Vec<_>>(),
        })
    }
}

#[wasm_bindgen]
impl WebSim {
    /// Everything about router `r` as JSON: `{router, group, coords, load, ports: [{port,
    /// class, dim, peer_router, peer_port, terminal, in_flits[vc], out: {flits, credits,
    /// committed, queue}[vc], port_queue, output_queue, sent, td}], note}` where `note` is the
    /// last adaptive routing decision taken here (`q_min, h_min, q_nonmin, h_nonmin, q_true,
    /// chose_minimal, cycle, src, dst`) or null, and `hop_note` the last per-hop decision
    /// (DAL, while recording: see `recordHopNotes`) or null.
    #[wasm_bindgen(js_name = routerDetail)]
    pub fn router_detail(&self, r: u32) -> Option<String> {
        let sim = &self.sim;
        let net = sim.network();
        if r as usize >= net.routers() {
            return None;
        }
        let vcs = sim.vcs();
        let q = sim.queues();
        let sent = sim.sent_flits();
        let ports: Vec<Value> = (0..net.radix(r))
            .map(|p| {
                let port = net.port(r, p);
                let id = net.port_id(r, p);
                let (peer_router, peer_port, terminal) = if port.is_terminal() {
                    (None, None, Some(port.peer_port))
                } else {
                    (Some(port.peer_router), Some(port.peer_port), None)
                };
                let down = peer_router.map(|pr| net.port_id(pr, port.peer_port));
                json!({
                    "port": p,
                    "class": class_name(port.class),
                    "dim": port.dim,
                    "peer_router": peer_router,
                    "peer_port": peer_port,
                    "terminal": terminal,
                    "in_flits": (0..vcs).map(|v| sim.input_occupancy(id, v)).collect::<Vec<_>>(),
                    "out": self.vc_state(r, p, id, down),
                    "port_queue": q.port_queue(r, p) - if sim.faults().failed(id) { crate::sim::FAILED_QUEUE } else { 0 },
                    "output_queue": sim.output_queue_len(id),
                    "sent": sent[id],
                    "td": sim.credit_round_trip(id).map(|c| c.0),
                })
            })
            .collect();
        let note = sim.route_notes()[r as usize];
        let note = note.valid.then(|| {
            json!({
                "cycle": note.cycle, "src": note.packet_src, "dst": note.packet_dst,
                "q_min": note.q_min, "h_min": note.h_min, "q_nonmin": note.q_nonmin, "h_nonmin": note.h_nonmin,
                "q_true": note.q_true, "chose_minimal": note.chose_minimal,
            })
        });
        let hop_note = sim.hop_note(r).map(|n| super::trace::hop_note_json(&n));
        let (group, coords) = match sim.topology() {
            Topology::Dragonfly(df) => (Some(df.group(r)), None),
            Topology::HyperX(hx) => (None, Some((0..hx.dims()).map(|d| hx.coord(r, d)).collect::<Vec<_>>())),
            _ => (None, None),
        };
        let terminals: Vec<Value> = (0..net.terminals() as u32)
            .filter(|&t| net.inject_router(t) == r)
            .map(|t| json!({"terminal": t, "source_queue": sim.source_queue_len(t)}))
            .collect();
        let cr =
            sim.credit_round_trip(0).map(|(_, delayed, sum)| json!({"delayed_credits": delayed, "delay_sum": sum}));
        Some(
            json!({
                "router": r, "group": group, "coords": coords, "load": sim.router_load(r),
                "cycle": sim.now(), "ports": ports, "note": note, "terminals": terminals,
                "hop_note": hop_note, "recording_hop_notes": self.recording_hop_notes,
                "credit_delay": cr,
                "algorithm": sim.config().routing.algorithm,
                "decisions": crate::routing::declaration(&sim.config().routing.algorithm, sim.topology().family())
                    .map(|a| a.decisions),
                "ugal_threshold": sim.config().routing.ugal_threshold,
                "depth": sim.buffer_depth(), "vcs": vcs,
            })
            .to_string(),
        )
    }

    /// Channel `c` as JSON: `{channel, src, src_port, dst, dst_port, class, dim, flits[vc],
    /// credits[vc], committed[vc], queue[vc], sent, utilization, td}`.
    #[wasm_bindgen(js_name = channelDetail)]
    pub fn channel_detail(&self, c: u32) -> Option<String> {
        let sim = &self.sim;
        let net = sim.network();
        let (&up, &down) = (self.upstream_port.get(c as usize)?, self.downstream_port.get(c as usize)?);
        let (src, dst) = (net.router_of_port(up as usize), net.router_of_port(down as usize));
        let (src_port, dst_port) = (up - net.port_offset(src) as u32, down - net.port_offset(dst) as u32);
        let port = net.port_by_id(up as usize);
        let mut v = self.vc_state(src, src_port, up as usize, Some(down as usize));
        let obj = v.as_object_mut().expect("object");
        for (k, val) in [
            ("channel", json!(c)),
            ("src", json!(src)),
            ("src_port", json!(src_port)),
            ("dst", json!(dst)),
            ("dst_port", json!(dst_port)),
            ("class", json!(class_name(port.class))),
            ("dim", json!(port.dim)),
            ("sent", json!(sim.sent_flits()[up as usize])),
            ("cycle", json!(sim.now())),
            ("depth", json!(sim.buffer_depth())),
            ("td", json!(sim.credit_round_trip(up as usize).map(|c| c.0))),
        ] {
            obj.insert(k.into(), val);
        }
        Some(v.to_string())
    }

    /// Dragonfly paper Fig. 9: the utilization of a group's global channels, by class
    /// (the minimal channel towards group `G + shift`, the other channels of its router,
    /// all others), averaged over the groups, over the cycles since the previous call.
    /// JSON of [`crate::stats::dragonfly::GlobalChannelUtilization`] plus `cycles`; `None`
    /// if the network is not a dragonfly or no cycle passed.
    #[wasm_bindgen(js_name = globalChannelUtilization)]
    pub fn global_channel_utilization(&mut self) -> Option<String> {
        let Topology::Dragonfly(df) = self.sim.topology() else { return None };
        let now = self.sim.now();
        let cycles = now.checked_sub(self.fig9_at).filter(|&c| c > 0)?;
        let sent = self.sim.sent_flits();
        let util: Vec<f32> =
            sent.iter().zip(&self.fig9_flits).map(|(&a, &b)| ((a - b) as f64 / cycles as f64) as f32).collect();
        let u = global_channel_utilization(df, &util, self.sim.config().traffic.shift);
        self.fig9_flits.copy_from_slice(&sent);
        self.fig9_at = now;
        let mut v = serde_json::to_value(&u).expect("serialises");
        v.as_object_mut().expect("object").insert("cycles".into(), json!(cycles));
        Some(v.to_string())
    }

    /// Cumulative latency histograms of delivered packets, one-cycle bins `0..bins` (the
    /// last bin also counts everything larger): the minimally routed packets' bins, then
    /// the non-minimally routed packets' bins.
    #[wasm_bindgen(js_name = latencyHistograms)]
    pub fn latency_histograms(&self, bins: u32) -> Vec<u32> {
        let n = (bins as usize).clamp(1, HISTOGRAM_BINS);
        let s = self.sim.stats();
        let mut out = Vec::with_capacity(2 * n);
        for h in [&s.latency_minimal.hist, &s.latency_nonminimal.hist] {
            out.extend_from_slice(&h[..n]);
            let rest: u32 = h[n..].iter().sum();
            let last = out.len() - 1;
            out[last] += rest;
        }
        out
    }
}
