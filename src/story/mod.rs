//! Story documents: what the page opens as a story (a lecture scene), declared once here
//! and checked against the catalog and the engine. A story is a JSON document: its title,
//! source (paper, section, figures), the one-sentence point, the explanation and what to
//! look at as structured text (strings and `{b}`, `{i}`, `{sub}` segments: rendered as
//! text, never as HTML), the experiment (the configuration over the defaults, the parameter
//! compared side by side, speed, view, colour ranges, the load sweep), its focus (a named
//! selector, or channels and routers picked on the picture: which channels the picture cases
//! in orange), its key plots by name and its
//! scenes (`scenes.rs`: the lecture's sequence, each with a caption, a stop and perhaps a
//! question for the class).
//!
//! The seven built-in stories are such documents (`www/stories/builtin/`); the page reads
//! them, `hiradix story check` and the page's `checkStory` check any document, and
//! `tests/integration/stories.rs` checks the built-in ones. A document is refused with every problem as
//! `[{path, message}]`, each naming its field (e.g. `experiment.config.router.vcs`).

use crate::catalog::catalog;
use crate::config::shown::{is_hidden, shown};
use crate::config::{apply_override, parse_strict_json, ConfigError, ConfigErrors, SimConfig};
use crate::sim::Simulation;
use crate::traffic::PATTERNS;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::collections::BTreeMap;

mod focus;
mod scenes;
pub use focus::focus_mask;
pub use scenes::{Question, Scene, Stop, MAX_SCENES, MAX_SCENE_CYCLE, MAX_SCENE_LINKS};

/// The most channels a picked focus lists (router pairs).
pub const MAX_PICKED_CHANNELS: usize = 256;
/// The most routers a picked focus lists.
pub const MAX_PICKED_ROUTERS: usize = 64;

/// The version of the format this module reads (the document's `hiradix_story`).
pub const FORMAT: u32 = 1;

/// The largest story document accepted (a file, a link's payload or the page's editor).
pub const MAX_STORY_BYTES: usize = 256 << 10;

/// The most panes a story compares side by side (the page's `MAX_VARIANTS`).
pub const MAX_VARIANTS: usize = 3;

/// The most offered loads the page's sweep runs (its sweep box reads them with
/// [`crate::experiment::parse_loads`], as a story's `experiment.sweep` is checked).
pub const MAX_SWEEP_LOADS: usize = 40;

/// The page's speeds, in simulated cycles per displayed frame (`www/model/experiment.js`).
pub const MIN_SPEED: f64 = 1.0 / 120.0;
pub const MAX_SPEED: f64 = 5000.0;

/// How deep structured text may nest (`{b: [{sub: …}]}` is three levels).
const MAX_TEXT_DEPTH: usize = 8;

/// A story document (see the module documentation).
#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct Story {
    /// The format version: [`FORMAT`].
    pub hiradix_story: u32,
    /// Lower-case letters, digits and dashes: the page's `?preset=` value.
    pub id: String,
    pub title: String,
    pub source: Source,
    /// The one sentence the class should take away, shown above the picture.
    pub point: String,
    /// Structured text: what the experiment is and why it shows the point.
    pub explanation: Value,
    /// What to look at, one structured text per item.
    #[serde(default)]
    pub look: Vec<Value>,
    pub experiment: Experiment,
    #[serde(default)]
    pub focus: Option<Focus>,
    #[serde(default)]
    pub key_plots: Vec<KeyPlot>,
    /// The numbers the story's text states, each with the tolerance its test allows
    /// (`tests/browser/stories.test.mjs` measures them on the page).
    #[serde(default)]
    pub numbers: Option<StatedNumbers>,
    /// The lecture's sequence (`scenes.rs`): played one scene per clicker press.
    #[serde(default)]
    pub scenes: Vec<Scene>,
    /// The author's notes on choices in the document (not shown).
    #[serde(default)]
    pub notes: Vec<String>,
}

