//! The declarations of every configuration parameter outside `topology`: its path, kind,
//! range, default and help, and when it is read; the topology families ([`Family`]); and
//! the parameter kinds the topology declarations (`crate::topology::TOPOLOGIES`) use for
//! theirs. `SimConfig::validate` checks the ranges from here, the CLI's `--list` and the
//! page's controls show them ([`crate::catalog`]), so all three agree. This module sits in
//! the configuration layer: it names no topology, routing, traffic or engine type.

use super::{ConfigError, SimConfig, MAX_LISTED_FAULTS};
use serde::Serialize;
use std::borrow::Cow;

/// One user-settable parameter: its config path, kind and range.
#[derive(Clone, Debug, Serialize)]
pub struct Param {
    /// Dotted config path, e.g. `router.vcs` or `topology.k`.
    pub path: &'static str,
    pub label: &'static str,
    /// `int`, `float`, `int_list`, `enum`, `link_list` (a list of `[router, router]` or
    /// `[router, router, trunk]`, checked against the built network) or `int_triples` (a
    /// list of `[int, int, int]`, checked where it is read).
    pub kind: &'static str,
    pub min: f64,
    pub max: f64,
    /// Allowed values of an `enum`.
    pub options: &'static [&'static str],
    pub help: &'static str,
    /// Optional parameters (null in the config by default): what leaving it empty means,
    /// e.g. `2·speedup`; `None` for parameters that always have a value.
    pub unset: Option<&'static str>,
    /// Which configurations read the parameter, if not all (`None`). The page hides a
    /// control that no pane reads, and the CLI notes a setting that has no effect.
    pub used_when: Option<UsedWhen>,
}

/// The configurations that read a parameter: those whose setting `path` is one of
/// `values` (e.g. `routing.crt0` only with `routing.algorithm` = `ugal_l_cr`). The
/// `routing.*` parameters get theirs from the algorithms' declarations
/// (`crate::catalog`), the others from here.
#[derive(Clone, Debug, Serialize)]
pub struct UsedWhen {
    pub path: &'static str,
    pub values: Cow<'static, [&'static str]>,
}

impl UsedWhen {
    /// Whether `config` (a configuration as JSON) reads the parameter.
    pub fn holds(&self, config: &serde_json::Value) -> bool {
        setting(config, self.path).and_then(|v| v.as_str()).is_some_and(|v| self.values.contains(&v))
    }
}

/// The setting at the dotted `path` of a configuration as JSON, if present.
pub(crate) fn setting<'a>(config: &'a serde_json::Value, path: &str) -> Option<&'a serde_json::Value> {
    path.split('.').try_fold(config, |node, key| node.get(key))
}

impl Param {
    /// The parameter, read only when the setting `path` is one of `values`.
    fn when(self, path: &'static str, values: &'static [&'static str]) -> Param {
        Param { used_when: Some(UsedWhen { path, values: Cow::Borrowed(values) }), ..self }
    }
}

impl Param {
    /// Why `value`, this parameter's setting, is outside the catalog's range, if it is:
    /// the one range check the CLI and the page share (`SimConfig::validate`).
    fn range_errors(&self, value: &serde_json::Value) -> Vec<ConfigError> {
        match self.kind {
            "link_list" => link_list_errors(self.path, value),
            _ => self.range_error(value).into_iter().collect(),
        }
    }

