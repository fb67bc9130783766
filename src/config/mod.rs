//! The experiment description: one JSON document shared by the CLI and the web page.
//!
//! Every section has defaults (the papers' setup where they agree), unknown fields are
//! rejected, and [`SimConfig::validate`] returns *all* problems at once, each with the
//! path of the offending field (`router.vcs: ...`). Algorithm-specific checks (VC counts,
//! topology compatibility) are made where the algorithm is built and reported the same way.

pub mod schema;
pub mod shown;

use serde::{Deserialize, Serialize};
use std::fmt;

/// One configuration problem, with the dotted path of the field it concerns.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ConfigError {
    pub path: String,
    pub message: String,
}

impl ConfigError {
    /// A problem with the field `path`. Both texts may echo what the user typed, so both
    /// are made safe to print ([`shown::shown`]: control and bidirectional characters
    /// escaped, long texts shortened) here, once, for the terminal and the page alike.
    pub fn new(path: impl Into<String>, message: impl Into<String>) -> Self {
        ConfigError {
            path: shown::shown(&path.into(), shown::MAX_PATH_CHARS),
            message: shown::shown(&message.into(), shown::MAX_MESSAGE_CHARS),
        }
    }
}

impl fmt::Display for ConfigError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.path, self.message)
    }
}

/// All problems found in a configuration.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ConfigErrors(pub Vec<ConfigError>);

impl ConfigErrors {
    pub fn one(path: impl Into<String>, message: impl Into<String>) -> Self {
        ConfigErrors(vec![ConfigError::new(path, message)])
    }
}

impl fmt::Display for ConfigErrors {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, e) in self.0.iter().enumerate() {
            if i > 0 {
                writeln!(f)?;
            }
            write!(f, "{e}")?;
        }
        Ok(())
    }
}

impl std::error::Error for ConfigErrors {}

impl From<ConfigError> for ConfigErrors {
    fn from(e: ConfigError) -> Self {
        ConfigErrors(vec![e])
    }
}

/// A complete experiment.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct SimConfig {
    pub topology: TopologyConfig,
    pub routing: RoutingConfig,
    pub traffic: TrafficConfig,
    pub router: RouterConfig,
    pub measurement: MeasurementConfig,
    /// Failed links (HyperX paper §6).
    pub faults: FaultConfig,
    /// Seed of all random streams (traffic, routing, allocation, faults are derived from it).
    pub seed: u64,
}

/// Failed router-to-router links (HyperX paper §6; docs/hyperx.md, Failed links). A failed
/// link carries nothing in either direction for the whole run (the page can fail and restore links
/// while it runs: `Simulation::set_link_failed` states what happens to packets under way). Terminal links cannot fail: every
/// terminal hangs on one link, so its failure would disconnect it, which is refused.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct FaultConfig {
    /// Links named by their two routers, `[a, b]`, or `[a, b, trunk]` for the `trunk`-th
    /// (from 0, in port order at `a`) of several parallel links (HyperX with `K > 1`,
    /// the 2-dilated flattened butterfly).
    pub links: Vec<Vec<u32>>,
    /// This fraction of all router-to-router links (rounded to the nearest count) fails,
    /// drawn from the seed's own fault stream (the traffic and routing streams are
    /// unchanged), in addition to `links`.
    pub random_fraction: f64,
}

impl FaultConfig {
    pub fn is_empty(&self) -> bool {
        self.links.is_empty() && self.random_fraction == 0.0
    }
}

/// The network: `type` names a declared topology (`crate::topology::TOPOLOGIES`), the
/// other fields are its parameters. This layer keeps them as JSON values in their declared
/// order; the topology's declaration reads them into its own typed form ([`Self::read`]),
/// checks them and builds the network, so a new topology adds nothing here. A
/// configuration read through [`SimConfig::from_value`] holds the canonical section (every
/// parameter, in the declared order, as the typed form writes it).
#[derive(Clone, Debug)]
pub struct TopologyConfig {
    type_name: String,
    params: Vec<(String, serde_json::Value)>,
}

