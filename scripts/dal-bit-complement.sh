#!/bin/bash
# What DAL's bit-complement throughput on the HyperX paper's Fig. 6 network depends on:
# one `hiradix sweep` per DAL setting (thresholds, VC count, buffer depth), each around the hx-fig6 preset's router, with Valiant as the reference.
# Writes docs/hyperx/dal-bc-<setting>.csv (every point) and dal-bc-<setting>-saturation.csv
# (each series' saturation onset and throughput), and docs/hyperx/dal-bc.csv gathering the
# latter with the setting named: the claims of docs/hyperx.md read it
# (src/figures/claims/fb_hyperx_2dfb.rs) and docs/faithfulness.md lists what it shows.
# Usage: scripts/dal-bit-complement.sh [hiradix binary] [setting ...]
#   settings: algorithm unblocked-credits queue-threshold vcs buffer-depth
#   (the route allocator is not a setting of DAL: it needs the sequential one, since its
#   adaptive hops reserve a downstream slot that greedy allocation can promise twice)
#   (default: all; about 10 minutes each on 2 idle cores, the algorithm sweep first)
set -euo pipefail
# The first argument is the binary unless it names a setting.
case "${1:-}" in
  algorithm|unblocked-credits|queue-threshold|vcs|buffer-depth|"") H="" ;;
  *) H="$(realpath "$1")"; shift ;;
esac
cd "$(dirname "$0")/.."
if [ -z "$H" ]; then
  cargo build --release --quiet
  H=target/release/hiradix
fi
[ -x "$H" ] || { echo "$H is not an executable" >&2; exit 2; }
BASE=(--set topology.type=hyperx --set 'topology.s=[8,8,8]' --set 'topology.k=[1]' --set topology.t=8
      --set traffic.pattern=bit_complement --set router.vcs=6 --set router.buffer_depth=32
      --set router.pipeline_delay=4 --set router.speedup=2 --set router.switch_allocator=islip
      --set measurement.warmup=1000 --set measurement.measure=1000 --set measurement.drain_limit=2000
      --set routing.algorithm=dal)
ORDER=(algorithm unblocked-credits queue-threshold vcs buffer-depth)
declare -A VARY=(
  [algorithm]=routing.algorithm=dal,val
  [unblocked-credits]=routing.dal_unblocked_credits=4,16
  [queue-threshold]=routing.dal_queue_threshold=0,8
  [vcs]=router.vcs=4,8
  [buffer-depth]=router.buffer_depth=16,64
)
# The default DAL peaks between 0.45 and 0.5 (the algorithm sweep): the other settings are
# measured around that peak.
declare -A LOADS=([algorithm]=0.3,0.4,0.45,0.5,0.55,0.6)
settings=("$@")
[ ${#settings[@]} -gt 0 ] || settings=("${ORDER[@]}")
for s in "${settings[@]}"; do
  [ -n "${VARY[$s]:-}" ] || { echo "unknown setting $s (${ORDER[*]})" >&2; exit 2; }
  echo "== $s: ${VARY[$s]}"
  "$H" sweep "${BASE[@]}" --loads "${LOADS[$s]:-0.4,0.45,0.5}" --vary "${VARY[$s]}" --csv "docs/hyperx/dal-bc-$s.csv" |
    grep -E "^==|saturation:"
done
{
  echo "setting,series,last_unsaturated_load,onset_load,max_accepted"
  for s in "${ORDER[@]}"; do
    f="docs/hyperx/dal-bc-$s-saturation.csv"
    if [ -s "$f" ]; then tail -n +2 "$f" | sed "s/^/$s,/"; fi
  done
} > docs/hyperx/dal-bc.csv
echo "wrote docs/hyperx/dal-bc.csv"
