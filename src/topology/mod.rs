//! Topologies. Each family builds a [`Network`] (flat port tables, link classes, drawing
//! coordinates) and keeps the metadata its routing algorithms need (coordinates, groups).

pub mod butterfly;
pub mod dragonfly;
pub mod faults;
pub mod folded_clos;
pub mod graph;
pub mod hyperx;

pub use butterfly::Butterfly;
pub use dragonfly::Dragonfly;
pub use faults::FaultSet;
pub use folded_clos::FoldedClos;
pub use graph::{LinkClass, Network, Port};
pub use hyperx::HyperX;

use crate::config::{ConfigErrors, TopologyConfig};

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
    /// Builds the topology a configuration describes; errors carry `topology.*` paths.
    pub fn build(cfg: &TopologyConfig) -> Result<Topology, ConfigErrors> {
        const P: &str = "topology";
        Ok(match cfg {
            TopologyConfig::FlattenedButterfly { k, n } => Topology::HyperX(HyperX::flattened_butterfly(*k, *n, P)?),
            TopologyConfig::DilatedFlattenedButterfly { k, n } => {
                if *n < 2 {
                    return Err(ConfigErrors::one("topology.n", format!("needs n ≥ 2, got {n}")));
                }
                Topology::HyperX(HyperX::new(&vec![*k; (*n - 1) as usize], &[2], *k, P)?)
            }
            TopologyConfig::Hypercube { n } => {
                if !(1..=16).contains(n) {
                    return Err(ConfigErrors::one(
                        "topology.n",
                        format!("hypercube dimension must be 1..=16, got {n}"),
                    ));
                }
                Topology::HyperX(HyperX::new(&vec![2; *n as usize], &[1], 1, P)?)
            }
            TopologyConfig::Hyperx { s, k, t } => Topology::HyperX(HyperX::new(s, k, *t, P)?),
            TopologyConfig::Dragonfly { p, a, h, g, arrangement, intra, intra_trunking, taper, slices, .. } => {
                Topology::Dragonfly(
                    Dragonfly::with_groups(*p, *a, *h, *g, *arrangement, intra.as_deref().unwrap_or_default(), P)?
                        .trunked(intra_trunking.as_deref().unwrap_or(&[1]), P)?
                        .sliced(*slices, P)?
                        .tapered(taper, P)?,
                )
            }
            TopologyConfig::FoldedClos { down, up } => Topology::FoldedClos(FoldedClos::new(down, up, P)?),
            TopologyConfig::Butterfly { k, n } => Topology::Butterfly(Butterfly::new(*k, *n, P)?),
        })
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
    pub fn family(&self) -> &'static str {
        match self {
            Topology::HyperX(_) => "hyperx",
            Topology::Dragonfly(_) => "dragonfly",
            Topology::FoldedClos(_) => "folded_clos",
            Topology::Butterfly(_) => "butterfly",
        }
    }

    pub fn as_butterfly(&self) -> Option<&Butterfly> {
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
    pub fn terminals_per_router(&self) -> u32 {
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
    pub fn groups(&self) -> Option<(u32, u32)> {
        match self {
            Topology::HyperX(_) => None,
            Topology::Dragonfly(d) => Some((d.a * d.p, d.g)),
            Topology::FoldedClos(_) | Topology::Butterfly(_) => None,
        }
    }
}