impl TopologyConfig {
    /// A topology of type `type_name` with the parameters `params` (a typed form that
    /// serialises as an object), in the order it writes them.
    pub(crate) fn of(type_name: &str, params: &impl Serialize) -> TopologyConfig {
        let text = serde_json::to_string(params).expect("topology parameters serialise");
        let Fields(params) = serde_json::from_str(&text).expect("topology parameters serialise as an object");
        TopologyConfig { type_name: type_name.to_string(), params }
    }

    /// Its `topology.type`, which names its declaration in `crate::topology::TOPOLOGIES`.
    pub fn type_name(&self) -> &str {
        &self.type_name
    }

    /// Its parameter `name`, if it has it.
    fn param(&self, name: &str) -> Option<&serde_json::Value> {
        self.params.iter().find(|(k, _)| k == name).map(|(_, v)| v)
    }

    /// Its parameters read into the typed form `T` of its declaration; errors name the
    /// field (`topology.t`).
    pub(crate) fn read<T: serde::de::DeserializeOwned>(&self) -> Result<T, ConfigErrors> {
        let object = serde_json::Value::Object(self.params.iter().cloned().collect());
        serde_path_to_error::deserialize(object).map_err(|e| {
            let msg = e.inner().to_string();
            let path = match error_path(e.path(), &msg) {
                p if p == "(config)" => "topology".to_string(),
                p => format!("topology.{p}"),
            };
            ConfigErrors::one(path, msg)
        })
    }
}

/// Equal when they have the same type and the same parameters, in whatever order.
impl PartialEq for TopologyConfig {
    fn eq(&self, other: &Self) -> bool {
        self.type_name == other.type_name
            && self.params.len() == other.params.len()
            && self.params.iter().all(|(k, v)| other.param(k) == Some(v))
    }
}

impl Serialize for TopologyConfig {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let mut map = serializer.serialize_map(Some(self.params.len() + 1))?;
        map.serialize_entry("type", &self.type_name)?;
        for (key, value) in &self.params {
            map.serialize_entry(key, value)?;
        }
        map.end()
    }
}

impl<'de> Deserialize<'de> for TopologyConfig {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let Fields(mut params) = Fields::deserialize(deserializer)?;
        let at = params.iter().position(|(k, _)| k == "type").ok_or_else(|| serde::de::Error::missing_field("type"))?;
        match params.remove(at).1 {
            serde_json::Value::String(type_name) => Ok(TopologyConfig { type_name, params }),
            other => Err(serde::de::Error::custom(format!("`type` must name a topology, got {other}"))),
        }
    }
}

/// A JSON object's fields in the order written.
struct Fields(Vec<(String, serde_json::Value)>);

impl<'de> Deserialize<'de> for Fields {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct Visitor;
        impl<'de> serde::de::Visitor<'de> for Visitor {
            type Value = Fields;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("an object")
            }
            fn visit_map<A: serde::de::MapAccess<'de>>(self, mut map: A) -> Result<Fields, A::Error> {
                let mut fields: Vec<(String, serde_json::Value)> = Vec::new();
                let mut seen = std::collections::HashSet::new();
                while let Some((key, value)) = map.next_entry::<String, serde_json::Value>()? {
                    if !seen.insert(key.clone()) {
                        return Err(serde::de::Error::custom(format!("duplicate field `{key}`")));
                    }
                    fields.push((key, value));
                }
                Ok(Fields(fields))
            }
        }
        deserializer.deserialize_map(Visitor)
    }
}

/// How a node of a sliced dragonfly (§3.2, channel slicing) spreads its packets over the
/// slices. A packet travels whole on one slice.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SlicePolicy {
    /// The slice whose source queue at the node is shortest; ties go to the next slice in
    /// turn (so round robin while the queues are empty).
    #[default]
    ShortestQueue,
    /// The slices in turn, per node.
    RoundRobin,
    /// A uniformly random slice (drawn from the traffic stream).
    Random,
    /// One queue per node: its head leaves on any slice whose terminal channel can take
    /// it now, the slices tried in turn (work-conserving: no packet waits for a slice
    /// while another could take it).
    SharedQueue,
}

