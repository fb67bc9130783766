#!/usr/bin/env bash
# Builds pkg/ — the wasm-bindgen `--target web` output (hiradix.js, hiradix_bg.wasm, .d.ts)
# that the static page loads — from src/.
#
#   scripts/build-wasm.sh                 build pkg/ if src/ changed since it was built
#   scripts/build-wasm.sh --force         rebuild even if pkg/ looks up to date
#   scripts/build-wasm.sh --out-dir DIR   build into DIR instead (always builds; used by
#                                         scripts/check-pkg.sh)
#
# Works on a bare Debian machine (installs what it needs, idempotently):
#  * If the active rustup toolchain has the wasm32-unknown-unknown target (a laptop with
#    internet: `rustup target add wasm32-unknown-unknown`), it is used the normal way.
#  * Otherwise (these machines: no wasm target can be downloaded) Debian's Rust "web"
#    toolchain is used: /usr/bin/cargo 1.96 from rustc-web/cargo-web, whose standard library
#    is compiled for wasm32 from rust-web-src with `-Z build-std` (RUSTC_BOOTSTRAP=1), linked
#    by lld's wasm-ld. See shared/TOOLCHAIN.md.
#  HIRADIX_WASM_TOOLCHAIN=rustup|debian forces one of the two.
#
# The wasm build uses its own target dir (target/wasm) so native and wasm builds do not
# invalidate each other, and `--no-default-features --lib` (the default `cli` feature pulls
# native-only crates). The wasm-bindgen CLI is installed with `cargo install` at exactly the
# version of the wasm-bindgen crate in Cargo.lock (≈10 min once per machine; cached in
# ~/.cargo/bin afterwards).
#
# Up to date = pkg/hiradix.stamp holds the hash of the inputs (src/ minus src/bin/,
# Cargo.toml, Cargo.lock, the recipe version below) and every output file exists.
#
# Deterministic output: absolute paths (target dir, cargo registry) are remapped so that
# panic locations compiled into the wasm do not depend on where the repo, its target dir or
# ~/.cargo live; debug info is off for the wasm build. The same toolchain therefore gives byte-identical files
# from any clone (scripts/check-pkg.sh relies on this).
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
cd "$ROOT"

# Bump when the flags below change, so pkg/ is rebuilt.
RECIPE=2
CRATE=hiradix
OUT_DIR="$ROOT/pkg"
FORCE=0
while [ $# -gt 0 ]; do
    case "$1" in
        --force) FORCE=1 ;;
        --out-dir) OUT_DIR="$(mkdir -p "$2" && cd "$2" && pwd)"; FORCE=1; shift ;;
        -h|--help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
        *) die "unknown argument: $1 (see --help)" ;;
    esac
    shift
done

OUTPUTS=("$CRATE.js" "$CRATE.d.ts" "${CRATE}_bg.wasm" "${CRATE}_bg.wasm.d.ts")

# Hash of everything the wasm is built from.
source_hash() {
    {
        echo "recipe $RECIPE"
        find src -type f ! -path 'src/bin/*' -print0 | LC_ALL=C sort -z | xargs -0 sha256sum
        sha256sum Cargo.toml Cargo.lock
    } | sha256sum | cut -d' ' -f1
}

SRC_HASH="$(source_hash)"
if [ "$FORCE" -eq 0 ] && [ -f "$OUT_DIR/$CRATE.stamp" ] &&
    grep -qx "source-sha256: $SRC_HASH" "$OUT_DIR/$CRATE.stamp"; then
    complete=1
    for f in "${OUTPUTS[@]}"; do [ -s "$OUT_DIR/$f" ] || complete=0; done
    if [ "$complete" -eq 1 ]; then
        log "pkg/ is up to date (source hash ${SRC_HASH:0:12})"
        exit 0
    fi
fi

# ---------------------------------------------------------------- the Rust toolchain
export CARGO_HOME="${CARGO_HOME:-$HOME/.cargo}"
export PATH="$PATH:$CARGO_HOME/bin"
MODE="${HIRADIX_WASM_TOOLCHAIN:-}"
if [ -z "$MODE" ]; then
    if have_rustup_wasm_target; then MODE=rustup
    elif command -v apt-get >/dev/null; then MODE=debian
    elif command -v rustup >/dev/null && rustup target add wasm32-unknown-unknown; then MODE=rustup
    else die "no wasm32 toolchain: run 'rustup target add wasm32-unknown-unknown' (or use Debian's rustc-web)"
    fi
fi

