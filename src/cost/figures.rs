//! Tables and plots of the cost models (pure: text, CSV, Markdown and SVG as `String`s),
//! shared by the CLI (`hiradix cost …`), the `docs/cost.md` report and the page.

use super::cables::{cable_cost_curve, crossover_m, OpticalCable};
use super::dragonfly::{self, DfPaperTopology};
use super::fb::{self, FbPaperTopology, TABLE4_PUBLISHED};
use super::hyperx_search::{self as hx, DesignClass, DesignProblem, HyperXDesign};
use super::power;
use super::{CostBreakdown, PowerParams, Technology};
use crate::plot::{Plot, Series};

pub fn class_name(c: DesignClass) -> &'static str {
    match c {
        DesignClass::Regular => "regular",
        DesignClass::General => "general",
    }
}

pub fn design_cells(d: &HyperXDesign, p: &DesignProblem) -> Vec<String> {
    let range = d
        .feasible_t_range(p)
        .map(|(a, b)| if a == b { a.to_string() } else { format!("{a}..{b}") })
        .unwrap_or_default();
    vec![
        d.switches().to_string(),
        d.dims().to_string(),
        list(&d.shape),
        list(&d.trunking),
        d.terminals_per_switch.to_string(),
        range,
        d.ports_used().to_string(),
        format!("{:.3}", d.relative_bisection()),
    ]
}

pub fn list(v: &[u32]) -> String {
    if v.windows(2).all(|w| w[0] == w[1]) {
        v[0].to_string()
    } else {
        format!("({})", v.iter().map(|x| x.to_string()).collect::<Vec<_>>().join(", "))
    }
}

/// A simple table rendered as aligned text, Markdown or CSV.
pub struct Table {
    head: Vec<String>,
    rows: Vec<Vec<String>>,
}

impl Table {
    pub fn new(head: &[&str]) -> Self {
        Table { head: head.iter().map(|s| s.to_string()).collect(), rows: Vec::new() }
    }

    pub fn row(&mut self, r: Vec<String>) {
        self.rows.push(r);
    }

    fn widths(&self) -> Vec<usize> {
        let mut w: Vec<usize> = self.head.iter().map(|h| h.chars().count()).collect();
        for r in &self.rows {
            for (i, c) in r.iter().enumerate() {
                w[i] = w[i].max(c.chars().count());
            }
        }
        w
    }

    pub fn text(&self) -> String {
        let w = self.widths();
        let fmt = |r: &[String]| {
            r.iter().enumerate().map(|(i, c)| format!("{c:>width$}", width = w[i])).collect::<Vec<_>>().join("  ")
        };
        let mut s = fmt(&self.head) + "\n";
        for r in &self.rows {
            s += &(fmt(r) + "\n");
        }
        s
    }

    pub fn markdown(&self) -> String {
        let mut s = format!("| {} |\n|{}|\n", self.head.join(" | "), vec!["---:"; self.head.len()].join("|"));
        for r in &self.rows {
            s += &format!("| {} |\n", r.join(" | "));
        }
        s
    }

    pub fn csv(&self) -> String {
        let q = |c: &String| {
            if c.contains(',') || c.contains('"') {
                format!("\"{}\"", c.replace('"', "\"\""))
            } else {
                c.clone()
            }
        };
        let mut s = self.head.iter().map(q).collect::<Vec<_>>().join(",") + "\n";
        for r in &self.rows {
            s += &(r.iter().map(q).collect::<Vec<_>>().join(",") + "\n");
        }
        s
    }
}

pub fn money(x: f64) -> String {
    format!("{x:.1}")
}

pub fn pct(x: f64) -> String {
    format!("{:.1}%", 100.0 * x)
}

// ---- FB paper ---------------------------------------------------------------------------

pub fn fb_cost_table(sizes: &[u64]) -> Table {
    let tech = Technology::default();
    let mut t = Table::new(&[
        "N",
        "topology",
        "configuration",
        "routers",
        "$/node",
        "link share",
        "avg global cable m",
        "FB saving vs Clos",
    ]);
    for p in fb::fig11(&tech, sizes) {
        let saving = if p.topology == FbPaperTopology::FlattenedButterfly {
            pct(fb::fb_vs_clos_reduction(&tech, p.nodes))
        } else {
            String::new()
        };
        t.row(vec![
            p.nodes.to_string(),
            p.topology.name().into(),
            p.cost.config.clone(),
            format!("{:.0}", p.cost.routers),
            money(p.cost.per_node()),
            pct(p.cost.link_fraction()),
            format!("{:.2}", p.cost.avg_global_cable_m),
            saving,
        ]);
    }
    t
}

fn series_by<T: Copy + PartialEq>(
    keys: &[T],
    name: impl Fn(T) -> String,
    points: impl Fn(T) -> Vec<(f64, f64)>,
) -> Vec<Series> {
    keys.iter().map(|&k| Series::new(name(k), points(k))).collect()
}

