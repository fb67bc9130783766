//! The page's "cost" view (`www/ui/cost-view.js`, through `src/web/cost.rs`): the user's `N`,
//! radix `R` and bisection `β` checked field by field, and the data of every plot of the
//! view as JSON. Pure computation, so it is tested natively (`tests/integration/cost_explore.rs`).
//!
//! - [`figures`]: the analytic models, cheap enough for every keystroke — FB paper
//!   Figs. 10, 11, 13, 15 and the dragonfly paper's Figs. 2 and 19, priced for
//!   radix-`R` routers (the papers' radix is 64), each curve over a range of sizes that
//!   includes `N`, with a summary of every topology at `N`;
//! - [`hyperx`]: the HyperX design search for `(N, R, β)` (regular and general) and the
//!   switches-per-terminal curves of HyperX paper Fig. 8 for radix `R` — dozens of
//!   searches, which the page runs in a Web Worker.
//!
//! A topology that cannot be built for some size with radix-`R` routers (a flattened
//! butterfly whose §5.1.2 dimension does not exist, a dragonfly with more than `ah + 1`
//! groups) has no point there: `null` in the JSON, a gap in the curve.

use serde::Serialize;
use serde_json::{json, Value};

use super::cables::{cable_cost_curve, CablePricing, OpticalCable, Technology};
use super::dragonfly::{self, DfPaperTopology};
use super::fb::{self, FbPaperTopology};
use super::hyperx_search::{self as hx, DesignClass, DesignProblem, HyperXDesign};
use super::inventory::Inventory;
use super::PowerParams;

/// Smallest and largest `N` the view accepts.
pub const MIN_NODES: u64 = 2;
pub const MAX_NODES: u64 = 1 << 24;
/// Smallest and largest radix (a folded Clos needs `R/2 ≥ 2`).
pub const MIN_RADIX: u32 = 4;
pub const MAX_RADIX: u32 = 1024;

/// The view's inputs.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct CostQuery {
    /// `N`, terminals.
    pub nodes: u64,
    /// `R`, router ports.
    pub radix: u32,
    /// `β`, minimum relative bisection bandwidth (HyperX search and Fig. 8).
    pub beta: f64,
}

/// A problem with one input: `field` is `nodes`, `radix` or `beta`.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct FieldError {
    pub field: &'static str,
    pub message: String,
}

fn compact(text: &str) -> String {
    text.chars().filter(|c| !c.is_whitespace() && *c != '_').collect()
}

/// A whole number as typed: `4096`, `2^17`, `64K`, `1M` (K = 1024), `131,072`.
fn parse_count(text: &str, what: &str, example: &str) -> Result<u64, String> {
    let t = compact(text).replace(',', "");
    if t.is_empty() {
        return Err(format!("enter {what}, e.g. {example}"));
    }
    let bad = || format!("'{}' is not a whole number (write e.g. {example})", text.trim());
    if let Some((b, e)) = t.split_once('^') {
        let b: u64 = b.parse().map_err(|_| bad())?;
        let e: u32 = e.parse().map_err(|_| bad())?;
        return b.checked_pow(e).ok_or_else(|| format!("{}^{} is far too large", b, e));
    }
    let (digits, mult) = match t.chars().last() {
        Some('k' | 'K') => (&t[..t.len() - 1], 1u64 << 10),
        Some('m' | 'M') => (&t[..t.len() - 1], 1u64 << 20),
        _ => (t.as_str(), 1),
    };
    if let Ok(v) = digits.parse::<u64>() {
        return v.checked_mul(mult).ok_or_else(|| format!("'{}' is far too large", text.trim()));
    }
    match digits.parse::<f64>() {
        Ok(v) if v.is_finite() && v < 0.0 => Err(format!("must be positive, got {}", text.trim())),
        Ok(v) if v.is_finite() && mult > 1 && (v * mult as f64).fract() == 0.0 => Ok((v * mult as f64) as u64),
        Ok(v) if v.is_finite() => Err(format!("must be a whole number, got {}", text.trim())),
        _ => Err(bad()),
    }
}

/// A fraction as typed: `0.5`, `1/8`, `.25`.
fn parse_fraction(text: &str) -> Result<f64, String> {
    let t = compact(text);
    if t.is_empty() {
        return Err("enter the relative bisection bandwidth β, e.g. 0.5 or 1/8".into());
    }
    let bad = || format!("'{}' is not a number (write e.g. 0.5 or 1/8)", text.trim());
    let v = if let Some((a, b)) = t.split_once('/') {
        let a: f64 = a.parse().map_err(|_| bad())?;
        let b: f64 = b.parse().map_err(|_| bad())?;
        a / b
    } else {
        t.parse().map_err(|_| bad())?
    };
    if !v.is_finite() {
        return Err(bad());
    }
    Ok(v)
}

