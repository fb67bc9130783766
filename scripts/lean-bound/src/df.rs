//! `dragonfly1k-ugal_l-0.3`: the dragonfly of p = h = 4 terminals and global channels per
//! router, a = 8 routers per group, g = 33 groups (264 routers, 1 056 terminals), the
//! absolute arrangement of global channels, UGAL-L (dragonfly paper §4.1: at the source,
//! minimal iff q_min·H_min ≤ q_nm·H_nm, the intermediate group drawn among all g, so
//! drawing the source's or destination's group means minimal), the VC classes of Fig. 7
//! (3 VCs: to the intermediate group, to the destination group, inside it), load 0.3.

use crate::engine::{Network, Out, Pkt, Sim};
use crate::rng::SimRng;

const A: usize = 8;
const H: usize = 4;
const G: usize = A * H + 1;
const T: usize = 4;
const LOCAL: usize = T; // first local port
const GLOBAL: usize = T + A - 1; // first global port
const P: usize = GLOBAL + H;
const V: usize = 3;

/// Packet states (`Pkt::route`, low byte; the intermediate group above it).
const NEW: u32 = 0;
const MINIMAL: u32 = 1;
const TO_INTERMEDIATE: u32 = 2;

pub(crate) struct Dragonfly;

/// Where router `r` leaves its group for group `target`: the gateway's in-group index, the
/// port of `r` towards it (its own global port if `r` is the gateway) and the in-group index
/// of the router the channel lands on.
#[inline(always)]
fn exit(r: usize, target: usize) -> (usize, usize, usize) {
    let (grp, i) = (r / A, r % A);
    let slot = if target < grp { target } else { target - 1 };
    let back = if grp < target { grp } else { grp - 1 };
    let gateway = slot / H;
    let port = if gateway == i { GLOBAL + slot % H } else { local_port(i, gateway) };
    (gateway, port, back / H)
}

#[inline(always)]
fn local_port(i: usize, j: usize) -> usize {
    LOCAL + if j < i { j } else { j - 1 }
}

impl Network<V> for Dragonfly {
    #[inline(always)]
    fn far(&self, r: usize, p: usize) -> (usize, usize) {
        let (grp, i) = (r / A, r % A);
        if p < GLOBAL {
            let j = p - LOCAL;
            let j = if j < i { j } else { j + 1 };
            (grp * A + j, local_port(j, i))
        } else {
            let slot = i * H + p - GLOBAL;
            let target = if slot < grp { slot } else { slot + 1 };
            let back = if grp < target { grp } else { grp - 1 };
            (target * A + back / H, GLOBAL + back % H)
        }
    }

    #[inline(always)]
    fn route(&self, r: usize, pkt: &mut Pkt, outs: &[Out<V>], rng: &mut SimRng) -> (usize, usize) {
        let dst = pkt.dst as usize / T;
        let (grp, gd) = (r / A, dst / A);
        if pkt.route == NEW {
            pkt.route = MINIMAL;
            let (min_port, h_min, min_vc) = if grp == gd {
                (local_port(r % A, dst % A), 1, 2)
            } else {
                let (gw, port, landing) = exit(r, gd);
                (port, (gw != r % A) as u32 + 1 + (landing != dst % A) as u32, 1)
            };
            let gi = rng.below(G as u32) as usize;
            if gi == grp || gi == gd {
                return (min_port, min_vc);
            }
            let (gw, nm_port, landing) = exit(r, gi);
            let (gw2, _, landing2) = exit(gi * A + landing, gd);
            let h_nm = (gw != r % A) as u32 + 1 + (gw2 != landing) as u32 + 1 + (landing2 != dst % A) as u32;
            if outs[min_port].queue * h_min <= outs[nm_port].queue * h_nm {
                return (min_port, min_vc);
            }
            pkt.route = TO_INTERMEDIATE | (gi as u32) << 8;
            return (nm_port, 0);
        }
        if pkt.route & 0xff == TO_INTERMEDIATE {
            let gi = (pkt.route >> 8) as usize;
            if grp != gi {
                return (exit(r, gi).1, 0);
            }
            pkt.route = MINIMAL;
        }
        if grp == gd {
            (local_port(r % A, dst % A), 2)
        } else {
            (exit(r, gd).1, 1)
        }
    }
}

/// The network at load 0.3, seed 1.
pub(crate) fn sim() -> Sim<Dragonfly, T, P, V, { P * V }> {
    Sim::new(Dragonfly, G * A, 0.3, 1)
}
