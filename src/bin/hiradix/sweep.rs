//! `hiradix sweep`: offered-load sweeps (optionally crossed with one more parameter),
//! run in parallel with rayon, with a progress bar, a table, CSV, JSON and an SVG plot.

use crate::{bad_input, failure, ConfigArgs, Failure};
use clap::Args;
use hiradix::config::{apply_override, shown::shown, SimConfig};
use hiradix::experiment::{self, RunError};
use hiradix::figures::csv_field;
use hiradix::plot::{Plot, Series};
use hiradix::saturation::CurveSaturation;
use hiradix::stats::Summary;
use indicatif::{ProgressBar, ProgressStyle};
use rayon::prelude::*;
use std::path::PathBuf;

#[derive(Args)]
pub struct SweepArgs {
    #[command(flatten)]
    pub config: ConfigArgs,
    /// Offered loads: `start:stop:step` or a comma-separated list.
    #[arg(long, default_value = "0.1:1.0:0.1")]
    pub loads: String,
    /// Cross the load sweep with one parameter: `path=v1,v2,...` (one series each),
    /// e.g. `--vary routing.algorithm=min,min_ad,val`.
    #[arg(long)]
    pub vary: Option<String>,
    #[command(flatten)]
    pub out: Outputs,
    /// Worker threads (default: all cores).
    #[arg(long, short = 'j')]
    pub jobs: Option<usize>,
    #[command(flatten)]
    pub slurm: crate::slurm::SlurmArgs,
}

/// The files a sweep writes (`sweep`, and `merge` of a cluster sweep).
#[derive(Args, Clone, Debug, Default)]
pub struct Outputs {
    /// Every point as CSV, and each series' saturation as `<stem>-saturation.csv`.
    #[arg(long)]
    pub csv: Option<PathBuf>,
    /// Every series with its configuration, saturation and points as JSON.
    #[arg(long)]
    pub json: Option<PathBuf>,
    /// Write latency-vs-load and throughput-vs-load plots as `<stem>-latency.svg` and
    /// `<stem>-throughput.svg`.
    #[arg(long)]
    pub svg: Option<PathBuf>,
}

impl Outputs {
    fn any(&self) -> bool {
        self.csv.is_some() || self.json.is_some() || self.svg.is_some()
    }
}

/// Parses `a:b:step` or `a,b,c`.
pub fn parse_loads(spec: &str) -> Result<Vec<f64>, Failure> {
    hiradix::experiment::parse_loads(spec, MAX_LOADS).map_err(|e| bad_input(format!("--loads {spec}: {e}")))
}

/// The most offered loads one sweep takes.
pub const MAX_LOADS: usize = 1000;
/// The most values `--vary` takes (one series each).
pub const MAX_SERIES: usize = 100;
/// The most points (series × loads) one sweep runs or writes as a Slurm job.
pub const MAX_POINTS: usize = 20_000;
/// The most worker threads `-j` asks for.
pub const MAX_JOBS: usize = 1024;

/// One series of a sweep: its label and configurations per load.
pub struct SeriesSpec {
    pub label: String,
    pub configs: Vec<SimConfig>,
}

