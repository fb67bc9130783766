//! Cost model of the flattened butterfly paper (Kim, Dally, Abts, ISCA 2007), §4–§5.1:
//! the conventional butterfly, folded Clos, hypercube and flattened butterfly built from
//! radix-64 routers, packaged per §4.2, priced per Table 2, compared "while holding the
//! random bisection bandwidth constant" (every network sustains 1 flit/cycle/node of
//! uniform-random traffic).
//!
//! Modelling choices where the paper leaves room (all documented in `docs/cost.md`):
//! - Channels are unidirectional, `Technology::signals_per_channel` (3) signals each.
//!   Terminal links are two channels on the cabinet backplane.
//! - Cable lengths (§4.2): `E = √(N/D)`; average global cable `E/3` for the butterfly and
//!   flattened butterfly, `E/4` for the folded Clos (all its router-to-router links run to
//!   a central router cabinet), `(E − 1)/log2 E` for the hypercube; plus 2 m overhead.
//! - Flattened butterfly: `n'` is the smallest with `⌊64/(n'+1)⌋^(n'+1) ≥ N` and the
//!   routers have up to `k = ⌊64/(n'+1)⌋` terminals (§5.1.2; e.g. `k' = 63` up to 1K, `k' = 61`
//!   up to 64K, the 16-ary packaging of Fig. 8) — or fewer, down to `⌈N^(1/(n'+1))⌉`,
//!   whichever is cheapest (e.g. the 16-ary 3-flat of Table 4 at 4K) — and extent `k` in
//!   every dimension but the last, which holds the remaining routers (partially populated, "up to 16 of these
//!   subsystems can be combined in dimension 3", §4.2); its spare router ports carry
//!   parallel links (Fig. 14(a)) up to `⌈k/S⌉`, the number that keeps the uniform-random
//!   bandwidth. A dimension whose subsystem
//!   (`k × S1 × … × Sd` nodes) fits in two adjacent cabinets is on the backplane ("dimension
//!   1 connections are contained within a pair of adjacent cabinets", §4.3); others are
//!   global cables of average length `E/3`.
//! - Hypercube: one node per router; at constant random bisection its channels are half
//!   width (uniform traffic loads a hypercube channel at ½); the router cost and power are
//!   scaled by pin count (footnote 10); the first `log2 128` dimensions stay in the cabinet.
//! - Folded Clos: full bandwidth, `⌈log_32 N⌉` levels (§4.3: 1K → 2K adds a stage), leaf
//!   routers in the node cabinets, `N/32` routers per level and `N/64` at the top.
//! - Butterfly: 64 × 64 routers, `⌈log_64 N⌉` stages, one channel per node per inter-stage
//!   level, all global.

use super::cables::{CablePricing, Technology};
use super::inventory::{ChannelGroup, CostBreakdown, Inventory, Placement};
use serde::Serialize;

/// The four topologies of FB paper Fig. 11 (and the 3-D torus / dragonfly of the
/// dragonfly paper, see [`super::dragonfly`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum FbPaperTopology {
    Butterfly,
    FoldedClos,
    Hypercube,
    FlattenedButterfly,
}

impl FbPaperTopology {
    pub const ALL: [FbPaperTopology; 4] = [
        FbPaperTopology::Butterfly,
        FbPaperTopology::FoldedClos,
        FbPaperTopology::Hypercube,
        FbPaperTopology::FlattenedButterfly,
    ];

    pub fn name(self) -> &'static str {
        match self {
            FbPaperTopology::Butterfly => "butterfly",
            FbPaperTopology::FoldedClos => "folded Clos",
            FbPaperTopology::Hypercube => "hypercube",
            FbPaperTopology::FlattenedButterfly => "flattened butterfly",
        }
    }

    pub fn inventory(self, tech: &Technology, nodes: u64) -> Inventory {
        match self {
            FbPaperTopology::Butterfly => butterfly(tech, nodes),
            FbPaperTopology::FoldedClos => folded_clos(tech, nodes),
            FbPaperTopology::Hypercube => hypercube(tech, nodes),
            FbPaperTopology::FlattenedButterfly => flattened_butterfly(tech, nodes),
        }
    }
}

fn ceil_log(n: u64, base: u64) -> u32 {
    let mut l = 0;
    let mut cap = 1u64;
    while cap < n {
        cap = cap.saturating_mul(base);
        l += 1;
    }
    l
}

/// Smallest integer `k ≥ 1` with `k^e ≥ n`.
pub fn int_root_ceil(n: u64, e: u32) -> u64 {
    if e == 0 {
        return n;
    }
    let mut k = ((n as f64).powf(1.0 / e as f64).round() as u64).max(1);
    while k > 1 && (k - 1).checked_pow(e).is_none_or(|v| v >= n) {
        k -= 1;
    }
    while k.checked_pow(e).is_some_and(|v| v < n) {
        k += 1;
    }
    k
}

