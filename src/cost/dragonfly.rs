//! Cost model of the dragonfly paper (Kim, Dally, Scott, Abts, ISCA 2008), §2 and §5:
//! Fig. 19 (cost per node of dragonfly, flattened butterfly, folded Clos and 3-D torus
//! vs N, radix-64 routers, electrical cables below 8 m and active optical cables above)
//! and Table 2 (diameters and cable lengths). Fig. 2 is in [`super::cables`].
//!
//! Modelling choices (see `docs/cost.md`):
//! - Up to 1K nodes the dragonfly *is* the 1-D flattened butterfly (§5: "all routers are
//!   fully connected and the dragonfly is identical to a 1-D flattened butterfly").
//! - Beyond, groups of 512 nodes (§5): `p = h = 16`, `a = 32` (`k = p + a − 1 + h = 63`),
//!   `⌈N/512⌉` groups; all global ports are cabled (extra links between group pairs when
//!   `g < ah + 1`). A group is four cabinets side by side: its local channels are short
//!   cables of average length `E_group/3` (`E_group = √(512/D)`), driven as local links.
//!   Global cables average `2E/3` (Table 2).
//! - The flattened butterfly and folded Clos are those of [`super::fb`], repriced.
//! - 3-D torus: `k = ⌈N^(1/3)⌉`, one node per router, channels `k/8` wide so that
//!   uniform-random capacity matches the others (the torus channel load is `k/8`), folded
//!   so that neighbours are at most two cabinets apart (cable `2 × 0.57 m`); a cabinet
//!   holds an 8 × 4 × 4 block, so `1/8`, `1/4`, `1/4` of the x, y, z channels leave it.
//!   Router cost scaled by pin count, as for the hypercube.

use super::cables::{CablePricing, Technology};
use super::fb::{flattened_butterfly, folded_clos, int_root_ceil};
use super::inventory::{ChannelGroup, CostBreakdown, Inventory, Placement};
use serde::Serialize;

/// Dragonfly group parameters of §5 for radix-64 routers.
pub const DF_P: u64 = 16;
pub const DF_A: u64 = 32;
pub const DF_H: u64 = 16;

/// The §5 group for radix-`R` routers, `(p, a, h)`: the balanced `a = 2p = 2h` of §3.1
/// with `k = p + a − 1 + h ≤ R`, i.e. `p = h = ⌊R/4⌋` (16, 32, 16 at radix 64).
pub fn group_params(radix: u32) -> (u64, u64, u64) {
    let p = (radix / 4).max(1) as u64;
    (p, 2 * p, p)
}

/// Largest network the dragonfly of [`dragonfly`] reaches with radix-`R` routers: one
/// global channel between every pair of groups, `g ≤ ah + 1` (§3.1); 262 656 nodes at
/// radix 64.
pub fn dragonfly_max_nodes(radix: u32) -> u64 {
    let (p, a, h) = group_params(radix);
    (a * h + 1) * a * p
}

/// Up to this size (`⌊R/2⌋²`, 1K at radix 64) the dragonfly is the 1-D flattened
/// butterfly (§5).
pub fn dragonfly_flat_limit(radix: u32) -> u64 {
    let half = (radix / 2) as u64;
    half * half
}

/// The topologies of Fig. 19.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum DfPaperTopology {
    Dragonfly,
    FlattenedButterfly,
    FoldedClos,
    Torus3D,
}

impl DfPaperTopology {
    pub const ALL: [DfPaperTopology; 4] =
        [DfPaperTopology::Dragonfly, DfPaperTopology::FlattenedButterfly, DfPaperTopology::FoldedClos, DfPaperTopology::Torus3D];

    pub fn name(self) -> &'static str {
        match self {
            DfPaperTopology::Dragonfly => "dragonfly",
            DfPaperTopology::FlattenedButterfly => "flattened butterfly",
            DfPaperTopology::FoldedClos => "folded Clos",
            DfPaperTopology::Torus3D => "3-D torus",
        }
    }

    pub fn inventory(self, tech: &Technology, nodes: u64) -> Inventory {
        match self {
            DfPaperTopology::Dragonfly => dragonfly(tech, nodes),
            DfPaperTopology::FlattenedButterfly => flattened_butterfly(tech, nodes),
            DfPaperTopology::FoldedClos => folded_clos(tech, nodes),
            DfPaperTopology::Torus3D => torus3d(tech, nodes),
        }
    }
}

/// The dragonfly of §5 for `N` nodes with radix-`tech.router_radix` routers (radix 64:
/// `p = h = 16`, `a = 32`, the 1-D flattened butterfly up to 1K; [`group_params`] and
/// [`dragonfly_flat_limit`] for other radices). Beyond [`dragonfly_max_nodes`] the groups
/// cannot all be connected pairwise; the inventory is then that of an unbuildable network.
pub fn dragonfly(tech: &Technology, nodes: u64) -> Inventory {
    let (df_p, df_a, df_h) = group_params(tech.router_radix);
    if nodes <= dragonfly_flat_limit(tech.router_radix) {
        let mut inv = flattened_butterfly(tech, nodes);
        inv.topology = "dragonfly".into();
        inv.config = format!("1-D flattened butterfly ({})", inv.config);
        return inv;
    }
    let group_nodes = df_a * df_p;
    let groups = nodes.div_ceil(group_nodes);
    let routers = groups * df_a;
    let e = tech.edge_length(nodes);
    let e_group = tech.edge_length(group_nodes);
    let n = nodes as f64;
    let inv_groups = vec![
        ChannelGroup::new("terminal", Placement::Terminal, 2.0 * n, 1.0, 0.0),
        ChannelGroup::new("local (intra-group)", Placement::LocalCable, (routers * (df_a - 1)) as f64, 1.0, e_group / 3.0),
        ChannelGroup::new("global", Placement::Global, (routers * df_h) as f64, 1.0, 2.0 * e / 3.0),
    ];
    Inventory {
        topology: "dragonfly".into(),
        nodes,
        routers: routers as f64,
        router_scale: 1.0,
        dedicated_serdes: true,
        groups: inv_groups,
        config: format!("p = {df_p}, a = {df_a}, h = {df_h}, g = {groups}"),
    }
}

