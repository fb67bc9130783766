# Shared helpers for the scripts in this folder (sourced, not executed).
# shellcheck shell=bash

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
export ROOT

log() { printf '\033[1m[%s]\033[0m %s\n' "$(basename "$0")" "$*" >&2; }
die() { printf '\033[1;31m[%s] error:\033[0m %s\n' "$(basename "$0")" "$*" >&2; exit 1; }

# Run a command as root (directly when we are root, else through sudo).
as_root() {
    if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo "$@"; fi
}

# apt_ensure PKG... : install the Debian packages that are not installed yet.
APT_UPDATED=0
apt_ensure() {
    local missing=() p
    for p in "$@"; do
        dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
    done
    [ ${#missing[@]} -eq 0 ] && return 0
    command -v apt-get >/dev/null || die "missing packages ${missing[*]} and no apt-get; install them by hand"
    log "installing Debian packages: ${missing[*]}"
    if [ "$APT_UPDATED" -eq 0 ]; then
        as_root apt-get update -qq >&2
        APT_UPDATED=1
    fi
    as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
        "${missing[@]}" >&2 </dev/null
}

# The version of a package in Cargo.lock, e.g. lock_version wasm-bindgen
lock_version() {
    awk -v name="$1" '
        $0 == "name = \"" name "\"" { found = 1; next }
        found && /^version = / { gsub(/"/, "", $3); print $3; exit }
    ' "$ROOT/Cargo.lock"
}

# Does the rustup toolchain (or whatever `rustc` is first on PATH) have the wasm32 target?
have_rustup_wasm_target() {
    command -v rustup >/dev/null 2>&1 &&
        rustup target list --installed 2>/dev/null | grep -qx wasm32-unknown-unknown
}
