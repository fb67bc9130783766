//! Destination patterns of the four papers, plus the usual synthetic ones.
//!
//! Bit permutations follow Dally & Towles (*Principles and Practices of Interconnection
//! Networks*, §3.2) on the terminal id; the shift patterns are the worst cases of the FB
//! paper §3.2 (router shift) and the dragonfly paper §4.2 (group shift); Swap2 is the
//! HyperX paper's §4.1 pattern; benign/adversarial are the 2DFB paper's §IV patterns.

use crate::config::{ConfigErrors, TrafficConfig};
use crate::rng::SimRng;
use crate::topology::Topology;

/// Catalog of pattern names with a one-line description each.
pub(crate) const PATTERNS: &[(&str, &str)] = &[
    ("uniform", "uniform random: every other terminal equally likely"),
    ("router_shift", "worst case of the FB paper: terminals of router i to random terminals of router i+shift"),
    ("group_shift", "worst case of the dragonfly paper: terminals of group i to random terminals of group i+shift"),
    ("bit_complement", "terminal d = bitwise complement of s (N a power of two)"),
    ("bit_rotate", "d = s rotated right by one bit (N a power of two)"),
    ("transpose", "d = s with the upper and lower halves of its bits swapped (N = 4^m)"),
    ("tornado", "each coordinate moves ⌈S/2⌉−1 positions (HyperX), or half way round the terminal ring"),
    ("random_permutation", "a fixed random permutation of the terminals (the 2DFB paper's random pattern)"),
    ("swap2", "HyperX Swap2: even terminals cross the bisection of dimension 1, odd ones of dimension 2"),
    ("benign", "2DFB benign: terminal pair j of every switch goes to the switch j+1 away in every dimension"),
    ("adversarial", "2DFB adversarial: terminal t of switch i to terminal t of switch i+shift"),
];

/// A destination pattern over terminal ids.
#[derive(Clone, Debug)]
pub(crate) enum Pattern {
    Uniform {
        terminals: u32,
    },
    /// Random terminal of block `(block(src) + shift) mod blocks` (router or group shift).
    BlockShift {
        block_size: u32,
        blocks: u32,
        shift: u32,
    },
    /// A fixed permutation. (A boxed slice rather than a `Vec`: the enum then has a plain
    /// tag, which `destination` tests more cheaply than a niche in a `Vec`'s capacity.)
    Table(Box<[u32]>),
}

