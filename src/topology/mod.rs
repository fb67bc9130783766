//! Topologies. Each family builds a [`Network`] (flat port tables, link classes, drawing
//! coordinates) and keeps the metadata its routing algorithms need (coordinates, groups).

pub(crate) mod butterfly;
pub(crate) mod dragonfly;
pub(crate) mod faults;
pub(crate) mod folded_clos;
pub(crate) mod graph;
pub(crate) mod hyperx;
pub(crate) mod reading;

pub use butterfly::Butterfly;
pub use dragonfly::{Dragonfly, DragonflyConfig, GlobalArrangement};
pub use faults::FaultSet;
pub use folded_clos::FoldedClos;
pub use graph::{LinkClass, Network, Port};
pub use hyperx::HyperX;

use crate::config::schema::{Family, Param};
use crate::config::{ConfigErrors, SlicePolicy, TopologyConfig};
use std::any::Any;
use std::fmt::Debug;
use std::sync::Arc;

/// One topology as users choose it: the single declaration from which `--list`, the page's
/// form (through the catalog), the range checks of both front ends
/// ([`crate::config::SimConfig::validate`]), the reading and completion of a `topology`
/// section, the memory estimate and the tests' "every topology" lists derive. Each family's
/// file declares its own, with the typed form of its parameters; [`TOPOLOGIES`] registers it
/// with one line.
pub struct Declaration {
    /// Its `topology.type`.
    pub name: &'static str,
    /// The family its routing algorithms belong to.
    pub family: Family,
    /// One line for `--list` and the page, citing the paper section.
    pub description: &'static str,
    /// Its parameters (`topology.*`) with their ranges and help: the only range check of
    /// each (the builder asserts what it relies on).
    pub params: &'static [Param],
    /// Its default `topology` section, from which a partial one is completed.
    pub default: fn() -> TopologyConfig,
    /// Reads a section of this type into the typed form of its parameters and writes it
    /// back: the canonical section, or the first field that does not read (`topology.t`),
    /// e.g. `canonical::<Flat>`.
    pub canonical: fn(&TopologyConfig) -> Result<TopologyConfig, ConfigErrors>,
    /// Routers, ports (terminal ports included) and terminals of a configuration of this
    /// type, or `None` when they overflow 64 bits or its parameters do not read (which
    /// `SimConfig::validate`, run first, reports): the memory estimate is checked from it
    /// before anything is allocated.
    pub size: fn(&TopologyConfig) -> Option<(u64, u64, u64)>,
    /// Builds it from a configuration of this type whose ranges were checked; errors carry
    /// `topology.*` paths.
    pub build: fn(&TopologyConfig) -> Result<Topology, ConfigErrors>,
}

/// Every topology, one line each (in the order `--list` and the page show them; the first
/// is the default).
pub const TOPOLOGIES: &[Declaration] = &[
    hyperx::FLATTENED_BUTTERFLY,
    hyperx::DILATED_FLATTENED_BUTTERFLY,
    hyperx::HYPERX,
    hyperx::HYPERCUBE,
    folded_clos::FOLDED_CLOS,
    butterfly::BUTTERFLY,
    dragonfly::DRAGONFLY,
];

/// The declaration of the topology `type_name`, if one is registered.
pub(crate) fn declared(type_name: &str) -> Option<&'static Declaration> {
    TOPOLOGIES.iter().find(|t| t.name == type_name)
}

/// The declaration of the topology `type_name`, or the error naming `topology.type`.
pub(crate) fn declaration(type_name: &str) -> Result<&'static Declaration, ConfigErrors> {
    declared(type_name).ok_or_else(|| {
        let names: Vec<&str> = TOPOLOGIES.iter().map(|t| t.name).collect();
        ConfigErrors::one(
            "topology.type",
            format!("unknown topology `{type_name}`, expected one of {}", names.join(", ")),
        )
    })
}

/// The canonical section of a configuration whose parameters read as `T`, the typed form
/// of a declaration's parameters (its [`Declaration::canonical`]).
pub(crate) fn canonical<T: serde::Serialize + serde::de::DeserializeOwned>(
    cfg: &TopologyConfig,
) -> Result<TopologyConfig, ConfigErrors> {
    Ok(TopologyConfig::of(cfg.type_name(), &cfg.read::<T>()?))
}

/// The first registered topology, with its declared default.
impl Default for TopologyConfig {
    fn default() -> Self {
        (TOPOLOGIES[0].default)()
    }
}

/// `(routers, routers · radix, terminals)`, or `None` when the product overflows: the size of
/// a network whose routers all have `radix` ports.
pub(crate) fn uniform_size(routers: u64, radix: u64, terminals: u64) -> Option<(u64, u64, u64)> {
    Some((routers, routers.checked_mul(radix)?, terminals))
}

/// What every built network of a family answers: its port tables and what the engine,
/// the inspector and the drawing ask of it. Each family's file implements it for its type;
/// routing algorithms reach the type itself through [`Topology::get`].
pub trait BuiltTopology: Any + Debug + Send + Sync {
    /// Its flat port tables, link classes and drawing coordinates.
    fn network(&self) -> &Network;

    /// The routing family of the network: the algorithms of [`crate::routing::ALGORITHMS`]
    /// with this `family` run on it.
    fn family(&self) -> Family;

