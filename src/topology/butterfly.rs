//! The conventional butterfly, k-ary n-fly (FB paper §2.1 and §3.3, Table 1): `N = k^n`
//! terminals, `n` stages of `k^(n−1)` radix-k switches, *unidirectional*, with
//! destination-tag routing and no path diversity.
//!
//! The engine's channels are bidirectional, so the butterfly is modelled with the
//! reverse directions left unused: every switch has `k` "left" ports (`0..k`) that only
//! receive and `k` "right" ports (`k..2k`) that only send. Terminal `t` injects into left
//! port `t mod k` of stage-0 switch `⌊t/k⌋` and is delivered by right port `t mod k` of the
//! last-stage switch `⌊t/k⌋` (the network's [`Network::inject_port`] and
//! [`Network::terminal_port`] differ). Destination-tag routing never sends a packet
//! backwards, so the reverse channels carry nothing; their credits and buffers exist but
//! stay idle.
//!
//! Wiring (Dally & Towles §4.1): a switch has an (n−1)-digit radix-k address `x`; right
//! port `k + j` of stage-s switch `x` (s < n−1) connects to the stage-(s+1) switch whose
//! address is `x` with digit `n−2−s` replaced by `j`, arriving on left port (old digit).
//! Destination-tag routing at stage s takes right port `k + d_(n−1−s)` for destination
//! terminal `d = d_(n−1)…d_0`; after the last inter-stage hop the switch address is `⌊d/k⌋`.
//! Switch id = `s·k^(n−1) + x`.

use super::graph::{LinkClass, Network, NetworkBuilder};
use super::hyperx::MAX_TERMINALS;
use super::{canonical, uniform_size, BuiltTopology, Declaration, Topology};
use crate::config::schema::{int, Family};
use crate::config::{ConfigErrors, TopologyConfig};
use serde::{Deserialize, Serialize};

impl Family {
    /// The conventional butterfly.
    pub const BUTTERFLY: Family = Family::new("butterfly");
}

/// The parameters of a k-ary n-fly.
#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct Fly {
    k: u32,
    n: u32,
}

/// The conventional k-ary n-fly (FB paper §3.3).
pub(crate) const BUTTERFLY: Declaration = Declaration {
    name: "butterfly",
    family: Family::BUTTERFLY,
    description: "conventional k-ary n-fly (FB paper §3.3): n stages of radix-k switches, unidirectional",
    params: &[
        int("topology.k", "k (ary)", 2.0, 64.0, "switch arity"),
        int("topology.n", "n (stages)", 1.0, 6.0, "stages; k^n terminals"),
    ],
    default: || TopologyConfig::butterfly(4, 3),
    canonical: canonical::<Fly>,
    size: |cfg| {
        let Fly { k, n } = cfg.read().ok()?;
        // n stages of k^(n−1) switches, k inputs and k outputs each.
        let routers = (k as u64).checked_pow(n.checked_sub(1)?)?.checked_mul(n as u64)?;
        uniform_size(routers, 2 * k as u64, (k as u64).checked_pow(n)?)
    },
    build: |cfg| {
        let Fly { k, n } = cfg.read()?;
        Ok(Topology::new(Butterfly::new(k, n, "topology")?))
    },
};

impl TopologyConfig {
    /// The conventional k-ary n-fly (FB paper §3.3): n stages of k^(n−1) radix-k switches,
    /// unidirectional, destination-tag routing.
    pub fn butterfly(k: u32, n: u32) -> TopologyConfig {
        TopologyConfig::of(BUTTERFLY.name, &Fly { k, n })
    }
}

#[derive(Clone, Debug)]
pub struct Butterfly {
    pub k: u32,
    pub n: u32,
    /// Switches per stage, `k^(n−1)`.
    rows: u32,
    net: Network,
}

impl BuiltTopology for Butterfly {
    fn network(&self) -> &Network {
        &self.net
    }

    fn family(&self) -> Family {
        Family::BUTTERFLY
    }

