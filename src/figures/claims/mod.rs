//! The papers' claims, each checked against the figure data `hiradix figure` wrote: the
//! summary tables of docs/dragonfly.md and docs/hyperx.md are generated from the committed
//! CSV files by `hiradix claims` and a test checks that the documents still say exactly
//! what the data gives (`tests/integration/docs_claims.rs`). A claim states the paper's words, reads
//! its numbers from one figure's CSV and marks itself by a stated rule ([`Mark`]).

pub mod dragonfly;
pub mod fb_hyperx_2dfb;

use crate::saturation::CurveSaturation;
use std::collections::BTreeMap;
use std::fmt::Write as _;

/// How far a claim holds in the measurements.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Mark {
    /// It does not hold.
    Fails,
    /// It holds in direction or in part (the numbers say how far).
    Partly,
    /// It holds.
    Holds,
}

impl Mark {
    pub fn symbol(self) -> &'static str {
        match self {
            Mark::Holds => "✓",
            Mark::Partly => "≈",
            Mark::Fails => "✗",
        }
    }
}

/// A claim's mark and the rule that gave it, written with the numbers the rule compares,
/// as the claims tables print it beside the mark. Every judgement is made by one of these
/// constructors, so no mark is set without its rule.
#[derive(Clone, Debug, PartialEq)]
pub struct Judgement {
    pub mark: Mark,
    pub rule: String,
}

impl Judgement {
    /// A rule of the claim's own, stated in `rule`.
    pub fn new(mark: Mark, rule: impl Into<String>) -> Judgement {
        Judgement { mark, rule: rule.into() }
    }

    /// A quantity the paper says reaches `target` (at least): ✓ from 95 % of it, ≈ from
    /// 80 %, ✗ below. A lower bound (a curve that never saturated) may pass: it is reached.
    pub fn reaches(measured: f64, target: f64) -> Judgement {
        let mark = Judgement::grade(measured / target, 0.95, 0.8);
        let rule = format!("✓ ≥ {:.3} (95 % of {}), ≈ ≥ {:.3} (80 %)", 0.95 * target, trim(target), 0.8 * target);
        Judgement::new(mark, rule)
    }

    /// A quantity the paper puts at `target`: ✓ within 5 % of it, ≈ within 20 %, ✗ beyond.
    pub fn near(measured: f64, target: f64) -> Judgement {
        let off = (measured / target - 1.0).abs();
        let mark = if off <= 0.05 {
            Mark::Holds
        } else if off <= 0.2 {
            Mark::Partly
        } else {
            Mark::Fails
        };
        Judgement::new(mark, format!("✓ within 5 % of {}, ≈ within 20 %", trim(target)))
    }

    /// The paper puts a curve's saturation throughput at `target`. A curve that saturated
    /// places it between its saturation throughput (accepted at the last unsaturated load)
    /// and its first saturated load: ✓ if that interval comes within 5 % of the target, ≈
    /// within 20 %, ✗ beyond ([`near`](Self::near) on the interval's nearer end). A curve
    /// that never saturated only bounds it from below, so it cannot be ✓: ✗ if the bound is
    /// already more than 5 % above the target, ≈ otherwise (the sweep must go further).
    pub fn near_saturation(s: &CurveSaturation, target: f64) -> Judgement {
        let Some(onset) = s.onset_load else {
            let j = Judgement::near(s.throughput, target);
            let mark = if s.throughput > 1.05 * target { Mark::Fails } else { Mark::Partly };
            let rule = format!("{}; never saturated up to load {}, so at most ≈", j.rule, s.last_unsaturated_load);
            return Judgement::new(mark, rule);
        };
        let nearest = target.clamp(s.throughput, onset.max(s.throughput));
        let j = Judgement::near(nearest, target);
        let between = format!("saturates between {:.3} and {}", s.throughput, trim(onset));
        Judgement::new(j.mark, format!("{between}: {}", j.rule))
    }

