#!/bin/bash
# What DAL's bit-complement throughput on the HyperX paper's Fig. 6 network depends on:
# one `hiradix sweep` per DAL setting (thresholds, VC count, buffer depth, route
# allocator), each around the hx-fig6 preset's router, with Valiant as the reference.
# Writes docs/hyperx/dal-bc-<setting>.csv (every point) and dal-bc-<setting>-saturation.csv
# (each series' saturation onset and throughput), and docs/hyperx/dal-bc.csv gathering the
# latter with the setting named: the claims of docs/hyperx.md read it
# (src/figures/claims/hyperx.rs) and docs/faithfulness.md lists what it shows.
# Usage: scripts/dal-bit-complement.sh [hiradix binary]   (about 10 minutes on 2 cores)
set -euo pipefail
cd "$(dirname "$0")/.."
H=${1:-target/release/hiradix}
[ -x "$H" ] || cargo build --release --quiet
BASE=(--set topology.type=hyperx --set 'topology.s=[8,8,8]' --set 'topology.k=[1]' --set topology.t=8
      --set traffic.pattern=bit_complement --set router.vcs=6 --set router.buffer_depth=32
      --set router.pipeline_delay=4 --set router.speedup=2 --set router.switch_allocator=islip
      --set measurement.warmup=1000 --set measurement.measure=1000 --set measurement.drain_limit=2000
      --set routing.algorithm=dal)
LOADS=0.3,0.4,0.45,0.5,0.55,0.6
run() { # name, --vary spec
  echo "== $1: $2"
  "$H" sweep "${BASE[@]}" --loads $LOADS --vary "$2" --csv "docs/hyperx/dal-bc-$1.csv" | grep -E "^==|saturation:"
}
run algorithm routing.algorithm=dal,val
run unblocked-credits routing.dal_unblocked_credits=1,4,16
run queue-threshold routing.dal_queue_threshold=0,2,8,32
run vcs router.vcs=4,6,8
run buffer-depth router.buffer_depth=16,32,64
run allocator routing.allocator=sequential,greedy
{
  echo "setting,series,last_unsaturated_load,onset_load,max_accepted"
  for f in algorithm unblocked-credits queue-threshold vcs buffer-depth allocator; do
    tail -n +2 "docs/hyperx/dal-bc-$f-saturation.csv" | sed "s/^/$f,/"
  done
} > docs/hyperx/dal-bc.csv
echo "wrote docs/hyperx/dal-bc.csv"
