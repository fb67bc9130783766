//! HyperX (HyperX paper §3) and its named instances.
//!
//! Switches sit on an L-dimensional lattice with extents `S = (S1..SL)`; each dimension
//! is fully connected, with `Kk` parallel links between two switches that differ only in
//! dimension k, and `T` terminals per switch. Named instances (HyperX paper §3):
//! - the flattened butterfly k-ary n-flat is HyperX(L = n−1, S = k, K = 1, T = k);
//! - the 2-dilated flattened butterfly is the same with K = 2 (2DFB paper §II);
//! - the hypercube is HyperX(S = 2, K = 1, T = 1).
//!
//! Numbering follows eq. (1) of the FB paper: switch `i` has coordinate
//! `x_d = ⌊i / (S1·…·S(d−1))⌋ mod Sd` in dimension d (dimension 1 least significant), and
//! terminal `i·T + t` is terminal `t` of switch `i` (digit 0 of the node address).
//!
//! Port layout of every switch: ports `0..T` are terminals, then for each dimension d in
//! order, for each other coordinate m of that dimension in increasing order, `Kd` trunk
//! ports.

use super::graph::{LinkClass, Network, NetworkBuilder};
use super::{canonical, uniform_size, BuiltTopology, Declaration, Topology};
use crate::config::schema::{int, list, Family, Param};
use crate::config::{ConfigError, ConfigErrors, TopologyConfig};
use serde::{Deserialize, Serialize};

impl Family {
    /// HyperX and its instances: flattened butterfly, 2-dilated FB, hypercube.
    pub const HYPERX: Family = Family::new("hyperx");
}

/// The parameters of a k-ary n-flat (flattened butterfly and 2DFB).
#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct Flat {
    k: u32,
    n: u32,
}

/// The ranges of a k-ary n-flat's parameters.
const FLAT_PARAMS: &[Param] = &[
    int("topology.k", "k (ary)", 2.0, 64.0, "terminals per router and routers per dimension"),
    int("topology.n", "n (flat)", 2.0, 16.0, "n − 1 dimensions (FB Fig. 12 goes to n = 12)"),
];

/// Size of a k-ary n-flat with `dilation` links per router pair.
fn flat_size(Flat { k, n }: Flat, dilation: u64) -> Option<(u64, u64, u64)> {
    let radix = (n as u64).checked_sub(1)?.checked_mul(dilation * (k as u64).checked_sub(1)?)?.checked_add(k as u64)?;
    uniform_size((k as u64).checked_pow(n.checked_sub(1)?)?, radix, (k as u64).checked_pow(n)?)
}

/// The k-ary n-flat (FB paper §2).
pub(crate) const FLATTENED_BUTTERFLY: Declaration = Declaration {
    name: "flattened_butterfly",
    family: Family::HYPERX,
    description: "k-ary n-flat (FB paper §2): k^(n−1) routers of radix n(k−1)+1, k terminals each",
    params: FLAT_PARAMS,
    default: || TopologyConfig::flattened_butterfly(8, 2),
    canonical: canonical::<Flat>,
    size: |cfg| flat_size(cfg.read().ok()?, 1),
    build: |cfg| {
        let Flat { k, n } = cfg.read()?;
        Ok(Topology::new(HyperX::flattened_butterfly(k, n, "topology")?))
    },
};

/// The 2-dilated flattened butterfly (2DFB paper §II).
pub(crate) const DILATED_FLATTENED_BUTTERFLY: Declaration = Declaration {
    name: "dilated_flattened_butterfly",
    family: Family::HYPERX,
    description: "2-dilated flattened butterfly (2DFB paper §II): a k-ary n-flat with two links per router pair",
    params: FLAT_PARAMS,
    default: || TopologyConfig::dilated_flattened_butterfly(8, 2),
    canonical: canonical::<Flat>,
    size: |cfg| flat_size(cfg.read().ok()?, 2),
    build: |cfg| {
        let Flat { k, n } = cfg.read()?;
        Ok(Topology::new(HyperX::flat(k, n, 2, "topology")?))
    },
};

/// The parameters of a HyperX.
#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct Lattice {
    s: Vec<u32>,
    k: Vec<u32>,
    t: u32,
}

