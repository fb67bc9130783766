//! Failed links (HyperX paper §6; docs/hyperx.md, Failed links): which router-to-router
//! links of a built [`Network`] carry nothing, and the check that the network stays
//! connected.
//!
//! A link is failed in both directions: both of its ports are marked. The set comes from a
//! configuration's `faults` section ([`FaultSet::from_config`]) and can change while a
//! simulation runs (the page fails a link a user clicks): [`FaultSet::set`] refuses a
//! change that would disconnect two routers with terminals.

use super::Network;
use crate::config::{ConfigError, ConfigErrors, FaultConfig};
use crate::rng::fault_stream;

/// The failed links of a network, as a flag per port id (both ends of a failed link).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct FaultSet {
    failed: Vec<bool>,
    /// Failed links (each counted once).
    links: usize,
    /// Links absent from the network for good (a tapered dragonfly's removed channels):
    /// flagged like failed ones, never restored, not counted in `links`.
    absent: Vec<bool>,
}

/// Most unreachable router pairs an error message names.
const PAIRS_NAMED: usize = 3;

/// Most errors reported about `faults.links` (a long list of bad entries gives these).
const MAX_ERRORS: usize = 10;

impl FaultSet {
    /// No failed link in a network of `ports` port ids.
    pub(crate) fn none(ports: usize) -> FaultSet {
        FaultSet { failed: vec![false; ports], links: 0, absent: Vec::new() }
    }

    /// The links `cfg` fails in `net`: the listed ones and `random_fraction` of all
    /// router-to-router links drawn from `seed`'s fault stream. Errors name the field: a
    /// listed link that does not exist, or failures that disconnect the network.
    pub fn from_config(cfg: &FaultConfig, net: &Network, seed: u64) -> Result<FaultSet, ConfigErrors> {
        Self::from_config_without(cfg, net, seed, &[])
    }

    /// [`FaultSet::from_config`] in a network whose ports `absent` (both ends of each
    /// link) exist in the port tables only: they stay flagged for good, and random
    /// failures are drawn among the links that exist.
    pub(crate) fn from_config_without(
        cfg: &FaultConfig,
        net: &Network,
        seed: u64,
        absent: &[usize],
    ) -> Result<FaultSet, ConfigErrors> {
        let mut set = FaultSet::none(net.total_ports());
        if !absent.is_empty() {
            set.absent = vec![false; net.total_ports()];
            for &id in absent {
                set.absent[id] = true;
                set.failed[id] = true;
            }
        }
        if cfg.is_empty() {
            return Ok(set);
        }
        if net.unidirectional() {
            return Err(ConfigErrors::one("faults", "links cannot fail in the unidirectional butterfly"));
        }
        let mut errors = Vec::new();
        for (i, link) in cfg.links.iter().enumerate() {
            let (a, b, trunk) = match *link.as_slice() {
                [a, b] => (a, b, 0),
                [a, b, trunk] => (a, b, trunk),
                _ => {
                    errors.push(ConfigError::new(
                        format!("faults.links[{i}]"),
                        "a link is [router, router] or [router, router, trunk]",
                    ));
                    continue;
                }
            };
            if errors.len() >= MAX_ERRORS {
                break;
            }
            match net.link_port(a, b, trunk) {
                Ok(port) if set.is_absent(port) => errors.push(ConfigError::new(
                    format!("faults.links[{i}]"),
                    format!("the link between routers {a} and {b} was removed by tapering"),
                )),
                Ok(port) => set.mark(net, port, true),
                Err(why) => errors.push(ConfigError::new(format!("faults.links[{i}]"), why)),
            }
        }
        if !errors.is_empty() {
            return Err(ConfigErrors(errors));
        }
        if cfg.random_fraction > 0.0 {
            // Every link once, by its port at the lower-numbered router (in port-id order),
            // shuffled by a partial Fisher–Yates draw.
            let mut links: Vec<usize> = (0..net.total_ports())
                .filter(|&id| {
                    let port = net.port_by_id(id);
                    !port.is_terminal()
                        && port.peer_router > net.router_of_port(id)
                        && !set.is_absent(id)
                        && !set.failed[id]
                })
                .collect();
            let count = (cfg.random_fraction * links.len() as f64).round() as usize;
            let mut rng = fault_stream(seed);
            for i in 0..count.min(links.len()) {
                let j = i + rng.below((links.len() - i) as u32) as usize;
                links.swap(i, j);
                set.mark(net, links[i], true);
            }
        }
        if let Some(why) = set.disconnection(net) {
            return Err(ConfigErrors::one(
                if cfg.random_fraction > 0.0 { "faults.random_fraction" } else { "faults.links" },
                why,
            ));
        }
        Ok(set)
    }

