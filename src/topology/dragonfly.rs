//! The dragonfly (dragonfly paper §3; docs/dragonfly.md, The topology).
//!
//! `g` groups of `a` routers; each router has `p` terminals, local channels to the routers
//! of its group and `h` global channels; `N = a·p·g`, `g ≤ a·h + 1`.
//!
//! **Intra-group network** (§3.2, Fig. 6). By default the group is fully connected (the
//! paper's 1-D flattened butterfly: `a − 1` local channels). `intra = [e_1, …, e_m]` (with
//! `e_1·…·e_m = a`) makes it an m-D flattened butterfly instead: in-group router `i` has
//! the mixed-radix coordinates of `i` (`e_1` least significant) and a channel to every
//! router that differs in exactly one coordinate, `Σ(e_d − 1)` local channels; Fig. 6(b)
//! is `a = 8, intra = [2, 2, 2]`. Local routes then take several hops, in dimension order
//! ([`Dragonfly::local_port`] is the next one). **Trunking** (Fig. 6(a): "more bandwidth to
//! the neighboring routers"): `intra_trunking = [k_1, …, k_m]` (or one `k` for every
//! dimension) puts `k_d` parallel channels between the routers that differ in coordinate
//! `d`, on consecutive ports; a hop takes the one with the shortest queue.
//!
//! **Channel slicing** (§3.2: "multiple network can be connected in parallel to add
//! capacity"): `slices = S` builds S identical dragonflies side by side; node `n` has a
//! terminal channel into each, terminal `s·N + n` being its interface to slice `s` (see
//! [`Network::slices`]). A packet travels whole on the slice its node chose (the engine's
//! `topology.slice_policy`), so every slice is routed as a dragonfly of its own.
//!
//! **Numbering.** Router `s·a·g + G·a + i` is router `i` of group `G` of slice `s`; terminal `r·p + t` is
//! terminal `t` of router `r`. Ports of every router: `0..p` terminals, then the local
//! ports dimension by dimension (in dimension d, ports `p + o_d + k_d·m ..+ k_d` towards
//! coordinate `m < own`, `p + o_d + k_d·(m − 1) ..+ k_d` for `m > own`, `o_d` the ports of
//! the dimensions before; so with one dimension and no trunking, port `p + j` for in-group
//! router `j < i`, `p + j − 1` for `j > i`),
//! then the `h` global ports. The global port `k` of router `i` is the group's *global
//! slot* `c = i·h + k`, `c = 0..a·h`.
//!
//! **Global arrangement.** With `q = ⌊ah/(g−1)⌋` and `rem = ah mod (g−1)`, the first
//! `q·(g−1)` slots of every group form `q` *rounds* of one link to each other group:
//! slot `c = j·(g−1) + t` (round `j`, target index `t`) connects to
//! - [`GlobalArrangement::Absolute`] (the default): group `t` if `t < G`, else `t + 1`;
//! - [`GlobalArrangement::Palmtree`]: group `(G − t − 1) mod g`.
//!
//! With `g = ah + 1` there is one round: one link per group pair, the paper's maximum-size
//! dragonfly (§3.1). Consecutive rounds put the parallel links between two groups on
//! different routers. The `rem` remaining slots of every group (`g < ah + 1` only) are the
//! *extra* channels, wired as a circulant so they are spread evenly: extra slot `e` connects
//! to group `G + d` with offsets `d = +1, −1, +2, −2, …` in that order and, when `rem` is
//! odd, finally `d = g/2` (then `g` must be even; `g·a·h` odd cannot be wired at all and is
//! rejected). Every pair of groups is thus joined by `q` or `q + 1` channels, at least
//! `⌊ah/(g−1)⌋`, the most any wiring can guarantee (the paper's floor `⌊(ah+1)/g⌋` is never
//! more).
//!
//! **Drawing.** Groups sit on a circle, the routers of each group on a small circle around
//! the group's centre, all inside the unit square; the slices of a sliced network side by
//! side, each scaled into its column.

use super::graph::{LinkClass, Network, NetworkBuilder};
use super::hyperx::MAX_TERMINALS;
use super::{canonical, BuiltTopology, Declaration, Topology};
use crate::config::schema::{choice, int, opt_list, triples, Family};
use crate::config::{ConfigError, ConfigErrors, SlicePolicy, TopologyConfig};
use serde::{Deserialize, Serialize};

impl Family {
    /// The dragonfly.
    pub const DRAGONFLY: Family = Family::new("dragonfly");
}

/// How a dragonfly's global channels are wired (dragonfly paper §3.1; the rule is in
/// the module documentation and docs/dragonfly.md, The topology).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum GlobalArrangement {
    /// Global index c = r·h + k connects to group c (c < G) or c + 1.
    #[default]
    Absolute,
    /// The "palmtree" arrangement: group G's global index c connects to group (G − c − 1) mod g.
    Palmtree,
}

