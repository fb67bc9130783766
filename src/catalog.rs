//! The registry of everything a user can choose: topologies with their parameters,
//! routing algorithms, traffic patterns, and the router/traffic/measurement parameters
//! with their ranges. The CLI's `--list` prints it and the web page builds its controls
//! from it (as JSON), so neither keeps a hand-written list.

use crate::config::schema::{params, setting};
pub use crate::config::schema::{Family, Param, UsedWhen};
use crate::config::SimConfig;
use crate::routing::ALGORITHMS;
use crate::topology::TOPOLOGIES;
use crate::traffic::PATTERNS;
use serde::Serialize;

/// A topology as the catalog shows it: its declaration ([`crate::topology::Declaration`])
/// without the functions.
#[derive(Clone, Debug, Serialize)]
pub struct TopologyEntry {
    /// Its `topology.type`.
    pub name: &'static str,
    pub description: &'static str,
    /// The family its routing algorithms belong to.
    pub family: Family,
    pub params: Vec<Param>,
    pub default: serde_json::Value,
}

/// A routing algorithm as the catalog shows it (its [`crate::routing::Algorithm`]).
#[derive(Clone, Debug, Serialize)]
pub struct RoutingEntry {
    pub name: &'static str,
    /// The topology family it runs on.
    pub family: Family,
    pub description: &'static str,
    /// What the page's inspector shows of its decisions.
    pub decisions: crate::routing::Decisions,
}

/// A traffic pattern.
#[derive(Clone, Debug, Serialize)]
pub struct NamedEntry {
    pub name: &'static str,
    pub description: &'static str,
}

/// Everything the user can choose.
#[derive(Clone, Debug, Serialize)]
pub struct Catalog {
    pub topologies: Vec<TopologyEntry>,
    pub routings: Vec<RoutingEntry>,
    pub patterns: Vec<NamedEntry>,
    /// Router, traffic, routing-parameter and measurement settings.
    pub params: Vec<Param>,
    pub default_config: serde_json::Value,
}

/// The whole catalog.
pub fn catalog() -> Catalog {
    Catalog {
        topologies: TOPOLOGIES
            .iter()
            .map(|t| TopologyEntry {
                name: t.name,
                description: t.description,
                family: t.family,
                params: t.params.to_vec(),
                default: serde_json::to_value((t.default)()).expect("serialises"),
            })
            .collect(),
        routings: ALGORITHMS
            .iter()
            .map(|a| RoutingEntry {
                name: a.name,
                family: a.family,
                description: a.description,
                decisions: a.decisions,
            })
            .collect(),
        patterns: PATTERNS.iter().map(|&(name, description)| NamedEntry { name, description }).collect(),
        params: params().into_iter().map(with_readers).collect(),
        default_config: serde_json::to_value(SimConfig::default()).expect("serialises"),
    }
}

/// A `routing.*` parameter is read by the algorithms whose declaration lists it
/// ([`crate::routing::Algorithm::params`]); the others keep the schema's condition.
fn with_readers(p: Param) -> Param {
    let mut readers: Vec<&'static str> = Vec::new();
    for a in ALGORITHMS.iter().filter(|a| a.params.contains(&p.path)) {
        if !readers.contains(&a.name) {
            readers.push(a.name);
        }
    }
    if readers.is_empty() {
        return p;
    }
    Param { used_when: Some(UsedWhen { path: "routing.algorithm", values: readers.into() }), ..p }
}

/// Human-readable listing for the CLI's `--list`.
pub fn listing() -> String {
    let c = catalog();
    let mut out = String::from("Topologies (topology.type):\n");
    for t in &c.topologies {
        let params: Vec<&str> = t.params.iter().map(|p| p.path.trim_start_matches("topology.")).collect();
        out += &format!("  {:<30} {} [{}]\n", t.name, t.description, params.join(", "));
    }
    out += "\nRouting algorithms (routing.algorithm):\n";
    for r in &c.routings {
        out += &format!("  {:<14} ({:<9}) {}\n", r.name, r.family.name(), r.description);
    }
    out += "\nTraffic patterns (traffic.pattern):\n";
    for p in &c.patterns {
        out += &format!("  {:<20} {}\n", p.name, p.description);
    }
    out += "\nOther parameters (--set path=value):\n";
    for p in &c.params {
        let default = p.unset.map(|unset| format!(" (default: {unset})")).unwrap_or_default();
        let when = p
            .used_when
            .as_ref()
            .map(|w| format!(" [only with {} = {}]", w.path, w.values.join(" | ")))
            .unwrap_or_default();
        out += &format!("  {:<32} {}{default}{when}\n", p.path, p.help);
    }
    out
}

