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
//! - The flattened butterfly is the one §5 describes ([`dragonfly_paper_fb`]): up to 1K
//!   the 1-D flattened butterfly the dragonfly is identical to; beyond, `p = 16` terminals
//!   per router and dimensions of 16 routers, as many as `N` needs. The folded Clos is that
//!   of [`super::fb`], repriced.
//! - 3-D torus: `k = ⌈N^(1/3)⌉`, one node per router, channels `k/8` wide so that
//!   uniform-random capacity matches the others (the torus channel load is `k/8`), folded
//!   so that neighbours are at most two cabinets apart (cable `2 × 0.57 m`); a cabinet
//!   holds an 8 × 4 × 4 block, so `1/8`, `1/4`, `1/4` of the x, y, z channels leave it.
//!   Router cost scaled by pin count, as for the hypercube.

use super::cables::{CablePricing, Technology};
use super::fb::{flattened_butterfly, flattened_butterfly_with, folded_clos, int_root_ceil};
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
    pub const ALL: [DfPaperTopology; 4] = [
        DfPaperTopology::Dragonfly,
        DfPaperTopology::FlattenedButterfly,
        DfPaperTopology::FoldedClos,
        DfPaperTopology::Torus3D,
    ];

    pub fn name(self) -> &'static str {
        match self {
            DfPaperTopology::Dragonfly => "dragonfly",
            DfPaperTopology::FlattenedButterfly => "flattened butterfly",
            DfPaperTopology::FoldedClos => "folded Clos",
            DfPaperTopology::Torus3D => "3-D torus",
        }
    }

    /// The network of Fig. 19. Beyond the largest [`dragonfly_paper_fb`] (64K at radix 64)
    /// the flattened butterfly falls back to the FB paper's design ([`flattened_butterfly`]).
    pub fn inventory(self, tech: &Technology, nodes: u64) -> Inventory {
        match self {
            DfPaperTopology::Dragonfly => dragonfly(tech, nodes),
            DfPaperTopology::FlattenedButterfly => {
                dragonfly_paper_fb(tech, nodes).unwrap_or_else(|| flattened_butterfly(tech, nodes))
            }
            DfPaperTopology::FoldedClos => folded_clos(tech, nodes),
            DfPaperTopology::Torus3D => torus3d(tech, nodes),
        }
    }
}

/// Where a dragonfly group's local (intra-group) channels run.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum GroupPackaging {
    /// The model's packaging: the group's `ap` nodes (512 at radix 64) fill FB-paper cabinets
    /// of 128 nodes (Table 3) side by side, beyond the "pair of adjacent cabinets" the FB
    /// paper wires on a backplane (§4.3), so its local channels are short cables of average
    /// length `E_group/3`, `E_group = √(ap/D)`.
    CabinetRow,
    /// Sensitivity only: the whole group on one backplane, as if it were a single packaging
    /// unit. The dragonfly paper does not size its cabinets; `docs/cost.md` reports what this
    /// would change.
    OneBackplane,
}

/// The dragonfly of §5 for `N` nodes with radix-`tech.router_radix` routers (radix 64:
/// `p = h = 16`, `a = 32`, the 1-D flattened butterfly up to 1K; [`group_params`] and
/// [`dragonfly_flat_limit`] for other radices). Beyond [`dragonfly_max_nodes`] the groups
/// cannot all be connected pairwise; the inventory is then that of an unbuildable network.
pub fn dragonfly(tech: &Technology, nodes: u64) -> Inventory {
    dragonfly_packaged(tech, nodes, GroupPackaging::CabinetRow)
}