/// Where a story comes from: the paper and, in it, the sections and figures.
#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct Source {
    /// E.g. "Dragonfly, ISCA 2008".
    pub paper: String,
    /// E.g. "§4.2–4.3, Figs. 9, 11, 12".
    #[serde(rename = "where")]
    pub place: String,
}

/// The experiment a story opens.
#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct Experiment {
    /// A configuration over the defaults, as a config file holds it.
    pub config: Value,
    /// The parameter compared side by side, one pane per value.
    #[serde(default)]
    pub compare: Option<Compare>,
    /// Simulated cycles per displayed frame.
    pub speed: f64,
    #[serde(default)]
    pub view: View,
    /// Per link colour (`occupancy`, `utilization`, `vcN`), the value drawn in full colour.
    #[serde(default)]
    pub ranges: BTreeMap<String, f64>,
    /// The load sweep offered beside the story: `start:stop:step` or a list of loads
    /// ([`crate::experiment::parse_loads`]), at most [`MAX_SWEEP_LOADS`].
    #[serde(default)]
    pub sweep: Option<String>,
}

/// The parameter a story compares side by side and its values.
#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct Compare {
    /// A config path, e.g. `routing.algorithm`.
    pub param: String,
    pub values: Vec<Value>,
}

/// What the picture shows.
#[derive(Clone, Debug, Default, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct View {
    /// The links' colour: `occupancy` (all VCs), `utilization` or one VC, `vc0`…`vc15`.
    #[serde(default)]
    pub metric: Option<String>,
    /// The routers' colour.
    #[serde(default)]
    pub routers: Option<RouterColour>,
    /// Whether packets are drawn moving along the channels.
    #[serde(default)]
    pub packets: Option<bool>,
    /// The zoom, 1 = the whole network fitted (the page's wheel and `?zoom=`), from
    /// [`MIN_ZOOM`] to [`MAX_ZOOM`].
    #[serde(default)]
    pub zoom: Option<f64>,
    /// The point at the picture's centre, in the fitted picture's fractions (0.5, 0.5 is
    /// its middle; `?center=`), with `zoom`.
    #[serde(default)]
    pub center: Option<[f64; 2]>,
}

/// The page's zoom range (`www/model/experiment.js`) and how far the centre may be
/// (`www/model/url-state.js`).
pub const MIN_ZOOM: f64 = 0.25;
pub const MAX_ZOOM: f64 = 64.0;
pub const MAX_CENTRE: f64 = 100.0;

impl View {
    /// The view's problems under `at` (`experiment.view` or a scene's `view`).
    fn problems(&self, p: &mut Problems, at: &str) {
        if let Some(m) = &self.metric {
            p.check(is_metric(m), &format!("{at}.metric"), || {
                format!("'{}' is not a link colour (occupancy, utilization, vc0 … vc15)", shown(m, 40))
            });
        }
        if let Some(z) = self.zoom {
            p.check(z.is_finite() && (MIN_ZOOM..=MAX_ZOOM).contains(&z), &format!("{at}.zoom"), || {
                format!("{z}: a zoom from {MIN_ZOOM} to {MAX_ZOOM} (1: the whole network)")
            });
        }
        if let Some(c) = self.center {
            p.check(c.iter().all(|x| x.is_finite() && x.abs() <= MAX_CENTRE), &format!("{at}.center"), || {
                format!("{c:?}: two numbers from -{MAX_CENTRE} to {MAX_CENTRE}")
            });
            p.check(self.zoom.is_some(), &format!("{at}.center"), || "a centre goes with a zoom".into());
        }
    }
}

/// The routers' colour on the picture.
#[derive(Clone, Copy, Debug, Deserialize, Serialize, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum RouterColour {
    /// How full the injection buffers are.
    Fill,
    /// The share of packets the router sends non-minimally.
    Nonmin,
}

