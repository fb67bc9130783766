//! The TypeScript declarations of the objects that cross from the engine to the page
//! (src/web/boundary.d.ts, which wasm-bindgen appends to pkg/hiradix.d.ts) are generated
//! here from the Rust types, as serde serialises them: this test fails when they differ,
//! and `HIRADIX_WRITE_TYPES=1 cargo test --test integration boundary_types` rewrites the file.
//!
//! Each type is declared from samples that give every field each of its forms (an
//! `Option` both `Some` and `None`, an enum each variant, a list non-empty): a field that
//! is a number, boolean or string in the samples is typed so; a list is `T[]` of its
//! elements' type; an object is a named interface (`NAMES`) or an inline type; a key
//! some samples leave out is optional (`key?:`); `None` is `null` (or `undefined` for the
//! values serde-wasm-bindgen's plain serialiser writes).

use std::collections::BTreeMap;
use std::path::Path;

use hiradix::config::{SimConfig, TopologyConfig};
use hiradix::experiment::SweepPoint;
use hiradix::inspect::{ChannelDetail, NetworkInfo, PacketTrace, RouterDetail, TraceHop, TraceView, Unroutable};
use hiradix::sim::history::RunUntil;
use hiradix::sim::Simulation;
use serde::Serialize;
use serde_json::Value;

/// How a value crosses to the page: serde-wasm-bindgen writes `None` as `undefined`
/// (`to_value`), or as `null` with its JSON-compatible serialiser (which also writes a NaN
/// as `null`).
#[derive(Clone, Copy, PartialEq)]
enum Crossing {
    Plain,
    JsonCompatible,
}

/// The interfaces of nested objects, by the path of the field that holds them
/// (`Interface.field`, or `Interface.field.inner` inside an inline object; a list's
/// elements share its path), with their doc comments.
const NAMES: &[(&str, &str, &str)] = &[
    ("SweepPoint.summary", "Summary", ""),
    ("RouterDetail.ports", "PortDetail", "One port of a router (inspect::PortDetail)."),
    ("PortDetail.out", "VcState", "Per-VC state of a channel: downstream flits, upstream credits, committed flits, queue estimate (inspect::VcState)."),
    ("RouterDetail.note", "RouteNoteView", "A router's last adaptive (UGAL) decision, dragonfly paper §4.2 (inspect::RouteNoteView)."),
    ("RouterDetail.hop_note", "HopNoteView", "A per-hop (DAL) decision's numbers, HyperX paper §4.2 (inspect::HopNoteView)."),
    ("HopNoteView.per_dim", "DimNoteView", "One dimension of a DAL per-hop note (inspect::DimNoteView)."),
    ("RouterDetail.decisions", "Decisions", "What a routing algorithm's decisions mean, declared with it (routing::Decisions)."),
    ("TraceView.trace", "PacketTrace", "The followed packet (inspect::PacketTrace)."),
    ("PacketTrace.hops", "TraceHop", "One router a traced packet visited; its departure's keys are absent while it is there (inspect::TraceHop)."),
    ("PacketTrace.unroutable", "Unroutable", "Where a traced packet was dropped as unroutable (inspect::Unroutable)."),
    ("Catalog.topologies", "TopologyEntry", "A topology of the catalog, from its declaration (catalog::TopologyEntry)."),
    ("Catalog.routings", "RoutingEntry", "A routing algorithm of the catalog, from its declaration (catalog::RoutingEntry)."),
    ("Catalog.patterns", "NamedEntry", "A traffic pattern of the catalog (catalog::NamedEntry)."),
    ("Catalog.params", "Param", "A parameter of the catalog, with its range (config::schema::Param)."),
    ("TopologyEntry.params", "Param", ""),
    ("RoutingEntry.decisions", "Decisions", ""),
    ("Decisions.rules", "HopRule", "A rule a per-hop algorithm decides a hop by, as the inspector explains it (routing::HopRule)."),
    ("Catalog.default_config", "SimConfig", ""),
    ("SimConfig.topology", "TopologyConfig", "A topology and its parameters, by `type` (config::TopologyConfig)."),
    ("TopologyEntry.default", "TopologyConfig", ""),
    ("CostFigures.plots", "CostPlot", "One of the cost view's plots, its series and axes (cost::explore::Plot)."),
    ("CostHyperx.plot", "CostPlot", ""),
];

