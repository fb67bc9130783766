//! Stand-in engine used by the web front end until the real engine API lands.
//!
//! It builds a k-ary n-flat's router graph (routers on a grid, all-to-all links per
//! dimension) and fakes per-channel occupancy with a deterministic hash of (channel, cycle),
//! just enough to exercise the whole wasm → canvas pipeline.

use serde::Deserialize;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PlaceholderConfig {
    pub k: u32,
    pub n: u32,
    #[serde(default)]
    pub seed: u64,
}

pub struct PlaceholderSim {
    pub positions: Vec<f32>,
    pub endpoints: Vec<u32>,
    pub occupancy: Vec<f32>,
    seed: u64,
    now: u64,
}

impl PlaceholderSim {
    pub fn from_json(json: &str) -> Result<Self, Vec<String>> {
        let cfg: PlaceholderConfig =
            serde_json::from_str(json).map_err(|e| vec![format!("config: {e}")])?;
        let mut errors = Vec::new();
        if cfg.k < 2 {
            errors.push(format!("k: must be ≥ 2, got {}", cfg.k));
        }
        if cfg.n != 2 && cfg.n != 3 {
            errors.push(format!("n: must be 2 or 3 in the placeholder, got {}", cfg.n));
        }
        if !errors.is_empty() {
            return Err(errors);
        }
        let k = cfg.k;
        let dims = cfg.n - 1;
        let routers = k.pow(dims);
        let mut positions = Vec::new();
        for r in 0..routers {
            let (x, y) = if dims == 1 {
                let a = r as f32 / routers as f32 * std::f32::consts::TAU;
                (0.5 + 0.4 * a.cos(), 0.5 + 0.4 * a.sin())
            } else {
                let (c, row) = (r % k, r / k);
                (
                    0.1 + 0.8 * c as f32 / (k - 1) as f32,
                    0.1 + 0.8 * row as f32 / (k - 1) as f32,
                )
            };
            positions.push(x);
            positions.push(y);
        }
        let mut endpoints = Vec::new();
        for r in 0..routers {
            for d in 0..dims {
                let stride = k.pow(d);
                let digit = (r / stride) % k;
                for m in 0..k {
                    if m != digit {
                        let j = r + m * stride - digit * stride;
                        endpoints.push(r);
                        endpoints.push(j);
                    }
                }
            }
        }
        let occupancy = vec![0.0; endpoints.len() / 2];
        Ok(PlaceholderSim { positions, endpoints, occupancy, seed: cfg.seed, now: 0 })
    }

    pub fn advance(&mut self, cycles: u32) {
        self.now += u64::from(cycles);
        for (c, occ) in self.occupancy.iter_mut().enumerate() {
            let mut z = (c as u64) ^ (self.now / 8).wrapping_mul(0x9e37_79b9_7f4a_7c15) ^ self.seed;
            z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
            z ^= z >> 31;
            *occ = (z % 1000) as f32 / 1000.0;
        }
    }

    pub fn now(&self) -> u64 {
        self.now
    }
}