impl Pattern {
    /// Builds the pattern named in `cfg.pattern` for a topology.
    pub(crate) fn build(cfg: &TrafficConfig, topo: &Topology, seed: u64) -> Result<Pattern, ConfigErrors> {
        let net = topo.network();
        // Between nodes: a sliced network's node has a terminal in every slice.
        let n = net.nodes() as u32;
        let err = |msg: String| ConfigErrors::one("traffic.pattern", msg);
        let pow2_bits = || -> Result<u32, ConfigErrors> {
            if n.is_power_of_two() {
                Ok(n.trailing_zeros())
            } else {
                Err(err(format!("{} needs a power-of-two number of terminals, this network has {n}", cfg.pattern)))
            }
        };
        if n < 2 {
            return Err(ConfigErrors::one(
                "topology",
                format!("the network has {n} terminal(s); traffic needs at least two"),
            ));
        }
        let table = |f: &dyn Fn(u32) -> u32| Pattern::Table((0..n).map(f).collect());
        // On a folded Clos whose levels all have k down ports, the HyperX-defined patterns
        // are those of the k-ary flattened butterfly with the same leaves, so both networks
        // can be compared on one terminal permutation (2DFB §IV, HyperX Fig. 7).
        let flat = topo.as_folded_clos().and_then(|c| c.equivalent_flattened_butterfly());
        let hyperx = || {
            topo.as_hyperx().or(flat.as_ref()).ok_or_else(|| err(format!("{} is defined on HyperX-family networks (and folded Clos networks with equal down ports per level) only", cfg.pattern)))
        };
        let pattern = match cfg.pattern.as_str() {
            "uniform" => Pattern::Uniform { terminals: n },
            "router_shift" => {
                let t = topo.terminals_per_router().max(1);
                Pattern::BlockShift { block_size: t, blocks: n / t, shift: cfg.shift }
            }
            "group_shift" => {
                let (size, groups) =
                    topo.groups().ok_or_else(|| err("group_shift needs a dragonfly (a network with groups)".into()))?;
                Pattern::BlockShift { block_size: size, blocks: groups, shift: cfg.shift }
            }
            "bit_complement" => {
                let b = pow2_bits()?;
                table(&|s| !s & ((1u64 << b) - 1) as u32)
            }
            "bit_rotate" => {
                let b = pow2_bits()?;
                table(&|s| if b == 0 { s } else { (s >> 1) | ((s & 1) << (b - 1)) })
            }
            "transpose" => {
                let b = pow2_bits()?;
                if b % 2 != 0 {
                    return Err(err(format!(
                        "transpose needs N = 4^m terminals (an even number of address bits), this network has {n}"
                    )));
                }
                let h = b / 2;
                table(&|s| ((s & ((1 << h) - 1)) << h) | (s >> h))
            }
            "tornado" => match topo.as_hyperx() {
                Some(hx) => table(&|s| {
                    let (r, t) = (hx.router_of(s), s % hx.t);
                    let mut dst = r;
                    for d in 0..hx.dims() {
                        let sd = hx.s[d];
                        dst = hx.neighbor(dst, d, (hx.coord(r, d) + sd.div_ceil(2) - 1) % sd);
                    }
                    dst * hx.t + t
                }),
                None => table(&|s| (s + n.div_ceil(2) - 1) % n),
            },
            "random_permutation" => {
                let mut perm: Vec<u32> = (0..n).collect();
                let mut rng = SimRng::new(seed, 0x7065_726d);
                for i in (1..n).rev() {
                    perm.swap(i as usize, rng.below(i + 1) as usize);
                }
                Pattern::Table(perm.into())
            }
            "swap2" => {
                let hx = hyperx()?;
                if hx.dims() < 2 {
                    return Err(err("swap2 needs a HyperX with at least 2 dimensions".into()));
                }
                table(&|s| {
                    let (r, t) = (hx.router_of(s), s % hx.t);
                    let d = (t % 2) as usize;
                    let (x, sd) = (hx.coord(r, d), hx.s[d]);
                    // x → x + ⌈S/2⌉ if x < S/2, else x − ⌈S/2⌉ (HyperX §4.1). For odd S
                    // the middle coordinate ⌊S/2⌋ has no partner and stays, which keeps
                    // the pattern a permutation.
                    let half = sd.div_ceil(2);
                    let nx = if x < sd / 2 {
                        x + half
                    } else if x >= half {
                        x - half
                    } else {
                        x
                    };
                    hx.neighbor(r, d, nx) * hx.t + t
                })
            }
            "benign" => {
                let hx = hyperx()?;
                if hx.t / 2 >= hx.s.iter().copied().min().unwrap_or(0) || hx.t % 2 != 0 {
                    return Err(err(format!("benign pairs terminals 2j, 2j+1 with switch j+1 away; it needs an even T < 2·min(S), got T = {}", hx.t)));
                }
                table(&|s| {
                    let (r, t) = (hx.router_of(s), s % hx.t);
                    let j = t / 2;
                    let mut dst = r;
                    for d in 0..hx.dims() {
                        dst = hx.neighbor(dst, d, (hx.coord(r, d) + j + 1) % hx.s[d]);
                    }
                    dst * hx.t + t
                })
            }
            "adversarial" => {
                let t = topo.terminals_per_router().max(1);
                let routers = n / t;
                table(&|s| ((s / t + cfg.shift) % routers) * t + s % t)
            }
            other => {
                let names: Vec<&str> = PATTERNS.iter().map(|p| p.0).collect();
                return Err(err(format!("unknown pattern '{other}'; one of: {}", names.join(", "))));
            }
        };
        if let Pattern::BlockShift { blocks, shift, .. } = pattern {
            if blocks > 0 && shift % blocks == 0 {
                return Err(ConfigErrors::one("traffic.shift", format!("{shift} is a multiple of the {blocks} blocks {} shifts over: every packet would stay in its own block", cfg.pattern)));
            }
        }
        if !pattern.stays_within(n) {
            return Err(err(format!("{} has destinations outside the {n} terminals of this network", cfg.pattern)));
        }
        Ok(pattern)
    }