/// How routing decisions of one cycle are allocated (FB paper §3.1).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum AllocatorMode {
    /// The algorithm's own default (greedy for MIN AD and UGAL; sequential for UGAL-S,
    /// CLOS AD and DAL).
    #[default]
    Auto,
    /// All inputs decide from the queue state at the start of the cycle.
    Greedy,
    /// Inputs decide one after another (rotating start), each updating the state.
    Sequential,
}

/// Where a dragonfly packet routed non-minimally (VAL, and the non-minimal candidate of the
/// UGAL family) may go first (dragonfly paper §4.1: "a randomly selected intermediate
/// group"). The default, `other`, is the reading under which the paper's figures are
/// reproduced (docs/faithfulness.md measures both).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum IntermediateGroup {
    /// Any of the `g` groups, uniformly — the dragonfly paper's reading (§4.1: "If Gs ≠ Gi
    /// …", "If Gi ≠ Gd …" are written for an intermediate group that may be the source or
    /// the destination group), as BookSim2's and CODES's dragonfly models draw it: a packet
    /// that draws its own source or destination group travels minimally.
    #[default]
    Any,
    /// A group other than the source and the destination group: every non-minimal path
    /// crosses two global channels.
    Other,
}

/// The routing algorithm and its parameters. Parameters an algorithm does not use are
/// ignored by it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct RoutingConfig {
    /// Name from the catalog, e.g. `min`, `min_ad`, `val`, `ugal`, `ugal_s`, `clos_ad`,
    /// `dal`, `ugal_l`, `ugal_g`, `ugal_l_vc`, `ugal_l_vch`, `ugal_l_cr`.
    pub algorithm: String,
    pub allocator: AllocatorMode,
    /// UGAL family: route minimally iff q_m·H_m ≤ q_nm·H_nm + threshold.
    pub ugal_threshold: i64,
    /// DAL (HyperX §3.3): an output VC is "unblocked" if it has at least this many credits.
    pub dal_unblocked_credits: u32,
    /// DAL: ... and its queue estimate (downstream occupancy plus flits committed to it
    /// here) is at most this many flits.
    pub dal_queue_threshold: u32,
    /// Adaptive 2DFB (2DFB paper Algorithm 1): queue threshold `Th` in flits.
    pub threshold: u32,
    /// UGAL-L_CR (dragonfly §4.3.2): zero-load credit round trip t_crt0 in cycles;
    /// 0 = derive per output from the timing (2·channel latency + router delay +
    /// packet size − 1).
    pub crt0: u32,
    /// UGAL-L_CR: tracking granularity G — the paper's imprecise tracking: only one credit
    /// in every G is timestamped, so the credit timestamp queue is G times shorter.
    pub cr_granularity: u32,
    /// Dragonfly VAL and UGAL family: the intermediate group's choice.
    pub intermediate_group: IntermediateGroup,
}

impl Default for RoutingConfig {
    fn default() -> Self {
        RoutingConfig {
            algorithm: "min".into(),
            allocator: AllocatorMode::Auto,
            ugal_threshold: 0,
            dal_unblocked_credits: 1,
            dal_queue_threshold: 2,
            threshold: 4,
            crt0: 0,
            cr_granularity: 1,
            intermediate_group: IntermediateGroup::Any,
        }
    }
}

/// How packets enter the network.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum InjectionMode {
    /// Bernoulli process per terminal at `load` packets·size per cycle.
    #[default]
    Bernoulli,
    /// Every terminal injects `batch_size` packets as fast as it can (FB paper Fig. 5).
    Batch,
}

/// Destination pattern and injection process.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct TrafficConfig {
    /// Pattern name from the catalog, e.g. `uniform`, `router_shift`, `group_shift`, `swap2`.
    pub pattern: String,
    /// Offered load in flits per cycle per terminal (0..=1).
    pub load: f64,
    pub injection: InjectionMode,
    /// Packets per terminal in batch mode.
    pub batch_size: u32,
    /// Flits per packet (1 = the papers' single-flit packets; >1 uses virtual cut-through).
    pub packet_size: u32,
    /// Source-queue bound in packets per terminal; past it the source stalls and the run
    /// is reported as saturated.
    pub source_queue_cap: u32,
    /// Shift distance of `router_shift`, `group_shift` and the 2DFB `adversarial` pattern.
    pub shift: u32,
}

