//! Reproductions of the routing figures of the flattened butterfly paper (Kim, Dally,
//! Abts, ISCA 2007: Figs. 4, 5, 6, 12), the HyperX paper (Ahn et al., SC 2009: Figs. 6, 7)
//! and the 2DFB paper (Thamarakuzhi, Chandy: Figs. 4–7), at the papers' sizes or, with
//! `quick`, on small instances for a fast look.
//!
//! Setups (the papers' where they give one; documented choices otherwise):
//! - **FB paper** (§3.2): single-cycle input-queued routers with "sufficient switch
//!   speedup ... to ensure that routers do not become the bottleneck" (speedup 8, the
//!   largest the simulator allows: with speedup 2, MIN AD saturates UR at 0.83 on the
//!   1024-node FB, with 4 at 0.88, with 8 at 0.91), single-flit packets, 32 flits of buffering per port split over the VCs
//!   (2 VCs × 16: CLOS AD, UGAL and VAL need 2 on the 1-D FB), 1-cycle channels. UGAL uses
//!   the greedy allocator, UGAL-S and CLOS AD the sequential one; WC = router shift.
//!   Fig. 6 keeps 32 flits per port (1 VC × 32 on the butterfly, Clos and hypercube).
//!   Fig. 12: N = 4K FBs of Table 4 with 64 flits per port; VAL uses 2 VCs, MIN AD n'.
//! - **HyperX paper** (§4.1): 6 VCs (3 sets of 2, one escape VC per set for DAL), 32 flits
//!   per VC, 4-cycle switches, 1-cycle channels, iSLIP with speedup 2, sequential
//!   allocation of adaptive routes. Clos-AD is shown in both forms: as the HyperX paper
//!   describes it (`clos_ad_hx`: random closest common ancestor, DOR) and as the FB paper
//!   defines it (`clos_ad`).
//! - **2DFB paper** (§IV): switch links at twice the terminal bandwidth
//!   (`terminal_period = 2`), 2·n' VCs with 64 flits per port, sequential allocation,
//!   threshold Th = 2 flits (the lowest high-load latency of Th ∈ {0, 1, 2, 4, 8, 16} on the 1-D adversarial pattern; Th ≥ 8 loses throughput); the adaptive Clos runs on a folded Clos of the same size with
//!   the same links (8-ary: `down = [8, 8], up = [8]` for N = 64,
//!   `down = [8, 8, 8], up = [8, 8]` for N = 512).
//!
//! Load sweeps run in increasing load and stop after two saturated points (the rule of
//! [`crate::saturation`]), then bisect three times between the last unsaturated and the
//! first saturated load (full-size figures); series run in
//! parallel on the machine's cores (std threads; sequential on wasm). Offered load and
//! accepted throughput are fractions of the terminal bandwidth.

use super::{
    csv, csv_field, latency_at, latency_plot as plot_latency, onset_bracket, refine_onset, run_parallel,
    series_saturation, table as summary_table, throughput_plot as plot_throughput, Figure, FigureOptions, FigureSeries,
};
use crate::config::{AllocatorMode, InjectionMode, SimConfig, SwitchAllocator, TopologyConfig};
use crate::experiment::{run, RunResult};
use crate::plot::{Plot, Series};
use std::fmt::Write as _;

/// The figure presets: (name, description).
pub const HYPERX_FIGURES: &[(&str, &str)] = &[
    ("fb-fig4", "FB Fig. 4: MIN AD, VAL, UGAL, UGAL-S, CLOS AD on the 32-ary 2-flat (N = 1024), UR and worst case"),
    ("fb-fig5", "FB Fig. 5: batch delivery time normalized to batch size vs batch size, worst case, N = 1024"),
    ("fb-fig6", "FB Fig. 6: flattened butterfly vs butterfly, folded Clos and hypercube (N = 1024), UR and worst case"),
    ("fb-fig12", "FB Fig. 12: N = 4K flattened butterflies with n' = 1, 2, 3, 5, 11 under VAL and MIN AD, UR"),
    ("hx-fig6", "HyperX Fig. 6: Min-AD, Valiant, Clos-AD, DAL on N = 4096, S = 8, T = 8, K = 1; bit complement, bit rotate, transpose, Swap2"),
    ("hx-fig7", "HyperX Fig. 7: HyperX with DAL vs adaptive folded Clos at β = 0.5 and 0.25 (N = 4096), four patterns"),
    ("hx-faults", "HyperX §6: saturation throughput vs fraction of failed links, DOR, MIN AD, VAL, DAL on a HyperX and adaptive up-routing on a folded Clos (N = 512), UR and bit complement"),
    ("dfb-fig4", "2DFB Fig. 4: throughput of Minimal and adaptive 2DFB on the 8-ary 1-D 2DFB and adaptive Clos (N = 64)"),
    ("dfb-fig5", "2DFB Fig. 5: throughput, 8-ary 2-D 2DFB vs folded Clos (N = 512)"),
    ("dfb-fig6", "2DFB Fig. 6: latency vs load, 8-ary 1-D 2DFB vs folded Clos (N = 64), benign, adversarial, random"),
    ("dfb-fig7", "2DFB Fig. 7: latency vs load, 8-ary 2-D 2DFB vs folded Clos (N = 512)"),
];

/// The paper's name of an algorithm.
pub fn label(algorithm: &str) -> &'static str {
    match algorithm {
        "min" => "MIN",
        "min_ad" => "MIN AD",
        "val" => "VAL",
        "ugal" => "UGAL",
        "ugal_s" => "UGAL-S",
        "clos_ad" => "CLOS AD",
        "clos_ad_hx" => "Clos-AD (HyperX §3.3)",
        "dal" => "DAL",
        "adaptive_2dfb" => "Adaptive 2DFB",
        "updown_ad" => "Adaptive Clos",
        "dest_tag" => "destination tag",
        "ecube" => "e-cube",
        _ => "?",
    }
}

/// One run: where its result goes, its x value (offered load or batch size) and config.
#[derive(Clone)]
struct Job {
    panel: String,
    series: String,
    x: f64,
    cfg: SimConfig,
}

