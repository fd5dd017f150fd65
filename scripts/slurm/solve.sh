#!/usr/bin/env bash
# solve.sh - run a distributed Kalah solve as a Slurm job array.
#
# Usage: scripts/slurm/solve.sh [--wait] DIR SHARDS [kalah split options...]
#   e.g. scripts/slurm/solve.sh /shared/kalah-6-4 64 --houses 6 --seeds 4 --depth 6
#
# Steps:
#   1. `$KALAH split --out DIR [options]`       -> DIR/manifest.json, DIR/units.jsonl
#   2. sbatch --array=1-SHARDS shard.sbatch       -> one `kalah batch --shard I/SHARDS`
#      per task, writing DIR/results/I.jsonl (with --resume, so a re-run only does
#      the units still missing)
#   3. sbatch --dependency=afterok:ARRAY merge.sbatch
#                                                 -> `kalah merge` into DIR/merged.json
# It prints the job ids. Job logs go to DIR/logs/.
#
# Options:
#   --wait     (or WAIT=1) wait until the merge job has left the queue, then check
#              that DIR/merged.json exists and print it; exit non-zero when it
#              does not, or when a shard failed (the merge then never runs).
#              Polls only `squeue`; no accounting daemon (sacct) is needed.
#
# Environment:
#   KALAH          kalah binary (default: `kalah` on PATH). Resolved to an absolute
#                  path and passed to the jobs. On a multi-node cluster it and DIR
#                  must be on a file system that every node sees at the same path.
#   SBATCH_EXTRA   extra sbatch options for both jobs, split on spaces
#                  (e.g. "--partition=long --time=12:00:00"); Slurm's own
#                  SBATCH_PARTITION, SBATCH_TIMELIMIT, SBATCH_ACCOUNT, ... work too.
#                  Shards run `kalah batch --threads $SLURM_CPUS_PER_TASK` (1 unless
#                  you pass --cpus-per-task here).
#   ARRAY_LIMIT    run at most this many shards at once (sbatch --array=1-N%LIMIT).
#   POLL_SECONDS   --wait polling interval (default 5).
#   WAIT_TIMEOUT   give up waiting after this many seconds (default 0: never).
set -euo pipefail

prog=solve.sh
die() { echo "$prog: error: $*" >&2; exit 1; }
say() { echo "$prog: $*"; }
usage() { sed -n '2,/^set -euo/{/^set -euo/d;s/^# \{0,1\}//;p}' "$0"; }

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)

# --wait may appear anywhere; everything else after DIR SHARDS goes to split.
WAIT=${WAIT:-0}
args=()
for a in "$@"; do
    case "$a" in
        --wait) WAIT=1 ;;
        -h|--help) usage; exit 0 ;;
        *) args+=("$a") ;;
    esac
