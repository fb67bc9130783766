//! Reproductions of the dragonfly paper's routing figures (Kim et al., ISCA 2008, §4):
//! Figs. 8, 9, 10, 11, 12, 14 and 16, on the paper's 1K-node network (p = h = 4, a = 8,
//! g = 33, N = 1056) or, with `quick`, on the 72-node dragonfly of its Fig. 5
//! (p = h = 2, a = 4, g = 9) for a fast look.
//!
//! Setup (the paper's where it gives one, §4.2): single-flit packets, Bernoulli
//! injection, input-queued routers with internal speedup 2 whose outputs buffer every
//! packet that has its downstream credit (`router.output_queue = vcs · depth`, as in
//! BookSim's router with speedup, the paper's simulator), 1-cycle channels and router
//! delay, 3 VCs (Fig. 7) of 16 flits each ("input buffers 16 flits deep", taken per VC;
//! 256 for the deep-buffer panels), greedy allocation of routing decisions (the paper's
//! "parallel or greedy allocation"), warm-up, a labeled measurement window and a drain.
//! UR is uniform random traffic, WC the group shift of §4.2 (group i to group i+1).
//!
//! Usage: [`DRAGONFLY_FIGURES`] lists the presets, [`run_figure`] runs one and returns a
//! [`Figure`] with its plots, a CSV of every point and a Markdown summary that puts the
//! measured numbers next to the paper's. Runs are spread over the machine's cores.

mod variants;

use super::{csv, csv_field, latency_plot, onset_bracket, refine_onset, run_parallel, table, throughput_plot};
pub use super::{latency_at, saturation, Figure, FigureOptions, FigureSeries};
use crate::config::{IntermediateGroup, SimConfig, TopologyConfig};
use crate::experiment::{run, RunResult};
use crate::plot::{Plot, Series};
use crate::stats::dragonfly::{global_channel_utilization, histogram_bins};
use crate::stats::Summary;
use crate::topology::Topology;
use std::fmt::Write as _;

/// The figure presets: (name, description).
pub const DRAGONFLY_FIGURES: &[(&str, &str)] = &[
    ("df-fig8", "dragonfly Fig. 8: MIN, VAL, UGAL-L, UGAL-G latency vs offered load, UR and WC"),
    ("df-fig9", "dragonfly Fig. 9: global channel utilization under WC at load 0.2, UGAL-L vs UGAL-G"),
    ("df-fig10", "dragonfly Fig. 10: UGAL-L_VC and UGAL-L_VCH vs UGAL-L and UGAL-G, UR and WC"),
    (
        "df-fig11",
        "dragonfly Fig. 11: UGAL-L on WC, latency of minimal vs non-minimal packets, 16- and 256-flit buffers",
    ),
    ("df-fig12", "dragonfly Fig. 12: UGAL-L on WC at load 0.25, latency histogram, 16- and 256-flit buffers"),
    ("df-fig14", "dragonfly Fig. 14: UGAL-L on WC, latency vs load for buffer depths 4 to 256"),
    ("df-fig16", "dragonfly Fig. 16: UGAL-L_CR vs UGAL-L, UGAL-L_VCH and UGAL-G, WC and UR, 16- and 256-flit buffers"),
    (
        "df-groups",
        "dragonfly §3.2: groups of 8 routers fully connected vs 2-D and 3-D flattened butterflies (Fig. 6), and bandwidth tapering, MIN, VAL, UGAL-L, UR and WC",
    ),
    (
        "df-slices",
        "dragonfly §3.2: channel slicing, two 1K networks in parallel, healthy and with one slice degraded, under each slice policy, UGAL-L, UR",
    ),
];