/// A series to sweep: its runs in increasing x.
struct Sweep {
    jobs: Vec<Job>,
    /// Stop after this many saturated points (0 = run every point).
    stop_after: usize,
    /// The x values are offered loads (`FigureOptions::loads` may replace them).
    loads: bool,
}

fn measurement(c: &mut SimConfig, quick: bool) {
    (c.measurement.warmup, c.measurement.measure, c.measurement.drain_limit) =
        if quick { (1000, 1000, 3000) } else { (2000, 2000, 5000) };
    c.measurement.watchdog = 5000;
    c.seed = 1;
}

/// A load sweep of one algorithm on one network.
fn load_sweep(panel: &str, series: &str, base: &SimConfig, algorithm: &str, pattern: &str, loads: &[f64]) -> Sweep {
    let jobs = loads
        .iter()
        .map(|&l| {
            let mut cfg = base.clone();
            cfg.routing.algorithm = algorithm.into();
            cfg.traffic.pattern = pattern.into();
            cfg.traffic.load = l;
            Job { panel: panel.into(), series: series.into(), x: l, cfg }
        })
        .collect();
    Sweep { jobs, stop_after: 2, loads: true }
}

/// Runs the sweeps (series in parallel where threads exist) with the options' overrides
/// (`opts.loads` replaces the x values of load sweeps, `opts.set` applies to every run);
/// returns every finished (job, result) in sweep order, each sweep in load order. A load
/// sweep of a full-size figure also bisects between its last unsaturated and first
/// saturated load ([`refine_onset`]). `progress(done, total)` counts planned runs; runs
/// skipped past saturation count as done.
fn execute(
    sweeps: &[Sweep],
    opts: &FigureOptions,
    progress: &dyn Fn(usize, usize),
) -> Result<Vec<(Job, RunResult)>, String> {
    let mut planned = Vec::with_capacity(sweeps.len());
    for s in sweeps {
        let jobs = match (&opts.loads, s.loads, s.jobs.first()) {
            (Some(loads), true, Some(first)) => loads
                .iter()
                .map(|&l| {
                    let mut j = first.clone();
                    j.x = l;
                    j.cfg.traffic.load = l;
                    j
                })
                .collect(),
            _ => s.jobs.clone(),
        };
        let jobs = jobs
            .into_iter()
            .map(|mut j| {
                opts.apply(&j.cfg).map(|c| {
                    j.cfg = c;
                    j
                })
            })
            .collect::<Result<Vec<Job>, String>>()?;
        planned.push(Sweep { jobs, stop_after: s.stop_after, loads: s.loads });
    }
    let sweeps = planned;
    let total: usize = sweeps.iter().map(|s| s.jobs.len()).sum();
    let one_sweep = |i: usize, tick: &dyn Fn(usize)| -> Result<Vec<(Job, RunResult)>, String> {
        let s = &sweeps[i];
        let mut out = Vec::new();
        let mut saturated = 0;
        for (i, j) in s.jobs.iter().enumerate() {
            if s.stop_after > 0 && saturated >= s.stop_after {
                tick(s.jobs.len() - i);
                break;
            }
            let r = run(&j.cfg).map_err(|e| format!("{} / {} at {}: {e}", j.panel, j.series, j.x))?;
            if r.summary.saturated {
                saturated += 1;
            }
            out.push((j.clone(), r));
            tick(1);
        }
        if s.loads && !opts.quick {
            if let Some((below, above)) = onset_bracket(out.iter().map(|(j, r)| (j.x, r.summary.saturated))) {
                let template = out[0].0.clone();
                let extra = refine_onset(below, above, |load| {
                    let mut j = template.clone();
                    (j.x, j.cfg.traffic.load) = (load, load);
                    let r = run(&j.cfg).map_err(|e| format!("{} / {} at {load}: {e}", j.panel, j.series))?;
                    Ok::<_, String>((r.summary.saturated, (j, r)))
                })?;
                out.extend(extra.into_iter().map(|(_, p)| p));
                out.sort_by(|a, b| a.0.x.total_cmp(&b.0.x));
            }
        }
        Ok(out)
    };
    let results = run_parallel(sweeps.len(), total, &one_sweep, progress);
    Ok(results.into_iter().collect::<Result<Vec<_>, String>>()?.into_iter().flatten().collect())
}

/// Groups results into series, in order of first appearance.
fn collect(results: &[(Job, RunResult)]) -> Vec<FigureSeries> {
    let mut out: Vec<FigureSeries> = Vec::new();
    for (j, r) in results {
        let point = (j.x, r.summary.clone());
        match out.iter_mut().find(|s| s.panel == j.panel && s.name == j.series) {
            Some(s) => s.points.push(point),
            None => out.push(FigureSeries { panel: j.panel.clone(), name: j.series.clone(), points: vec![point] }),
        }
    }
    out
}

/// Latency vs offered load of one panel (saturated points left out).
fn latency_plot(title: &str, series: &[FigureSeries], panel: &str, y_max: f64) -> Plot {
    plot_latency(title, "offered load (fraction of terminal bandwidth)", series, panel, Some(y_max))
}

/// Accepted vs offered load of one panel.
fn throughput_plot(title: &str, series: &[FigureSeries], panel: &str) -> Plot {
    plot_throughput(title, "accepted throughput (fraction of terminal bandwidth)", series, panel)
}

/// Markdown table: per series where saturation starts, the saturation throughput, the peak
/// accepted throughput, the hop count at the lowest load and latencies at chosen loads.
fn table(series: &[FigureSeries], at: &[f64]) -> String {
    summary_table(series, at, true)
}

fn steps(from: f64, to: f64, step: f64) -> Vec<f64> {
    let n = ((to - from) / step + 1e-9).floor() as usize;
    (0..=n).map(|i| ((from + step * i as f64) * 1000.0).round() / 1000.0).collect()
}

