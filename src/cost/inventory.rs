//! A network's bill of materials (routers and channels with their packaging) and its
//! evaluation into cost (FB paper §4) and power (FB paper §5.3).
//!
//! Every topology model in this module tree produces an [`Inventory`]; the same inventory
//! is priced by [`Inventory::cost`] under a [`CablePricing`] and by
//! [`Inventory::power`](crate::cost::power) under Table 5. Channels are *unidirectional*
//! (the FB paper counts this way: "for N = 1K the folded Clos requires 2048 links while
//! the flattened butterfly requires 31 × 32 = 992"); each carries
//! `width × signals_per_channel` differential signals.

use super::cables::{CablePricing, Technology};
use serde::{Deserialize, Serialize};

/// Where a channel runs in the packaging hierarchy.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Placement {
    /// Processor ↔ router, over the backplane of the cabinet.
    Terminal,
    /// Router ↔ router inside a cabinet (or a pair of adjacent cabinets): backplane.
    Backplane,
    /// Router ↔ router over a short cable between nearby cabinets (e.g. within a
    /// dragonfly group): priced as a cable but driven as a local link for power.
    LocalCable,
    /// Router ↔ router over a global (inter-cabinet) cable.
    Global,
}

/// A class of identical channels.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ChannelGroup {
    /// What they are ("terminal", "dimension 2", "leaf ↔ middle", …).
    pub label: String,
    pub placement: Placement,
    /// Number of unidirectional channels (fractional for averaged models).
    pub channels: f64,
    /// Width relative to a standard channel (1 = `signals_per_channel` signals).
    pub width: f64,
    /// Average cable length in metres *without* the 2 m overhead (0 on a backplane).
    pub cable_m: f64,
}

impl ChannelGroup {
    pub fn new(label: impl Into<String>, placement: Placement, channels: f64, width: f64, cable_m: f64) -> Self {
        ChannelGroup { label: label.into(), placement, channels, width, cable_m }
    }

    /// Differential signals in the group.
    pub fn signals(&self, tech: &Technology) -> f64 {
        self.channels * self.width * tech.signals_per_channel
    }

    /// Cable length including the overhead, or 0 on a backplane.
    pub fn total_length(&self, tech: &Technology) -> f64 {
        match self.placement {
            Placement::Terminal | Placement::Backplane => 0.0,
            Placement::LocalCable | Placement::Global => self.cable_m + tech.cable_overhead_m,
        }
    }
}

/// Routers and channels of one network.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Inventory {
    /// Topology name for tables and legends.
    pub topology: String,
    /// Terminals (processing nodes) `N`.
    pub nodes: u64,
    /// Number of routers.
    pub routers: f64,
    /// Router cost (and switch power) relative to a radix-64 router: 1 for the high-radix
    /// topologies; scaled by pin count for low-radix routers (FB paper footnote 10).
    pub router_scale: f64,
    /// Direct topology whose routers can dedicate cheap SerDes to local links (FB paper
    /// §5.3: flattened butterfly, hypercube, torus, dragonfly); indirect topologies drive
    /// every link with a global SerDes.
    pub dedicated_serdes: bool,
    pub groups: Vec<ChannelGroup>,
    /// Free-form description of the configuration (e.g. `16-ary 3-flat`).
    pub config: String,
}

/// The cost of an [`Inventory`], in dollars.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct CostBreakdown {
    pub topology: String,
    pub nodes: u64,
    pub config: String,
    pub routers: f64,
    pub router_cost: f64,
    /// Processor ↔ router links.
    pub terminal_link_cost: f64,
    /// Router ↔ router backplane and short local cables.
    pub local_link_cost: f64,
    /// Router ↔ router global cables.
    pub global_link_cost: f64,
    pub total: f64,
    /// Router-to-router channels (unidirectional), all placements.
    pub network_channels: f64,
    /// Global cables (channels) and their average length without overhead (FB Fig. 10(b)).
    pub global_channels: f64,
    pub avg_global_cable_m: f64,
    /// Channels carried on optical cables (dragonfly pricing only).
    pub optical_channels: f64,
}

impl CostBreakdown {
    pub fn per_node(&self) -> f64 {
        self.total / self.nodes as f64
    }

    pub fn link_cost(&self) -> f64 {
        self.terminal_link_cost + self.local_link_cost + self.global_link_cost
    }

    /// Link cost / total cost (FB paper Fig. 10(a)).
    pub fn link_fraction(&self) -> f64 {
        self.link_cost() / self.total
    }
}

impl Inventory {
    /// Prices the inventory: routers at `router_cost × router_scale`, terminal and backplane
    /// channels per backplane signal, cables per `pricing` at their length plus overhead.
    pub fn cost(&self, tech: &Technology, pricing: &CablePricing) -> CostBreakdown {
        let router_cost = self.routers * tech.router_cost * self.router_scale;
        let (mut term, mut local, mut global) = (0.0, 0.0, 0.0);
        let (mut net, mut gch, mut glen, mut optical) = (0.0, 0.0, 0.0, 0.0);
        for g in &self.groups {
            let sig = g.signals(tech);
            match g.placement {
                Placement::Terminal => term += sig * tech.backplane_per_signal,
                Placement::Backplane => local += sig * tech.backplane_per_signal,
                Placement::LocalCable => local += sig * pricing.cable_per_signal(tech, g.total_length(tech)),
                Placement::Global => {
                    let len = g.total_length(tech);
                    global += sig * pricing.cable_per_signal(tech, len);
                    gch += g.channels;
                    glen += g.channels * g.cable_m;
                }
            }
            if g.placement != Placement::Terminal {
                net += g.channels;
                if g.placement != Placement::Backplane && pricing.is_optical(g.total_length(tech)) {
                    optical += g.channels;
                }
            }
        }
        CostBreakdown {
            topology: self.topology.clone(),
            nodes: self.nodes,
            config: self.config.clone(),
            routers: self.routers,
            router_cost,
            terminal_link_cost: term,
            local_link_cost: local,
            global_link_cost: global,
            total: router_cost + term + local + global,
            network_channels: net,
            global_channels: gch,
            avg_global_cable_m: if gch > 0.0 { glen / gch } else { 0.0 },
            optical_channels: optical,
        }
    }

    /// Channels per node with this placement (terminal channels included for
    /// [`Placement::Terminal`]).
    pub fn channels_per_node(&self, placement: Placement) -> f64 {
        self.groups.iter().filter(|g| g.placement == placement).map(|g| g.channels).sum::<f64>() / self.nodes as f64
    }

    /// Average cable length in metres (without the overhead) over the channels with any of
    /// these placements, weighted by channel count; 0 if there are none.
    pub fn mean_cable_m(&self, placements: &[Placement]) -> f64 {
        let chosen = || self.groups.iter().filter(|g| placements.contains(&g.placement));
        let channels: f64 = chosen().map(|g| g.channels).sum();
        if channels > 0.0 {
            chosen().map(|g| g.channels * g.cable_m).sum::<f64>() / channels
        } else {
            0.0
        }
    }

    /// Router-to-router channels (unidirectional).
    pub fn network_channels(&self) -> f64 {
        self.groups.iter().filter(|g| g.placement != Placement::Terminal).map(|g| g.channels).sum()
    }
}