impl Default for TrafficConfig {
    fn default() -> Self {
        TrafficConfig {
            pattern: "uniform".into(),
            load: 0.5,
            injection: InjectionMode::Bernoulli,
            batch_size: 64,
            packet_size: 1,
            source_queue_cap: 256,
            shift: 1,
        }
    }
}

/// Switch allocator.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SwitchAllocator {
    /// Separable input-first round-robin (one iteration).
    #[default]
    Separable,
    /// iSLIP with `islip_iterations` iterations.
    Islip,
}

/// Router micro-architecture and channel latencies: the FB paper's input-queued
/// virtual-channel router with enough speedup not to be the bottleneck (§3.1–3.2), iSLIP as
/// in the HyperX paper (§4.1). The timing the papers leave open is stated per figure.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct RouterConfig {
    /// Virtual channels per port.
    pub vcs: u32,
    /// Flits per VC buffer (ignored if `buffer_per_port` is set).
    pub buffer_depth: u32,
    /// If set, total flits per input port, divided evenly among the VCs.
    pub buffer_per_port: Option<u32>,
    /// Cycles from a flit's arrival at a router until it can leave on an output channel.
    pub pipeline_delay: u32,
    /// Internal speedup: flits an input port can send through the crossbar, and an
    /// output port can receive, per cycle. Channels still carry one flit per cycle.
    pub speedup: u32,
    pub switch_allocator: SwitchAllocator,
    pub islip_iterations: u32,
    /// Channel latencies in cycles per link class.
    pub terminal_latency: u32,
    pub local_latency: u32,
    pub global_latency: u32,
    /// Cycles per flit on terminal channels (injection and ejection); router-to-router
    /// channels carry one flit per cycle. 2 models the 2DFB paper's terminals at half the
    /// bandwidth of the switch links (§IV: 1 Gb/s terminals, 2 Gb/s links). Offered load
    /// and accepted throughput are fractions of the terminal bandwidth (1/period flits per
    /// cycle).
    pub terminal_period: u32,
    /// Packets an output port can hold between the switch and its channel (they have
    /// already taken their downstream credits). Default (`None`): `2·speedup`, so the
    /// backlog of a busy output waits in the input buffers. The dragonfly paper's router
    /// (BookSim's input-queued router with speedup) buffers at the outputs, bounded only
    /// by the downstream credits: `vcs · buffer_depth`, which the dragonfly figure presets
    /// use — it decides where a congested channel's queue forms, and so what the
    /// neighbours' credit counts (UGAL-L) can see of it (dragonfly §4.3, Fig. 13).
    pub output_queue: Option<u32>,
}

impl Default for RouterConfig {
    fn default() -> Self {
        RouterConfig {
            vcs: 4,
            buffer_depth: 8,
            buffer_per_port: None,
            pipeline_delay: 1,
            speedup: 2,
            switch_allocator: SwitchAllocator::Separable,
            islip_iterations: 2,
            terminal_latency: 1,
            local_latency: 1,
            global_latency: 1,
            terminal_period: 1,
            output_queue: None,
        }
    }
}

impl RouterConfig {
    /// Flits per VC buffer after applying `buffer_per_port`.
    pub(crate) fn depth_per_vc(&self) -> u32 {
        match self.buffer_per_port {
            Some(total) => total / self.vcs.max(1),
            None => self.buffer_depth,
        }
    }
}

/// The papers' methodology (FB paper §3.2): warm up, label packets created in the
/// measurement window, then drain until every labeled packet has arrived.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct MeasurementConfig {
    pub warmup: u64,
    pub measure: u64,
    /// Cycles allowed after the window for labeled packets to drain before the run is
    /// declared saturated.
    pub drain_limit: u64,
    /// Deadlock watchdog: flits in the network and none moved for this many cycles, beyond
    /// the longest a packet can spend on a channel and in a router's pipeline.
    pub watchdog: u64,
}