/// HyperX (HyperX paper §3).
pub(crate) const HYPERX: Declaration = Declaration {
    name: "hyperx",
    family: Family::HYPERX,
    description: "HyperX (HyperX paper §3): lattice with extents S, trunking K, T terminals per switch",
    params: &[
        list("topology.s", "S (extents)", 2.0, 256.0, "switches per dimension, e.g. [8,8,8]"),
        list(
            "topology.k",
            "K (trunking)",
            1.0,
            8.0,
            "parallel links per neighbour pair: one value or one per dimension",
        ),
        int("topology.t", "T (terminals)", 1.0, 256.0, "terminals per switch"),
    ],
    default: || TopologyConfig::hyperx(vec![4, 4, 4], vec![1], 4),
    canonical: canonical::<Lattice>,
    size: |cfg| {
        let Lattice { s, k, t } = cfg.read().ok()?;
        // A trunking list of the wrong length is the build's error to report; the
        // estimate takes the largest value for every dimension.
        let widest = k.iter().copied().max().unwrap_or(1);
        let trunk = |d: usize| Some(if k.len() == s.len() { k[d] } else { widest });
        let routers = s.iter().try_fold(1u64, |acc, &x| acc.checked_mul(x as u64))?;
        let links = s.iter().enumerate().try_fold(0u64, |acc, (d, &x)| {
            acc.checked_add((trunk(d)? as u64).checked_mul((x as u64).checked_sub(1)?)?)
        })?;
        uniform_size(routers, links.checked_add(t as u64)?, routers.checked_mul(t as u64)?)
    },
    build: |cfg| {
        let Lattice { s, k, t } = cfg.read()?;
        Ok(Topology::new(HyperX::new(&s, &k, t, "topology")?))
    },
};

/// The parameters of a hypercube.
#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct Cube {
    n: u32,
}

/// The binary n-cube (HyperX with S = 2, K = 1, T = 1).
pub(crate) const HYPERCUBE: Declaration = Declaration {
    name: "hypercube",
    family: Family::HYPERX,
    description: "binary n-cube with one terminal per router (HyperX with S = 2, K = 1, T = 1)",
    params: &[int("topology.n", "n (dimensions)", 1.0, 16.0, "2^n routers")],
    default: || TopologyConfig::hypercube(6),
    canonical: canonical::<Cube>,
    size: |cfg| {
        let Cube { n } = cfg.read().ok()?;
        let routers = 2u64.checked_pow(n)?;
        uniform_size(routers, n as u64 + 1, routers)
    },
    build: |cfg| {
        let Cube { n } = cfg.read()?;
        Ok(Topology::new(HyperX::new(&vec![2; n as usize], &[1], 1, "topology")?))
    },
};

impl TopologyConfig {
    /// The k-ary n-flat (FB paper §2).
    pub fn flattened_butterfly(k: u32, n: u32) -> TopologyConfig {
        TopologyConfig::of(FLATTENED_BUTTERFLY.name, &Flat { k, n })
    }

    /// The 2-dilated k-ary n-flat (2DFB paper §II).
    pub fn dilated_flattened_butterfly(k: u32, n: u32) -> TopologyConfig {
        TopologyConfig::of(DILATED_FLATTENED_BUTTERFLY.name, &Flat { k, n })
    }

    /// HyperX (HyperX paper §3): per-dimension extents `s`, trunking `k` (one value for all
    /// dimensions or one per dimension), `t` terminals per switch.
    pub fn hyperx(s: Vec<u32>, k: Vec<u32>, t: u32) -> TopologyConfig {
        TopologyConfig::of(HYPERX.name, &Lattice { s, k, t })
    }

    /// The binary n-cube: 2^n routers, one terminal each.
    pub fn hypercube(n: u32) -> TopologyConfig {
        TopologyConfig::of(HYPERCUBE.name, &Cube { n })
    }

    /// The extents `S` of a HyperX configuration (not of its named instances), if it is one.
    pub(crate) fn hyperx_extents(&self) -> Option<Vec<u32>> {
        (self.type_name() == HYPERX.name).then(|| self.read::<Lattice>().ok()).flatten().map(|l| l.s)
    }
}

#[derive(Clone, Debug)]
pub struct HyperX {
    pub s: Vec<u32>,
    pub k: Vec<u32>,
    pub t: u32,
    /// Numbering and port layout of every dimension, in one record so that routing reads
    /// a dimension's numbers with one bounds check.
    layout: Vec<DimLayout>,
    /// Coordinate of every router in every dimension (`router · L + d`; S ≤ 256): routing
    /// reads coordinates at every hop, and a table lookup beats two divisions.
    coords: Vec<u8>,
    net: Network,
}

