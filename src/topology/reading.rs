//! Reading a configuration: [`SimConfig::from_json`] and [`SimConfig::from_value`]
//! complete its `topology` section from the declared default of its type, deserialise it
//! with the path of a bad field, read the section by its declaration into canonical form,
//! and [`SimConfig::validate`] checks the ranges the declarations give and the rules
//! across fields. They sit here, in the topology layer,
//! since they read the topology declarations ([`super::TOPOLOGIES`]); the configuration
//! layer below holds the types and the parameters' declarations.

use super::{declaration, declared};
use crate::config::schema;
use crate::config::{
    error_path, parse_config_document, ConfigError, ConfigErrors, SimConfig, TopologyConfig, MAX_RUN_CYCLES,
};

impl TopologyConfig {
    /// Routers, ports (terminal ports included) and terminals of a topology, or `None` when
    /// they overflow 64 bits or the configuration is malformed (its build reports why): its
    /// declaration's `size`, from which the memory estimate is checked before anything is
    /// allocated.
    pub(crate) fn size(&self) -> Option<(u64, u64, u64)> {
        (declared(self.type_name())?.size)(self)
    }
}

impl SimConfig {
    /// Parse a JSON document (see [`parse_config_document`]); syntax and type errors come
    /// back with the path of the field.
    pub fn from_json(text: &str) -> Result<SimConfig, ConfigErrors> {
        Self::from_value(parse_config_document(text).map_err(|e| ConfigErrors(vec![e]))?)
    }

    /// Build from a JSON value (e.g. after `--set` overrides were applied).
    pub fn from_value(mut value: serde_json::Value) -> Result<SimConfig, ConfigErrors> {
        complete_topology(&mut value);
        let mut cfg: SimConfig = serde_path_to_error::deserialize(value).map_err(|e| {
            let msg = e.inner().to_string();
            ConfigErrors::one(error_path(e.path(), &msg), msg)
        })?;
        cfg.topology = (declaration(cfg.topology.type_name())?.canonical)(&cfg.topology)?;
        cfg.validate()?;
        Ok(cfg)
    }

    /// Checks every field's range (declared with its topology, [`super::TOPOLOGIES`], or
    /// in `config::schema`) and the rules across fields that do not depend on the chosen
    /// algorithms.
    pub(crate) fn validate(&self) -> Result<(), ConfigErrors> {
        // Every single-field range is declared once (the page's controls show the same
        // ranges). What follows are the rules across fields.
        let declared = declaration(self.topology.type_name())?;
        // A section that was not read through `from_value` (e.g. deserialised by a library
        // user) is read here, so a misspelt or mistyped field is named.
        (declared.canonical)(&self.topology)?;
        let mut errs = schema::range_errors(self, declared.params);
        let mut check = |ok: bool, path: &str, msg: String| {
            if !ok {
                errs.push(ConfigError::new(path, msg));
            }
        };
        let r = &self.router;
        check(
            (1..=4096).contains(&r.depth_per_vc()),
            if r.buffer_per_port.is_some() { "router.buffer_per_port" } else { "router.buffer_depth" },
            format!("gives {} flits per VC; must be 1..=4096", r.depth_per_vc()),
        );
        let t = &self.traffic;
        check(
            t.packet_size <= r.depth_per_vc(),
            "traffic.packet_size",
            format!(
                "{} flits do not fit a {}-flit VC buffer (virtual cut-through needs the whole packet)",
                t.packet_size,
                r.depth_per_vc()
            ),
        );
        let m = &self.measurement;
        let total = m.warmup.checked_add(m.measure).and_then(|t| t.checked_add(m.drain_limit));
        check(
            total.is_some_and(|t| t <= MAX_RUN_CYCLES),
            "measurement",
            format!("warmup + measure + drain_limit must be at most {MAX_RUN_CYCLES} cycles"),
        );
        if errs.is_empty() {
            Ok(())
        } else {
            Err(ConfigErrors(errs))
        }
    }
}

/// Fills the fields a `topology` section leaves out from its declared default for its
/// type (or the default topology when it names no type), so `--set topology.k=16` or
/// `--set topology.type=dragonfly` alone give a complete, sensible network.
fn complete_topology(value: &mut serde_json::Value) {
    let Some(topo) = value.get_mut("topology").and_then(|t| t.as_object_mut()) else { return };
    let default = match topo.get("type").and_then(|t| t.as_str()) {
        None => TopologyConfig::default(),
        Some(name) => match declared(name) {
            Some(declared) => (declared.default)(),
            None => return, // unknown type: reported with its path when the section is read
        },
    };
    let default = serde_json::to_value(default).expect("serialises");
    for (key, v) in default.as_object().expect("object") {
        topo.entry(key.clone()).or_insert_with(|| v.clone());
    }
}