/// The channels a story is about, cased in orange on the picture (the others dimmed).
#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct Focus {
    pub selector: Selector,
    /// The slice, for [`Selector::Slice`].
    #[serde(default)]
    pub slice: Option<u32>,
    /// For [`Selector::Picked`]: channels as `[from router, to router]` (every parallel
    /// channel from the one to the other), as the lecturer clicked them on the picture.
    #[serde(default)]
    pub channels: Vec<[u32; 2]>,
    /// For [`Selector::Picked`]: routers whose outgoing channels (the ones they choose
    /// among when routing) are selected.
    #[serde(default)]
    pub routers: Vec<u32>,
    /// The traffic pattern the selection is about: while the experiment runs another
    /// pattern, the focus is dropped rather than pointing at the wrong channels.
    #[serde(default)]
    pub pattern: Option<String>,
    /// What the orange casing marks, in the legend.
    pub label: String,
    /// The opacity of the other channels, 0–1 (default: dimmed; 1: not dimmed).
    #[serde(default)]
    pub dim: Option<f64>,
    /// The routers' size while the focus shows, 0.1–1 (smaller routers leave short
    /// channels visible).
    #[serde(default)]
    pub router_scale: Option<f64>,
}

/// The named selections of channels a focus can take.
#[derive(Clone, Copy, Debug, Deserialize, Serialize, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum Selector {
    /// The direct channels router i → i + shift (the minimal path of router shift, and of
    /// the 2DFB paper's adversarial traffic).
    ShiftDirect,
    /// The global channels group i → i + shift of a dragonfly (group shift's minimal ones).
    GroupShiftGlobal,
    /// Swap2's minimal channels of a HyperX: one per switch in dimensions 0 and 1.
    Swap2Minimal,
    /// The working two-hop detours around each failed link.
    FailedLinkDetours,
    /// Every channel of one slice of a sliced network.
    Slice,
    /// The channels and routers the lecturer picked (`channels`, `routers`).
    Picked,
}

impl Selector {
    pub const ALL: [Selector; 6] = [
        Selector::ShiftDirect,
        Selector::GroupShiftGlobal,
        Selector::Swap2Minimal,
        Selector::FailedLinkDetours,
        Selector::Slice,
        Selector::Picked,
    ];
}

/// The numbers a story states and where the page shows them.
#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct StatedNumbers {
    /// The cycle by which the picture shows them (the test measures there).
    pub at_cycle: u64,
    pub values: Vec<StatedNumber>,
}

/// One number a story states: which pane shows it, what it measures, its value and how
/// far from it the page may be.
#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct StatedNumber {
    /// Where the text says it, e.g. "MIN: accepted throughput flat at 0.0625".
    pub says: String,
    /// The pane, counted from 0 in the order of `experiment.compare.values`.
    pub pane: usize,
    pub quantity: Quantity,
    pub value: f64,
    /// The largest difference the test accepts.
    pub within: f64,
}

/// What a stated number measures on a pane.
#[derive(Clone, Copy, Debug, Deserialize, Serialize, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum Quantity {
    /// Accepted throughput over the last samples (flits per cycle per terminal).
    Accepted,
    /// The link colour's mean over the focus channels, and over the others.
    FocusMean,
    RestMean,
    /// How many channels the focus selects.
    FocusChannels,
    /// Packets lost to failed links per cycle.
    UnroutablePerCycle,
    /// A batch's completion time per packet (batch mode).
    BatchCyclesPerPacket,
}

/// The plots a story shows beside the picture.
#[derive(Clone, Copy, Debug, Deserialize, Serialize, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum KeyPlot {
    /// The link colour's mean over the focus channels against the rest, per pane.
    Classes,
    /// Where the routers send packets non-minimally: the focus channels' owners and the rest.
    Decisions,
    /// Accepted throughput over time.
    Throughput,
    /// Latency over time.
    Latency,
    /// Global channel utilization by class (dragonfly Fig. 9).
    Fig9,
    /// Batch completion (flattened butterfly Fig. 5).
    Batch,
    /// Packets lost to failed links.
    Unroutable,
}

/// Every problem of a document, each with its field's path.
#[derive(Default)]
struct Problems(Vec<ConfigError>);

