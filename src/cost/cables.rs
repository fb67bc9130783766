//! Technology, packaging and cable-cost assumptions.
//!
//! - Flattened butterfly paper (Kim, Dally, Abts, ISCA 2007) §4.1 Table 2 (component
//!   costs), Fig. 7 (electrical cable cost), §4.2 and Table 3 (packaging, `E = √(N/D)`,
//!   2 m of cable overhead).
//! - Dragonfly paper (Kim, Dally, Scott, Abts, ISCA 2008) §2 Fig. 2 (electrical vs active
//!   optical cable cost) and §5 (optical beyond 8 m).

use serde::{Deserialize, Serialize};

/// Component costs (FB paper Table 2) and packaging (Table 3).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Technology {
    /// Cost of one radix-`router_radix` router: $90 silicon + $300 amortized development
    /// ($6M over 20k parts), Table 2.
    pub router_cost: f64,
    /// Router radix (Table 3: 64).
    pub router_radix: u32,
    /// Backplane cost per differential signal, Table 2 ($3000 for 1536 signals).
    pub backplane_per_signal: f64,
    /// Electrical cable cost per signal: `cable_fixed + cable_per_m · ℓ` (Table 2; the
    /// line fitted to the Infiniband 12x data with repeaters every 6 m, Fig. 7(b), which
    /// the paper uses "for all cables").
    pub cable_fixed: f64,
    pub cable_per_m: f64,
    /// Longest cable driven at full rate without a repeater (FB paper footnote 7: 6 m).
    pub repeater_spacing_m: f64,
    /// Optical cost per signal in the FB paper (Table 2: $220, not used in its comparison).
    pub optical_per_signal: f64,
    /// Differential signals per unidirectional channel ("# of pairs per port", Table 3: 3).
    pub signals_per_channel: f64,
    /// Signalling rate per differential signal, Gb/s (6.25, FB paper footnote 7).
    pub gbps_per_signal: f64,
    /// Nodes per cabinet (Table 3: 128).
    pub nodes_per_cabinet: u64,
    /// Node density `D`, nodes/m² (Table 3: 75).
    pub density: f64,
    /// Cable overhead added to every inter-cabinet cable: 1 m vertical run at each end
    /// (§4.3: 2 m).
    pub cable_overhead_m: f64,
}

impl Default for Technology {
    fn default() -> Self {
        Technology {
            router_cost: 390.0,
            router_radix: 64,
            backplane_per_signal: 1.95,
            cable_fixed: 3.72,
            cable_per_m: 0.81,
            repeater_spacing_m: 6.0,
            optical_per_signal: 220.0,
            signals_per_channel: 3.0,
            gbps_per_signal: 6.25,
            nodes_per_cabinet: 128,
            density: 75.0,
            cable_overhead_m: 2.0,
        }
    }
}

impl Technology {
    /// `E = √(N/D)`: edge of the (square) cabinet floor layout in metres (§4.2).
    pub fn edge_length(&self, nodes: u64) -> f64 {
        (nodes as f64 / self.density).sqrt()
    }

    /// Electrical cable cost per signal for a cable of length `len_m` (Table 2).
    pub fn electrical_per_signal(&self, len_m: f64) -> f64 {
        self.cable_fixed + self.cable_per_m * len_m
    }

    /// Repeaters an electrical cable of `len_m` needs (one every 6 m beyond the first
    /// segment, Fig. 7(b)); their cost is already inside the linear fit of Table 2.
    pub fn repeaters(&self, len_m: f64) -> u32 {
        if len_m <= self.repeater_spacing_m {
            0
        } else {
            ((len_m / self.repeater_spacing_m).ceil() as u32).saturating_sub(1)
        }
    }
}

/// Active optical cable cost (dragonfly paper §2, Fig. 2), per Gb/s of bandwidth:
/// `fixed_per_gbps + per_m_per_gbps · ℓ`.
///
/// The paper's text gives the shape of this line, not its coefficients: optical has "a
/// higher fixed cost (y-intercept) but a lower cost per unit distance (slope) than
/// electrical cables", the two cross at 10 m, and in §5 cables longer than 8 m are priced
/// as optical. We take the slope as a quarter of the electrical slope (an active optical
/// cable's cost is in its transceivers, not in the fibre) and set the intercept so that the
/// lines cross at exactly 10 m. See `docs/cost.md` for the effect on Fig. 19.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct OpticalCable {
    pub fixed_per_gbps: f64,
    pub per_m_per_gbps: f64,
}

