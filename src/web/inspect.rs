//! Inspection and topology-aware statistics for the page, as objects typed by
//! `src/web/boundary.d.ts` ([`crate::inspect`] builds them): a router's ports with their VC
//! occupancies, credits and queue estimates and its last routing decisions; a channel's
//! VCs; the dragonfly's Fig. 9 global-channel utilization by class; the latency histograms
//! of minimally and non-minimally routed packets.

use wasm_bindgen::prelude::*;

use super::{to_js, WebSim};
use crate::inspect::{ChannelDetail, Fig9Window, RouterDetail};
use crate::stats::dragonfly::global_channel_utilization;
use crate::stats::HISTOGRAM_BINS;

#[wasm_bindgen]
impl WebSim {
    /// Everything about router `r` ([`RouterDetail`]): its ports, its last adaptive
    /// decision (`note`) and, while recording (see `recordHopNotes`), its last per-hop
    /// decision (`hop_note`); `undefined` past the last router.
    #[wasm_bindgen(js_name = routerDetail, unchecked_return_type = "RouterDetail | undefined")]
    pub fn router_detail(&self, r: u32) -> JsValue {
        RouterDetail::of(&self.sim, r, self.recording_hop_notes).map_or(JsValue::UNDEFINED, |d| to_js(&d))
    }

    /// Channel `c` ([`ChannelDetail`]); `undefined` past the last channel.
    #[wasm_bindgen(js_name = channelDetail, unchecked_return_type = "ChannelDetail | undefined")]
    pub fn channel_detail(&self, c: u32) -> JsValue {
        let (Some(&up), Some(&down)) = (self.upstream_port.get(c as usize), self.downstream_port.get(c as usize))
        else {
            return JsValue::UNDEFINED;
        };
        to_js(&ChannelDetail::of(&self.sim, c, up as usize, down as usize))
    }

    /// Dragonfly paper Fig. 9: the utilization of a group's global channels, by class
    /// (the minimal channel towards group `G + shift`, the other channels of its router,
    /// all others), averaged over the groups, over the cycles since the previous call
    /// ([`Fig9Window`]); `undefined` if the network is not a dragonfly or no cycle passed.
    #[wasm_bindgen(js_name = globalChannelUtilization, unchecked_return_type = "Fig9Window | undefined")]
    pub fn global_channel_utilization(&mut self) -> JsValue {
        let Some(df) = self.sim.topology().as_dragonfly() else { return JsValue::UNDEFINED };
        let now = self.sim.now();
        let Some(cycles) = now.checked_sub(self.fig9_at).filter(|&c| c > 0) else { return JsValue::UNDEFINED };
        let sent = self.sim.sent_flits();
        let util: Vec<f32> =
            sent.iter().zip(&self.fig9_flits).map(|(&a, &b)| ((a - b) as f64 / cycles as f64) as f32).collect();
        let utilization = global_channel_utilization(df, &util, self.sim.config().traffic.shift);
        self.fig9_flits.copy_from_slice(&sent);
        self.fig9_at = now;
        to_js(&Fig9Window { utilization, cycles })
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