pub fn fb_plot(sizes: &[u64], title: &str, y: &str, f: impl Fn(&CostBreakdown) -> f64) -> Plot {
    let tech = Technology::default();
    let pts = fb::fig11(&tech, sizes);
    let mut p = Plot::new(title, "network size N (nodes)", y);
    p.log_x = true;
    p.series = series_by(
        &FbPaperTopology::ALL,
        |t| t.name().to_string(),
        |t| pts.iter().filter(|q| q.topology == t).map(|q| (q.nodes as f64, f(&q.cost))).collect(),
    );
    p
}

pub fn fig11_plot(sizes: &[u64]) -> Plot {
    fb_plot(sizes, "FB paper Fig. 11: cost per node", "cost ($ per node)", |c| c.per_node())
}

pub fn fig10a_plot(sizes: &[u64]) -> Plot {
    let mut p = fb_plot(sizes, "FB paper Fig. 10(a): link cost / total cost", "link cost ratio", |c| c.link_fraction());
    p.y_range = Some((0.0, 1.0));
    p
}

pub fn fig10b_plot(sizes: &[u64]) -> Plot {
    fb_plot(sizes, "FB paper Fig. 10(b): average global cable length (no overhead)", "length (m)", |c| {
        c.avg_global_cable_m
    })
}

pub fn fb_dims_table(nodes: u64) -> Table {
    let tech = Technology::default();
    let mut t = Table::new(&["k", "n", "k'", "n'", "paper k'", "$/node", "vs n'=1", "$/channel"]);
    let pts = fb::fig13(&tech, nodes);
    let base = pts.first().map(|p| p.cost.per_node()).unwrap_or(1.0);
    for p in &pts {
        let paper = if nodes == 4096 {
            TABLE4_PUBLISHED.iter().find(|r| r.0 == p.config.k).map(|r| r.2.to_string()).unwrap_or_default()
        } else {
            String::new()
        };
        t.row(vec![
            p.config.k.to_string(),
            p.config.n.to_string(),
            p.config.k_prime.to_string(),
            p.config.n_prime.to_string(),
            paper,
            money(p.cost.per_node()),
            format!("{:+.0}%", 100.0 * (p.cost.per_node() / base - 1.0)),
            format!("{:.2}", p.cost_per_channel),
        ]);
    }
    t
}

pub fn fig13_plot(nodes: u64) -> Plot {
    let tech = Technology::default();
    let pts = fb::fig13(&tech, nodes);
    let mut p = Plot::new(
        format!("FB paper Fig. 13: N = {nodes} flattened butterflies"),
        "n' (dimensions)",
        "$ per node / $ per channel",
    );
    p.series
        .push(Series::new("cost per node", pts.iter().map(|q| (q.config.n_prime as f64, q.cost.per_node())).collect()));
    p.series.push(
        Series::new("cost per channel", pts.iter().map(|q| (q.config.n_prime as f64, q.cost_per_channel)).collect())
            .dashed(),
    );
    p
}

pub fn table5() -> Table {
    let pp = PowerParams::default();
    let mut t = Table::new(&["component", "power"]);
    t.row(vec!["P_switch (radix-64 router)".into(), format!("{} W", pp.switch_w)]);
    t.row(vec!["P_link_gg (global link, global SerDes)".into(), format!("{} mW", pp.link_gg_w * 1e3)]);
    t.row(vec!["P_link_gl (local link, global SerDes)".into(), format!("{} mW", pp.link_gl_w * 1e3)]);
    t.row(vec!["P_link_ll (local link, local SerDes)".into(), format!("{} mW", pp.link_ll_w * 1e3)]);
    t
}

pub fn power_table(sizes: &[u64]) -> Table {
    let tech = Technology::default();
    let pp = PowerParams::default();
    let mut t = Table::new(&[
        "N",
        "butterfly W/node",
        "folded Clos W/node",
        "hypercube W/node",
        "FB W/node",
        "FB saving vs Clos",
    ]);
    let pts = power::fig15(&tech, &pp, sizes);
    for &n in sizes {
        let w = |topo| {
            pts.iter().find(|p| p.nodes == n && p.topology == topo).map(|p| p.power.per_node_w()).unwrap_or(f64::NAN)
        };
        t.row(vec![
            n.to_string(),
            format!("{:.2}", w(FbPaperTopology::Butterfly)),
            format!("{:.2}", w(FbPaperTopology::FoldedClos)),
            format!("{:.2}", w(FbPaperTopology::Hypercube)),
            format!("{:.2}", w(FbPaperTopology::FlattenedButterfly)),
            pct(power::fb_vs_clos_power_reduction(&tech, &pp, n)),
        ]);
    }
    t
}