impl Default for MeasurementConfig {
    fn default() -> Self {
        MeasurementConfig { warmup: 2000, measure: 2000, drain_limit: 20000, watchdog: 2000 }
    }
}

/// The longest run a configuration may ask for (warm-up, measurement and drain together).
pub(crate) const MAX_RUN_CYCLES: u64 = 100_000_000;

/// The largest configuration document accepted (a config file, or the page's JSON).
pub const MAX_CONFIG_BYTES: usize = 1 << 20;

/// Parses a configuration document: a JSON object of at most [`MAX_CONFIG_BYTES`], in
/// which no object repeats a key (serde_json would silently keep the last one).
pub fn parse_config_document(text: &str) -> Result<serde_json::Value, ConfigError> {
    if text.len() > MAX_CONFIG_BYTES {
        return Err(ConfigError::new(
            "(json)",
            format!("{} bytes; a configuration has at most {MAX_CONFIG_BYTES}", text.len()),
        ));
    }
    if text.starts_with('\u{feff}') {
        return Err(ConfigError::new(
            "(json)",
            "starts with a UTF-8 byte-order mark (BOM), which JSON does not allow (RFC 8259 §8.1): save the file as UTF-8 without BOM",
        ));
    }
    let value = parse_strict_json(text).map_err(|e| ConfigError::new("(json)", format!("not valid JSON: {e}")))?;
    if !value.is_object() {
        return Err(ConfigError::new("(json)", "a configuration is a JSON object ({ ... })"));
    }
    Ok(value)
}

/// Parses JSON in which no object repeats a key (serde_json would silently keep the last
/// one), nested at most serde_json's 128 levels.
pub fn parse_strict_json(text: &str) -> Result<serde_json::Value, serde_json::Error> {
    serde_json::from_str::<strict_json::Strict>(text).map(|s| s.0)
}

/// JSON values whose objects have no repeated keys.
mod strict_json {
    use serde::de::{Deserialize, Deserializer, Error, MapAccess, SeqAccess, Visitor};
    use serde_json::{Map, Value};

    pub(super) struct Strict(pub Value);

    impl<'de> Deserialize<'de> for Strict {
        fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Strict, D::Error> {
            d.deserialize_any(StrictVisitor).map(Strict)
        }
    }

    struct StrictVisitor;

    impl<'de> Visitor<'de> for StrictVisitor {
        type Value = Value;
        fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
            f.write_str("a JSON value")
        }
        fn visit_bool<E>(self, v: bool) -> Result<Value, E> {
            Ok(Value::Bool(v))
        }
        fn visit_i64<E>(self, v: i64) -> Result<Value, E> {
            Ok(v.into())
        }
        fn visit_u64<E>(self, v: u64) -> Result<Value, E> {
            Ok(v.into())
        }
        fn visit_f64<E>(self, v: f64) -> Result<Value, E> {
            Ok(v.into())
        }
        fn visit_str<E>(self, v: &str) -> Result<Value, E> {
            Ok(Value::String(v.into()))
        }
        fn visit_unit<E>(self) -> Result<Value, E> {
            Ok(Value::Null)
        }
        fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Value, A::Error> {
            let mut items = Vec::new();
            while let Some(Strict(v)) = seq.next_element()? {
                items.push(v);
            }
            Ok(Value::Array(items))
        }
        fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Value, A::Error> {
            let mut object = Map::new();
            while let Some(key) = map.next_key::<String>()? {
                if object.contains_key(&key) {
                    return Err(A::Error::custom(format!("duplicate key '{key}'")));
                }
                let Strict(v) = map.next_value()?;
                object.insert(key, v);
            }
            Ok(Value::Object(object))
        }
    }
}

impl SimConfig {
    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(self).expect("config serialises")
    }
}

/// Most links `faults.links` may list (larger fault sets: `faults.random_fraction`).
pub(crate) const MAX_LISTED_FAULTS: usize = 65_536;