fn finish(plots: Vec<(String, Plot)>, series: Vec<FigureSeries>, x_name: &str, markdown: String) -> Figure {
    Figure { name: String::new(), title: String::new(), plots, csv: csv(&series, x_name), markdown, series }
}

/// Runs a figure preset. `opts.quick` uses small networks and fewer points; `opts.set`
/// and `opts.loads` override the preset (and are named in the Markdown).
pub fn run_figure(name: &str, opts: &FigureOptions, progress: &dyn Fn(usize, usize)) -> Result<Figure, String> {
    let quick = opts.quick;
    let title = HYPERX_FIGURES.iter().find(|f| f.0 == name).map(|f| f.1).ok_or_else(|| {
        let names: Vec<&str> = HYPERX_FIGURES.iter().map(|f| f.0).collect();
        format!("unknown HyperX-family figure '{name}'; one of: {}", names.join(", "))
    })?;
    let mut fig = match name {
        "fb-fig4" => fb_fig4(opts, progress)?,
        "fb-fig5" => fb_fig5(opts, progress)?,
        "fb-fig6" => fb_fig6(opts, progress)?,
        "fb-fig12" => fb_fig12(opts, progress)?,
        "hx-fig6" => hx_fig6(opts, progress)?,
        "hx-fig7" => hx_fig7(opts, progress)?,
        "hx-faults" => hx_faults(opts, progress)?,
        "dfb-fig4" | "dfb-fig6" => dfb(false, name == "dfb-fig4", opts, progress)?,
        "dfb-fig5" | "dfb-fig7" => dfb(true, name == "dfb-fig5", opts, progress)?,
        _ => unreachable!(),
    };
    fig.name = name.into();
    fig.title = title.into();
    fig.markdown =
        format!("### {title}{}\n\n{}{}", if quick { " (quick: reduced size)" } else { "" }, opts.note(), fig.markdown);
    Ok(fig)
}

// ----- flattened butterfly paper -----

/// The FB paper's §3.2 router: 32 flits per port over 2 VCs, speedup 8, 1-cycle delays.
fn fb_base(k: u32, n: u32, quick: bool) -> SimConfig {
    let mut c = SimConfig::default();
    c.topology = TopologyConfig::flattened_butterfly(k, n);
    c.router.vcs = 2;
    c.router.buffer_per_port = Some(32);
    c.router.speedup = 8;
    c.router.pipeline_delay = 1;
    measurement(&mut c, quick);
    c
}

fn fb_k(quick: bool) -> u32 {
    if quick {
        8
    } else {
        32
    }
}

fn fb_fig4(opts: &FigureOptions, progress: &dyn Fn(usize, usize)) -> Result<Figure, String> {
    let quick = opts.quick;
    let k = fb_k(quick);
    let base = fb_base(k, 2, quick);
    let algorithms = ["min_ad", "val", "ugal", "ugal_s", "clos_ad"];
    let (ur, wc) = if quick {
        (steps(0.1, 1.0, 0.1), steps(0.05, 0.6, 0.05))
    } else {
        (steps(0.1, 1.0, 0.05), steps(0.025, 0.6, 0.025))
    };
    let mut sweeps = Vec::new();
    for a in algorithms {
        sweeps.push(load_sweep("UR", label(a), &base, a, "uniform", &ur));
        sweeps.push(load_sweep("WC", label(a), &base, a, "router_shift", &wc));
    }
    let series = collect(&execute(&sweeps, opts, progress)?);
    let plots = vec![
        ("ur".into(), latency_plot("(a) uniform random", &series, "UR", 50.0)),
        ("wc".into(), latency_plot("(b) worst case (router shift)", &series, "WC", 50.0)),
        ("ur-throughput".into(), throughput_plot("(a) uniform random: accepted", &series, "UR")),
        ("wc-throughput".into(), throughput_plot("(b) worst case: accepted", &series, "WC")),
    ];
    let mut md = format!(
        "{}-ary 2-flat (N = {}), 2 VCs × 16 flits per port, speedup 8, 1-cycle router and channels.\n\n",
        k,
        k * k
    );
    md += &table(&series, &[0.2, 0.4, 0.45, 0.8]);
    let get = |p: &str, a: &str| series_saturation(&series, p, label(a)).throughput;
    let lat = |a: &str, l: f64| {
        series.iter().find(|s| s.panel == "WC" && s.name == label(a)).map_or(f64::NAN, |s| latency_at(s, l))
    };
    let _ = write!(
        md,
        "\nMeasured: WC saturation MIN AD {:.3} (1/k = {:.3}), VAL {:.3}, UGAL {:.3}, UGAL-S {:.3}, CLOS AD {:.3}; UR VAL {:.3}, others {:.3}–{:.3}. WC latency at 0.45: CLOS AD {:.1} vs UGAL-S {:.1} cycles.\n\n",
        get("WC", "min_ad"),
        1.0 / k as f64,
        get("WC", "val"),
        get("WC", "ugal"),
        get("WC", "ugal_s"),
        get("WC", "clos_ad"),
        get("UR", "val"),
        ["min_ad", "ugal", "ugal_s", "clos_ad"].iter().map(|a| get("UR", a)).fold(f64::INFINITY, f64::min),
        ["min_ad", "ugal", "ugal_s", "clos_ad"].iter().map(|a| get("UR", a)).fold(0.0, f64::max),
        lat("clos_ad", 0.45),
        lat("ugal_s", 0.45)
    );
    md += "Paper (Fig. 4, §3.2): on UR every algorithm except VAL reaches 100 % throughput, VAL 50 %. On WC, MIN is limited to 1/32 ≈ 3 % and all non-minimal algorithms reach 50 %; CLOS AD has nearly half the latency of UGAL-S at an offered load of 0.45.\n";
    Ok(finish(plots, series, "load", md))
}