/// Builds the declarations: interfaces in the order first met.
struct Declarations {
    crossing: Crossing,
    interfaces: Vec<(String, String)>,
    /// Every object the samples give each named interface, wherever it is met (e.g. the
    /// catalog's patterns and routings both as `NamedEntry`).
    named: BTreeMap<&'static str, Vec<Value>>,
}

/// Gathers the named objects under the fields of `value`, an object of interface `name`.
fn fields_of(name: &str, value: &Value, named: &mut BTreeMap<&'static str, Vec<Value>>) {
    if let Value::Object(fields) = value {
        fields.iter().for_each(|(k, v)| gather(&format!("{name}.{k}"), v, named));
    }
}

/// Gathers into `named` the objects of `value` (at `path`) that `NAMES` names.
fn gather(path: &str, value: &Value, named: &mut BTreeMap<&'static str, Vec<Value>>) {
    match value {
        Value::Array(items) => items.iter().for_each(|v| gather(path, v, named)),
        Value::Object(fields) => {
            let name = NAMES.iter().find(|(p, _, _)| *p == path).map(|e| e.1);
            if let Some(name) = name {
                named.entry(name).or_default().push(value.clone());
            }
            let prefix = name.unwrap_or(path);
            fields.iter().for_each(|(k, v)| gather(&format!("{prefix}.{k}"), v, named));
        }
        _ => {}
    }
}

impl Declarations {
    /// `export interface <name>` with a field per key of the `samples`' objects.
    fn interface(&mut self, name: &str, doc: &str, samples: &[&Value]) {
        if self.interfaces.iter().any(|(n, _)| n == name) {
            return;
        }
        let slot = self.interfaces.len();
        self.interfaces.push((name.into(), String::new()));
        let mut out = format!("/** {doc} */\nexport interface {name} {{\n");
        for line in self.fields(name, samples) {
            out.push_str(&format!("    {line};\n"));
        }
        out.push_str("}\n");
        self.interfaces[slot].1 = out;
    }

    /// `key: T` (or `key?: T`) for each key of the objects `samples`.
    fn fields(&mut self, path: &str, samples: &[&Value]) -> Vec<String> {
        let mut keys: BTreeMap<&str, Vec<&Value>> = BTreeMap::new();
        for s in samples {
            for (k, v) in s.as_object().unwrap_or_else(|| panic!("{path}: expected objects, got {s}")) {
                keys.entry(k).or_default().push(v);
            }
        }
        keys.into_iter()
            .map(|(key, values)| {
                let optional = if values.len() < samples.len() { "?" } else { "" };
                format!("{key}{optional}: {}", self.ts(&format!("{path}.{key}"), &values))
            })
            .collect()
    }

    /// The TypeScript type of the values `values` sampled at `path`.
    fn ts(&mut self, path: &str, values: &[&Value]) -> String {
        let mut types: Vec<String> = Vec::new();
        let mut has_null = false;
        let objects: Vec<&Value> = values.iter().copied().filter(|v| v.is_object()).collect();
        let elements: Vec<&Value> = values.iter().filter_map(|v| v.as_array()).flatten().collect();
        for v in values {
            match v {
                Value::Number(_) => types.push("number".into()),
                Value::Bool(_) => types.push("boolean".into()),
                Value::String(_) => types.push("string".into()),
                Value::Null => has_null = true,
                Value::Array(_) | Value::Object(_) => {}
            }
        }
        if values.iter().any(|v| v.is_array()) {
            assert!(!elements.is_empty(), "{path}: give a sample with a non-empty list here");
            let element = self.ts(path, &elements);
            types.push(if element.contains(' ') { format!("({element})[]") } else { format!("{element}[]") });
        }
        if !objects.is_empty() {
            match NAMES.iter().find(|(p, _, _)| *p == path) {
                Some((_, name, doc)) => {
                    let doc = NAMES.iter().find(|(_, n, d)| n == name && !d.is_empty()).map_or(*doc, |e| e.2);
                    let all = self.named.get(name).cloned().unwrap_or_default();
                    self.interface(name, doc, &all.iter().collect::<Vec<_>>());
                    types.push((*name).into());
                }
                None => {
                    let fields = self.fields(path, &objects);
                    types.push(if fields.is_empty() { "{}".into() } else { format!("{{ {} }}", fields.join("; ")) });
                }
            }
        }
        assert!(!types.is_empty(), "{path}: give a sample with a value here (only None was sampled)");
        types.sort_unstable();
        types.dedup();
        if has_null {
            types.push(match self.crossing {
                Crossing::Plain => "undefined".into(),
                Crossing::JsonCompatible => "null".into(),
            });
        }
        types.join(" | ")
    }
}

