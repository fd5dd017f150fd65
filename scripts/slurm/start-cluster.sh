#!/usr/bin/env bash
# start-cluster.sh - start a throw-away single-node Slurm cluster on this machine.
#
# Usage: scripts/slurm/start-cluster.sh
#
# Meant for testing scripts/slurm/solve.sh on one machine (a Debian/Ubuntu
# container or VM, as root, no systemd needed). It:
#   1. installs Debian's slurm-wlm and munge packages when they are missing;
#   2. creates a munge key when there is none and starts munged (as the munge
#      user) unless a working munged is already answering;
#   3. writes a minimal slurm.conf for ONE node (this host, CPUs and memory as
#      reported by `slurmd -C`, no cgroups, no accounting) under $SLURM_TEST_DIR;
#   4. starts slurmctld and slurmd as daemons (logs and pid files under
#      $SLURM_TEST_DIR) and waits until the node is idle.
# It is idempotent: running it again with the daemons up changes nothing.
# Stop everything with scripts/slurm/stop-cluster.sh.
#
# Environment:
#   SLURM_TEST_DIR   state/spool/log/config directory   (default /tmp/kalah-slurm)
#   SLURMCTLD_PORT   slurmctld port                      (default 6817)
#   SLURMD_PORT      slurmd port                         (default 6818)
#   WAIT_TIMEOUT     seconds to wait for the node to be idle (default 60)
#
# The config is written to $SLURM_TEST_DIR/etc/slurm.conf. It is also copied to
# /etc/slurm/slurm.conf when that file is absent or was written by this script,
# so that plain `sinfo`/`sbatch` work; otherwise export
# SLURM_CONF=$SLURM_TEST_DIR/etc/slurm.conf before using the Slurm commands.
set -euo pipefail

DIR=${SLURM_TEST_DIR:-/tmp/kalah-slurm}
CTLD_PORT=${SLURMCTLD_PORT:-6817}
SLURMD_PORT=${SLURMD_PORT:-6818}
WAIT_TIMEOUT=${WAIT_TIMEOUT:-60}
MARKER="# written by kalah scripts/slurm/start-cluster.sh"

say() { echo "start-cluster: $*"; }
die() { echo "start-cluster: error: $*" >&2; exit 1; }

[ "$(id -u)" -eq 0 ] || die "must run as root (it installs packages and starts daemons)"

