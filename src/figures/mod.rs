//! Figure presets: library functions that rerun a paper figure's experiments and return
//! its data series, plots (see [`crate::plot`]) and a Markdown comparison with the paper.
//! The CLI's `hiradix figure <name>` renders them.
//!
//! This module holds what the preset families share: the [`Figure`] and [`FigureSeries`]
//! types, [`FigureOptions`] (quick mode and overrides), the parallel runner, the CSV
//! format, latency and throughput plots and the summary table.

pub mod claims;
pub mod dragonfly;
pub mod fb_hyperx_2dfb;

use crate::config::{apply_override, SimConfig};
use crate::plot::{Plot, Series};
use crate::saturation::CurveSaturation;
use crate::stats::Summary;
use std::fmt::Write as _;

/// One measured curve: a named series of (x, summary) in one panel; x is the offered
/// load (or the batch size).
#[derive(Clone, Debug)]
pub struct FigureSeries {
    pub panel: String,
    pub name: String,
    pub points: Vec<(f64, Summary)>,
}

/// A reproduced figure.
#[derive(Clone, Debug)]
pub struct Figure {
    pub name: String,
    pub title: String,
    /// Plots to write as `<name>-<suffix>.svg`.
    pub plots: Vec<(String, Plot)>,
    /// Every measured point, one CSV row each.
    pub csv: String,
    /// Setup, tables and the comparison with the paper, in Markdown.
    pub markdown: String,
    pub series: Vec<FigureSeries>,
}

/// How to run a preset: the reduced size, and overrides for a shorter run than the
/// preset's (recorded in the figure's Markdown).
#[derive(Clone, Debug, Default)]
pub struct FigureOptions {
    /// Small networks and fewer points.
    pub quick: bool,
    /// `path=value` assignments applied to every run's configuration (as `hiradix run
    /// --set`), e.g. `measurement.measure=1000`.
    pub set: Vec<String>,
    /// Replaces the offered loads of every load sweep (HyperX-family presets only).
    pub loads: Option<Vec<f64>>,
}

impl FigureOptions {
    pub fn quick(quick: bool) -> Self {
        FigureOptions { quick, ..Default::default() }
    }

    /// Applies the `set` overrides to one run's configuration.
    pub fn apply(&self, cfg: &SimConfig) -> Result<SimConfig, String> {
        if self.set.is_empty() {
            return Ok(cfg.clone());
        }
        let mut v: serde_json::Value = serde_json::from_str(&cfg.to_json()).map_err(|e| e.to_string())?;
        for s in &self.set {
            apply_override(&mut v, s).map_err(|e| format!("--set {s}: {}", e.message))?;
        }
        SimConfig::from_value(v).map_err(|e| format!("--set {}: {e}", self.set.join(" ")))
    }

    /// A Markdown line naming the overrides, empty without any.
    pub fn note(&self) -> String {
        let mut parts: Vec<String> = self.set.iter().map(|s| format!("`--set {s}`")).collect();
        if let Some(l) = &self.loads {
            parts.push(format!("offered loads {}", l.iter().map(|x| x.to_string()).collect::<Vec<_>>().join(", ")));
        }
        if parts.is_empty() {
            String::new()
        } else {
            format!("Run with overrides of the preset: {}.\n\n", parts.join(", "))
        }
    }
}

/// One unit of parallel work: `work(i, tick)` (see [`run_parallel`]).
pub(crate) type Unit<'a, R> = dyn Fn(usize, &dyn Fn(usize)) -> R + Sync + 'a;

/// Runs `work(i, tick)` for every `i` in `0..n`, spread over the machine's cores (std
/// threads; in order on wasm), and returns the results in index order. `work` calls
/// `tick(k)` when `k` more of the `total` planned runs are done; `progress(done, total)`
/// is called from the calling thread, first with `done = 0`.
pub(crate) fn run_parallel<R: Send>(
    n: usize,
    total: usize,
    work: &Unit<'_, R>,
    progress: &dyn Fn(usize, usize),
) -> Vec<R> {
    progress(0, total);
    let mut results: Vec<Option<R>> = (0..n).map(|_| None).collect();
    #[cfg(not(target_arch = "wasm32"))]
    {
        use std::sync::atomic::{AtomicUsize, Ordering};
        use std::sync::mpsc;
        enum Msg<R> {
            Tick(usize),
            Done(usize, R),
        }
        let threads = std::thread::available_parallelism().map(|n| n.get()).unwrap_or(1).min(n.max(1));
        let next = AtomicUsize::new(0);
        let (tx, rx) = mpsc::channel::<Msg<R>>();
        std::thread::scope(|scope| {
            for _ in 0..threads {
                let (tx, next) = (tx.clone(), &next);
                scope.spawn(move || loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    if i >= n {
                        break;
                    }
                    let tick = |k: usize| {
                        let _ = tx.send(Msg::Tick(k));
                    };
                    let r = work(i, &tick);
                    if tx.send(Msg::Done(i, r)).is_err() {
                        break;
                    }
                });
            }
            drop(tx);
            let mut done = 0;
            for msg in rx.iter() {
                match msg {
                    Msg::Tick(k) => {
                        done += k;
                        progress(done, total);
                    }
                    Msg::Done(i, r) => results[i] = Some(r),
                }
            }
        });
    }
    #[cfg(target_arch = "wasm32")]
    {
        let done = std::cell::Cell::new(0);
        for (i, slot) in results.iter_mut().enumerate() {
            *slot = Some(work(i, &|k| {
                done.set(done.get() + k);
                progress(done.get(), total);
            }));
        }
    }
    results.into_iter().map(|r| r.expect("every unit ran")).collect()
}