impl Declarations {
    /// Declares `name` from `samples` as they cross to the page (a nested interface
    /// declared earlier is not declared again).
    fn declare<T: Serialize>(&mut self, name: &str, doc: &str, samples: &[T], crossing: Crossing) {
        let values: Vec<Value> = samples.iter().map(|s| serde_json::to_value(s).expect("serialises")).collect();
        self.crossing = crossing;
        self.named.clear();
        for v in &values {
            fields_of(name, v, &mut self.named);
        }
        self.interface(name, doc, &values.iter().collect::<Vec<_>>());
    }
}

/// Two summaries of a real run: with every mean defined, and with every mean undefined
/// (NaN) and a saturation cause, so each field's every form is sampled.
fn summaries() -> Vec<hiradix::stats::Summary> {
    let mut cfg = SimConfig::default();
    cfg.measurement = hiradix::config::MeasurementConfig { warmup: 50, measure: 50, drain_limit: 500, watchdog: 500 };
    let measured = hiradix::experiment::run(&cfg).expect("runs").summary;
    let with_means = |value: f64| {
        let mut s = measured.clone();
        for mean in [
            &mut s.avg_latency,
            &mut s.avg_hops,
            &mut s.nonminimal_fraction,
            &mut s.avg_latency_minimal,
            &mut s.avg_latency_nonminimal,
            &mut s.offered_measured,
            &mut s.accepted,
        ] {
            *mean = value;
        }
        s
    };
    let mut undefined = with_means(f64::NAN);
    undefined.saturation = Some(hiradix::saturation::SaturationCause::NotDrained);
    vec![with_means(0.5), undefined]
}

/// The default configuration with each topology of the catalog, and one with every
/// optional field set.
fn configs() -> Vec<SimConfig> {
    let mut configs: Vec<SimConfig> = hiradix::catalog::catalog()
        .topologies
        .iter()
        .map(|t| SimConfig {
            topology: serde_json::from_value(t.default.clone()).expect("a topology"),
            ..SimConfig::default()
        })
        .collect();
    let mut set = SimConfig::default();
    set.topology = serde_json::from_value(serde_json::json!({"type": "dragonfly", "p": 2, "a": 4, "h": 2, "g": 9, "intra": [2, 2], "intra_trunking": [1, 2], "taper": [[0, 1, 1]]}))
        .expect("a dragonfly");
    set.faults.links = vec![vec![0, 1]];
    set.router.buffer_per_port = Some(64);
    set.router.output_queue = Some(8);
    configs.push(set);
    configs
}

/// Simulations the page could inspect, each run a while: a dragonfly under UGAL-L_CR
/// (adaptive notes, credit round trips, groups) following a packet from router 0, a
/// HyperX under DAL recording hop notes (coordinates, per-hop notes), and a folded Clos.
fn simulations() -> Vec<Simulation> {
    let mut dragonfly = SimConfig::default();
    dragonfly.topology =
        serde_json::from_value(serde_json::json!({"type": "dragonfly", "p": 2, "a": 4, "h": 2, "g": 9}))
            .expect("a dragonfly");
    dragonfly.routing.algorithm = "ugal_l_cr".into();
    dragonfly.traffic.load = 0.4;
    let mut hyperx = SimConfig::default();
    hyperx.topology = TopologyConfig::hyperx(vec![4, 4], vec![1], 2);
    hyperx.routing.algorithm = "dal".into();
    hyperx.router.vcs = 4;
    hyperx.traffic.load = 0.5;
    let mut clos = SimConfig::default();
    clos.topology = TopologyConfig::folded_clos(vec![4, 4], vec![4]);
    clos.routing.algorithm = "updown_ad".into();
    let mut sims: Vec<Simulation> =
        [dragonfly, hyperx, clos].iter().map(|c| Simulation::new(c).expect("builds")).collect();
    sims[0].trace_next_generated(0);
    sims[1].record_hop_notes(true);
    for sim in &mut sims {
        sim.advance(300).expect("runs");
    }
    sims
}

