//! `fb1024-min-0.5`: the 32-ary 2-flat flattened butterfly (32 routers of 32 terminals,
//! each connected to every other), MIN routing (FB paper §3.1; one dimension, so the
//! destination's router directly, on the VC with the most credits), 2 VCs, load 0.5.

use crate::engine::{Network, Out, Pkt, Sim};
use crate::rng::SimRng;

const ROUTERS: usize = 32;
const T: usize = 32;
const P: usize = T + ROUTERS - 1;
const V: usize = 2;

pub(crate) struct FlattenedButterfly;

/// Router `r`'s port towards router `s ≠ r`.
#[inline(always)]
fn port_to(r: usize, s: usize) -> usize {
    T + if s < r { s } else { s - 1 }
}

impl Network<V> for FlattenedButterfly {
    #[inline(always)]
    fn far(&self, r: usize, p: usize) -> (usize, usize) {
        let i = p - T;
        let s = if i < r { i } else { i + 1 };
        (s, port_to(s, r))
    }

    #[inline(always)]
    fn route(&self, r: usize, pkt: &mut Pkt, outs: &[Out<V>], _rng: &mut SimRng) -> (usize, usize) {
        let out = port_to(r, pkt.dst as usize / T);
        let c = outs[out].credits;
        (out, usize::from(c[1] > c[0]))
    }
}

/// The network at load 0.5, seed 1.
pub(crate) fn sim() -> Sim<FlattenedButterfly, T, P, V, { P * V }> {
    Sim::new(FlattenedButterfly, ROUTERS, 0.5, 1)
}
