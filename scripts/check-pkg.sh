#!/usr/bin/env bash
# Checks that the committed pkg/ is what src/ builds (pkg/ is committed so that the page
# is served with no build step, docs/ARCHITECTURE.md, The page, so it must match src/).
# Rebuilds into a temporary dir with scripts/build-wasm.sh (reusing the target/wasm cache)
# and compares:
#  1. the source hash in pkg/hiradix.stamp with the current sources (catches any src/
#     change not followed by a rebuild, and is what lets serve.sh skip building);
#  2. hiradix.js and the .d.ts files, byte for byte (wasm-bindgen's output is deterministic
#     for a given wasm-bindgen version and exported API);
#  3. hiradix_bg.wasm, byte for byte when this machine's wasm toolchain is the one pkg/ was
#     built with (recorded in the stamp). With the same rustc, std sources and flags the
#     build is reproducible: build-wasm.sh remaps absolute paths (repo, cargo registry) and
#     turns debug info off, so the clone's location does not leak into the binary.
#     A *different* toolchain (say a laptop's rustup rustc with its prebuilt wasm32 std
#     instead of Debian's rustc-web + build-std) legitimately produces different code, so
#     then only the wasm module's interface — its imports and exports, which is what the JS
#     glue binds to — is compared, and a warning says so.
# Exit status 1 with "pkg/ is stale: run scripts/build-wasm.sh" when anything differs.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
cd "$ROOT"

CRATE=hiradix
STALE_MSG="pkg/ is stale: run scripts/build-wasm.sh"
stale() {
    printf '\033[1;31m%s\033[0m\n  (%s)\n' "$STALE_MSG" "$*" >&2
    exit 1
}

for f in "$CRATE.js" "$CRATE.d.ts" "${CRATE}_bg.wasm" "${CRATE}_bg.wasm.d.ts" "$CRATE.stamp"; do
    [ -s "pkg/$f" ] || stale "pkg/$f is missing"
done
if command -v git >/dev/null && git rev-parse --git-dir >/dev/null 2>&1; then
    # Only matters for what is committed: warn about uncommitted changes under pkg/.
    if ! git diff --quiet HEAD -- pkg/ 2>/dev/null; then
        log "warning: pkg/ has uncommitted changes; the check compares the working tree"
    fi
fi

FRESH="$(mktemp -d "${TMPDIR:-/tmp}/hiradix-check.XXXXXX")"
trap 'rm -rf "$FRESH"' EXIT
"$ROOT/scripts/build-wasm.sh" --out-dir "$FRESH"

stamp_field() { sed -n "s/^$1: //p" "$2"; }
want_hash="$(stamp_field source-sha256 "$FRESH/$CRATE.stamp")"
have_hash="$(stamp_field source-sha256 "pkg/$CRATE.stamp")"
[ "$want_hash" = "$have_hash" ] ||
    stale "pkg/ was built from other sources (hash ${have_hash:0:12}, src/ now ${want_hash:0:12})"

for f in "$CRATE.js" "$CRATE.d.ts" "${CRATE}_bg.wasm.d.ts"; do
    cmp -s "$FRESH/$f" "pkg/$f" || stale "pkg/$f differs from a fresh build"
done

if cmp -s "$FRESH/${CRATE}_bg.wasm" "pkg/${CRATE}_bg.wasm"; then
    log "pkg/ is up to date (byte-identical to a fresh build)"
    exit 0
fi

want_tc="$(stamp_field toolchain "$FRESH/$CRATE.stamp")"
have_tc="$(stamp_field toolchain "pkg/$CRATE.stamp")"
if [ "$want_tc" = "$have_tc" ]; then
    stale "pkg/${CRATE}_bg.wasm differs from a fresh build with the same toolchain ($want_tc)"
fi

log "warning: pkg/ was built with '$have_tc' but this machine builds with '$want_tc';"
log "         comparing the wasm module's imports and exports instead of its bytes"
interface() {
    node -e '
        const m = new WebAssembly.Module(require("fs").readFileSync(process.argv[1]));
        const out = [];
        for (const i of WebAssembly.Module.imports(m)) out.push(`import ${i.module}.${i.name} ${i.kind}`);
        for (const e of WebAssembly.Module.exports(m)) out.push(`export ${e.name} ${e.kind}`);
        console.log(out.sort().join("\n"));
    ' "$1"
}
if ! diff <(interface "pkg/${CRATE}_bg.wasm") <(interface "$FRESH/${CRATE}_bg.wasm") >&2; then
    stale "the wasm module's interface differs from a fresh build"
fi
log "pkg/ is up to date (same sources, same JS glue, same wasm interface)"