    /// Whether every destination the pattern can draw is a terminal below `n` (other than
    /// the source, for uniform traffic, which needs `n ≥ 2`): checked once when it is built.
    fn stays_within(&self, n: u32) -> bool {
        match self {
            Pattern::Uniform { terminals } => *terminals == n && n >= 2,
            Pattern::BlockShift { block_size, blocks, .. } => {
                *block_size > 0 && *blocks > 0 && block_size.checked_mul(*blocks).is_some_and(|t| t <= n)
            }
            Pattern::Table(t) => t.len() == n as usize && t.iter().all(|&d| d < n),
        }
    }

    /// Destination node of a packet from node `src`. Inlined into the engine's generation
    /// loops (measured: out of line it costs 0.8 % of a 1K flattened butterfly's instructions).
    #[inline(always)]
    pub(crate) fn destination(&self, src: u32, rng: &mut SimRng) -> u32 {
        match self {
            Pattern::Uniform { terminals } => {
                let d = rng.below(terminals - 1);
                if d >= src {
                    d + 1
                } else {
                    d
                }
            }
            Pattern::BlockShift { block_size, blocks, shift } => {
                let block = (src / block_size + shift) % blocks;
                block * block_size + rng.below(*block_size)
            }
            Pattern::Table(t) => t[src as usize],
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::TopologyConfig;

    fn pattern(name: &str, topo: &TopologyConfig) -> Result<Pattern, ConfigErrors> {
        let cfg = TrafficConfig { pattern: name.into(), ..Default::default() };
        Pattern::build(&cfg, &Topology::build(topo).unwrap(), 1)
    }

    #[test]
    fn permutations_are_permutations() {
        let fb = TopologyConfig::flattened_butterfly(4, 3);
        for name in [
            "bit_complement",
            "bit_rotate",
            "transpose",
            "tornado",
            "random_permutation",
            "swap2",
            "benign",
            "adversarial",
        ] {
            let topo = if name == "swap2" { TopologyConfig::hyperx(vec![4, 3, 2], vec![1], 4) } else { fb.clone() };
            let Pattern::Table(t) = pattern(name, &topo).unwrap() else { panic!("{name} not a table") };
            let mut seen = t.to_vec();
            seen.sort();
            seen.dedup();
            assert_eq!(seen.len(), t.len(), "{name} is not a permutation");
        }
    }

    #[test]
    fn known_destinations() {
        let fb = TopologyConfig::flattened_butterfly(4, 2); // 16 terminals, 4 bits
        let mut rng = SimRng::new(1, 1);
        let d = |name: &str, s: u32, rng: &mut SimRng| pattern(name, &fb).unwrap().destination(s, rng);
        assert_eq!(d("bit_complement", 0b0011, &mut rng), 0b1100);
        assert_eq!(d("bit_rotate", 0b0011, &mut rng), 0b1001);
        assert_eq!(d("transpose", 0b0111, &mut rng), 0b1101);
        // Router shift: terminals of router 1 go to router 2.
        for _ in 0..50 {
            assert_eq!(d("router_shift", 5, &mut rng) / 4, 2);
            assert_ne!(d("uniform", 5, &mut rng), 5);
        }
        // Swap2 on an 8×8 HyperX (T = 2): even terminal moves dim 1 by 4, odd one dim 2.
        let hx = TopologyConfig::hyperx(vec![8, 8], vec![1], 2);
        let p = pattern("swap2", &hx).unwrap();
        // router (x1=1, x2=6) = 1 + 6·8 = 49
        assert_eq!(p.destination(49 * 2, &mut rng), (5 + 6 * 8) * 2);
        assert_eq!(p.destination(49 * 2 + 1, &mut rng), (1 + 2 * 8) * 2 + 1);
    }

    #[test]
    fn unfit_sizes_are_errors() {
        let fb = TopologyConfig::flattened_butterfly(3, 2);
        let e = pattern("bit_complement", &fb).unwrap_err();
        assert_eq!(e.0[0].path, "traffic.pattern");
        assert!(pattern("transpose", &TopologyConfig::flattened_butterfly(2, 3)).is_err());
        assert!(pattern("group_shift", &fb).is_err());
        assert!(pattern("nonsense", &fb).is_err());
    }
}