# pid_alive FILE: true when FILE names a running process.
pid_alive() {
    local pid
    [ -s "$1" ] || return 1
    pid=$(cat "$1" 2>/dev/null) || return 1
    [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null
}

# ---------------------------------------------------------------- packages
missing=()
command -v munged >/dev/null 2>&1 || missing+=(munge)
command -v slurmctld >/dev/null 2>&1 || missing+=(slurmctld)
command -v slurmd >/dev/null 2>&1 || missing+=(slurmd)
command -v sbatch >/dev/null 2>&1 || missing+=(slurm-client)
if [ ${#missing[@]} -gt 0 ]; then
    say "installing missing packages: ${missing[*]}"
    export DEBIAN_FRONTEND=noninteractive
    if ! apt-get install -y --no-install-recommends "${missing[@]}"; then
        say "install failed; running apt-get update and retrying"
        apt-get update
        apt-get install -y --no-install-recommends "${missing[@]}" \
            || die "could not install ${missing[*]}"
    fi
else
    say "slurm and munge already installed"
fi
say "$(slurmd -V)"

mkdir -p "$DIR"/{etc,state,spool,log,munge}

# ------------------------------------------------------------------- munge
KEY=/etc/munge/munge.key
if [ ! -s "$KEY" ]; then
    say "creating munge key $KEY"
    mkdir -p /etc/munge
    if command -v mungekey >/dev/null 2>&1; then
        mungekey --create --keyfile="$KEY" --force
    else
        dd if=/dev/urandom of="$KEY" bs=1 count=1024 status=none
    fi
fi
chown munge:munge /etc/munge "$KEY"
chmod 0700 /etc/munge
chmod 0400 "$KEY"

# munged refuses insecure directories: socket dir, log dir and seed dir must be
# owned by the munge user and not writable by others.
install -d -o munge -g munge -m 0755 /run/munge
install -d -o munge -g munge -m 0700 /var/lib/munge /var/log/munge
chown munge:munge "$DIR/munge"
chmod 0700 "$DIR/munge"
MUNGE_PID="$DIR/munge/munged.pid"

if munge -n </dev/null 2>/dev/null | unmunge >/dev/null 2>&1; then
    say "munged already running and answering"
else
    say "starting munged"
    rm -f "$MUNGE_PID"
    # No systemd here: start it by hand as the munge user (it forks itself).
    runuser -u munge -- /usr/sbin/munged \
        --pid-file="$MUNGE_PID" --log-file="$DIR/munge/munged.log" \
        || { [ -f "$DIR/munge/munged.log" ] && tail -n 20 "$DIR/munge/munged.log" >&2; \
             die "munged failed to start"; }
    for _ in $(seq 50); do
        munge -n </dev/null 2>/dev/null | unmunge >/dev/null 2>&1 && break
        sleep 0.1
    done
    munge -n </dev/null | unmunge >/dev/null || die "munged is not answering (see $DIR/munge/munged.log)"
fi

# -------------------------------------------------------------- slurm.conf
NODE=$(hostname -s)
# `slurmd -C` prints e.g.
#   NodeName=vm CPUs=2 Boards=1 SocketsPerBoard=1 CoresPerSocket=2 ThreadsPerCore=1 RealMemory=24105
HW=$(slurmd -C | head -n 1)
[[ $HW == NodeName=* ]] || die "unexpected output of slurmd -C: $HW"
HW=${HW#NodeName=* }   # drop the NodeName=... field, keep the hardware fields

CONF="$DIR/etc/slurm.conf"
NEW="$CONF.new"
cat >"$NEW" <<EOF
$MARKER
# Single-node test cluster; state under $DIR.
ClusterName=kalahtest
SlurmctldHost=$NODE(127.0.0.1)
SlurmctldPort=$CTLD_PORT
SlurmdPort=$SLURMD_PORT
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
StateSaveLocation=$DIR/state
SlurmdSpoolDir=$DIR/spool/slurmd
SlurmctldPidFile=$DIR/slurmctld.pid
SlurmdPidFile=$DIR/slurmd.pid
SlurmctldLogFile=$DIR/log/slurmctld.log
SlurmdLogFile=$DIR/log/slurmd.log
SlurmctldDebug=info
SlurmdDebug=info
# No cgroups, no accounting: works inside containers without systemd.
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
MpiDefault=none
# No mail (the default /bin/mail is not installed).
MailProg=/bin/true
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
ReturnToService=2
MaxArraySize=100001
MaxJobCount=200000
# Fast turnaround for tests.
SchedulerParameters=sched_interval=2
MinJobAge=60
KillWait=5
InactiveLimit=0
Waittime=0
NodeName=$NODE NodeAddr=127.0.0.1 $HW State=UNKNOWN
PartitionName=debug Nodes=$NODE Default=YES MaxTime=INFINITE State=UP
EOF

# Slurm 22.05 reads cgroup.conf from the directory of slurm.conf when present;
# we use no cgroup plugin at all, so keep one that asks for nothing.
cat >"$DIR/etc/cgroup.conf" <<EOF
$MARKER
ConstrainCores=no
ConstrainRAMSpace=no
ConstrainDevices=no
ConstrainSwapSpace=no
EOF

changed=0
if [ -f "$CONF" ] && cmp -s "$NEW" "$CONF"; then
    rm -f "$NEW"
else
    mv "$NEW" "$CONF"
    changed=1
    say "wrote $CONF"
fi

# Let plain `sinfo`/`sbatch` find it, unless a foreign config is in place.
SYSCONF=/etc/slurm/slurm.conf
if [ ! -e "$SYSCONF" ] || grep -qF "$MARKER" "$SYSCONF"; then
    mkdir -p /etc/slurm
    if ! cmp -s "$CONF" "$SYSCONF" 2>/dev/null; then
        cp "$CONF" "$SYSCONF"
        cp "$DIR/etc/cgroup.conf" /etc/slurm/cgroup.conf 2>/dev/null || true
        say "installed $SYSCONF"
    fi
else
    say "note: $SYSCONF belongs to another setup; use: export SLURM_CONF=$CONF"
fi
export SLURM_CONF=$CONF

# ------------------------------------------------------------- daemons
if [ $changed -eq 1 ] && { pid_alive "$DIR/slurmctld.pid" || pid_alive "$DIR/slurmd.pid"; }; then
    say "config changed: restarting slurm daemons"
    for p in slurmd slurmctld; do
        if pid_alive "$DIR/$p.pid"; then
            kill "$(cat "$DIR/$p.pid")" || true
            for _ in $(seq 50); do pid_alive "$DIR/$p.pid" || break; sleep 0.2; done
        fi
    done
fi

if pid_alive "$DIR/slurmctld.pid"; then
    say "slurmctld already running (pid $(cat "$DIR/slurmctld.pid"))"
else
    say "starting slurmctld"
    slurmctld -f "$CONF" \
        || { tail -n 20 "$DIR/log/slurmctld.log" >&2 || true; die "slurmctld failed to start"; }
fi

if pid_alive "$DIR/slurmd.pid"; then
    say "slurmd already running (pid $(cat "$DIR/slurmd.pid"))"
else
    say "starting slurmd (node $NODE)"
    mkdir -p "$DIR/spool/slurmd"
    slurmd -f "$CONF" -N "$NODE" \
        || { tail -n 20 "$DIR/log/slurmd.log" >&2 || true; die "slurmd failed to start"; }
fi

# --------------------------------------------------------------- wait idle
say "waiting up to ${WAIT_TIMEOUT}s for node $NODE to be idle"
deadline=$((SECONDS + WAIT_TIMEOUT))
state=""
while :; do
    state=$(sinfo -h -n "$NODE" -o %t 2>/dev/null | head -n 1 || true)
    case "$state" in
        idle|mix|alloc) break ;;
        down*|drain*|drng*)
            # e.g. left down from a previous run's saved state
            scontrol update NodeName="$NODE" State=RESUME >/dev/null 2>&1 || true ;;
    esac
    for p in slurmctld slurmd; do
        pid_alive "$DIR/$p.pid" || { tail -n 20 "$DIR/log/$p.log" >&2 || true; die "$p died (log: $DIR/log/$p.log)"; }
    done
    if [ $SECONDS -ge $deadline ]; then
        die "node $NODE not idle after ${WAIT_TIMEOUT}s (state '${state:-none}'); see $DIR/log/"
    fi
    sleep 1
done
say "cluster up: node $NODE is $state ($HW)"
say "config: $CONF   logs: $DIR/log/"
