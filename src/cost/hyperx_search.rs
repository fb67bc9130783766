//! The HyperX design search of Ahn et al., SC 2009, §3.1–§3.2, and the switch-count
//! comparison with the folded Clos of §4.2 (Fig. 8).
//!
//! # The problem (§3.1)
//!
//! Given the number of terminals `N`, the switch radix `R` and a minimum relative bisection
//! bandwidth `B`, find a HyperX — dimension `L`, shape `S = (S1..SL)`, trunking
//! `K = (K1..KL)`, terminals per switch `T` — that satisfies
//!
//! - eq. (2), ports: `T + Σ Kk(Sk − 1) ≤ R`;
//! - eq. (3), size: `T · Π Sk ≥ N`;
//! - eq. (4), bisection: `β = min(Kk·Sk) / 2T ≥ B`;
//! - eq. (5): `Sk ≥ 2`;
//!
//! with the fewest switches `P = Π Sk`.
//!
//! # The search (§3.1.2)
//!
//! Exhaustive over `L = 1, 2, …` and, for each `L`, over shapes with the symmetry
//! restrictions of eq. (6) `S1 ≤ … ≤ SL` and eq. (7) `K1 ≥ … ≥ KL`, pruning with eq. (8)
//! `Π Sk ≤ O` (`O` = fewest switches found so far) and eq. (9) `T ≥ ⌈N/O⌉`. Two further
//! bounds, both implied by eqs. (2)–(4), cut branches early: the ports the remaining
//! dimensions need at least (each at least `max(S−1, 2BT(S−1)/S)`), and the largest
//! `T·P` the remaining port budget could still reach (by AM–GM).
//!
//! For a fixed shape, the design is fully determined by `T`, because the cheapest trunking
//! is `Kk = max(1, ⌈2BT/Sk⌉)` (which automatically satisfies eq. 7) and feasibility only
//! gets harder as `T` grows (more terminal ports *and* more trunking). So a shape is
//! feasible iff it is feasible at the smallest `T = ⌈N/P⌉`.
//!
//! # Tie-break rule (where the paper's `T` differs)
//!
//! `T` is not unique for a given `S` and `K`: any `T` between `⌈N/P⌉` and the largest value
//! that eqs. (2) and (4) allow gives a valid design with the same switch count. This search
//! always reports the **smallest** `T` (`⌈N/P⌉`, fewest unused terminal ports) and the
//! smallest trunking for it; among shapes with the same switch count it keeps the first
//! found in the order (`L` ascending, then `S` lexicographically ascending) — a lower `L`
//! gives a lower diameter, as §3.1 prefers. With this rule Table 1 of the paper is
//! reproduced exactly (switch count, `L`, `S`, `K`, and `T`) in 7 of its 8 cells; in the
//! remaining cell (general design, `B = 0.125`) the paper prints `T = 76`, the *largest*
//! feasible value for `S = (5, 19, 19)`, `K = (4, 1, 1)`, while the rule gives `T = 73`
//! (every `T` in 73..=76 is feasible). In the regular `B = 0.125`, `0.25` and `1.0` cells the
//! paper's `T` is the smallest feasible one (55 of 55..=56, 48 of 48..=50, 14 of 14..=15),
//! so no single rule (smallest or largest `T`) matches all eight cells.

use serde::{Deserialize, Serialize};

/// The design requirements of §3.1: `N` terminals, switch radix `R`, minimum relative
/// bisection bandwidth `B` (eq. 4).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct DesignProblem {
    /// `N`: terminals the network must connect.
    pub terminals: u64,
    /// `R`: ports per switch.
    pub radix: u32,
    /// `B`: minimum relative bisection bandwidth `β`.
    pub beta: f64,
}

/// Which designs the search considers (§3.2).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum DesignClass {
    /// `Sk = S` and `Kk = K` in every dimension: a regular `(L, S, K, T)` HyperX.
    Regular,
    /// Any shape and trunking.
    General,
}

/// One HyperX configuration: shape `S`, trunking `K` (same length `L`), `T` terminals per
/// switch.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct HyperXDesign {
    /// `S = (S1..SL)`, non-decreasing (eq. 6).
    pub shape: Vec<u32>,
    /// `K = (K1..KL)`, non-increasing (eq. 7).
    pub trunking: Vec<u32>,
    /// `T`: terminals per switch.
    pub terminals_per_switch: u32,
}