/// Builds the series of a sweep; every configuration is validated up front so bad input
/// fails before any simulation starts.
pub fn plan(args: &SweepArgs) -> Result<Vec<SeriesSpec>, Failure> {
    let loads = parse_loads(&args.loads)?;
    let base = args.config.value()?;
    let variants: Vec<(String, serde_json::Value)> = match &args.vary {
        None => vec![(String::new(), base)],
        Some(spec) => {
            let (path, values) = spec
                .split_once('=')
                .ok_or_else(|| bad_input(format!("--vary {}: expected path=v1,v2,...", shown(spec, 80))))?;
            if path.trim() == "traffic.load" {
                return Err(bad_input(
                    "--vary traffic.load: the offered load is what a sweep varies; give the loads with --loads",
                ));
            }
            let count = values.split(',').count();
            if count > MAX_SERIES {
                return Err(bad_input(format!("--vary {}: {count} values; at most {MAX_SERIES}", shown(path, 80))));
            }
            if count.saturating_mul(loads.len()) > MAX_POINTS {
                return Err(bad_input(format!(
                    "--vary and --loads: {count} × {} = {} points; at most {MAX_POINTS} in one sweep",
                    loads.len(),
                    count * loads.len()
                )));
            }
            values
                .split(',')
                .map(|v| {
                    let mut value = base.clone();
                    apply_override(&mut value, &format!("{path}={v}"))
                        .map_err(|e| bad_input(format!("--vary: {}", e.message)))?;
                    Ok((v.trim().to_string(), value))
                })
                .collect::<Result<_, Failure>>()?
        }
    };
    variants
        .into_iter()
        .map(|(label, value)| {
            let configs = loads
                .iter()
                .enumerate()
                .map(|(i, &load)| {
                    let mut v = value.clone();
                    apply_override(&mut v, &format!("traffic.load={load}")).expect("valid path");
                    let cfg = SimConfig::from_value(v)?;
                    hiradix::sim::Simulation::check(&cfg)?; // algorithm/topology checks, nothing allocated
                    if i == 0 {
                        crate::note_unused_settings(
                            &cfg,
                            &if label.is_empty() { String::new() } else { format!("{label}: ") },
                        );
                    }
                    Ok(cfg)
                })
                .collect::<Result<_, Failure>>()?;
            Ok(SeriesSpec { label, configs })
        })
        .collect()
}

/// Runs every point of every series in parallel. Results are in load order.
pub fn execute(series: &[SeriesSpec], bar: &ProgressBar) -> Result<Vec<Vec<Summary>>, Failure> {
    let jobs: Vec<(usize, usize)> =
        series.iter().enumerate().flat_map(|(s, spec)| (0..spec.configs.len()).map(move |i| (s, i))).collect();
    bar.set_length(jobs.len() as u64);
    let results: Vec<((usize, usize), Result<Summary, RunError>)> = jobs
        .par_iter()
        .map(|&(s, i)| {
            let r = experiment::run(&series[s].configs[i]).map(|r| r.summary);
            bar.inc(1);
            ((s, i), r)
        })
        .collect();
    let mut out: Vec<Vec<Summary>> = series.iter().map(|_| Vec::new()).collect();
    for ((s, _), r) in results {
        out[s].push(r.map_err(|e| failure(format!("{}: {e}", series[s].label)))?);
    }
    Ok(out)
}

pub fn table_header() -> String {
    format!(
        "{:>6} {:>9} {:>9} {:>6} {:>6} {:>6} {:>6} {:>8} {:>9}  {}",
        "load", "accepted", "latency", "p50", "p99", "hops", "nonmin", "lat.min", "lat.nonmin", "saturated"
    )
}

pub fn table_row(s: &Summary) -> String {
    let lat = if s.saturated { "sat".to_string() } else { format!("{:.2}", s.avg_latency) };
    let unroutable = match 100.0 * s.unroutable_fraction {
        0.0 => String::new(),
        percent if percent < 0.01 => " (< 0.01 % unroutable: routed onto a failed link)".to_string(),
        percent => format!(" ({percent:.2} % unroutable: routed onto a failed link)"),
    };
    format!(
        "{:>6.3} {:>9.4} {:>9} {:>6} {:>6} {:>6.2} {:>5.1}% {:>8.2} {:>9.2}  {}{unroutable}",
        s.offered_load,
        s.accepted,
        lat,
        s.p50_latency,
        s.p99_latency,
        s.avg_hops,
        100.0 * s.nonminimal_fraction,
        s.avg_latency_minimal,
        s.avg_latency_nonminimal,
        s.saturation.map_or("", |c| c.describe())
    )
}

/// The saturation of one series' curve ([`CurveSaturation`]).
pub fn curve_saturation(rows: &[Summary]) -> CurveSaturation {
    CurveSaturation::of(rows.iter().map(|s| (s.offered_load, s.saturated, s.accepted)))
}

