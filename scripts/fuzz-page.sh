#!/usr/bin/env bash
# A long campaign of the page's URL fuzz test (tests/browser/url-fuzz.test.mjs): COUNT
# generated hostile share links loaded one after another in headless Chromium, each
# checked for executed script, polluted prototypes, page errors, internal errors,
# horizontal scroll and unreported refusals. Prints how many links ran, how long it took
# and every failure (with the seed that regenerates it).
#
#   scripts/fuzz-page.sh [COUNT] [SEED]      defaults: 5000 links, a seed from the clock
#   HIRADIX_URL_FUZZ_ONLY=898,1323 scripts/fuzz-page.sh 2500 SEED   replays those links
#
# The test command runs the same test with a short, fixed slice (120 links, seed 15).
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
cd "$ROOT"

count="${1:-5000}"
seed="${2:-$(date +%s)}"
report="$(mktemp --suffix=.json)"
output="$(mktemp --suffix=.log)"
trap 'rm -f "$report"' EXIT

log "loading $count hostile links (seed $seed); the test's output goes to $output"
set +e
HIRADIX_URL_FUZZ_COUNT="$count" HIRADIX_URL_FUZZ_SEED="$seed" HIRADIX_URL_FUZZ_REPORT="$report" \
    node --test tests/browser/url-fuzz.test.mjs >"$output" 2>&1
rc=$?
set -e

if [ ! -s "$report" ]; then
    tail -n 40 "$output" >&2
    die "the fuzz test ended (status $rc) without its report; see $output"
fi
node -e '
const r = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8"));
console.log(`URLs run: ${r.count}`);
console.log(`time: ${r.seconds.toFixed(1)} s (${(1000 * r.seconds / r.count).toFixed(0)} ms per URL)`);
console.log(`seed: ${r.seed}`);
console.log(`failures: ${r.failures.length}`);
for (const f of r.failures) console.log(`  #${f.i} ${f.query}\n    ${f.wrong.join("\n    ")}`);
' "$report"
exit "$rc"