/// The base configuration of every run: the 1K network (or the 72-node one if `quick`).
pub fn base_config(quick: bool, buffer_depth: u32) -> SimConfig {
    let mut c = SimConfig::default();
    c.topology = if quick { TopologyConfig::dragonfly(2, 4, 2, 9) } else { TopologyConfig::dragonfly(4, 8, 4, 33) };
    c.router.vcs = 3;
    c.router.buffer_depth = buffer_depth;
    c.router.speedup = 2;
    c.router.pipeline_delay = 1;
    // The paper's router buffers at the outputs, bounded by the downstream credits.
    c.router.output_queue = Some(c.router.vcs * buffer_depth);
    c.routing.allocator = crate::config::AllocatorMode::Greedy;
    c.traffic.packet_size = 1;
    let deep = buffer_depth > 64;
    (c.measurement.warmup, c.measurement.measure, c.measurement.drain_limit) = match (quick, deep) {
        (true, false) => (1500, 1500, 5000),
        (true, true) => (3000, 2000, 10000),
        (false, false) => (3000, 3000, 8000),
        (false, true) => (6000, 3000, 15000),
    };
    c.seed = 1;
    c
}

fn loads(quick: bool, pattern: &str) -> Vec<f64> {
    match (quick, pattern) {
        (false, "group_shift") => (1..=10).map(|i| (i * 5) as f64 / 100.0).collect(),
        (true, "group_shift") => vec![0.05, 0.1, 0.2, 0.3, 0.4, 0.45, 0.5],
        (false, _) => vec![0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.85, 0.9, 0.95],
        (true, _) => vec![0.1, 0.3, 0.5, 0.7, 0.8, 0.9],
    }
}

/// Pretty name of an algorithm as the paper writes it.
pub fn label(algorithm: &str) -> &'static str {
    match algorithm {
        "min" => "MIN",
        "val" => "VAL",
        "ugal_l" => "UGAL-L",
        "ugal_g" => "UGAL-G",
        "ugal_l_vc" => "UGAL-L_VC",
        "ugal_l_vch" => "UGAL-L_VCH",
        "ugal_l_cr" => "UGAL-L_CR",
        _ => "?",
    }
}

/// A run to make: where its result goes, and its configuration.
struct Job {
    panel: String,
    series: String,
    cfg: SimConfig,
}

fn job(panel: &str, series: &str, quick: bool, depth: u32, algorithm: &str, pattern: &str, load: f64) -> Job {
    let mut cfg = base_config(quick, depth);
    cfg.routing.algorithm = algorithm.into();
    cfg.traffic.pattern = pattern.into();
    cfg.traffic.load = load;
    Job { panel: panel.into(), series: series.into(), cfg }
}

/// Load sweeps for each (panel, series, algorithm, pattern, depth).
fn sweeps(quick: bool, specs: &[(&str, &str, &str, &str, u32)]) -> Vec<Job> {
    let mut jobs = Vec::new();
    for &(panel, series, algorithm, pattern, depth) in specs {
        // MIN saturates at 1/(ah) on group shift: sweep its own range there.
        let sweep = if algorithm == "min" && pattern == "group_shift" {
            if quick {
                vec![0.03, 0.06, 0.09, 0.12, 0.15]
            } else {
                vec![0.005, 0.01, 0.015, 0.02, 0.025, 0.03, 0.035, 0.05]
            }
        } else {
            loads(quick, pattern)
        };
        for load in sweep {
            jobs.push(job(panel, series, quick, depth, algorithm, pattern, load));
        }
    }
    jobs
}

/// Saturated points a load sweep runs before it skips its remaining (higher) loads.
const SATURATED_POINTS: usize = 2;

/// Axis labels of the load plots.
const LOAD_AXIS: &str = "offered load (fraction of capacity)";
const THROUGHPUT_AXIS: &str = "accepted throughput (flits/cycle/terminal)";

/// What [`execute`] ran: each job's result in job order (`None`: skipped past saturation),
/// and the points the refinement of a load sweep's onset added ([`refine_onset`]), each
/// with the index of its series' first job.
struct Runs {
    results: Vec<Option<RunResult>>,
    refined: Vec<(usize, f64, RunResult)>,
}