fn fb_fig5(opts: &FigureOptions, progress: &dyn Fn(usize, usize)) -> Result<Figure, String> {
    let quick = opts.quick;
    let k = fb_k(quick);
    let algorithms = ["val", "ugal", "ugal_s", "clos_ad", "min_ad"];
    let batches: Vec<u32> =
        if quick { vec![1, 2, 4, 8, 16, 32, 64, 128] } else { vec![1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1000] };
    let seeds: u64 = if quick { 3 } else { 2 };
    let mut sweeps = Vec::new();
    for a in algorithms {
        let mut jobs = Vec::new();
        for &b in &batches {
            for seed in 1..=seeds {
                let mut cfg = fb_base(k, 2, quick);
                cfg.routing.algorithm = a.into();
                cfg.traffic.pattern = "router_shift".into();
                cfg.traffic.injection = InjectionMode::Batch;
                cfg.traffic.batch_size = b;
                cfg.measurement.drain_limit = 1_000_000;
                cfg.seed = seed;
                jobs.push(Job { panel: "WC".into(), series: label(a).into(), x: b as f64, cfg });
            }
        }
        sweeps.push(Sweep { jobs, stop_after: 0, loads: false });
    }
    let results = execute(&sweeps, opts, progress)?;
    // Mean normalized latency over the seeds, per (series, batch).
    let mut curves: Vec<(String, Vec<(f64, f64)>)> = Vec::new();
    for (j, r) in &results {
        let v = r.batch_normalized_latency.ok_or_else(|| format!("{} batch {} did not complete", j.series, j.x))?;
        let curve = match curves.iter_mut().find(|c| c.0 == j.series) {
            Some(c) => c,
            None => {
                curves.push((j.series.clone(), Vec::new()));
                curves.last_mut().unwrap()
            }
        };
        match curve.1.iter_mut().find(|p| p.0 == j.x) {
            Some(p) => p.1 += v / seeds as f64,
            None => curve.1.push((j.x, v / seeds as f64)),
        }
    }
    let mut plot = Plot::new(
        "Batch latency, worst case",
        "batch size (packets per terminal)",
        "cycles to deliver the batch / batch size",
    );
    plot.log_x = true;
    for (name, pts) in &curves {
        plot.series.push(Series::new(name, pts.clone()));
    }
    plot.y_range = Some((0.0, 12.0));
    let mut md = format!("{k}-ary 2-flat (N = {}), router shift, every terminal injects its batch as fast as it can; mean of {seeds} seeds.\n\n| batch |", k * k);
    for (name, _) in &curves {
        let _ = write!(md, " {name} |");
    }
    md += "\n|---|";
    md += &"---|".repeat(curves.len());
    md += "\n";
    for &b in &batches {
        let _ = write!(md, "| {b} |");
        for (_, pts) in &curves {
            let v = pts.iter().find(|p| p.0 == b as f64).map_or(f64::NAN, |p| p.1);
            let _ = write!(md, " {v:.2} |");
        }
        md += "\n";
    }
    md += "\nPaper (Fig. 5, §3.2): as the batch grows the normalized latency approaches the inverse of each algorithm's throughput (2 for the non-minimal ones); on small batches greedy UGAL performs very poorly (all inputs pick the short minimal queue before the state is updated), UGAL-S removes that but VAL and UGAL-S keep the transient imbalance across intermediate nodes, and CLOS AD removes both and is best.\n";
    let mut csv_text = String::from("series,batch,normalized_latency\n");
    for (name, pts) in &curves {
        for (b, v) in pts {
            let _ = writeln!(csv_text, "{},{b},{v:.4}", csv_field(name));
        }
    }
    let series = collect(&results);
    Ok(Figure {
        name: String::new(),
        title: String::new(),
        plots: vec![("batch".into(), plot)],
        csv: csv_text,
        markdown: md,
        series,
    })
}

fn fb_fig6(opts: &FigureOptions, progress: &dyn Fn(usize, usize)) -> Result<Figure, String> {
    let quick = opts.quick;
    let k = fb_k(quick);
    let n_log2 = if quick { 6 } else { 10 };
    let nets: Vec<(&str, TopologyConfig, &str, u32)> = vec![
        ("flattened butterfly (CLOS AD)", TopologyConfig::flattened_butterfly(k, 2), "clos_ad", 2),
        ("butterfly (destination tag)", TopologyConfig::butterfly(k, 2), "dest_tag", 1),
        ("folded Clos (adaptive)", TopologyConfig::folded_clos(vec![k, k], vec![k / 2]), "updown_ad", 1),
        ("hypercube (e-cube)", TopologyConfig::hypercube(n_log2), "ecube", 1),
    ];
    let (ur, wc) = if quick {
        (steps(0.1, 1.0, 0.1), steps(0.05, 0.6, 0.05))
    } else {
        (steps(0.1, 1.0, 0.05), steps(0.025, 0.6, 0.025))
    };
    let mut sweeps = Vec::new();
    for (name, topo, algo, vcs) in &nets {
        let mut base = fb_base(k, 2, quick);
        base.topology = topo.clone();
        base.router.vcs = *vcs;
        sweeps.push(load_sweep("UR", name, &base, algo, "uniform", &ur));
        sweeps.push(load_sweep("WC", name, &base, algo, "router_shift", &wc));
    }
    let series = collect(&execute(&sweeps, opts, progress)?);
    let plots = vec![
        ("ur".into(), latency_plot("(a) uniform random", &series, "UR", 50.0)),
        ("wc".into(), latency_plot("(b) worst case (router shift)", &series, "WC", 50.0)),
        ("ur-throughput".into(), throughput_plot("(a) uniform random: accepted", &series, "UR")),
        ("wc-throughput".into(), throughput_plot("(b) worst case: accepted", &series, "WC")),
    ];
    let mut md = format!(
        "N = {}: {k}-ary 2-flat with CLOS AD (2 VCs × 16 flits), {k}-ary 2-fly with destination tags, folded Clos `down = [{k}, {k}], up = [{}]` (radix-{} switches with half the uplinks: the FB's bisection, β = 0.5), {n_log2}-cube with e-cube (1 VC × 32 flits each). Router shift on the hypercube (one terminal per router) is the neighbour permutation i → i+1.\n\n",
        k * k,
        k / 2,
        2 * k
    );
    md += &table(&series, &[0.1, 0.3, 0.45]);
    md += "\nPaper (Fig. 6, §3.3): on UR every topology reaches 100 % except the folded Clos (50 %: half its bandwidth goes to load-balancing through the middle stage), which also has slightly higher latency; the hypercube has much higher latency (diameter). On WC the butterfly is limited like minimal routing on the FB (1/32), the others reach 50 %.\n";
    Ok(finish(plots, series, "load", md))
}

