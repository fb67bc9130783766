//! `hiradix figure <name>`: regenerates one paper figure's data (CSV), plots (SVG) and a
//! Markdown comparison with the paper, from the presets in `hiradix::figures`.

use crate::{bad_input, failure, Failure};
use clap::Args;
use hiradix::figures::{dragonfly, Figure, FigureOptions};
use indicatif::{ProgressBar, ProgressStyle};
use std::path::PathBuf;

#[derive(Args)]
pub struct FigureArgs {
    /// Figure name (see `--list`), or `all`.
    pub name: Option<String>,
    /// List the figure presets and exit.
    #[arg(long)]
    pub list: bool,
    /// Reduced network size and fewer loads (seconds instead of minutes).
    #[arg(long)]
    pub quick: bool,
    /// Directory for `<name>.csv`, `<name>-*.svg` and `<name>.md`.
    #[arg(long, default_value = "docs/figures")]
    pub out_dir: PathBuf,
    /// Override a field of every run of the preset, e.g. `--set measurement.measure=1000`
    /// (named in the figure's Markdown).
    #[arg(long = "set", value_name = "PATH=VALUE")]
    pub set: Vec<String>,
    /// Replace the offered loads of every load sweep (HyperX-family presets):
    /// `start:stop:step` or a comma-separated list (named in the figure's Markdown).
    #[arg(long)]
    pub loads: Option<String>,
}

type Runner = fn(&str, &FigureOptions, &dyn Fn(usize, usize)) -> Result<Figure, String>;

/// Every figure preset: (name, description, runner).
fn presets() -> Vec<(&'static str, &'static str, Runner)> {
    let df = dragonfly::DRAGONFLY_FIGURES.iter().map(|&(n, d)| (n, d, dragonfly::run_figure as Runner));
    let hx = hiradix::figures::fb_hyperx_2dfb::HYPERX_FIGURES
        .iter()
        .map(|&(n, d)| (n, d, hiradix::figures::fb_hyperx_2dfb::run_figure as Runner));
    df.chain(hx).collect()
}

pub fn run(args: &FigureArgs) -> Result<(), Failure> {
    let presets = presets();
    if args.list || args.name.is_none() {
        for (name, desc, _) in &presets {
            println!("{name:<14} {desc}");
        }
        return if args.list {
            Ok(())
        } else {
            Err(bad_input("name a figure (or `all`); the presets are listed above"))
        };
    }
    let name = args.name.as_deref().unwrap_or_default();
    let selected: Vec<_> = if name == "all" {
        presets.iter().collect()
    } else {
        vec![presets
            .iter()
            .find(|p| p.0 == name)
            .ok_or_else(|| bad_input(format!("unknown figure '{name}'; see `hiradix figure --list`")))?]
    };
    let loads = args.loads.as_deref().map(crate::sweep::parse_loads).transpose()?;
    let opts = FigureOptions { quick: args.quick, set: args.set.clone(), loads };
    std::fs::create_dir_all(&args.out_dir)
        .map_err(|e| failure(format!("cannot create {}: {e}", args.out_dir.display())))?;
    for (name, desc, runner) in selected {
        eprintln!("{name}: {desc}");
        let started = std::time::Instant::now();
        // The code the numbers come from: the tree as the run starts (later edits do not
        // change the running binary).
        let source = source_commit();
        let bar = ProgressBar::new(0);
        bar.set_style(ProgressStyle::with_template("{bar:40} {pos}/{len} runs  {elapsed_precise}").expect("template"));
        let fig = runner(name, &opts, &|done, total| {
            bar.set_length(total as u64);
            bar.set_position(done as u64);
        })
        // A bad `--set` is the user's input (exit status 2); anything else is a failed run.
        .map_err(|e| if e.starts_with("--set ") { bad_input(e) } else { failure(e) })?;
        bar.finish_and_clear();
        let write = |file: String, text: &str| {
            let path = args.out_dir.join(file);
            std::fs::write(&path, text).map_err(|e| failure(format!("cannot write {}: {e}", path.display())))?;
            println!("wrote {}", path.display());
            Ok::<(), Failure>(())
        };
        let markdown =
            with_provenance(&fig.markdown, &provenance(name, args, &source, started.elapsed().as_secs_f64()));
        write(format!("{name}.csv"), &fig.csv)?;
        write(format!("{name}.md"), &markdown)?;
        for (suffix, plot) in &fig.plots {
            write(format!("{name}-{suffix}.svg"), &plot.to_svg())?;
        }
        println!("{markdown}");
    }
    Ok(())
}