/// §5.1.2: the smallest `n'` with `⌊k/(n'+1)⌋^(n'+1) ≥ N` for radix-`radix` routers, and
/// the resulting effective radix `k' = (⌊k/(n'+1)⌋ − 1)(n'+1) + 1`. `None` if no `n'`
/// reaches `N`.
pub fn fb_dimension_for_radix(radix: u32, nodes: u64) -> Option<(u32, u32)> {
    for np in 0..radix {
        let per = (radix / (np + 1)) as u64;
        if per < 2 && np > 0 {
            return None;
        }
        if per.checked_pow(np + 1).is_none_or(|v| v >= nodes) {
            let k_eff = (per as u32 - 1) * (np + 1) + 1;
            return Some((np, k_eff));
        }
    }
    None
}

/// One row of FB paper Table 4: a `k`-ary `n`-flat and its router radix `k' = n(k−1)+1`
/// and dimension `n' = n − 1`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct FlatConfig {
    pub k: u64,
    pub n: u32,
    pub k_prime: u64,
    pub n_prime: u32,
}

impl FlatConfig {
    pub fn new(k: u64, n: u32) -> Self {
        FlatConfig { k, n, k_prime: n as u64 * (k - 1) + 1, n_prime: n - 1 }
    }
}

/// Table 4: every `k`-ary `n`-flat with `k^n = N` and `n ≥ 2`, by increasing `n`. For
/// `N = 4096`: 64-ary 2-flat … 2-ary 12-flat.
///
/// The paper prints `k' = 12` for the 2-ary 12-flat; `n(k−1)+1` gives 13 (2 terminal ports
/// plus 11 network ports), which we take to be a misprint.
pub fn table4(nodes: u64) -> Vec<FlatConfig> {
    (2..64)
        .filter_map(|n| {
            let k = int_root_ceil(nodes, n);
            (k >= 2 && k.checked_pow(n) == Some(nodes)).then(|| FlatConfig::new(k, n))
        })
        .collect()
}

/// Table 4 as printed: `(k, n, k', n')`.
pub const TABLE4_PUBLISHED: [(u64, u32, u64, u32); 5] =
    [(64, 2, 127, 1), (16, 3, 46, 2), (8, 4, 29, 3), (4, 6, 19, 5), (2, 12, 12, 11)];

/// Cabinets a subsystem of `nodes` may span and still be wired on the backplane / very
/// short links (§4.3: "a pair of adjacent cabinets").
const LOCAL_CABINETS: u64 = 2;

/// A HyperX-shaped flattened butterfly: `terminals` per router, extents `shape`, `trunk`
/// parallel links per dimension. Dimensions whose subsystem fits in two cabinets are on the
/// backplane; the others are global cables of average length `E/3` (§4.2).
pub fn flat_inventory(
    tech: &Technology,
    nodes: u64,
    terminals: u64,
    shape: &[u64],
    trunk: &[u64],
    name: &str,
    config: String,
) -> Inventory {
    let routers: u64 = shape.iter().product();
    let e = tech.edge_length(nodes);
    let mut groups = vec![ChannelGroup::new("terminal", Placement::Terminal, 2.0 * nodes as f64, 1.0, 0.0)];
    let mut subsystem = terminals;
    for (d, (&s, &kd)) in shape.iter().zip(trunk).enumerate() {
        subsystem = subsystem.saturating_mul(s);
        let channels = (routers * kd * (s - 1)) as f64;
        let local = subsystem <= LOCAL_CABINETS * tech.nodes_per_cabinet;
        let (placement, len) = if local { (Placement::Backplane, 0.0) } else { (Placement::Global, e / 3.0) };
        groups.push(ChannelGroup::new(format!("dimension {}", d + 1), placement, channels, 1.0, len));
    }
    Inventory {
        topology: name.into(),
        nodes,
        routers: routers as f64,
        router_scale: 1.0,
        dedicated_serdes: true,
        groups,
        config,
    }
}