/// Every point, one row each (the `--csv` file).
pub fn points_csv(series: &[SeriesSpec], results: &[Vec<Summary>]) -> String {
    let mut csv = String::from("series,load,offered_measured,accepted,avg_latency,p50_latency,p99_latency,max_latency,avg_hops,nonminimal_fraction,avg_latency_minimal,avg_latency_nonminimal,saturated,saturation,unroutable_fraction\n");
    for (spec, rows) in series.iter().zip(results) {
        for s in rows {
            csv += &format!(
                "{},{},{:.5},{:.5},{:.3},{},{},{},{:.3},{:.4},{:.3},{:.3},{},{},{:.5}\n",
                csv_field(&spec.label),
                s.offered_load,
                s.offered_measured,
                s.accepted,
                s.avg_latency,
                s.p50_latency,
                s.p99_latency,
                s.max_latency,
                s.avg_hops,
                s.nonminimal_fraction,
                s.avg_latency_minimal,
                s.avg_latency_nonminimal,
                s.saturated,
                s.saturation.map_or("", |c| c.name()),
                s.unroutable_fraction
            );
        }
    }
    csv
}

/// One row per series: where saturation starts, the saturation throughput (accepted at
/// the last unsaturated load) and, apart, the peak accepted throughput at any load (the
/// `<stem>-saturation.csv` file). An empty `onset_load` means no point saturated, and the
/// saturation throughput is then a lower bound.
pub fn saturation_csv(series: &[SeriesSpec], results: &[Vec<Summary>]) -> String {
    let mut csv = String::from("series,last_unsaturated_load,onset_load,saturation_throughput,peak_accepted\n");
    for (spec, rows) in series.iter().zip(results) {
        let c = curve_saturation(rows);
        csv += &format!(
            "{},{},{},{:.5},{:.5}\n",
            csv_field(&spec.label),
            c.last_unsaturated_load,
            c.onset_load.map_or(String::new(), |l| l.to_string()),
            c.throughput,
            c.peak_accepted
        );
    }
    csv
}

pub fn run(args: &SweepArgs) -> Result<(), Failure> {
    if let Some(j) = args.jobs {
        if !(1..=MAX_JOBS).contains(&j) {
            return Err(bad_input(format!("-j {j}: must be 1..={MAX_JOBS} threads")));
        }
        rayon::ThreadPoolBuilder::new().num_threads(j).build_global().map_err(|e| failure(e.to_string()))?;
    }
    let series = plan(args)?;
    if let Some(dir) = &args.slurm.slurm {
        if args.out.any() || args.jobs.is_some() {
            return Err(bad_input("--slurm writes a job instead of running: --csv, --json, --svg go to `hiradix merge`, and -j has no effect"));
        }
        return crate::slurm::write_job(&series, &args.slurm, dir);
    }
    check_outputs(&args.out)?;
    let bar = ProgressBar::new(0);
    bar.set_style(ProgressStyle::with_template("{bar:40} {pos}/{len} runs  {elapsed_precise}").expect("template"));
    let results = execute(&series, &bar)?;
    bar.finish_and_clear();
    report(&series, &results, &args.out)
}

/// Checks that every output file can be written, before anything runs.
pub fn check_outputs(out: &Outputs) -> Result<(), Failure> {
    let svgs = out.svg.iter().flat_map(|p| svg_paths(p));
    let csvs = out.csv.iter().flat_map(|p| [p.clone(), saturation_csv_path(p)]);
    for path in csvs.chain(out.json.clone()).chain(svgs) {
        crate::check_writable(&path)?;
    }
    Ok(())
}