impl HyperXDesign {
    /// `L`, the number of dimensions.
    pub fn dims(&self) -> usize {
        self.shape.len()
    }

    /// `P = Π Sk`, the number of switches.
    pub fn switches(&self) -> u64 {
        self.shape.iter().map(|&s| s as u64).product()
    }

    /// Ports used per switch: `T + Σ Kk(Sk − 1)` (left side of eq. 2).
    pub fn ports_used(&self) -> u64 {
        self.terminals_per_switch as u64
            + self.shape.iter().zip(&self.trunking).map(|(&s, &k)| k as u64 * (s as u64 - 1)).sum::<u64>()
    }

    /// `T·P`, the terminal ports (eq. 3).
    pub fn terminal_ports(&self) -> u64 {
        self.terminals_per_switch as u64 * self.switches()
    }

    /// `β = min(Kk·Sk) / 2T` (eq. 4).
    pub fn relative_bisection(&self) -> f64 {
        let m = self.shape.iter().zip(&self.trunking).map(|(&s, &k)| s as u64 * k as u64).min().unwrap_or(0);
        m as f64 / (2.0 * self.terminals_per_switch as f64)
    }

    /// Whether all dimensions have the same `S` and `K`.
    pub fn is_regular(&self) -> bool {
        self.shape.windows(2).all(|w| w[0] == w[1]) && self.trunking.windows(2).all(|w| w[0] == w[1])
    }

    /// Whether the design meets eqs. (2)–(5) for `problem`.
    pub fn satisfies(&self, problem: &DesignProblem) -> bool {
        !self.shape.is_empty()
            && self.shape.len() == self.trunking.len()
            && self.shape.iter().all(|&s| s >= 2)
            && self.trunking.iter().all(|&k| k >= 1)
            && self.terminals_per_switch >= 1
            && self.ports_used() <= problem.radix as u64
            && self.terminal_ports() >= problem.terminals
            && meets_beta(self.relative_bisection_parts(), problem.beta)
    }

    /// The range of `T` that keeps this shape and trunking valid for `problem` (the
    /// non-uniqueness discussed in the module docs), or `None` if none does.
    pub fn feasible_t_range(&self, problem: &DesignProblem) -> Option<(u32, u32)> {
        let p = self.switches();
        let t_min = div_ceil(problem.terminals, p).max(1);
        let links: u64 = self.shape.iter().zip(&self.trunking).map(|(&s, &k)| k as u64 * (s as u64 - 1)).sum();
        let t_ports = (problem.radix as u64).checked_sub(links)?;
        let min_ks = self.shape.iter().zip(&self.trunking).map(|(&s, &k)| s as u64 * k as u64).min()?;
        // 2BT ≤ min(KS)  ⇔  T ≤ min(KS) / 2B
        let t_beta =
            if problem.beta <= 0.0 { u64::MAX } else { ((min_ks as f64) / (2.0 * problem.beta) + 1e-9).floor() as u64 };
        let t_max = t_ports.min(t_beta);
        (t_min <= t_max).then(|| (t_min as u32, t_max.min(u32::MAX as u64) as u32))
    }

    fn relative_bisection_parts(&self) -> (u64, u64) {
        let m = self.shape.iter().zip(&self.trunking).map(|(&s, &k)| s as u64 * k as u64).min().unwrap_or(0);
        (m, 2 * self.terminals_per_switch as u64)
    }

    /// `L = 3, S = (5, 19, 19), K = (4, 1, 1), T = 76`-style description.
    pub fn describe(&self) -> String {
        if self.is_regular() {
            format!(
                "L = {}, S = {}, K = {}, T = {}",
                self.dims(),
                self.shape[0],
                self.trunking[0],
                self.terminals_per_switch
            )
        } else {
            let tuple = |v: &[u32]| v.iter().map(|x| x.to_string()).collect::<Vec<_>>().join(", ");
            format!(
                "L = {}, S = ({}), K = ({}), T = {}",
                self.dims(),
                tuple(&self.shape),
                tuple(&self.trunking),
                self.terminals_per_switch
            )
        }
    }
}