/// The saturation of a series' curve ([`CurveSaturation`]: onset load, saturation
/// throughput and, apart, the peak accepted throughput).
pub fn saturation(points: &[(f64, Summary)]) -> CurveSaturation {
    CurveSaturation::of(points.iter().map(|(l, s)| (*l, s.saturated, s.accepted)))
}

/// Bisection steps [`refine_onset`] takes between a load sweep's last unsaturated and first
/// saturated load (full-size figures only): the saturation throughput is then resolved to
/// an eighth of the sweep's load step.
pub(crate) const REFINE_STEPS: u32 = 3;

/// Refines where a load sweep saturates: between `below` (the last load measured
/// unsaturated) and `above` (the first measured saturated), runs the midpoint (`run(load)`
/// says whether it saturated) and keeps the half in which saturation starts,
/// [`REFINE_STEPS`] times. Returns the points it ran, for the series to include.
pub(crate) fn refine_onset<T, E>(
    mut below: f64,
    mut above: f64,
    mut run: impl FnMut(f64) -> Result<(bool, T), E>,
) -> Result<Vec<(f64, T)>, E> {
    let mut out = Vec::new();
    for _ in 0..REFINE_STEPS {
        let mid = ((below + above) / 2.0 * 1e5).round() / 1e5;
        if mid <= below || mid >= above {
            break;
        }
        let (saturated, point) = run(mid)?;
        out.push((mid, point));
        if saturated {
            above = mid;
        } else {
            below = mid;
        }
    }
    Ok(out)
}

/// The last unsaturated and the first saturated load of a sweep's points (in load order),
/// if it has both: the bracket [`refine_onset`] bisects.
pub(crate) fn onset_bracket(points: impl IntoIterator<Item = (f64, bool)>) -> Option<(f64, f64)> {
    let mut below = None;
    for (load, saturated) in points {
        if saturated {
            return below.map(|b| (b, load));
        }
        below = Some(load);
    }
    None
}

/// Average latency at an offered load (NaN if not measured or saturated).
pub fn latency_at(series: &FigureSeries, load: f64) -> f64 {
    series.points.iter().find(|(l, s)| (l - load).abs() < 1e-9 && !s.saturated).map_or(f64::NAN, |(_, s)| s.avg_latency)
}

/// The saturation of one series of a figure (NaN throughputs if there is no such series).
pub fn series_saturation(series: &[FigureSeries], panel: &str, name: &str) -> CurveSaturation {
    series.iter().find(|s| s.panel == panel && s.name == name).map_or(
        CurveSaturation { onset_load: None, last_unsaturated_load: 0.0, throughput: f64::NAN, peak_accepted: f64::NAN },
        |s| saturation(&s.points),
    )
}

/// A CSV field: quoted (RFC 4180) when it holds a comma, a quote or a line break, as
/// series names like `MIN, 2-D FB 2×4` do; a field a spreadsheet would take for a formula
/// (starting with `=`, `+`, `-`, `@`, a tab or a carriage return) is prefixed with `'`
/// (OWASP's rule for CSV injection), so a label read from a file cannot run one.
pub fn csv_field(text: &str) -> std::borrow::Cow<'_, str> {
    let formula = text.starts_with(['=', '+', '-', '@', '\t', '\r']);
    let text: std::borrow::Cow<'_, str> = if formula { format!("'{text}").into() } else { text.into() };
    if text.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", text.replace('"', "\"\"")).into()
    } else {
        text
    }
}

/// Every point, one CSV row each; `x_name` names the x column (`load`, `batch`).
pub(crate) fn csv(series: &[FigureSeries], x_name: &str) -> String {
    let mut out = format!("panel,series,{x_name},offered_measured,accepted,avg_latency,p50_latency,p99_latency,avg_hops,nonminimal_fraction,avg_latency_minimal,avg_latency_nonminimal,saturated,saturation\n");
    for s in series {
        for (x, p) in &s.points {
            let _ = writeln!(
                out,
                "{},{},{},{:.5},{:.5},{:.3},{},{},{:.3},{:.4},{:.3},{:.3},{},{}",
                csv_field(&s.panel),
                csv_field(&s.name),
                x,
                p.offered_measured,
                p.accepted,
                p.avg_latency,
                p.p50_latency,
                p.p99_latency,
                p.avg_hops,
                p.nonminimal_fraction,
                p.avg_latency_minimal,
                p.avg_latency_nonminimal,
                p.saturated,
                p.saturation.map_or("", |c| c.name())
            );
        }
    }
    out
}