    /// `value` (what `what` names) graded: ✓ from `holds`, ≈ from `partly`, ✗ below.
    pub fn graded(value: f64, holds: f64, partly: f64, what: &str) -> Judgement {
        let rule = format!("{what}: ✓ ≥ {}, ≈ ≥ {}", trim(holds), trim(partly));
        Judgement::new(Judgement::grade(value, holds, partly), rule)
    }

    fn grade(value: f64, holds: f64, partly: f64) -> Mark {
        if value >= holds {
            Mark::Holds
        } else if value >= partly {
            Mark::Partly
        } else {
            Mark::Fails
        }
    }

    /// `held` of `of` cases, each the condition `case`: ✓ if every case holds, ≈ if some
    /// do, ✗ if none.
    pub fn share(held: usize, of: usize, case: &str) -> Judgement {
        let mark = if held == of && of > 0 {
            Mark::Holds
        } else if held > 0 {
            Mark::Partly
        } else {
            Mark::Fails
        };
        Judgement::new(mark, format!("{case}: ✓ in all {of} cases, ≈ in some ({held} here)"))
    }

    /// ✓ if `condition` (stated in words) holds, ✗ otherwise.
    pub fn iff(holds: bool, condition: &str) -> Judgement {
        Judgement::new(if holds { Mark::Holds } else { Mark::Fails }, format!("✓ iff {condition}"))
    }

    /// `value` in the band the paper names: ✓ inside `holds`, ≈ above `partly_above`, ✗
    /// otherwise, by the rule stated in `rule`.
    pub fn band(value: f64, holds: std::ops::RangeInclusive<f64>, partly_above: f64, rule: &str) -> Judgement {
        let mark = if holds.contains(&value) {
            Mark::Holds
        } else if value > partly_above {
            Mark::Partly
        } else {
            Mark::Fails
        };
        Judgement::new(mark, rule)
    }

    /// Every one of `judgements` ([`and`](Self::and) over them); `None` if there is none.
    pub fn all(judgements: impl IntoIterator<Item = Judgement>) -> Option<Judgement> {
        judgements.into_iter().reduce(Judgement::and)
    }

    /// Both judgements: the lower mark, both rules (one if they read the same).
    pub fn and(self, other: Judgement) -> Judgement {
        let rule = if self.rule == other.rule { self.rule } else { format!("{}; {}", self.rule, other.rule) };
        Judgement { mark: self.mark.min(other.mark), rule }
    }
}

/// A number as short as it reads: `0.5`, `0.0312`, `2`.
fn trim(x: f64) -> String {
    let s = format!("{x:.4}");
    s.trim_end_matches('0').trim_end_matches('.').to_string()
}

/// The legend printed under every claims table.
pub const LEGEND: &str = "✓ the claim holds, ≈ it holds in part or in direction, ✗ it does not, each by the rule printed beside it (computed from the data by `src/figures/claims/`). A saturation throughput is the accepted throughput at the highest load a curve carries unsaturated (src/saturation.rs); a curve that never saturates gives only a lower bound, which cannot make a claim about where it saturates ✓.";

/// One measured point of a load sweep, as the figure CSV records it.
#[derive(Clone, Copy, Debug)]
pub struct Point {
    pub load: f64,
    pub accepted: f64,
    pub latency: f64,
    pub hops: f64,
    pub latency_minimal: f64,
    pub latency_nonminimal: f64,
    pub saturated: bool,
}

/// The fields of one CSV line: comma-separated, a field in double quotes may hold commas
/// and doubled quotes (RFC 4180, without line breaks inside fields).
fn split_csv_line(line: &str) -> Vec<String> {
    let (mut fields, mut field, mut quoted) = (Vec::new(), String::new(), false);
    let mut chars = line.chars().peekable();
    while let Some(c) = chars.next() {
        match (c, quoted) {
            ('"', true) if chars.peek() == Some(&'"') => {
                field.push('"');
                chars.next();
            }
            ('"', _) => quoted = !quoted,
            (',', false) => fields.push(std::mem::take(&mut field)),
            _ => field.push(c),
        }
    }
    fields.push(field);
    fields
}

