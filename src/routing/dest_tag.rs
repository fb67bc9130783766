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

#[cfg(test)]
mod tests {
    use crate::config::{RoutingConfig, TopologyConfig};
    use crate::rng::SimRng;
    use crate::routing::fixture::RouterState;
    use crate::routing::Decision;
    use crate::topology::Butterfly;

    /// Destination tags on the 4-ary 3-fly (FB paper §3.3): stage s takes right port
    /// k + digit n−1−s of the destination, whatever the queues, on its roomiest VC; the
    /// last stage's port is the destination's terminal.
    #[test]
    fn each_stage_takes_the_destination_digit() {
        let mut s = RouterState::new(TopologyConfig::butterfly(4, 3), 2, 8);
        let (src, dst) = (5, 0b10_01_11); // destination digits 2, 1, 3 (most significant first)
        let first = s.net().inject_router(src);
        // The tag's output is full on VC 0: the packet takes it anyway, on VC 1.
        s.set_queue(first, 4 + 2, 0, 8);
        let tag = s.routing("dest_tag", &RoutingConfig::default());
        let (decision, _, _) = s.route_at_source(&*tag, s.packet(src, dst), &mut SimRng::new(1, 2));
        assert_eq!(decision, Decision::Forward { port: 4 + 2, vc: 1 }, "stage 0: digit 2, on the emptier VC 1");
        let bf = s.topo.get::<Butterfly>().unwrap();
        let mut router = first;
        for (stage, digit) in [(0, 2), (1, 1), (2, 3)] {
            assert_eq!(bf.stage(router), stage);
            let mut pkt = s.packet(src, dst);
            let (decision, _) = RouterState::decide(&*tag, &s.ctx(router, 0, 0), &mut pkt, &mut SimRng::new(1, 2));
            let Decision::Forward { port, .. } = decision else { panic!("stage {stage} waits") };
            assert_eq!(port, 4 + digit, "stage {stage}");
            let next = s.net().port(router, port);
            if stage == 2 {
                assert!(next.is_terminal() && next.peer_port == dst, "the last stage delivers to the destination");
            } else {
                router = next.peer_router;
            }
        }
    }
}