#[derive(Args)]
pub struct ClaimsArgs {
    /// Rewrite the claims of each document (between its markers) as the data gives them.
    #[arg(long)]
    pub write: bool,
    /// The project's root directory (where docs/ is).
    #[arg(long, default_value = ".")]
    pub root: PathBuf,
}

/// `hiradix claims`: every document's claims table (and docs/faithfulness.md's list of
/// disagreements) from the figures' CSV files; checked, or written with `--write`. Without
/// `--write`, a document that differs is an error (exit status 1).
pub fn claims(args: &ClaimsArgs) -> Result<(), Failure> {
    let read =
        |path: &str| std::fs::read_to_string(args.root.join(path)).map_err(|e| format!("cannot read {path}: {e}"));
    let documents = hiradix::figures::claims::regenerate(&read).map_err(failure)?;
    let mut stale = Vec::new();
    for (path, text) in documents {
        if read(&path).map_err(failure)? == text {
            println!("{path}: up to date");
        } else if args.write {
            std::fs::write(args.root.join(&path), text).map_err(|e| failure(format!("cannot write {path}: {e}")))?;
            println!("{path}: claims rewritten from the data");
        } else {
            stale.push(path);
        }
    }
    if stale.is_empty() {
        Ok(())
    } else {
        Err(failure(format!("{} differ from their data; `hiradix claims --write` updates them", stale.join(", "))))
    }
}

/// The commit of the working tree, with " plus uncommitted changes" when the code (not
/// the outputs) differs from it.
fn source_commit() -> String {
    let git = |a: &[&str]| {
        std::process::Command::new("git")
            .args(a)
            .output()
            .ok()
            .filter(|o| o.status.success())
            .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string())
    };
    let commit = git(&["rev-parse", "--short", "HEAD"]).unwrap_or_else(|| "unknown".into());
    let dirty = git(&["status", "--porcelain", "--", "src", "Cargo.toml", "Cargo.lock"]).is_some_and(|s| !s.is_empty());
    format!("{commit}{}", if dirty { " plus uncommitted changes" } else { "" })
}

/// "Measured on 2026-11-25 (UTC) at commit abc1234 with `hiradix figure …`, 312 s on 2
/// cores.": when, from which code (`source`, see [`source_commit`]) and by which command a
/// figure's numbers were made.
fn provenance(name: &str, args: &FigureArgs, source: &str, seconds: f64) -> String {
    let mut command = format!("hiradix figure {name} --out-dir {}", args.out_dir.display());
    if args.quick {
        command += " --quick";
    }
    for s in &args.set {
        command += &format!(" --set {s}");
    }
    if let Some(l) = &args.loads {
        command += &format!(" --loads {l}");
    }
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    format!(
        "Measured on {} (UTC) at commit {source} with `{command}`, {seconds:.0} s on {cores} cores.",
        utc_date(std::time::SystemTime::now()),
    )
}

/// The Markdown with `line` inserted after its title (its first line).
fn with_provenance(markdown: &str, line: &str) -> String {
    match markdown.split_once('\n') {
        Some((title, rest)) => format!("{title}\n\n{line}\n{rest}"),
        None => format!("{markdown}\n\n{line}\n"),
    }
}

/// `YYYY-MM-DD` of a time, in UTC (the civil-from-days algorithm).
fn utc_date(t: std::time::SystemTime) -> String {
    let days = t.duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_secs() / 86_400) as i64;
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + (month <= 2) as i64;
    format!("{year:04}-{month:02}-{day:02}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates_and_provenance() {
        let at = |secs: u64| utc_date(std::time::UNIX_EPOCH + std::time::Duration::from_secs(secs));
        assert_eq!(at(0), "1970-01-01");
        assert_eq!(at(951_782_400), "2000-02-29");
        assert_eq!(at(1_795_564_800), "2026-11-25");
        assert_eq!(with_provenance("# T\n\nbody\n", "P."), "# T\n\nP.\n\nbody\n");
    }
}