fn fb_fig12(opts: &FigureOptions, progress: &dyn Fn(usize, usize)) -> Result<Figure, String> {
    let quick = opts.quick;
    // Table 4 (N = 4K): (k, n) with n' = n − 1; quick: N = 256.
    let shapes: Vec<(u32, u32)> =
        if quick { vec![(16, 2), (4, 4), (2, 8)] } else { vec![(64, 2), (16, 3), (8, 4), (4, 6), (2, 12)] };
    let loads = steps(0.1, 1.0, 0.1);
    let mut sweeps = Vec::new();
    for &(k, n) in &shapes {
        let name = format!("k' = {} (n' = {})", n * (k - 1) + 1, n - 1);
        let mut val = fb_base(k, n, quick);
        val.router.buffer_per_port = Some(64);
        sweeps.push(load_sweep("VAL", &name, &val, "val", "uniform", &loads));
        let mut min_ad = val.clone();
        min_ad.router.vcs = n - 1;
        sweeps.push(load_sweep("MIN AD", &name, &min_ad, "min_ad", "uniform", &loads));
    }
    let series = collect(&execute(&sweeps, opts, progress)?);
    let plots = vec![
        ("val".into(), latency_plot("(a) VAL, uniform random", &series, "VAL", 100.0)),
        ("min-ad".into(), latency_plot("(b) MIN AD, uniform random", &series, "MIN AD", 100.0)),
    ];
    let mut md = format!("N = {}: the k-ary n-flats of Table 4, 64 flits per port (VAL: 2 VCs; MIN AD: n' VCs, so the depth per VC shrinks as n' grows), UR.\n\n", if quick { 256 } else { 4096 });
    md += &table(&series, &[0.1, 0.4]);
    md += "\nPaper (Fig. 12, §5.1.1): as k' decreases (n' grows) latency rises with the diameter; with VAL throughput stays at 50 %, with MIN AD it degrades by about 20 % from n' = 1 to n' = 5 as the fixed 64-flit storage is split over n' VCs.\n";
    Ok(finish(plots, series, "load", md))
}

// ----- HyperX paper -----

/// The HyperX paper's §4.1 router.
fn hx_router(c: &mut SimConfig) {
    c.router.vcs = 6;
    c.router.buffer_depth = 32;
    c.router.buffer_per_port = None;
    c.router.pipeline_delay = 4;
    c.router.speedup = 2;
    c.router.switch_allocator = SwitchAllocator::Islip;
    c.routing.allocator = AllocatorMode::Auto;
}

fn hx_base(topology: TopologyConfig, quick: bool) -> SimConfig {
    let mut c = SimConfig::default();
    c.topology = topology;
    hx_router(&mut c);
    measurement(&mut c, quick);
    c
}

const HX_PATTERNS: [(&str, &str); 4] = [
    ("bit complement", "bit_complement"),
    ("bit rotate", "bit_rotate"),
    ("transpose", "transpose"),
    ("Swap2", "swap2"),
];

fn hx_fig6(opts: &FigureOptions, progress: &dyn Fn(usize, usize)) -> Result<Figure, String> {
    let quick = opts.quick;
    let topo = if quick {
        TopologyConfig::hyperx(vec![4, 4, 4], vec![1], 4)
    } else {
        TopologyConfig::hyperx(vec![8, 8, 8], vec![1], 8)
    };
    let base = hx_base(topo, quick);
    let algorithms = ["min_ad", "val", "clos_ad_hx", "clos_ad", "dal"];
    let loads = if quick { steps(0.1, 1.0, 0.1) } else { steps(0.05, 1.0, 0.05) };
    let mut sweeps = Vec::new();
    for (panel, pattern) in HX_PATTERNS {
        for a in algorithms {
            sweeps.push(load_sweep(panel, label(a), &base, a, pattern, &loads));
        }
    }
    let series = collect(&execute(&sweeps, opts, progress)?);
    let plots = HX_PATTERNS
        .iter()
        .zip(["a", "b", "c", "d"])
        .map(|((panel, pattern), l)| {
            (pattern.replace('_', "-"), latency_plot(&format!("({l}) {panel}"), &series, panel, 150.0))
        })
        .collect();
    let mut md = format!(
        "{}: 6 VCs × 32 flits (DAL: 3 adaptive + 3 escape), 4-cycle switches, 1-cycle channels, iSLIP with speedup 2, sequential route allocation. β = {}.\n\n",
        if quick { "4×4×4 HyperX, T = 4 (N = 256; quick)" } else { "8×8×8 HyperX, T = 8, K = 1 (N = 4096, R = 29 of 32 ports used)" },
        0.5
    );
    md += &table(&series, &[0.1, 0.3, 0.5]);
    md += "\nSaturation throughput (accepted at the highest unsaturated load; ≥ where the network never saturated):\n\n| pattern |";
    for a in algorithms {
        let _ = write!(md, " {} |", label(a));
    }
    md += "\n|---|";
    md += &"---|".repeat(algorithms.len());
    md += "\n";
    for (panel, _) in HX_PATTERNS {
        let _ = write!(md, "| {panel} |");
        for a in algorithms {
            let _ = write!(md, " {} |", series_saturation(&series, panel, label(a)).throughput_text());
        }
        md += "\n";
    }
    md += "\nPaper (Fig. 6, §4.1): Valiant reliably reaches β = 0.5 on every pattern at the price of latency; Min-AD reaches 2β on benign patterns but can fall to 1/T on congesting ones (bit complement); Clos-AD and DAL route minimally at low load and adapt at high load; Clos-AD has lower latency on bit complement at low to medium load (it deroutes once, early), DAL has the highest saturation throughput on all four patterns and reaches the theoretical 2β = 1 on Swap2, where Clos-AD deroutes through already aligned dimensions.\n";
    Ok(finish(plots, series, "load", md))
}