pub fn fig15_plot(sizes: &[u64]) -> Plot {
    let tech = Technology::default();
    let pts = power::fig15(&tech, &PowerParams::default(), sizes);
    let mut p = Plot::new("FB paper Fig. 15: network power per node", "network size N (nodes)", "power (W per node)");
    p.log_x = true;
    p.series = series_by(
        &FbPaperTopology::ALL,
        |t| t.name().to_string(),
        |t| pts.iter().filter(|q| q.topology == t).map(|q| (q.nodes as f64, q.power.per_node_w())).collect(),
    );
    p
}

// ---- Dragonfly paper --------------------------------------------------------------------

pub fn cables_table(max_m: f64) -> Table {
    let tech = Technology::default();
    let o = OpticalCable::dragonfly_fig2(&tech);
    let step = if max_m > 40.0 { (max_m / 20.0).ceil() } else { 2.0 };
    let mut t = Table::new(&["length m", "electrical $/Gb/s", "repeaters", "optical $/Gb/s", "cheaper"]);
    for p in cable_cost_curve(&tech, &o, max_m, step) {
        let cheaper = if p.electrical_per_gbps <= p.optical_per_gbps { "electrical" } else { "optical" };
        t.row(vec![
            format!("{:.0}", p.length_m),
            format!("{:.3}", p.electrical_per_gbps),
            p.repeaters.to_string(),
            format!("{:.3}", p.optical_per_gbps),
            cheaper.into(),
        ]);
    }
    if let Some(x) = crossover_m(&tech, &o) {
        t.row(vec![format!("{x:.1}"), "crossover".into(), String::new(), String::new(), String::new()]);
    }
    t
}

pub fn fig2_plot(max_m: f64) -> Plot {
    let tech = Technology::default();
    let o = OpticalCable::dragonfly_fig2(&tech);
    let pts = cable_cost_curve(&tech, &o, max_m, max_m / 40.0);
    let mut p = Plot::new("Dragonfly paper Fig. 2: cable cost", "cable length (m)", "cost ($ per Gb/s)");
    p.series.push(
        Series::new("electrical with repeaters", pts.iter().map(|q| (q.length_m, q.electrical_per_gbps)).collect())
            .without_markers(),
    );
    p.series.push(
        Series::new("active optical", pts.iter().map(|q| (q.length_m, q.optical_per_gbps)).collect()).without_markers(),
    );
    p
}

pub fn table2_df() -> Table {
    let mut t = Table::new(&["topology", "minimal", "non-minimal", "avg cable", "max cable"]);
    let hops = |(l, g): (u32, u32)| format!("{l}hl + {g}hg").replace("1hl", "hl").replace("+ 1hg", "+ hg");
    let e = |x: f64| match x {
        x if (x - 1.0 / 3.0).abs() < 1e-9 => "E/3".to_string(),
        x if (x - 2.0 / 3.0).abs() < 1e-9 => "2E/3".to_string(),
        x if (x - 1.0).abs() < 1e-9 => "E".to_string(),
        x => format!("{x}E"),
    };
    for r in dragonfly::table2() {
        t.row(vec![r.topology.into(), hops(r.minimal), hops(r.nonminimal), e(r.avg_cable_e), e(r.max_cable_e)]);
    }
    t
}

pub fn dragonfly_table(sizes: &[u64]) -> Table {
    let tech = Technology::default();
    let mut t = Table::new(&[
        "N",
        "dragonfly $/node",
        "FB $/node",
        "folded Clos $/node",
        "3-D torus $/node",
        "DF vs FB",
        "DF vs Clos",
        "DF vs torus",
        "dragonfly config",
        "FB config",
    ]);
    let pts = dragonfly::fig19(&tech, sizes);
    for &n in sizes {
        let c = |topo| pts.iter().find(|p| p.nodes == n && p.topology == topo).unwrap();
        let df = c(DfPaperTopology::Dragonfly);
        let red = |o: DfPaperTopology| pct(1.0 - df.cost.per_node() / c(o).cost.per_node());
        t.row(vec![
            n.to_string(),
            money(df.cost.per_node()),
            money(c(DfPaperTopology::FlattenedButterfly).cost.per_node()),
            money(c(DfPaperTopology::FoldedClos).cost.per_node()),
            money(c(DfPaperTopology::Torus3D).cost.per_node()),
            red(DfPaperTopology::FlattenedButterfly),
            red(DfPaperTopology::FoldedClos),
            red(DfPaperTopology::Torus3D),
            df.cost.config.clone(),
            c(DfPaperTopology::FlattenedButterfly).cost.config.clone(),
        ]);
    }
    t
}