    /// Terminals attached to each router (every family attaches the same number
    /// everywhere).
    fn terminals_per_router(&self) -> u32;

    /// Port ids of links that exist in the port tables but not in the network (a tapered
    /// dragonfly's removed channels): the engine treats them as failed for good.
    fn absent_ports(&self) -> Vec<usize> {
        Vec::new()
    }

    /// The block each router is drawn in and what the blocks are called (`group`, `tile`),
    /// or one block with no name (the default).
    fn drawing_blocks(&self) -> (Vec<u32>, &'static str) {
        (vec![0; self.network().routers()], "")
    }

    /// (nodes per group, groups) for families with groups (the dragonfly; of one slice).
    fn groups(&self) -> Option<(u32, u32)> {
        None
    }

    /// How a node of a sliced network ([`Network::slices`]) spreads its packets over the
    /// slices (the default where there is one slice).
    fn slice_policy(&self) -> SlicePolicy {
        SlicePolicy::default()
    }
}

/// A built topology of any declared family (cheap to clone: the network is shared).
#[derive(Clone, Debug)]
pub struct Topology(Arc<dyn BuiltTopology>);

impl Topology {
    /// A built network of a family.
    pub(crate) fn new(built: impl BuiltTopology) -> Topology {
        Topology(Arc::new(built))
    }

    /// Builds the topology a configuration describes (by its declaration); errors carry
    /// `topology.*` paths.
    pub fn build(cfg: &TopologyConfig) -> Result<Topology, ConfigErrors> {
        (declaration(cfg.type_name())?.build)(cfg)
    }

    /// The network as its family's own type, if it is a `T`.
    pub fn get<T: BuiltTopology>(&self) -> Option<&T> {
        (&*self.0 as &dyn Any).downcast_ref()
    }

    pub fn network(&self) -> &Network {
        self.0.network()
    }

    pub fn as_hyperx(&self) -> Option<&HyperX> {
        self.get()
    }

    pub fn as_folded_clos(&self) -> Option<&FoldedClos> {
        self.get()
    }

    pub fn as_dragonfly(&self) -> Option<&Dragonfly> {
        self.get()
    }

    /// See [`BuiltTopology::family`].
    pub(crate) fn family(&self) -> Family {
        self.0.family()
    }

    /// See [`BuiltTopology::absent_ports`].
    pub fn absent_ports(&self) -> Vec<usize> {
        self.0.absent_ports()
    }

    /// See [`BuiltTopology::terminals_per_router`].
    pub(crate) fn terminals_per_router(&self) -> u32 {
        self.0.terminals_per_router()
    }

    /// See [`BuiltTopology::drawing_blocks`].
    pub fn drawing_blocks(&self) -> (Vec<u32>, &'static str) {
        self.0.drawing_blocks()
    }

    /// See [`BuiltTopology::groups`].
    pub(crate) fn groups(&self) -> Option<(u32, u32)> {
        self.0.groups()
    }

    /// See [`BuiltTopology::slice_policy`].
    pub(crate) fn slice_policy(&self) -> SlicePolicy {
        self.0.slice_policy()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every declaration is registered once, its default is a configuration of its own type
    /// that builds, within its own ranges, as a network of its family; every parameter its
    /// typed form reads has a declared range, and no other field is accepted.
    #[test]
    fn every_config_type_is_declared() {
        for (i, t) in TOPOLOGIES.iter().enumerate() {
            assert!(!TOPOLOGIES[..i].iter().any(|u| u.name == t.name), "{} is registered twice", t.name);
            let cfg = (t.default)();
            assert_eq!(cfg.type_name(), t.name);
            assert_eq!((t.canonical)(&cfg).as_ref(), Ok(&cfg), "{}: the default is canonical", t.name);
            let mut fields = serde_json::to_value(&cfg).unwrap();
            let fields = fields.as_object_mut().unwrap();
            fields.remove("type");
            let mut declared: Vec<&str> = t.params.iter().map(|p| p.path.trim_start_matches("topology.")).collect();
            let mut read: Vec<&str> = fields.keys().map(String::as_str).collect();
            declared.sort_unstable();
            read.sort_unstable();
            assert_eq!(read, declared, "{}: the parameters read are the parameters declared", t.name);
            fields.insert("bogus".into(), 1.into());
            fields.insert("type".into(), t.name.into());
            let bogus: TopologyConfig = serde_json::from_value(fields.clone().into()).unwrap();
            let e = (t.canonical)(&bogus).expect_err("an unknown field is refused");
            assert_eq!(e.0[0].path, "topology.bogus", "{}: {e}", t.name);
            assert!((t.size)(&cfg).is_some(), "{}: no size", t.name);
            let built = Topology::build(&cfg).unwrap_or_else(|e| panic!("{}: {e}", t.name));
            assert_eq!(built.family(), t.family, "{}", t.name);
            let sim = crate::config::SimConfig { topology: cfg, ..Default::default() };
            assert!(crate::config::schema::range_errors(&sim, t.params).is_empty(), "{}", t.name);
            for p in t.params {
                assert!(p.path.starts_with("topology."), "{}: {}", t.name, p.path);
            }
        }
    }
}