/// How one dimension `d` is numbered and wired (see the module documentation).
#[derive(Clone, Copy, Debug)]
pub(crate) struct DimLayout {
    /// Extent `S_d`: coordinates `0..extent`.
    pub extent: u32,
    /// Parallel links `K_d` between two switches that differ only in this dimension.
    pub trunks: u32,
    /// Router-number weight of the coordinate, `S_1·…·S_(d−1)` (FB paper eq. 1).
    pub stride: u32,
    /// First port of the dimension; its `(extent − 1)·trunks` ports follow.
    pub first_port: u32,
}

impl DimLayout {
    /// Number of ports of the dimension at every switch.
    #[inline]
    pub(crate) fn ports(&self) -> u32 {
        (self.extent - 1) * self.trunks
    }
    /// First trunk port towards coordinate `m` from a switch at coordinate `own ≠ m`:
    /// the other coordinates in increasing order, `trunks` ports each.
    #[inline]
    pub(crate) fn port_toward(&self, own: u32, m: u32) -> u32 {
        debug_assert_ne!(m, own);
        self.first_port + (m - (m > own) as u32) * self.trunks
    }
    /// The coordinate port `port` of this dimension leads to from a switch at `own`
    /// (the inverse of [`DimLayout::port_toward`]).
    #[inline]
    pub(crate) fn coord_of_port(&self, own: u32, port: u32) -> u32 {
        let j = (port - self.first_port) / self.trunks;
        j + (j >= own) as u32
    }
}

/// Largest network the simulator builds (terminals), to keep memory bounded.
pub(crate) const MAX_TERMINALS: u64 = 1 << 17;

impl BuiltTopology for HyperX {
    fn network(&self) -> &Network {
        &self.net
    }

    fn family(&self) -> Family {
        Family::HYPERX
    }

    fn terminals_per_router(&self) -> u32 {
        self.t
    }

    /// With more than two dimensions, each tile of the first two is drawn as a block.
    fn drawing_blocks(&self) -> (Vec<u32>, &'static str) {
        if self.dims() <= 2 {
            return (vec![0; self.net.routers()], "");
        }
        let inner = self.s[0] * self.s[1];
        ((0..self.net.routers() as u32).map(|r| r / inner).collect(), "tile")
    }
}

impl HyperX {
    /// Builds HyperX(L = s.len(), S = s, K = k, T = t); `k` may hold one value for all
    /// dimensions. `path` prefixes error paths (e.g. `topology`).
    pub fn new(s: &[u32], k: &[u32], t: u32, path: &str) -> Result<HyperX, ConfigErrors> {
        let mut errs = Vec::new();
        if s.is_empty() || s.len() > 16 {
            errs.push(ConfigError::new(format!("{path}.s"), format!("needs 1..=16 dimensions, got {}", s.len())));
        }
        // The declared ranges (checked before building) are what the lattice relies on.
        assert!(s.iter().all(|sd| (2..=256).contains(sd)), "extents must be 2..=256, got {s:?}");
        let k: Vec<u32> = match k.len() {
            1 => vec![k[0]; s.len()],
            n if n == s.len() => k.to_vec(),
            n => {
                errs.push(ConfigError::new(
                    format!("{path}.k"),
                    format!("needs 1 or {} values (one per dimension), got {n}", s.len()),
                ));
                vec![1; s.len()]
            }
        };
        assert!(k.iter().all(|kd| (1..=8).contains(kd)), "trunking must be 1..=8, got {k:?}");
        assert!((1..=256).contains(&t), "terminals per switch must be 1..=256, got {t}");
        if !errs.is_empty() {
            return Err(ConfigErrors(errs));
        }
        let routers: u64 = s.iter().map(|&x| x as u64).product();
        let terminals = routers * t as u64;
        if terminals > MAX_TERMINALS || routers > 65536 {
            return Err(ConfigErrors::one(path, format!("{terminals} terminals on {routers} switches is larger than the simulator's limit of {MAX_TERMINALS} terminals")));
        }
        let radix = t + s.iter().zip(&k).map(|(&sd, &kd)| (sd - 1) * kd).sum::<u32>();
        if radix > 1024 {
            return Err(ConfigErrors::one(path, format!("switch radix {radix} exceeds 1024")));
        }
        let mut layout = Vec::with_capacity(s.len());
        let (mut stride, mut first_port) = (1u32, t);
        for (&extent, &trunks) in s.iter().zip(&k) {
            layout.push(DimLayout { extent, trunks, stride, first_port });
            stride *= extent;
            first_port += (extent - 1) * trunks;
        }
        let coords = (0..routers as u32)
            .flat_map(|r| layout.iter().map(move |dim| ((r / dim.stride) % dim.extent) as u8))
            .collect();
        let mut hx = HyperX { s: s.to_vec(), k, t, layout, coords, net: NetworkBuilder::new(0).finish_empty() };
        hx.net = hx.build(routers as u32, radix);
        Ok(hx)
    }