/// What the search found.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SearchOutcome {
    /// The fewest-switch design under the tie-break rule of the module docs, if any exists.
    pub best: Option<HyperXDesign>,
    /// Every design (each at its smallest `T` and trunking) with the same switch count as
    /// `best`, in search order, `best` first. Empty when nothing is feasible.
    pub optimal: Vec<HyperXDesign>,
    /// Number of complete shapes whose feasibility was evaluated (a measure of the pruning).
    pub shapes_evaluated: u64,
}

/// `a ≥ B·b` for `a/b` with a tolerance for `B` values like 0.1 that are not exact in binary.
fn meets_beta((num, den): (u64, u64), beta: f64) -> bool {
    num as f64 + 1e-9 >= beta * den as f64
}

fn div_ceil(a: u64, b: u64) -> u64 {
    a.div_ceil(b)
}

/// The cheapest trunking for dimension extent `s` at `t` terminals per switch:
/// `max(1, ⌈2Bt/s⌉)` (eq. 4).
fn min_trunk(beta: f64, t: u64, s: u64) -> u64 {
    let need = 2.0 * beta * t as f64 / s as f64;
    ((need - 1e-9).ceil() as u64).max(1)
}

/// Evaluates one complete shape at its smallest `T`; returns the design if feasible.
fn evaluate_shape(problem: &DesignProblem, shape: &[u32], p: u64) -> Option<HyperXDesign> {
    let t = div_ceil(problem.terminals, p).max(1);
    if t > problem.radix as u64 {
        return None;
    }
    let mut ports = t;
    let mut trunking = Vec::with_capacity(shape.len());
    for &s in shape {
        let k = min_trunk(problem.beta, t, s as u64);
        ports += k * (s as u64 - 1);
        if ports > problem.radix as u64 {
            return None;
        }
        trunking.push(k as u32);
    }
    Some(HyperXDesign { shape: shape.to_vec(), trunking, terminals_per_switch: t as u32 })
}

struct Search<'a> {
    problem: &'a DesignProblem,
    /// `O` of eq. (8): fewest switches found so far (`u64::MAX` before the first).
    best_p: u64,
    /// Designs with `P == best_p`, in search order.
    optimal: Vec<HyperXDesign>,
    shapes_evaluated: u64,
    shape: Vec<u32>,
}

impl Search<'_> {
    /// `T_min` of eq. (9).
    fn t_lower(&self) -> u64 {
        if self.best_p == u64::MAX {
            1
        } else {
            div_ceil(self.problem.terminals, self.best_p).max(1)
        }
    }

    fn consider(&mut self, p: u64) {
        self.shapes_evaluated += 1;
        if p > self.best_p {
            return;
        }
        if let Some(design) = evaluate_shape(self.problem, &self.shape, p) {
            if p < self.best_p {
                self.best_p = p;
                self.optimal.clear();
            }
            self.optimal.push(design);
        }
    }

    /// Depth-first enumeration of non-decreasing shapes (eq. 6) of length `dims`.
    /// `prefix_p`: product of the chosen extents; `prefix_ports`: a lower bound on the ports
    /// their links need.
    fn general(&mut self, dims: usize, prefix_p: u64, prefix_ports: f64, min_s: u64) {
        let depth = self.shape.len();
        if depth == dims {
            self.consider(prefix_p);
            return;
        }
        let r = (dims - depth) as u32; // dimensions still to choose, this one included
        let radix = self.problem.radix as u64;
        let beta = self.problem.beta;
        let mut s = min_s;
        loop {
            let t_lb = self.t_lower();
            // eq. (8): the remaining extents are ≥ s, so P ≥ prefix · s^r.
            let p_lb = match s.checked_pow(r).and_then(|x| x.checked_mul(prefix_p)) {
                Some(v) => v,
                None => break,
            };
            if p_lb > self.best_p {
                break;
            }
            // eq. (2) with eq. (4): each remaining dimension needs ≥ max(S−1, 2BT(S−1)/S) ports.
            let per_dim = ((s - 1) as f64).max(2.0 * beta * t_lb as f64 * (s - 1) as f64 / s as f64);
            let ports_lb = t_lb as f64 + prefix_ports + r as f64 * per_dim;
            if ports_lb > radix as f64 + 1e-9 {
                break;
            }
            // eq. (3): T ≤ R − ports of the links, and the remaining extents have at most the
            // left-over budget of (S−1) between them, so their product is ≤ (1 + budget/r)^r.
            let t_max = radix as f64 - prefix_ports - r as f64 * (s - 1) as f64;
            let budget = radix as f64 - prefix_ports - t_lb as f64;
            let p_max = prefix_p as f64 * (1.0 + budget / r as f64).powi(r as i32);
            if t_max * p_max < self.problem.terminals as f64 {
                break;
            }
            let link_lb = ((s - 1) as f64).max(2.0 * beta * t_lb as f64 * (s - 1) as f64 / s as f64);
            self.shape.push(s as u32);
            self.general(dims, prefix_p * s, prefix_ports + link_lb, s);
            self.shape.pop();
            s += 1;
        }
    }

    /// Regular shapes `S^L`.
    fn regular(&mut self, dims: usize) {
        let radix = self.problem.radix as u64;
        let mut s: u64 = 2;
        while let Some(p) = s.checked_pow(dims as u32) {
            if p > self.best_p {
                break;
            }
            if (dims as u64) * (s - 1) + 1 > radix {
                break;
            }
            self.shape.clear();
            self.shape.extend(std::iter::repeat_n(s as u32, dims));
            // A regular design must also have equal trunking; min_trunk depends only on S,
            // so the cheapest trunking of a regular shape is regular.
            self.consider(p);
            s += 1;
        }
        self.shape.clear();
    }
}