/// The parameters of a dragonfly (§3) with the variants of §3.2.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DragonflyConfig {
    /// Terminals per router.
    pub p: u32,
    /// Routers per group.
    pub a: u32,
    /// Global channels per router.
    pub h: u32,
    /// Groups (≤ a·h + 1).
    pub g: u32,
    #[serde(default)]
    pub arrangement: GlobalArrangement,
    /// Extents of the flattened butterfly inside each group (§3.2, Fig. 6), their product
    /// `a`; `None` (the default): fully connected groups.
    #[serde(default)]
    pub intra: Option<Vec<u32>>,
    /// Parallel local channels between neighbouring routers in each dimension of the group
    /// (§3.2, Fig. 6(a)): one value, or one per dimension of `intra`; `None` (the default):
    /// one.
    #[serde(default)]
    pub intra_trunking: Option<Vec<u32>>,
    /// Bandwidth tapering (§3.2): `[G1, G2, keep]` entries, each keeping only `keep` of the
    /// channels between groups G1 and G2 (`g < ah + 1` gives pairs several).
    #[serde(default)]
    pub taper: Vec<Vec<u32>>,
    /// Channel slicing (§3.2): this many identical dragonflies in parallel, every node
    /// attached to each by its own terminal channel (default 1).
    #[serde(default = "one")]
    pub slices: u32,
    /// Which slice a node sends each packet on (read with `slices > 1`).
    #[serde(default)]
    pub slice_policy: SlicePolicy,
}

fn one() -> u32 {
    1
}

impl DragonflyConfig {
    /// Dragonfly(p, a, h, g) as the paper builds it: absolute arrangement, fully connected
    /// groups, no tapering, one slice.
    pub fn new(p: u32, a: u32, h: u32, g: u32) -> DragonflyConfig {
        DragonflyConfig {
            p,
            a,
            h,
            g,
            arrangement: GlobalArrangement::Absolute,
            intra: None,
            intra_trunking: None,
            taper: vec![],
            slices: 1,
            slice_policy: SlicePolicy::default(),
        }
    }
}

impl From<DragonflyConfig> for TopologyConfig {
    fn from(df: DragonflyConfig) -> TopologyConfig {
        TopologyConfig::of(DRAGONFLY.name, &df)
    }
}

impl TopologyConfig {
    /// Dragonfly(p, a, h, g) as the paper builds it ([`DragonflyConfig::new`]).
    pub fn dragonfly(p: u32, a: u32, h: u32, g: u32) -> TopologyConfig {
        DragonflyConfig::new(p, a, h, g).into()
    }

    /// Its dragonfly parameters, if it is a dragonfly (whose parameters read).
    pub fn dragonfly_params(&self) -> Option<DragonflyConfig> {
        (self.type_name() == DRAGONFLY.name).then(|| self.read().ok()).flatten()
    }

    /// The same dragonfly as `slices` parallel copies whose nodes spread their packets by
    /// `policy` (channel slicing, §3.2); any other topology unchanged.
    pub fn sliced(self, slices: u32, policy: SlicePolicy) -> TopologyConfig {
        match self.dragonfly_params() {
            Some(df) => DragonflyConfig { slices, slice_policy: policy, ..df }.into(),
            None => self,
        }
    }
}

/// The dragonfly (dragonfly paper §3), with the variants of §3.2.
pub(crate) const DRAGONFLY: Declaration = Declaration {
    name: "dragonfly",
    family: Family::DRAGONFLY,
    description: "dragonfly (dragonfly paper §3): g groups of a routers, p terminals and h global channels per router",
    params: &[
        int("topology.p", "p (terminals/router)", 1.0, 64.0, "terminals per router"),
        int("topology.a", "a (routers/group)", 2.0, 64.0, "routers per group (fully connected, or the flattened butterfly of topology.intra)"),
        int("topology.h", "h (global/router)", 1.0, 64.0, "global channels per router"),
        int("topology.g", "g (groups)", 2.0, 1025.0, "groups, at most a·h + 1"),
        choice("topology.arrangement", "global arrangement", &["absolute", "palmtree"], "how global channels are wired"),
        triples("topology.taper", "tapering", 0.0, 1025.0, "bandwidth tapering (§3.2): [group, group, channels kept] entries, each keeping only that many of the channels between two groups"),
        opt_list("topology.intra", "group extents", 2.0, 256.0, "fully connected", "a flattened butterfly inside each group (§3.2, Fig. 6), e.g. [2,2,2] for a = 8; their product is a"),
        opt_list("topology.intra_trunking", "group trunking", 1.0, 8.0, "1", "parallel local channels between neighbouring routers in each dimension of the group (§3.2, Fig. 6(a)): one value, or one per dimension of topology.intra"),
        int("topology.slices", "slices", 1.0, 8.0, "channel slicing (§3.2): identical dragonflies in parallel, each node attached to every one; load and throughput are fractions of the node's channels together"),
        choice("topology.slice_policy", "slice policy", &["shortest_queue", "round_robin", "random", "shared_queue"], "the slice a node sends each packet on, whole (with slices > 1): its shortest source queue, in turn, at random, or (shared_queue) whichever can take the head of the node's one queue first"),
    ],
    default: || TopologyConfig::dragonfly(2, 4, 2, 9),
    canonical: canonical::<DragonflyConfig>,
    size: |cfg| {
        let DragonflyConfig { p, a, h, g, intra_trunking, slices, .. } = cfg.read().ok()?;
        // At most a − 1 neighbours, each on at most the widest trunking's channels.
        let trunk = intra_trunking.iter().flatten().copied().max().unwrap_or(1).max(1) as u64;
        let routers = (a as u64).checked_mul(g as u64)?.checked_mul(slices.max(1) as u64)?;
        let radix = (a as u64).saturating_sub(1).checked_mul(trunk)?.checked_add(p as u64 + h as u64)?;
        super::uniform_size(routers, radix, routers.checked_mul(p as u64)?)
    },
    build: |cfg| {
        let DragonflyConfig { p, a, h, g, arrangement, intra, intra_trunking, taper, slices, slice_policy } =
            cfg.read()?;
        const P: &str = "topology";
        let df = Dragonfly::with_groups(p, a, h, g, arrangement, intra.as_deref().unwrap_or_default(), P)?
            .trunked(intra_trunking.as_deref().unwrap_or(&[1]), P)?
            .sliced(slices, P)?
            .tapered(&taper, P)?;
        Ok(Topology::new(Dragonfly { slice_policy, ..df }))
    },
};