impl CostQuery {
    /// Reads the three inputs as the user typed them; every problem is reported, each with
    /// its field.
    pub fn parse(nodes: &str, radix: &str, beta: &str) -> Result<CostQuery, Vec<FieldError>> {
        let mut errors = Vec::new();
        let n = parse_count(nodes, "the number of terminals N", "4096, 2^17 or 64K").and_then(|n| {
            if (MIN_NODES..=MAX_NODES).contains(&n) {
                Ok(n)
            } else {
                Err(format!("N must be between {MIN_NODES} and {MAX_NODES} (2^24) terminals, got {n}"))
            }
        });
        let r = parse_count(radix, "the router radix R", "64").and_then(|r| {
            if (MIN_RADIX as u64..=MAX_RADIX as u64).contains(&r) {
                Ok(r as u32)
            } else {
                Err(format!("the radix must be between {MIN_RADIX} and {MAX_RADIX} ports, got {r}"))
            }
        });
        let b = parse_fraction(beta).and_then(|b| {
            if b > 0.0 && b <= 1.0 {
                Ok(b)
            } else {
                Err(format!("β must be greater than 0 and at most 1 (full bisection), got {}", beta.trim()))
            }
        });
        for (field, r) in [("nodes", n.as_ref().err()), ("radix", r.as_ref().err()), ("beta", b.as_ref().err())] {
            if let Some(m) = r {
                errors.push(FieldError { field, message: m.clone() });
            }
        }
        match (n, r, b) {
            (Ok(nodes), Ok(radix), Ok(beta)) => Ok(CostQuery { nodes, radix, beta }),
            _ => Err(errors),
        }
    }

    /// The FB paper's technology (Table 2 prices, Table 3 packaging) with radix-`R` routers.
    pub fn technology(&self) -> Technology {
        Technology { router_radix: self.radix, ..Technology::default() }
    }
}

/// One line of a plot; `None` is a gap (nothing to build at that size).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct PlotSeries {
    pub name: String,
    pub dashed: bool,
    pub points: Vec<(f64, Option<f64>)>,
}

/// One plot of the view.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct PlotData {
    pub id: &'static str,
    pub title: String,
    pub x_label: String,
    pub y_label: String,
    /// Logarithmic x axis (sizes N).
    pub log_x: bool,
    /// Fixed y range, if any.
    pub y_max: Option<f64>,
    pub series: Vec<PlotSeries>,
    /// A vertical marker (the user's N, or a cable length) and its label.
    pub mark_x: Option<f64>,
    pub mark_label: String,
    /// Shown instead of the curves when there is nothing to draw.
    pub empty: Option<String>,
    /// What the plot assumes (one sentence, under the plot).
    pub note: String,
}

impl PlotData {
    fn new(id: &'static str, title: impl Into<String>, x_label: &str, y_label: &str) -> Self {
        PlotData {
            id,
            title: title.into(),
            x_label: x_label.into(),
            y_label: y_label.into(),
            log_x: false,
            y_max: None,
            series: Vec::new(),
            mark_x: None,
            mark_label: String::new(),
            empty: None,
            note: String::new(),
        }
    }

    fn vs_n(id: &'static str, title: impl Into<String>, y_label: &str, nodes: u64) -> Self {
        let mut p = PlotData::new(id, title, "network size N (terminals)", y_label);
        p.log_x = true;
        p.mark_x = Some(nodes as f64);
        p.mark_label = format!("N = {}", nodes_label(nodes));
        p
    }
}

/// `4096` → `4K`, `131072` → `128K`, `1000` → `1000`.
pub fn nodes_label(n: u64) -> String {
    if n >= 1 << 20 && n.is_multiple_of(1 << 20) {
        format!("{}M", n >> 20)
    } else if n >= 1 << 10 && n.is_multiple_of(1 << 10) {
        format!("{}K", n >> 10)
    } else {
        n.to_string()
    }
}

