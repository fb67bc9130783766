#!/usr/bin/env bash
# A real single-node Slurm on this machine, for tests of `hiradix sweep --slurm`: no systemd, no cgroups, no
# slurmdbd. Everything (munge key and socket, slurm.conf, state, spool, logs, pid files) lives
# in one directory; the daemons run as root (munged as user munge) in the background.
#
#   scripts/slurm-local.sh install     # apt: slurm-wlm (slurmctld, slurmd, clients) + munge
#   scripts/slurm-local.sh start DIR   # writes DIR/slurm.conf, starts munged, slurmctld, slurmd;
#                                      # waits until the node is idle; prints SLURM_CONF=…
#   scripts/slurm-local.sh stop DIR    # stops exactly those daemons (by DIR/*.pid), waits
#   scripts/slurm-local.sh selftest    # install, start in a temp dir, run a 4-task array, stop
#
# Clients need SLURM_CONF=DIR/slurm.conf (`start` prints it; `eval "$(… start DIR)"` sets it).
# Without slurmdbd there is no sacct: wait for a job with `squeue -h -j ID` until it prints
# nothing, then check the files the tasks wrote; for 300 s (MinJobAge) after the end,
# `squeue -h -j ID --states=all -o '%i %T'` still lists each task as COMPLETED/FAILED/….
# Environment: SLURM_LOCAL_TIMEOUT (s, default 60) bounds the wait for the node to be idle;
# SLURMCTLD_PORT/SLURMD_PORT pin the ports (default: 6817/6818 or the next free pair).
# Docs: docs/slurm-local.md.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

START_TIMEOUT="${SLURM_LOCAL_TIMEOUT:-60}"

need_root() { [ "$(id -u)" -eq 0 ] || die "must run as root (slurmctld and slurmd run as root here)"; }

cmd_install() {
    apt_ensure slurm-wlm slurmctld slurmd slurm-client munge
    local b
    for b in munged slurmctld slurmd sinfo sbatch squeue scontrol; do
        command -v "$b" >/dev/null || [ -x "/usr/sbin/$b" ] || die "$b not found after installing slurm-wlm and munge"
    done
}

# Tail of a log for an error message.
log_tail() {
    local f="$1"
    if [ -s "$f" ]; then
        printf '  --- last lines of %s ---\n' "$f" >&2
        tail -n 25 "$f" | sed 's/^/  | /' >&2
    else
        printf '  (%s is empty or missing)\n' "$f" >&2
    fi
}

# Is the process in pid file $1 alive?
pid_alive() { [ -s "$1" ] && ! proc_gone "$(cat "$1")"; }

# fail DAEMON LOG... : stop what we started, show the logs, exit non-zero.
fail_start() {
    local what="$1"; shift
    printf '\033[1;31m[%s] error:\033[0m %s\n' "$(basename "$0")" "$what" >&2
    local f
    for f in "$@"; do log_tail "$f"; done
    cmd_stop "$DIR" >/dev/null 2>&1 || true
    exit 1
}