/// Router 0 of each simulation, and one with every `Option` `None`.
fn router_details(sims: &[Simulation]) -> Vec<RouterDetail> {
    let mut details: Vec<RouterDetail> = sims.iter().map(|s| RouterDetail::of(s, 0, true).expect("router 0")).collect();
    let mut none = details[0].clone();
    (none.group, none.coords, none.note, none.hop_note, none.credit_delay, none.decisions) =
        (None, None, None, None, None, None);
    details.push(none);
    details
}

/// The followed packet of the dragonfly, a trace armed but not started, and one found in a
/// queue and dropped as unroutable.
fn traces(sims: &[Simulation]) -> Vec<TraceView> {
    let net = sims[0].network();
    let upstream: Vec<u32> = sims[0].router_channels().map(|(r, p, _, _)| net.port_id(r, p) as u32).collect();
    let followed = TraceView::of(&sims[0], &upstream);
    let armed = TraceView { armed: Some(3), now: 0, trace: None };
    let found =
        TraceHop { router: 1, in_port: 2, in_vc: 0, arrived: 5, injected: None, found: Some(9), departure: None };
    let dropped = PacketTrace {
        src: 0,
        dst: 5,
        src_router: 0,
        dst_router: 2,
        created: 1,
        delivered: false,
        delivered_at: None,
        nonminimal: false,
        hops: vec![found],
        in_source: false,
        unroutable: Some(Unroutable { cycle: 10, router: 1, port: 3 }),
    };
    vec![followed, armed, TraceView { armed: None, now: 10, trace: Some(dropped) }]
}

