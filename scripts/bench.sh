#!/usr/bin/env bash
# Regenerates the native benchmark table in docs/performance.md (between the
# native-bench markers) with `hiradix bench`, on one core, and records the machine load.
#   scripts/bench.sh [extra hiradix bench args, e.g. --cycles 20000 --repeat 5]
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
cargo build --release --quiet
table=$(mktemp)
taskset -c 0 target/release/hiradix bench --markdown "$table" "$@"
{
    echo "Measured $(date -u +%Y-%m-%d) on $(nproc) cores of $(lscpu | sed -n 's/^Model name: *//p' | head -1), one core used;"
    echo "load average before the run: $(cut -d' ' -f1-3 /proc/loadavg) (other processes share the cores when it exceeds 1)."
    echo
    cat "$table"
} > "$table.section"
python3 - "$table.section" <<'PY'
import re, sys
section = open(sys.argv[1]).read()
doc = open("docs/performance.md").read()
start, end = "<!-- native-bench:start -->", "<!-- native-bench:end -->"
doc = re.sub(re.escape(start) + ".*?" + re.escape(end), start + "\n" + section + end, doc, flags=re.S)
open("docs/performance.md", "w").write(doc)
PY
rm -f "$table" "$table.section"
echo "updated docs/performance.md"
