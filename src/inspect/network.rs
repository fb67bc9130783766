//! What the page needs to know about the network it draws, and the dragonfly's Fig. 9
//! window.

use serde::Serialize;

use crate::config::InjectionMode;
use crate::sim::Simulation;
use crate::stats::dragonfly::GlobalChannelUtilization;
use crate::topology::Topology;

/// The parameters of a family the page lays out and labels by.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(untagged)]
pub enum Shape {
    /// Terminals per router, routers per group, global channels per router, groups, slices
    /// (dragonfly paper §3.1).
    Dragonfly { p: u32, a: u32, h: u32, g: u32, slices: u32 },
    /// Routers per dimension `S`, trunking `K` and terminals per router `T` (HyperX paper §2).
    HyperX { dims: Vec<u32>, trunking: Vec<u32>, t: u32 },
    /// The other families (folded Clos, butterfly): nothing beyond the counts.
    Other {},
}

impl Shape {
    fn of(topo: &Topology) -> Self {
        if let Some(df) = topo.as_dragonfly() {
            Shape::Dragonfly { p: df.p, a: df.a, h: df.h, g: df.g, slices: df.slices }
        } else if let Some(hx) = topo.as_hyperx() {
            Shape::HyperX { dims: hx.s.clone(), trunking: hx.k.clone(), t: hx.t }
        } else {
            Shape::Other {}
        }
    }
}

/// The network a simulation runs: its topology (the config's `type` and its family),
/// sizes, what the page's counters need (packet size, terminal period, batch mode), how it
/// groups routers for drawing, and the family's shape.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct NetworkInfo {
    #[serde(rename = "type")]
    pub kind: String,
    pub family: crate::config::schema::Family,
    pub routers: u32,
    pub terminals: u32,
    /// Router-to-router channels drawn (a tapered dragonfly's removed ones do not exist).
    pub channels: u32,
    pub vcs: u32,
    pub depth: u32,
    pub packet_size: u32,
    pub terminal_period: u32,
    pub terminals_per_router: u32,
    /// Blocks the drawing groups routers into, and what a block is called.
    pub groups: u32,
    pub group_kind: &'static str,
    pub batch: bool,
    pub batch_size: u32,
    pub algorithm: String,
    /// Whether the engine allocates one router at a time (its parallel mode is off).
    pub sequential: bool,
    #[serde(flatten)]
    pub shape: Shape,
}

impl NetworkInfo {
    pub fn of(sim: &Simulation) -> Self {
        let (net, topo, cfg) = (sim.network(), sim.topology(), sim.config());
        let (blocks, group_kind) = topo.drawing_blocks();
        NetworkInfo {
            kind: cfg.topology.type_name().to_string(),
            family: topo.family(),
            routers: net.routers() as u32,
            terminals: net.terminals() as u32,
            channels: sim.router_channels().count() as u32,
            vcs: sim.vcs(),
            depth: sim.buffer_depth(),
            packet_size: cfg.traffic.packet_size,
            terminal_period: cfg.router.terminal_period,
            terminals_per_router: topo.terminals_per_router(),
            groups: blocks.iter().max().map_or(1, |&b| b + 1),
            group_kind,
            batch: cfg.traffic.injection == InjectionMode::Batch,
            batch_size: cfg.traffic.batch_size,
            algorithm: cfg.routing.algorithm.clone(),
            sequential: sim.sequential_allocation(),
            shape: Shape::of(topo),
        }
    }
}

/// Dragonfly paper Fig. 9 over a window of the page's run: the global channels'
/// utilization by class, and the window's length in cycles.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Fig9Window {
    #[serde(flatten)]
    pub utilization: GlobalChannelUtilization,
    pub cycles: u64,
}