/// A flattened butterfly of dimension `n'` with `k` terminals per router and extent `k` in
/// every dimension but the top one, which holds the remaining routers (partially
/// populated); its spare ports carry parallel links (Fig. 14(a)) up to the `⌈k/S⌉` that
/// keeps the uniform-random bandwidth. `None` if it does not fit radix-`R` routers.
pub fn flattened_butterfly_with(tech: &Technology, nodes: u64, n_prime: u32, k: u64) -> Option<Inventory> {
    let radix = tech.router_radix as u64;
    if n_prime == 0 {
        return (nodes <= radix)
            .then(|| flat_inventory(tech, nodes, nodes, &[1], &[1], "flattened butterfly", "1 router".into()));
    }
    let inner = k.checked_pow(n_prime - 1)?;
    let top = nodes.div_ceil(k).div_ceil(inner).max(2);
    if top > k {
        return None;
    }
    let mut shape = vec![k; n_prime as usize - 1];
    shape.push(top);
    let spare = radix.checked_sub(k + (n_prime as u64 - 1) * (k - 1))?;
    let trunk_top = k.div_ceil(top).min(spare / (top - 1));
    if trunk_top == 0 {
        return None;
    }
    let mut trunk = vec![1; n_prime as usize - 1];
    trunk.push(trunk_top);
    let config = if top == k && trunk_top == 1 {
        format!("{k}-ary {}-flat", n_prime + 1)
    } else {
        let dims: Vec<String> = shape.iter().map(|s| s.to_string()).collect();
        format!("{k}/router, S = ({}), top ×{trunk_top}", dims.join(", "))
    };
    Some(flat_inventory(tech, nodes, k, &shape, &trunk, "flattened butterfly", config))
}

/// The flattened butterfly for `N` nodes with radix-64 routers (module docs): the `n'` of
/// §5.1.2, and among the `k` from `⌈N^(1/(n'+1))⌉` (fewest terminals per router) to
/// `⌊R/(n'+1)⌋` (§5.1.2's value) the cheapest under the FB paper's pricing — a designer
/// would build that one; it is the 16-ary 3-flat of Table 4 at 4K and the 16-ary
/// packaging of Fig. 8 at 16K–64K.
pub fn flattened_butterfly(tech: &Technology, nodes: u64) -> Inventory {
    let (np, _) = fb_dimension_for_radix(tech.router_radix, nodes).unwrap_or((1, 0));
    if np == 0 {
        return flattened_butterfly_with(tech, nodes, 0, nodes).expect("fits one router");
    }
    let pricing = CablePricing::ElectricalWithRepeaters;
    let lo = int_root_ceil(nodes, np + 1);
    let hi = (tech.router_radix / (np + 1)) as u64;
    (lo..=hi.max(lo))
        .filter_map(|k| flattened_butterfly_with(tech, nodes, np, k))
        .min_by(|a, b| a.cost(tech, &pricing).total.total_cmp(&b.cost(tech, &pricing).total))
        .expect("the k of §5.1.2 always fits")
}

/// The folded Clos with radix-64 routers at full bandwidth.
pub fn folded_clos(tech: &Technology, nodes: u64) -> Inventory {
    let r = tech.router_radix as u64;
    let half = r / 2;
    let n = nodes as f64;
    let mut groups = vec![ChannelGroup::new("terminal", Placement::Terminal, 2.0 * n, 1.0, 0.0)];
    if nodes <= r {
        return Inventory {
            topology: "folded Clos".into(),
            nodes,
            routers: 1.0,
            router_scale: 1.0,
            dedicated_serdes: false,
            groups,
            config: "1 level".into(),
        };
    }
    // §4.3: "increasing the network size from 1K to 2K nodes with radix-64 routers requires
    // adding an additional stage": L levels serve (R/2)^L nodes in the paper's model.
    let levels = ceil_log(nodes, half).max(2);
    let leaves = nodes.div_ceil(half);
    let routers = (levels as u64 - 1) * leaves + nodes.div_ceil(r);
    let e = tech.edge_length(nodes);
    for l in 1..levels {
        groups.push(ChannelGroup::new(format!("level {l} ↔ {}", l + 1), Placement::Global, 2.0 * n, 1.0, e / 4.0));
    }
    Inventory {
        topology: "folded Clos".into(),
        nodes,
        routers: routers as f64,
        router_scale: 1.0,
        dedicated_serdes: false,
        groups,
        config: format!("{levels} levels"),
    }
}

/// The conventional butterfly: 64 × 64 routers, `⌈log_64 N⌉` stages.
pub fn butterfly(tech: &Technology, nodes: u64) -> Inventory {
    let r = tech.router_radix as u64;
    let stages = ceil_log(nodes, r).max(1);
    let routers = stages as u64 * nodes.div_ceil(r);
    let e = tech.edge_length(nodes);
    let n = nodes as f64;
    let mut groups = vec![ChannelGroup::new("terminal", Placement::Terminal, 2.0 * n, 1.0, 0.0)];
    for s in 1..stages {
        groups.push(ChannelGroup::new(format!("stage {s} → {}", s + 1), Placement::Global, n, 1.0, e / 3.0));
    }
    Inventory {
        topology: "butterfly".into(),
        nodes,
        routers: routers as f64,
        router_scale: 1.0,
        dedicated_serdes: false,
        groups,
        config: format!("{r}-ary {stages}-fly"),
    }
}

