//! Sweeps on a cluster: `hiradix sweep … --slurm DIR` writes the sweep as a Slurm job array
//! instead of running it, and `hiradix merge DIR` collects the results into exactly the
//! table, CSV, JSON and SVG a local `sweep` writes.
//!
//! The job directory is self-contained:
//! - `manifest.json`: the series (label and number of points), the point count, and the
//!   `hiradix` binary the tasks run;
//! - `points/NNNNN.json`: one complete configuration per point (its seed included), in
//!   the local sweep's order (series by series, loads in order);
//! - `job.sh`: the `sbatch` script, an array of one task per point
//!   (`--array=0-(N-1)%M`), resources per task from the network's memory estimate;
//! - `results/NNNNN.json`: what a task writes (`hiradix run --json`), first as
//!   `NNNNN.json.part`, renamed when complete, so a failed or cancelled task leaves no
//!   result and a complete result is never overwritten by a partial one;
//! - `logs/`: the tasks' output.
//!
//! `merge` reports missing points by index with the `sbatch --array=…` command that
//! resubmits exactly them, and writes nothing until every point is there.

use crate::sweep::{self, SeriesSpec};
use crate::{bad_input, failure, Failure};
use clap::Args;
use hiradix::config::{shown::shown, SimConfig};
use hiradix::stats::Summary;
use std::path::{Path, PathBuf};

/// Slurm options of `hiradix sweep --slurm`.
#[derive(Args, Clone, Debug)]
pub struct SlurmArgs {
    /// Write the sweep as a Slurm job array into this directory instead of running it
    /// (then `sbatch DIR/job.sh`, and `hiradix merge DIR`).
    #[arg(long, value_name = "DIR")]
    pub slurm: Option<PathBuf>,
    /// `#SBATCH --partition`.
    #[arg(long, requires = "slurm")]
    pub slurm_partition: Option<String>,
    /// `#SBATCH --account`.
    #[arg(long, requires = "slurm")]
    pub slurm_account: Option<String>,
    /// `#SBATCH --time` of each task.
    #[arg(long, requires = "slurm", default_value = "01:00:00")]
    pub slurm_time: String,
    /// Tasks of the array that may run at once (`--array=…%M`).
    #[arg(long, requires = "slurm", default_value_t = 64)]
    pub slurm_max_running: usize,
}

#[derive(Args)]
pub struct MergeArgs {
    /// The job directory `hiradix sweep --slurm DIR` wrote.
    pub dir: PathBuf,
    #[command(flatten)]
    pub out: sweep::Outputs,
}

#[derive(serde::Serialize, serde::Deserialize)]
struct Manifest {
    version: u32,
    hiradix: String,
    points: usize,
    series: Vec<ManifestSeries>,
}

#[derive(serde::Serialize, serde::Deserialize)]
struct ManifestSeries {
    label: String,
    points: usize,
}

fn point_name(i: usize) -> String {
    format!("{i:05}")
}

fn write(path: &Path, text: &str) -> Result<(), Failure> {
    crate::files::write(path, text)
}

/// A value safe inside single quotes in the job script.
fn quoted(s: &str) -> String {
    format!("'{}'", s.replace('\'', "'\\''"))
}

/// A path the job script can name: UTF-8, without whitespace, control characters, quotes,
/// `%` (a Slurm filename pattern) or shell metacharacters.
fn script_path(what: &str, path: &Path) -> Result<String, Failure> {
    let text = path.to_str().ok_or_else(|| bad_input(format!("{what} {}: not UTF-8", path.display())))?;
    if let Some(c) = text.chars().find(|c| c.is_whitespace() || c.is_control() || "%\"'`$\\;&|<>*?!#".contains(*c)) {
        return Err(bad_input(format!("{what} {text}: the job script cannot name a path containing {c:?}")));
    }
    Ok(text.to_string())
}

