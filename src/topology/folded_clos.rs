//! The folded Clos (fat tree), the comparison network of all three HyperX-family papers
//! (FB paper §3.3 and Table 1, HyperX paper §4.1 Fig. 7, 2DFB paper §IV).
//!
//! Built as an *extended generalized fat tree* XGFT(L; m1..mL; 1, w2..wL) (Öhring et al.):
//! switches on levels 1..L; a level-i switch has `down[i−1] = m_i` children and, below the
//! top, `up[i−1] = w_(i+1)` parents. There are `N = m1·…·mL` terminals; level i has
//! `(m_(i+1)·…·mL)·(w2·…·wi)` switches. With `w = m` on every level it is the full
//! (non-blocking) folded Clos of radix-2m switches, R/2 down and R/2 up; choosing
//! `w_(i+1) < m_i` *tapers* it. The HyperX paper's tapering ratio is
//! `β = (links leaving the top switches) / N = w2·…·wL / (m2·…·mL)`.
//!
//! Labels: terminal `t` has digits `a1..aL` (`a1` least significant, radix `m_i`); a level-i
//! switch is `(a_(i+1)..a_L ; b_2..b_i)` with index `a_part + (m_(i+1)·…·m_L)·b_part`, where
//! `a_part` is the mixed-radix number of its a-digits (a_(i+1) least significant) and
//! `b_part` that of its b-digits (b_2 least significant). Up port `u` of a level-i switch
//! leads to the level-(i+1) switch that drops `a_(i+1)` and appends `b_(i+1) = u`; it
//! arrives there on down port `a_(i+1)`. A switch is an ancestor of terminal `d` iff its
//! a-digits equal the corresponding digits of `d`.
//!
//! Port layout of a level-i switch: ports `0..m_i` down (terminals at level 1), then
//! `w_(i+1)` up ports. Switches are numbered level by level, leaves first.
//!
//! The paper networks: FB Fig. 6's 1024-node Clos of radix-64 switches with the bisection
//! of the flattened butterfly is `down = [32, 32], up = [16]` (β = 0.5); HyperX Fig. 7's
//! N = 4096, R = 32 networks are `down = [16, 16, 16]` with `up = [8, 16]` (β = 0.5) or
//! `up = [4, 16]` (β = 0.25) — the paper packs its switches differently (205/130/80
//! switches with 20/16/13 down ports) but tapers the same way; the 2DFB paper's Clos
//! networks are `down = [8, 8], up = [8]` (N = 64) and `down = [8, 8, 8], up = [8, 8]`
//! (N = 512).

use super::graph::{LinkClass, Network, NetworkBuilder};
use super::hyperx::MAX_TERMINALS;
use super::{canonical, BuiltTopology, Declaration, Topology};
use crate::config::schema::{list, Family};
use crate::config::{ConfigError, ConfigErrors, TopologyConfig};
use serde::{Deserialize, Serialize};

impl Family {
    /// The folded Clos (fat tree).
    pub const FOLDED_CLOS: Family = Family::new("folded_clos");
}

/// The parameters of a folded Clos as an XGFT.
#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct Xgft {
    down: Vec<u32>,
    up: Vec<u32>,
}