/// Sizes of the curves vs N: powers of two from 2^7 to 2^16 (the papers' range),
/// widened to include `N`, plus `N` itself.
pub fn size_axis(nodes: u64, lo: u32, hi: u32) -> Vec<u64> {
    let log_floor = 63 - nodes.leading_zeros();
    let log_ceil = if nodes.is_power_of_two() { log_floor } else { log_floor + 1 };
    let mut s: Vec<u64> = (lo.min(log_floor).max(1)..=hi.max(log_ceil)).map(|e| 1u64 << e).collect();
    s.push(nodes);
    s.sort_unstable();
    s.dedup();
    s
}

/// Whether the flattened butterfly of [`fb::flattened_butterfly`] exists for `N` with this
/// radix (§5.1.2 finds a dimension).
pub fn fb_buildable(tech: &Technology, nodes: u64) -> bool {
    fb::fb_dimension_for_radix(tech.router_radix, nodes).is_some()
}

fn fb_inventory(tech: &Technology, t: FbPaperTopology, nodes: u64) -> Option<Inventory> {
    (t != FbPaperTopology::FlattenedButterfly || fb_buildable(tech, nodes)).then(|| t.inventory(tech, nodes))
}

fn df_inventory(tech: &Technology, t: DfPaperTopology, nodes: u64) -> Option<Inventory> {
    match t {
        // As in `DfPaperTopology::inventory`: the FB paper's design where §5's does not fit.
        DfPaperTopology::FlattenedButterfly => dragonfly::dragonfly_paper_fb(tech, nodes)
            .or_else(|| fb_inventory(tech, FbPaperTopology::FlattenedButterfly, nodes)),
        DfPaperTopology::Dragonfly => {
            let ok = nodes <= dragonfly::dragonfly_max_nodes(tech.router_radix)
                && (nodes > dragonfly::dragonfly_flat_limit(tech.router_radix) || fb_buildable(tech, nodes));
            ok.then(|| dragonfly::dragonfly(tech, nodes))
        }
        _ => Some(t.inventory(tech, nodes)),
    }
}

fn finite(x: f64) -> Option<f64> {
    x.is_finite().then_some(x)
}