/// Latency-vs-load plot of the series of one panel (saturated points left out); with
/// `y_max` the axes run from 0 to the highest load and to `y_max`.
pub(crate) fn latency_plot(
    title: &str,
    x_label: &str,
    series: &[FigureSeries],
    panel: &str,
    y_max: Option<f64>,
) -> Plot {
    let mut p = Plot::new(title, x_label, "average latency (cycles)");
    for s in series.iter().filter(|s| s.panel == panel) {
        p.series.push(Series::new(
            &s.name,
            s.points.iter().filter(|(_, x)| !x.saturated).map(|(l, x)| (*l, x.avg_latency)).collect(),
        ));
    }
    if let Some(y) = y_max {
        let x_max =
            series.iter().filter(|s| s.panel == panel).flat_map(|s| s.points.iter().map(|p| p.0)).fold(0.0, f64::max);
        p.x_range = Some((0.0, x_max));
        p.y_range = Some((0.0, y));
    }
    p
}

/// Accepted-vs-offered plot of one panel (saturated points hollow).
pub(crate) fn throughput_plot(title: &str, y_label: &str, series: &[FigureSeries], panel: &str) -> Plot {
    let mut p = Plot::new(title, "offered load", y_label);
    for s in series.iter().filter(|s| s.panel == panel) {
        let mut line = Series::new(&s.name, s.points.iter().map(|(l, x)| (*l, x.accepted)).collect());
        line.hollow = s.points.iter().map(|(_, x)| x.saturated).collect();
        p.series.push(line);
    }
    p
}

/// Markdown table: one row per series with where saturation starts (between the last
/// unsaturated and the first saturated load), the saturation throughput, the peak accepted
/// throughput at any load, optionally the hop count at the lowest load, and the latencies
/// at chosen loads.
pub(crate) fn table(series: &[FigureSeries], at: &[f64], hops: bool) -> String {
    let mut out = String::from("| panel | series | saturation onset (load) | saturation throughput | peak accepted |");
    if hops {
        out += " hops (lowest load) |";
    }
    for l in at {
        let _ = write!(out, " latency @{l} |");
    }
    out += "\n|---|---|---|---|---|";
    if hops {
        out += "---|";
    }
    out += &"---|".repeat(at.len());
    out += "\n";
    for s in series {
        let sat = saturation(&s.points);
        let _ = write!(
            out,
            "| {} | {} | {} | {} | {:.3} |",
            s.panel,
            s.name,
            sat.onset_text(),
            sat.throughput_text(),
            sat.peak_accepted
        );
        if hops {
            let h = s.points.first().map_or(f64::NAN, |p| p.1.avg_hops);
            let _ = write!(out, " {h:.2} |");
        }
        for &l in at {
            let v = latency_at(s, l);
            if v.is_nan() {
                out += " – |";
            } else {
                let _ = write!(out, " {v:.1} |");
            }
        }
        out += "\n";
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn refinement_bisects_towards_the_onset() {
        // A network that saturates from 0.43: between 0.4 and 0.5, three halvings.
        let ran = refine_onset(0.4, 0.5, |l| Ok::<_, ()>((l >= 0.43, ()))).unwrap();
        assert_eq!(ran.iter().map(|p| p.0).collect::<Vec<_>>(), vec![0.45, 0.425, 0.4375]);
        assert_eq!(onset_bracket([(0.1, false), (0.2, false), (0.3, true), (0.4, true)]), Some((0.2, 0.3)));
        assert_eq!(onset_bracket([(0.1, true)]), None);
        assert_eq!(onset_bracket([(0.1, false)]), None);
    }

    #[test]
    fn overrides_apply_to_every_run_and_are_named() {
        let o = FigureOptions { quick: true, set: vec!["measurement.measure=300".into()], loads: Some(vec![0.1, 0.3]) };
        assert_eq!(o.apply(&SimConfig::default()).unwrap().measurement.measure, 300);
        let fig = fb_hyperx_2dfb::run_figure("dfb-fig4", &o, &|_, _| {}).unwrap();
        assert_eq!(fig.series.len(), 9);
        for s in &fig.series {
            assert_eq!(s.points.iter().map(|p| p.0).collect::<Vec<_>>(), vec![0.1, 0.3], "{}", s.name);
        }
        assert!(fig.markdown.contains("`--set measurement.measure=300`, offered loads 0.1, 0.3"), "{}", fig.markdown);
        // Without overrides the Markdown says nothing about them.
        let plain = fb_hyperx_2dfb::run_figure("fb-fig5", &FigureOptions::quick(true), &|_, _| {}).unwrap();
        assert!(!plain.markdown.contains("overrides"));
        assert!(dragonfly::run_figure("df-fig9", &o, &|_, _| {}).unwrap_err().contains("--loads"));
        let bad = FigureOptions { set: vec!["router.vcs=0".into()], ..FigureOptions::quick(true) };
        assert!(fb_hyperx_2dfb::run_figure("dfb-fig4", &bad, &|_, _| {}).unwrap_err().contains("router.vcs"));
    }
}
