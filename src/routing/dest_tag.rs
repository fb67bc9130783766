//! Routing on the conventional butterfly, the comparison network of the FB paper (§3.3,
//! Table 1): destination tags. (The hypercube's e-cube routing is `min` — dimension order —
//! on the hypercube, registered as `ecube` in `hyperx_min`.)

use super::updown::roomiest_vc;
use super::{network_of, Algorithm, Decision, Decisions, RouteCtx, RouteNote, Routing};
use crate::config::schema::Family;
use crate::packet::Packet;
use crate::rng::SimRng;
use crate::topology::Butterfly;

/// Destination-tag routing on the butterfly: see [`DestinationTag`].
pub(crate) const DEST_TAG: Algorithm = Algorithm {
    name: "dest_tag",
    decisions: Decisions::None,
    family: Family::BUTTERFLY,
    description: "destination-tag routing on the conventional butterfly (FB Table 1)",
    params: &[],
    build: |_, topo| Ok(Box::new(DestinationTag::new(network_of(topo)?))),
};

/// Destination-tag routing on the k-ary n-fly: at stage s take the output named by the
/// destination's digit n−1−s. One path per pair, one VC (the network is acyclic).
#[derive(Clone)]
pub(crate) struct DestinationTag {
    bf: Butterfly,
}

impl DestinationTag {
    pub(crate) fn new(bf: &Butterfly) -> Self {
        DestinationTag { bf: bf.clone() }
    }
}

impl Routing for DestinationTag {
    fn vcs_required(&self) -> u32 {
        1
    }
    fn route(&self, ctx: &RouteCtx, pkt: &mut Packet, _rng: &mut SimRng, _note: &mut RouteNote) -> Decision {
        let port = self.bf.tag_port(ctx.router, pkt.dst);
        Decision::Forward { port, vc: roomiest_vc(ctx, port) }
    }
}
