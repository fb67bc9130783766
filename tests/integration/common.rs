//! What the test modules share: configurations built from the defaults one setting at a
//! time ([`Config`]), the topologies they name most, and the declarations' "every
//! topology" list ([`every_topology`]), so that a new topology is tested without anyone
//! remembering to add it.

use hiradix::config::{SimConfig, TopologyConfig};
use hiradix::routing::ALGORITHMS;
use hiradix::topology::TOPOLOGIES;
use hiradix::topology::{DragonflyConfig, GlobalArrangement};
use serde_json::Value;

/// A configuration built from the defaults: `config(topology).algorithm("ugal").load(0.5)`.
#[derive(Clone, Debug)]
pub struct Config(pub SimConfig);

/// The default configuration on `topology`.
pub fn config(topology: TopologyConfig) -> Config {
    Config(SimConfig { topology, ..SimConfig::default() })
}

/// The default configuration on the topology whose JSON section is `topology`.
pub fn config_json(topology: &Value) -> Config {
    config(serde_json::from_value(topology.clone()).expect("a topology"))
}

impl Config {
    pub fn algorithm(mut self, name: &str) -> Self {
        self.0.routing.algorithm = name.into();
        self
    }
    pub fn pattern(mut self, name: &str) -> Self {
        self.0.traffic.pattern = name.into();
        self
    }
    pub fn load(mut self, load: f64) -> Self {
        self.0.traffic.load = load;
        self
    }
    pub fn vcs(mut self, vcs: u32) -> Self {
        self.0.router.vcs = vcs;
        self
    }
    pub fn depth(mut self, flits: u32) -> Self {
        self.0.router.buffer_depth = flits;
        self
    }
    /// Warm-up, measurement window and drain limit, in cycles.
    pub fn window(mut self, warmup: u64, measure: u64, drain_limit: u64) -> Self {
        (self.0.measurement.warmup, self.0.measurement.measure, self.0.measurement.drain_limit) =
            (warmup, measure, drain_limit);
        self
    }
    pub fn watchdog(mut self, cycles: u64) -> Self {
        self.0.measurement.watchdog = cycles;
        self
    }
    pub fn seed(mut self, seed: u64) -> Self {
        self.0.seed = seed;
        self
    }
    /// Any other change.
    pub fn with(mut self, change: impl FnOnce(&mut SimConfig)) -> Self {
        change(&mut self.0);
        self
    }
    pub fn build(self) -> SimConfig {
        self.0
    }
}

/// The k-ary n-flat.
pub fn fb(k: u32, n: u32) -> TopologyConfig {
    TopologyConfig::flattened_butterfly(k, n)
}

/// HyperX(S = s, K = k, T = t).
pub fn hx(s: &[u32], k: &[u32], t: u32) -> TopologyConfig {
    TopologyConfig::hyperx(s.to_vec(), k.to_vec(), t)
}

/// Dragonfly(p, a, h, g) with fully connected groups, no tapering, one slice.
pub fn dragonfly(p: u32, a: u32, h: u32, g: u32, arrangement: GlobalArrangement) -> TopologyConfig {
    DragonflyConfig { arrangement, ..DragonflyConfig::new(p, a, h, g) }.into()
}

/// One case per declared topology (`hiradix::topology::TOPOLOGIES`): the cases given, in
/// their order, then, for each declared topology they leave out, `default` of its declared
/// default section and the first algorithm of its family — so a topology nobody wrote a
/// case for is still tested.
pub fn every_topology<T>(cases: Vec<(&'static str, T)>, default: impl Fn(Value, &str) -> T) -> Vec<(&'static str, T)> {
    for (name, _) in &cases {
        assert!(TOPOLOGIES.iter().any(|t| t.name == *name), "{name}: no such topology is declared");
    }
    let missing: Vec<_> = TOPOLOGIES.iter().filter(|t| !cases.iter().any(|(name, _)| *name == t.name)).collect();
    let mut all = cases;
    for t in missing {
        let algorithm = ALGORITHMS.iter().find(|a| a.family == t.family).expect("an algorithm of its family");
        all.push((t.name, default(serde_json::to_value((t.default)()).expect("serialises"), algorithm.name)));
    }
    all
}