#[derive(Clone, Debug)]
pub struct Dragonfly {
    pub p: u32,
    pub a: u32,
    pub h: u32,
    pub g: u32,
    pub arrangement: GlobalArrangement,
    /// Extents of the intra-group flattened butterfly (`[a]`: fully connected).
    pub intra: Vec<u32>,
    /// Parallel local channels between neighbours in each of its dimensions (Fig. 6(a)).
    pub intra_trunking: Vec<u32>,
    /// First local port (after the terminals) of each intra-group dimension, and the
    /// number of local ports in all.
    intra_offset: Vec<u32>,
    local_ports: u32,
    /// Global slots removed by tapering (§3.2), `absent[G·ah + c]`; empty without.
    absent: Vec<bool>,
    /// Peer group of every global slot: `slot_group[G·ah + c]`.
    slot_group: Vec<u32>,
    /// For every ordered group pair `(G, T)`: the slots of `G` wired to `T`, in CSR form
    /// (`pair_start[G·g + T] .. pair_start[G·g + T + 1]` indexes `pair_slots`).
    pair_start: Vec<u32>,
    pair_slots: Vec<u32>,
    /// Every router's (group, index in group): routing asks at every hop, and a table
    /// lookup is cheaper than the two divisions by `a`.
    group_index: Vec<(u32, u32)>,
    /// Parallel dragonflies (channel slicing, §3.2), 1 without.
    pub slices: u32,
    /// How a node of a sliced network spreads its packets over the slices.
    pub slice_policy: SlicePolicy,
    net: Network,
}

impl BuiltTopology for Dragonfly {
    fn network(&self) -> &Network {
        &self.net
    }

    fn family(&self) -> Family {
        Family::DRAGONFLY
    }

    fn terminals_per_router(&self) -> u32 {
        self.p
    }

    fn absent_ports(&self) -> Vec<usize> {
        Dragonfly::absent_ports(self)
    }

    /// Each group is a block (numbered on through the slices of a sliced network).
    fn drawing_blocks(&self) -> (Vec<u32>, &'static str) {
        let routers = self.net.routers() as u32;
        ((0..routers).map(|r| self.group(r) + self.g * (r / (self.a * self.g))).collect(), "group")
    }

    fn groups(&self) -> Option<(u32, u32)> {
        Some((self.a * self.p, self.g))
    }

    fn slice_policy(&self) -> SlicePolicy {
        self.slice_policy
    }
}

impl Dragonfly {
    /// Builds Dragonfly(p, a, h, g) with fully connected groups; `path` prefixes error
    /// paths (e.g. `topology`).
    pub fn new(
        p: u32,
        a: u32,
        h: u32,
        g: u32,
        arrangement: GlobalArrangement,
        path: &str,
    ) -> Result<Dragonfly, ConfigErrors> {
        Self::with_groups(p, a, h, g, arrangement, &[], path)
    }

