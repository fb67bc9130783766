#!/usr/bin/env bash
# Runs every test: the pkg/ freshness check, rustfmt and clippy (warnings are errors), ESLint
# and Prettier on the page's JavaScript (warnings are errors), the native Rust tests (release:
# the simulation tests are heavy), a sweep on a real single-node Slurm (scripts/test-slurm.sh)
# and the browser tests (headless Debian Chromium via playwright-core).
# Installs what it needs on a bare Debian machine, idempotently: Debian packages (Chromium,
# Node.js, the Rust "web" toolchain for the wasm build), the wasm-bindgen CLI, and the npm
# dev dependencies pinned in package-lock.json (playwright-core, ESLint, Prettier; no browser
# is ever downloaded).
# Runs with CI=true and no stdin. Every stage runs even if an earlier one failed; the exit
# status is non-zero if any failed.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
cd "$ROOT"
export CARGO_TERM_COLOR="${CARGO_TERM_COLOR:-never}"
export PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1
export npm_config_audit=false npm_config_fund=false npm_config_update_notifier=false
# One wasm target dir per machine, outside the clone: CI runs in a fresh clone every time,
# and building std for wasm32 from source costs minutes.
export HIRADIX_WASM_TARGET_DIR="${HIRADIX_WASM_TARGET_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/hiradix/wasm-target}"

FAILED=()
stage() {
    local name="$1"; shift
    # Nothing is printed after a stage that passed, so the output ends with the test
    # runner's own summary lines.
    log "── $name (started at +${SECONDS} s)"
    # A subshell outside any `if`, so `set -e` stays in force inside the stage.
    set +e
    (set -e; "$@")
    local rc=$?
    set -e
    if [ $rc -ne 0 ]; then
        log "── $name: FAILED (exit status $rc)"
        FAILED+=("$name")
    fi
}

install_deps() {
    apt_ensure chromium fonts-dejavu-core
    command -v node >/dev/null || apt_ensure nodejs npm
    command -v cargo >/dev/null || apt_ensure rustc-web cargo-web
    # `npm ci` whenever package-lock.json differs from the one node_modules/ was installed
    # from (its hash is stamped there after a successful install).
    local stamp=node_modules/.hiradix-lock.sha256 want have=""
    want="$(sha256sum package-lock.json | cut -d' ' -f1)"
    if [ -f "$stamp" ]; then have="$(cat "$stamp")"; fi
    if [ "$want" != "$have" ]; then
        log "installing npm dev dependencies (package-lock.json ${want:0:12})"
        npm ci --no-audit --no-fund --loglevel=error </dev/null
        echo "$want" >"$stamp"
    fi
}

# cargo from PATH, or Debian's when PATH has none.
run_cargo() {
    local cargo=cargo
    command -v cargo >/dev/null || cargo=/usr/bin/cargo
    "$cargo" "$@"
}

formatting() {
    run_cargo fmt --check
}

lints() {
    run_cargo clippy --release --all-targets -- -D warnings
}

# The page's JavaScript (www/, tests/browser/, scripts/*.mjs; eslint.config.js and
# .prettierignore leave out pkg/, docs/, target/, node_modules/), and the page's types
# (tsconfig.json: www/ checked against its JSDoc, the DOM's and pkg/hiradix.d.ts), and
# the layers of www/ (tests/page/). All run even if one fails.
page_lint() {
    local rc=0
    npx --no -- eslint --max-warnings 0 . || rc=1
    npx --no -- prettier --check --log-level warn '**/*.{js,mjs,cjs}' || rc=1
    npx --no -- tsc -p tsconfig.json || rc=1
    node --test tests/page/ || rc=1
    return $rc
}

native_tests() {
    run_cargo test --release
}

checked_tests() {
    run_cargo test --profile checked --lib
    run_cargo test --profile checked --test integration -- \
        engine_basics:: routing_walk:: dragonfly_routing:: hyperx_routing:: config_fuzz::
}

slurm_sweep() {
    scripts/test-slurm.sh target/release/hiradix
}

browser_tests() {
    node --test tests/browser/*.test.mjs
}

stage "install dependencies" install_deps
stage "pkg/ freshness check" scripts/check-pkg.sh
stage "formatting (cargo fmt --check)" formatting
stage "lints (cargo clippy --all-targets -D warnings)" lints
stage "page lint, format, types and layers (eslint, prettier --check, tsc, tests/page)" page_lint
stage "native tests (cargo test --release)" native_tests
stage "sweep as a Slurm job array on a real single-node Slurm" slurm_sweep
stage "engine tests with debug assertions (cargo test --profile checked)" checked_tests
stage "browser tests (node --test)" browser_tests

if [ ${#FAILED[@]} -gt 0 ]; then
    log "FAILED: ${FAILED[*]}"
    exit 1
fi