/// The dotted path of a deserialisation error (`router.vcz`, `topology.type`).
pub(crate) fn error_path(path: &serde_path_to_error::Path, msg: &str) -> String {
    let mut p = path.to_string();
    if p == "." {
        p.clear();
    }
    // serde reports a missing field at the enclosing object.
    let named = msg.split('`').nth(1).filter(|_| msg.starts_with("missing field"));
    match named {
        Some(field) => {
            if p.is_empty() {
                field.to_string()
            } else {
                format!("{p}.{field}")
            }
        }
        None if msg.starts_with("`type`") => format!("{p}.type"),
        None if p.is_empty() => "(config)".into(),
        None => p,
    }
}

/// Apply a `key.path=value` override to a JSON config (CLI `--set`, page URL state).
/// The value is parsed as JSON when it can be (numbers, arrays, booleans), else taken as
/// a string.
pub fn apply_override(root: &mut serde_json::Value, assignment: &str) -> Result<(), ConfigError> {
    let (path, raw) = assignment.split_once('=').ok_or_else(|| ConfigError::new(assignment, "expected key=value"))?;
    let path = path.trim();
    let parts: Vec<&str> = path.split('.').collect();
    if parts.iter().any(|p| p.is_empty()) {
        return Err(ConfigError::new(path, "a key is names joined by dots, none of them empty"));
    }
    // Checked before anything is built: a path of thousands of parts would nest as many
    // objects (and overflow the stack of whatever walks them).
    if parts.len() > MAX_PATH_PARTS {
        return Err(ConfigError::new(
            path,
            format!("{} parts; no setting is deeper than {MAX_PATH_PARTS} (see hiradix --list)", parts.len()),
        ));
    }
    let raw = raw.trim();
    let value = match parse_strict_json(raw) {
        Ok(value) => value,
        // Not JSON: a bare word is a string (`routing.algorithm=val`); an object or array
        // that reads but repeats a key is refused, not taken for a string.
        Err(e) if raw.starts_with(['{', '[']) && e.classify() == serde_json::error::Category::Data => {
            return Err(ConfigError::new(path, format!("not valid JSON: {e}")));
        }
        Err(_) => serde_json::Value::String(raw.to_string()),
    };
    let mut node = root;
    for (i, part) in parts.iter().enumerate() {
        if !node.is_object() {
            *node = serde_json::Value::Object(Default::default());
        }
        let obj = node.as_object_mut().expect("object");
        if i + 1 == parts.len() {
            obj.insert(part.to_string(), value);
            return Ok(());
        }
        node = obj.entry(part.to_string()).or_insert_with(|| serde_json::Value::Object(Default::default()));
    }
    Ok(())
}

/// The most dot-separated parts a `--set`/`--vary` key may have: the deepest setting has
/// two (`topology.k`); a few more leave room for nested sections without inviting a
/// path of thousands.
pub const MAX_PATH_PARTS: usize = 8;