/// [`dragonfly`] with its groups packaged as `packaging` says.
pub fn dragonfly_packaged(tech: &Technology, nodes: u64, packaging: GroupPackaging) -> Inventory {
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
    let n = nodes as f64;
    let local_channels = (routers * (df_a - 1)) as f64;
    let local = match packaging {
        GroupPackaging::CabinetRow => ChannelGroup::new(
            "local (intra-group)",
            Placement::LocalCable,
            local_channels,
            1.0,
            tech.edge_length(group_nodes) / 3.0,
        ),
        GroupPackaging::OneBackplane => {
            ChannelGroup::new("local (intra-group)", Placement::Backplane, local_channels, 1.0, 0.0)
        }
    };
    let inv_groups = vec![
        ChannelGroup::new("terminal", Placement::Terminal, 2.0 * n, 1.0, 0.0),
        local,
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

/// Dimensions `n'` of the flattened butterfly of §5 beyond the 1-D range: `p` terminals per
/// router and `p` routers per dimension (`p` of [`group_params`]), the smallest `n'` with
/// `p^(n'+1) ≥ N`, if its `p + n'(p − 1)` ports fit radix-`R` routers (up to `n' = 3`,
/// 64K nodes, at radix 64).
pub fn dragonfly_paper_fb_dimensions(radix: u32, nodes: u64) -> Option<u32> {
    let (p, _, _) = group_params(radix);
    let fits = |np: u32| p + np as u64 * (p - 1) <= radix as u64;
    (1..radix).take_while(|&np| fits(np)).find(|&np| p.checked_pow(np + 1).is_none_or(|cap| cap >= nodes))
}

/// The flattened butterfly the dragonfly paper compares with (§5). Up to
/// [`dragonfly_flat_limit`] (1K at radix 64) the 1-D flattened butterfly, which the
/// dragonfly is identical to ("all routers are fully connected and the dragonfly is
/// identical to a 1-D flattened butterfly – thus, the cost of the two networks are
/// identical"). Beyond, a `p`-ary flattened butterfly with the dragonfly's concentration:
/// "the group size of the dragonfly is 16 routers (256 terminals) and this is also the size
/// of each dimension of the flattened butterfly", at 64K "the flattened butterfly requires
/// two additional dimensions, each of size 16" (Fig. 18), and in Fig. 19 "the group size
/// \[512\] is twice as large as the dimension size for the flattened butterfly" — 16 routers
/// of 16 terminals. As many dimensions as `N` needs ([`dragonfly_paper_fb_dimensions`]),
/// the top one partially populated with parallel links up to the uniform-traffic bandwidth
/// ("both topologies provide the same amount of global bisection bandwidth"), packaged and
/// cabled as in [`super::fb::flat_inventory`]. `None` where it does not fit the routers.
///
/// At radix 64 this is the FB paper's own choice ([`flattened_butterfly`]) at 2K, 4K and
/// 16K–64K; they differ only at 8K (16 × 16 × 2 routers of 16 terminals here, 21 × 19 of 21
/// there).
pub fn dragonfly_paper_fb(tech: &Technology, nodes: u64) -> Option<Inventory> {
    if nodes <= dragonfly_flat_limit(tech.router_radix) {
        return Some(flattened_butterfly(tech, nodes));
    }
    let (p, _, _) = group_params(tech.router_radix);
    let n_prime = dragonfly_paper_fb_dimensions(tech.router_radix, nodes)?;
    flattened_butterfly_with(tech, nodes, n_prime, p)
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

/// A dragonfly of the simulator's form (p, a, h, g) whose groups are the flattened
/// butterfly `intra` (empty: fully connected; §3.2, Fig. 6) with `trunking` parallel
/// channels between neighbours per dimension (one value for all, or one per dimension;
/// empty: one; Fig. 6(a)), packaged as a cabinet row per group: every router has
/// `Σ k_d·(e_d − 1)` local channels (`a − 1` fully connected, untrunked) on short cables,
/// and `h` global ones; `slices` such networks in parallel (channel slicing, §3.2), each
/// node with a terminal channel into every one.
#[allow(clippy::too_many_arguments)]
pub fn dragonfly_groups(
    tech: &Technology,
    p: u32,
    a: u32,
    h: u32,
    g: u32,
    intra: &[u32],
    trunking: &[u32],
    slices: u32,
) -> Inventory {
    let nodes = a as u64 * g as u64 * p as u64;
    let routers = a as u64 * g as u64 * slices as u64;
    let extents = if intra.is_empty() { vec![a] } else { intra.to_vec() };
    let trunk = |d: usize| trunking.get(d).or(trunking.first()).copied().unwrap_or(1);
    let local_ports: u32 = extents.iter().enumerate().map(|(d, e)| (e - 1) * trunk(d)).sum();
    let group_nodes = a as u64 * p as u64;
    let groups = vec![
        ChannelGroup::new("terminal", Placement::Terminal, 2.0 * (nodes * slices as u64) as f64, 1.0, 0.0),
        ChannelGroup::new(
            "local (intra-group)",
            Placement::LocalCable,
            (routers * local_ports as u64) as f64,
            1.0,
            tech.edge_length(group_nodes) / 3.0,
        ),
        ChannelGroup::new(
            "global",
            Placement::Global,
            (routers * h as u64) as f64,
            1.0,
            2.0 * tech.edge_length(nodes) / 3.0,
        ),
    ];
    let mut shape = if intra.is_empty() {
        "fully connected".to_string()
    } else {
        intra.iter().map(|e| e.to_string()).collect::<Vec<_>>().join("×")
    };
    if trunking.iter().any(|&k| k > 1) {
        shape += &format!(", trunking {trunking:?}");
    }
    if slices > 1 {
        shape += &format!(", {slices} slices");
    }
    Inventory {
        topology: "dragonfly".into(),
        nodes,
        routers: routers as f64,
        router_scale: 1.0,
        dedicated_serdes: true,
        groups,
        config: format!("p = {p}, a = {a}, h = {h}, g = {g}, groups {shape}"),
    }
}

/// Fig. 19: cost of every topology at every size under the dragonfly paper's pricing.
pub fn fig19(tech: &Technology, sizes: &[u64]) -> Vec<DfCostPoint> {
    let pricing = CablePricing::dragonfly(tech);
    sizes
        .iter()
        .flat_map(|&n| {
            DfPaperTopology::ALL.into_iter().map(move |t| DfCostPoint {
                nodes: n,
                topology: t,
                cost: t.inventory(tech, n).cost(tech, &pricing),
            })
        })
        .collect()
}

/// Cost reduction of the dragonfly relative to `other` at `nodes` (fraction).
pub fn dragonfly_reduction(tech: &Technology, nodes: u64, other: DfPaperTopology) -> f64 {
    dragonfly_reduction_packaged(tech, nodes, other, GroupPackaging::CabinetRow)
}

/// [`dragonfly_reduction`] with the dragonfly's groups packaged as `packaging` says.
pub fn dragonfly_reduction_packaged(
    tech: &Technology,
    nodes: u64,
    other: DfPaperTopology,
    packaging: GroupPackaging,
) -> f64 {
    let pricing = CablePricing::dragonfly(tech);
    let df = dragonfly_packaged(tech, nodes, packaging).cost(tech, &pricing).per_node();
    let o = other.inventory(tech, nodes).cost(tech, &pricing).per_node();
    1.0 - df / o
}

/// The dragonfly and the flattened butterfly of Fig. 19 at one size, channel class by
/// channel class (per node): what decides their cost difference (`docs/cost.md`).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct DfFbChannels {
    pub nodes: u64,
    /// Routers per node (the dragonfly's and the flattened butterfly's).
    pub df_routers: f64,
    pub fb_routers: f64,
    /// Dragonfly intra-group channels (short cables) and global channels, average global
    /// cable (m, without overhead).
    pub df_local: f64,
    pub df_global: f64,
    pub df_global_m: f64,
    /// Flattened butterfly channels on the backplane and on (global) cables, average cable.
    pub fb_backplane: f64,
    pub fb_global: f64,
    pub fb_global_m: f64,
    /// Average length of every cable, local and global (§5's "average cable length").
    pub df_mean_cable_m: f64,
    pub fb_mean_cable_m: f64,
}

impl DfFbChannels {
    pub fn new(tech: &Technology, nodes: u64) -> Self {
        let df = dragonfly(tech, nodes);
        let fb = DfPaperTopology::FlattenedButterfly.inventory(tech, nodes);
        let cables = [Placement::LocalCable, Placement::Global];
        DfFbChannels {
            nodes,
            df_routers: df.routers / nodes as f64,
            fb_routers: fb.routers / nodes as f64,
            df_local: df.channels_per_node(Placement::LocalCable) + df.channels_per_node(Placement::Backplane),
            df_global: df.channels_per_node(Placement::Global),
            df_global_m: df.mean_cable_m(&[Placement::Global]),
            fb_backplane: fb.channels_per_node(Placement::Backplane) + fb.channels_per_node(Placement::LocalCable),
            fb_global: fb.channels_per_node(Placement::Global),
            fb_global_m: fb.mean_cable_m(&[Placement::Global]),
            df_mean_cable_m: df.mean_cable_m(&cables),
            fb_mean_cable_m: fb.mean_cable_m(&cables),
        }
    }

    /// Whether the dragonfly has at least the flattened butterfly's routers, at least its
    /// global channels on cables at least as long, and at least as many local channels as
    /// the flattened butterfly has backplane ones: then it costs more under *any* pricing
    /// whose cables cost more with length and never less than a backplane channel (Table 2:
    /// the cheapest cable, $3.72 per signal, is dearer than a backplane's $1.95).
    pub fn dragonfly_dearer_under_any_pricing(&self) -> bool {
        self.df_routers >= self.fb_routers
            && self.df_global >= self.fb_global
            && self.df_global_m >= self.fb_global_m
            && self.df_local >= self.fb_backplane
    }
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
        Table2Row {
            topology: "flattened butterfly",
            minimal: (1, 2),
            nonminimal: (2, 4),
            avg_cable_e: 1.0 / 3.0,
            max_cable_e: 1.0,
        },
        Table2Row {
            topology: "dragonfly",
            minimal: (2, 1),
            nonminimal: (3, 2),
            avg_cable_e: 2.0 / 3.0,
            max_cable_e: 2.0,
        },
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