/// The folded Clos (fat tree) as an XGFT (FB §3.3, HyperX §4.1, 2DFB §IV).
pub(crate) const FOLDED_CLOS: Declaration = Declaration {
    name: "folded_clos",
    family: Family::FOLDED_CLOS,
    description:
        "folded Clos / fat tree (XGFT): per level, down[i] children and up[i] parents per switch; up < down tapers it",
    params: &[
        list("topology.down", "down ports per level", 1.0, 256.0, "children per switch, leaves first, e.g. [8,8]"),
        list(
            "topology.up",
            "up ports per level",
            1.0,
            256.0,
            "parents per switch below the top, e.g. [8] (fewer tapers)",
        ),
    ],
    default: || TopologyConfig::folded_clos(vec![8, 8], vec![8]),
    canonical: canonical::<Xgft>,
    size: |cfg| {
        let Xgft { down, up } = cfg.read().ok()?;
        // Level i (0-based) has Π down[i+1..] · Π up[..i] switches of down[i] + up[i] ports.
        let product = |v: &[u32]| v.iter().try_fold(1u64, |acc, &x| acc.checked_mul(x as u64));
        let mut ports = 0u64;
        let mut routers = 0u64;
        for i in 0..down.len() {
            let count = product(down.get(i + 1..)?)?.checked_mul(product(up.get(..i.min(up.len()))?)?)?;
            let radix = down[i] as u64 + up.get(i).copied().unwrap_or(0) as u64;
            routers = routers.checked_add(count)?;
            ports = ports.checked_add(count.checked_mul(radix)?)?;
        }
        Some((routers, ports, product(&down)?))
    },
    build: |cfg| {
        let Xgft { down, up } = cfg.read()?;
        Ok(Topology::new(FoldedClos::new(&down, &up, "topology")?))
    },
};

impl TopologyConfig {
    /// Folded Clos / fat tree as an XGFT: `down[i]` children and (below the top) `up[i]`
    /// parents per switch of level i+1; `up[i] < down[i]` tapers it.
    pub fn folded_clos(down: Vec<u32>, up: Vec<u32>) -> TopologyConfig {
        TopologyConfig::of(FOLDED_CLOS.name, &Xgft { down, up })
    }
}

#[derive(Clone, Debug)]
pub struct FoldedClos {
    /// Children per switch of each level (`m_i`).
    pub down: Vec<u32>,
    /// Parents per switch of each level below the top (`w_(i+1)`).
    pub up: Vec<u32>,
    /// First switch id of each level, plus the total at the end.
    level_start: Vec<u32>,
    /// `m_(i+1)·…·m_L` per level (the a-part radix).
    a_span: Vec<u32>,
    /// `w_2·…·w_i` per level (the b-part radix).
    b_span: Vec<u32>,
    /// `m_1·…·m_i` per level: terminals under one switch of that level.
    below: Vec<u32>,
    net: Network,
}

impl BuiltTopology for FoldedClos {
    fn network(&self) -> &Network {
        &self.net
    }

    fn family(&self) -> Family {
        Family::FOLDED_CLOS
    }

    fn terminals_per_router(&self) -> u32 {
        self.terminals_per_leaf()
    }
}

impl FoldedClos {
    /// Builds the XGFT with `down` (one value per level) and `up` (one per level below the
    /// top). Errors carry `path` (e.g. `topology`).
    pub fn new(down: &[u32], up: &[u32], path: &str) -> Result<FoldedClos, ConfigErrors> {
        let mut errs = Vec::new();
        if down.is_empty() || down.len() > 6 {
            errs.push(ConfigError::new(format!("{path}.down"), format!("needs 1..=6 levels, got {}", down.len())));
        }
        if up.len() + 1 != down.len().max(1) {
            errs.push(ConfigError::new(
                format!("{path}.up"),
                format!("needs one value per level below the top ({}), got {}", down.len().saturating_sub(1), up.len()),
            ));
        }
        // The declared ranges (checked before building) are what the levels rely on.
        assert!(
            down.iter().chain(up).all(|m| (1..=256).contains(m)),
            "down {down:?}, up {up:?}: ports must be 1..=256"
        );
        if !errs.is_empty() {
            return Err(ConfigErrors(errs));
        }
        let levels = down.len();
        let terminals: u64 = down.iter().map(|&m| m as u64).product();
        let mut counts = Vec::with_capacity(levels);
        for i in 0..levels {
            let a: u64 = down[i + 1..].iter().map(|&m| m as u64).product();
            let b: u64 = up[..i].iter().map(|&w| w as u64).product();
            counts.push(a * b);
        }
        let switches: u64 = counts.iter().sum();
        if terminals > MAX_TERMINALS || switches > 65536 {
            return Err(ConfigErrors::one(path, format!("{terminals} terminals on {switches} switches is larger than the simulator's limit of {MAX_TERMINALS} terminals")));
        }
        let mut level_start = vec![0u32];
        for c in &counts {
            level_start.push(level_start.last().unwrap() + *c as u32);
        }
        let a_span = (0..levels).map(|i| down[i + 1..].iter().product()).collect();
        let b_span = (0..levels).map(|i| up[..i].iter().product()).collect();
        let below = (0..levels).map(|i| down[..=i].iter().product()).collect();
        let mut fc = FoldedClos {
            down: down.to_vec(),
            up: up.to_vec(),
            level_start,
            a_span,
            b_span,
            below,
            net: NetworkBuilder::new(0).finish(Vec::new()),
        };
        fc.net = fc.build(terminals as u32);
        Ok(fc)
    }

