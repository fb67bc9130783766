#!/usr/bin/env bash
# Counts the lean bounds' instructions per simulated cycle, natively and in wasm (V8
# TurboFan, as scripts/count-instructions.sh counts hiradix): 5 000 cycles minus 0, divided
# by 5 000 (V8's start-up varies by a few million instructions between runs).
# Builds natively with the rustup toolchain and for wasm32 with Debian's (shared/TOOLCHAIN.md).
#
#   scripts/lean-bound/count.sh [fb] [df]      (both by default)
set -euo pipefail
cd "$(dirname "$0")"
for c in ${@:-fb df}; do
    case "$c" in fb | df) ;; *) echo "usage: $0 [fb] [df]" >&2; exit 2 ;; esac
done
for tool in valgrind node /usr/bin/cargo wasm-ld; do
    command -v "$tool" >/dev/null || {
        echo "$0: needs $tool (valgrind, Node.js, and Debian's rustc-web with lld, which scripts/build-wasm.sh installs)" >&2
        exit 2
    }
done
cargo build --release -q --target-dir target/native
PATH=/usr/bin:$PATH RUSTC=/usr/bin/rustc RUSTC_BOOTSTRAP=1 \
    CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_LINKER=wasm-ld CARGO_PROFILE_RELEASE_DEBUG=0 \
    /usr/bin/cargo build --release -q --target wasm32-unknown-unknown -Z build-std=std,panic_abort \
    --lib --target-dir target/wasm
BIN=target/native/release/lean-bound
WASM=target/wasm/wasm32-unknown-unknown/release/lean_bound.wasm
count() { valgrind --tool=callgrind --callgrind-out-file=/dev/null "$@" 2>&1 >/dev/null | awk '/Collected/ {gsub(",", "", $4); print $4}'; }
node_run() { count node --no-liftoff --no-wasm-lazy-compilation --single-threaded run.mjs "$WASM" "$@"; }
for c in ${@:-fb df}; do
    native=$(( ($(count "$BIN" "$c" 5000) - $(count "$BIN" "$c" 0)) / 5000 ))
    wasm=$(( ($(node_run "$c" 5000) - $(node_run "$c" 0)) / 5000 ))
    echo "$c: $("$BIN" "$c" 5000) natively; $(node run.mjs "$WASM" "$c" 5000) in wasm"
    echo "$c: instructions per simulated cycle: native $native, wasm $wasm"
done
