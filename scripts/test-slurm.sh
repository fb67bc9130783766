#!/usr/bin/env bash
# A sweep run as a Slurm job array on a real single-node Slurm (scripts/slurm-local.sh),
# merged, must give byte for byte the CSV of the same sweep run locally; a missing point is
# reported with the command that resubmits it, and resubmitting it completes the merge.
# Part of the README's test command (scripts/test.sh). Needs root (the daemons run as root).
# Usage: scripts/test-slurm.sh [hiradix binary]
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
cd "$ROOT"
H="$(realpath "${1:-target/release/hiradix}")"
[ -x "$H" ] || die "$H not built (cargo build --release)"
WORK="$(mktemp -d "${TMPDIR:-/tmp}/hiradix-slurm.XXXXXX")"
chmod 755 "$WORK" # munged runs as user munge and keeps its socket and log in the cluster dir
CLUSTER="$WORK/cluster"
cleanup() {
    scripts/slurm-local.sh stop "$CLUSTER" || true
    rm -rf "$WORK"
}
trap cleanup EXIT

scripts/slurm-local.sh install
conf="$(scripts/slurm-local.sh start "$CLUSTER")" # an assignment, so a failed start stops here
eval "$conf"
export SLURM_CONF

# A small sweep: two series of three loads on the 4-ary 2-flat.
SWEEP=(sweep --set topology.k=4 --set router.vcs=2 --set measurement.warmup=200 --set measurement.measure=300
       --loads 0.1,0.3,0.6 --vary routing.algorithm=min,val)
"$H" "${SWEEP[@]}" --csv "$WORK/local.csv" -j 2 >/dev/null
"$H" "${SWEEP[@]}" --slurm "$WORK/job" --slurm-time 5

# Nothing has run yet: merge refuses, names all six points and writes nothing.
if "$H" merge "$WORK/job" --csv "$WORK/merged.csv" 2>"$WORK/err"; then die "merge succeeded without results"; fi
grep -q "6 of 6 points have no result" "$WORK/err" || { cat "$WORK/err" >&2; die "merge did not report the missing points"; }
[ ! -e "$WORK/merged.csv" ] || die "merge wrote a partial CSV"

# Waits for job $1, at most $2 seconds.
wait_job() {
    local id="$1" limit="$2" start=$SECONDS
    while [ -n "$(squeue -h -j "$id" 2>/dev/null)" ]; do
        [ $((SECONDS - start)) -lt "$limit" ] || { squeue -j "$id" >&2 || true; die "job $id did not finish in $limit s"; }
        sleep 1
    done
}

start=$SECONDS
id="$(sbatch --parsable "$WORK/job/job.sh")"
wait_job "$id" 180
log "job array $id (6 tasks) done in $((SECONDS - start)) s"
"$H" merge "$WORK/job" --csv "$WORK/merged.csv" >/dev/null
cmp "$WORK/local.csv" "$WORK/merged.csv" || die "the merged CSV differs from the local sweep's"
cmp "$WORK/local-saturation.csv" "$WORK/merged-saturation.csv" || die "the merged saturation CSV differs"

# A point whose task failed (its result gone): reported by index, then resubmitted alone.
rm "$WORK/job/results/00004.json" "$WORK/merged.csv"
if "$H" merge "$WORK/job" --csv "$WORK/merged.csv" 2>"$WORK/err"; then die "merge succeeded with a point missing"; fi
grep -q "sbatch --array=4 '$WORK/job/job.sh'" "$WORK/err" || { cat "$WORK/err" >&2; die "no resubmit command for point 4"; }
id="$(sbatch --parsable --array=4 "$WORK/job/job.sh")"
wait_job "$id" 120
"$H" merge "$WORK/job" --csv "$WORK/merged.csv" >/dev/null
cmp "$WORK/local.csv" "$WORK/merged.csv" || die "the CSV after resubmitting differs"
log "slurm sweep: merged CSV identical to the local sweep's, a failed point resubmitted alone"