    /// The k-ary n-flat of the FB paper.
    pub fn flattened_butterfly(k: u32, n: u32, path: &str) -> Result<HyperX, ConfigErrors> {
        HyperX::flat(k, n, 1, path)
    }

    /// The k-ary n-flat with `dilation` links between every two neighbours (2: the 2DFB).
    fn flat(k: u32, n: u32, dilation: u32, path: &str) -> Result<HyperX, ConfigErrors> {
        assert!(n >= 2, "a k-ary n-flat needs n ≥ 2 (n' = n − 1 ≥ 1 dimensions), got {n}");
        HyperX::new(&vec![k; (n - 1) as usize], &[dilation], k, path)
    }

    fn build(&self, routers: u32, radix: u32) -> Network {
        let mut b = NetworkBuilder::new((routers * self.t) as usize);
        for _ in 0..routers {
            b.add_router(radix);
        }
        for r in 0..routers {
            for t in 0..self.t {
                b.attach_terminal(r * self.t + t, r, t);
            }
            for d in 0..self.dims() {
                let own = self.coord(r, d);
                for m in own + 1..self.s[d] {
                    let peer = self.neighbor(r, d, m);
                    for trunk in 0..self.k[d] {
                        b.connect(
                            (r, self.port_to(r, d, m, trunk)),
                            (peer, self.port_to(peer, d, own, trunk)),
                            LinkClass::Local,
                            d as u16,
                        );
                    }
                }
            }
        }
        b.finish((0..routers).map(|r| self.position(r)).collect())
    }

    pub fn network(&self) -> &Network {
        &self.net
    }
    pub(crate) fn dims(&self) -> usize {
        self.s.len()
    }
    pub fn routers(&self) -> u32 {
        self.net.routers() as u32
    }
    /// Coordinate of `router` in dimension `d` (0-based dimension index).
    #[inline]
    pub fn coord(&self, router: u32, d: usize) -> u32 {
        self.coords[router as usize * self.layout.len() + d] as u32
    }
    /// Every coordinate of `router`, dimension 0 first: loops over the dimensions zip it
    /// with [`HyperX::layout`] and read it without further bounds checks.
    #[inline]
    pub(crate) fn coords(&self, router: u32) -> &[u8] {
        let dims = self.layout.len();
        &self.coords[router as usize * dims..][..dims]
    }
    /// Numbering and port layout of every dimension, dimension 0 first.
    #[inline]
    pub(crate) fn layout(&self) -> &[DimLayout] {
        &self.layout
    }
    /// The switch that equals `router` except for coordinate `m` in dimension `d`.
    #[inline]
    pub(crate) fn neighbor(&self, router: u32, d: usize, m: u32) -> u32 {
        let stride = self.layout[d].stride;
        router - self.coord(router, d) * stride + m * stride
    }
    /// Port of `router` towards coordinate `m ≠ own` in dimension `d`, trunk `trunk`.
    #[inline]
    pub fn port_to(&self, router: u32, d: usize, m: u32, trunk: u32) -> u32 {
        self.layout[d].port_toward(self.coord(router, d), m) + trunk
    }
    /// First port of dimension `d` and the number of ports in it.
    #[inline]
    pub(crate) fn dim_ports(&self, d: usize) -> (u32, u32) {
        let dim = &self.layout[d];
        (dim.first_port, dim.ports())
    }
    /// Router a terminal belongs to.
    #[inline]
    pub(crate) fn router_of(&self, terminal: u32) -> u32 {
        terminal / self.t
    }
    /// Number of dimensions in which two routers differ (minimal hop count).
    #[inline]
    pub fn distance(&self, a: u32, b: u32) -> u32 {
        self.coords(a).iter().zip(self.coords(b)).filter(|(x, y)| x != y).count() as u32
    }
    /// Highest dimension in which `a` and `b` differ.
    #[inline]
    pub(crate) fn highest_offset_dim(&self, a: u32, b: u32) -> Option<usize> {
        self.coords(a).iter().zip(self.coords(b)).rposition(|(x, y)| x != y)
    }