/// The CSV files of the figures, by figure name.
#[derive(Clone, Debug, Default)]
pub struct Figures {
    tables: BTreeMap<String, (Vec<String>, Vec<Vec<String>>)>,
}

impl Figures {
    /// Adds figure `name`'s CSV text (one record per line; fields quoted where they hold
    /// a comma, as [`super::csv`] writes them).
    pub fn add(&mut self, name: &str, csv: &str) -> Result<(), String> {
        let mut lines = csv.lines();
        let header: Vec<String> = split_csv_line(lines.next().unwrap_or_default());
        let rows: Vec<Vec<String>> = lines.filter(|l| !l.is_empty()).map(split_csv_line).collect();
        if let Some(bad) = rows.iter().position(|r| r.len() != header.len()) {
            return Err(format!(
                "{name}.csv: row {} has {} fields, the header {}",
                bad + 2,
                rows[bad].len(),
                header.len()
            ));
        }
        self.tables.insert(name.to_string(), (header, rows));
        Ok(())
    }

    /// The rows of `figure` as maps from column name to value.
    pub fn rows(&self, figure: &str) -> Result<Vec<BTreeMap<&str, &str>>, String> {
        let (header, rows) = self.tables.get(figure).ok_or_else(|| format!("no data for {figure}"))?;
        Ok(rows.iter().map(|r| header.iter().map(String::as_str).zip(r.iter().map(String::as_str)).collect()).collect())
    }

    /// The points of one series of a load-sweep figure, in load order.
    pub fn points(&self, figure: &str, panel: &str, series: &str) -> Result<Vec<Point>, String> {
        let num = |r: &BTreeMap<&str, &str>, c: &str| r.get(c).and_then(|v| v.parse::<f64>().ok()).unwrap_or(f64::NAN);
        let mut out: Vec<Point> = self
            .rows(figure)?
            .iter()
            .filter(|r| r.get("panel") == Some(&panel) && r.get("series") == Some(&series))
            .map(|r| Point {
                load: num(r, "load"),
                accepted: num(r, "accepted"),
                latency: num(r, "avg_latency"),
                hops: num(r, "avg_hops"),
                latency_minimal: num(r, "avg_latency_minimal"),
                latency_nonminimal: num(r, "avg_latency_nonminimal"),
                saturated: r.get("saturated") == Some(&"true"),
            })
            .collect();
        if out.is_empty() {
            return Err(format!("{figure}: no points for panel '{panel}', series '{series}'"));
        }
        out.sort_by(|a, b| a.load.total_cmp(&b.load));
        Ok(out)
    }

    /// The saturation of one series' curve.
    pub fn saturation(&self, figure: &str, panel: &str, series: &str) -> Result<CurveSaturation, String> {
        Ok(CurveSaturation::of(self.points(figure, panel, series)?.iter().map(|p| (p.load, p.saturated, p.accepted))))
    }

    /// The saturation throughput of one series (a lower bound if it never saturated).
    pub fn throughput(&self, figure: &str, panel: &str, series: &str) -> Result<f64, String> {
        Ok(self.saturation(figure, panel, series)?.throughput)
    }

    /// The average latency of one series at `load`; `None` if the point is saturated, or
    /// lies beyond where the series stopped at saturation. A load the series should have
    /// measured but did not is an error, not a saturated point.
    pub fn latency(&self, figure: &str, panel: &str, series: &str, load: f64) -> Result<Option<f64>, String> {
        let points = self.points(figure, panel, series)?;
        if let Some(p) = points.iter().find(|p| (p.load - load).abs() < 1e-9) {
            return Ok((!p.saturated).then_some(p.latency));
        }
        let last = points.last().expect("points() is never empty");
        if load > last.load && last.saturated {
            return Ok(None);
        }
        Err(format!("{figure}: {panel} / {series} has no point at load {load}"))
    }

    /// The loads at which every one of `series` (of one panel) was measured, in order: the
    /// loads a comparison between them can use (refinement adds different loads to
    /// different series).
    pub fn common_loads(&self, figure: &str, panel: &str, series: &[&str]) -> Result<Vec<f64>, String> {
        let mut loads: Vec<f64> = self.points(figure, panel, series[0])?.iter().map(|p| p.load).collect();
        for s in &series[1..] {
            let other = self.points(figure, panel, s)?;
            loads.retain(|l| other.iter().any(|p| (p.load - l).abs() < 1e-9));
        }
        Ok(loads)
    }

