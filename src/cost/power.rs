//! Power model of the flattened butterfly paper, §5.3, Table 5 and Fig. 15.
//!
//! `P = P_switch · routers + Σ P_link · signals`. A radix-64 router's switch power is 40 W
//! (scaled with the router's pin count for low-radix routers: switch power "is
//! proportional to the total bandwidth of the router"). Every differential signal of a
//! channel needs one SerDes; its power depends on the medium and on whether the router can
//! dedicate a cheap SerDes to short links:
//! - a global cable: `P_link_gg` = 200 mW;
//! - a local (backplane) link driven by a global SerDes, as in the indirect topologies
//!   (butterfly, folded Clos) where a port may drive either: `P_link_gl` = 160 mW;
//! - a local link driven by a dedicated local SerDes (direct topologies: flattened
//!   butterfly, hypercube): `P_link_ll` = 40 mW.

use super::cables::Technology;
use super::fb::FbPaperTopology;
use super::inventory::{Inventory, Placement};
use serde::{Deserialize, Serialize};

/// Table 5.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct PowerParams {
    /// Switch power of a radix-64 router, W.
    pub switch_w: f64,
    /// Global link with a global SerDes, W per signal.
    pub link_gg_w: f64,
    /// Local link with a global SerDes, W per signal.
    pub link_gl_w: f64,
    /// Local link with a local SerDes, W per signal.
    pub link_ll_w: f64,
}

impl Default for PowerParams {
    fn default() -> Self {
        PowerParams { switch_w: 40.0, link_gg_w: 0.200, link_gl_w: 0.160, link_ll_w: 0.040 }
    }
}

/// Power of one network, W.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct PowerBreakdown {
    pub topology: String,
    pub nodes: u64,
    pub switch_w: f64,
    pub local_link_w: f64,
    pub global_link_w: f64,
    pub total_w: f64,
}

impl PowerBreakdown {
    pub fn per_node_w(&self) -> f64 {
        self.total_w / self.nodes as f64
    }
}

impl Inventory {
    /// Network power per [`PowerParams`] (FB paper §5.3).
    pub fn power(&self, tech: &Technology, p: &PowerParams) -> PowerBreakdown {
        let switch_w = self.routers * self.router_scale * p.switch_w;
        let local_rate = if self.dedicated_serdes { p.link_ll_w } else { p.link_gl_w };
        let (mut local, mut global) = (0.0, 0.0);
        for g in &self.groups {
            let sig = g.signals(tech);
            match g.placement {
                Placement::Terminal | Placement::Backplane => local += sig * local_rate,
                // A short inter-cabinet cable still needs a cable-driving SerDes.
                Placement::LocalCable | Placement::Global => global += sig * p.link_gg_w,
            }
        }
        PowerBreakdown {
            topology: self.topology.clone(),
            nodes: self.nodes,
            switch_w,
            local_link_w: local,
            global_link_w: global,
            total_w: switch_w + local + global,
        }
    }
}

/// One point of Fig. 15.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct PowerPoint {
    pub nodes: u64,
    pub topology: FbPaperTopology,
    pub power: PowerBreakdown,
}

/// Fig. 15: network power per node of the four topologies of the FB paper.
pub fn fig15(tech: &Technology, params: &PowerParams, sizes: &[u64]) -> Vec<PowerPoint> {
    sizes
        .iter()
        .flat_map(|&n| {
            FbPaperTopology::ALL.into_iter().map(move |t| PowerPoint {
                nodes: n,
                topology: t,
                power: t.inventory(tech, n).power(tech, params),
            })
        })
        .collect()
}

/// Power reduction of the flattened butterfly relative to the folded Clos (fraction).
pub fn fb_vs_clos_power_reduction(tech: &Technology, params: &PowerParams, nodes: u64) -> f64 {
    let fb = FbPaperTopology::FlattenedButterfly.inventory(tech, nodes).power(tech, params).per_node_w();
    let clos = FbPaperTopology::FoldedClos.inventory(tech, nodes).power(tech, params).per_node_w();
    1.0 - fb / clos
}
