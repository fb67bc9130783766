//! `hiradix cost …`: the cost, power and design-space models of the three papers
//! (library: `hiradix::cost`), as tables on stdout, CSV and SVG plots, and the generator
//! of `docs/cost.md`.

use hiradix::cost::explore::CostQuery;
use hiradix::cost::fb;
use hiradix::cost::figures::*;
use hiradix::cost::hyperx_search::{self as hx, DesignClass, DesignProblem, HyperXDesign};
use hiradix::plot::Plot;
use std::path::{Path, PathBuf};
use std::time::Instant;

/// Output options shared by the table-printing subcommands.
#[derive(clap::Args, Clone, Debug, Default)]
pub struct Output {
    /// Also write the table as CSV.
    #[arg(long, value_name = "PATH")]
    pub csv: Option<PathBuf>,
    /// Also write the figure as SVG.
    #[arg(long, value_name = "PATH")]
    pub svg: Option<PathBuf>,
}

/// Network sizes as a range of powers of two.
#[derive(clap::Args, Clone, Debug)]
pub struct Sizes {
    /// Smallest size, log2 N.
    #[arg(long, default_value_t = 7)]
    pub min_log2: u32,
    /// Largest size, log2 N.
    #[arg(long, default_value_t = 16)]
    pub max_log2: u32,
}

/// The largest `log2 N` of the FB and dragonfly papers' cost and power models: beyond
/// 2^33 no flattened butterfly of the papers' radix-64 routers reaches `N` (§5.1.2's
/// `⌊64/(n'+1)⌋^(n'+1)` peaks below it), so there is nothing to price.
/// `tests/integration/cost_fb.rs` runs every size up to it.
pub const MAX_LOG2: u32 = 33;

impl Sizes {
    fn list(&self) -> Result<Vec<u64>, String> {
        if self.min_log2 > self.max_log2 || self.max_log2 > MAX_LOG2 {
            return Err(format!(
                "--min-log2 {} --max-log2 {}: need min ≤ max ≤ {MAX_LOG2} (the models' radix-64 networks reach at most 2^{MAX_LOG2} nodes)",
                self.min_log2, self.max_log2
            ));
        }
        Ok(fb::fig11_sizes(self.min_log2, self.max_log2))
    }
}

/// Checks `N`, `R` and `β` by the Cost view's own rules ([`CostQuery::parse`]): one set of
/// rules for the page and the command line.
fn query(nodes: u64, radix: u32, beta: f64) -> Result<CostQuery, String> {
    CostQuery::parse(&nodes.to_string(), &radix.to_string(), &beta.to_string())
        .map_err(|e| e.iter().map(|e| format!("--{}: {}", e.field, e.message)).collect::<Vec<_>>().join("\n"))
}

#[derive(clap::Subcommand, Clone, Debug)]
pub enum CostCommand {
    /// FB paper Figs. 10–11: cost per node of butterfly, folded Clos, hypercube and
    /// flattened butterfly vs N (--svg: Fig. 11; --svg-links / --svg-cable: Fig. 10).
    FbCost {
        #[command(flatten)]
        sizes: Sizes,
        #[command(flatten)]
        out: Output,
        /// Fig. 10(a): link cost / total cost.
        #[arg(long, value_name = "PATH")]
        svg_links: Option<PathBuf>,
        /// Fig. 10(b): average global cable length.
        #[arg(long, value_name = "PATH")]
        svg_cable: Option<PathBuf>,
    },
    /// FB paper Table 4 and Fig. 13: k-ary n-flats of N nodes and their cost per node;
    /// §5.1.2 dimension for a router radix.
    FbDims {
        #[arg(long, default_value_t = 4096)]
        nodes: u64,
        /// Router radix for the §5.1.2 selection formula.
        #[arg(long, default_value_t = 64)]
        radix: u32,
        #[command(flatten)]
        out: Output,
    },
    /// FB paper Table 5 and Fig. 15: network power per node vs N.
    Power {
        #[command(flatten)]
        sizes: Sizes,
        #[command(flatten)]
        out: Output,
    },
    /// Dragonfly paper Fig. 2: electrical vs active optical cable cost per Gb/s.
    Cables {
        /// Longest cable, metres.
        #[arg(long, default_value_t = 40.0)]
        max_m: f64,
        #[command(flatten)]
        out: Output,
    },
    /// Dragonfly paper Fig. 19 and Table 2: dragonfly, flattened butterfly, folded Clos and
    /// 3-D torus cost per node vs N.
    DragonflyCost {
        #[command(flatten)]
        sizes: Sizes,
        #[command(flatten)]
        out: Output,
    },
    /// HyperX paper §3.1.2: the fewest-switch HyperX for N terminals, radix R, bisection B.
    HyperxSearch {
        #[arg(long, default_value_t = 131072)]
        nodes: u64,
        #[arg(long, default_value_t = 128)]
        radix: u32,
        #[arg(long, default_value_t = 0.5)]
        beta: f64,
        /// List every design with the optimal switch count, not only the first.
        #[arg(long)]
        all: bool,
        #[command(flatten)]
        out: Output,
    },
    /// HyperX paper Table 1: published vs computed best regular and general designs.
    HyperxTable1 {
        #[command(flatten)]
        out: Output,
    },
    /// HyperX paper Fig. 8: switches per terminal of HyperX and folded Clos vs N.
    HyperxSwitches {
        #[arg(long, default_value_t = 128)]
        radix: u32,
        /// Relative bisection bandwidths, comma-separated.
        #[arg(long, value_delimiter = ',', default_value = "0.25,0.5,1")]
        betas: Vec<f64>,
        #[arg(long, default_value_t = 8)]
        min_log2: u32,
        #[arg(long, default_value_t = 20)]
        max_log2: u32,
        #[command(flatten)]
        out: Output,
    },
    /// Regenerate docs/cost.md and the tables and SVGs of docs/cost/.
    Report {
        /// The docs directory.
        #[arg(long, default_value = "docs")]
        dir: PathBuf,
    },
}