    /// Builds Dragonfly(p, a, h, g) whose groups are the flattened butterfly with extents
    /// `intra` (empty: fully connected, the same as `[a]`).
    pub(crate) fn with_groups(
        p: u32,
        a: u32,
        h: u32,
        g: u32,
        arrangement: GlobalArrangement,
        intra: &[u32],
        path: &str,
    ) -> Result<Dragonfly, ConfigErrors> {
        let mut errs = Vec::new();
        // Checked only when given: empty is a fully connected group, `[a]`.
        if intra.len() > 4 || intra.iter().any(|e| !(2..=256).contains(e)) {
            errs.push(ConfigError::new(
                format!("{path}.intra"),
                format!("the group's flattened butterfly needs 1..=4 extents of 2..=256, got {intra:?}"),
            ));
        } else if !intra.is_empty() && intra.iter().map(|&e| e as u64).product::<u64>() != a as u64 {
            errs.push(ConfigError::new(
                format!("{path}.intra"),
                format!("the extents' product must equal a = {a}, got {intra:?}"),
            ));
        }
        let intra: Vec<u32> = if intra.is_empty() { vec![a] } else { intra.to_vec() };
        let mut check = |ok: bool, field: &str, msg: String| {
            if !ok {
                errs.push(ConfigError::new(format!("{path}.{field}"), msg));
            }
        };
        // The declared ranges (checked before building) are within what the wiring relies on.
        assert!([p, a, h].iter().all(|x| (1..=256).contains(x)), "p = {p}, a = {a}, h = {h}: must be 1..=256");
        let max_g = a as u64 * h as u64 + 1;
        check(g >= 2 && g as u64 <= max_g, "g", format!("groups must be 2..=a·h+1 = {max_g}, got {g}"));
        if !errs.is_empty() {
            return Err(ConfigErrors(errs));
        }
        let ah = a * h;
        let rem = ah % (g - 1);
        if rem % 2 == 1 && g % 2 == 1 {
            return Err(ConfigErrors::one(
                format!("{path}.g"),
                format!("g·a·h = {} is odd, so the global channels cannot all be paired; choose an even g, or a·h + 1 groups", g as u64 * ah as u64),
            ));
        }
        let terminals = a as u64 * p as u64 * g as u64;
        if terminals > MAX_TERMINALS {
            return Err(ConfigErrors::one(
                path,
                format!("{terminals} terminals is larger than the simulator's limit of {MAX_TERMINALS}"),
            ));
        }
        let intra = if a == 1 { Vec::new() } else { intra };
        let intra_offset: Vec<u32> = intra.iter().scan(0, |o, &e| Some(std::mem::replace(o, *o + e - 1))).collect();
        let local_ports = intra.iter().map(|e| e - 1).sum::<u32>();
        let radix = p + local_ports + h;
        if radix > 1024 {
            return Err(ConfigErrors::one(path, format!("router radix p + local ports + h = {radix} exceeds 1024")));
        }
        let mut df = Dragonfly {
            p,
            a,
            h,
            g,
            arrangement,
            intra_trunking: vec![1; intra.len()],
            intra,
            intra_offset,
            local_ports,
            absent: Vec::new(),
            slot_group: Vec::new(),
            pair_start: Vec::new(),
            pair_slots: Vec::new(),
            group_index: (0..a * g).map(|r| (r / a, r % a)).collect(),
            slices: 1,
            slice_policy: SlicePolicy::default(),
            net: NetworkBuilder::new(0).finish(Vec::new()),
        };
        df.slot_group =
            (0..g).flat_map(|grp| (0..ah).map(move |c| (grp, c))).map(|(grp, c)| df.wire(grp, c).0).collect();
        df.index_pairs();
        df.net = df.build();
        Ok(df)
    }

    /// Trunking inside the groups (§3.2, Fig. 6(a)): `k_d` parallel local channels between
    /// the routers that differ in coordinate `d` — one value for every dimension, or one
    /// per dimension of `intra`; empty or all 1: single channels.
    pub(crate) fn trunked(mut self, trunking: &[u32], path: &str) -> Result<Dragonfly, ConfigErrors> {
        let (field, dims) = (format!("{path}.intra_trunking"), self.intra.len());
        // An all-ones list changes nothing, but it is still checked: a list of the wrong
        // length says the user meant another group.
        if trunking.iter().all(|&k| k == 1) && (trunking.len() == 1 || trunking.len() == dims) {
            return Ok(self);
        }
        if dims == 0 {
            return Err(ConfigErrors::one(field, "a = 1: a group has no local channels to trunk"));
        }
        if trunking.iter().any(|k| !(1..=8).contains(k)) || (trunking.len() != 1 && trunking.len() != dims) {
            return Err(ConfigErrors::one(
                field,
                format!("one value of 1..=8, or one per dimension of the group ({dims}), got {trunking:?}"),
            ));
        }
        self.intra_trunking = if trunking.len() == 1 { vec![trunking[0]; dims] } else { trunking.to_vec() };
        let widths: Vec<u32> = self.intra.iter().zip(&self.intra_trunking).map(|(e, k)| (e - 1) * k).collect();
        self.intra_offset = widths.iter().scan(0, |o, &w| Some(std::mem::replace(o, *o + w))).collect();
        self.local_ports = widths.iter().sum();
        let radix = self.p + self.local_ports + self.h;
        if radix > 1024 {
            return Err(ConfigErrors::one(field, format!("router radix p + local ports + h = {radix} exceeds 1024")));
        }
        self.net = self.build();
        Ok(self)
    }

    /// Channel slicing (§3.2): `slices` identical copies of the network side by side, every
    /// node attached to each; 1: one network.
    pub(crate) fn sliced(mut self, slices: u32, path: &str) -> Result<Dragonfly, ConfigErrors> {
        if slices == 1 {
            return Ok(self);
        }
        let field = format!("{path}.slices");
        assert!((1..=8).contains(&slices), "parallel networks must be 1..=8 (declared range), got {slices}");
        let interfaces = self.a as u64 * self.p as u64 * self.g as u64 * slices as u64;
        if interfaces > MAX_TERMINALS {
            return Err(ConfigErrors::one(
                field,
                format!(
                    "{interfaces} terminal channels in all is larger than the simulator's limit of {MAX_TERMINALS}"
                ),
            ));
        }
        self.slices = slices;
        let (a, routers) = (self.a, self.a * self.g);
        self.group_index = (0..routers * slices).map(|r| (r % routers / a, r % a)).collect();
        self.net = self.build();
        Ok(self)
    }

