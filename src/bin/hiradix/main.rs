//! `hiradix`: the native command-line tool. Runs one configuration or a sweep over
//! offered load (in parallel across cores), prints tables, writes CSV/JSON/SVG,
//! benchmarks the engine, and lists everything that can be configured.
//!
//! Configurations are the same JSON documents the web page uses; `--set path=value`
//! overrides any field. Invalid input exits with status 2 and a message naming the field.

mod bench;
mod cost_cli;
mod figure;
mod files;
mod slurm;
mod sweep;

use clap::{Args, Parser, Subcommand};
use hiradix::config::{apply_overrides, shown, ConfigErrors, SimConfig};
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(Parser)]
#[command(name = "hiradix", version, about = "Cycle-accurate simulator of high-radix interconnection networks", long_about = None)]
struct Cli {
    /// List topologies, routing algorithms, traffic patterns and parameters, then exit.
    #[arg(long)]
    list: bool,
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand)]
enum Command {
    /// Run one configuration with the papers' methodology and print its summary.
    Run {
        #[command(flatten)]
        config: ConfigArgs,
        /// Write the full result (summary, channel utilization, histogram) as JSON.
        #[arg(long)]
        json: Option<PathBuf>,
    },
    /// Sweep offered load (and optionally one more parameter) in parallel.
    Sweep(sweep::SweepArgs),
    /// Collect the results of a sweep run as a Slurm job array (`sweep --slurm DIR`) into
    /// the table, CSV, JSON and SVG a local sweep writes; report missing points.
    Merge(slurm::MergeArgs),
    /// Benchmark simulated cycles per second on named configurations.
    Bench(bench::BenchArgs),
    /// Regenerate a paper figure: data (CSV), plots (SVG) and the comparison (Markdown).
    Figure(figure::FigureArgs),
    /// The papers' claims checked against the committed figure data: print the summary
    /// tables of docs/dragonfly.md and docs/hyperx.md, or `--write` them into the documents.
    Claims(figure::ClaimsArgs),
    /// Cost, power and design-space models of the three papers.
    #[command(subcommand)]
    Cost(cost_cli::CostCommand),
    /// Story documents (the page's stories, src/story.rs).
    #[command(subcommand)]
    Story(StoryCommand),
    /// Print the effective configuration (defaults + file + overrides) as JSON.
    Config {
        #[command(flatten)]
        config: ConfigArgs,
    },
    /// List topologies, routing algorithms, traffic patterns and parameters.
    List {
        /// Print the catalog as JSON (the format the web page reads).
        #[arg(long)]
        json: bool,
    },
}

/// What `hiradix story` does.
#[derive(Subcommand, Debug)]
enum StoryCommand {
    /// Check story documents as the page does: every problem with its field's path; exit
    /// status 2 if any document has one.
    Check {
        /// Story documents (JSON), e.g. www/stories/builtin/*.json.
        #[arg(required = true)]
        files: Vec<PathBuf>,
    },
}

/// Checks each story document, printing "ok" or its problems; fails if any has one.
fn check_stories(files: &[PathBuf]) -> Result<(), Failure> {
    let mut bad = 0;
    for path in files {
        let checked = files::read_capped(path, hiradix::story::MAX_STORY_BYTES as u64)
            .map_err(|e| hiradix::config::ConfigErrors::one("(story)", format!("cannot read it: {e}")))
            .and_then(|text| hiradix::story::check(&text));
        match checked {
            Ok(story) => println!("{}: ok ({})", path.display(), shown::shown(&story.title, 100)),
            Err(e) => {
                bad += 1;
                // Whatever a message quotes from the document, it reaches the terminal as text.
                eprintln!("{}:\n{}", path.display(), indent(&shown::shown(&e.to_string(), usize::MAX)));
            }
        }
    }
    match bad {
        0 => Ok(()),
        n => Err(bad_input(format!("{n} of {} story documents have problems", files.len()))),
    }
}

/// How a configuration is given on the command line.
#[derive(Args, Clone, Debug)]
pub struct ConfigArgs {
    /// JSON configuration file (defaults are used for everything it leaves out).
    pub file: Option<PathBuf>,
    /// Override a field, e.g. `--set routing.algorithm=val --set topology.k=32`.
    #[arg(long = "set", value_name = "PATH=VALUE")]
    pub overrides: Vec<String>,
}

/// A CLI failure: the message and the exit status (2 for bad input).
pub struct Failure {
    pub message: String,
    pub status: u8,
}

impl From<ConfigErrors> for Failure {
    fn from(e: ConfigErrors) -> Self {
        Failure { message: format!("invalid configuration:\n{}", indent(&e.to_string())), status: 2 }
    }
}

fn indent(s: &str) -> String {
    s.lines().map(|l| format!("  {l}")).collect::<Vec<_>>().join("\n")
}