/// One series' runs: its jobs' results and its refined points (load, result).
type SeriesRuns = (Vec<Option<RunResult>>, Vec<(f64, RunResult)>);

/// Runs every job (with the options' overrides), spreading the series (runs of
/// consecutive jobs with the same panel and series) over the machine's cores; a series
/// stops after [`SATURATED_POINTS`] saturated loads, its remaining points are `None`, and
/// in a full-size figure it then bisects between its last unsaturated and first saturated
/// load ([`refine_onset`]). `progress(done, total)` is called from the calling thread.
fn execute(jobs: &[Job], opts: &FigureOptions, progress: &dyn Fn(usize, usize)) -> Result<Runs, String> {
    let total = jobs.len();
    let mut units: Vec<std::ops::Range<usize>> = Vec::new();
    for (i, j) in jobs.iter().enumerate() {
        match units.last_mut() {
            Some(u) if jobs[u.start].panel == j.panel && jobs[u.start].series == j.series => u.end = i + 1,
            _ => units.push(i..i + 1),
        }
    }
    let one = |j: &Job, load: f64| {
        let mut cfg = opts.apply(&j.cfg)?;
        cfg.traffic.load = load;
        run(&cfg).map_err(|e| format!("{} / {} at load {load}: {e}", j.panel, j.series))
    };
    // Runs one series in load order, then refines its onset.
    let series = |u: usize, tick: &dyn Fn(usize)| -> Result<SeriesRuns, String> {
        let mut saturated = 0;
        let mut out = Vec::new();
        for i in units[u].clone() {
            if saturated >= SATURATED_POINTS {
                out.push(None);
                tick(1);
                continue;
            }
            let r = one(&jobs[i], jobs[i].cfg.traffic.load)?;
            if r.summary.saturated {
                saturated += 1;
            }
            out.push(Some(r));
            tick(1);
        }
        let mut refined = Vec::new();
        let measured = units[u]
            .clone()
            .zip(&out)
            .filter_map(|(i, r)| Some((jobs[i].cfg.traffic.load, r.as_ref()?.summary.saturated)));
        if let (false, Some((below, above))) = (opts.quick, onset_bracket(measured)) {
            refined = refine_onset(below, above, |load| {
                let r = one(&jobs[units[u].start], load)?;
                Ok::<_, String>((r.summary.saturated, r))
            })?;
        }
        Ok((out, refined))
    };
    let mut runs = Runs { results: Vec::with_capacity(total), refined: Vec::new() };
    for (u, done) in run_parallel(units.len(), total, &series, progress).into_iter().enumerate() {
        let (results, refined) = done?;
        runs.results.extend(results);
        runs.refined.extend(refined.into_iter().map(|(load, r)| (units[u].start, load, r)));
    }
    Ok(runs)
}

/// Groups results into series (in job order, each in load order, refined points included);
/// skipped points are left out.
fn collect(jobs: &[Job], runs: &Runs) -> Vec<FigureSeries> {
    let mut out: Vec<FigureSeries> = Vec::new();
    let measured = jobs.iter().zip(&runs.results).filter_map(|(j, r)| Some((j, j.cfg.traffic.load, r.as_ref()?)));
    let refined = runs.refined.iter().map(|(i, load, r)| (&jobs[*i], *load, r));
    for (j, load, r) in measured.chain(refined) {
        let point = (load, r.summary.clone());
        match out.iter_mut().find(|s| s.panel == j.panel && s.name == j.series) {
            Some(s) => s.points.push(point),
            None => out.push(FigureSeries { panel: j.panel.clone(), name: j.series.clone(), points: vec![point] }),
        }
    }
    for s in &mut out {
        s.points.sort_by(|a, b| a.0.total_cmp(&b.0));
    }
    out
}

