//! The command-line tool as a user runs it: its outputs, and bad input reported with the
//! path of the field and exit status 2 (never a panic).

use std::path::PathBuf;
use std::process::{Command, Output};

/// A small, quick experiment: an 4-ary 2-flat, short measurement.
const SMALL: [&str; 6] =
    ["--set", "topology.k=4", "--set", "measurement.warmup=200", "--set", "measurement.measure=300"];

fn hiradix(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_hiradix")).args(args).output().expect("the hiradix binary runs")
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// A fresh scratch directory for one test's files, removed when dropped.
struct Scratch(PathBuf);

impl Scratch {
    fn new(name: &str) -> Scratch {
        let dir = std::env::temp_dir().join(format!("hiradix-cli-{name}-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        Scratch(dir)
    }
    fn join(&self, file: &str) -> PathBuf {
        self.0.join(file)
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// `args` fail as bad input: exit status 2, and stderr names `what`.
#[track_caller]
fn rejects(args: &[&str], what: &str) {
    let o = hiradix(args);
    assert_eq!(o.status.code(), Some(2), "{args:?}: exit status {:?}, stderr: {}", o.status.code(), stderr(&o));
    assert!(stderr(&o).contains(what), "{args:?}: stderr does not name {what:?}: {}", stderr(&o));
    assert!(!stderr(&o).contains("panicked"), "{args:?} panicked: {}", stderr(&o));
}

#[test]
fn bad_input_names_the_field_and_exits_with_status_2() {
    rejects(&["run", "--set", "router.vcs=1", "--set", "routing.algorithm=val"], "router.vcs");
    rejects(&["run", "--set", "traffic.load=1.5"], "traffic.load");
    rejects(&["run", "--set", "topology.k=abc"], "topology.k");
    rejects(&["run", "--set", "topology.type=dragonfly", "--set", "topology.g=100"], "topology.g");
    rejects(&["run", "--set", "topology.type=torus"], "topology.type");
    rejects(&["run", "--set", "routing.algorithm=ugal_l"], "routing.algorithm");
    rejects(&["run", "--set", "router.vcz=2"], "router.vcz");
    rejects(
        &[
            "run",
            "--set",
            "topology.k=32",
            "--set",
            "topology.n=3",
            "--set",
            "router.vcs=16",
            "--set",
            "router.buffer_depth=4096",
        ],
        "router.buffer_depth",
    );
    rejects(&["run", "--set", "traffic.load"], "--set traffic.load");
    rejects(&["sweep", "--loads", "0:1:0"], "--loads");
    rejects(&["sweep", "--vary", "routing.algorithm"], "--vary");
    rejects(&["bench", "--only", "nope"], "nope");
    rejects(&["bench", "--print-config", "nope"], "nope");
    rejects(&["figure", "nope"], "nope");
    rejects(&["run", "/nonexistent/config.json"], "/nonexistent/config.json");
    rejects(&[], "no command");
    let dir = Scratch::new("bad-json");
    let file = dir.join("broken.json");
    std::fs::write(&file, "{\"router\": ").unwrap();
    rejects(&["run", file.to_str().unwrap()], "not valid JSON");
    // clap's own usage errors use the same status.
    rejects(&["run", "--nope"], "--nope");
}

#[test]
fn lists_the_catalog_as_text_and_json() {
    let o = hiradix(&["--list"]);
    assert!(o.status.success(), "{}", stderr(&o));
    for name in ["dragonfly", "hyperx", "ugal_l_cr", "dal", "swap2", "group_shift"] {
        assert!(stdout(&o).contains(name), "--list lacks {name}");
    }
    let o = hiradix(&["list", "--json"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let catalog: serde_json::Value = serde_json::from_slice(&o.stdout).expect("list --json prints JSON");
    assert!(catalog["topologies"].as_array().is_some_and(|t| t.len() >= 5), "{catalog}");
}

#[test]
fn a_config_file_and_overrides_give_the_effective_config() {
    let dir = Scratch::new("config");
    let file = dir.join("df.json");
    // A benchmark's configuration, printed by the tool, is a valid config file.
    let o = hiradix(&["bench", "--print-config", "dragonfly1k-ugal_l-0.3"]);
    assert!(o.status.success(), "{}", stderr(&o));
    std::fs::write(&file, &o.stdout).unwrap();
    let o = hiradix(&["config", file.to_str().unwrap(), "--set", "traffic.load=0.25"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let cfg: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(cfg["topology"]["type"], "dragonfly");
    assert_eq!(cfg["topology"]["g"], 33);
    assert_eq!(cfg["routing"]["algorithm"], "ugal_l");
    assert_eq!(cfg["traffic"]["load"], 0.25);
}

#[test]
fn run_prints_the_summary_and_writes_json() {
    let dir = Scratch::new("run");
    let out = dir.join("result.json");
    let mut args = vec!["run", "--set", "traffic.load=0.3", "--json", out.to_str().unwrap()];
    args.extend(SMALL);
    let o = hiradix(&args);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stdout(&o).lines().count() >= 2, "no table: {}", stdout(&o));
    let result: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&out).unwrap()).unwrap();
    let accepted = result["result"]["summary"]["accepted"].as_f64().expect("accepted throughput");
    assert!((accepted - 0.3).abs() < 0.05, "accepted {accepted} at 0.3 offered");
    assert_eq!(result["config"]["topology"]["k"], 4);
}

#[test]
fn sweep_writes_one_csv_row_per_load_and_series() {
    let dir = Scratch::new("sweep");
    let csv = dir.join("sweep.csv");
    let mut args = vec![
        "sweep",
        "--loads",
        "0.1,0.3",
        "--vary",
        "routing.algorithm=min,val",
        "--csv",
        csv.to_str().unwrap(),
        "-j",
        "1",
    ];
    args.extend(SMALL);
    let o = hiradix(&args);
    assert!(o.status.success(), "{}", stderr(&o));
    let text = std::fs::read_to_string(&csv).unwrap();
    let rows: Vec<_> = text.lines().collect();
    assert_eq!(rows.len(), 1 + 2 * 2, "header and 2 loads × 2 algorithms:\n{text}");
    assert!(rows[1..].iter().any(|r| r.contains("val")) && rows[1..].iter().any(|r| r.contains("min")), "{text}");
}

/// `run` and `sweep` apply one saturation rule (`hiradix::saturation`): on the 72-node
/// dragonfly under group shift, MIN's capacity is 1/(ah) = 0.125; at 0.13 it accepts 0.125
/// while its labeled packets drain, and both commands call that point saturated, for the
/// same cause. The sweep also reports the curve's saturation throughput.
#[test]
fn run_and_sweep_agree_on_saturation() {
    let dir = Scratch::new("saturation");
    let (json, csv) = (dir.join("run.json"), dir.join("sweep.csv"));
    let df = [
        "--set",
        "topology.type=dragonfly",
        "--set",
        "router.vcs=3",
        "--set",
        "traffic.pattern=group_shift",
        "--set",
        "routing.algorithm=min",
    ];
    let mut args = vec!["run", "--set", "traffic.load=0.13", "--json", json.to_str().unwrap()];
    args.extend(df);
    let o = hiradix(&args);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stdout(&o).contains("accepted below offered"), "{}", stdout(&o));
    let result: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
    assert_eq!(result["result"]["summary"]["saturation"], "backlog_grew", "{result}");
    let mut args = vec!["sweep", "--loads", "0.1,0.13", "--csv", csv.to_str().unwrap(), "-j", "1"];
    args.extend(df);
    let o = hiradix(&args);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(
        stdout(&o).contains("saturation: starts between offered loads 0.1 and 0.13; saturation throughput 0."),
        "{}",
        stdout(&o)
    );
    let text = std::fs::read_to_string(&csv).unwrap();
    let rows: Vec<_> = text.lines().collect();
    assert!(rows[1].ends_with(",false,,0.00000") && rows[2].ends_with(",true,backlog_grew,0.00000"), "{text}");
    let per_series = std::fs::read_to_string(dir.join("sweep-saturation.csv")).unwrap();
    let row: Vec<&str> = per_series.lines().nth(1).unwrap().split(',').collect();
    assert_eq!(row[..3], ["", "0.1", "0.13"], "{per_series}");
    // The saturation throughput is what the network carried unsaturated (0.1); the peak
    // accepted, at the saturated point, is the group-shift bound 0.125, named apart.
    let number = |i: usize| row[i].parse::<f64>().unwrap();
    assert!((number(3) - 0.1).abs() < 0.005 && (number(4) - 0.125).abs() < 0.003, "{per_series}");
}

#[test]
fn a_setting_the_configuration_does_not_read_is_noted_not_refused() {
    let mut args = vec!["run", "--set", "routing.crt0=5", "--set", "traffic.load=0.2"];
    args.extend(SMALL);
    let o = hiradix(&args);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("note: routing.crt0: has no effect unless routing.algorithm is ugal_l_cr"),
        "{}",
        stderr(&o)
    );
    // Where it is read, no note.
    let o = hiradix(&[
        "config",
        "--set",
        "topology.type=dragonfly",
        "--set",
        "routing.algorithm=ugal_l_cr",
        "--set",
        "routing.crt0=5",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(!stderr(&o).contains("note:"), "{}", stderr(&o));
}

/// Hostile inputs (docs/reliability.md): each exits with status 2 naming the field, before any run.
#[test]
fn hostile_inputs_are_refused_up_front() {
    let folded_clos_of_one = [
        "run",
        "--set",
        "topology.type=folded_clos",
        "--set",
        "topology.down=[1]",
        "--set",
        "topology.up=[]",
        "--set",
        "routing.algorithm=updown_ad",
        "--set",
        "traffic.load=0.3",
    ];
    rejects(&folded_clos_of_one, "traffic needs at least two");
    rejects(&["run", "--set", "measurement.warmup=18446744073709551615"], "measurement.warmup");
    rejects(&["run", "--set", "topology.type=hypercube", "--set", "topology.n=4294967295"], "topology.n");
    rejects(
        &["run", "--set", "routing.algorithm=ugal", "--set", "routing.ugal_threshold=1000000000000"],
        "routing.ugal_threshold",
    );
    rejects(&["run", "--set", "traffic.source_queue_cap=1e6"], "traffic.source_queue_cap");
    rejects(&["run", "--set", "traffic.pattern=router_shift", "--set", "traffic.shift=8"], "traffic.shift");
    rejects(&["sweep", "--loads", "0.1:inf:0.1"], "--loads");
    rejects(&["sweep", "--loads", "0:1:1e-9"], "at most 1000");
    rejects(&["sweep", "--loads", "0.1,0.2", "-j", "100000"], "-j 100000");
    rejects(&["sweep", "--loads", "0.1", "--csv", "/nonexistent-dir/x.csv"], "cannot write /nonexistent-dir/x.csv");
    rejects(
        &["sweep", "--loads", "0.1", "--svg", "/nonexistent-dir/x.svg"],
        "cannot write /nonexistent-dir/x-latency.svg",
    );
    rejects(&["run", "--json", "/nonexistent-dir/x.json"], "cannot write /nonexistent-dir/x.json");
    let dir = Scratch::new("hostile");
    for (name, text, what) in [
        ("list.json", "[]".to_string(), "a configuration is a JSON object"),
        ("dup.json", r#"{"seed": 1, "seed": 2}"#.to_string(), "duplicate key 'seed'"),
        ("nested-dup.json", r#"{"router": {"vcs": 2, "vcs": 3}}"#.to_string(), "duplicate key 'vcs'"),
        ("big.json", format!("{{\"seed\": 1{}}}", " ".repeat(2 << 20)), "more than 1048576 bytes"),
    ] {
        let path = dir.join(name);
        std::fs::write(&path, text).unwrap();
        rejects(&["run", path.to_str().unwrap()], what);
    }
}

/// `sweep --slurm DIR` writes a job array instead of running; `merge DIR` refuses (and
/// names the points) until every result is there, then writes the local sweep's CSV byte for
/// byte. The tasks are run here by hand, as the job script runs them; scripts/test-slurm.sh
/// runs the same on a real Slurm.
#[test]
fn a_cluster_sweep_merges_into_the_local_sweeps_csv() {
    let dir = Scratch::new("slurm");
    let job = dir.join("job");
    let mut sweep = vec!["sweep", "--loads", "0.1,0.5", "--vary", "routing.algorithm=min,val"];
    sweep.extend(SMALL);
    let local = dir.join("local.csv");
    let mut args = sweep.clone();
    args.extend(["--csv", local.to_str().unwrap(), "-j", "1"]);
    assert!(hiradix(&args).status.success());
    let mut args = sweep.clone();
    args.extend(["--slurm", job.to_str().unwrap(), "--slurm-partition", "batch"]);
    let o = hiradix(&args);
    assert!(o.status.success(), "{}", stderr(&o));
    let script = std::fs::read_to_string(job.join("job.sh")).unwrap();
    assert!(script.contains("#SBATCH --array=0-3%64") && script.contains("#SBATCH --partition=batch"), "{script}");
    let merged = dir.join("merged.csv");
    let o = hiradix(&["merge", job.to_str().unwrap(), "--csv", merged.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1));
    assert!(
        stderr(&o).contains("4 of 4 points have no result") && stderr(&o).contains("sbatch --array=0-3 "),
        "{}",
        stderr(&o)
    );
    assert!(!merged.exists(), "nothing is written while points are missing");
    for i in 0..4 {
        let (point, result) = (job.join(format!("points/{i:05}.json")), job.join(format!("results/{i:05}.json")));
        let o = hiradix(&["run", point.to_str().unwrap(), "--json", result.to_str().unwrap()]);
        assert!(o.status.success(), "{}", stderr(&o));
    }
    let o = hiradix(&["merge", job.to_str().unwrap(), "--csv", merged.to_str().unwrap()]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(std::fs::read_to_string(&merged).unwrap(), std::fs::read_to_string(&local).unwrap());
    // A job directory is not overwritten.
    let o = hiradix(&args);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    // Outputs belong to merge.
    let mut with_csv = args.clone();
    let other = dir.join("other");
    with_csv.extend(["--csv", "x.csv"]);
    let at = with_csv.iter().position(|a| *a == job.to_str().unwrap()).unwrap();
    with_csv[at] = other.to_str().unwrap();
    let o = hiradix(&with_csv);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("--csv, --json, --svg go to `hiradix merge`"), "{}", stderr(&o));
}

/// Oversized or malformed paths, keys, values and inputs on the command line
/// (docs/reliability.md): each ends in a message naming the cause, with exit status 2 (or 1
/// for a merge that finds no usable result), never a panic or a hang.
#[test]
fn paths_keys_and_values_are_bounded_and_shown_safely() {
    let deep = format!("topology.{}b=1", "a.".repeat(10_000));
    rejects(&["run", "--set", &deep], "no setting is deeper than 8");
    rejects(&["run", "--set", "traffic.load=0.1", "--set", "traffic.load=0.2"], "set twice");
    rejects(&["run", "--set", r#"topology={"type": "dragonfly", "type": "hyperx"}"#], "duplicate key 'type'");
    rejects(&["run", "--set", "routing..algorithm=val"], "none of them empty");
    // Control characters are escaped, long values shortened.
    let hostile = format!("routing.algorithm=x\u{1b}[31mred\u{202e}{}", "y".repeat(120_000));
    let o = hiradix(&["run", "--set", &hostile]);
    assert_eq!(o.status.code(), Some(2));
    let err = stderr(&o);
    assert!(!err.contains('\u{1b}') && !err.contains('\u{202e}'), "raw control characters: {err:.300}");
    assert!(err.contains("\\u{1b}") && err.contains("characters left out"), "{err:.300}");
    assert!(err.len() < 2_000, "{} bytes of message", err.len());
    let dir = Scratch::new("bom");
    let bom = dir.join("bom.json");
    std::fs::write(&bom, "\u{feff}{}").unwrap();
    rejects(&["run", bom.to_str().unwrap()], "byte-order mark");
    // A device is not a configuration file (it used to be read for 2 GB).
    rejects(&["run", "/dev/zero"], "a device, not a regular file");
    // Sweeps.
    rejects(&["sweep", "--vary", "traffic.load=0.1,0.9", "--loads", "0.5"], "give the loads with --loads");
    let many: Vec<String> = (1..=101).map(|i| i.to_string()).collect();
    rejects(&["sweep", "--vary", &format!("seed={}", many.join(","))], "at most 100");
    let loads = "0.001:1:0.001";
    rejects(&["sweep", "--loads", loads, "--vary", &format!("seed={}", many[..100].join(","))], "at most 20000");
    // The two forms of --loads read the same value.
    let point = |loads: &str, name: &str| {
        let job = dir.join(name);
        let o = hiradix(&["sweep", "--loads", loads, "--slurm", job.to_str().unwrap()]);
        assert!(o.status.success(), "--loads {loads}: {}", stderr(&o));
        let cfg: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(job.join("points/00000.json")).unwrap()).unwrap();
        cfg["traffic"]["load"].as_f64().unwrap()
    };
    assert_eq!(point("4e-7", "list"), 4e-7);
    assert_eq!(point("4e-7:4e-7:1", "range"), 4e-7);
    // Tapering and group trunking.
    let df = ["run", "--set", "topology.type=dragonfly", "--set", "topology.g=5"];
    let mut taper = df.to_vec();
    taper.extend(["--set", "topology.taper=[[0,1,9]]"]);
    rejects(&taper, "topology.taper[0]");
    let mut trunk = df.to_vec();
    trunk.extend(["--set", "topology.intra_trunking=[1,1,1]"]);
    rejects(&trunk, "topology.intra_trunking");
    let mut trunk = df.to_vec();
    trunk.extend(["--set", "topology.intra_trunking=[]"]);
    rejects(&trunk, "topology.intra_trunking");
}

#[test]
fn outputs_are_checked_before_the_run_without_consuming_a_fifo() {
    rejects(&["run", "--json", "/dev/full"], "cannot write /dev/full: a device");
    let mut args = vec!["run", "--json", "/dev/null"];
    args.extend(SMALL);
    assert!(hiradix(&args).status.success(), "/dev/null takes an output");
    let dir = Scratch::new("fifo");
    let fifo = dir.join("out.json");
    assert!(Command::new("mkfifo").arg(&fifo).status().unwrap().success());
    let reader = {
        let fifo = fifo.clone();
        std::thread::spawn(move || std::fs::read_to_string(fifo).unwrap())
    };
    let mut args = vec!["run", "--json", fifo.to_str().unwrap()];
    args.extend(SMALL);
    let o = hiradix(&args);
    assert!(o.status.success(), "{}", stderr(&o));
    let text = reader.join().unwrap();
    assert!(text.contains("\"summary\""), "the FIFO's reader got {} bytes", text.len());
}

#[test]
fn cost_commands_check_their_sizes() {
    for cmd in ["fb-cost", "power", "dragonfly-cost"] {
        rejects(&["cost", cmd, "--min-log2", "34", "--max-log2", "40"], "at most 2^33 nodes");
        let o = hiradix(&["cost", cmd, "--min-log2", "0", "--max-log2", "33"]);
        assert!(o.status.success(), "{cmd} up to 2^33: {}", stderr(&o));
    }
    rejects(&["cost", "fb-dims", "--nodes", "0"], "--nodes: N must be between 2");
    rejects(&["cost", "hyperx-search", "--nodes", "99999999999"], "--nodes: N must be between 2");
    rejects(&["cost", "hyperx-search", "--beta", "7"], "--beta");
}

/// A job directory read back by `merge` is hostile too: files that are devices, FIFOs or
/// links to them, numbers no run can produce, and labels with control characters or CSV
/// formulas.
#[test]
fn merge_reads_a_tampered_job_directory_safely() {
    let dir = Scratch::new("tamper");
    let job = dir.join("job");
    let mut args = vec!["sweep", "--loads", "0.1,0.2", "--vary", "routing.algorithm=min"];
    args.extend(SMALL);
    args.extend(["--slurm", job.to_str().unwrap()]);
    let o = hiradix(&args);
    assert!(o.status.success(), "{}", stderr(&o));
    for i in 0..2 {
        let (point, result) = (job.join(format!("points/{i:05}.json")), job.join(format!("results/{i:05}.json")));
        assert!(hiradix(&["run", point.to_str().unwrap(), "--json", result.to_str().unwrap()]).status.success());
    }
    let merge = |extra: &[&str]| {
        let mut a = vec!["merge", job.to_str().unwrap()];
        a.extend(extra);
        hiradix(&a)
    };
    let result = job.join("results/00001.json");
    let good = std::fs::read_to_string(&result).unwrap();
    let (svg, csv) = (dir.join("m.svg"), dir.join("m.csv"));
    let outputs = ["--svg", svg.to_str().unwrap(), "--csv", csv.to_str().unwrap()];
    // Extreme numbers: 1.7e308 is no accepted throughput (the point counts as missing);
    // a subnormal mean latency is drawn on an axis of its own scale.
    let tampered = |field: &str, value: &str| {
        let mut doc: serde_json::Value = serde_json::from_str(&good).unwrap();
        doc["result"]["summary"][field] = serde_json::from_str(value).unwrap();
        std::fs::write(&result, doc.to_string()).unwrap();
    };
    tampered("accepted", "1.7e308");
    let o = merge(&outputs);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert!(stderr(&o).contains("1 of 2 points have no result"), "{}", stderr(&o));
    tampered("avg_latency", "5e-324");
    let o = merge(&outputs);
    assert!(o.status.success(), "{}", stderr(&o));
    std::fs::write(&result, &good).unwrap();
    // Results that are devices, links to devices, or FIFOs: missing, never read for long.
    std::fs::remove_file(&result).unwrap();
    for target in ["/dev/zero", "/dev/urandom"] {
        std::os::unix::fs::symlink(target, &result).unwrap();
        let o = merge(&[]);
        assert_eq!(o.status.code(), Some(1), "{target}: {}", stderr(&o));
        std::fs::remove_file(&result).unwrap();
    }
    assert!(Command::new("mkfifo").arg(&result).status().unwrap().success());
    let o = merge(&[]);
    assert_eq!(o.status.code(), Some(1), "a FIFO result: {}", stderr(&o));
    std::fs::remove_file(&result).unwrap();
    std::fs::write(&result, &good).unwrap();
    let manifest = job.join("manifest.json");
    let original = std::fs::read_to_string(&manifest).unwrap();
    std::fs::rename(&manifest, dir.join("manifest.saved")).unwrap();
    std::os::unix::fs::symlink("/dev/urandom", &manifest).unwrap();
    rejects(&["merge", job.to_str().unwrap()], "a device, not a regular file");
    std::fs::remove_file(&manifest).unwrap();
    // Labels: control characters refused; a formula or markup written as text.
    let relabel = |label: &str| {
        let mut doc: serde_json::Value = serde_json::from_str(&original).unwrap();
        doc["series"][0]["label"] = label.into();
        std::fs::write(&manifest, doc.to_string()).unwrap();
    };
    relabel("min\u{1b}]0;pwned\u{7}");
    rejects(&["merge", job.to_str().unwrap()], "series[0].label: holds the control or formatting character U+001B");
    relabel("=HYPERLINK(\"http://x\"),\n<b>&");
    rejects(&["merge", job.to_str().unwrap()], "U+000A");
    relabel("=HYPERLINK(\"http://x\"),<b>&");
    let o = merge(&outputs);
    assert!(o.status.success(), "{}", stderr(&o));
    let text = std::fs::read_to_string(&csv).unwrap();
    assert!(text.lines().nth(1).unwrap().starts_with("\"'=HYPERLINK(\"\"http://x\"\"),<b>&\","), "{text}");
    assert_eq!(text.lines().count(), 3, "a label splits no row: {text}");
    let plot = std::fs::read_to_string(dir.join("m-latency.svg")).unwrap();
    assert!(plot.contains("&lt;b&gt;&amp;") && !plot.contains("<b>"), "the label is text in the SVG");
}

#[test]
fn a_refused_job_directory_is_not_created() {
    let dir = Scratch::new("refused-job");
    let job = dir.join("a job");
    rejects(&["sweep", "--loads", "0.1", "--slurm", job.to_str().unwrap()], "cannot name a path containing ' '");
    assert!(!job.exists(), "the refused directory was created");
    let job = dir.join("job");
    for time in ["-", "::::", "1:2:3:4"] {
        rejects(&["sweep", "--loads", "0.1", "--slurm", job.to_str().unwrap(), "--slurm-time", time], "--slurm-time");
        assert!(!job.exists());
    }
}

/// A saturation throughput is where the network saturates, not the highest accepted
/// throughput: with only the ten group pairs among groups 0–4 of p = 2, a = 8, h = 2,
/// g = 9 tapered to one global channel, MIN on uniform traffic is bound by those channels
/// at 143/256 = 0.559 (each carries 16 terminals × load × 16/143), while the untapered
/// pairs keep accepting more as the load rises past it. The sweep reports the saturation
/// throughput within 7 % of the bound and its onset at most one step past it (the rule
/// flags the backlog's growth from about 95 % of a bottleneck channel's capacity: at 0.54
/// the tapered channels run at 97 % and latency has doubled), and names the peak accepted
/// (0.70 at 0.9) apart.
#[test]
fn sweep_reports_where_an_uneven_bottleneck_saturates_not_the_peak() {
    let dir = Scratch::new("uneven");
    let csv = dir.join("uneven.csv");
    let pairs: Vec<String> = (0..5).flat_map(|a| (a + 1..5).map(move |b| format!("[{a},{b},1]"))).collect::<Vec<_>>();
    let taper = format!("topology.taper=[{}]", pairs.join(","));
    let loads: Vec<String> = (50..=60).map(|l| format!("{:.2}", l as f64 / 100.0)).chain(["0.9".into()]).collect();
    let loads = loads.join(",");
    let o = hiradix(&[
        "sweep",
        "--set",
        "topology.type=dragonfly",
        "--set",
        "topology.p=2",
        "--set",
        "topology.a=8",
        "--set",
        "topology.h=2",
        "--set",
        "topology.g=9",
        "--set",
        &taper,
        "--set",
        "routing.algorithm=min",
        "--loads",
        &loads,
        "--csv",
        csv.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let per_series = std::fs::read_to_string(dir.join("uneven-saturation.csv")).unwrap();
    let row: Vec<f64> =
        per_series.lines().nth(1).unwrap().split(',').skip(1).map(|v| v.parse().unwrap()).collect::<Vec<_>>();
    let (last_unsaturated, onset, throughput, peak) = (row[0], row[1], row[2], row[3]);
    let bound = 143.0 / 256.0;
    assert!(throughput <= bound && throughput >= 0.93 * bound, "{per_series}");
    assert!(onset <= bound + 0.01 && onset - last_unsaturated < 0.011, "{per_series}");
    assert!(peak > 0.65, "past the onset the untapered pairs go on accepting more: {per_series}");
    let out = stdout(&o);
    assert!(out.contains(&format!("saturation throughput {throughput:.4}")), "{out}");
    assert!(out.contains(&format!("peak accepted {peak:.4} (not a saturation throughput past the onset)")), "{out}");
}