/// Applies `--set`-style overrides in order, refusing one that sets a key an earlier one
/// set (as a config file may not repeat a key).
pub fn apply_overrides<'a>(
    root: &mut serde_json::Value,
    assignments: impl IntoIterator<Item = &'a str>,
) -> Result<(), (String, ConfigError)> {
    let mut seen = std::collections::BTreeSet::new();
    for a in assignments {
        let key = a.split_once('=').map_or(a, |(k, _)| k).trim();
        if !seen.insert(key.to_string()) {
            return Err((a.to_string(), ConfigError::new(key, "set twice; give each setting once")));
        }
        apply_override(root, a).map_err(|e| (a.to_string(), e))?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_round_trip() {
        let c = SimConfig::default();
        assert_eq!(SimConfig::from_json(&c.to_json()).unwrap(), c);
    }

    #[test]
    fn errors_name_the_field() {
        let e = SimConfig::from_json(r#"{"router": {"vcs": 0}, "traffic": {"load": 2}}"#).unwrap_err();
        let paths: Vec<_> = e.0.iter().map(|e| e.path.as_str()).collect();
        assert!(paths.contains(&"router.vcs"), "{paths:?}");
        assert!(paths.contains(&"traffic.load"), "{paths:?}");
        let e = SimConfig::from_json(r#"{"router": {"vcz": 1}}"#).unwrap_err();
        assert_eq!(e.0[0].path, "router.vcz", "{e}");
        let e = SimConfig::from_json(r#"{"topology": {"type": "torus"}}"#).unwrap_err();
        assert_eq!(e.0[0].path, "topology.type", "{e}");
        let e = SimConfig::from_json(r#"{"topology": {"type": 5}}"#).unwrap_err();
        assert_eq!(e.0[0].path, "topology.type", "{e}");
        // A value outside an enum's variants: the field itself.
        let e = SimConfig::from_json(r#"{"topology": {"type": "dragonfly", "arrangement": "x"}}"#).unwrap_err();
        assert_eq!(e.0[0].path, "topology.arrangement", "{e}");
        let e = SimConfig::from_json(r#"{"router": {"switch_allocator": "x"}}"#).unwrap_err();
        assert_eq!(e.0[0].path, "router.switch_allocator", "{e}");
        let e = SimConfig::from_json("{").unwrap_err();
        assert_eq!(e.0[0].path, "(json)");
        // Inside the topology, read by its declaration: the field, not just `topology`.
        let e = SimConfig::from_json(r#"{"topology": {"type": "hyperx", "s": [4, 4], "t": "four"}}"#).unwrap_err();
        assert_eq!(e.0[0].path, "topology.t", "{e}");
        let e = SimConfig::from_json(r#"{"topology": {"k": "abc"}}"#).unwrap_err();
        assert_eq!(e.0[0].path, "topology.k", "{e}");
        let e = SimConfig::from_json(r#"{"topology": {"type": "dragonfly", "q": 3}}"#).unwrap_err();
        assert_eq!(e.0[0].path, "topology.q", "{e}");
    }

    /// `faults.links` is checked by its declared kind: each link two or three numbers, at
    /// most `MAX_LISTED_FAULTS` of them.
    #[test]
    fn listed_links_are_pairs_or_triples() {
        let e = SimConfig::from_json(r#"{"faults": {"links": [[0, 1], [2], [0, 1, 0], [0, 1, 2, 3]]}}"#).unwrap_err();
        let paths: Vec<&str> = e.0.iter().map(|e| e.path.as_str()).collect();
        assert_eq!(paths, ["faults.links[1]", "faults.links[3]"], "{e}");
        assert!(e.0[0].message.ends_with("got 1 number") && e.0[1].message.ends_with("got 4 numbers"), "{e}");
        let many = vec![[0, 1]; MAX_LISTED_FAULTS + 1];
        let e = SimConfig::from_value(serde_json::json!({"faults": {"links": many}})).unwrap_err();
        assert_eq!(e.0[0].path, "faults.links", "{e}");
        assert!(SimConfig::from_json(r#"{"faults": {"links": [[0, 1], [0, 2, 0]]}}"#).is_ok());
    }

    /// A topology section that names only some fields is completed from the catalog.
    #[test]
    fn partial_topologies_are_completed() {
        let c = SimConfig::from_json(r#"{"topology": {"k": 16}}"#).unwrap();
        assert_eq!(c.topology, TopologyConfig::flattened_butterfly(16, 2));
        let c = SimConfig::from_json(r#"{"topology": {"type": "dragonfly", "g": 5}}"#).unwrap();
        assert_eq!(c.topology, TopologyConfig::dragonfly(2, 4, 2, 5));
    }

    #[test]
    fn overrides() {
        let mut v = serde_json::to_value(SimConfig::default()).unwrap();
        apply_override(&mut v, "routing.algorithm=val").unwrap();
        apply_override(&mut v, "traffic.load=0.25").unwrap();
        apply_override(&mut v, "topology.k=4").unwrap();
        let c = SimConfig::from_value(v).unwrap();
        assert_eq!(c.routing.algorithm, "val");
        assert_eq!(c.traffic.load, 0.25);
        assert_eq!(c.topology, TopologyConfig::flattened_butterfly(4, 2));
    }
}