fn hx_fig7(opts: &FigureOptions, progress: &dyn Fn(usize, usize)) -> Result<Figure, String> {
    let quick = opts.quick;
    // (name, topology, routing, β)
    let nets: Vec<(&str, TopologyConfig, &str)> = if quick {
        vec![
            ("HyperX β = 0.5 (DAL)", TopologyConfig::hyperx(vec![4, 4, 4], vec![1], 4), "dal"),
            ("HyperX β = 0.25 (DAL)", TopologyConfig::hyperx(vec![4, 4], vec![2], 16), "dal"),
            ("folded Clos β = 0.5", TopologyConfig::folded_clos(vec![4, 4, 4, 4], vec![2, 4, 4]), "updown_ad"),
            ("folded Clos β = 0.25", TopologyConfig::folded_clos(vec![4, 4, 4, 4], vec![1, 4, 4]), "updown_ad"),
        ]
    } else {
        vec![
            ("HyperX β = 0.5 (DAL)", TopologyConfig::hyperx(vec![8, 8, 8], vec![1], 8), "dal"),
            ("HyperX β = 0.25 (DAL)", TopologyConfig::hyperx(vec![4, 8, 8], vec![2, 1, 1], 16), "dal"),
            ("folded Clos β = 0.5", TopologyConfig::folded_clos(vec![16, 16, 16], vec![8, 16]), "updown_ad"),
            ("folded Clos β = 0.25", TopologyConfig::folded_clos(vec![16, 16, 16], vec![4, 16]), "updown_ad"),
        ]
    };
    let loads = if quick { steps(0.1, 1.0, 0.1) } else { [steps(0.05, 0.5, 0.05), steps(0.6, 1.0, 0.1)].concat() };
    let mut sweeps = Vec::new();
    for (panel, pattern) in HX_PATTERNS {
        for (name, topo, algo) in &nets {
            let mut base = hx_base(topo.clone(), quick);
            if *algo == "updown_ad" {
                // Up/down routing is deadlock free on one VC; all 6 serve as one class.
                base.routing.allocator = AllocatorMode::Sequential;
            }
            sweeps.push(load_sweep(panel, name, &base, algo, pattern, &loads));
        }
    }
    let series = collect(&execute(&sweeps, opts, progress)?);
    let plots = HX_PATTERNS
        .iter()
        .zip(["a", "b", "c", "d"])
        .map(|((panel, pattern), l)| {
            (pattern.replace('_', "-"), latency_plot(&format!("({l}) {panel}"), &series, panel, 150.0))
        })
        .collect();
    let mut md = String::from(if quick {
        "Quick (N = 256): HyperX 4×4×4 T = 4 (β = 0.5) and 4×4 K = 2 T = 16 (β = 0.25) with DAL; folded Clos `down = [4, 4, 4, 4]` with `up = [2, 4, 4]` (β = 0.5) or `[1, 4, 4]` (β = 0.25).\n\n"
    } else {
        "N = 4096: HyperX 8×8×8, T = 8, K = 1 (β = 0.5, the Fig. 6 network) and HyperX S = (4, 8, 8), K = (2, 1, 1), T = 16 (β = min K·S/2T = 0.25, radix 36) with DAL; folded Clos `down = [16, 16, 16]` with `up = [8, 16]` (β = 0.5: 256 + 128 + 128 radix-≤32 switches) or `up = [4, 16]` (β = 0.25) with adaptive up-routing; Swap2 on the Clos is the permutation Swap2 defines on the 16-ary 3-flat with the same leaves. The paper's β = 0.25 HyperX is T = 14, S = 7, K = 1 with 4096 of its 4802 terminal ports used and its folded Clos packs 205/130/80 switches; the simulator needs every terminal port populated and the bit permutations need N = 2^m, hence the regular equivalents above. Same router as Fig. 6.\n\n"
    });
    md += &table(&series, &[0.1, 0.2]);
    md += "\nSaturation throughput (accepted at the highest unsaturated load; ≥ where the network never saturated):\n\n| pattern |";
    for (name, _, _) in &nets {
        let _ = write!(md, " {name} |");
    }
    md += "\n|---|";
    md += &"---|".repeat(nets.len());
    md += "\n";
    for (panel, _) in HX_PATTERNS {
        let _ = write!(md, "| {panel} |");
        for (name, _, _) in &nets {
            let _ = write!(md, " {} |", series_saturation(&series, panel, name).throughput_text());
        }
        md += "\n";
    }
    md += "\nPaper (Fig. 7, §4.1): the folded Clos saturates at β on every pattern (the topology routes everything as Valiant would) and has higher hop counts; HyperX with DAL reaches 2β on patterns that do not congest (Swap2) while keeping β on those that do.\n";
    Ok(finish(plots, series, "load", md))
}

/// The seeds of the first `samples` fault sets of `fraction` on `cfg`'s network (from
/// `cfg.seed` on) that leave it connected: the samples a point averages.
fn connected_fault_seeds(cfg: &SimConfig, fraction: f64, samples: usize) -> Result<Vec<u64>, String> {
    let topo = crate::topology::Topology::build(&cfg.topology).map_err(|e| e.to_string())?;
    let faults = crate::config::FaultConfig { links: Vec::new(), random_fraction: fraction };
    let seeds: Vec<u64> = (cfg.seed..cfg.seed + 100)
        .filter(|&s| crate::topology::FaultSet::from_config(&faults, topo.network(), s).is_ok())
        .take(samples)
        .collect();
    if seeds.len() < samples {
        return Err(format!("{fraction} of the links failed disconnects the network for most seeds"));
    }
    Ok(seeds)
}

