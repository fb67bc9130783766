#!/usr/bin/env bash
# Serves the static page on http://127.0.0.1:$PORT/ (default 8000), building pkg/ first if
# src/ changed since it was built (a fresh clone has an up-to-date pkg/ committed, so this
# needs no Rust toolchain then).
#   scripts/serve.sh              PORT=8080 scripts/serve.sh
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
cd "$ROOT"

PORT="${PORT:-8000}"
case "$PORT" in ''|*[!0-9]*) die "PORT must be a number, got '$PORT'" ;; esac

"$ROOT/scripts/build-wasm.sh"

command -v python3 >/dev/null || apt_ensure python3
log "serving $ROOT"
printf '\n  hiradix is at  http://127.0.0.1:%s/   (Ctrl-C to stop)\n\n' "$PORT"
exec python3 -m http.server --bind 127.0.0.1 --directory "$ROOT" "$PORT"