/// Fig. 19's dragonfly and flattened butterfly channel class by channel class, per node,
/// for the sizes beyond the 1-D range (see [`dragonfly::DfFbChannels`]), with the
/// dragonfly's saving as modelled and with its groups on one backplane.
pub fn df_vs_fb_channels_table(sizes: &[u64]) -> Table {
    let tech = Technology::default();
    let mut t = Table::new(&[
        "N",
        "DF local ch/node",
        "DF global ch/node",
        "DF global cable m",
        "FB backplane ch/node",
        "FB global ch/node",
        "FB global cable m",
        "mean cable DF / FB m",
        "DF dearer under any pricing",
        "DF vs FB",
        "DF vs FB, group on one backplane",
    ]);
    let two = |x: f64| format!("{x:.2}");
    for &n in sizes.iter().filter(|&&n| n > dragonfly::dragonfly_flat_limit(tech.router_radix)) {
        let c = dragonfly::DfFbChannels::new(&tech, n);
        let saving = |packaging| {
            pct(dragonfly::dragonfly_reduction_packaged(&tech, n, DfPaperTopology::FlattenedButterfly, packaging))
        };
        t.row(vec![
            n.to_string(),
            two(c.df_local),
            two(c.df_global),
            two(c.df_global_m),
            two(c.fb_backplane),
            two(c.fb_global),
            two(c.fb_global_m),
            format!("{} / {}", two(c.df_mean_cable_m), two(c.fb_mean_cable_m)),
            if c.dragonfly_dearer_under_any_pricing() { "yes" } else { "no" }.into(),
            saving(dragonfly::GroupPackaging::CabinetRow),
            saving(dragonfly::GroupPackaging::OneBackplane),
        ]);
    }
    t
}

pub fn fig19_plot(sizes: &[u64]) -> Plot {
    let tech = Technology::default();
    let pts = dragonfly::fig19(&tech, sizes);
    let mut p = Plot::new("Dragonfly paper Fig. 19: cost per node", "network size N (nodes)", "cost ($ per node)");
    p.log_x = true;
    p.series = series_by(
        &DfPaperTopology::ALL,
        |t| t.name().to_string(),
        |t| pts.iter().filter(|q| q.topology == t).map(|q| (q.nodes as f64, q.cost.per_node())).collect(),
    );
    p
}

// ---- HyperX paper -----------------------------------------------------------------------

pub fn table1() -> Table {
    let mut t = Table::new(&["B", "class", "source", "switches", "L", "S", "K", "T", "feasible T"]);
    for (pubrow, comp) in hx::table1_published().iter().zip(hx::table1_computed()) {
        let p = hx::table1_problem(pubrow.beta);
        for (class, a, b) in [("regular", &pubrow.regular, &comp.regular), ("general", &pubrow.general, &comp.general)]
        {
            for (src, d) in [("paper", a), ("search", b)] {
                let c = design_cells(d, &p);
                t.row(vec![
                    pubrow.beta.to_string(),
                    class.into(),
                    src.into(),
                    c[0].clone(),
                    c[1].clone(),
                    c[2].clone(),
                    c[3].clone(),
                    c[4].clone(),
                    c[5].clone(),
                ]);
            }
        }
    }
    t
}

pub fn fig8_table(radix: u32, betas: &[f64], sizes: &[u64]) -> Table {
    let mut t = Table::new(&["R", "β", "N", "HyperX switches/N", "HyperX design", "Clos switches/N", "Clos levels"]);
    for &b in betas {
        for p in hx::switch_count_sweep(radix, b, sizes) {
            t.row(vec![
                radix.to_string(),
                b.to_string(),
                p.terminals.to_string(),
                p.hyperx_switches_per_terminal.map(|x| format!("{x:.4}")).unwrap_or_else(|| "infeasible".into()),
                p.hyperx.as_ref().map(|d| d.describe()).unwrap_or_default(),
                format!("{:.4}", p.clos_switches_per_terminal),
                p.clos.levels.to_string(),
            ]);
        }
    }
    t
}

pub fn fig8_plot(radix: u32, betas: &[f64], sizes: &[u64]) -> Plot {
    let mut p = Plot::new(
        format!("HyperX paper Fig. 8: switches per terminal, radix {radix}"),
        "network size N (terminals)",
        "switches / terminals",
    );
    p.log_x = true;
    for &b in betas {
        let pts = hx::switch_count_sweep(radix, b, sizes);
        p.series.push(Series::new(
            format!("HyperX β={b}"),
            pts.iter().map(|q| (q.terminals as f64, q.hyperx_switches_per_terminal.unwrap_or(f64::NAN))).collect(),
        ));
    }
    for &b in betas {
        let pts = hx::switch_count_sweep(radix, b, sizes);
        p.series.push(
            Series::new(
                format!("folded Clos β={b}"),
                pts.iter().map(|q| (q.terminals as f64, q.clos_switches_per_terminal)).collect(),
            )
            .dashed(),
        );
    }
    p
}
