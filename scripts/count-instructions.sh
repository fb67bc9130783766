#!/usr/bin/env bash
# Counts the instructions the engine executes per simulated cycle on named benchmark
# configurations, with valgrind's callgrind (an instruction count does not depend on what
# else the machine runs, unlike cycles/s), natively and — with Node.js, on pkg/ — as wasm
# compiled by V8's optimizing compiler (TurboFan, the code Chromium runs once a function is
# hot), and rewrites the table between the instructions markers of docs/performance.md.
#   scripts/count-instructions.sh [configuration ...]   (default: the goal configurations)
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
command -v valgrind >/dev/null || { echo "count-instructions.sh: needs valgrind" >&2; exit 1; }
cargo build --release --quiet
configs=("$@")
[ ${#configs[@]} -gt 0 ] || configs=(fb1024-minad-0.5 fb1024-min-0.5 dragonfly1k-ugal_l-0.3 dragonfly1k-ugal_l_cr-0.3)
# `bench --cycles C` runs C/4 warm-up cycles, then C measured ones; building the network is
# counted separately (a run of 0 cycles) and subtracted.
CYCLES=800
count() {
    local out; out=$(mktemp)
    valgrind --tool=callgrind --callgrind-out-file="$out" target/release/hiradix bench --only "$1" --cycles "$2" --repeat 1 >/dev/null 2>&1
    sed -n 's/^summary: //p; s/^totals: //p' "$out" | head -1
    rm -f "$out"
}
# The same for the wasm build (scripts/wasm-bench.mjs with C/4 warm-up and C measured
# cycles). --no-liftoff --no-wasm-lazy-compilation compile every function with TurboFan up
# front (so the run of 0 cycles compiles as much as the measured one), --single-threaded
# keeps compilation on the counted thread; --smc-check lets valgrind follow V8's JIT code.
count_wasm() {
    local out; out=$(mktemp)
    valgrind --tool=callgrind --smc-check=all --callgrind-out-file="$out" node --no-liftoff --no-wasm-lazy-compilation --single-threaded scripts/wasm-bench.mjs "$1" --warmup $(($2 / 4)) --cycles "$2" >/dev/null 2>&1
    sed -n 's/^summary: //p; s/^totals: //p' "$out" | head -1
    rm -f "$out"
}
wasm=0
if command -v node >/dev/null && [ -f pkg/hiradix_bg.wasm ]; then wasm=1; else echo "count-instructions.sh: no node or no pkg/: native counts only" >&2; fi
table=$(mktemp)
{
    echo "Counted $(date -u +%Y-%m-%d) with \`scripts/count-instructions.sh\` (callgrind, $((CYCLES + CYCLES / 4)) simulated cycles after building the network):"
    echo
    echo "| configuration | instructions per simulated cycle | packets delivered per cycle | instructions per delivered packet | wasm (V8 TurboFan) instructions per cycle | wasm / native |"
    echo "|---|---:|---:|---:|---:|---:|"
    for c in "${configs[@]}"; do
        base=$(count "$c" 0)
        total=$(count "$c" "$CYCLES")
        packets=$(target/release/hiradix bench --only "$c" --cycles "$CYCLES" --repeat 1 | awk -v c="$c" '$1 == c { print $3 / $2 }')
        wbase=0 wtotal=0
        if [ $wasm = 1 ]; then
            json=$(target/release/hiradix bench --print-config "$c")
            wbase=$(count_wasm "$json" 0)
            wtotal=$(count_wasm "$json" "$CYCLES")
        fi
        python3 -c "
n = $CYCLES + $CYCLES // 4
per_cycle = ($total - $base) / n
wasm = ($wtotal - $wbase) / n
w = f'{wasm:,.0f} | {wasm / per_cycle:.2f}×' if wasm > 0 else '– | –'
print(f'| $c | {per_cycle:,.0f} | {$packets:.0f} | {per_cycle / $packets:,.0f} | {w} |')"
    done
} > "$table"
python3 - "$table" <<'PY'
import re, sys
section = open(sys.argv[1]).read()
doc = open("docs/performance.md").read()
start, end = "<!-- instructions:start -->", "<!-- instructions:end -->"
if start not in doc:
    sys.exit("docs/performance.md has no instructions markers")
doc = re.sub(re.escape(start) + ".*?" + re.escape(end), lambda m: start + "\n" + section + end, doc, flags=re.S)
open("docs/performance.md", "w").write(doc)
PY
cat "$table"
rm -f "$table"