/// The analytic plots and the summary at `N` (see the module docs), as JSON:
/// `{query, plots: [PlotData], at_n: {rows, fb_dimension, fb_saving_vs_clos, …}}`.
pub fn figures(q: &CostQuery) -> Value {
    let tech = q.technology();
    let fb_pricing = CablePricing::ElectricalWithRepeaters;
    let df_pricing = CablePricing::dragonfly(&tech);
    let pp = PowerParams::default();
    let sizes = size_axis(q.nodes, 7, 16);
    let radix_note = if q.radix == 64 {
        "radix-64 routers as in the paper".to_string()
    } else {
        format!("radix-{} routers (the paper's: 64), still priced $390 each", q.radix)
    };

    // FB paper Figs. 10, 11, 15: one inventory per (topology, size).
    let fb_invs: Vec<(FbPaperTopology, Vec<Option<Inventory>>)> =
        FbPaperTopology::ALL.iter().map(|&t| (t, sizes.iter().map(|&n| fb_inventory(&tech, t, n)).collect())).collect();
    let fb_plot = |id, title: &str, y: &str, f: &dyn Fn(&Inventory) -> f64| {
        let mut p = PlotData::vs_n(id, title, y, q.nodes);
        for (t, invs) in &fb_invs {
            let points =
                sizes.iter().zip(invs).map(|(&n, inv)| (n as f64, inv.as_ref().and_then(|i| finite(f(i))))).collect();
            p.series.push(PlotSeries { name: t.name().into(), dashed: false, points });
        }
        p.note = format!("{radix_note}; Table 2 prices, electrical cables with repeaters.");
        p
    };
    let mut plots = Vec::new();
    plots.push(fb_plot("fb-fig11", "FB paper Fig. 11: cost per node", "$ per node", &|i| {
        i.cost(&tech, &fb_pricing).per_node()
    }));
    let mut f10a = fb_plot("fb-fig10a", "FB paper Fig. 10(a): link cost / total cost", "link cost ratio", &|i| {
        i.cost(&tech, &fb_pricing).link_fraction()
    });
    f10a.y_max = Some(1.0);
    plots.push(f10a);
    plots.push(fb_plot(
        "fb-fig10b",
        "FB paper Fig. 10(b): average global cable length",
        "metres (no overhead)",
        &|i| i.cost(&tech, &fb_pricing).avg_global_cable_m,
    ));
    let mut f15 = fb_plot("fb-fig15", "FB paper Fig. 15: network power per node", "W per node", &|i| {
        i.power(&tech, &pp).per_node_w()
    });
    f15.note = format!("{radix_note}; Table 5: 40 W per router, 200/160/40 mW per SerDes.");
    plots.push(f15);

    // Fig. 13 at N.
    let mut f13 = PlotData::new(
        "fb-fig13",
        format!("FB paper Fig. 13: N = {} as k-ary n-flats", nodes_label(q.nodes)),
        "n' (dimensions)",
        "$ per node / per channel",
    );
    let pts = fb::fig13(&tech, q.nodes);
    if pts.is_empty() {
        f13.empty = Some(format!(
            "N = {} is not k^n (k ≥ 2, n ≥ 2): no k-ary n-flat has exactly N terminals; try 4096",
            q.nodes
        ));
    } else {
        f13.series.push(PlotSeries {
            name: "cost per node".into(),
            dashed: false,
            points: pts.iter().map(|p| (p.config.n_prime as f64, finite(p.cost.per_node()))).collect(),
        });
        f13.series.push(PlotSeries {
            name: "cost per channel".into(),
            dashed: true,
            points: pts.iter().map(|p| (p.config.n_prime as f64, finite(p.cost_per_channel))).collect(),
        });
    }
    f13.note = "Table 4: k' = n(k − 1) + 1 ports per router, every router priced $390 whatever k'.".into();
    plots.push(f13);

    // Dragonfly paper Fig. 19.
    let mut f19 = PlotData::vs_n("df-fig19", "Dragonfly paper Fig. 19: cost per node", "$ per node", q.nodes);
    for &t in &DfPaperTopology::ALL {
        let points = sizes
            .iter()
            .map(|&n| (n as f64, df_inventory(&tech, t, n).and_then(|i| finite(i.cost(&tech, &df_pricing).per_node()))))
            .collect();
        f19.series.push(PlotSeries { name: t.name().into(), dashed: false, points });
    }
    let (p, a, h) = dragonfly::group_params(q.radix);
    f19.note = format!(
        "{radix_note}; dragonfly groups p = {p}, a = {a}, h = {h} (at most {} nodes); flattened butterfly {p}-ary with {p} terminals per router beyond the 1-D range; cables optical from 8 m.",
        dragonfly::dragonfly_max_nodes(q.radix)
    );
    plots.push(f19);

    // Dragonfly paper Fig. 2, with the dragonfly's average global cable at N.
    let optical = OpticalCable::dragonfly_fig2(&tech);
    let df_at_n = df_inventory(&tech, DfPaperTopology::Dragonfly, q.nodes);
    let cable_at_n = df_at_n
        .as_ref()
        .map(|i| i.cost(&tech, &df_pricing))
        .filter(|c| c.global_channels > 0.0)
        .map(|c| c.avg_global_cable_m + tech.cable_overhead_m);
    let max_m = cable_at_n.map_or(40.0, |m| (m * 1.25).max(40.0).ceil());
    let curve = cable_cost_curve(&tech, &optical, max_m, max_m / 80.0);
    let mut f2 = PlotData::new("df-fig2", "Dragonfly paper Fig. 2: cable cost", "cable length (m)", "$ per Gb/s");
    f2.series.push(PlotSeries {
        name: "electrical with repeaters".into(),
        dashed: false,
        points: curve.iter().map(|c| (c.length_m, Some(c.electrical_per_gbps))).collect(),
    });
    f2.series.push(PlotSeries {
        name: "active optical".into(),
        dashed: false,
        points: curve.iter().map(|c| (c.length_m, Some(c.optical_per_gbps))).collect(),
    });
    if let Some(m) = cable_at_n {
        f2.mark_x = Some(m);
        f2.mark_label = format!("dragonfly global cable at N: {m:.1} m");
    }
    f2.note = "Electrical: Table 2 of the FB paper; optical: slope ¼ of electrical, crossing at 10 m (the text gives only the shape).".into();
    plots.push(f2);

    // Every topology at N.
    let mut rows = Vec::new();
    let entries: [(&str, Option<Inventory>); 6] = [
        ("butterfly", fb_inventory(&tech, FbPaperTopology::Butterfly, q.nodes)),
        ("folded Clos", fb_inventory(&tech, FbPaperTopology::FoldedClos, q.nodes)),
        ("hypercube", fb_inventory(&tech, FbPaperTopology::Hypercube, q.nodes)),
        ("flattened butterfly", fb_inventory(&tech, FbPaperTopology::FlattenedButterfly, q.nodes)),
        ("dragonfly", df_at_n.clone()),
        ("3-D torus", df_inventory(&tech, DfPaperTopology::Torus3D, q.nodes)),
    ];
    for (name, inv) in &entries {
        rows.push(match inv {
            Some(i) => {
                let c = i.cost(&tech, &fb_pricing);
                json!({
                    "topology": name,
                    "config": i.config,
                    "routers": i.routers,
                    "channels": c.network_channels,
                    "cost_per_node": finite(c.per_node()),
                    "cost_per_node_df": finite(i.cost(&tech, &df_pricing).per_node()),
                    "power_per_node": finite(i.power(&tech, &pp).per_node_w()),
                })
            }
            None => json!({ "topology": name, "config": null }),
        });
    }
    let per_node = |i: usize| entries[i].1.as_ref().map(|inv| inv.cost(&tech, &fb_pricing).per_node());
    let fb_saving = match (per_node(3), per_node(1)) {
        (Some(f), Some(c)) => finite(1.0 - f / c),
        _ => None,
    };
    let dim = fb::fb_dimension_for_radix(q.radix, q.nodes).map(|(np, kp)| json!({ "n_prime": np, "k_prime": kp }));
    json!({
        "query": q,
        "plots": plots,
        "at_n": {
            "rows": rows,
            "fb_dimension": dim,
            "fb_saving_vs_clos": fb_saving,
            "edge_m": tech.edge_length(q.nodes),
        },
    })
}