# Milliseconds since the epoch, and a duration in ms as seconds with one decimal.
now_ms() { local t="${EPOCHREALTIME/[.,]/}"; echo $((10#$t / 1000)); }
secs() { printf '%d.%d' $(($1 / 1000)) $((($1 % 1000) / 100)); }

# Is TCP port $1 listening here (IPv4 or IPv6)? Reads /proc, so it needs no iproute2.
port_used() {
    local hex
    hex="$(printf ':%04X ' "$1")"
    awk -v h="$hex" 'FNR > 1 && $4 == "0A" && index($2 " ", h) { found = 1 } END { exit !found }' \
        /proc/net/tcp /proc/net/tcp6 2>/dev/null
}

# wait_for SECONDS CMD... : poll CMD every 0.2 s until it succeeds; 1 on timeout.
wait_for() {
    local limit="$1"; shift
    local end=$((SECONDS + limit))
    until "$@"; do
        [ "$SECONDS" -lt "$end" ] || return 1
        sleep 0.2
    done
}

write_conf() {
    local host="$1" cpus="$2" mem="$3" sockets="$4" cores="$5" threads="$6"
    cat >"$DIR/slurm.conf" <<EOF
# Written by scripts/slurm-local.sh for a throwaway single-node Slurm; not for production.
ClusterName=hiradix-local
SlurmctldHost=$host(127.0.0.1)
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
AuthInfo=socket=$DIR/munge/munge.socket.2
CredType=cred/munge
SlurmctldPort=$SLURMCTLD_PORT
SlurmdPort=$SLURMD_PORT
StateSaveLocation=$DIR/state
SlurmdSpoolDir=$DIR/spool/slurmd-%n
SlurmctldPidFile=$DIR/slurmctld.pid
SlurmdPidFile=$DIR/slurmd.pid
SlurmctldLogFile=$DIR/log/slurmctld.log
SlurmdLogFile=$DIR/log/slurmd.log
SlurmctldDebug=info
SlurmdDebug=info
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
SchedulerType=sched/backfill
SchedulerParameters=${SLURM_LOCAL_SCHED_PARAMS:-batch_sched_delay=0}
MpiDefault=none
MailProg=/bin/true
ReturnToService=2
SlurmctldTimeout=30
SlurmdTimeout=30
InactiveLimit=0
MinJobAge=300
KillWait=5
Waittime=0
MaxArraySize=100001
MaxJobCount=200000
NodeName=$host NodeAddr=127.0.0.1 CPUs=$cpus Sockets=$sockets CoresPerSocket=$cores ThreadsPerCore=$threads RealMemory=$mem State=UNKNOWN
PartitionName=local Nodes=$host Default=YES MaxTime=INFINITE State=UP
EOF
}

cmd_start() {
    need_root
    DIR="${1:?usage: slurm-local.sh start DIR}"
    mkdir -p "$DIR"
    DIR="$(cd "$DIR" && pwd)"
    local t0
    t0="$(now_ms)"
    for b in munged slurmctld slurmd sinfo; do
        command -v "$b" >/dev/null || die "$b not found; run: scripts/slurm-local.sh install"
    done
    local f
    for f in munged slurmctld slurmd; do
        ! pid_alive "$DIR/$f.pid" || die "$f already running from $DIR (pid $(cat "$DIR/$f.pid")); run: $0 stop $DIR"
    done
    id munge >/dev/null 2>&1 || die "no user munge; run: scripts/slurm-local.sh install"

    mkdir -p "$DIR/state" "$DIR/spool" "$DIR/log" "$DIR/munge"
    # munged refuses keys and directories that others can write or read.
    chmod 755 "$DIR"
    chown munge:munge "$DIR/munge"
    chmod 700 "$DIR/munge"
    if [ ! -s "$DIR/munge/munge.key" ]; then
        dd if=/dev/urandom of="$DIR/munge/munge.key" bs=1024 count=1 status=none
    fi
    chown munge:munge "$DIR/munge/munge.key"
    chmod 400 "$DIR/munge/munge.key"
    # munged wants its socket directory not writable by others; 0711 lets clients reach it.
    chmod 711 "$DIR/munge"

    local host cpus mem sockets cores threads line
    host="$(hostname -s)"
    # slurmd -C: "NodeName=vm CPUs=2 Boards=1 SocketsPerBoard=1 CoresPerSocket=2 ThreadsPerCore=1 RealMemory=24105"
    line="$(slurmd -C 2>/dev/null | head -n 1)" || true
    kv() { sed -n "s/.*\\b$1=\\([0-9]*\\).*/\\1/p" <<<"$line"; }
    cpus="$(kv CPUs)"; mem="$(kv RealMemory)"; sockets="$(kv SocketsPerBoard)"
    cores="$(kv CoresPerSocket)"; threads="$(kv ThreadsPerCore)"
    if [ -z "$cpus" ] || [ -z "$mem" ]; then
        cpus="$(nproc)"; mem="$(awk '/MemTotal/ { print int($2 / 1024) }' /proc/meminfo)"
        sockets=1; cores="$cpus"; threads=1
    fi
    : "${sockets:=1}" "${threads:=1}" "${cores:=$cpus}"
    # Ports: SLURMCTLD_PORT/SLURMD_PORT if given, else 6817/6818 or the next free pair, so a
    # second instance (another test) does not collide with the first.
    if [ -z "${SLURMCTLD_PORT:-}" ]; then
        local p=6817
        while port_used "$p" || port_used $((p + 1)); do
            p=$((p + 2)); [ "$p" -lt 6917 ] || die "no free port pair in 6817-6916"
        done
        SLURMCTLD_PORT=$p; SLURMD_PORT=$((p + 1))
    fi
    : "${SLURMD_PORT:=$((SLURMCTLD_PORT + 1))}"
    port_used "$SLURMCTLD_PORT" && die "port $SLURMCTLD_PORT (SLURMCTLD_PORT) is in use"
    port_used "$SLURMD_PORT" && die "port $SLURMD_PORT (SLURMD_PORT) is in use"
    write_conf "$host" "$cpus" "$mem" "$sockets" "$cores" "$threads"
    export SLURM_CONF="$DIR/slurm.conf"

    # munged: user munge, key, socket, pid and log inside DIR.
    : >"$DIR/log/munged.log"; chown munge:munge "$DIR/log/munged.log"
    : >"$DIR/munged.pid"; chown munge:munge "$DIR/munged.pid"
    rm -f "$DIR/munge/munge.socket.2" "$DIR/munge/munge.socket.2.lock"
    local munged_seed="$DIR/munge/munged.seed"
    if ! runuser -u munge -- munged \
        --key-file="$DIR/munge/munge.key" \
        --socket="$DIR/munge/munge.socket.2" \
        --pid-file="$DIR/munged.pid" \
        --log-file="$DIR/log/munged.log" \
        --seed-file="$munged_seed" \
        --num-threads=2 >>"$DIR/log/munged.log" 2>&1; then
        fail_start "munged failed to start" "$DIR/log/munged.log"
    fi
    wait_for 10 test -S "$DIR/munge/munge.socket.2" ||
        fail_start "munged did not create its socket within 10 s" "$DIR/log/munged.log"
    if ! munge -n -S "$DIR/munge/munge.socket.2" | unmunge -S "$DIR/munge/munge.socket.2" >/dev/null 2>&1; then
        fail_start "munged is running but a munge/unmunge round trip failed" "$DIR/log/munged.log"
    fi

    # slurmctld: -c clears job state left by an earlier run in this DIR; daemon mode writes the pid file.
    : >"$DIR/log/slurmctld.log"
    if ! slurmctld -f "$SLURM_CONF" -c >>"$DIR/log/slurmctld.out" 2>&1; then
        fail_start "slurmctld failed to start" "$DIR/log/slurmctld.out" "$DIR/log/slurmctld.log"
    fi
    wait_for 15 pid_alive "$DIR/slurmctld.pid" ||
        fail_start "slurmctld exited or wrote no pid file" "$DIR/log/slurmctld.out" "$DIR/log/slurmctld.log"
    ctld_up() {
        pid_alive "$DIR/slurmctld.pid" || return 0   # stop polling; checked below
        scontrol ping 2>/dev/null | grep -q 'is UP'
    }
    wait_for 30 ctld_up || fail_start "slurmctld does not answer scontrol ping after 30 s" "$DIR/log/slurmctld.log"
    pid_alive "$DIR/slurmctld.pid" || fail_start "slurmctld exited during start" "$DIR/log/slurmctld.log"

    : >"$DIR/log/slurmd.log"
    if ! slurmd -f "$SLURM_CONF" >>"$DIR/log/slurmd.out" 2>&1; then
        fail_start "slurmd failed to start" "$DIR/log/slurmd.out" "$DIR/log/slurmd.log"
    fi
    wait_for 15 pid_alive "$DIR/slurmd.pid" ||
        fail_start "slurmd exited or wrote no pid file" "$DIR/log/slurmd.out" "$DIR/log/slurmd.log"

    node_idle() {
        pid_alive "$DIR/slurmctld.pid" || return 0   # stop polling; checked below
        pid_alive "$DIR/slurmd.pid" || return 0
        [ "$(sinfo -h -n "$host" -o '%t' 2>/dev/null)" = idle ]
    }
    if ! wait_for "$START_TIMEOUT" node_idle; then
        fail_start "node $host not idle after ${START_TIMEOUT} s (sinfo: $(sinfo -h -o '%P %t %N' 2>&1 | tr '\n' ' '))" \
            "$DIR/log/slurmctld.log" "$DIR/log/slurmd.log"
    fi
    pid_alive "$DIR/slurmctld.pid" || fail_start "slurmctld died during start" "$DIR/log/slurmctld.log"
    pid_alive "$DIR/slurmd.pid" || fail_start "slurmd died during start" "$DIR/log/slurmd.log"

    log "single-node Slurm up in $(secs $(($(now_ms) - t0))) s: node $host ($cpus CPUs, $mem MB), partition local, ports $SLURMCTLD_PORT/$SLURMD_PORT"
    log "logs in $DIR/log; stop with: $0 stop $DIR"
    echo "export SLURM_CONF=$SLURM_CONF"
}

# Has process $1 exited? A zombie counts: here the daemons' parent is init, which may reap late.
proc_gone() {
    [ ! -e "/proc/$1" ] && return 0
    [ "$(awk '{ print $3 }' "/proc/$1/stat" 2>/dev/null)" = Z ]
}

# stop_pidfile NAME FILE : TERM the process, wait up to 20 s, then KILL.
stop_pidfile() {
    local name="$1" file="$2" pid
    [ -s "$file" ] || return 0
    pid="$(cat "$file")"
    # A stale pid file (after a reboot) may name someone else's process now: check the name.
    if [ "$(cat "/proc/$pid/comm" 2>/dev/null)" != "$name" ]; then
        rm -f "$file"
        return 0
    fi
    if kill -0 "$pid" 2>/dev/null; then
        kill -TERM "$pid" 2>/dev/null || true
        if ! wait_for 20 proc_gone "$pid"; then
            log "$name (pid $pid) ignored SIGTERM for 20 s; killing it"
            kill -KILL "$pid" 2>/dev/null || true
            wait_for 5 proc_gone "$pid" || die "$name (pid $pid) survives SIGKILL"
        fi
        log "stopped $name (pid $pid)"
    fi
    rm -f "$file"
}

cmd_stop() {
    need_root
    local dir="${1:?usage: slurm-local.sh stop DIR}"
    [ -d "$dir" ] || die "no such directory: $dir"
    dir="$(cd "$dir" && pwd)"
    # Jobs first: slurmstepd outlives slurmd, so cancel what is still queued or running and
    # wait (bounded) until the controller has no jobs left.
    if pid_alive "$dir/slurmctld.pid" && [ -f "$dir/slurm.conf" ]; then
        local jobs
        jobs="$(SLURM_CONF="$dir/slurm.conf" squeue -h -o %A 2>/dev/null | sort -u | tr '\n' ' ')" || jobs=""
        if [ -n "${jobs// /}" ]; then
            log "cancelling jobs still in the queue: $jobs"
            # shellcheck disable=SC2086
            SLURM_CONF="$dir/slurm.conf" scancel $jobs 2>/dev/null || true
            wait_for 20 sh -c "[ -z \"\$(SLURM_CONF='$dir/slurm.conf' squeue -h 2>/dev/null)\" ]" ||
                log "jobs still listed after 20 s; stopping anyway"
        fi
    fi
    # Any slurmstepd of this instance (it holds DIR/log/slurmd.log open) that is still there.
    local p
    for p in $(pgrep -x slurmstepd || true); do
        if ls -l "/proc/$p/fd" 2>/dev/null | grep -qF -- "$dir/"; then
            # slurmd runs each slurmstepd and its job in a session of their own.
            local sid
            sid="$(ps -o sid= -p "$p" 2>/dev/null | tr -d ' ')"
            log "killing leftover slurmstepd $p and its job (session $sid)"
            if [ -n "$sid" ] && [ "$sid" -gt 1 ] && [ "$sid" != "$(ps -o sid= -p $$ | tr -d ' ')" ]; then
                pkill -KILL -s "$sid" 2>/dev/null || true
            fi
            kill -KILL "$p" 2>/dev/null || true
        fi
    done
    # Then slurmd, the controller, and munge last (the others talk through it).
    STOPPED=("$(cat "$dir/slurmd.pid" 2>/dev/null || true)" "$(cat "$dir/slurmctld.pid" 2>/dev/null || true)")
    stop_pidfile slurmd "$dir/slurmd.pid"
    stop_pidfile slurmctld "$dir/slurmctld.pid"
    STOPPED+=("$(cat "$dir/munged.pid" 2>/dev/null || true)")
    stop_pidfile munged "$dir/munged.pid"
    # Exited daemons stay zombies until init reaps them (some sandboxes' init takes ~2 s);
    # wait a little so that `pgrep slurm` right after stop is empty. Not an error if not.
    reaped() { local q; for q in "${STOPPED[@]}"; do [ -z "$q" ] || [ ! -e "/proc/$q" ] || return 1; done; }
    wait_for 5 reaped || true
}

cmd_selftest() {
    need_root
    local t0 t1 t2 t3 t4
    t0="$(now_ms)"
    cmd_install
    t1="$(now_ms)"
    local dir
    dir="$(mktemp -d /tmp/slurm-local.XXXXXX)"
    # shellcheck disable=SC2064
    trap "cmd_stop '$dir' >/dev/null 2>&1 || true" EXIT
    local env
    env="$(cmd_start "$dir")" || die "selftest: start failed (see above)"
    eval "$env"
    t2="$(now_ms)"

    local work="$dir/work"
    mkdir -p "$work"
    cat >"$work/task.sh" <<'EOF'
#!/bin/sh
echo "$SLURM_ARRAY_TASK_ID" > "out-$SLURM_ARRAY_TASK_ID"
EOF
    local jobid
    jobid="$(cd "$work" && sbatch --parsable --array=0-3 --time=1 --ntasks=1 --cpus-per-task=1 \
        --chdir="$work" --output="$work/slurm-%A_%a.out" task.sh)" || {
        log_tail "$dir/log/slurmctld.log"; die "sbatch failed"
    }
    jobid="${jobid%%;*}"
    log "submitted job array $jobid (4 tasks)"
    # Done when squeue lists no pending/running task; an unknown id (purged after MinJobAge)
    # also means done, any other squeue error does not.
    job_done() {
        local out
        out="$(squeue -h -j "$jobid" 2>&1)" || { grep -q 'Invalid job id' <<<"$out"; return; }
        [ -z "$out" ]
    }
    if ! wait_for 60 job_done; then
        squeue -j "$jobid" >&2 || true
        log_tail "$dir/log/slurmctld.log"; log_tail "$dir/log/slurmd.log"
        die "job array $jobid not finished after 60 s"
    fi
    t3="$(now_ms)"
    log "task states: $(squeue -h -j "$jobid" --states=all -o '%i=%T' | sort | tr '\n' ' ')"
    local i bad=0
    for i in 0 1 2 3; do
        if [ "$(cat "$work/out-$i" 2>/dev/null)" != "$i" ]; then
            log "task $i: missing or wrong out-$i"; bad=1
            [ -f "$work/slurm-${jobid}_$i.out" ] && log_tail "$work/slurm-${jobid}_$i.out"
        fi
    done
    if [ "$bad" -ne 0 ]; then
        log_tail "$dir/log/slurmctld.log"; log_tail "$dir/log/slurmd.log"
        die "job array $jobid finished but its outputs are wrong"
    fi
    cmd_stop "$dir"
    trap - EXIT
    t4="$(now_ms)"
    local left
    left="$(pgrep -a -f "$dir" || true)"
    [ -z "$left" ] || die "processes left after stop: $left"
    rm -rf "$dir"
    log "selftest passed: install $(secs $((t1 - t0))) s, start $(secs $((t2 - t1))) s, 4-task array (submit to all done) $(secs $((t3 - t2))) s, stop $(secs $((t4 - t3))) s, total $(secs $((t4 - t0))) s"
}

case "${1:-}" in
    install) cmd_install ;;
    start) shift; cmd_start "$@" ;;
    stop) shift; cmd_stop "$@" ;;
    selftest) cmd_selftest ;;
    *) awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0" >&2; exit 2 ;;
esac