    /// Drawing position: dimension 1 along x and dimension 2 along y inside a tile; the
    /// remaining dimensions tile those grids. A 1-D network is drawn as a ring.
    fn position(&self, r: u32) -> [f32; 2] {
        if self.dims() == 1 {
            let a = std::f32::consts::TAU * r as f32 / self.s[0] as f32 - std::f32::consts::FRAC_PI_2;
            return [0.5 + 0.42 * a.cos(), 0.5 + 0.42 * a.sin()];
        }
        let (x, y) = self.nested(r);
        [x, y]
    }

    /// Nested grid: lower dimensions are the inner grid, with a gap between tiles.
    fn nested(&self, r: u32) -> (f32, f32) {
        let mut pos = [0.0f32; 2];
        let mut size = [1.0f32; 2];
        for d in (0..self.dims()).rev() {
            let axis = d % 2;
            let cell = size[axis] / self.s[d] as f32;
            pos[axis] += cell * self.coord(r, d) as f32;
            size[axis] = cell * if d >= 2 { 0.85 } else { 1.0 };
        }
        (0.05 + 0.9 * (pos[0] + size[0] / 2.0), 0.05 + 0.9 * (pos[1] + size[1] / 2.0))
    }
}

impl NetworkBuilder {
    fn finish_empty(self) -> Network {
        self.finish(Vec::new())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// FB paper eq. (1) and Fig. 1(d): in the 2-ary 4-flat, R4' connects to R5' in
    /// dimension 1, R6' in dimension 2 and R0' in dimension 3.
    #[test]
    fn fb_numbering_matches_eq1() {
        let fb = HyperX::flattened_butterfly(2, 4, "topology").unwrap();
        assert_eq!(fb.routers(), 8);
        let peers: Vec<u32> = (0..3).map(|d| fb.neighbor(4, d, 1 - fb.coord(4, d))).collect();
        assert_eq!(peers, vec![5, 6, 0]);
        // eq. (1) for a 4-ary 3-flat, every router and dimension.
        let fb = HyperX::flattened_butterfly(4, 3, "topology").unwrap();
        let k = 4u32;
        for i in 0..fb.routers() {
            for d in 1..=2u32 {
                let kd = k.pow(d - 1);
                let mut expected: Vec<u32> = (0..k)
                    .map(|m| (i as i64 + (m as i64 - ((i / kd) % k) as i64) * kd as i64) as u32)
                    .filter(|&j| j != i)
                    .collect();
                expected.sort();
                let net = fb.network();
                let (base, n) = fb.dim_ports(d as usize - 1);
                let mut got: Vec<u32> = (base..base + n).map(|p| net.port(i, p).peer_router).collect();
                got.sort();
                assert_eq!(got, expected, "router {i} dim {d}");
            }
        }
    }

    #[test]
    fn sizes_and_radix() {
        let fb = HyperX::flattened_butterfly(32, 2, "t").unwrap();
        assert_eq!(fb.network().terminals(), 1024);
        assert_eq!(fb.network().radix(0), 63); // k' = n(k−1)+1
        let dil = HyperX::new(&[8, 8], &[2], 8, "t").unwrap();
        assert_eq!(dil.network().radix(0), 8 + 2 * 7 * 2);
        let cube = HyperX::new(&[2; 6], &[1], 1, "t").unwrap();
        assert_eq!(cube.network().routers(), 64);
        // Every channel is symmetric.
        for hx in [&fb, &dil, &cube] {
            let net = hx.network();
            for (r, p, q, qp) in net.channels() {
                let back = net.port(q, qp);
                assert_eq!((back.peer_router, back.peer_port), (r, p));
            }
        }
    }

    #[test]
    fn bad_parameters_are_errors() {
        assert!(HyperX::new(&[4, 4], &[1, 1, 1], 4, "topology").unwrap_err().0[0].path == "topology.k");
        assert!(HyperX::new(&[256, 256, 256], &[1], 8, "topology").is_err());
    }

    /// Values outside the declared ranges never reach the builder: it asserts them.
    #[test]
    fn out_of_range_parameters_are_asserted() {
        assert!(std::panic::catch_unwind(|| HyperX::new(&[1, 4], &[1], 4, "topology")).is_err());
        assert!(std::panic::catch_unwind(|| HyperX::flattened_butterfly(4, 1, "topology")).is_err());
    }
}