/// Runs one `hiradix cost` subcommand.
pub fn run(cmd: CostCommand) -> Result<(), String> {
    match cmd {
        CostCommand::FbCost { sizes, out, svg_links, svg_cable } => {
            let sizes = sizes.list()?;
            let t = fb_cost_table(&sizes);
            print!("{}", t.text());
            emit(&out, &t, || fig11_plot(&sizes))?;
            write_opt(&svg_links, || fig10a_plot(&sizes).to_svg())?;
            write_opt(&svg_cable, || fig10b_plot(&sizes).to_svg())
        }
        CostCommand::FbDims { nodes, radix, out } => {
            query(nodes, radix, 1.0)?;
            let t = fb_dims_table(nodes);
            print!("{}", t.text());
            match fb::fb_dimension_for_radix(radix, nodes) {
                Some((np, kp)) => println!("§5.1.2, radix {radix}, N = {nodes}: n' = {np}, k' = {kp}"),
                None => println!("§5.1.2, radix {radix}: no flattened butterfly reaches N = {nodes}"),
            }
            emit(&out, &t, || fig13_plot(nodes))
        }
        CostCommand::Power { sizes, out } => {
            let sizes = sizes.list()?;
            let t = power_table(&sizes);
            print!("{}", table5().text());
            print!("{}", t.text());
            emit(&out, &t, || fig15_plot(&sizes))
        }
        CostCommand::Cables { max_m, out } => {
            if !(max_m > 0.0 && max_m <= 1000.0) {
                return Err(format!("--max-m must be in (0, 1000], got {max_m}"));
            }
            let t = cables_table(max_m);
            print!("{}", t.text());
            emit(&out, &t, || fig2_plot(max_m))
        }
        CostCommand::DragonflyCost { sizes, out } => {
            let sizes = sizes.list()?;
            let t = dragonfly_table(&sizes);
            print!("{}", table2_df().text());
            print!("{}", t.text());
            emit(&out, &t, || fig19_plot(&sizes))
        }
        CostCommand::HyperxSearch { nodes, radix, beta, all, out } => {
            query(nodes, radix, beta)?;
            let problem = DesignProblem { terminals: nodes, radix, beta };
            let mut t = Table::new(&["class", "switches", "L", "S", "K", "T", "T range", "ports used", "β", "time"]);
            for class in [DesignClass::Regular, DesignClass::General] {
                let start = Instant::now();
                let res = hx::search(&problem, class);
                let time = format!("{:.2?}", start.elapsed());
                let designs: Vec<&HyperXDesign> =
                    if all { res.optimal.iter().collect() } else { res.best.iter().collect() };
                if designs.is_empty() {
                    t.row(vec![
                        class_name(class).into(),
                        "infeasible".into(),
                        "".into(),
                        "".into(),
                        "".into(),
                        "".into(),
                        "".into(),
                        "".into(),
                        "".into(),
                        time.clone(),
                    ]);
                }
                for d in designs {
                    let mut r = design_cells(d, &problem);
                    r.insert(0, class_name(class).into());
                    r.push(time.clone());
                    t.row(r);
                }
            }
            print!("{}", t.text());
            table_only(&out, &t)
        }
        CostCommand::HyperxTable1 { out } => {
            let t = table1();
            print!("{}", t.text());
            table_only(&out, &t)
        }
        CostCommand::HyperxSwitches { radix, betas, min_log2, max_log2, out } => {
            if radix < 4 || min_log2 > max_log2 || max_log2 > 30 || betas.iter().any(|b| !(*b > 0.0 && *b <= 4.0)) {
                return Err("need --radix ≥ 4, 0 < β ≤ 4 and a size range within 2^0..2^30".into());
            }
            let sizes = hx::fig8_sizes(min_log2, max_log2);
            let t = fig8_table(radix, &betas, &sizes);
            print!("{}", t.text());
            emit(&out, &t, || fig8_plot(radix, &betas, &sizes))
        }
        CostCommand::Report { dir } => report(&dir),
    }
}

fn write_file(path: &Path, text: &str) -> Result<(), String> {
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    }
    std::fs::write(path, text).map_err(|e| format!("{}: {e}", path.display()))
}

fn write_opt(path: &Option<PathBuf>, make: impl FnOnce() -> String) -> Result<(), String> {
    match path {
        Some(p) => write_file(p, &make()),
        None => Ok(()),
    }
}

fn emit(out: &Output, t: &Table, plot: impl FnOnce() -> Plot) -> Result<(), String> {
    write_opt(&out.csv, || t.csv())?;
    write_opt(&out.svg, || plot().to_svg())
}

/// For tables without a figure: `--svg` is an error, `--csv` works.
fn table_only(out: &Output, t: &Table) -> Result<(), String> {
    if out.svg.is_some() {
        return Err("this subcommand has no figure; use hyperx-switches for Fig. 8".into());
    }
    write_opt(&out.csv, || t.csv())
}

// ---- docs/cost.md -----------------------------------------------------------------------

/// Writes docs/cost.md and docs/cost/* (the files of [`hiradix::cost::report::files`]).
fn report(dir: &Path) -> Result<(), String> {
    for (name, text) in hiradix::cost::report::files() {
        write_file(&dir.join(&name), &text)?;
        println!("wrote {}", dir.join(&name).display());
    }
    Ok(())
}