/// Slurm's default `MaxArraySize`: a larger array needs the cluster's limit raised.
const SLURM_DEFAULT_MAX_ARRAY: usize = 1001;
/// Most points one job directory holds (Slurm's own array limit is usually lower).
const MAX_POINTS: usize = 1_000_000;
/// Largest file `merge` reads from a job directory.
const MAX_FILE_BYTES: u64 = 256 << 20;

/// Reads a file of the job directory: a regular file of at most [`MAX_FILE_BYTES`].
fn read_capped(path: &Path) -> Result<String, String> {
    crate::files::read_capped(path, MAX_FILE_BYTES)
}

/// Checks `--slurm-time`: Slurm's `MM`, `MM:SS`, `HH:MM:SS`, `D-HH`, `D-HH:MM` or
/// `D-HH:MM:SS`, every field one or more digits.
fn check_time(time: &str) -> Result<(), Failure> {
    let (days, clock) = match time.split_once('-') {
        Some((d, rest)) => (Some(d), rest),
        None => (None, time),
    };
    let fields: Vec<&str> = clock.split(':').collect();
    let digits = |f: &str| !f.is_empty() && f.len() <= 6 && f.bytes().all(|b| b.is_ascii_digit());
    let shape = match days {
        Some(d) => digits(d) && (1..=3).contains(&fields.len()),
        None => (1..=3).contains(&fields.len()),
    };
    if shape && fields.iter().all(|f| digits(f)) {
        Ok(())
    } else {
        Err(bad_input(format!(
            "--slurm-time {}: expected MM, MM:SS, HH:MM:SS, D-HH, D-HH:MM or D-HH:MM:SS",
            shown(time, 40)
        )))
    }
}

/// A label `merge` copies into the table, the CSV and the plots: printable text of at most
/// 200 characters (a manifest may have been edited by anyone).
fn check_label(i: usize, label: &str) -> Result<(), String> {
    if label.chars().count() > 200 {
        return Err(format!("series[{i}].label: more than 200 characters"));
    }
    if let Some(c) = label.chars().find(|&c| hiradix::config::shown::is_hidden(c)) {
        return Err(format!("series[{i}].label: holds the control or formatting character U+{:04X}", c as u32));
    }
    Ok(())
}

/// Array indices as Slurm's `--array` list: runs of consecutive indices as `a-b`.
fn index_ranges(indices: &[usize]) -> String {
    let mut out: Vec<String> = Vec::new();
    let mut i = 0;
    while i < indices.len() {
        let mut j = i;
        while j + 1 < indices.len() && indices[j + 1] == indices[j] + 1 {
            j += 1;
        }
        out.push(if i == j { indices[i].to_string() } else { format!("{}-{}", indices[i], indices[j]) });
        i = j + 1;
    }
    out.join(",")
}