    /// The slots of every ordered group pair (present ones only), in CSR form.
    fn index_pairs(&mut self) {
        let (g, ah) = (self.g, self.a * self.h);
        let mut pair_start = Vec::with_capacity((g * g + 1) as usize);
        let mut pair_slots = Vec::with_capacity((g * ah) as usize);
        for grp in 0..g {
            for t in 0..g {
                pair_start.push(pair_slots.len() as u32);
                pair_slots.extend((0..ah).filter(|&c| {
                    let slot = (grp * ah + c) as usize;
                    self.slot_group[slot] == t && !self.absent.get(slot).copied().unwrap_or(false)
                }));
            }
        }
        pair_start.push(pair_slots.len() as u32);
        self.pair_start = pair_start;
        self.pair_slots = pair_slots;
    }

    /// Bandwidth tapering (§3.2: "removing inter-group channels among some of the
    /// groups"): each `[G1, G2, keep]` of `taper` keeps only the first `keep ≥ 1` (in slot
    /// order of `G1`) of the channels between groups `G1` and `G2`. The removed channels'
    /// ports stay in the port tables, wired but absent ([`Dragonfly::absent_ports`]):
    /// routing never sees them ([`Dragonfly::slots_between`] lists present channels only)
    /// and the engine treats them as links that have failed for good.
    pub(crate) fn tapered(mut self, taper: &[Vec<u32>], path: &str) -> Result<Dragonfly, ConfigErrors> {
        if taper.is_empty() {
            return Ok(self);
        }
        let (g, ah) = (self.g, self.a * self.h);
        let mut errs = Vec::new();
        self.absent = vec![false; (g * ah) as usize];
        for (i, entry) in taper.iter().enumerate() {
            if errs.len() >= 10 {
                break; // a long list of bad entries: the first ten say enough
            }
            let field = format!("{path}.taper[{i}]");
            let &[g1, g2, keep] = entry.as_slice() else {
                errs.push(ConfigError::new(field, format!("an entry is [group, group, channels kept], got {entry:?}")));
                continue;
            };
            if g1 >= g || g2 >= g || g1 == g2 {
                errs.push(ConfigError::new(
                    field,
                    format!("needs two different groups of 0 to {}, got {g1} and {g2}", g.saturating_sub(1)),
                ));
                continue;
            }
            if keep == 0 {
                errs.push(ConfigError::new(field, "must keep at least 1 channel (minimal routing needs one)"));
                continue;
            }
            let between = self.slots_between(g1, g2).len();
            if keep as usize > between {
                errs.push(ConfigError::new(
                    field,
                    format!("keeps {keep} channels, but groups {g1} and {g2} have {between} between them"),
                ));
                continue;
            }
            for c in self.slots_between(g1, g2).iter().skip(keep as usize).copied().collect::<Vec<_>>() {
                let (pg, pc) = self.wire(g1, c);
                self.absent[(g1 * ah + c) as usize] = true;
                self.absent[(pg * ah + pc) as usize] = true;
            }
        }
        if !errs.is_empty() {
            return Err(ConfigErrors(errs));
        }
        self.index_pairs();
        Ok(self)
    }

    /// Whether tapering removed slot `c` of group `grp`.
    #[inline]
    pub fn slot_absent(&self, grp: u32, c: u32) -> bool {
        self.absent.get((grp * self.a * self.h + c) as usize).copied().unwrap_or(false)
    }

    /// Port ids of the global channels tapering removed (both ends, in every slice).
    pub fn absent_ports(&self) -> Vec<usize> {
        let ah = self.a * self.h;
        let removed = (0..self.absent.len() as u32).filter(|&slot| self.absent[slot as usize]);
        removed
            .flat_map(|slot| (0..self.slices).map(move |s| (s, slot)))
            .map(|(s, slot)| {
                let (router, port) = self.slot_owner(slot / ah, slot % ah);
                self.net.port_id(self.slice_base(s) + router, port)
            })
            .collect()
    }

    /// Peer (group, slot) of slot `c` of group `grp`.
    fn wire(&self, grp: u32, c: u32) -> (u32, u32) {
        let (g, ah) = (self.g, self.a * self.h);
        let rounds = ah / (g - 1);
        let rem = ah % (g - 1);
        let base = rounds * (g - 1);
        if c < base {
            let (j, t) = (c / (g - 1), c % (g - 1));
            match self.arrangement {
                GlobalArrangement::Absolute => {
                    let peer = if t < grp { t } else { t + 1 };
                    let back = if grp < peer { grp } else { grp - 1 };
                    (peer, j * (g - 1) + back)
                }
                GlobalArrangement::Palmtree => {
                    let o = t + 1; // peer = G − o
                    let peer = (grp + g - o) % g;
                    (peer, j * (g - 1) + (g - o - 1))
                }
            }
        } else {
            let e = c - base;
            let odd_tail = rem % 2 == 1 && e == rem - 1;
            let (offset, back) = if odd_tail {
                (g / 2, e)
            } else if e.is_multiple_of(2) {
                (e / 2 + 1, e + 1)
            } else {
                (g - (e / 2 + 1), e - 1)
            };
            ((grp + offset) % g, base + back)
        }
    }

