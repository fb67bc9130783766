#!/bin/bash
# Fingerprints the engine: an MD5 of the JSON result of 18 small configurations covering
# every topology family, the main routing algorithms, both allocators, iSLIP and multi-flit
# packets. A refactor of the step loop that claims "results unchanged" must leave the
# output identical. Usage: scripts/fingerprint.sh target/release/hiradix > before.txt
BIN=${1:-target/release/hiradix}
OUT=$(mktemp); trap 'rm -f "$OUT"' EXIT
run() { $BIN run "$@" --set measurement.warmup=300 --set measurement.measure=600 --json "$OUT" >/dev/null 2>&1; cat "$OUT" | md5sum | cut -c1-8; }
FB="--set topology.type=flattened_butterfly --set topology.k=8 --set topology.n=2"
HX="--set topology.type=hyperx --set topology.s=[4,4,4] --set topology.k=[1] --set topology.t=4"
DF="--set topology.type=dragonfly --set topology.p=2 --set topology.a=4 --set topology.h=2 --set topology.g=9"
for a in min min_ad val ugal ugal_s clos_ad; do echo "fb $a $(run $FB --set routing.algorithm=$a --set traffic.load=0.6)"; done
for a in dal clos_ad_hx min_ad; do echo "hx $a $(run $HX --set routing.algorithm=$a --set router.vcs=6 --set traffic.pattern=swap2 --set traffic.load=0.5)"; done
for a in ugal_l ugal_g ugal_l_vch ugal_l_cr val; do echo "df $a $(run $DF --set routing.algorithm=$a --set traffic.pattern=group_shift --set traffic.load=0.3 --set router.vcs=3)"; done
echo "df pkt4 $(run $DF --set routing.algorithm=ugal_l_cr --set traffic.packet_size=4 --set router.vcs=3 --set traffic.load=0.4)"
echo "fb islip $(run $FB --set routing.algorithm=ugal --set router.switch_allocator=islip --set traffic.load=0.8)"
echo "clos $(run --set topology.type=folded_clos --set routing.algorithm=updown_ad --set traffic.load=0.7)"
echo "dfb $(run --set topology.type=dilated_flattened_butterfly --set routing.algorithm=adaptive_2dfb --set traffic.pattern=adversarial --set traffic.load=0.7 --set router.terminal_period=2)"
for a in min ugal_l_vc; do echo "df $a $(run $DF --set routing.algorithm=$a --set traffic.load=0.5 --set router.vcs=3)"; done
echo "df seq $(run $DF --set routing.algorithm=ugal_l --set routing.allocator=sequential --set router.vcs=4 --set traffic.load=0.45)"
echo "df1k $(run --set topology.type=dragonfly --set topology.p=4 --set topology.a=8 --set topology.h=4 --set topology.g=33 --set routing.algorithm=ugal_l --set router.vcs=3 --set traffic.load=0.3)"
echo "fb1024 $(run --set topology.type=flattened_butterfly --set topology.k=32 --set topology.n=2 --set routing.algorithm=min_ad --set traffic.load=0.5)"
echo "fb pipe $(run $FB --set routing.algorithm=min_ad --set router.pipeline_delay=3 --set router.speedup=1 --set traffic.packet_size=2 --set traffic.load=0.7)"
echo "fb batch $(run $FB --set routing.algorithm=ugal --set traffic.injection=batch --set traffic.batch_size=20 --set traffic.pattern=router_shift)"