    fn terminals_per_router(&self) -> u32 {
        self.k
    }
}

impl Butterfly {
    /// Builds the k-ary n-fly; `k` and `n` are within the declared ranges ([`BUTTERFLY`]).
    pub fn new(k: u32, n: u32, path: &str) -> Result<Butterfly, ConfigErrors> {
        assert!((2..=64).contains(&k) && (1..=6).contains(&n), "k = {k}, n = {n} outside the declared ranges");
        let terminals = (k as u64).checked_pow(n).unwrap_or(u64::MAX);
        if terminals > MAX_TERMINALS {
            return Err(ConfigErrors::one(
                path,
                format!(
                    "{k}-ary {n}-fly has {terminals} terminals, more than the simulator's limit of {MAX_TERMINALS}"
                ),
            ));
        }
        let rows = k.pow(n - 1);
        let mut bf = Butterfly { k, n, rows, net: NetworkBuilder::new(0).finish(Vec::new()) };
        bf.net = bf.build();
        Ok(bf)
    }

    fn build(&self) -> Network {
        let (k, n, rows) = (self.k, self.n, self.rows);
        let mut b = NetworkBuilder::new((rows * k) as usize);
        for _ in 0..n * rows {
            b.add_router(2 * k);
        }
        let last = (n - 1) * rows;
        for t in 0..rows * k {
            b.attach_injection(t, t / k, t % k);
            b.attach_terminal(t, last + t / k, k + t % k);
        }
        let mut positions = Vec::new();
        for s in 0..n {
            for x in 0..rows {
                if s + 1 < n {
                    let w = k.pow(n - 2 - s);
                    let old = (x / w) % k;
                    for j in 0..k {
                        let y = x - old * w + j * w;
                        b.connect((s * rows + x, k + j), ((s + 1) * rows + y, old), LinkClass::Local, s as u16);
                    }
                }
                let px = if n == 1 { 0.5 } else { 0.08 + 0.84 * s as f32 / (n - 1) as f32 };
                positions.push([px, 0.04 + 0.92 * (x as f32 + 0.5) / rows as f32]);
            }
        }
        b.finish(positions)
    }

    pub fn network(&self) -> &Network {
        &self.net
    }
    /// Stage of a switch.
    #[inline]
    pub(crate) fn stage(&self, router: u32) -> u32 {
        router / self.rows
    }
    /// Destination-tag output port at `router` for terminal `dst`.
    #[inline]
    pub(crate) fn tag_port(&self, router: u32, dst: u32) -> u32 {
        let s = self.stage(router);
        self.k + (dst / self.k.pow(self.n - 1 - s)) % self.k
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Destination tags lead every source to every destination in n − 1 hops.
    #[test]
    fn destination_tags_reach_every_terminal() {
        for (k, n) in [(2, 4), (4, 3), (3, 2), (5, 1)] {
            let bf = Butterfly::new(k, n, "t").unwrap();
            let net = bf.network();
            for src in 0..net.terminals() as u32 {
                for dst in 0..net.terminals() as u32 {
                    let mut r = net.inject_router(src);
                    let mut hops = 0;
                    loop {
                        let p = bf.tag_port(r, dst);
                        let port = net.port(r, p);
                        if port.is_terminal() {
                            assert_eq!(port.peer_port, dst);
                            assert_eq!((r, p), net.terminal_port(dst));
                            break;
                        }
                        r = port.peer_router;
                        hops += 1;
                    }
                    assert_eq!(hops, n - 1);
                }
            }
        }
    }

    #[test]
    fn sizes() {
        let bf = Butterfly::new(32, 2, "t").unwrap();
        assert_eq!(bf.network().terminals(), 1024);
        assert_eq!(bf.network().routers(), 64);
        assert!(std::panic::catch_unwind(|| Butterfly::new(1, 2, "topology")).is_err());
        assert!(Butterfly::new(64, 4, "topology").is_err());
    }
}