done
set -- "${args[@]+"${args[@]}"}"
[ $# -ge 2 ] || { usage >&2; die "need DIR and SHARDS"; }
DIR=$1 SHARDS=$2
shift 2
[[ $SHARDS =~ ^[1-9][0-9]*$ ]] || die "SHARDS must be a positive integer, got '$SHARDS'"

for c in sbatch squeue; do
    command -v "$c" >/dev/null 2>&1 || die "'$c' not found: is this a Slurm submit host? (for a local test cluster run scripts/slurm/start-cluster.sh)"
done
for f in shard.sbatch merge.sbatch; do
    [ -f "$HERE/$f" ] || die "missing job script $HERE/$f"
done

KALAH=${KALAH:-kalah}
if [[ $KALAH == */* ]]; then
    [ -x "$KALAH" ] || die "KALAH=$KALAH is not an executable file"
    KALAH=$(cd "$(dirname "$KALAH")" && pwd)/$(basename "$KALAH")
else
    name=$KALAH
    KALAH=$(command -v "$name") || die "kalah binary '$name' not found on PATH (set KALAH=/path/to/kalah)"
fi
export KALAH

mkdir -p "$DIR"
DIR=$(cd "$DIR" && pwd)

# ------------------------------------------------------------------ split
say "splitting: $KALAH split --out $DIR $*"
"$KALAH" split --out "$DIR" "$@" || die "kalah split failed"
for f in manifest.json units.jsonl; do
    [ -f "$DIR/$f" ] || die "kalah split did not write $DIR/$f"
done
say "$(wc -l <"$DIR/units.jsonl") work units in $DIR/units.jsonl"

mkdir -p "$DIR/results" "$DIR/logs"
rm -f "$DIR/merged.json"
existing=$(find "$DIR/results" -maxdepth 1 -name '*.jsonl' | wc -l)
[ "$existing" -eq 0 ] || say "note: $existing result files already in $DIR/results; shards resume from them"

# ----------------------------------------------------------------- submit
# shellcheck disable=SC2206  # word splitting of SBATCH_EXTRA is intended
extra=(${SBATCH_EXTRA:-})
range="1-$SHARDS"
[ -z "${ARRAY_LIMIT:-}" ] || range="$range%$ARRAY_LIMIT"

# --parsable prints "jobid" or "jobid;cluster".
ARRAY_ID=$(sbatch --parsable --export=ALL --chdir="$DIR" \
    --job-name=kalah-shard --array="$range" \
    --output="$DIR/logs/shard-%A_%a.out" \
    "${extra[@]+"${extra[@]}"}" \
    "$HERE/shard.sbatch" "$DIR" "$SHARDS") \
    || die "submitting the shard array failed (too many shards for MaxArraySize? see 'scontrol show config | grep MaxArraySize')"
ARRAY_ID=${ARRAY_ID%%;*}

MERGE_ID=$(sbatch --parsable --export=ALL --chdir="$DIR" \
    --job-name=kalah-merge --dependency="afterok:$ARRAY_ID" \
    --output="$DIR/logs/merge-%j.out" \
    "${extra[@]+"${extra[@]}"}" \
    "$HERE/merge.sbatch" "$DIR" "$SHARDS") \
    || { scancel "$ARRAY_ID" 2>/dev/null || true; die "submitting the merge job failed (shard array $ARRAY_ID cancelled)"; }
MERGE_ID=${MERGE_ID%%;*}

echo "shard array job: $ARRAY_ID ($SHARDS tasks)"
echo "merge job:       $MERGE_ID (after $ARRAY_ID succeeds)"
echo "result:          $DIR/merged.json   logs: $DIR/logs/"

[ "$WAIT" = 1 ] || exit 0

# ------------------------------------------------------------------- wait
POLL=${POLL_SECONDS:-5}
TIMEOUT=${WAIT_TIMEOUT:-0}
start=$SECONDS
last_report=-1000
say "waiting for merge job $MERGE_ID"
while :; do
    if ! out=$(squeue -h -j "$MERGE_ID" -o '%T %r' 2>&1); then
        # A job that has aged out of slurmctld's memory is "Invalid job id".
        case "$out" in
            *"Invalid job id"*) out="" ;;
            *) say "squeue failed: $out (retrying)"; sleep "$POLL"; continue ;;
        esac
    fi
    [ -n "$out" ] || break
    case "$out" in
        *DependencyNeverSatisfied*)
            echo "$prog: error: a shard of array $ARRAY_ID failed, so merge job $MERGE_ID will never run." >&2
            echo "$prog: see $DIR/logs/shard-${ARRAY_ID}_*.out; cancel the merge with: scancel $MERGE_ID" >&2
            exit 1 ;;
    esac
    if [ $((SECONDS - last_report)) -ge 30 ]; then
        left=$(squeue -h -r -j "$ARRAY_ID" 2>/dev/null | wc -l || true)
        done_files=$(find "$DIR/results" -maxdepth 1 -name '*.jsonl' | wc -l)
        say "$((SECONDS - start))s: merge ${out%% *}; shard tasks queued/running: $left; result files: $done_files/$SHARDS"
        last_report=$SECONDS
    fi
    if [ "$TIMEOUT" -gt 0 ] && [ $((SECONDS - start)) -ge "$TIMEOUT" ]; then
        die "gave up waiting after ${TIMEOUT}s (jobs keep running: $ARRAY_ID, $MERGE_ID)"
    fi
    sleep "$POLL"
done

if [ ! -s "$DIR/merged.json" ]; then
    echo "$prog: error: merge job $MERGE_ID finished but $DIR/merged.json is missing or empty" >&2
    tail -n 20 "$DIR/logs/merge-$MERGE_ID.out" >&2 2>/dev/null || true
    exit 1
fi
say "done in $((SECONDS - start))s: $DIR/merged.json"
cat "$DIR/merged.json"