    /// [`Param::range_errors`] of a parameter with one value or a list of values.
    fn range_error(&self, value: &serde_json::Value) -> Option<ConfigError> {
        let within = |x: &serde_json::Value| x.as_f64().is_some_and(|x| x >= self.min && x <= self.max);
        let (path, bad) = match self.kind {
            "int" | "float" if value.is_null() && self.unset.is_some() => None,
            "int" | "float" => (!within(value)).then(|| (self.path.to_string(), value)),
            "int_list" => value
                .as_array()
                .and_then(|a| a.iter().position(|x| !within(x)).map(|i| (format!("{}[{i}]", self.path), &a[i]))),
            _ => None,
        }?;
        let shown: String = bad.to_string().chars().take(40).collect();
        Some(ConfigError::new(path, format!("must be {}..={}, got {shown}", self.min, self.max)))
    }
}

/// Why a `link_list` setting (`faults.links`) is malformed: more than
/// [`MAX_LISTED_FAULTS`] links, or each link that is not `[router, router]` or `[router,
/// router, trunk]` (whether the routers and the link exist is checked against the built
/// network).
fn link_list_errors(path: &str, value: &serde_json::Value) -> Vec<ConfigError> {
    let Some(links) = value.as_array() else { return Vec::new() };
    if links.len() > MAX_LISTED_FAULTS {
        return vec![ConfigError::new(path, format!("at most {MAX_LISTED_FAULTS} links, got {}", links.len()))];
    }
    links
        .iter()
        .enumerate()
        .filter_map(|(i, link)| {
            let numbers = link.as_array().map_or(0, Vec::len);
            (!matches!(numbers, 2 | 3)).then(|| ConfigError::new(format!("{path}[{i}]"), link_shape_error(numbers)))
        })
        .collect()
}

/// What is wrong with a link given as `numbers` numbers (also said of a story scene's).
pub(crate) fn link_shape_error(numbers: usize) -> String {
    let plural = if numbers == 1 { "" } else { "s" };
    format!("a link is [router, router] or [router, router, trunk], got {numbers} number{plural}")
}

/// The settings of `cfg` outside their declared ranges: `topology`, the parameters its
/// topology declares (`crate::topology::TOPOLOGIES`), and every other parameter, each error
/// naming its field.
pub(crate) fn range_errors(cfg: &SimConfig, topology: &[Param]) -> Vec<ConfigError> {
    let config = serde_json::to_value(cfg).expect("serialises");
    let others = params();
    let declared = topology.iter().chain(&others);
    declared.flat_map(|p| setting(&config, p.path).map(|v| p.range_errors(v)).unwrap_or_default()).collect()
}

pub(crate) const fn int(path: &'static str, label: &'static str, min: f64, max: f64, help: &'static str) -> Param {
    Param { path, label, kind: "int", min, max, options: &[], help, unset: None, used_when: None }
}
/// An optional integer (`null` by default); `unset` says what null means.
pub(crate) const fn opt_int(
    path: &'static str,
    label: &'static str,
    min: f64,
    max: f64,
    unset: &'static str,
    help: &'static str,
) -> Param {
    Param { path, label, kind: "int", min, max, options: &[], help, unset: Some(unset), used_when: None }
}
pub(crate) const fn float(path: &'static str, label: &'static str, min: f64, max: f64, help: &'static str) -> Param {
    Param { path, label, kind: "float", min, max, options: &[], help, unset: None, used_when: None }
}
pub(crate) const fn choice(
    path: &'static str,
    label: &'static str,
    options: &'static [&'static str],
    help: &'static str,
) -> Param {
    Param { path, label, kind: "enum", min: 0.0, max: 0.0, options, help, unset: None, used_when: None }
}
pub(crate) const fn list(path: &'static str, label: &'static str, min: f64, max: f64, help: &'static str) -> Param {
    Param { path, label, kind: "int_list", min, max, options: &[], help, unset: None, used_when: None }
}
/// An optional list (`null` by default); `unset` says what null means.
pub(crate) const fn opt_list(
    path: &'static str,
    label: &'static str,
    min: f64,
    max: f64,
    unset: &'static str,
    help: &'static str,
) -> Param {
    Param { path, label, kind: "int_list", min, max, options: &[], help, unset: Some(unset), used_when: None }
}
/// A list of `[int, int, int]`, checked where it is read.
pub(crate) const fn triples(path: &'static str, label: &'static str, min: f64, max: f64, help: &'static str) -> Param {
    Param { path, label, kind: "int_triples", min, max, options: &[], help, unset: None, used_when: None }
}

/// A family of topologies: the networks one set of routing algorithms runs on. Shared by
/// the topology declarations (`crate::topology::TOPOLOGIES`), the routing algorithms'
/// declarations and the catalog; its JSON spelling is its name. Each family's file
/// declares its own as an associated constant (`Family::HYPERX` in `topology::hyperx`), so
/// a misspelt family does not compile and a new family adds no line here.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(transparent)]
pub struct Family(&'static str);

impl Family {
    /// The family named `name` (for the constants the families declare).
    pub(crate) const fn new(name: &'static str) -> Family {
        Family(name)
    }

    /// Its name in the catalog's JSON and in `--list`.
    pub const fn name(self) -> &'static str {
        self.0
    }
}