fn setup_text(quick: bool, name: &str) -> String {
    let net = match (name, quick) {
        ("df-groups", true) => "dragonflies with p = h = 2, a = 4 (quick mode), as each series says",
        ("df-groups", false) => "dragonflies with p = h = 2, a = 8, as each series says",
        ("df-slices", true) => "the 72-node dragonfly (p = h = 2, a = 4, g = 9; quick mode), one or two in parallel as each series says",
        ("df-slices", false) => "the 1K-node dragonfly (p = h = 4, a = 8, g = 33, N = 1056 nodes), one or two in parallel as each series says",
        (_, true) => "72-node dragonfly (p = h = 2, a = 4, g = 9; quick mode)",
        (_, false) => "1K-node dragonfly (p = h = 4, a = 8, g = 33, N = 1056)",
    };
    // df-slices has one panel, UR, and no series with the `other` reading.
    let wc_and_reading = if name == "df-slices" {
        " The intermediate group of UGAL's non-minimal candidate is drawn among all g groups (`routing.intermediate_group = any`, the paper's reading; drawing the source or destination group means a minimal path)."
    } else {
        " WC = group shift (group i → group i+1). The intermediate group of VAL and of UGAL's non-minimal candidate is drawn among all g groups (`routing.intermediate_group = any`, the paper's reading; drawing the source or destination group means a minimal path) unless a series says \"other groups\" (`other`: among the groups other than the source and destination group)."
    };
    format!("Network: {net}, absolute global arrangement. Routers: 3 VCs (Fig. 7), internal speedup 2 with output queues bounded by the downstream credits, 1-cycle router delay and channels, greedy route allocation; single-flit packets, Bernoulli injection.{wc_and_reading} Saturation: the rule of `hiradix::saturation` (labeled packets not drained, a source queue overflowed, or accepted below offered beyond 4 standard deviations of the backlog's fluctuation); a series stops after two saturated loads, then bisects three times between its last unsaturated and first saturated load.\n")
}

/// Runs a figure preset. `opts.quick` uses the 72-node network and fewer loads;
/// `opts.set` overrides every run's configuration (`opts.loads` is not supported here).
pub fn run_figure(name: &str, opts: &FigureOptions, progress: &dyn Fn(usize, usize)) -> Result<Figure, String> {
    let quick = opts.quick;
    if opts.loads.is_some() {
        return Err(
            "the dragonfly presets have their own loads per pattern; --loads applies to the HyperX-family presets"
                .into(),
        );
    }
    let title = DRAGONFLY_FIGURES.iter().find(|f| f.0 == name).map(|f| f.1).ok_or_else(|| {
        let names: Vec<&str> = DRAGONFLY_FIGURES.iter().map(|f| f.0).collect();
        format!("unknown dragonfly figure '{name}'; one of: {}", names.join(", "))
    })?;
    let mut fig = match name {
        "df-fig8" => fig_compare(
            opts,
            progress,
            &["min", "val", "ugal_l", "ugal_g"],
            &["val", "ugal_l", "ugal_g"],
            16,
            PAPER_FIG8,
        )?,
        "df-fig10" => {
            fig_compare(opts, progress, &["ugal_l", "ugal_g", "ugal_l_vc", "ugal_l_vch"], &[], 16, PAPER_FIG10)?
        }
        "df-fig16" => fig16(opts, progress)?,
        "df-fig9" => fig9(opts, progress)?,
        "df-fig11" => fig11(opts, progress)?,
        "df-fig12" => fig12(opts, progress)?,
        "df-fig14" => fig14(opts, progress)?,
        "df-groups" => variants::groups(opts, progress)?,
        "df-slices" => variants::slices(opts, progress)?,
        _ => unreachable!(),
    };
    fig.name = name.into();
    fig.title = title.into();
    fig.markdown = format!("### {title}\n\n{}{}\n{}", opts.note(), setup_text(quick, name), fig.markdown);
    Ok(fig)
}