/// Prints a sweep's table and writes its CSV, JSON and SVG (the local `sweep` and
/// `merge` of a cluster sweep write the same).
pub fn report(series: &[SeriesSpec], results: &[Vec<Summary>], out: &Outputs) -> Result<(), Failure> {
    check_outputs(out)?;
    for (spec, rows) in series.iter().zip(results) {
        if !spec.label.is_empty() {
            println!("\n== {} ==", shown(&spec.label, usize::MAX));
        }
        println!("{}", table_header());
        for s in rows {
            println!("{}", table_row(s));
        }
        let c = curve_saturation(rows);
        println!("{}", saturation_line(&c));
    }
    let write = |path: &PathBuf, text: String| crate::files::write(path, &text);
    if let Some(p) = &out.csv {
        write(p, points_csv(series, results))?;
        write(&saturation_csv_path(p), saturation_csv(series, results))?;
    }
    if let Some(p) = &out.json {
        let doc: Vec<_> = series.iter().zip(results).map(|(s, r)| serde_json::json!({"series": s.label, "config": s.configs.first(), "saturation": curve_saturation(r), "points": r})).collect();
        write(p, serde_json::to_string_pretty(&doc).expect("serialises"))?;
    }
    if let Some(p) = &out.svg {
        let (lat, thr) = plots(series, results);
        let [lat_path, thr_path] = svg_paths(p);
        write(&lat_path, lat.to_svg())?;
        write(&thr_path, thr.to_svg())?;
    }
    Ok(())
}

/// The sentence under a series' table: where it saturates, its saturation throughput, and
/// the peak accepted throughput named apart.
pub fn saturation_line(c: &CurveSaturation) -> String {
    let peak = format!("peak accepted {:.4} (not a saturation throughput past the onset)", c.peak_accepted);
    match c.onset_load {
        Some(on) if c.last_unsaturated_load > 0.0 => format!(
            "saturation: starts between offered loads {} and {on}; saturation throughput {:.4} (accepted at {}); {peak}",
            c.last_unsaturated_load, c.throughput, c.last_unsaturated_load
        ),
        Some(on) => format!("saturation: already saturated at the lowest offered load {on}; {peak}"),
        None => format!(
            "saturation: not reached up to offered load {}; saturation throughput at least {:.4}; {peak}",
            c.last_unsaturated_load, c.throughput
        ),
    }
}

/// The per-series saturation CSV written next to `--csv PATH`: `<stem>-saturation.csv`.
fn saturation_csv_path(path: &std::path::Path) -> PathBuf {
    PathBuf::from(format!("{}-saturation.csv", path.with_extension("").display()))
}

/// The latency and throughput plots' paths for `--svg PATH`: `<stem>-latency.svg`, `<stem>-throughput.svg`.
fn svg_paths(path: &std::path::Path) -> [PathBuf; 2] {
    let stem = path.with_extension("");
    ["latency", "throughput"].map(|kind| PathBuf::from(format!("{}-{kind}.svg", stem.display())))
}

/// Latency-vs-offered-load (unsaturated points) and accepted-vs-offered plots; each
/// series' name carries its saturation throughput, and the throughput plot marks the
/// saturated points.
pub fn plots(series: &[SeriesSpec], results: &[Vec<Summary>]) -> (Plot, Plot) {
    let mut lat = Plot::new("Average latency", "offered load (flits/cycle/terminal)", "latency (cycles)");
    let mut thr = Plot::new(
        "Accepted throughput (hollow: saturated)",
        "offered load (flits/cycle/terminal)",
        "accepted (flits/cycle/terminal)",
    );
    for (spec, rows) in series.iter().zip(results) {
        let name = match (spec.label.is_empty(), spec.configs.first()) {
            (true, Some(c)) => c.routing.algorithm.clone(),
            _ => spec.label.clone(),
        };
        let c = curve_saturation(rows);
        let name = format!("{name} (sat. {}, onset {})", c.throughput_text(), c.onset_text());
        lat.series.push(Series::new(
            &name,
            rows.iter().filter(|s| !s.saturated).map(|s| (s.offered_load, s.avg_latency)).collect(),
        ));
        let mut t = Series::new(&name, rows.iter().map(|s| (s.offered_load, s.accepted)).collect());
        t.hollow = rows.iter().map(|s| s.saturated).collect();
        thr.series.push(t);
    }
    (lat, thr)
}