    fn build(&self, terminals: u32) -> Network {
        let levels = self.levels();
        let mut b = NetworkBuilder::new(terminals as usize);
        for i in 0..levels {
            for _ in 0..self.switches_at(i) {
                b.add_router(self.down[i] + self.up.get(i).copied().unwrap_or(0));
            }
        }
        for t in 0..terminals {
            b.attach_terminal(t, t / self.down[0], t % self.down[0]);
        }
        let mut positions = Vec::new();
        for i in 0..levels {
            let n = self.switches_at(i);
            for idx in 0..n {
                let r = self.level_start[i] + idx;
                if i + 1 < levels {
                    for u in 0..self.up[i] {
                        let (parent, down_port) = self.parent(i, idx, u);
                        b.connect((r, self.down[i] + u), (parent, down_port), LinkClass::Local, i as u16);
                    }
                }
                let y = if levels == 1 { 0.5 } else { 0.92 - 0.84 * i as f32 / (levels - 1) as f32 };
                positions.push([0.04 + 0.92 * (idx as f32 + 0.5) / n as f32, y]);
            }
        }
        b.finish(positions)
    }

    pub fn network(&self) -> &Network {
        &self.net
    }
    pub(crate) fn levels(&self) -> usize {
        self.down.len()
    }
    /// Number of switches on level `i` (0-based: 0 = leaves).
    pub(crate) fn switches_at(&self, i: usize) -> u32 {
        self.level_start[i + 1] - self.level_start[i]
    }
    /// Level (0-based) and index within the level of a switch.
    #[inline]
    pub(crate) fn level_of(&self, router: u32) -> (usize, u32) {
        let i = self.level_start.partition_point(|&s| s <= router) - 1;
        (i, router - self.level_start[i])
    }
    /// The parent of switch `idx` of level `i` through up port `u`, and the down port it
    /// arrives on.
    fn parent(&self, i: usize, idx: u32, u: u32) -> (u32, u32) {
        let a_part = idx % self.a_span[i];
        let b_part = idx / self.a_span[i];
        let a_next = a_part % self.down[i + 1];
        let p_a = a_part / self.down[i + 1];
        let p_b = b_part + self.b_span[i] * u;
        (self.level_start[i + 1] + p_a + self.a_span[i + 1] * p_b, a_next)
    }
    /// Whether switch `router` is an ancestor of terminal `dst`; if so, the down port
    /// towards it.
    #[inline]
    pub(crate) fn down_port(&self, router: u32, dst: u32) -> Option<u32> {
        let (i, idx) = self.level_of(router);
        let a_part = idx % self.a_span[i];
        if a_part != dst / self.below[i] {
            return None;
        }
        let under = if i == 0 { 1 } else { self.below[i - 1] };
        Some((dst / under) % self.down[i])
    }
    /// First up port of a switch and the number of up ports (0 at the top).
    #[inline]
    pub(crate) fn up_ports(&self, router: u32) -> (u32, u32) {
        let (i, _) = self.level_of(router);
        (self.down[i], self.up.get(i).copied().unwrap_or(0))
    }
    /// Terminals per leaf switch.
    pub(crate) fn terminals_per_leaf(&self) -> u32 {
        self.down[0]
    }
    /// The k-ary L-flat with the same terminals per leaf and leaves, if every level has
    /// `k` down ports (used to give HyperX-defined patterns the same terminal permutation).
    pub(crate) fn equivalent_flattened_butterfly(&self) -> Option<super::HyperX> {
        let k = self.down[0];
        if self.levels() < 2 || self.down.iter().any(|&m| m != k) {
            return None;
        }
        super::HyperX::flattened_butterfly(k, self.levels() as u32, "topology").ok()
    }
    /// The HyperX paper's tapering ratio β: links leaving the top switches over N.
    pub fn beta(&self) -> f64 {
        let top = self.levels() - 1;
        (self.switches_at(top) as f64 * self.down[top] as f64) / self.net.terminals() as f64
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_and_taper() {
        // FB Fig. 6: 1024 terminals, radix-64 switches, half the bandwidth to the middle.
        let c = FoldedClos::new(&[32, 32], &[16], "t").unwrap();
        assert_eq!(c.network().terminals(), 1024);
        assert_eq!((c.switches_at(0), c.switches_at(1)), (32, 16));
        assert!((c.beta() - 0.5).abs() < 1e-9);
        // HyperX Fig. 7: N = 4096, β = 0.5 and 0.25 with radix ≤ 32.
        let c = FoldedClos::new(&[16, 16, 16], &[8, 16], "t").unwrap();
        assert_eq!(c.network().terminals(), 4096);
        assert!((c.beta() - 0.5).abs() < 1e-9);
        assert!(c.network().max_radix() <= 32);
        let c = FoldedClos::new(&[16, 16, 16], &[4, 16], "t").unwrap();
        assert!((c.beta() - 0.25).abs() < 1e-9);
        // Full fat tree: every level has N/m switches.
        let c = FoldedClos::new(&[4, 4, 4], &[4, 4], "t").unwrap();
        assert_eq!((0..3).map(|i| c.switches_at(i)).collect::<Vec<_>>(), vec![16, 16, 16]);
    }

    /// Every terminal reaches every other one by going up to any common ancestor and
    /// down, and the up/down wiring is consistent.
    #[test]
    fn every_top_switch_is_a_common_ancestor() {
        let c = FoldedClos::new(&[3, 4, 2], &[2, 3], "t").unwrap();
        let net = c.network();
        for (r, p, q, qp) in net.channels() {
            let back = net.port(q, qp);
            assert_eq!((back.peer_router, back.peer_port), (r, p));
        }
        let top = c.levels() - 1;
        for t in 0..net.terminals() as u32 {
            for s in 0..c.switches_at(top) {
                assert!(c.down_port(c.level_start[top] + s, t).is_some());
            }
            // Walking down from a top switch by down_port ends at t's leaf and port.
            let mut r = c.level_start[top];
            loop {
                let p = c.down_port(r, t).expect("ancestor");
                let port = net.port(r, p);
                if port.is_terminal() {
                    assert_eq!(port.peer_port, t);
                    break;
                }
                r = port.peer_router;
            }
            // The leaf of t is an ancestor, another leaf is not.
            assert!(c.down_port(t / 3, t).is_some());
            assert!(c.down_port((t / 3 + 1) % c.switches_at(0), t).is_none());
        }
    }

    #[test]
    fn bad_parameters_are_errors() {
        assert_eq!(FoldedClos::new(&[4, 4], &[], "topology").unwrap_err().0[0].path, "topology.up");
        assert!(std::panic::catch_unwind(|| FoldedClos::new(&[0, 4], &[4], "topology")).is_err());
        assert!(FoldedClos::new(&[256, 256, 256], &[1, 1], "topology").is_err());
    }
}