    fn build(&self) -> Network {
        let (p, a, h, g) = (self.p, self.a, self.h, self.g);
        let routers = a * g;
        let mut b = NetworkBuilder::new((routers * p * self.slices) as usize);
        for _ in 0..routers * self.slices {
            b.add_router(p + self.local_ports + h);
        }
        for s in 0..self.slices {
            self.build_slice(&mut b, s);
        }
        let positions = (0..routers * self.slices).map(|r| self.position(r)).collect();
        b.finish_sliced(positions, self.slices)
    }

    /// Wires the routers and terminals of slice `s` (one dragonfly).
    fn build_slice(&self, b: &mut NetworkBuilder, s: u32) {
        let (p, a, h) = (self.p, self.a, self.h);
        let (base, routers) = (self.slice_base(s), a * self.g);
        for r in base..base + routers {
            let (grp, i) = (self.group(r), self.index(r));
            for t in 0..p {
                b.attach_terminal(r * p + t, r, t);
            }
            // One channel to every in-group router differing in one coordinate.
            let mut stride = 1;
            for (d, &e) in self.intra.iter().enumerate() {
                let own = i / stride % e;
                for m in own + 1..e {
                    let j = i + (m - own) * stride;
                    let peer = base + grp * a + j;
                    let ((mine, trunks), (theirs, _)) = (self.local_link(i, j), self.local_link(j, i));
                    for t in 0..trunks {
                        b.connect((r, mine + t), (peer, theirs + t), LinkClass::Local, d as u16);
                    }
                }
                stride *= e;
            }
            for k in 0..h {
                let c = i * h + k;
                let (pg, pc) = self.wire(grp, c);
                // Wire each channel once, from its lower (group, slot) end.
                if (grp, c) < (pg, pc) {
                    let peer = base + pg * a + pc / h;
                    b.connect((r, self.global_port(k)), (peer, self.global_port(pc % h)), LinkClass::Global, 0);
                }
            }
        }
    }

    pub fn network(&self) -> &Network {
        &self.net
    }
    /// Routers in all slices.
    pub fn routers(&self) -> u32 {
        self.a * self.g * self.slices
    }
    /// The first router of slice `s` (routers `s·a·g ..`; [`Dragonfly::slot_owner`] and the
    /// group numbers are those of a slice).
    #[inline]
    pub(crate) fn slice_base(&self, s: u32) -> u32 {
        s * self.a * self.g
    }
    /// Group of a router.
    #[inline]
    pub fn group(&self, router: u32) -> u32 {
        self.group_index[router as usize].0
    }
    /// Index of a router inside its group.
    #[inline]
    pub(crate) fn index(&self, router: u32) -> u32 {
        self.group_index[router as usize].1
    }
    /// Local port of in-group router `i` towards in-group router `j ≠ i`: the (first)
    /// channel to `j` in a fully connected group, else of the first hop of the
    /// dimension-order route.
    #[inline]
    pub(crate) fn local_port(&self, i: u32, j: u32) -> u32 {
        self.local_link(i, j).0
    }
    /// [`Dragonfly::local_port`] and the number of parallel channels there (trunking,
    /// Fig. 6(a)): the channels of that hop are ports `first..first + trunks`.
    #[inline]
    pub(crate) fn local_link(&self, i: u32, j: u32) -> (u32, u32) {
        debug_assert_ne!(i, j);
        if let [k] = self.intra_trunking[..] {
            return (self.p + k * if j < i { j } else { j - 1 }, k);
        }
        let mut stride = 1;
        for ((&e, &offset), &k) in self.intra.iter().zip(&self.intra_offset).zip(&self.intra_trunking) {
            let (own, m) = (i / stride % e, j / stride % e);
            if own != m {
                return (self.p + offset + k * if m < own { m } else { m - 1 }, k);
            }
            stride *= e;
        }
        unreachable!("in-group routers {i} and {j} are the same")
    }
    /// Parallel channels of the local hop whose first channel is `port` (1 without
    /// trunking; `port` must be a local port).
    #[inline]
    pub(crate) fn local_trunks(&self, port: u32) -> u32 {
        let local = port - self.p;
        let dims = self.intra_offset.iter().zip(&self.intra_trunking);
        dims.take_while(|&(&offset, _)| offset <= local).last().map_or(1, |(_, &k)| k)
    }
    /// Whether any group has parallel local channels.
    #[inline]
    pub(crate) fn is_trunked(&self) -> bool {
        self.intra_trunking.iter().any(|&k| k > 1)
    }
    /// Local hops between in-group routers `i` and `j` (the coordinates in which they differ).
    #[inline]
    pub(crate) fn local_hops(&self, i: u32, j: u32) -> u32 {
        if self.intra.len() == 1 {
            return (i != j) as u32;
        }
        let mut stride = 1;
        let mut hops = 0;
        for &e in &self.intra {
            hops += (i / stride % e != j / stride % e) as u32;
            stride *= e;
        }
        hops
    }
    /// Whether in-group routers `i` and `j` have the same coordinates in the group's first
    /// `dims` dimensions.
    #[inline]
    pub(crate) fn agree(&self, i: u32, j: u32, dims: usize) -> bool {
        let mut stride = 1;
        for &e in self.intra.iter().take(dims) {
            if i / stride % e != j / stride % e {
                return false;
            }
            stride *= e;
        }
        true
    }
    /// Local channels per router.
    #[inline]
    pub fn local_ports(&self) -> u32 {
        self.local_ports
    }
    /// Port of global channel `k` (0..h).
    #[inline]
    pub(crate) fn global_port(&self, k: u32) -> u32 {
        self.p + self.local_ports + k
    }
    /// Whether a port number is a global port.
    #[inline]
    pub(crate) fn is_global_port(&self, port: u32) -> bool {
        port >= self.p + self.local_ports
    }
    /// The slots of group `grp` wired to group `target` (empty if `grp == target`).
    #[inline]
    pub fn slots_between(&self, grp: u32, target: u32) -> &[u32] {
        let i = (grp * self.g + target) as usize;
        &self.pair_slots[self.pair_start[i] as usize..self.pair_start[i + 1] as usize]
    }
    /// (router, global port) owning slot `c` of group `grp` (in slice 0).
    #[inline]
    pub fn slot_owner(&self, grp: u32, c: u32) -> (u32, u32) {
        (grp * self.a + c / self.h, self.global_port(c % self.h))
    }
    /// Group the global port `k` of `router` leads to.
    #[inline]
    pub fn global_peer_group(&self, router: u32, k: u32) -> u32 {
        self.slot_group[((self.group(router) * self.a + self.index(router)) * self.h + k) as usize]
    }
    /// Number of global channels between two different groups.
    pub fn links_between(&self, a: u32, b: u32) -> u32 {
        self.slots_between(a, b).len() as u32
    }

