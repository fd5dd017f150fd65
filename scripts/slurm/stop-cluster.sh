#!/usr/bin/env bash
# stop-cluster.sh - stop the single-node test cluster started by start-cluster.sh.
#
# Usage: scripts/slurm/stop-cluster.sh
#
# Stops slurmd, slurmctld and munged through the pid files that
# start-cluster.sh left in $SLURM_TEST_DIR (default /tmp/kalah-slurm): TERM,
# then KILL after 10 s. Daemons it did not start (no pid file there) are left
# alone. State, logs and config stay in $SLURM_TEST_DIR; delete that directory
# for a clean slate. Running it when nothing is up is fine.
set -euo pipefail

DIR=${SLURM_TEST_DIR:-/tmp/kalah-slurm}

say() { echo "stop-cluster: $*"; }

# stop NAME PIDFILE
stop() {
    local name=$1 file=$2 pid
    if [ ! -s "$file" ]; then
        say "$name: no pid file ($file)"
        return 0
    fi
    pid=$(cat "$file")
    if ! kill -0 "$pid" 2>/dev/null; then
        say "$name: not running (stale pid $pid)"
        rm -f "$file"
        return 0
    fi
    # Guard against a recycled pid: it must really be that daemon.
    if ! grep -q "$name" "/proc/$pid/comm" 2>/dev/null; then
        say "$name: pid $pid is $(cat "/proc/$pid/comm" 2>/dev/null || echo '?'), not $name; leaving it"
        rm -f "$file"
        return 0
    fi
    kill -TERM "$pid" 2>/dev/null || true
    for _ in $(seq 100); do
        kill -0 "$pid" 2>/dev/null || break
        sleep 0.1
    done
    if kill -0 "$pid" 2>/dev/null; then
        say "$name: still running after 10 s, sending KILL"
        kill -KILL "$pid" 2>/dev/null || true
        sleep 0.2
    fi
    rm -f "$file"
    say "$name: stopped (pid $pid)"
}

stop slurmd "$DIR/slurmd.pid"
stop slurmctld "$DIR/slurmctld.pid"
stop munged "$DIR/munge/munged.pid"