/// The 3-D torus of Fig. 19 (see the module docs).
pub fn torus3d(tech: &Technology, nodes: u64) -> Inventory {
    let k = int_root_ceil(nodes, 3).max(2);
    let width = k as f64 / 8.0;
    let n = nodes as f64;
    // Fraction of a dimension's channels that leave an 8 × 4 × 4 cabinet block.
    let leave = |block: u64| if k <= block { 0.0 } else { 1.0 / block as f64 };
    let global_frac = (leave(8) + leave(4) + leave(4)) / 3.0;
    let channels = 6.0 * n;
    let cabinet_width = 0.57;
    let groups = vec![
        ChannelGroup::new("terminal", Placement::Terminal, 2.0 * n, 1.0, 0.0),
        ChannelGroup::new("in-cabinet", Placement::Backplane, channels * (1.0 - global_frac), width, 0.0),
        ChannelGroup::new("between cabinets", Placement::Global, channels * global_frac, width, 2.0 * cabinet_width),
    ];
    Inventory {
        topology: "3-D torus".into(),
        nodes,
        routers: n,
        router_scale: (1.0 + 6.0 * width) / tech.router_radix as f64,
        dedicated_serdes: true,
        groups,
        config: format!("{k}-ary 3-cube, channels ×{width:.2}"),
    }
}

/// One point of Fig. 19.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct DfCostPoint {
    pub nodes: u64,
    pub topology: DfPaperTopology,
    pub cost: CostBreakdown,
}

/// Fig. 19: cost of every topology at every size under the dragonfly paper's pricing.
pub fn fig19(tech: &Technology, sizes: &[u64]) -> Vec<DfCostPoint> {
    let pricing = CablePricing::dragonfly(tech);
    sizes
        .iter()
        .flat_map(|&n| {
            DfPaperTopology::ALL.into_iter().map(move |t| DfCostPoint { nodes: n, topology: t, cost: t.inventory(tech, n).cost(tech, &pricing) })
        })
        .collect()
}

/// Cost reduction of the dragonfly relative to `other` at `nodes` (fraction).
pub fn dragonfly_reduction(tech: &Technology, nodes: u64, other: DfPaperTopology) -> f64 {
    let pricing = CablePricing::dragonfly(tech);
    let df = dragonfly(tech, nodes).cost(tech, &pricing).per_node();
    let o = other.inventory(tech, nodes).cost(tech, &pricing).per_node();
    1.0 - df / o
}

/// One row of the dragonfly paper's Table 2. Hops: `local` = `hl`, `global` = `hg`; cable
/// lengths in units of `E`, the edge of the system layout.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Table2Row {
    pub topology: &'static str,
    /// Minimal-route diameter: (local hops, global hops).
    pub minimal: (u32, u32),
    /// Non-minimal (Valiant) diameter.
    pub nonminimal: (u32, u32),
    /// Average and maximum global cable length / E.
    pub avg_cable_e: f64,
    pub max_cable_e: f64,
}

/// Table 2 for a 3-D (`n' = 3`) flattened butterfly whose first dimension is local, and a
/// dragonfly with a fully connected group, as in the paper's 64K comparison (Fig. 18).
///
/// The flattened butterfly crosses at most one local and two global dimensions minimally
/// (`hl + 2hg`) and twice that with Valiant routing; the dragonfly takes local–global–local
/// minimally and local–global–local–global–local non-minimally (the paper prints
/// `3hl + 2hg`). Cable lengths: `E/3` average, `E` maximum for the flattened butterfly
/// (§4.2 of the FB paper); `2E/3` and `2E` for the dragonfly, whose global cables span
/// both axes of the layout (`√2·E` if cabled diagonally).
pub fn table2() -> [Table2Row; 2] {
    [
        Table2Row { topology: "flattened butterfly", minimal: (1, 2), nonminimal: (2, 4), avg_cable_e: 1.0 / 3.0, max_cable_e: 1.0 },
        Table2Row { topology: "dragonfly", minimal: (2, 1), nonminimal: (3, 2), avg_cable_e: 2.0 / 3.0, max_cable_e: 2.0 },
    ]
}

/// Average Manhattan distance between two uniformly random points of a `w × w` square,
/// by exact summation on a `grid × grid` lattice (checks Table 2's `2E/3`).
pub fn mean_manhattan_on_square(w: f64, grid: u64) -> f64 {
    // E|X − Y| for X, Y uniform on {0..grid−1}·w/(grid−1), per axis, times two axes.
    let g = grid as f64;
    let mut sum = 0.0;
    for d in 1..grid {
        sum += 2.0 * (g - d as f64) * d as f64;
    }
    2.0 * sum / (g * g) * w / (g - 1.0)
}