const PAPER_FIG8: &str = "Paper (Fig. 8): on UR, MIN reaches ≈ 100 % and VAL ≈ 50 %; UGAL-L and UGAL-G approach MIN's throughput with slightly higher latency near saturation. On WC, MIN is limited to 1/(ah) = 1/32 ≈ 3 %, VAL reaches slightly under 50 %, UGAL-G about the same as VAL, while UGAL-L has lower throughput and a high average latency at intermediate load.";
const PAPER_FIG10: &str = "Paper (Fig. 10): UGAL-L_VC matches UGAL-G's throughput on WC but loses ≈ 30 % of throughput on UR; UGAL-L_VCH keeps the WC throughput and matches UGAL-G's throughput on UR, with ≈ 2× higher latency than UGAL-G near saturation (load 0.8), and still a higher intermediate latency than UGAL-G on WC.";

/// Series name of an algorithm run with `routing.intermediate_group = other` (the
/// alternative to the default, `any`).
pub fn other_groups_label(algorithm: &str) -> String {
    format!("{} (other groups)", label(algorithm))
}

/// Figs. 8 and 10: a set of algorithms on UR and WC (with the default intermediate-group
/// rule, `any`), and `other_too` again with intermediate groups drawn among the groups
/// other than the source and destination group (`routing.intermediate_group = other`).
fn fig_compare(
    opts: &FigureOptions,
    progress: &dyn Fn(usize, usize),
    algorithms: &[&str],
    other_too: &[&str],
    depth: u32,
    paper: &str,
) -> Result<Figure, String> {
    let quick = opts.quick;
    let (mut specs, mut other_specs) = (Vec::new(), Vec::new());
    let other_names: Vec<String> = other_too.iter().map(|a| other_groups_label(a)).collect();
    for (panel, pattern) in [("UR", "uniform"), ("WC", "group_shift")] {
        for &a in algorithms {
            specs.push((panel, label(a), a, pattern, depth));
        }
        for (&a, name) in other_too.iter().zip(&other_names) {
            other_specs.push((panel, name.as_str(), a, pattern, depth));
        }
    }
    let mut jobs = sweeps(quick, &specs);
    for mut j in sweeps(quick, &other_specs) {
        j.cfg.routing.intermediate_group = IntermediateGroup::Other;
        jobs.push(j);
    }
    let runs = execute(&jobs, opts, progress)?;
    let series = collect(&jobs, &runs);
    let plots = ur_wc_plots(&series);
    let markdown = format!("{}\n{paper}\n", table(&series, &[0.2, 0.4, 0.8], false));
    Ok(Figure { name: String::new(), title: String::new(), plots, csv: csv(&series, "load"), markdown, series })
}

/// Latency and accepted-throughput plots of the UR and WC panels.
fn ur_wc_plots(series: &[FigureSeries]) -> Vec<(String, Plot)> {
    vec![
        ("ur".to_string(), latency_plot("(a) uniform random", LOAD_AXIS, series, "UR", Some(100.0))),
        ("wc".to_string(), latency_plot("(b) worst case (group shift)", LOAD_AXIS, series, "WC", Some(100.0))),
        ("ur-throughput".to_string(), throughput_plot("(a) uniform random: accepted", THROUGHPUT_AXIS, series, "UR")),
        ("wc-throughput".to_string(), throughput_plot("(b) worst case: accepted", THROUGHPUT_AXIS, series, "WC")),
    ]
}