impl Problems {
    fn add(&mut self, path: impl Into<String>, message: impl Into<String>) {
        self.0.push(ConfigError::new(path, message));
    }

    fn check(&mut self, ok: bool, path: &str, message: impl FnOnce() -> String) {
        if !ok {
            self.add(path, message());
        }
    }

    /// The errors of a configuration checked at `prefix` (its fields' paths under it).
    fn extend(&mut self, prefix: &str, errors: ConfigErrors) {
        for e in errors.0 {
            let path = if e.path.starts_with('(') { prefix.to_string() } else { format!("{prefix}.{}", e.path) };
            self.add(path, e.message);
        }
    }
}

/// Parses and checks a story document. The configuration, and each pane's (the
/// configuration with the compared value), must build as the engine builds it (without
/// allocating it); names must be the catalog's, text plain and bounded.
pub fn check(text: &str) -> Result<Story, ConfigErrors> {
    let one = |path: &str, message: String| ConfigErrors(vec![ConfigError::new(path, message)]);
    if text.len() > MAX_STORY_BYTES {
        return Err(one("(story)", format!("{} bytes; a story has at most {MAX_STORY_BYTES}", text.len())));
    }
    let value = parse_strict_json(text).map_err(|e| one("(story)", format!("not valid JSON: {e}")))?;
    if !value.is_object() {
        return Err(one("(story)", "a story is a JSON object ({ ... })".into()));
    }
    let story: Story = serde_path_to_error::deserialize(value).map_err(|e| {
        let path = e.path().to_string();
        one(if path == "." { "(story)" } else { &path }, e.inner().to_string())
    })?;
    let problems = story.problems();
    if problems.0.is_empty() {
        Ok(story)
    } else {
        Err(ConfigErrors(problems.0))
    }
}

impl Story {
    fn problems(&self) -> Problems {
        let mut p = Problems::default();
        p.check(self.hiradix_story == FORMAT, "hiradix_story", || {
            format!("format {} is not one this hiradix reads (it reads {FORMAT})", self.hiradix_story)
        });
        p.check(is_id(&self.id), "id", || {
            "1 to 64 lower-case letters, digits and dashes, starting with a letter or digit".into()
        });
        line(&mut p, "title", &self.title, 100);
        line(&mut p, "source.paper", &self.source.paper, 120);
        line(&mut p, "source.where", &self.source.place, 120);
        line(&mut p, "point", &self.point, 600);
        rich_text(&mut p, "explanation", &self.explanation);
        p.check(self.look.len() <= 12, "look", || format!("{} items; at most 12", self.look.len()));
        for (i, item) in self.look.iter().enumerate() {
            rich_text(&mut p, &format!("look[{i}]"), item);
        }
        p.check(self.notes.len() <= 20, "notes", || format!("{} notes; at most 20", self.notes.len()));
        for (i, note) in self.notes.iter().enumerate() {
            line(&mut p, &format!("notes[{i}]"), note, 1000);
        }
        let panes = self.experiment.problems(&mut p);
        if let Some(focus) = &self.focus {
            focus.problems(&mut p, "focus", &panes);
        }
        p.check(self.key_plots.len() <= 2, "key_plots", || {
            format!("{} plots; the page shows two beside the picture", self.key_plots.len())
        });
        if let Some(numbers) = &self.numbers {
            numbers.problems(&mut p, panes.len(), self.focus.is_some());
        }
        scenes::problems(&mut p, &self.scenes, &panes);
        scenes::link_problems(&mut p, &self.scenes, &panes);
        let needs_focus = self.key_plots.iter().any(|k| matches!(k, KeyPlot::Classes | KeyPlot::Decisions));
        p.check(!needs_focus || self.focus.is_some(), "key_plots", || {
            "classes and decisions compare the focus with the rest: give a focus".into()
        });
        p
    }
}

