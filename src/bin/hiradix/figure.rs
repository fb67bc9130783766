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
    let hx = hiradix::figures::hyperx::HYPERX_FIGURES.iter().map(|&(n, d)| (n, d, hiradix::figures::hyperx::run_figure as Runner));
    df.chain(hx).collect()
}

pub fn run(args: &FigureArgs) -> Result<(), Failure> {
    let presets = presets();
    if args.list || args.name.is_none() {
        for (name, desc, _) in &presets {
            println!("{name:<14} {desc}");
        }
        return if args.list { Ok(()) } else { Err(bad_input("name a figure (or `all`); the presets are listed above")) };
    }
    let name = args.name.as_deref().unwrap_or_default();
    let selected: Vec<_> = if name == "all" {
        presets.iter().collect()
    } else {
        vec![presets.iter().find(|p| p.0 == name).ok_or_else(|| bad_input(format!("unknown figure '{name}'; see `hiradix figure --list`")))?]
    };
    let loads = args.loads.as_deref().map(crate::sweep::parse_loads).transpose()?;
    let opts = FigureOptions { quick: args.quick, set: args.set.clone(), loads };
    std::fs::create_dir_all(&args.out_dir).map_err(|e| failure(format!("cannot create {}: {e}", args.out_dir.display())))?;
    for (name, desc, runner) in selected {
        eprintln!("{name}: {desc}");
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
        write(format!("{name}.csv"), &fig.csv)?;
        write(format!("{name}.md"), &fig.markdown)?;
        for (suffix, plot) in &fig.plots {
            write(format!("{name}-{suffix}.svg"), &plot.to_svg())?;
        }
        println!("{}", fig.markdown);
    }
    Ok(())
}