    /// Drawing position: groups on a circle, routers on a small circle inside each group;
    /// slices side by side, each scaled into its column.
    fn position(&self, r: u32) -> [f32; 2] {
        let [x, y] = self.position_in_slice(r);
        let (s, n) = ((r / (self.a * self.g)) as f32, self.slices as f32);
        [(s + x) / n, 0.5 + (y - 0.5) / n]
    }

    fn position_in_slice(&self, r: u32) -> [f32; 2] {
        use std::f32::consts::{FRAC_PI_2, PI, TAU};
        let (grp, i) = (self.group(r), self.index(r));
        let big = 0.36f32;
        let ga = TAU * grp as f32 / self.g as f32 - FRAC_PI_2;
        let (cx, cy) = (0.5 + big * ga.cos(), 0.5 + big * ga.sin());
        let small = (0.8 * big * (PI / self.g as f32).sin()).min(0.12);
        if self.a == 1 {
            return [cx, cy];
        }
        // Routers start on the side facing the centre, so global links leave outwards evenly.
        let ra = ga + PI + TAU * (i as f32 + 0.5) / self.a as f32;
        [cx + small * ra.cos(), cy + small * ra.sin()]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn df(p: u32, a: u32, h: u32, g: u32, arr: GlobalArrangement) -> Dragonfly {
        Dragonfly::new(p, a, h, g, arr, "topology").unwrap()
    }

    fn check_structure(d: &Dragonfly) {
        let net = d.network();
        assert_eq!(net.terminals() as u32, d.p * d.a * d.g);
        assert_eq!(net.routers() as u32, d.a * d.g);
        let mut pair = vec![0u32; (d.g * d.g) as usize];
        for (r, port, q, qp) in net.channels() {
            let back = net.port(q, qp);
            assert_eq!((back.peer_router, back.peer_port), (r, port));
            let class = net.port(r, port).class;
            if d.group(r) == d.group(q) {
                assert_eq!(class, LinkClass::Local);
                assert!(!d.is_global_port(port));
            } else {
                assert_eq!(class, LinkClass::Global);
                assert!(d.is_global_port(port));
                assert_eq!(d.global_peer_group(r, port - d.global_port(0)), d.group(q));
                pair[(d.group(r) * d.g + d.group(q)) as usize] += 1;
            }
        }
        let ah = d.a * d.h;
        let at_least = ah / (d.g - 1);
        for x in 0..d.g {
            for y in 0..d.g {
                let n = pair[(x * d.g + y) as usize];
                if x == y {
                    assert_eq!(n, 0);
                } else {
                    assert!(n == at_least || n == at_least + 1, "groups {x},{y}: {n} links");
                    assert_eq!(n, d.links_between(x, y));
                    for &c in d.slots_between(x, y) {
                        let (router, port) = d.slot_owner(x, c);
                        assert_eq!(d.group(net.port(router, port).peer_router), y);
                    }
                }
            }
        }
        // Intra-group: every local route reaches its router in `local_hops` hops.
        for r in 0..d.routers() {
            for j in 0..d.a {
                let (mut at, mut hops) = (r, 0);
                while d.index(at) != j {
                    let (port, trunks) = d.local_link(d.index(at), j);
                    assert_eq!(port, d.local_port(d.index(at), j));
                    assert!(!d.is_global_port(port + trunks - 1) && port >= d.p);
                    assert_eq!(d.local_trunks(port), trunks);
                    // Every parallel channel of the hop leads to the same router.
                    let peer = net.port(at, port).peer_router;
                    assert!((port..port + trunks).all(|q| net.port(at, q).peer_router == peer));
                    at = peer;
                    assert_eq!(d.group(at), d.group(r));
                    hops += 1;
                }
                assert_eq!(hops, d.local_hops(d.index(r), j));
                if d.intra.len() == 1 && j != d.index(r) {
                    assert_eq!(hops, 1, "fully connected");
                }
            }
        }
        for pos in &net.positions {
            assert!(pos.iter().all(|&v| (0.0..=1.0).contains(&v)), "{pos:?}");
        }
    }

    /// Fig. 6(a): parallel local channels per dimension, on consecutive ports; the radix
    /// grows by them; bad trunkings are refused naming the field.
    #[test]
    fn trunked_groups() {
        let fb = |intra: &[u32], trunking: &[u32]| {
            Dragonfly::with_groups(2, 8, 2, 17, GlobalArrangement::Absolute, intra, "topology")
                .and_then(|d| d.trunked(trunking, "topology"))
        };
        let d = fb(&[2, 4], &[1, 2]).unwrap();
        check_structure(&d);
        assert_eq!((d.local_ports(), d.intra_trunking.clone()), (1 + 2 * 3, vec![1, 2]));
        assert_eq!(d.network().radix(0), 2 + 7 + 2);
        let full = fb(&[], &[3]).unwrap();
        check_structure(&full);
        assert_eq!(full.local_ports(), 3 * 7);
        assert!(fb(&[2, 4], &[1]).unwrap().local_ports() == 1 + 3 && !fb(&[2, 4], &[1, 1]).unwrap().is_trunked());
        // A list of the wrong length is refused even when it changes nothing.
        for bad in [&[1, 2, 3][..], &[0], &[9], &[], &[1, 1, 1]] {
            let e = fb(&[2, 4], bad).unwrap_err();
            assert_eq!(e.0[0].path, "topology.intra_trunking", "{bad:?}: {e}");
        }
    }

    /// The absolute arrangement: slot c = r·h + k of group G connects to group c (c < G) or c + 1.
    #[test]
    fn absolute_arrangement_slot_rule() {
        let d = df(2, 4, 2, 9, GlobalArrangement::Absolute);
        check_structure(&d);
        for grp in 0..9 {
            for c in 0..8 {
                let want = if c < grp { c } else { c + 1 };
                assert_eq!(d.global_peer_group(grp * 4 + c / 2, c % 2), want);
            }
        }
        // The paper's 1K network: radix 15, 1056 terminals.
        let big = df(4, 8, 4, 33, GlobalArrangement::Absolute);
        check_structure(&big);
        assert_eq!(big.network().terminals(), 1056);
        assert_eq!(big.network().radix(0), 15);
    }

    #[test]
    fn palmtree_and_smaller_g() {
        let d = df(2, 4, 2, 9, GlobalArrangement::Palmtree);
        check_structure(&d);
        for grp in 0..9 {
            for c in 0..8 {
                assert_eq!(d.global_peer_group(grp * 4 + c / 2, c % 2), (grp + 9 - c - 1) % 9);
            }
        }
        for arr in [GlobalArrangement::Absolute, GlobalArrangement::Palmtree] {
            for (a, h, g) in [(4, 2, 5), (4, 2, 4), (4, 2, 2), (4, 2, 6), (8, 4, 9), (8, 4, 12), (3, 3, 4), (2, 1, 3)] {
                check_structure(&df(1, a, h, g, arr));
            }
        }
    }

    /// Fig. 6(b): a 3-D flattened butterfly (a cube) inside each group; and a 2-D one.
    #[test]
    fn flattened_butterfly_groups() {
        for intra in [vec![2, 2, 2], vec![2, 4], vec![4, 2]] {
            for g in [17, 9, 4] {
                let d = Dragonfly::with_groups(2, 8, 2, g, GlobalArrangement::Absolute, &intra, "topology").unwrap();
                check_structure(&d);
                let local: u32 = intra.iter().map(|e| e - 1).sum();
                assert_eq!(d.network().radix(0), 2 + local + 2);
                assert_eq!(
                    d.network().channels().filter(|c| d.group(c.0) == d.group(c.2)).count() as u32,
                    g * 8 * local
                );
            }
        }
        let e = Dragonfly::with_groups(2, 8, 2, 17, GlobalArrangement::Absolute, &[2, 3], "topology").unwrap_err();
        assert_eq!(e.0[0].path, "topology.intra");
        let e = Dragonfly::with_groups(2, 8, 2, 17, GlobalArrangement::Absolute, &[1, 8], "topology").unwrap_err();
        assert_eq!(e.0[0].path, "topology.intra");
    }

    #[test]
    fn bad_parameters_are_errors() {
        let e = Dragonfly::new(2, 4, 2, 10, GlobalArrangement::Absolute, "topology").unwrap_err();
        assert_eq!(e.0[0].path, "topology.g");
        let e = Dragonfly::new(1, 3, 1, 3, GlobalArrangement::Absolute, "topology").unwrap_err();
        assert_eq!(e.0[0].path, "topology.g", "{e}");
        assert!(
            std::panic::catch_unwind(|| Dragonfly::new(0, 4, 2, 9, GlobalArrangement::Absolute, "topology")).is_err()
        );
        assert!(Dragonfly::new(2, 4, 2, 1, GlobalArrangement::Absolute, "topology").is_err());
    }
}