    /// The point of one series at `load`.
    pub fn point(&self, figure: &str, panel: &str, series: &str, load: f64) -> Result<Point, String> {
        self.points(figure, panel, series)?
            .into_iter()
            .find(|p| (p.load - load).abs() < 1e-9)
            .ok_or_else(|| format!("{figure}: {panel} / {series} has no point at load {load}"))
    }
}

/// `1.23` or `sat.`: a latency for a claims table.
pub fn cycles(latency: Option<f64>) -> String {
    latency.map_or("sat.".into(), |l| format!("{l:.1}"))
}

/// The measured text and judgement of a claim, or why its data is missing.
pub type Verdict = Result<(String, Judgement), String>;

/// A claim of a paper, checked against one figure's data.
pub struct Claim {
    /// The figure preset whose CSV it reads.
    pub figure: &'static str,
    /// The claim, with the paper's figure or section.
    pub claim: &'static str,
    /// What the paper says, in short.
    pub paper: &'static str,
    /// Reads the data: what was measured, and the mark.
    pub check: fn(&Figures) -> Verdict,
    /// Why the measurement differs from the paper, for a claim that does not fully hold
    /// (docs/faithfulness.md); empty if it holds.
    pub reason: &'static str,
}

impl Claim {
    pub fn new(
        figure: &'static str,
        claim: &'static str,
        paper: &'static str,
        check: fn(&Figures) -> Verdict,
    ) -> Claim {
        Claim { figure, claim, paper, check, reason: "" }
    }

    /// The same claim with the reason it does not fully hold.
    pub fn because(mut self, reason: &'static str) -> Claim {
        self.reason = reason;
        self
    }
}

/// Lines that open and close a generated claims table in a document.
pub const BEGIN: &str = "<!-- claims table: generated by `hiradix claims --write`; do not edit by hand -->";
pub const END: &str = "<!-- end of claims table -->";

/// The Markdown claims table of `claims`, with links to the CSV files under `csv_dir`
/// (relative to the document).
pub fn table(claims: &[Claim], data: &Figures, csv_dir: &str) -> Result<String, String> {
    let mut out = String::from("| claim (figure) | paper | measured | | rule | data |\n|---|---|---|---|---|---|\n");
    for c in claims {
        let (measured, judged) = (c.check)(data).map_err(|e| format!("{}: {e}", c.claim))?;
        let _ = writeln!(
            out,
            "| {} | {} | {measured} | {} | {} | [{}.csv]({csv_dir}/{}.csv) |",
            c.claim,
            c.paper,
            judged.mark.symbol(),
            judged.rule,
            c.figure,
            c.figure
        );
    }
    let _ = write!(out, "\n{LEGEND}\n");
    Ok(out)
}

/// Stands for the reason of a claim that does not fully hold and gives none
/// ([`Claim::because`]); `tests/integration/docs_claims.rs` fails on it.
pub const NO_REASON: &str = "(reason not stated)";

/// The disagreements with the papers (docs/faithfulness.md): every claim of `documents`
/// (with each document's data) marked ≈ or ✗, with what was measured and why (a claim
/// that does not fully hold must give its reason: [`NO_REASON`] otherwise).
pub fn disagreements(documents: &[(&str, &str, Vec<Claim>, Figures)]) -> Result<String, String> {
    let mut out = String::new();
    for (doc, dir, claims, data) in documents {
        let name = doc.trim_start_matches("docs/");
        let _ = writeln!(out, "### From [{name}]({name})\n");
        let mut any = false;
        for c in claims {
            let (measured, judged) = (c.check)(data).map_err(|e| format!("{}: {e}", c.claim))?;
            if judged.mark == Mark::Holds {
                continue;
            }
            any = true;
            let reason = if c.reason.is_empty() { NO_REASON } else { c.reason };
            let _ = writeln!(
                out,
                "- {} **{}** — paper: {}; measured: {measured} ([{}.csv]({dir}/{}.csv)); rule: {}. {reason}\n",
                judged.mark.symbol(),
                c.claim,
                c.paper,
                c.figure,
                c.figure,
                judged.rule
            );
        }
        if !any {
            out += "Every claim holds.\n\n";
        }
    }
    Ok(out)
}