impl StatedNumbers {
    fn problems(&self, p: &mut Problems, panes: usize, focused: bool) {
        p.check((1..=1_000_000).contains(&self.at_cycle), "numbers.at_cycle", || {
            format!("{}: a cycle from 1 to 1000000", self.at_cycle)
        });
        p.check(self.values.len() <= 32, "numbers.values", || format!("{} numbers; at most 32", self.values.len()));
        for (i, n) in self.values.iter().enumerate() {
            let at = format!("numbers.values[{i}]");
            line(p, &format!("{at}.says"), &n.says, 200);
            p.check(panes == 0 || n.pane < panes, &format!("{at}.pane"), || {
                format!("pane {}; the story has {panes}", n.pane)
            });
            p.check(n.value.is_finite(), &format!("{at}.value"), || "a finite number".into());
            p.check(n.within.is_finite() && n.within >= 0.0, &format!("{at}.within"), || {
                "a tolerance of 0 or more".into()
            });
            let about_focus = matches!(n.quantity, Quantity::FocusMean | Quantity::RestMean | Quantity::FocusChannels);
            p.check(!about_focus || focused, &format!("{at}.quantity"), || {
                "measured against the focus: give a focus".into()
            });
        }
    }
}

impl Experiment {
    /// Checks the experiment; returns each pane's configuration that builds.
    fn problems(&self, p: &mut Problems) -> Vec<SimConfig> {
        let mut panes = Vec::new();
        if !self.config.is_object() {
            p.add("experiment.config", "a configuration is a JSON object ({ ... })");
            return panes;
        }
        match &self.compare {
            None => panes.extend(pane(p, "experiment.config", self.config.clone())),
            Some(c) => {
                // The catalog's parameters, the algorithm and the pattern (named in the
                // catalog's lists of them) and a topology's own parameters.
                let known = catalog().params.iter().any(|q| q.path == c.param)
                    || ["routing.algorithm", "traffic.pattern"].contains(&c.param.as_str())
                    || c.param.starts_with("topology.") && c.param != "topology.type";
                p.check(known, "experiment.compare.param", || {
                    format!("'{}' is not a parameter of the catalog (see hiradix --list)", shown(&c.param, 40))
                });
                p.check((2..=MAX_VARIANTS).contains(&c.values.len()), "experiment.compare.values", || {
                    format!("{} values; 2 to {MAX_VARIANTS} panes side by side", c.values.len())
                });
                for (i, v) in c.values.iter().enumerate().take(MAX_VARIANTS) {
                    let mut config = self.config.clone();
                    let at = format!("experiment.compare.values[{i}]");
                    match apply_override(&mut config, &format!("{}={v}", c.param)) {
                        Ok(()) => panes.extend(pane(p, &at, config)),
                        Err(e) => p.add(at, e.message),
                    }
                }
            }
        }
        p.check(self.speed.is_finite() && (MIN_SPEED..=MAX_SPEED).contains(&self.speed), "experiment.speed", || {
            format!("{} cycles per frame; the page runs 1/120 to {MAX_SPEED}", self.speed)
        });
        self.view.problems(p, "experiment.view");
        for (metric, full) in &self.ranges {
            let at = format!("experiment.ranges.{metric}");
            p.check(is_metric(metric), &at, || "not a link colour (occupancy, utilization, vc0 … vc15)".into());
            p.check(full.is_finite() && *full > 0.0 && *full <= 1.0, &at, || {
                format!("{full}: the full-colour value is a fraction in (0, 1]")
            });
        }
        if let Some(sweep) = &self.sweep {
            if let Err(e) = crate::experiment::parse_loads(sweep, MAX_SWEEP_LOADS) {
                p.add("experiment.sweep", e);
            }
        }
        panes
    }
}

/// The configuration of one pane, if it builds; its problems otherwise, under `at`.
fn pane(p: &mut Problems, at: &str, config: Value) -> Option<SimConfig> {
    match SimConfig::from_value(config).and_then(|cfg| Simulation::check(&cfg).map(|()| cfg)) {
        Ok(cfg) => Some(cfg),
        Err(e) => {
            p.extend(at, e);
            None
        }
    }
}

