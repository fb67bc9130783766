//! Portable, seeded random streams.
//!
//! Every random choice in the core comes from a [`SimRng`], a PCG-64 (MCG variant,
//! `pcg64_fast`; [`Mcg128`] here, bit for bit `rand_pcg`'s `Pcg64Mcg`, as a test checks),
//! whose output is specified bit-for-bit and so is identical natively and in wasm. All
//! sampling goes through the fixed-width helpers below (`u32`/`u64`, never `usize`, whose
//! width differs between the two targets).
//!
//! A simulation owns one stream per purpose ([`Streams`]): the traffic stream decides
//! injections and destinations, the routing stream intermediate nodes and tie-breaks, the
//! allocation stream anything the allocators randomise. Because they are independent,
//! changing only the routing algorithm leaves the injected traffic identical, which is
//! what makes side-by-side comparisons honest (`tests/integration/engine_basics.rs` checks it).

use rand::{Rng, RngCore};

/// PCG-64 with a 128-bit multiplicative congruential state and the XSL RR output
/// (O'Neill's `pcg64_fast`; `rand_pcg::Mcg128Xsl64`, of which this is a copy with the
/// state kept as two 64-bit halves). wasm has no 64×64→128-bit multiply, and a `u128`
/// multiply compiles to a call of the compiler's runtime returning through memory; the
/// halves need three 64-bit products, one of them widening (four 32-bit products in wasm).
#[derive(Clone, Debug)]
pub(crate) struct Mcg128 {
    lo: u64,
    hi: u64,
}

impl Mcg128 {
    const MUL_LO: u64 = 0x4385_DF64_9FCC_F645;
    const MUL_HI: u64 = 0x2360_ED05_1FC6_5DA4;

    /// The generator with state `state` (made odd, as an MCG's state must be).
    pub(crate) fn new(state: u128) -> Mcg128 {
        let state = state | 1;
        Mcg128 { lo: state as u64, hi: (state >> 64) as u64 }
    }
}

/// The full 128-bit product of `a` and `b`, as (low, high) halves.
#[inline(always)]
fn widening_mul(a: u64, b: u64) -> (u64, u64) {
    #[cfg(not(target_arch = "wasm32"))]
    {
        let p = a as u128 * b as u128;
        (p as u64, (p >> 64) as u64)
    }
    #[cfg(target_arch = "wasm32")]
    {
        widening_mul_32(a, b)
    }
}

/// [`widening_mul`] from 32-bit halves (what wasm runs; tested natively against `u128`).
#[inline(always)]
#[cfg_attr(not(any(test, target_arch = "wasm32")), allow(dead_code))]
fn widening_mul_32(a: u64, b: u64) -> (u64, u64) {
    const M: u64 = 0xffff_ffff;
    let (a0, a1, b0, b1) = (a & M, a >> 32, b & M, b >> 32);
    let (p00, p01, p10, p11) = (a0 * b0, a0 * b1, a1 * b0, a1 * b1);
    let mid = (p00 >> 32) + (p01 & M) + (p10 & M);
    ((p00 & M) | (mid << 32), p11 + (p01 >> 32) + (p10 >> 32) + (mid >> 32))
}

impl RngCore for Mcg128 {
    #[inline]
    fn next_u32(&mut self) -> u32 {
        self.next_u64() as u32
    }

    #[inline]
    fn next_u64(&mut self) -> u64 {
        // state ← state · MUL (mod 2¹²⁸)
        let (lo, carry) = widening_mul(self.lo, Self::MUL_LO);
        let hi =
            carry.wrapping_add(self.lo.wrapping_mul(Self::MUL_HI)).wrapping_add(self.hi.wrapping_mul(Self::MUL_LO));
        (self.lo, self.hi) = (lo, hi);
        // XSL RR: the xor of the halves, rotated by the top 6 bits.
        (hi ^ lo).rotate_right((hi >> 58) as u32)
    }

    fn fill_bytes(&mut self, dest: &mut [u8]) {
        rand::rand_core::impls::fill_bytes_via_next(self, dest)
    }
}

/// One seeded random stream.
#[derive(Clone, Debug)]
pub struct SimRng(Mcg128);