fn generated() -> String {
    let mut d = Declarations { crossing: Crossing::Plain, interfaces: Vec::new(), named: BTreeMap::new() };
    let error = hiradix::config::ConfigError::new("router.vcs", "must be 1..=16");
    d.declare(
        "FieldError",
        "A problem with one field of a configuration or story: its dotted path and why (config::ConfigError).",
        &[error],
        Crossing::Plain,
    );
    d.declare(
        "LiveCounters",
        "The cumulative counters of a running simulation (stats::LiveCounters).",
        &[hiradix::stats::LiveCounters::default()],
        Crossing::Plain,
    );
    d.declare(
        "Rewindable",
        "How far back a simulation can be rewound (sim::history::Rewindable).",
        &[hiradix::sim::history::Rewindable::default()],
        Crossing::Plain,
    );
    let reached = RunUntil { cycles: 3, reached: true, channel: Some(7), error: Some("deadlock".into()) };
    d.declare(
        "RunUntil",
        "What running until an event did (sim::history::RunUntil).",
        &[RunUntil::default(), reached],
        Crossing::Plain,
    );
    let json = Crossing::JsonCompatible;
    let summaries = summaries();
    d.declare(
        "Summary",
        "A measured run, named as the CLI's JSON names it; an undefined mean is null (stats::Summary).",
        &summaries,
        json,
    );
    let points: Vec<SweepPoint> = summaries
        .iter()
        .zip([None, Some(4.5)])
        .map(|(summary, batch_normalized_latency)| SweepPoint { summary, batch_normalized_latency })
        .collect();
    d.declare("SweepPoint", "What the load sweep gets of a run: its summary and, in batch mode, the batch's time per packet (experiment::SweepPoint).", &points, json);
    d.declare(
        "SimConfig",
        "A configuration, as its JSON names it, with every default filled in (config::SimConfig).",
        &configs(),
        json,
    );
    d.declare("Catalog", "The topologies, routing algorithms, traffic patterns and parameters the page builds its controls from (catalog::Catalog).", &[hiradix::catalog::catalog()], json);
    let sims = simulations();
    d.declare(
        "NetworkInfo",
        "The network a simulation runs, as the page draws and labels it (inspect::NetworkInfo).",
        &sims.iter().map(NetworkInfo::of).collect::<Vec<_>>(),
        json,
    );
    d.declare(
        "RouterDetail",
        "Everything the inspector shows about a router (inspect::RouterDetail).",
        &router_details(&sims),
        json,
    );
    let channels: Vec<ChannelDetail> = sims[..2]
        .iter()
        .map(|s| {
            let (src, src_port, dst, dst_port) = s.router_channels().next().expect("a channel");
            let net = s.network();
            ChannelDetail::of(s, 0, net.port_id(src, src_port), net.port_id(dst, dst_port))
        })
        .collect();
    d.declare(
        "ChannelDetail",
        "Everything the inspector shows about a channel (inspect::ChannelDetail).",
        &channels,
        json,
    );
    d.declare(
        "TraceView",
        "The trace panel's state: the armed router, the cycle, the followed packet (inspect::TraceView).",
        &traces(&sims),
        json,
    );
    let df = sims[0].topology().as_dragonfly().expect("a dragonfly");
    let utilization: Vec<f32> = (0..sims[0].network().total_ports()).map(|p| (p % 7) as f32 / 7.0).collect();
    let fig9 = hiradix::inspect::Fig9Window {
        utilization: hiradix::stats::dragonfly::global_channel_utilization(df, &utilization, 1),
        cycles: 100,
    };
    d.declare(
        "Fig9Window",
        "Dragonfly paper Fig. 9 over a window of the page's run (inspect::Fig9Window).",
        &[fig9],
        json,
    );
    let queries: Vec<hiradix::cost::explore::CostQuery> = [("4096", "64", "1/8"), ("64K", "128", "1/2")]
        .iter()
        .map(|(n, r, b)| hiradix::cost::explore::CostQuery::parse(n, r, b).expect("a query"))
        .collect();
    d.declare("CostQuery", "The cost view's inputs, read (cost::explore::CostQuery).", &queries, json);
    let mut figures: Vec<Value> = queries.iter().map(hiradix::cost::explore::figures).collect();
    let mut no_fit = figures[0].clone();
    no_fit["plots"][0]["empty"] = "no design fits".into();
    figures.push(no_fit);
    d.declare(
        "CostFigures",
        "The cost view's analytic plots and every topology at N (cost::explore::figures).",
        &figures,
        json,
    );
    d.declare(
        "CostHyperx",
        "The HyperX design search and Fig. 8 (cost::explore::hyperx).",
        &queries.iter().map(hiradix::cost::explore::hyperx).collect::<Vec<_>>(),
        json,
    );
    d.declare(
        "WorkerMemory",
        "A simulation worker's budget and the heap it really uses (inspect::WorkerMemory).",
        &[hiradix::inspect::WorkerMemory::default()],
        json,
    );
    let mut out = String::from(
        "// Generated by tests/integration/boundary_types.rs from the Rust types; do not edit.\n\
         // `HIRADIX_WRITE_TYPES=1 cargo test --test integration boundary_types` rewrites it.\n",
    );
    for (_, text) in d.interfaces {
        out.push('\n');
        out.push_str(&text);
    }
    out
}

#[test]
fn the_page_reads_declarations_generated_from_the_rust_types() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/web/boundary.d.ts");
    let want = generated();
    if std::env::var_os("HIRADIX_WRITE_TYPES").is_some() {
        std::fs::write(&path, &want).expect("writes src/web/boundary.d.ts");
    }
    let have = std::fs::read_to_string(&path).unwrap_or_default();
    assert_eq!(
        have, want,
        "src/web/boundary.d.ts is stale: run HIRADIX_WRITE_TYPES=1 cargo test --test integration boundary_types"
    );
}