/// `document` with the text between [`BEGIN`] and [`END`] replaced by `table`.
pub fn replace_table(document: &str, table: &str) -> Result<String, String> {
    let start = document.find(BEGIN).ok_or("the document has no claims-table marker")? + BEGIN.len();
    let end = document[start..].find(END).ok_or("the document's claims table has no end marker")? + start;
    Ok(format!("{}\n{table}{}", &document[..start], &document[end..]))
}

/// Opens a figure's report included in a document: `<!-- figure NAME -->`, up to
/// [`FIGURE_END`].
const FIGURE_BEGIN: &str = "<!-- figure ";
pub const FIGURE_END: &str = "<!-- end of figure -->";

/// `document` with each included figure report (between `<!-- figure NAME -->` and
/// [`FIGURE_END`]) replaced by `docs/<dir>/NAME.md` without its title line, so the
/// documents show the figures' generated tables, never stale copies.
pub fn include_figures(
    document: &str,
    dir: &str,
    read: &dyn Fn(&str) -> Result<String, String>,
) -> Result<String, String> {
    let mut out = String::new();
    let mut rest = document;
    while let Some(at) = rest.find(FIGURE_BEGIN) {
        let open_end = rest[at..].find("-->").ok_or("an unclosed figure marker")? + at + 3;
        let name = rest[at + FIGURE_BEGIN.len()..open_end - 3].trim();
        let close =
            rest[open_end..].find(FIGURE_END).ok_or_else(|| format!("figure {name}: no end marker"))? + open_end;
        let report = read(&format!("docs/{dir}/{name}.md"))?;
        let body = report.split_once('\n').map_or("", |(_, b)| b).trim_start_matches('\n');
        out += &rest[..open_end];
        out += "\n";
        out += body;
        if !body.ends_with('\n') {
            out += "\n";
        }
        rest = &rest[close..];
    }
    out += rest;
    Ok(out)
}

/// The claims table of `document`, as it stands.
pub fn current_table(document: &str) -> Option<&str> {
    let start = document.find(BEGIN)? + BEGIN.len() + 1;
    let end = document[start..].find(END)? + start;
    Some(&document[start..end])
}

/// The document listing the claims that do not fully hold.
pub const FAITHFULNESS: &str = "docs/faithfulness.md";

/// Every document with generated claims, as the data says it should read: the claims
/// tables of [`documents`] and the disagreements of [`FAITHFULNESS`]. `read` gives a file
/// of the project by its path from the project's root. Returns (path, text) pairs.
pub fn regenerate(read: &dyn Fn(&str) -> Result<String, String>) -> Result<Vec<(String, String)>, String> {
    let mut out = Vec::new();
    let mut all = Vec::new();
    for (doc, dir, list) in documents() {
        let mut data = Figures::default();
        for c in &list {
            if data.tables.contains_key(c.figure) {
                continue;
            }
            data.add(c.figure, &read(&format!("docs/{dir}/{}.csv", c.figure))?)?;
        }
        let table = table(&list, &data, dir).map_err(|e| format!("{doc}: {e}"))?;
        let text = replace_table(&read(doc)?, &table).map_err(|e| format!("{doc}: {e}"))?;
        out.push((doc.to_string(), include_figures(&text, dir, read).map_err(|e| format!("{doc}: {e}"))?));
        all.push((doc, dir, list, data));
    }
    let section = disagreements(&all)?;
    out.push((
        FAITHFULNESS.to_string(),
        replace_table(&read(FAITHFULNESS)?, &section).map_err(|e| format!("{FAITHFULNESS}: {e}"))?,
    ));
    Ok(out)
}