impl SimRng {
    /// A stream derived from `seed` and a purpose tag, so streams never overlap.
    pub fn new(seed: u64, purpose: u64) -> Self {
        // SplitMix64 finaliser spreads (seed, purpose) over the 128-bit state.
        let mix = |mut z: u64| {
            z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
            z ^ (z >> 31)
        };
        let hi = mix(seed ^ 0x9e37_79b9_7f4a_7c15);
        let lo = mix(seed.wrapping_add(purpose.wrapping_mul(0xd1b5_4a32_d192_ed03)) ^ purpose);
        SimRng(Mcg128::new(((hi as u128) << 64) | lo as u128 | 1))
    }

    /// Uniform integer in `0..n` (`n > 0`): `rand`'s `random_range(0..n)` draw for draw
    /// (Canon's method, as a test checks), written out so that it inlines — in wasm `rand`'s
    /// version stays a call of ~75 instructions.
    #[inline]
    pub fn below(&mut self, n: u32) -> u32 {
        debug_assert!(n > 0);
        let wide = |x: u32| x as u64 * n as u64;
        let m = wide(self.0.next_u32());
        let (hi, lo) = ((m >> 32) as u32, m as u32);
        // A low part above 2³² − n may be biased: a second draw decides the carry.
        if lo > n.wrapping_neg() {
            let carry = lo.checked_add((wide(self.0.next_u32()) >> 32) as u32).is_none();
            return hi + carry as u32;
        }
        hi
    }

    /// `true` with probability `p`.
    #[inline]
    pub fn chance(&mut self, p: f64) -> bool {
        p >= 1.0 || (p > 0.0 && self.0.random::<f64>() < p)
    }

    /// `true` with the probability `c` was prepared for: the same draw and the same
    /// outcome as [`SimRng::chance`], as one integer comparison.
    #[inline]
    pub(crate) fn draw(&mut self, c: Chance) -> bool {
        match c {
            Chance::Always => true,
            Chance::Never => false,
            Chance::Below(t) => self.0.next_u64() >> 11 < t,
        }
    }

    /// Raw 64 bits.
    #[inline]
    pub fn next_u64(&mut self) -> u64 {
        self.0.next_u64()
    }
}

/// A probability prepared for repeated draws ([`SimRng::draw`]). `chance(p)` compares a
/// uniform `m·2⁻⁵³` (`m` = the top 53 bits of a draw) with `p`; for an integer `m` that
/// is `m < ⌈p·2⁵³⌉`, and `p·2⁵³` is exact in floating point, so the threshold is exact.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Chance {
    /// `p ≥ 1`: true without a draw.
    Always,
    /// `p ≤ 0` (or NaN): false without a draw.
    Never,
    /// Draw, and compare the top 53 bits with this threshold.
    Below(u64),
}

impl Chance {
    pub(crate) fn new(p: f64) -> Chance {
        if p >= 1.0 {
            Chance::Always
        } else if p > 0.0 {
            Chance::Below((p * (1u64 << 53) as f64).ceil() as u64)
        } else {
            Chance::Never
        }
    }
}

/// Purpose tags of the independent streams.
const TRAFFIC: u64 = 1;
const ROUTING: u64 = 2;
const ALLOCATION: u64 = 3;
const FAULTS: u64 = 4;

/// The stream that draws `faults.random_fraction`'s failed links: its own, so failing links
/// leaves the traffic and routing streams unchanged.
pub(crate) fn fault_stream(seed: u64) -> SimRng {
    SimRng::new(seed, FAULTS)
}

/// The independent streams a simulation draws from.
#[derive(Clone, Debug)]
pub struct Streams {
    pub traffic: SimRng,
    pub routing: SimRng,
    pub allocation: SimRng,
}

