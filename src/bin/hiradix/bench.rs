//! `hiradix bench`: simulated cycles per second and memory on named configurations, on
//! one core (each configuration runs alone on the calling thread).

use crate::{bad_input, failure, Failure};
use clap::Args;
use hiradix::config::SimConfig;
use hiradix::sim::Simulation;
use std::time::Instant;

#[derive(Args)]
pub struct BenchArgs {
    /// Run only the named configurations (comma-separated); default: all.
    #[arg(long)]
    pub only: Option<String>,
    /// Measured cycles per block (after a warm-up of a quarter as many).
    #[arg(long, default_value_t = 10_000)]
    pub cycles: u64,
    /// Timed blocks per configuration, run back to back; the median is reported (machines
    /// shared with other jobs make single timings noisy).
    #[arg(long, default_value_t = 3, value_parser = clap::value_parser!(u32).range(1..))]
    pub repeat: u32,
    /// Also write the results as a Markdown table to this file.
    #[arg(long)]
    pub markdown: Option<std::path::PathBuf>,
    /// List the named configurations and exit.
    #[arg(long)]
    pub list: bool,
    /// Print the JSON configuration of one named configuration and exit (a config file for
    /// `hiradix run`, and what the wasm benchmark `scripts/wasm-bench.mjs` takes).
    #[arg(long, value_name = "NAME")]
    pub print_config: Option<String>,
}

/// The named benchmark configurations: (name, description, config JSON).
pub fn configurations() -> Vec<(&'static str, &'static str, serde_json::Value)> {
    use serde_json::json;
    let fb = |routing: &str| json!({"topology": {"type": "flattened_butterfly", "k": 32, "n": 2}, "routing": {"algorithm": routing}, "traffic": {"pattern": "uniform", "load": 0.5}, "router": {"vcs": 2, "buffer_per_port": 32}});
    let hx = |routing: &str, vcs: u32| json!({"topology": {"type": "hyperx", "s": [8, 8, 8], "k": [1], "t": 8}, "routing": {"algorithm": routing}, "traffic": {"pattern": "uniform", "load": 0.3}, "router": {"vcs": vcs, "buffer_depth": 32, "pipeline_delay": 4}});
    let df = |routing: &str| json!({"topology": {"type": "dragonfly", "p": 4, "a": 8, "h": 4, "g": 33}, "routing": {"algorithm": routing}, "traffic": {"pattern": "uniform", "load": 0.3}, "router": {"vcs": 3, "buffer_depth": 16}});
    vec![
        ("fb1024-minad-0.5", "32-ary 2-flat (N = 1024), UR 0.5, MIN AD, 2 VCs × 16 flits", fb("min_ad")),
        ("fb1024-min-0.5", "32-ary 2-flat (N = 1024), UR 0.5, MIN (DOR)", fb("min")),
        ("hyperx4096-min-0.3", "8×8×8 HyperX, T = 8 (N = 4096), UR 0.3, MIN, 32 flits/VC", hx("min", 2)),
        ("hyperx4096-dal-0.3", "8×8×8 HyperX, T = 8 (N = 4096), UR 0.3, DAL, 6 VCs × 32 flits", hx("dal", 6)),
        ("hyperx4096-closad-0.3", "8×8×8 HyperX, T = 8 (N = 4096), UR 0.3, CLOS AD", hx("clos_ad", 6)),
        ("dragonfly1k-ugal_l-0.3", "dragonfly p=h=4, a=8, g=33 (N = 1056), UR 0.3, UGAL-L", df("ugal_l")),
        ("dragonfly1k-ugal_l_cr-0.3", "dragonfly p=h=4, a=8, g=33 (N = 1056), UR 0.3, UGAL-L_CR", df("ugal_l_cr")),
    ]
}

pub fn run(args: &BenchArgs) -> Result<(), Failure> {
    let all = configurations();
    let find = |n: &str| {
        all.iter()
            .find(|c| c.0 == n.trim())
            .ok_or_else(|| bad_input(format!("unknown configuration '{n}'; see `hiradix bench --list`")))
    };
    if let Some(name) = &args.print_config {
        println!("{}", find(name)?.2);
        return Ok(());
    }
    if args.list {
        for (name, desc, _) in &all {
            println!("{name:<28} {desc}");
        }
        return Ok(());
    }
    let selected: Vec<_> = match &args.only {
        None => all.iter().collect(),
        Some(names) => names
            .split(',')
            .map(|n| find(n).map_err(|e| bad_input(format!("--only: {}", e.message))))
            .collect::<Result<_, _>>()?,
    };
    let mut table = format!(
        "| configuration | description | simulated cycles/s (median of {}) | range | packets delivered/s | engine memory (MiB) |\n|---|---|---:|---:|---:|---:|\n",
        args.repeat
    );
    println!("{:<28} {:>14} {:>16} {:>12}", "configuration", "cycles/s", "packets/s", "memory MiB");
    for (name, desc, json) in selected {
        let cfg = match SimConfig::from_value(json.clone()) {
            Ok(c) => c,
            Err(e) => return Err(failure(format!("{name}: {e}"))),
        };
        let mut sim = match Simulation::new(&cfg) {
            Ok(s) => s,
            Err(e) => {
                println!("{name:<28} skipped: {e}");
                table += &format!("| {name} | {desc} | not available: {e} | | |\n");
                continue;
            }
        };
        sim.set_invariant_checks(false);
        sim.advance(args.cycles / 4).map_err(|e| failure(format!("{name}: {e}")))?;
        // Blocks of `cycles` back to back: (cycles/s, packets delivered/s) of each.
        let mut blocks = Vec::new();
        for _ in 0..args.repeat {
            let delivered0 = sim.stats().delivered;
            let start = Instant::now();
            sim.advance(args.cycles).map_err(|e| failure(format!("{name}: {e}")))?;
            let secs = start.elapsed().as_secs_f64();
            blocks.push((args.cycles as f64 / secs, (sim.stats().delivered - delivered0) as f64 / secs));
        }
        blocks.sort_by(|a, b| a.0.total_cmp(&b.0));
        let (cps, pps) = blocks[blocks.len() / 2];
        let (lo, hi) = (blocks[0].0, blocks[blocks.len() - 1].0);
        let mem = sim.memory_bytes() as f64 / (1 << 20) as f64;
        println!("{name:<28} {cps:>14.0} {pps:>16.0} {mem:>12.1}");
        table += &format!("| {name} | {desc} | {cps:.0} | {lo:.0}–{hi:.0} | {pps:.0} | {mem:.1} |\n");
        drop(sim);
    }
    if let Some(path) = &args.markdown {
        std::fs::write(path, table).map_err(|e| failure(format!("cannot write {}: {e}", path.display())))?;
    }
    Ok(())
}