/// Writes the job directory of a planned sweep.
pub fn write_job(series: &[SeriesSpec], args: &SlurmArgs, dir: &Path) -> Result<(), Failure> {
    if !(1..=100_000).contains(&args.slurm_max_running) {
        return Err(bad_input(format!("--slurm-max-running {}: must be 1..=100000", args.slurm_max_running)));
    }
    for (name, v) in [("--slurm-partition", &args.slurm_partition), ("--slurm-account", &args.slurm_account)] {
        if v.as_deref()
            .is_some_and(|v| v.is_empty() || !v.chars().all(|c| c.is_ascii_alphanumeric() || "-_.,".contains(c)))
        {
            return Err(bad_input(format!("{name}: letters, digits and - _ . , only")));
        }
    }
    // The number of points is capped where the sweep is planned (`sweep::MAX_POINTS`).
    check_time(&args.slurm_time)?;
    if dir.join("manifest.json").exists() {
        return Err(bad_input(format!("{} already holds a job; choose a new directory", dir.display())));
    }
    // Every check on the directory's name before anything is created in it.
    let absolute = std::path::absolute(dir).map_err(|e| failure(format!("{}: {e}", dir.display())))?;
    script_path("--slurm", &absolute)?;
    let exe = std::env::current_exe().map_err(|e| failure(format!("cannot find the hiradix binary: {e}")))?;
    let exe_text = script_path("the hiradix binary", &exe)?;
    for sub in ["points", "results", "logs"] {
        std::fs::create_dir_all(dir.join(sub))
            .map_err(|e| failure(format!("cannot create {}: {e}", dir.join(sub).display())))?;
    }
    let dir = dir.canonicalize().map_err(|e| failure(format!("{}: {e}", dir.display())))?;
    let dir_text = script_path("--slurm", &dir)?;
    let configs: Vec<&SimConfig> = series.iter().flat_map(|s| &s.configs).collect();
    for (i, cfg) in configs.iter().enumerate() {
        write(&dir.join("points").join(format!("{}.json", point_name(i))), &cfg.to_json())?;
    }
    let manifest = Manifest {
        version: 1,
        hiradix: exe_text,
        points: configs.len(),
        series: series.iter().map(|s| ManifestSeries { label: s.label.clone(), points: s.configs.len() }).collect(),
    };
    write(&dir.join("manifest.json"), &serde_json::to_string_pretty(&manifest).expect("serialises"))?;
    // Memory per task: the largest network's estimate, with room for the process itself.
    let bytes = configs.iter().filter_map(|c| hiradix::sim::memory::estimate(c).map(|e| e.0)).max().unwrap_or(0);
    let mem_mb = bytes.div_ceil(1 << 20) * 3 / 2 + 256;
    let mut script = String::from(
        "#!/bin/bash\n# A hiradix sweep as a Slurm job array: one task per point (hiradix sweep --slurm).\n",
    );
    script += "#SBATCH --job-name=hiradix-sweep\n";
    script += &format!("#SBATCH --array=0-{}%{}\n", configs.len() - 1, args.slurm_max_running);
    script += "#SBATCH --ntasks=1\n#SBATCH --cpus-per-task=1\n";
    script += &format!("#SBATCH --mem={mem_mb}M\n#SBATCH --time={}\n", args.slurm_time);
    script += &format!("#SBATCH --output={dir_text}/logs/%A_%a.out\n");
    if let Some(p) = &args.slurm_partition {
        script += &format!("#SBATCH --partition={p}\n");
    }
    if let Some(a) = &args.slurm_account {
        script += &format!("#SBATCH --account={a}\n");
    }
    script += &format!(
        "set -euo pipefail\nDIR={}\nHIRADIX={}\ni=$(printf %05d \"$SLURM_ARRAY_TASK_ID\")\n\
         \"$HIRADIX\" run \"$DIR/points/$i.json\" --json \"$DIR/results/$i.json.part\"\n\
         mv \"$DIR/results/$i.json.part\" \"$DIR/results/$i.json\"\n",
        quoted(&dir_text),
        quoted(&manifest.hiradix)
    );
    let job = dir.join("job.sh");
    write(&job, &script)?;
    if configs.len() > SLURM_DEFAULT_MAX_ARRAY {
        eprintln!(
            "note: {} tasks exceed Slurm's default MaxArraySize ({SLURM_DEFAULT_MAX_ARRAY}); check your cluster's limit (scontrol show config)",
            configs.len()
        );
    }
    println!(
        "wrote {} points to {}\nsubmit:  sbatch {}\nthen:    hiradix merge {}",
        configs.len(),
        dir.display(),
        job.display(),
        dir.display()
    );
    Ok(())
}