/// Length at which the dragonfly paper's electrical and optical lines cross (§2: 10 m).
pub const OPTICAL_CROSSOVER_M: f64 = 10.0;

impl OpticalCable {
    /// The reconstruction described on [`OpticalCable`], from the electrical model of `tech`.
    pub fn dragonfly_fig2(tech: &Technology) -> Self {
        let (a, b) = electrical_per_gbps_line(tech);
        let slope = b / 4.0;
        OpticalCable { fixed_per_gbps: a + (b - slope) * OPTICAL_CROSSOVER_M, per_m_per_gbps: slope }
    }

    /// Cost per Gb/s for a cable of `len_m`.
    pub fn per_gbps(&self, len_m: f64) -> f64 {
        self.fixed_per_gbps + self.per_m_per_gbps * len_m
    }
}

/// The electrical cable line of Table 2 expressed per Gb/s (a signal carries
/// `gbps_per_signal`): `(intercept, slope)`.
pub fn electrical_per_gbps_line(tech: &Technology) -> (f64, f64) {
    (tech.cable_fixed / tech.gbps_per_signal, tech.cable_per_m / tech.gbps_per_signal)
}

/// Where the electrical and optical lines cross, in metres (`None` if parallel).
pub fn crossover_m(tech: &Technology, optical: &OpticalCable) -> Option<f64> {
    let (a, b) = electrical_per_gbps_line(tech);
    let ds = b - optical.per_m_per_gbps;
    (ds.abs() > 1e-12).then(|| (optical.fixed_per_gbps - a) / ds)
}

/// How cables are priced.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub enum CablePricing {
    /// FB paper §4.1: electrical cables with repeaters for every length (the linear model of
    /// Table 2); "our cost analysis uses electrical signaling with repeaters".
    ElectricalWithRepeaters,
    /// Dragonfly paper §5: electrical below `threshold_m` (8 m), active optical above.
    OpticalBeyond { threshold_m: f64, optical: OpticalCable },
}

impl CablePricing {
    /// The dragonfly paper's §5 pricing: electrical below 8 m, optical (Fig. 2) above.
    pub fn dragonfly(tech: &Technology) -> Self {
        CablePricing::OpticalBeyond { threshold_m: 8.0, optical: OpticalCable::dragonfly_fig2(tech) }
    }

    /// Cost per signal of a cable of total length `len_m` (overhead included).
    pub fn cable_per_signal(&self, tech: &Technology, len_m: f64) -> f64 {
        match *self {
            CablePricing::ElectricalWithRepeaters => tech.electrical_per_signal(len_m),
            CablePricing::OpticalBeyond { threshold_m, optical } => {
                if len_m < threshold_m {
                    tech.electrical_per_signal(len_m)
                } else {
                    optical.per_gbps(len_m) * tech.gbps_per_signal
                }
            }
        }
    }

    /// Whether a cable of `len_m` is optical under this pricing.
    pub fn is_optical(&self, len_m: f64) -> bool {
        matches!(*self, CablePricing::OpticalBeyond { threshold_m, .. } if len_m >= threshold_m)
    }
}

/// One point of the dragonfly paper's Fig. 2.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct CableCostPoint {
    pub length_m: f64,
    /// Electrical with repeaters, $ per Gb/s.
    pub electrical_per_gbps: f64,
    /// Active optical, $ per Gb/s.
    pub optical_per_gbps: f64,
    /// Repeaters in the electrical cable.
    pub repeaters: u32,
}

/// Fig. 2 of the dragonfly paper: cost per Gb/s of electrical and optical cables vs length.
pub fn cable_cost_curve(tech: &Technology, optical: &OpticalCable, max_len_m: f64, step_m: f64) -> Vec<CableCostPoint> {
    let steps = (max_len_m / step_m).round() as usize;
    (0..=steps)
        .map(|i| {
            let l = i as f64 * step_m;
            CableCostPoint {
                length_m: l,
                electrical_per_gbps: tech.electrical_per_signal(l) / tech.gbps_per_signal,
                optical_per_gbps: optical.per_gbps(l),
                repeaters: tech.repeaters(l),
            }
        })
        .collect()
}