impl Streams {
    pub fn new(seed: u64) -> Self {
        Streams {
            traffic: SimRng::new(seed, TRAFFIC),
            routing: SimRng::new(seed, ROUTING),
            allocation: SimRng::new(seed, ALLOCATION),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Known-answer test: these values must never change, on any platform, or every
    /// recorded result and shared link changes with them.
    #[test]
    fn known_answers() {
        let mut r = SimRng::new(1, TRAFFIC);
        let got: Vec<u32> = (0..4).map(|_| r.below(1000)).collect();
        let mut again = SimRng::new(1, TRAFFIC);
        let got2: Vec<u32> = (0..4).map(|_| again.below(1000)).collect();
        assert_eq!(got, got2);
        assert_eq!(got, KNOWN);
    }
    const KNOWN: [u32; 4] = [869, 478, 684, 874];

    /// [`Mcg128`] is `rand_pcg::Pcg64Mcg` bit for bit, [`SimRng::below`] is `rand`'s
    /// `random_range` draw for draw, and the 32-bit widening multiply wasm runs equals the
    /// native one.
    #[test]
    fn mcg128_is_rand_pcg_pcg64_mcg() {
        use rand_pcg::Pcg64Mcg;
        for seed in [1u128, 0x1234_5678_9abc_def0_0fed_cba9_8765_4321, u128::MAX, 1 << 64] {
            let (mut ours, mut theirs) = (Mcg128::new(seed), Pcg64Mcg::new(seed));
            for _ in 0..10_000 {
                assert_eq!(ours.next_u64(), theirs.next_u64());
            }
            assert_eq!(ours.random_range(0..1000u32), theirs.random_range(0..1000u32));
            assert_eq!(ours.random::<f64>(), theirs.random::<f64>());
            let (mut a, mut b) = ([0u8; 13], [0u8; 13]);
            ours.fill_bytes(&mut a);
            theirs.fill_bytes(&mut b);
            assert_eq!(a, b);
            assert_eq!(ours.next_u32(), theirs.next_u32());
        }
        for n in [1u32, 2, 3, 7, 31, 32, 33, 1000, 1 << 31, (1 << 31) + 1, u32::MAX - 1, u32::MAX] {
            let (mut ours, mut theirs) = (SimRng::new(n as u64, ROUTING), SimRng::new(n as u64, ROUTING));
            for _ in 0..20_000 {
                assert_eq!(ours.below(n), theirs.0.random_range(0..n), "n = {n}");
            }
            assert_eq!(ours.next_u64(), theirs.next_u64(), "n = {n}: the streams stay in step");
        }
        let mut r = Mcg128::new(7);
        for _ in 0..100_000 {
            let (a, b) = (r.next_u64(), r.next_u64());
            assert_eq!(widening_mul_32(a, b), widening_mul(a, b), "{a} × {b}");
        }
        for (a, b) in [(u64::MAX, u64::MAX), (0, u64::MAX), (1 << 63, 2), (0xffff_ffff, 0xffff_ffff)] {
            let p = a as u128 * b as u128;
            assert_eq!(widening_mul_32(a, b), (p as u64, (p >> 64) as u64));
        }
    }

    #[test]
    fn prepared_chances_draw_like_chance() {
        for (i, p) in
            [0.0, 1e-9, 0.001, 0.1, 0.3, 1.0 / 3.0, 0.5, 0.75, 0.999_999, 1.0, 1.5, -0.1].into_iter().enumerate()
        {
            let (mut a, mut b) = (SimRng::new(i as u64, TRAFFIC), SimRng::new(i as u64, TRAFFIC));
            let c = Chance::new(p);
            for _ in 0..20_000 {
                assert_eq!(a.chance(p), b.draw(c), "p = {p}");
            }
            assert_eq!(a.next_u64(), b.next_u64(), "p = {p}: the streams stay in step");
        }
        // At the boundary: a draw whose top 53 bits are exactly p·2^53 is not below p.
        let t = 3u64 << 50; // p = 0.375 exactly
        assert_eq!(Chance::new(t as f64 / (1u64 << 53) as f64), Chance::Below(t));
    }

    #[test]
    fn streams_differ() {
        let draws = |r: &mut SimRng| (0..64).map(|_| r.next_u64()).collect::<Vec<_>>();
        let mut s = Streams::new(7);
        let (t, r, a) = (draws(&mut s.traffic), draws(&mut s.routing), draws(&mut s.allocation));
        // Independent streams: no two agree on any of their first 64 draws.
        for (x, y) in [(&t, &r), (&t, &a), (&r, &a)] {
            assert_eq!(x.iter().zip(y.iter()).filter(|(p, q)| p == q).count(), 0);
        }
        // The same seed gives the same streams, another seed others.
        assert_eq!(draws(&mut Streams::new(7).traffic), t);
        assert_ne!(draws(&mut Streams::new(8).traffic), t);
    }
}