/// `hiradix merge DIR`.
pub fn merge(args: &MergeArgs) -> Result<(), Failure> {
    let dir = &args.dir;
    let manifest: Manifest = read_capped(&dir.join("manifest.json"))
        .map_err(|e| bad_input(format!("{}: not a job directory ({e})", dir.display())))
        .and_then(|t| {
            serde_json::from_str(&t).map_err(|e| bad_input(format!("{}/manifest.json: {e}", dir.display())))
        })?;
    let bad = |what: String| bad_input(format!("{}/manifest.json: {what}", dir.display()));
    if manifest.version != 1 {
        return Err(bad(format!("version {}: this hiradix reads version 1", manifest.version)));
    }
    if let Some(i) = manifest.series.iter().position(|s| s.points == 0) {
        return Err(bad(format!("series[{i}].points: must be at least 1")));
    }
    for (i, s) in manifest.series.iter().enumerate() {
        check_label(i, &s.label).map_err(bad)?;
    }
    let total = manifest.series.iter().try_fold(0usize, |t, s| t.checked_add(s.points));
    if total != Some(manifest.points) || manifest.points > MAX_POINTS {
        return Err(bad(format!("points: {} does not match its series (at most {MAX_POINTS})", manifest.points)));
    }
    let mut series = Vec::new();
    let mut results = Vec::new();
    let mut missing = Vec::new();
    let mut i = 0;
    for s in &manifest.series {
        let (mut configs, mut rows) = (Vec::new(), Vec::new());
        for _ in 0..s.points {
            let name = point_name(i);
            let file = format!("points/{name}.json");
            let text = read_capped(&dir.join(&file)).map_err(|e| bad_input(format!("{file}: {e}")))?;
            let value = hiradix::config::parse_config_document(&text).map_err(|e| bad_input(format!("{file}: {e}")))?;
            let cfg = SimConfig::from_value(value).map_err(|e| bad_input(format!("{file}: {e}")))?;
            match read_result(&dir.join("results").join(format!("{name}.json")), &cfg) {
                Some(summary) => rows.push(summary),
                None => missing.push(i),
            }
            configs.push(cfg);
            i += 1;
        }
        series.push(SeriesSpec { label: s.label.clone(), configs });
        results.push(rows);
    }
    if !missing.is_empty() {
        let list = index_ranges(&missing);
        return Err(failure(format!(
            "{} of {} points have no result (missing, failed, or not of their point): {}\nresubmit them:  sbatch --array={} {}\n(nothing was written)",
            missing.len(),
            manifest.points,
            list,
            list,
            quoted(&dir.join("job.sh").display().to_string())
        )));
    }
    sweep::report(&series, &results, &args.out)
}

/// What `merge` reads of a task's result (`hiradix run --json`): the configuration it was
/// made for (read as the CLI reads a configuration, so it compares in canonical form) and
/// its summary, deserialized directly (the channel tables and histograms beside them are
/// skipped, never built).
#[derive(serde::Deserialize)]
struct TaskResult {
    config: serde_json::Value,
    result: TaskSummary,
}

#[derive(serde::Deserialize)]
struct TaskSummary {
    summary: Summary,
}

/// The summary of a complete task result for the point `cfg`, or `None` if there is none,
/// it does not read, it was made for another configuration, or a number in it is outside
/// what a run can produce ([`Summary::check_ranges`]).
fn read_result(path: &Path, cfg: &SimConfig) -> Option<Summary> {
    let doc: TaskResult = serde_json::from_str(&read_capped(path).ok()?).ok()?;
    let summary = doc.result.summary;
    let config = SimConfig::from_value(doc.config).ok()?;
    (config == *cfg && summary.offered_load == cfg.traffic.load && summary.check_ranges().is_ok()).then_some(summary)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quoting_and_names() {
        assert_eq!(quoted("/a b/c"), "'/a b/c'");
        assert_eq!(quoted("it's"), "'it'\\''s'");
        assert_eq!(point_name(7), "00007");
        assert_eq!(index_ranges(&[0, 1, 2, 5, 7, 8]), "0-2,5,7-8");
    }

    #[test]
    fn slurm_times() {
        for ok in ["30", "30:00", "02:00:00", "1-00", "1-12:00", "2-00:00:00"] {
            assert!(check_time(ok).is_ok(), "{ok}");
        }
        for bad in ["", "-", "::::", "1:2:3:4", "1-", "-1", "a", "1--2", "01:00:00-1", ":"] {
            assert!(check_time(bad).is_err(), "{bad}");
        }
    }
}