impl std::fmt::Display for Family {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// Every parameter outside `topology`. The `routing.*` parameters an algorithm reads are
/// declared with it (`crate::routing::Algorithm::params`).
pub(crate) fn params() -> Vec<Param> {
    vec![
        float("traffic.load", "offered load", 0.0, 1.0, "flits per cycle per terminal channel (with topology.slices a node has one per slice, so it offers slices × load)"),
        choice("traffic.injection", "injection", &["bernoulli", "batch"], "Bernoulli process, or a batch per terminal sent as fast as possible"),
        int("traffic.batch_size", "batch size", 1.0, 1e6, "packets per terminal in batch mode").when("traffic.injection", &["batch"]),
        int("traffic.packet_size", "packet size", 1.0, 64.0, "flits per packet (virtual cut-through above 1)"),
        int("traffic.shift", "shift", 1.0, 1e6, "distance of the shift patterns"),
        int("traffic.source_queue_cap", "source queue cap", 1.0, 1e6, "packets per terminal before the source stalls (saturation)"),
        choice("routing.allocator", "route allocator", &["auto", "greedy", "sequential"], "greedy: inputs decide in parallel; sequential: one after another (FB §3.1)"),
        int("routing.ugal_threshold", "UGAL threshold", -1e6, 1e6, "minimal iff q_m·H_m ≤ q_nm·H_nm + threshold"),
        int("routing.dal_unblocked_credits", "DAL unblocked credits", 1.0, 4096.0, "an adaptive output VC is unblocked with at least this many free, unpromised slots"),
        int("routing.dal_queue_threshold", "DAL queue threshold", 0.0, 4096.0, "... and a queue estimate of at most this many flits"),
        int("router.terminal_period", "terminal period", 1.0, 16.0, "cycles per flit on terminal channels (2 = 2DFB paper's half-speed terminals)"),
        int("routing.threshold", "2DFB threshold Th", 0.0, 4096.0, "queue threshold of adaptive 2DFB routing"),
        int("routing.crt0", "CR t_crt0", 0.0, 100000.0, "zero-load credit round trip (0 = derived from latencies)"),
        choice("routing.intermediate_group", "intermediate group", &["any", "other"], "dragonfly VAL and UGAL's non-minimal paths: a random group among all g, as the paper's steps read (drawing the source or destination group means a minimal path), or one other than the source and destination group").when("topology.type", &["dragonfly"]),
        int("routing.cr_granularity", "CR granularity", 1.0, 1024.0, "UGAL-L_CR timestamps one credit in every G"),
        int("router.vcs", "VCs per port", 1.0, 16.0, "virtual channels per port"),
        int("router.buffer_depth", "flits per VC", 1.0, 4096.0, "depth of each VC buffer"),
        opt_int("router.buffer_per_port", "flits per port", 1.0, 65536.0, "flits per VC × VCs", "if set, the input port's flits, divided evenly among its VCs (replaces flits per VC)"),
        int("router.pipeline_delay", "router delay", 1.0, 64.0, "cycles from arrival until a flit can leave the router"),
        int("router.speedup", "internal speedup", 1.0, 8.0, "crossbar transfers per input/output per cycle"),
        choice("router.switch_allocator", "switch allocator", &["separable", "islip"], "separable input-first round-robin, or iSLIP"),
        int("router.islip_iterations", "iSLIP iterations", 1.0, 8.0, "iterations of iSLIP").when("router.switch_allocator", &["islip"]),
        opt_int("router.output_queue", "output queue", 1.0, 65535.0, "2 × speedup", "packets an output port holds between the switch and its channel; VCs × flits per VC = the dragonfly paper's output-buffered router"),
        int("router.terminal_latency", "terminal latency", 1.0, 1000.0, "cycles on terminal channels"),
        int("router.local_latency", "local latency", 1.0, 1000.0, "cycles on local / dimension channels"),
        int("router.global_latency", "global latency", 1.0, 1000.0, "cycles on dragonfly global channels").when("topology.type", &["dragonfly"]),
        int("measurement.warmup", "warm-up", 0.0, 1e7, "cycles before measuring"),
        int("measurement.measure", "measurement window", 1.0, 1e7, "cycles during which packets are labeled"),
        int("measurement.drain_limit", "drain limit", 0.0, 1e7, "cycles allowed to drain labeled packets"),
        int("measurement.watchdog", "watchdog", 10.0, 1e7, "cycles without movement that count as deadlock"),
        float("faults.random_fraction", "failed links (fraction)", 0.0, 0.5, "this fraction of router-to-router links fails, drawn from the seed's fault stream (HyperX §6)"),
        Param { kind: "link_list", ..list("faults.links", "failed links", 0.0, 4294967295.0, "links that fail: [router, router] or [router, router, trunk] each (HyperX §6); the page fails a link you click") },
        int("seed", "seed", 0.0, 4294967295.0, "seed of all random streams"),
    ]
}
