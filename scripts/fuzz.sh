#!/usr/bin/env bash
# A long fuzz campaign (the test command runs short slices of the same tests):
#  1. random configurations through parse → validate → build → 40 cycles
#     (tests/integration/config_fuzz.rs, random_configs_are_errors_or_run), HIRADIX_FUZZ_CONFIGS of
#     them (default 1 000 000) from seed HIRADIX_FUZZ_SEED (default 2), release build with
#     overflow checks off, as users run it;
#  2. hostile story documents through the engine's story check, each accepted one run in
#     every pane (tests/integration/story_fuzz.rs), HIRADIX_FUZZ_STORIES of them (default 100 000);
#  3. hostile share URLs in headless Chromium (scripts/fuzz-page.sh).
# Prints the figures that docs/reliability.md records.
#   scripts/fuzz.sh            all three;   scripts/fuzz.sh configs | stories | page   one of them
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
what="${1:-all}"
if [ "$what" = all ] || [ "$what" = configs ]; then
    HIRADIX_FUZZ_CONFIGS="${HIRADIX_FUZZ_CONFIGS:-1000000}" HIRADIX_FUZZ_SEED="${HIRADIX_FUZZ_SEED:-2}" \
        cargo test --release --test integration config_fuzz::random_configs_are_errors_or_run -- --nocapture 2>&1 |
        grep -E "random configurations|panicked|test result"
fi
if [ "$what" = all ] || [ "$what" = stories ]; then
    HIRADIX_FUZZ_STORIES="${HIRADIX_FUZZ_STORIES:-100000}" HIRADIX_FUZZ_SEED="${HIRADIX_FUZZ_SEED:-2}" \
        cargo test --release --test integration story_fuzz:: -- --nocapture 2>&1 |
        grep -E "hostile story documents|panicked|test result"
fi
if [ "$what" = all ] || [ "$what" = page ]; then
    scripts/fuzz-page.sh
fi