/// Fig. 16: UGAL-L_CR against UGAL-L, UGAL-L_VCH and UGAL-G, WC and UR, 16 and 256 flits.
fn fig16(opts: &FigureOptions, progress: &dyn Fn(usize, usize)) -> Result<Figure, String> {
    let quick = opts.quick;
    let algorithms = ["ugal_l", "ugal_l_vch", "ugal_l_cr", "ugal_g"];
    let panels = [
        ("WC-16", "group_shift", 16),
        ("WC-256", "group_shift", 256),
        ("UR-16", "uniform", 16),
        ("UR-256", "uniform", 256),
    ];
    let mut specs = Vec::new();
    for &(panel, pattern, depth) in &panels {
        for a in algorithms {
            specs.push((panel, label(a), a, pattern, depth));
        }
    }
    let jobs = sweeps(quick, &specs);
    let runs = execute(&jobs, opts, progress)?;
    let series = collect(&jobs, &runs);
    let titles =
        ["(a) WC, 16-flit buffers", "(b) WC, 256-flit buffers", "(c) UR, 16-flit buffers", "(d) UR, 256-flit buffers"];
    let plots = panels
        .iter()
        .zip(titles)
        .map(|(&(panel, _, depth), t)| {
            (
                panel.to_lowercase(),
                latency_plot(t, LOAD_AXIS, &series, panel, Some(if depth > 64 { 400.0 } else { 100.0 })),
            )
        })
        .collect();
    // The latency reduction of CR over UGAL-L on WC, per load.
    let mut markdown = table(&series, &[0.2, 0.3, 0.8], false);
    markdown += "\nLatency reduction of UGAL-L_CR relative to UGAL-L (and to UGAL-L_VCH) per load:\n\n| panel | load | UGAL-L | UGAL-L_VCH | UGAL-L_CR | UGAL-G | CR vs L | CR vs VCH |\n|---|---|---|---|---|---|---|---|\n";
    for &(panel, _, _) in &panels {
        let get = |name: &str| series.iter().find(|s| s.panel == panel && s.name == name).expect("series");
        let (l, vch, cr, g) = (get("UGAL-L"), get("UGAL-L_VCH"), get("UGAL-L_CR"), get("UGAL-G"));
        for &(load, _) in &cr.points {
            let (a, b, c, d) = (latency_at(l, load), latency_at(vch, load), latency_at(cr, load), latency_at(g, load));
            if c.is_nan() {
                continue;
            }
            let ratio = |x: f64| {
                if x.is_nan() {
                    "–".to_string()
                } else {
                    format!("{:.0} % ({:.2}×)", 100.0 * (1.0 - c / x), x / c)
                }
            };
            let _ = writeln!(
                markdown,
                "| {panel} | {load} | {a:.1} | {b:.1} | {c:.1} | {d:.1} | {} | {} |",
                ratio(a),
                ratio(b)
            );
        }
    }
    markdown += "\nPaper (Fig. 16): on WC, UGAL-L_CR cuts UGAL-L's latency by up to 35 % with 16-flit buffers and by over 20× at intermediate load with 256-flit buffers, approaching UGAL-G; its intermediate latency does not depend on the buffer size. On UR, UGAL-L_CR reduces latency near saturation by up to 50 % compared with UGAL-L_VCH; both fall short of UGAL-G's UR throughput.\n";
    Ok(Figure { name: String::new(), title: String::new(), plots, csv: csv(&series, "load"), markdown, series })
}

/// Fig. 9: per-channel global utilization under WC at load 0.2, UGAL-L vs UGAL-G.
fn fig9(opts: &FigureOptions, progress: &dyn Fn(usize, usize)) -> Result<Figure, String> {
    let quick = opts.quick;
    let load = 0.2;
    let jobs: Vec<Job> =
        ["ugal_l", "ugal_g"].iter().map(|a| job("WC", label(a), quick, 16, a, "group_shift", load)).collect();
    let runs = execute(&jobs, opts, progress)?;
    let topology = Topology::build(&jobs[0].cfg.topology).map_err(|e| e.to_string())?;
    let df = topology.as_dragonfly().ok_or("not a dragonfly")?;
    let mut plot = Plot::new(
        "Global channel utilization, WC at load 0.2",
        "global channel of a group (minimal, same router, others)",
        "utilization (flits/cycle)",
    );
    let mut markdown = String::from("| algorithm | minimal channel | same-router non-minimal (mean) | other non-minimal (mean) | same-router / other |\n|---|---|---|---|---|\n");
    let mut out = String::from("series,channel,class,utilization\n");
    for (j, r) in jobs.iter().zip(&runs.results) {
        let r = r.as_ref().expect("single runs are never skipped");
        let u = global_channel_utilization(df, &r.channel_utilization, j.cfg.traffic.shift);
        plot.series
            .push(Series::new(&j.series, u.per_channel.iter().enumerate().map(|(i, &v)| (i as f64, v)).collect()));
        let _ = writeln!(
            markdown,
            "| {} | {:.3} | {:.3} | {:.3} | {:.2} |",
            j.series,
            u.minimal,
            u.same_router,
            u.other,
            u.same_router / u.other
        );
        for (i, v) in u.per_channel.iter().enumerate() {
            let _ = writeln!(out, "{},{i},{},{v:.5}", csv_field(&j.series), u.class_of(i));
        }
    }
    plot.y_range = Some((0.0, 1.05));
    markdown += "\nPaper (Fig. 9, load 0.2): with UGAL-G the minimal channel is preferred and the load is spread evenly over all other global channels; with UGAL-L the non-minimal channels on the router of the minimal channel are under-utilized (local queues shared by minimal and non-minimal traffic), which limits its throughput.\n";
    let series = collect(&jobs, &runs);
    Ok(Figure {
        name: String::new(),
        title: String::new(),
        plots: vec![("utilization".into(), plot)],
        csv: out,
        markdown,
        series,
    })
}