/// Finds the fewest-switch HyperX for `problem` (§3.1.2), with the tie-break rule of the
/// module docs. Runs in well under a second for `N = 2^17, R = 128`.
pub fn search(problem: &DesignProblem, class: DesignClass) -> SearchOutcome {
    let mut st = Search { problem, best_p: u64::MAX, optimal: Vec::new(), shapes_evaluated: 0, shape: Vec::new() };
    if problem.terminals == 0 || problem.radix < 2 {
        return SearchOutcome { best: None, optimal: Vec::new(), shapes_evaluated: 0 };
    }
    // 1 ≤ L ≤ R − 1 (§3.1.2); P ≥ 2^L, so once 2^L exceeds O no deeper design can win.
    for dims in 1..problem.radix as usize {
        if dims >= 64 || (1u64 << dims) > st.best_p {
            break;
        }
        match class {
            DesignClass::General => st.general(dims, 1, 0.0, 2),
            DesignClass::Regular => st.regular(dims),
        }
    }
    SearchOutcome { best: st.optimal.first().cloned(), optimal: st.optimal, shapes_evaluated: st.shapes_evaluated }
}

/// Fewest-switch design, or `None` if `N` cannot be reached with radix `R` at bandwidth `B`.
pub fn best_design(problem: &DesignProblem, class: DesignClass) -> Option<HyperXDesign> {
    search(problem, class).best
}

/// One published row of Table 1 (N = 2^17, R = 128).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Table1Row {
    pub beta: f64,
    pub regular: HyperXDesign,
    pub general: HyperXDesign,
}

/// Table 1 of the HyperX paper exactly as printed: best regular and general designs for
/// `N = 2^17`, `R = 128`.
pub fn table1_published() -> Vec<Table1Row> {
    let d = |s: &[u32], k: &[u32], t: u32| HyperXDesign {
        shape: s.to_vec(),
        trunking: k.to_vec(),
        terminals_per_switch: t,
    };
    vec![
        Table1Row { beta: 0.125, regular: d(&[7; 4], &[2; 4], 55), general: d(&[5, 19, 19], &[4, 1, 1], 76) },
        Table1Row { beta: 0.25, regular: d(&[14; 3], &[2; 3], 48), general: d(&[3, 27, 30], &[9, 1, 1], 54) },
        Table1Row { beta: 0.5, regular: d(&[16; 3], &[2; 3], 32), general: d(&[3, 35, 36], &[12, 1, 1], 35) },
        Table1Row { beta: 1.0, regular: d(&[10; 4], &[3; 4], 14), general: d(&[5, 38, 38], &[8, 1, 1], 19) },
    ]
}

/// The problem behind Table 1: `N = 2^17`, `R = 128`.
pub fn table1_problem(beta: f64) -> DesignProblem {
    DesignProblem { terminals: 1 << 17, radix: 128, beta }
}