    /// Whether the link of port id `id` has failed.
    #[inline]
    pub(crate) fn failed(&self, id: usize) -> bool {
        self.failed[id]
    }
    /// The flag of every port id.
    pub fn flags(&self) -> &[bool] {
        &self.failed
    }
    /// Whether the link of port id `id` is absent from the network for good.
    #[inline]
    pub(crate) fn is_absent(&self, id: usize) -> bool {
        self.absent.get(id).copied().unwrap_or(false)
    }
    /// [`FaultSet::flags`], or nothing when no link has failed and none is absent (what
    /// routing reads: an empty slice spares it a load per candidate output).
    /// A tapered dragonfly's absent channels alone do not count: routing's tables never
    /// contain them.
    pub(crate) fn flags_if_any(&self) -> &[bool] {
        if self.links == 0 {
            &[]
        } else {
            &self.failed
        }
    }
    /// Failed links, each counted once.
    pub fn links(&self) -> usize {
        self.links
    }
    pub fn is_empty(&self) -> bool {
        self.links == 0
    }

    /// Fails (or restores) the link of port id `id` and its peer port. Refuses, leaving the
    /// set unchanged, a terminal port and a failure that would disconnect the network.
    pub(crate) fn set(&mut self, net: &Network, id: usize, failed: bool) -> Result<(), String> {
        if id >= net.total_ports() || net.port_by_id(id).is_terminal() {
            return Err(format!("port {id} is not a router-to-router link"));
        }
        if self.is_absent(id) {
            return Err("this link was removed by tapering".into());
        }
        if net.unidirectional() {
            return Err("links cannot fail in the unidirectional butterfly".into());
        }
        if self.failed[id] == failed {
            return Ok(());
        }
        self.mark(net, id, failed);
        if failed {
            if let Some(why) = self.disconnection(net) {
                self.mark(net, id, false);
                return Err(why);
            }
        }
        Ok(())
    }

    fn mark(&mut self, net: &Network, id: usize, failed: bool) {
        if self.failed[id] == failed {
            return;
        }
        let port = net.port_by_id(id);
        let peer = net.port_id(port.peer_router, port.peer_port);
        self.failed[id] = failed;
        self.failed[peer] = failed;
        if failed {
            self.links += 1;
        } else {
            self.links -= 1;
        }
    }