/// HyperX §6 (no figure in the paper): saturation throughput (accepted at the highest
/// unsaturated load of a load sweep) against the fraction of failed links, averaged over
/// fault samples, with the fraction of packets lost as unroutable at the lowest load and
/// the highest at any load up to saturation (losses grow with the load where the
/// algorithm's detours run out).
fn hx_faults(opts: &FigureOptions, progress: &dyn Fn(usize, usize)) -> Result<Figure, String> {
    let quick = opts.quick;
    let nets: Vec<(&str, TopologyConfig)> = if quick {
        vec![
            ("HyperX", TopologyConfig::hyperx(vec![4, 4], vec![1], 4)),
            ("folded Clos", TopologyConfig::folded_clos(vec![4, 4, 4], vec![2, 4])),
        ]
    } else {
        vec![
            ("HyperX", TopologyConfig::hyperx(vec![8, 8], vec![1], 8)),
            ("folded Clos", TopologyConfig::folded_clos(vec![8, 8, 8], vec![4, 8])),
        ]
    };
    let algorithms: [(&str, &str); 5] =
        [("HyperX", "min"), ("HyperX", "min_ad"), ("HyperX", "val"), ("HyperX", "dal"), ("folded Clos", "updown_ad")];
    let fractions = if quick { vec![0.0, 0.05, 0.1] } else { vec![0.0, 0.01, 0.02, 0.05, 0.1, 0.15, 0.2] };
    let samples = if quick { 1 } else { 3 };
    let patterns = [("UR", "uniform"), ("bit complement", "bit_complement")];
    let loads = steps(0.1, 1.0, 0.1);
    let mut sweeps = Vec::new();
    let mut points = Vec::new(); // (pattern, algorithm, fraction, series names)
    for (panel, pattern) in patterns {
        for (net, algo) in algorithms {
            let topo = &nets.iter().find(|n| n.0 == net).expect("declared").1;
            let mut base = hx_base(topo.clone(), quick);
            if algo == "updown_ad" {
                base.routing.allocator = AllocatorMode::Sequential;
            }
            for &f in &fractions {
                // Samples of the network the runs use (after the options' overrides).
                let seeds =
                    if f == 0.0 { vec![base.seed] } else { connected_fault_seeds(&opts.apply(&base)?, f, samples)? };
                let mut names = Vec::new();
                for seed in seeds {
                    let mut cfg = base.clone();
                    cfg.seed = seed;
                    cfg.faults.random_fraction = f;
                    let name = format!("{} f={f} seed={seed}", label(algo));
                    sweeps.push(load_sweep(panel, &name, &cfg, algo, pattern, &loads));
                    names.push(name);
                }
                points.push((panel, algo, f, names));
            }
        }
    }
    let series = collect(&execute(&sweeps, opts, progress)?);
    let find = |panel: &str, name: &str| series.iter().find(|s| s.panel == panel && s.name == name);
    // Per (pattern, algorithm, fraction): the samples' means.
    let mut summary: Vec<FaultPoint> = Vec::new();
    for (panel, algo, f, names) in &points {
        let found: Vec<&FigureSeries> = names.iter().filter_map(|n| find(panel, n)).collect();
        let mean = |value: &dyn Fn(&FigureSeries) -> f64| {
            found.iter().map(|s| value(s)).sum::<f64>() / found.len().max(1) as f64
        };
        summary.push(FaultPoint {
            panel,
            algorithm: algo,
            fraction: *f,
            throughput: mean(&|s| super::saturation(&s.points).throughput),
            peak_accepted: mean(&|s| super::saturation(&s.points).peak_accepted),
            unroutable_lowest: mean(&|s| s.points.first().map_or(0.0, |p| p.1.unroutable_fraction)),
            unroutable_most: mean(&|s| {
                // Every load up to and including the first saturated one.
                let upto = s.points.iter().position(|p| p.1.saturated).map_or(s.points.len(), |i| i + 1);
                s.points[..upto].iter().map(|p| p.1.unroutable_fraction).fold(0.0, f64::max)
            }),
        });
    }
    let plots = patterns
        .iter()
        .zip(["a", "b"])
        .map(|((panel, pattern), l)| {
            let mut p = Plot::new(
                format!("({l}) {panel}"),
                "fraction of links failed",
                "saturation throughput (fraction of terminal bandwidth)",
            );
            for (net, algo) in algorithms {
                let pts = summary
                    .iter()
                    .filter(|r| r.panel == *panel && r.algorithm == algo)
                    .map(|r| (r.fraction, r.throughput))
                    .collect();
                p.series.push(Series::new(format!("{} ({net})", label(algo)), pts));
            }
            p.y_range = Some((0.0, 1.0));
            (pattern.replace('_', "-"), p)
        })
        .collect();
    let mut md = format!(
        "{}, the HyperX paper's router (Fig. 6). For each fraction f, f of the router-to-router links fail at random (`faults.random_fraction`, {} fault sample{} per point: the first seeds from 1 whose failures leave the network connected); each point is the saturation throughput of a load sweep 0.1–1.0 (the accepted throughput at its highest unsaturated load), averaged over the samples; the share of packets lost is given at the lowest load and at its worst over the loads up to saturation. Packets that an algorithm routes onto a failed link are dropped and counted as unroutable (HyperX §6: oblivious routing \"will block at any failed link\").\n\n",
        if quick {
            "Quick: HyperX 4×4, T = 4 (N = 64) and folded Clos `down = [4, 4, 4], up = [2, 4]` (N = 64)"
        } else {
            "HyperX 8×8, T = 8, K = 1 (N = 512, β = 0.5) and folded Clos `down = [8, 8, 8], up = [4, 8]` (N = 512, β = 0.5)"
        },
        samples,
        if samples == 1 { "" } else { "s" }
    );
    for (panel, _) in patterns {
        let _ = write!(
            md,
            "**{panel}**: saturation throughput (share of packets lost as unroutable: at load 0.1 / at worst up to saturation)\n\n| algorithm |"
        );
        for f in &fractions {
            let _ = write!(md, " f = {f} |");
        }
        md += "\n|---|";
        md += &"---|".repeat(fractions.len());
        md += "\n";
        for (net, algo) in algorithms {
            let _ = write!(md, "| {} ({net}) |", label(algo));
            for r in summary.iter().filter(|r| r.panel == panel && r.algorithm == algo) {
                if r.unroutable_most > 0.0 {
                    let (low, most) = (100.0 * r.unroutable_lowest, 100.0 * r.unroutable_most);
                    let _ = write!(md, " {:.3} ({low:.1} % / {most:.1} %) |", r.throughput);
                } else {
                    let _ = write!(md, " {:.3} |", r.throughput);
                }
            }
            md += "\n";
        }
        md += "\n";
    }
    md += "Paper (§6): adaptive routing routes around failed links (\"links with hard errors are simply eliminated from the possible routing alternates\"), folded-Clos up-routing avoids uplinks whose deterministic down path meets a failed downlink, DAL permits a further deroute where its only minimal link has failed, and with oblivious routing \"a packet can therefore get stuck at a failed link\".\n";
    Ok(Figure { name: String::new(), title: String::new(), plots, csv: faults_csv(&summary), markdown: md, series })
}