/// The settings of `cfg` that differ from their defaults but that `cfg` does not read
/// (e.g. `routing.crt0` with an algorithm other than UGAL-L_CR), as `path: why` lines:
/// the CLI prints them as notes, since such a setting is likely a mistake.
pub fn unused_settings(cfg: &SimConfig) -> Vec<String> {
    let (config, defaults) = (
        serde_json::to_value(cfg).expect("serialises"),
        serde_json::to_value(SimConfig::default()).expect("serialises"),
    );
    catalog()
        .params
        .iter()
        .filter_map(|p| {
            let when = p.used_when.as_ref()?;
            if when.holds(&config) || setting(&config, p.path) == setting(&defaults, p.path) {
                return None;
            }
            let values = match &*when.values {
                [one] => one.to_string(),
                many => format!("one of {}", many.join(", ")),
            };
            Some(format!("{}: has no effect unless {} is {values}", p.path, when.path))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every listed topology's default builds, and every parameter path exists in the config.
    #[test]
    fn catalog_is_consistent() {
        let c = catalog();
        for t in &c.topologies {
            let cfg: crate::config::TopologyConfig = serde_json::from_value(t.default.clone()).unwrap();
            let built = crate::topology::Topology::build(&cfg);
            assert!(built.is_ok(), "{}: {:?}", t.name, built.err());
        }
        let defaults = &c.default_config;
        for p in &c.params {
            let mut node = defaults;
            for part in p.path.split('.') {
                node = node.get(part).unwrap_or_else(|| panic!("{} not in the config", p.path));
            }
            assert_eq!(node.is_null(), p.unset.is_some(), "{}: null by default iff optional", p.path);
        }
    }

    /// Every setting of the config has a control on the page: a catalog parameter, a
    /// topology's parameter, or one of the three selects.
    #[test]
    fn every_setting_is_in_the_catalog() {
        fn leaves(v: &serde_json::Value, prefix: String, out: &mut Vec<String>) {
            match v.as_object() {
                Some(obj) => obj.iter().for_each(|(k, v)| {
                    leaves(v, if prefix.is_empty() { k.clone() } else { format!("{prefix}.{k}") }, out)
                }),
                None => out.push(prefix),
            }
        }
        let c = catalog();
        let mut paths = Vec::new();
        leaves(&c.default_config, String::new(), &mut paths);
        for t in &c.topologies {
            leaves(&serde_json::json!({"topology": t.default}), String::new(), &mut paths);
        }
        for path in paths {
            let listed = ["topology.type", "routing.algorithm", "traffic.pattern"].contains(&path.as_str())
                || c.params.iter().any(|p| p.path == path)
                || c.topologies.iter().any(|t| t.params.iter().any(|p| p.path == path));
            assert!(listed, "{path} has no control on the page: add it to catalog::params()");
        }
    }

    /// A conditional parameter is what its condition says: where the condition does not
    /// hold, changing it leaves a simulation's results identical (so the page may hide
    /// it); where it holds, the same change alters them.
    #[test]
    fn conditional_parameters_matter_exactly_where_said() {
        use serde_json::{json, Value};
        let set = |v: &mut Value, path: &str, x: Value| {
            crate::config::apply_override(v, &format!("{path}={x}")).expect("a valid path")
        };
        /// What a short run produced: deliveries, summed latency and hops, and the traffic.
        fn run(config: &Value) -> (u64, u64, u64, u64) {
            let cfg = SimConfig::from_value(config.clone()).unwrap_or_else(|e| panic!("{e}: {config}"));
            let mut sim = crate::sim::Simulation::new(&cfg).unwrap_or_else(|e| panic!("{e}: {config}"));
            sim.advance(800).expect("no deadlock");
            let s = sim.stats();
            (s.delivered, s.latency_sum, s.hops_sum, s.traffic_fingerprint)
        }
        let dragonfly = json!({"type": "dragonfly", "p": 2, "a": 4, "h": 2, "g": 9});
        /// Settings (path, value) under which a parameter is read.
        type Reading = Vec<(&'static str, Value)>;
        // (parameter, another value, settings under which the parameter is read)
        let cases: Vec<(&str, Value, Reading)> = vec![
            ("traffic.batch_size", json!(5), vec![("traffic.injection", json!("batch"))]),
            (
                "routing.ugal_threshold",
                json!(40),
                vec![
                    ("routing.algorithm", json!("ugal")),
                    ("traffic.pattern", json!("router_shift")),
                    ("traffic.load", json!(0.3)),
                ],
            ),
            (
                "routing.dal_unblocked_credits",
                json!(8),
                vec![
                    ("topology", json!({"type": "hyperx", "s": [4, 4], "k": [1], "t": 4})),
                    ("routing.algorithm", json!("dal")),
                    ("router.vcs", json!(4)),
                    ("traffic.pattern", json!("swap2")),
                ],
            ),
            (
                "routing.dal_queue_threshold",
                json!(0),
                vec![
                    ("topology", json!({"type": "hyperx", "s": [4, 4], "k": [1], "t": 4})),
                    ("routing.algorithm", json!("dal")),
                    ("router.vcs", json!(4)),
                    ("traffic.pattern", json!("swap2")),
                ],
            ),
            (
                "routing.threshold",
                json!(0),
                vec![
                    ("topology", json!({"type": "dilated_flattened_butterfly", "k": 8, "n": 2})),
                    ("routing.algorithm", json!("adaptive_2dfb")),
                    ("traffic.pattern", json!("adversarial")),
                    ("traffic.load", json!(0.7)),
                    ("router.terminal_period", json!(2)),
                ],
            ),
            (
                "routing.crt0",
                json!(1),
                vec![
                    ("topology", dragonfly.clone()),
                    ("routing.algorithm", json!("ugal_l_cr")),
                    ("router.vcs", json!(3)),
                    ("traffic.pattern", json!("group_shift")),
                    ("traffic.load", json!(0.3)),
                ],
            ),
            (
                "routing.cr_granularity",
                json!(4),
                vec![
                    ("topology", dragonfly.clone()),
                    ("routing.algorithm", json!("ugal_l_cr")),
                    ("router.vcs", json!(3)),
                    ("traffic.pattern", json!("group_shift")),
                    ("traffic.load", json!(0.3)),
                ],
            ),
            (
                "router.islip_iterations",
                json!(1),
                vec![("router.switch_allocator", json!("islip")), ("traffic.load", json!(0.9))],
            ),
            ("router.global_latency", json!(10), vec![("topology", dragonfly.clone()), ("router.vcs", json!(2))]),
            (
                "routing.intermediate_group",
                json!("other"),
                vec![
                    ("topology", dragonfly.clone()),
                    ("routing.algorithm", json!("val")),
                    ("router.vcs", json!(3)),
                    ("traffic.load", json!(0.3)),
                ],
            ),
        ];
        let c = catalog();
        for p in c.params.iter().filter(|p| p.used_when.is_some()) {
            assert!(cases.iter().any(|(path, ..)| *path == p.path), "{}: add a case for its condition", p.path);
        }
        for (path, other, settings) in cases {
            let when = c
                .params
                .iter()
                .find(|p| p.path == path)
                .and_then(|p| p.used_when.clone())
                .unwrap_or_else(|| panic!("{path} has no condition"));
            let unread = c.default_config.clone();
            assert!(!when.holds(&unread), "{path}: the default configuration reads it");
            let mut changed = unread.clone();
            set(&mut changed, path, other.clone());
            assert_eq!(run(&unread), run(&changed), "{path} = {other} changed a configuration that does not read it");
            let mut read = unread;
            for (p, v) in settings {
                set(&mut read, p, v);
            }
            assert!(when.holds(&read), "{path}: the case's settings do not meet its condition");
            let mut changed = read.clone();
            set(&mut changed, path, other.clone());
            assert_ne!(run(&read), run(&changed), "{path} = {other} made no difference where it is read");
        }
    }

    /// The routing parameters hidden with an algorithm are unread by every algorithm they
    /// are hidden with: on each catalog network, each algorithm of its family that does not
    /// read a parameter gives identical results when the parameter changes.
    #[test]
    fn every_algorithm_ignores_the_routing_parameters_it_does_not_read() {
        let c = catalog();
        let unread_by = |alg: &'static str| {
            c.params.iter().filter(move |p| {
                p.used_when.as_ref().is_some_and(|w| w.path == "routing.algorithm" && !w.values.contains(&alg))
            })
        };
        let (mut checked, mut ran) = (0, std::collections::HashSet::new());
        for t in &c.topologies {
            for r in c.routings.iter().filter(|r| r.family == t.family) {
                let mut config = c.default_config.clone();
                config["topology"] = t.default.clone();
                config["routing"]["algorithm"] = r.name.into();
                config["router"]["vcs"] = 6.into();
                config["traffic"]["load"] = 0.6.into();
                let run = |config: &serde_json::Value| -> Option<(u64, u64, u64)> {
                    let mut sim = crate::sim::Simulation::new(&SimConfig::from_value(config.clone()).ok()?).ok()?;
                    sim.advance(300).ok()?;
                    let s = sim.stats();
                    Some((s.delivered, s.latency_sum, s.hops_sum))
                };
                let Some(base) = run(&config) else { continue }; // not an algorithm of this network
                ran.insert((r.name, r.family));
                for p in unread_by(r.name) {
                    let (section, key) = p.path.split_once('.').expect("a routing.* path");
                    let mut changed = config.clone();
                    changed[section][key] = (p.max.min(64.0) as i64).into();
                    assert_eq!(run(&changed), Some(base), "{} on {} reads {}", r.name, t.name, p.path);
                    checked += 1;
                }
            }
        }
        assert!(checked > 50, "only {checked} checks");
        for r in &c.routings {
            assert!(ran.contains(&(r.name, r.family)), "{} ({}) ran on no catalog network", r.name, r.family);
        }
    }

    /// The CLI's notes: a conditional setting changed where it is not read, nothing else.
    #[test]
    fn unused_settings_are_noted() {
        let mut cfg = SimConfig::default();
        assert!(unused_settings(&cfg).is_empty());
        cfg.routing.crt0 = 7;
        cfg.router.speedup = 3;
        assert_eq!(unused_settings(&cfg), ["routing.crt0: has no effect unless routing.algorithm is ugal_l_cr"]);
        cfg.routing.algorithm = "ugal_l_cr".into();
        assert!(unused_settings(&cfg).is_empty());
    }
}