    /// Why the working links leave routers with terminals unable to reach each other, if
    /// they do: a few of the unreachable pairs and their number.
    fn disconnection(&self, net: &Network) -> Option<String> {
        let routers = net.routers();
        let mut component = vec![u32::MAX; routers];
        let mut stack = Vec::new();
        let mut components = 0;
        for start in 0..routers {
            if component[start] != u32::MAX {
                continue;
            }
            component[start] = components;
            stack.push(start as u32);
            while let Some(r) = stack.pop() {
                for p in 0..net.radix(r) {
                    let port = net.port(r, p);
                    let peer = port.peer_router as usize;
                    if !port.is_terminal() && !self.failed[net.port_id(r, p)] && component[peer] == u32::MAX {
                        component[peer] = components;
                        stack.push(peer as u32);
                    }
                }
            }
            components += 1;
        }
        // Routers with terminals, per component.
        let mut with_terminals: Vec<Vec<u32>> = vec![Vec::new(); components as usize];
        let mut seen = vec![false; routers];
        for t in 0..net.terminals() as u32 {
            for r in [net.terminal_router(t), net.inject_router(t)] {
                if !std::mem::replace(&mut seen[r as usize], true) {
                    with_terminals[component[r as usize] as usize].push(r);
                }
            }
        }
        with_terminals.retain(|c| !c.is_empty());
        // The slices of a sliced network are separate by design: a packet stays in its
        // slice, so only the routers of one slice need to reach each other.
        let with_terminals = (0..net.slices())
            .map(|s| with_terminals.iter().filter(|c| net.slice_of(c[0]) == s).collect::<Vec<_>>())
            .find(|parts| parts.len() >= 2)?;
        let sizes: Vec<u64> = with_terminals.iter().map(|c| c.len() as u64).collect();
        let total: u64 = sizes.iter().sum();
        let pairs: u64 = sizes.iter().map(|&s| s * (total - s)).sum::<u64>() / 2;
        let named: Vec<String> = with_terminals[1..]
            .iter()
            .take(PAIRS_NAMED)
            .map(|c| format!("{}–{}", with_terminals[0][0], c[0]))
            .collect();
        Some(format!(
            "the failed links disconnect the network: routers {} cannot reach each other ({pairs} unreachable router pairs, {} failed links)",
            named.join(", "),
            self.links
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::topology::HyperX;

    fn ring4() -> Network {
        // A 4-router line of S = 4: a complete graph K4 with one terminal each.
        HyperX::new(&[4], &[1], 1, "topology").expect("valid").network().clone()
    }

    #[test]
    fn listed_links_fail_both_directions() {
        let net = ring4();
        let cfg = FaultConfig { links: vec![vec![0, 2]], random_fraction: 0.0 };
        let set = FaultSet::from_config(&cfg, &net, 1).expect("connected");
        assert_eq!(set.links(), 1);
        let failed: Vec<(u32, u32)> =
            net.channels().filter(|&(r, p, _, _)| set.failed(net.port_id(r, p))).map(|c| (c.0, c.2)).collect();
        assert_eq!(failed, vec![(0, 2), (2, 0)]);
    }

    #[test]
    fn bad_links_name_their_entry() {
        let net = ring4();
        for (link, want) in [(vec![0, 9], "router 9"), (vec![1, 1], "not linked"), (vec![0, 1, 1], "trunk 1")] {
            let cfg = FaultConfig { links: vec![vec![0, 1], link], random_fraction: 0.0 };
            let err = FaultSet::from_config(&cfg, &net, 1).expect_err("refused");
            assert_eq!(err.0[0].path, "faults.links[1]");
            assert!(err.0[0].message.contains(want), "{}", err.0[0].message);
        }
    }

    #[test]
    fn disconnection_is_refused_with_the_pairs() {
        let net = ring4();
        let cfg = FaultConfig { links: vec![vec![0, 1], vec![0, 2], vec![0, 3]], random_fraction: 0.0 };
        let err = FaultSet::from_config(&cfg, &net, 1).expect_err("router 0 is cut off");
        assert_eq!(err.0[0].path, "faults.links");
        assert!(err.0[0].message.contains("0–1") && err.0[0].message.contains("3 unreachable router pairs"), "{err}");
        // Failing a link at run time that would disconnect is refused and changes nothing.
        let mut set =
            FaultSet::from_config(&FaultConfig { links: vec![vec![0, 1], vec![0, 2]], random_fraction: 0.0 }, &net, 1)
                .expect("connected");
        let last = net.link_port(0, 3, 0).expect("exists");
        assert!(set.set(&net, last, true).is_err());
        assert_eq!(set.links(), 2);
        assert!(set.set(&net, last, false).is_ok());
    }

    #[test]
    fn random_fraction_is_seeded_and_rounded() {
        let net = HyperX::new(&[8, 8], &[1], 1, "topology").expect("valid").network().clone();
        // 2 · 8 · 28 = 448 links; 5 % is 22.4, so 22.
        let cfg = FaultConfig { links: vec![], random_fraction: 0.05 };
        let a = FaultSet::from_config(&cfg, &net, 7).expect("connected");
        assert_eq!(a.links(), 22);
        assert_eq!(a, FaultSet::from_config(&cfg, &net, 7).expect("connected"));
        assert_ne!(a, FaultSet::from_config(&cfg, &net, 8).expect("connected"));
    }
}
