#!/usr/bin/env bash
# Gathers the wall time every paper figure took, as its generated report states it
# (`hiradix figure` writes "Measured on DATE (UTC) at commit C with `COMMAND`, N s on M
# cores."), into the table between the figure-times markers of docs/performance.md.
set -euo pipefail
cd "$(dirname "$0")/.."
table="$(
  echo "| figure | wall time | cores | measured | command |"
  echo "|---|---:|---:|---|---|"
  for f in docs/dragonfly/df-*.md docs/hyperx/*.md; do
    line="$(grep -m1 '^Measured on ' "$f" || true)"
    [ -n "$line" ] || continue
    date="$(sed -E 's/^Measured on ([0-9-]+).*/\1/' <<<"$line")"
    commit="$(sed -E 's/.* at commit ([0-9a-f]+).*/\1/' <<<"$line")"
    cmd="$(sed -E 's/.*with `([^`]*)`.*/\1/' <<<"$line")"
    secs="$(sed -E 's/.*`, ([0-9]+) s on ([0-9]+) cores.*/\1/' <<<"$line")"
    cores="$(sed -E 's/.* s on ([0-9]+) cores.*/\1/' <<<"$line")"
    printf '| [%s](%s) | %s s | %s | %s, %s | `%s` |\n' "$(basename "$f" .md)" "${f#docs/}" "$secs" "$cores" "$date" "$commit" "$cmd"
  done
)"
python3 - "$table" <<'PY'
import sys
table = sys.argv[1]
path = "docs/performance.md"
s = open(path).read()
begin, end = "<!-- figure-times:start -->", "<!-- figure-times:end -->"
i, j = s.index(begin) + len(begin), s.index(end)
open(path, "w").write(s[:i] + "\n" + table + "\n" + s[j:])
PY
echo "updated the figure wall times in docs/performance.md"