impl Focus {
    fn problems(&self, p: &mut Problems, at: &str, panes: &[SimConfig]) {
        line(p, &format!("{at}.label"), &self.label, 120);
        let sliced = self.selector == Selector::Slice;
        p.check(self.slice.is_some() == sliced, &format!("{at}.slice"), || {
            if sliced { "the slice selector names its slice" } else { "only the slice selector takes a slice" }.into()
        });
        self.picked_problems(p, at, panes);
        if let Some(d) = self.dim {
            p.check(d.is_finite() && (0.0..=1.0).contains(&d), &format!("{at}.dim"), || {
                format!("{d}: an opacity in [0, 1]")
            });
        }
        if let Some(s) = self.router_scale {
            p.check(s.is_finite() && (0.1..=1.0).contains(&s), &format!("{at}.router_scale"), || {
                format!("{s}: a scale in [0.1, 1]")
            });
        }
        if let Some(pattern) = &self.pattern {
            let known = PATTERNS.iter().any(|(name, _)| name == pattern);
            p.check(known, &format!("{at}.pattern"), || format!("'{}' is not a traffic pattern", shown(pattern, 40)));
            // A focus no pane shows is a mistake, not a choice.
            let shown_by_a_pane = panes.is_empty() || panes.iter().any(|c| &c.traffic.pattern == pattern);
            p.check(!known || shown_by_a_pane, &format!("{at}.pattern"), || {
                format!("no pane runs '{pattern}', so the focus would never show")
            });
        }
        for (i, cfg) in panes.iter().enumerate() {
            if let Err(why) = applies(self, cfg) {
                p.add(format!("{at}.selector"), format!("does not apply to pane {i}'s network: {why}"));
                break;
            }
        }
    }
}

impl Focus {
    /// A picked focus lists channels or routers (and only it does), within bounds, each one
    /// existing in every pane's network.
    fn picked_problems(&self, p: &mut Problems, at: &str, panes: &[SimConfig]) {
        let picked = self.selector == Selector::Picked;
        if !picked {
            p.check(self.channels.is_empty() && self.routers.is_empty(), &format!("{at}.channels"), || {
                "only the picked selector lists channels and routers".into()
            });
            return;
        }
        p.check(!self.channels.is_empty() || !self.routers.is_empty(), &format!("{at}.channels"), || {
            "the picked selector lists channels or routers (click them on the picture)".into()
        });
        p.check(self.channels.len() <= MAX_PICKED_CHANNELS, &format!("{at}.channels"), || {
            format!("{} channels; at most {MAX_PICKED_CHANNELS}", self.channels.len())
        });
        p.check(self.routers.len() <= MAX_PICKED_ROUTERS, &format!("{at}.routers"), || {
            format!("{} routers; at most {MAX_PICKED_ROUTERS}", self.routers.len())
        });
        if self.channels.len() > MAX_PICKED_CHANNELS || self.routers.len() > MAX_PICKED_ROUTERS {
            return;
        }
        for (i, cfg) in panes.iter().enumerate() {
            let Ok(topology) = crate::topology::Topology::build(&cfg.topology) else { continue };
            let net = topology.network();
            let n = net.routers() as u32;
            let pairs: std::collections::HashSet<(u32, u32)> = net.channels().map(|(a, _, b, _)| (a, b)).collect();
            let before = p.0.len();
            for (j, &r) in self.routers.iter().enumerate() {
                p.check(r < n, &format!("{at}.routers[{j}]"), || {
                    format!("router {r}; pane {i}'s network has {n} (0 to {})", n - 1)
                });
            }
            for (j, &[a, b]) in self.channels.iter().enumerate() {
                p.check(pairs.contains(&(a, b)), &format!("{at}.channels[{j}]"), || {
                    format!("no channel runs from router {a} to router {b} in pane {i}'s network")
                });
            }
            if p.0.len() > before {
                break;
            }
        }
    }
}