/// Fig. 11: UGAL-L on WC, overall / minimal / non-minimal latency, 16 and 256 flits.
fn fig11(opts: &FigureOptions, progress: &dyn Fn(usize, usize)) -> Result<Figure, String> {
    let quick = opts.quick;
    let specs = [
        ("16", "UGAL-L", "ugal_l", "group_shift", 16),
        ("256", "UGAL-L", "ugal_l", "group_shift", 256),
        ("16", "UGAL-G", "ugal_g", "group_shift", 16),
    ];
    let jobs = sweeps(quick, &specs);
    let runs = execute(&jobs, opts, progress)?;
    let series = collect(&jobs, &runs);
    let mut plots = Vec::new();
    let mut markdown = String::from("| buffers | load | average | minimal | non-minimal | non-minimal fraction | UGAL-G average |\n|---|---|---|---|---|---|---|\n");
    let g = series.iter().find(|s| s.name == "UGAL-G").expect("UGAL-G");
    for (depth, t, ymax) in [("16", "(a) 16-flit buffers", 150.0), ("256", "(b) 256-flit buffers", 1500.0)] {
        let s = series.iter().find(|s| s.panel == depth && s.name == "UGAL-L").expect("series");
        let ok: Vec<&(f64, Summary)> = s.points.iter().filter(|(_, x)| !x.saturated).collect();
        let mut p = Plot::new(format!("UGAL-L, WC, {t}"), "offered load", "latency (cycles)");
        p.series.push(Series::new("average", ok.iter().map(|(l, x)| (*l, x.avg_latency)).collect()));
        p.series.push(Series::new("minimal", ok.iter().map(|(l, x)| (*l, x.avg_latency_minimal)).collect()));
        p.series.push(Series::new("non-minimal", ok.iter().map(|(l, x)| (*l, x.avg_latency_nonminimal)).collect()));
        p.series.push(
            Series::new(
                "UGAL-G",
                g.points.iter().filter(|(_, x)| !x.saturated).map(|(l, x)| (*l, x.avg_latency)).collect(),
            )
            .dashed(),
        );
        p.y_range = Some((0.0, ymax));
        plots.push((format!("buffers-{depth}"), p));
        for (l, x) in ok {
            let _ = writeln!(
                markdown,
                "| {depth} | {l} | {:.1} | {:.1} | {:.1} | {:.2} | {:.1} |",
                x.avg_latency,
                x.avg_latency_minimal,
                x.avg_latency_nonminimal,
                x.nonminimal_fraction,
                latency_at(g, *l)
            );
        }
    }
    markdown += "\nPaper (Fig. 11): non-minimally routed packets see a latency close to UGAL-G's, minimally routed ones a much higher latency that grows with the buffer depth (they must fill the buffers up to the congested global channel before the source router senses it).\n";
    Ok(Figure { name: String::new(), title: String::new(), plots, csv: csv(&series, "load"), markdown, series })
}