pub fn bad_input(message: impl Into<String>) -> Failure {
    Failure { message: message.into(), status: 2 }
}

pub fn failure(message: impl Into<String>) -> Failure {
    Failure { message: message.into(), status: 1 }
}

impl ConfigArgs {
    /// The configuration as a JSON value with overrides applied (not yet validated).
    pub fn value(&self) -> Result<serde_json::Value, Failure> {
        let mut value = match &self.file {
            Some(path) => {
                let limit = hiradix::config::MAX_CONFIG_BYTES as u64;
                let text = files::read_capped(path, limit)
                    .map_err(|e| bad_input(format!("cannot read {}: {e}", path.display())))?;
                hiradix::config::parse_config_document(&text)
                    .map_err(|e| bad_input(format!("{}: {}", path.display(), e.message)))?
            }
            None => serde_json::json!({}),
        };
        apply_overrides(&mut value, self.overrides.iter().map(String::as_str))
            .map_err(|(o, e)| bad_input(format!("--set {}: {}", shown::shown(&o, 80), e.message)))?;
        Ok(value)
    }

    /// The validated configuration (noting on stderr any setting it does not read).
    pub fn load(&self) -> Result<SimConfig, Failure> {
        let cfg = SimConfig::from_value(self.value()?)?;
        note_unused_settings(&cfg, "");
        Ok(cfg)
    }
}

/// Notes on stderr the settings `cfg` changed from their defaults but does not read (e.g.
/// UGAL-L_CR's `routing.crt0` with another algorithm): likely a mistake, but not an error.
pub fn note_unused_settings(cfg: &SimConfig, context: &str) {
    for line in hiradix::catalog::unused_settings(cfg) {
        eprintln!("note: {context}{line}");
    }
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match (cli.list, cli.command) {
        (true, _) | (false, Some(Command::List { json: false })) => {
            print!("{}", hiradix::catalog::listing());
            Ok(())
        }
        (false, Some(Command::List { json: true })) => {
            println!("{}", serde_json::to_string_pretty(&hiradix::catalog::catalog()).expect("serialises"));
            Ok(())
        }
        (false, Some(Command::Run { config, json })) => run_one(&config, json.as_deref()),
        (false, Some(Command::Sweep(args))) => sweep::run(&args),
        (false, Some(Command::Merge(args))) => slurm::merge(&args),
        (false, Some(Command::Bench(args))) => bench::run(&args),
        (false, Some(Command::Figure(args))) => figure::run(&args),
        (false, Some(Command::Claims(args))) => figure::claims(&args),
        (false, Some(Command::Cost(cmd))) => cost_cli::run(cmd).map_err(bad_input),
        (false, Some(Command::Story(StoryCommand::Check { files }))) => check_stories(&files),
        (false, Some(Command::Config { config })) => config.load().map(|c| println!("{}", c.to_json())),
        (false, None) => Err(bad_input("no command given; try `hiradix --help` or `hiradix --list`")),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(f) => {
            // Whatever a message quotes, it reaches the terminal as text.
            eprintln!("error: {}", shown::shown(&f.message, usize::MAX));
            ExitCode::from(f.status)
        }
    }
}

pub use files::check_writable;

fn run_one(args: &ConfigArgs, json: Option<&std::path::Path>) -> Result<(), Failure> {
    let cfg = args.load()?;
    json.map(check_writable).transpose()?;
    // Progress on stderr (hidden when it is not a terminal): the phase and the cycle.
    let m = &cfg.measurement;
    let bar = indicatif::ProgressBar::new(m.warmup + m.measure);
    bar.set_style(
        indicatif::ProgressStyle::with_template("{msg:12} {bar:40} cycle {pos}/{len}  {elapsed_precise}")
            .expect("template"),
    );
    let result = hiradix::experiment::run_reporting(&cfg, &mut |phase, cycle| {
        bar.set_message(phase.name());
        if cycle > bar.length().unwrap_or(0) {
            bar.set_length(cycle);
        }
        bar.set_position(cycle);
    });
    bar.finish_and_clear();
    let result = result.map_err(|e| match e {
        hiradix::experiment::RunError::Config(c) => Failure::from(c),
        other => failure(other.to_string()),
    })?;
    println!("{}", sweep::table_header());
    println!("{}", sweep::table_row(&result.summary));
    if let Some(b) = result.batch_normalized_latency {
        println!("batch: {} packets per terminal delivered in {:.1} cycles per packet", cfg.traffic.batch_size, b);
    }
    if let Some(path) = json {
        let text =
            serde_json::to_string_pretty(&serde_json::json!({"config": cfg, "result": result})).expect("serialises");
        files::write(path, &text)?;
    }
    Ok(())
}