/// One point of hx-faults: a pattern, an algorithm and a fraction of failed links, as the
/// means over the fault samples.
struct FaultPoint<'a> {
    panel: &'a str,
    algorithm: &'a str,
    fraction: f64,
    /// Saturation throughput (accepted at the highest unsaturated load).
    throughput: f64,
    /// Peak accepted throughput at any load (not a saturation throughput).
    peak_accepted: f64,
    /// Share of packets lost as unroutable at the lowest load.
    unroutable_lowest: f64,
    /// The highest share lost at any load up to the first saturated one.
    unroutable_most: f64,
}

/// The hx-faults points: one row per (pattern, algorithm, fraction); `unroutable_fraction`
/// is the highest share lost at any load up to saturation.
fn faults_csv(summary: &[FaultPoint]) -> String {
    let mut out = String::from("panel,series,failed_fraction,saturation_throughput,peak_accepted,unroutable_fraction,unroutable_at_lowest_load\n");
    for r in summary {
        let _ = writeln!(
            out,
            "{},{},{},{:.5},{:.5},{:.5},{:.5}",
            csv_field(r.panel),
            csv_field(label(r.algorithm)),
            r.fraction,
            r.throughput,
            r.peak_accepted,
            r.unroutable_most,
            r.unroutable_lowest
        );
    }
    out
}

// ----- 2DFB paper -----

/// Figs. 4–7: Minimal and adaptive 2DFB on the 8-ary 2DFB, adaptive Clos on a folded
/// Clos of the same size; `two_d` selects N = 512, `throughput` the figure's emphasis.
fn dfb(two_d: bool, throughput: bool, opts: &FigureOptions, progress: &dyn Fn(usize, usize)) -> Result<Figure, String> {
    let quick = opts.quick;
    let (n, dims) = if two_d { (3, 2) } else { (2, 1) };
    let k = 8;
    let mut dfb = SimConfig::default();
    dfb.topology = TopologyConfig::dilated_flattened_butterfly(k, n);
    dfb.router.vcs = 2 * dims;
    dfb.router.buffer_per_port = Some(64);
    dfb.router.terminal_period = 2;
    dfb.routing.threshold = 2;
    measurement(&mut dfb, quick);
    let mut clos = dfb.clone();
    clos.topology = TopologyConfig::folded_clos(vec![k; n as usize], vec![k; n as usize - 1]);
    let patterns = [("benign", "benign"), ("adversarial", "adversarial"), ("random", "random_permutation")];
    let loads = if quick { steps(0.1, 1.0, 0.1) } else { steps(0.05, 1.0, 0.05) };
    let mut sweeps = Vec::new();
    for (panel, pattern) in patterns {
        sweeps.push(load_sweep(panel, "Minimal (2DFB)", &dfb, "min", pattern, &loads));
        sweeps.push(load_sweep(panel, "Adaptive 2DFB", &dfb, "adaptive_2dfb", pattern, &loads));
        sweeps.push(load_sweep(panel, "Adaptive Clos (folded Clos)", &clos, "updown_ad", pattern, &loads));
    }
    let series = collect(&execute(&sweeps, opts, progress)?);
    let mut plots: Vec<(String, Plot)> = Vec::new();
    for (panel, _) in patterns {
        if throughput {
            plots.push((format!("{panel}-throughput"), throughput_plot(&format!("{panel}: accepted"), &series, panel)));
        }
        plots.push((panel.into(), latency_plot(&format!("{panel}: latency"), &series, panel, 100.0)));
    }
    let mut md = format!(
        "{k}-ary {dims}-D 2DFB (N = {}) with K = 2 links per router pair and links at twice the terminal bandwidth (`terminal_period = 2`), {} VCs × {} flits per port, Th = 2 flits, sequential allocation; folded Clos `down = {:?}, up = {:?}` with the same links. Loads and throughput are fractions of the terminal bandwidth.\n\n",
        k.pow(n),
        2 * dims,
        64 / (2 * dims),
        vec![k; n as usize],
        vec![k; n as usize - 1]
    );
    md += &table(&series, &[0.3, 0.6, 0.9]);
    md += if two_d {
        "\nPaper (Figs. 5 and 7): the 2-D networks behave like the 1-D ones: adaptive 2DFB and adaptive Clos ≈ 100 % on every pattern, Minimal ≈ 50 % on adversarial; adaptive 2DFB has lower latency than adaptive Clos on every pattern, its highest on adversarial.\n"
    } else {
        "\nPaper (Figs. 4 and 6): adaptive 2DFB and adaptive Clos reach ≈ 100 % throughput on benign, adversarial and random traffic; Minimal reaches 100 % only on benign and ≈ 50 % on adversarial. Adaptive 2DFB's latency is below adaptive Clos's on all three patterns; Minimal's latency on adversarial is very high.\n"
    };
    Ok(finish(plots, series, "load", md))
}