/// Average global cable of the hypercube, §4.2: `(E − 1)/log2 E` (the halving lengths
/// `E/2, E/4, …` summed); never below 0.
pub fn hypercube_avg_cable(e: f64) -> f64 {
    if e <= 1.0 {
        0.0
    } else {
        ((e - 1.0) / e.log2()).max(0.0)
    }
}

/// The hypercube: one node per router, half-width channels, pin-scaled routers.
pub fn hypercube(tech: &Technology, nodes: u64) -> Inventory {
    let dims = ceil_log(nodes, 2);
    let n = nodes as f64;
    let width = 0.5;
    let in_cabinet = ceil_log(tech.nodes_per_cabinet, 2);
    let local_dims = dims.min(in_cabinet);
    let global_dims = dims - local_dims;
    let e = tech.edge_length(nodes);
    let mut groups = vec![ChannelGroup::new("terminal", Placement::Terminal, 2.0 * n, 1.0, 0.0)];
    if local_dims > 0 {
        groups.push(ChannelGroup::new(
            "in-cabinet dimensions",
            Placement::Backplane,
            n * local_dims as f64,
            width,
            0.0,
        ));
    }
    if global_dims > 0 {
        groups.push(ChannelGroup::new(
            "global dimensions",
            Placement::Global,
            n * global_dims as f64,
            width,
            hypercube_avg_cable(e),
        ));
    }
    let ports = 1.0 + width * dims as f64;
    Inventory {
        topology: "hypercube".into(),
        nodes,
        routers: n,
        router_scale: ports / tech.router_radix as f64,
        dedicated_serdes: true,
        groups,
        config: format!("{dims}-cube"),
    }
}

/// One point of FB paper Figs. 10 and 11 for one topology.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct FbCostPoint {
    pub nodes: u64,
    pub topology: FbPaperTopology,
    pub cost: CostBreakdown,
}

/// Figs. 10 and 11: every topology at every size, priced with electrical cables.
pub fn fig11(tech: &Technology, sizes: &[u64]) -> Vec<FbCostPoint> {
    let pricing = CablePricing::ElectricalWithRepeaters;
    sizes
        .iter()
        .flat_map(|&n| {
            FbPaperTopology::ALL.into_iter().map(move |t| FbCostPoint {
                nodes: n,
                topology: t,
                cost: t.inventory(tech, n).cost(tech, &pricing),
            })
        })
        .collect()
}

/// Network sizes of Figs. 10, 11 and 15: powers of two from 2^lo to 2^hi.
pub fn fig11_sizes(lo: u32, hi: u32) -> Vec<u64> {
    (lo..=hi).map(|e| 1u64 << e).collect()
}

/// Cost reduction of the flattened butterfly relative to the folded Clos at `nodes`
/// (fraction: 0.4 = 40 % cheaper).
pub fn fb_vs_clos_reduction(tech: &Technology, nodes: u64) -> f64 {
    let p = CablePricing::ElectricalWithRepeaters;
    let fb = flattened_butterfly(tech, nodes).cost(tech, &p).per_node();
    let clos = folded_clos(tech, nodes).cost(tech, &p).per_node();
    1.0 - fb / clos
}

/// One bar of FB paper Fig. 13: an `N = 4K` flattened butterfly of dimension `n'`.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Fig13Point {
    pub config: FlatConfig,
    pub cost: CostBreakdown,
    /// Average cost of one router-to-router channel ($), the line of Fig. 13.
    pub cost_per_channel: f64,
}

/// Fig. 13: cost per node of the `k`-ary `n`-flats of Table 4. Routers are priced at the
/// radix-64 router cost whatever `k'` (the $300 development share dominates it); see
/// `docs/cost.md`.
pub fn fig13(tech: &Technology, nodes: u64) -> Vec<Fig13Point> {
    let pricing = CablePricing::ElectricalWithRepeaters;
    table4(nodes)
        .into_iter()
        .map(|c| {
            let np = c.n_prime as usize;
            let inv = flat_inventory(
                tech,
                nodes,
                c.k,
                &vec![c.k; np],
                &vec![1; np],
                "flattened butterfly",
                format!("{}-ary {}-flat", c.k, c.n),
            );
            let cost = inv.cost(tech, &pricing);
            let ch = cost.network_channels;
            let per = if ch > 0.0 { (cost.local_link_cost + cost.global_link_cost) / ch } else { 0.0 };
            Fig13Point { config: c, cost, cost_per_channel: per }
        })
        .collect()
}
