#!/usr/bin/env bash
# Counts the lean bound's instructions per simulated cycle, natively and in wasm (V8
# TurboFan, as scripts/count-instructions.sh counts hiradix): 5 000 cycles minus 0, divided
# by 5 000 (V8's start-up varies by a few million instructions between runs).
# Builds natively with the rustup toolchain and for wasm32 with Debian's (shared/TOOLCHAIN.md).
set -euo pipefail
cd "$(dirname "$0")"
cargo build --release -q --target-dir target/native
PATH=/usr/bin:$PATH RUSTC=/usr/bin/rustc RUSTC_BOOTSTRAP=1 \
    CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_LINKER=wasm-ld CARGO_PROFILE_RELEASE_DEBUG=0 \
    /usr/bin/cargo build --release -q --target wasm32-unknown-unknown -Z build-std=std,panic_abort \
    --lib --target-dir target/wasm
WASM=target/wasm/wasm32-unknown-unknown/release/fbfloor.wasm
count() { valgrind --tool=callgrind --callgrind-out-file=/dev/null "$@" 2>&1 >/dev/null | awk '/Collected/ {gsub(",", "", $4); print $4}'; }
native=$(( ($(count target/native/release/fbfloor 5000) - $(count target/native/release/fbfloor 0)) / 5000 ))
node_run() { count node --no-liftoff --no-wasm-lazy-compilation --single-threaded run.mjs "$WASM" "$1"; }
wasm=$(( ($(node_run 5000) - $(node_run 0)) / 5000 ))
echo "delivered in 5000 cycles: $(target/native/release/fbfloor 5000) (native), $(node run.mjs "$WASM" 5000)"
echo "instructions per simulated cycle: native $native, wasm $wasm"