/// Fig. 12: UGAL-L on WC at load 0.25, latency histograms for 16- and 256-flit buffers.
fn fig12(opts: &FigureOptions, progress: &dyn Fn(usize, usize)) -> Result<Figure, String> {
    let quick = opts.quick;
    let load = 0.25;
    let jobs = vec![
        job("16", "16-flit buffers", quick, 16, "ugal_l", "group_shift", load),
        job("256", "256-flit buffers", quick, 256, "ugal_l", "group_shift", load),
    ];
    let runs = execute(&jobs, opts, progress)?;
    let mut plots = Vec::new();
    let mut out = String::from("buffers,latency_bin_start,fraction\n");
    let mut markdown = String::from("| buffers | average | p50 | p99 | max | minimal avg | non-minimal avg | non-minimal fraction |\n|---|---|---|---|---|---|---|---|\n");
    for (j, r) in jobs.iter().zip(&runs.results) {
        let r = r.as_ref().expect("single runs are never skipped");
        let width = if j.cfg.router.buffer_depth > 64 { 20 } else { 5 };
        let bins = histogram_bins(&r.latency_histogram, width);
        let mut p = Plot::new(format!("UGAL-L, WC at 0.25, {}", j.series), "latency (cycles)", "fraction of packets");
        p.log_y = true;
        p.series.push(Series::new(&j.series, bins.iter().map(|&(b, f)| (b as f64 + width as f64 / 2.0, f)).collect()));
        plots.push((format!("buffers-{}", j.panel), p));
        for (b, f) in &bins {
            let _ = writeln!(out, "{},{b},{f:.6}", j.panel);
        }
        let s = &r.summary;
        let _ = writeln!(
            markdown,
            "| {} | {:.1} | {} | {} | {} | {:.1} | {:.1} | {:.2} |",
            j.panel,
            s.avg_latency,
            s.p50_latency,
            s.p99_latency,
            s.max_latency,
            s.avg_latency_minimal,
            s.avg_latency_nonminimal,
            s.nonminimal_fraction
        );
    }
    markdown += "\nPaper (Fig. 12): two distributions — a large one at low latency (the non-minimal packets) and a smaller one with much higher latency (the minimal packets), which moves further out with 256-flit buffers.\n";
    let series = collect(&jobs, &runs);
    Ok(Figure { name: String::new(), title: String::new(), plots, csv: out, markdown, series })
}

/// Fig. 14: UGAL-L on WC for several buffer depths.
fn fig14(opts: &FigureOptions, progress: &dyn Fn(usize, usize)) -> Result<Figure, String> {
    let quick = opts.quick;
    let depths: &[u32] = if quick { &[4, 16, 64, 256] } else { &[4, 8, 16, 32, 64, 128, 256] };
    let names: Vec<String> = depths.iter().map(|d| format!("{d} flits")).collect();
    let specs: Vec<(&str, &str, &str, &str, u32)> =
        depths.iter().zip(&names).map(|(&d, n)| ("WC", n.as_str(), "ugal_l", "group_shift", d)).collect();
    let jobs = sweeps(quick, &specs);
    let runs = execute(&jobs, opts, progress)?;
    let series = collect(&jobs, &runs);
    let plots = vec![(
        "latency".to_string(),
        latency_plot("UGAL-L, WC, by buffer depth", LOAD_AXIS, &series, "WC", Some(300.0)),
    )];
    let markdown = format!(
        "{}\nPaper (Fig. 14): smaller buffers lower the intermediate-load latency (stiffer backpressure) but also the saturation throughput.\n",
        table(&series, &[0.1, 0.2, 0.3], false)
    );
    Ok(Figure { name: String::new(), title: String::new(), plots, csv: csv(&series, "load"), markdown, series })
}