BUILD_ENV=()
BUILD_ARGS=()
case "$MODE" in
    rustup)
        CARGO_BIN="$(command -v cargo)"
        RUSTC_BIN="$(command -v rustc)"
        TOOLCHAIN_DESC="$("$RUSTC_BIN" --version) (rustup target)"
        ;;
    debian)
        apt_ensure rustc-web cargo-web rust-web-src lld
        CARGO_BIN=/usr/bin/cargo
        RUSTC_BIN=/usr/bin/rustc
        [ -d /usr/lib/rustlib/src/rust/library ] || die "rust-web-src did not install /usr/lib/rustlib/src/rust"
        TOOLCHAIN_DESC="$("$RUSTC_BIN" --version) (Debian rustc-web, build-std)"
        # Debian's cargo must find Debian's rustc, not rustup's proxy first on PATH.
        BUILD_ENV=(PATH="/usr/bin:$PATH" RUSTC="$RUSTC_BIN" RUSTC_BOOTSTRAP=1
            CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_LINKER=wasm-ld)
        BUILD_ARGS=(-Z build-std=std,panic_abort)
        ;;
    *) die "HIRADIX_WASM_TOOLCHAIN must be rustup or debian, got '$MODE'" ;;
esac

# ---------------------------------------------------------------- wasm-bindgen CLI
WB_VERSION="$(lock_version wasm-bindgen)"
[ -n "$WB_VERSION" ] || die "no wasm-bindgen in Cargo.lock"
wb_ok() { [ "$(wasm-bindgen --version 2>/dev/null | awk '{print $2}')" = "$WB_VERSION" ]; }
if ! wb_ok; then
    mkdir -p "$CARGO_HOME"
    # The lock keeps two concurrent runs from compiling the CLI twice.
    exec 9>"$CARGO_HOME/.hiradix-wasm-bindgen-cli.lock"
    flock 9
    if ! wb_ok; then
        log "installing wasm-bindgen-cli $WB_VERSION (once per machine, ≈10 min on 2 cores)"
        # Not --locked: one of the CLI's locked dependency versions was yanked.
        installer="$(command -v cargo || echo "$CARGO_BIN")"
        "$installer" install --quiet wasm-bindgen-cli --version "$WB_VERSION" --force >&2
    fi
    flock -u 9
    wb_ok || die "wasm-bindgen $WB_VERSION not found after install (PATH=$PATH)"
fi

# ---------------------------------------------------------------- build
# HIRADIX_WASM_TARGET_DIR moves the wasm target dir (with its build-std artefacts) out of
# the clone, so fresh clones on one machine (CI) share it; scripts/test.sh does that.
TARGET_DIR="${HIRADIX_WASM_TARGET_DIR:-$ROOT/target/wasm}"
mkdir -p "$TARGET_DIR"
TARGET_DIR="$(cd "$TARGET_DIR" && pwd)"
# Absolute paths that would otherwise end up in panic messages: the target dir (code that
# build scripts generate) and the cargo registry. The repo itself needs no remapping:
# cargo passes workspace sources to rustc as relative paths (src/...). These flags are the
# same for every clone that shares a target dir, so shared artefacts stay valid.
# \x1f-separated, so paths with spaces survive.
SEP=$'\x1f'
RUSTFLAGS_ENC="--remap-path-prefix=$CARGO_HOME=/cargo${SEP}--remap-path-prefix=$TARGET_DIR=/target"
log "building $CRATE for wasm32 with $TOOLCHAIN_DESC"
start=$SECONDS
env "${BUILD_ENV[@]}" \
    CARGO_ENCODED_RUSTFLAGS="$RUSTFLAGS_ENC" \
    CARGO_PROFILE_RELEASE_DEBUG=0 \
    "$CARGO_BIN" build --release --target wasm32-unknown-unknown "${BUILD_ARGS[@]}" \
    --no-default-features --lib --target-dir "$TARGET_DIR"

WASM_IN="$TARGET_DIR/wasm32-unknown-unknown/release/$CRATE.wasm"
[ -f "$WASM_IN" ] || die "cargo did not produce $WASM_IN"

STAGE="$(mktemp -d "${TMPDIR:-/tmp}/hiradix-pkg.XXXXXX")"
trap 'rm -rf "$STAGE"' EXIT
wasm-bindgen --target web --out-dir "$STAGE" --out-name "$CRATE" "$WASM_IN"
for f in "${OUTPUTS[@]}"; do [ -s "$STAGE/$f" ] || die "wasm-bindgen did not produce $f"; done
{
    echo "# Written by scripts/build-wasm.sh; pkg/ is up to date when the hash matches."
    echo "source-sha256: $SRC_HASH"
    echo "toolchain: $TOOLCHAIN_DESC"
    echo "wasm-bindgen: $WB_VERSION"
} >"$STAGE/$CRATE.stamp"

mkdir -p "$OUT_DIR"
for f in "${OUTPUTS[@]}"; do cp "$STAGE/$f" "$OUT_DIR/$f"; done
cp "$STAGE/$CRATE.stamp" "$OUT_DIR/$CRATE.stamp"
log "wrote $OUT_DIR ($(du -k "$OUT_DIR/${CRATE}_bg.wasm" | cut -f1) KiB wasm) in $((SECONDS - start)) s"