/// The documents with generated claims tables: (document, its figures' CSV directory
/// relative to it, the claims).
pub fn documents() -> Vec<(&'static str, &'static str, Vec<Claim>)> {
    vec![
        ("docs/dragonfly.md", "dragonfly", dragonfly::claims()),
        ("docs/hyperx.md", "hyperx", fb_hyperx_2dfb::claims()),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn marks_follow_their_rules() {
        assert_eq!(Judgement::reaches(0.96, 1.0).mark, Mark::Holds);
        assert_eq!(Judgement::reaches(0.85, 1.0).mark, Mark::Partly);
        assert_eq!(Judgement::reaches(0.5, 1.0).mark, Mark::Fails);
        assert_eq!(Judgement::reaches(0.5, 1.0).rule, "✓ ≥ 0.950 (95 % of 1), ≈ ≥ 0.800 (80 %)");
        assert_eq!(Judgement::near(0.0312, 1.0 / 32.0).mark, Mark::Holds);
        assert_eq!(Judgement::near(0.0312, 1.0 / 32.0).rule, "✓ within 5 % of 0.0312, ≈ within 20 %");
        assert_eq!(Judgement::near(0.112, 0.125).mark, Mark::Partly);
        assert_eq!(Judgement::share(2, 4, "x").mark, Mark::Partly);
        assert_eq!(Judgement::share(0, 0, "x").mark, Mark::Fails);
        let both = Judgement::reaches(0.96, 1.0).and(Judgement::iff(false, "A"));
        assert_eq!((both.mark, both.rule.ends_with("; ✓ iff A")), (Mark::Fails, true));
        // A curve that never saturated bounds its saturation throughput from below: a
        // network that carried 0.6 unsaturated cannot be "✓ saturates at 0.5".
        let never = CurveSaturation::of([(0.3, false, 0.3), (0.6, false, 0.6)]);
        assert_eq!(Judgement::near_saturation(&never, 0.5).mark, Mark::Fails);
        assert_eq!(Judgement::near_saturation(&never, 0.6).mark, Mark::Partly);
        // A curve that saturated places the point between its last unsaturated accepted
        // throughput and its first saturated load.
        let reached = CurveSaturation::of([(0.45, false, 0.45), (0.5, true, 0.47)]);
        assert_eq!(Judgement::near_saturation(&reached, 0.46).mark, Mark::Holds);
        assert_eq!(Judgement::near_saturation(&reached, 0.52).mark, Mark::Holds);
        assert_eq!(Judgement::near_saturation(&reached, 0.58).mark, Mark::Partly);
        assert_eq!(Judgement::near_saturation(&reached, 0.3).mark, Mark::Fails);
        assert!(Judgement::near_saturation(&reached, 0.46).rule.starts_with("saturates between 0.450 and 0.5: "));
        let doc = format!("intro\n{BEGIN}\nold\n{END}\nrest\n");
        let new = replace_table(&doc, "| t |\n").unwrap();
        assert_eq!(new, format!("intro\n{BEGIN}\n| t |\n{END}\nrest\n"));
        assert_eq!(current_table(&new), Some("| t |\n"));
        let doc = format!("a\n<!-- figure f1 -->\nstale\n{FIGURE_END}\nb\n");
        let read = |p: &str| {
            if p == "docs/d/f1.md" {
                Ok("### Title\n\nfresh table\n".to_string())
            } else {
                Err(p.to_string())
            }
        };
        assert_eq!(
            include_figures(&doc, "d", &read).unwrap(),
            format!("a\n<!-- figure f1 -->\nfresh table\n{FIGURE_END}\nb\n")
        );
    }

    /// Series names with commas survive the figures' CSV and come back whole.
    #[test]
    fn csv_fields_with_commas_round_trip() {
        let name = "MIN, 2-D FB 2×4 \"trunked\" [2, 1]";
        let line = format!("UR,{},0.1", crate::figures::csv_field(name));
        assert_eq!(split_csv_line(&line), vec!["UR", name, "0.1"]);
        assert_eq!(split_csv_line("a,,b"), vec!["a", "", "b"]);
    }
}
