#!/usr/bin/env bash
# Counts the instructions the engine executes per simulated cycle on named benchmark
# configurations, with valgrind's callgrind (an instruction count does not depend on what
# else the machine runs, unlike cycles/s), and rewrites the table between the
# instructions markers of docs/performance.md.
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
table=$(mktemp)
{
    echo "Counted $(date -u +%Y-%m-%d) with \`scripts/count-instructions.sh\` (callgrind, $((CYCLES + CYCLES / 4)) simulated cycles after building the network):"
    echo
    echo "| configuration | instructions per simulated cycle | packets delivered per cycle | instructions per delivered packet |"
    echo "|---|---:|---:|---:|"
    for c in "${configs[@]}"; do
        base=$(count "$c" 0)
        total=$(count "$c" "$CYCLES")
        packets=$(target/release/hiradix bench --only "$c" --cycles "$CYCLES" --repeat 1 | awk -v c="$c" '$1 == c { print $3 / $2 }')
        python3 -c "
per_cycle = ($total - $base) / ($CYCLES + $CYCLES // 4)
print(f'| $c | {per_cycle:,.0f} | {$packets:.0f} | {per_cycle / $packets:,.0f} |')"
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
