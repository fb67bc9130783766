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
pub use dragonfly::Dragonfly;
pub use faults::FaultSet;
pub use folded_clos::FoldedClos;
pub use graph::{LinkClass, Network, Port};
pub use hyperx::HyperX;

use crate::config::schema::{Family, Param};
use crate::config::{ConfigErrors, TopologyConfig};

/// One topology as users choose it: the single declaration from which `--list`, the page's
/// form (through the catalog), the range checks of both front ends
/// ([`crate::config::SimConfig::validate`]), the completion of a partial `topology` section,
/// the memory estimate and the tests' "every topology" lists derive. Each family's file
/// declares its own; [`TOPOLOGIES`] registers it with one line.
pub struct Declaration {
    /// Its `topology.type` (the serde tag of its `TopologyConfig` variant).
    pub name: &'static str,
    /// The family its routing algorithms belong to.
    pub family: Family,
    /// One line for `--list` and the page, citing the paper section.
    pub description: &'static str,
    /// Its parameters (`topology.*`) with their ranges and help: the only range check of
    /// each (the builder asserts what it relies on).
    pub params: &'static [Param],
    /// Its default `topology` section, from which a partial one is completed.
    pub default: fn() -> serde_json::Value,
    /// Routers, ports (terminal ports included) and terminals of a configuration of this
    /// type, or `None` when they overflow 64 bits or it is malformed (its build says why):
    /// the memory estimate is checked from it before anything is allocated.
    pub size: fn(&TopologyConfig) -> Option<(u64, u64, u64)>,
    /// Builds it from a configuration of this type whose ranges were checked; errors carry
    /// `topology.*` paths.
    pub build: fn(&TopologyConfig) -> Result<Topology, ConfigErrors>,
}

/// Every topology, one line each (in the order `--list` and the page show them).
pub const TOPOLOGIES: &[Declaration] = &[
    hyperx::FLATTENED_BUTTERFLY,
    hyperx::DILATED_FLATTENED_BUTTERFLY,
    hyperx::HYPERX,
    hyperx::HYPERCUBE,
    folded_clos::FOLDED_CLOS,
    butterfly::BUTTERFLY,
    dragonfly::DRAGONFLY,
];

/// The declaration of the topology `type_name` (every `TopologyConfig` variant has one:
/// `topology::tests::every_config_type_is_declared`).
pub(crate) fn declaration(type_name: &str) -> &'static Declaration {
    TOPOLOGIES
        .iter()
        .find(|t| t.name == type_name)
        .unwrap_or_else(|| panic!("topology type {type_name} is not declared in TOPOLOGIES"))
}

/// `(routers, routers · radix, terminals)`, or `None` when the product overflows: the size of
/// a network whose routers all have `radix` ports.
pub(crate) fn uniform_size(routers: u64, radix: u64, terminals: u64) -> Option<(u64, u64, u64)> {
    Some((routers, routers.checked_mul(radix)?, terminals))
}

/// A built topology of one of the supported families.
#[derive(Clone, Debug)]
pub enum Topology {
    /// HyperX and its instances: flattened butterfly, 2-dilated FB, hypercube.
    HyperX(HyperX),
    /// The dragonfly (dragonfly paper §3).
    Dragonfly(Dragonfly),
    /// The folded Clos / fat tree (comparison network, FB §3.3, HyperX §4.1, 2DFB §IV).
    FoldedClos(FoldedClos),
    /// The conventional unidirectional butterfly (FB §3.3).
    Butterfly(Butterfly),
}

impl Topology {
    /// Builds the topology a configuration describes (by its declaration); errors carry
    /// `topology.*` paths.
    pub fn build(cfg: &TopologyConfig) -> Result<Topology, ConfigErrors> {
        (declaration(cfg.type_name()).build)(cfg)
    }

    pub fn network(&self) -> &Network {
        match self {
            Topology::HyperX(h) => h.network(),
            Topology::Dragonfly(d) => d.network(),
            Topology::FoldedClos(c) => c.network(),
            Topology::Butterfly(b) => b.network(),
        }
    }

    pub fn as_hyperx(&self) -> Option<&HyperX> {
        match self {
            Topology::HyperX(h) => Some(h),
            _ => None,
        }
    }

    pub fn as_folded_clos(&self) -> Option<&FoldedClos> {
        match self {
            Topology::FoldedClos(c) => Some(c),
            _ => None,
        }
    }

    /// The routing family of the network: the algorithms of [`crate::routing::ALGORITHMS`]
    /// with this `family` run on it.
    pub(crate) fn family(&self) -> Family {
        match self {
            Topology::HyperX(_) => Family::HyperX,
            Topology::Dragonfly(_) => Family::Dragonfly,
            Topology::FoldedClos(_) => Family::FoldedClos,
            Topology::Butterfly(_) => Family::Butterfly,
        }
    }

    pub(crate) fn as_butterfly(&self) -> Option<&Butterfly> {
        match self {
            Topology::Butterfly(b) => Some(b),
            _ => None,
        }
    }

    pub fn as_dragonfly(&self) -> Option<&Dragonfly> {
        match self {
            Topology::Dragonfly(d) => Some(d),
            _ => None,
        }
    }
}

impl Topology {
    /// Port ids of links that exist in the port tables but not in the network (a tapered
    /// dragonfly's removed channels): the engine treats them as failed for good.
    pub fn absent_ports(&self) -> Vec<usize> {
        match self {
            Topology::Dragonfly(d) => d.absent_ports(),
            _ => Vec::new(),
        }
    }

    /// Terminals attached to each router (all families attach the same number everywhere).
    pub(crate) fn terminals_per_router(&self) -> u32 {
        match self {
            Topology::HyperX(h) => h.t,
            Topology::Dragonfly(d) => d.p,
            Topology::FoldedClos(c) => c.terminals_per_leaf(),
            Topology::Butterfly(b) => b.k,
        }
    }

    /// The block each router is drawn in — its group (dragonfly; numbered on through the
    /// slices of a sliced one), its tile of the
    /// dimensions above the first two (HyperX family with more than two), else 0 — and what
    /// the blocks are called (`group`, `tile`, or empty when there is one block).
    pub fn drawing_blocks(&self) -> (Vec<u32>, &'static str) {
        let routers = self.network().routers() as u32;
        match self {
            Topology::Dragonfly(df) => {
                ((0..routers).map(|r| df.group(r) + df.g * (r / (df.a * df.g))).collect(), "group")
            }
            Topology::HyperX(hx) if hx.dims() > 2 => {
                let inner = hx.s[0] * hx.s[1];
                ((0..routers).map(|r| r / inner).collect(), "tile")
            }
            _ => (vec![0; routers as usize], ""),
        }
    }
    /// (nodes per group, groups) for families with groups (the dragonfly; of one slice).
    pub(crate) fn groups(&self) -> Option<(u32, u32)> {
        match self {
            Topology::Dragonfly(d) => Some((d.a * d.p, d.g)),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every declaration is registered once, its default is a configuration of its own type
    /// that builds, within its own ranges, as a network of its family.
    #[test]
    fn every_config_type_is_declared() {
        for (i, t) in TOPOLOGIES.iter().enumerate() {
            assert!(!TOPOLOGIES[..i].iter().any(|u| u.name == t.name), "{} is registered twice", t.name);
            let cfg: TopologyConfig =
                serde_json::from_value((t.default)()).unwrap_or_else(|e| panic!("{}: {e}", t.name));
            assert_eq!(cfg.type_name(), t.name);
            assert_eq!(declaration(t.name).family, t.family);
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