/// Whether `focus` selects channels of `cfg`'s network, and why not.
fn applies(focus: &Focus, cfg: &SimConfig) -> Result<(), String> {
    let topology = &cfg.topology;
    match focus.selector {
        Selector::ShiftDirect | Selector::Picked => Ok(()),
        Selector::GroupShiftGlobal if topology.dragonfly_params().is_some() => Ok(()),
        Selector::GroupShiftGlobal => Err("only a dragonfly has groups joined by global channels".into()),
        Selector::Swap2Minimal if topology.hyperx_extents().is_some_and(|s| s.len() >= 2) => Ok(()),
        Selector::Swap2Minimal => Err("Swap2 needs a HyperX of at least two dimensions".into()),
        Selector::FailedLinkDetours if !cfg.faults.is_empty() => Ok(()),
        Selector::FailedLinkDetours => Err("no link has failed (faults)".into()),
        Selector::Slice => {
            let slices = topology.dragonfly_params().map_or(1, |df| df.slices.max(1));
            match focus.slice {
                Some(s) if s < slices => Ok(()),
                _ => Err(format!("the network has {slices} slice(s), numbered from 0")),
            }
        }
    }
}

/// Structured text: a string, a list of such texts, or one of `{b}`, `{i}`, `{sub}` around
/// such a text; at most 4 000 characters of strings in all, no control or invisible
/// characters but line breaks.
fn rich_text(p: &mut Problems, path: &str, text: &Value) {
    fn walk(p: &mut Problems, path: &str, text: &Value, depth: usize, chars: &mut usize) {
        if depth > MAX_TEXT_DEPTH {
            p.add(path, format!("nested deeper than {MAX_TEXT_DEPTH} levels"));
            return;
        }
        match text {
            Value::String(s) => {
                *chars += s.chars().count();
                if let Some(c) = s.chars().find(|&c| is_hidden(c) && c != '\n') {
                    p.add(path, hidden_message(c));
                }
            }
            Value::Array(items) => {
                for (i, item) in items.iter().enumerate() {
                    walk(p, &format!("{path}[{i}]"), item, depth + 1, chars);
                }
            }
            Value::Object(o) if o.len() == 1 => {
                let (key, inner) = o.iter().next().expect("one key");
                if ["b", "i", "sub"].contains(&key.as_str()) {
                    walk(p, &format!("{path}.{key}"), inner, depth + 1, chars);
                } else {
                    p.add(format!("{path}.{}", shown(key, 40)), "emphasis is b (bold), i (italic) or sub (subscript)");
                }
            }
            _ => p.add(path, "text is a string, a list of texts, or {\"b\"|\"i\"|\"sub\": text}"),
        }
    }
    let mut chars = 0;
    walk(p, path, text, 0, &mut chars);
    p.check(chars <= 4000, path, || format!("{chars} characters; at most 4000"));
}

/// A one-line text of 1 to `max` characters, without control or invisible characters.
fn line(p: &mut Problems, path: &str, text: &str, max: usize) {
    let n = text.chars().count();
    p.check(n > 0 && n <= max, path, || format!("{n} characters; 1 to {max}"));
    if let Some(c) = text.chars().find(|&c| is_hidden(c)) {
        p.add(path, hidden_message(c));
    }
}

/// Why a text may not hold `c`: a control, invisible or direction-changing character would
/// make what the class reads differ from what the document says.
fn hidden_message(c: char) -> String {
    format!("holds the control or invisible character U+{:04X}", c as u32)
}

fn is_id(id: &str) -> bool {
    (1..=64).contains(&id.len())
        && id.bytes().all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-')
        && !id.starts_with('-')
}

/// The page's link colours: `occupancy`, `utilization`, `vc0` … `vc15`.
fn is_metric(m: &str) -> bool {
    m == "occupancy"
        || m == "utilization"
        || m.strip_prefix("vc").and_then(|v| v.parse::<u32>().ok()).is_some_and(|v| v < 16 && m.len() <= 4)
}