/// Table 1 as computed by [`search`], row for row with [`table1_published`].
pub fn table1_computed() -> Vec<Table1Row> {
    table1_published()
        .iter()
        .map(|row| {
            let p = table1_problem(row.beta);
            Table1Row {
                beta: row.beta,
                regular: best_design(&p, DesignClass::Regular).expect("Table 1 regular design exists"),
                general: best_design(&p, DesignClass::General).expect("Table 1 general design exists"),
            }
        })
        .collect()
}

/// A folded Clos (fat tree) of radix-`R` switches sized for `N` terminals with relative
/// bisection `β` (HyperX paper §2.1.1 and §4.2).
///
/// Full bandwidth (`β = 1`): `L` levels, `R/2` ports down and `R/2` up below the top, the top
/// level using all `R` ports down; for `N = 2(R/2)^L` this gives the paper's
/// `P = (2L − 1)(R/2)^(L−1)`. For other `N` each level has `⌈·⌉` switches.
///
/// Tapering (`β < 1`, §2.1.1 "tapering the link count in the upper levels"): the paper does
/// not give its rule; we taper at the leaf level only, the cheapest way to reach bisection
/// `β`: a leaf has `d = ⌊R/(1+β)⌋` terminal ports and `u = R − d ≥ β·d` up ports, and the
/// levels above carry the `⌈N/d⌉·u` up-links at full bandwidth.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct FoldedClosSize {
    /// Number of switch levels.
    pub levels: u32,
    /// Total switches.
    pub switches: u64,
}

/// See [`FoldedClosSize`].
pub fn folded_clos_size(terminals: u64, radix: u32, beta: f64) -> FoldedClosSize {
    let r = radix as u64;
    if terminals <= r {
        return FoldedClosSize { levels: 1, switches: 1 };
    }
    let beta = beta.clamp(1e-6, 1.0);
    let down = ((r as f64 / (1.0 + beta)) + 1e-9).floor() as u64;
    let up = r - down;
    let half = r / 2;
    let leaves = div_ceil(terminals, down);
    let uplinks = leaves * up;
    // Capacity of L levels: d · R · (R/2)^(L−2) terminals.
    let mut levels = 2u32;
    let mut capacity = down * r;
    while capacity < terminals {
        levels += 1;
        capacity = capacity.saturating_mul(half);
    }
    let middle = (levels as u64 - 2) * div_ceil(uplinks, half);
    let top = div_ceil(uplinks, r);
    FoldedClosSize { levels, switches: leaves + middle + top }
}

/// One point of Fig. 8: switches per terminal of the best general HyperX and of the folded
/// Clos for the same `N`, `R`, `β`.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SwitchCountPoint {
    pub terminals: u64,
    pub radix: u32,
    pub beta: f64,
    /// `None` when no HyperX with radix `R` reaches `N` at bandwidth `β`.
    pub hyperx: Option<HyperXDesign>,
    pub hyperx_switches_per_terminal: Option<f64>,
    pub clos: FoldedClosSize,
    pub clos_switches_per_terminal: f64,
}

/// Fig. 8: switches / terminals for HyperX (best general design) and folded Clos, for each
/// `N` in `sizes`.
pub fn switch_count_sweep(radix: u32, beta: f64, sizes: &[u64]) -> Vec<SwitchCountPoint> {
    sizes
        .iter()
        .map(|&n| {
            let hx = best_design(&DesignProblem { terminals: n, radix, beta }, DesignClass::General);
            let clos = folded_clos_size(n, radix, beta);
            SwitchCountPoint {
                terminals: n,
                radix,
                beta,
                hyperx_switches_per_terminal: hx.as_ref().map(|d| d.switches() as f64 / n as f64),
                hyperx: hx,
                clos,
                clos_switches_per_terminal: clos.switches as f64 / n as f64,
            }
        })
        .collect()
}

/// Network sizes for Fig. 8: powers of `√2` from `2^lo` to `2^hi` (rounded).
pub fn fig8_sizes(lo: u32, hi: u32) -> Vec<u64> {
    (2 * lo..=2 * hi).map(|i| (2f64.powf(i as f64 / 2.0)).round() as u64).collect()
}
