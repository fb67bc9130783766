//! hiradix's random streams (src/rng.rs), copied so this crate has no dependencies.

/// PCG-64 (MCG, XSL RR), as hiradix's `SimRng`.
pub(crate) struct SimRng {
    lo: u64,
    hi: u64,
}
const MUL_LO: u64 = 0x4385_DF64_9FCC_F645;
const MUL_HI: u64 = 0x2360_ED05_1FC6_5DA4;
#[inline(always)]
fn widening_mul(a: u64, b: u64) -> (u64, u64) {
    #[cfg(not(target_arch = "wasm32"))]
    {
        let p = a as u128 * b as u128;
        (p as u64, (p >> 64) as u64)
    }
    #[cfg(target_arch = "wasm32")]
    {
        const M: u64 = 0xffff_ffff;
        let (a0, a1, b0, b1) = (a & M, a >> 32, b & M, b >> 32);
        let (p00, p01, p10, p11) = (a0 * b0, a0 * b1, a1 * b0, a1 * b1);
        let mid = (p00 >> 32) + (p01 & M) + (p10 & M);
        ((p00 & M) | (mid << 32), p11 + (p01 >> 32) + (p10 >> 32) + (mid >> 32))
    }
}
impl SimRng {
    pub(crate) fn new(seed: u64, purpose: u64) -> Self {
        let mix = |mut z: u64| {
            z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
            z ^ (z >> 31)
        };
        let hi = mix(seed ^ 0x9e37_79b9_7f4a_7c15);
        let lo = mix(seed.wrapping_add(purpose.wrapping_mul(0xd1b5_4a32_d192_ed03)) ^ purpose) | 1;
        SimRng { lo, hi }
    }
    #[inline]
    pub(crate) fn next_u64(&mut self) -> u64 {
        let (lo, carry) = widening_mul(self.lo, MUL_LO);
        let hi = carry.wrapping_add(self.lo.wrapping_mul(MUL_HI)).wrapping_add(self.hi.wrapping_mul(MUL_LO));
        (self.lo, self.hi) = (lo, hi);
        (hi ^ lo).rotate_right((hi >> 58) as u32)
    }
    #[inline]
    pub(crate) fn below(&mut self, n: u32) -> u32 {
        let wide = |x: u32| x as u64 * n as u64;
        let m = wide(self.next_u64() as u32);
        let (hi, lo) = ((m >> 32) as u32, m as u32);
        if lo > n.wrapping_neg() {
            let carry = lo.checked_add((wide(self.next_u64() as u32) >> 32) as u32).is_none();
            return hi + carry as u32;
        }
        hi
    }
}