fn design_json(d: &HyperXDesign, p: &DesignProblem) -> Value {
    json!({
        "switches": d.switches(),
        "dims": d.dims(),
        "shape": d.shape,
        "trunking": d.trunking,
        "terminals_per_switch": d.terminals_per_switch,
        "t_range": d.feasible_t_range(p),
        "ports_used": d.ports_used(),
        "beta": d.relative_bisection(),
        "regular": d.is_regular(),
        "text": d.describe(),
    })
}

/// The HyperX search for `(N, R, β)` and Fig. 8 for radix `R` and this `β`, as JSON:
/// `{query, regular, general, general_ties, shapes_evaluated, clos, plot}` (a design is
/// `null` when no HyperX meets the requirements).
pub fn hyperx(q: &CostQuery) -> Value {
    let problem = DesignProblem { terminals: q.nodes, radix: q.radix, beta: q.beta };
    let reg = hx::search(&problem, DesignClass::Regular);
    let gen = hx::search(&problem, DesignClass::General);
    let clos = hx::folded_clos_size(q.nodes, q.radix, q.beta);

    let log_floor = 63 - q.nodes.leading_zeros();
    let mut sizes = hx::fig8_sizes(8.min(log_floor), 20.max(log_floor + 1));
    sizes.push(q.nodes);
    sizes.sort_unstable();
    sizes.dedup();
    let mut plot = PlotData::vs_n(
        "hx-fig8",
        format!("HyperX paper Fig. 8: switches per terminal, radix {}", q.radix),
        "switches / N",
        q.nodes,
    );
    let beta_label = |b: f64| format!("{}", (b * 1e4).round() / 1e4);
    let mut betas = vec![q.beta];
    if 2.0 * q.beta <= 1.0 + 1e-9 {
        betas.push(2.0 * q.beta);
    }
    let mut series = Vec::new();
    for (i, &b) in betas.iter().enumerate() {
        let pts = hx::switch_count_sweep(q.radix, b, &sizes);
        if i == 0 {
            series.push(PlotSeries {
                name: format!("HyperX β = {}", beta_label(b)),
                dashed: false,
                points: pts.iter().map(|p| (p.terminals as f64, p.hyperx_switches_per_terminal)).collect(),
            });
        }
        series.push(PlotSeries {
            name: format!("folded Clos β = {}", beta_label(b)),
            dashed: i > 0,
            points: pts.iter().map(|p| (p.terminals as f64, Some(p.clos_switches_per_terminal))).collect(),
        });
    }
    plot.series = series;
    plot.note = "Best general HyperX (fewest switches); folded Clos tapered at the leaves for β < 1 (dashed: the Clos at 2β, §4.2's comparison).".into();
    json!({
        "query": q,
        "regular": reg.best.as_ref().map(|d| design_json(d, &problem)),
        "general": gen.best.as_ref().map(|d| design_json(d, &problem)),
        "general_ties": gen.optimal.len(),
        "shapes_evaluated": reg.shapes_evaluated + gen.shapes_evaluated,
        "clos": { "levels": clos.levels, "switches": clos.switches },
        "plot": plot,
    })
}
