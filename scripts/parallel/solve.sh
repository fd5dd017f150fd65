#!/usr/bin/env bash
# solve.sh - run a split Kalah solve on GNU parallel, on this machine or over ssh.
#
# Usage: scripts/parallel/solve.sh DIR SHARDS [kalah split options...]
#   e.g. scripts/parallel/solve.sh k65 16 --houses 6 --seeds 5 --depth 3
#
# One command line does everything and resumes after an interruption (Ctrl-C, a lost
# machine): run the same command again and only the work not finished is done.
#   1. `$KALAH split --out DIR [options]`  -> DIR/manifest.json, DIR/units.jsonl
#      (kept as it is when DIR already holds the same split)
#   2. GNU parallel runs `kalah batch DIR/units.jsonl --shard I/SHARDS --output
#      DIR/results/I.jsonl --resume` for I = 1..SHARDS; its job log DIR/parallel.log
#      skips the shards already finished, and --resume continues a shard cut short.
#   3. `kalah merge DIR/manifest.json DIR/results/*.jsonl --json` -> DIR/merged.json,
#      and the text summary on standard output.
#
# Environment:
#   KALAH       kalah binary (default: `kalah` on PATH)
#   JOBS        shards run at once on each machine (default: parallel's, one per core)
#   THREADS     search threads of each shard (default 1: the parallelism is the shards')
#   BATCH_ARGS  more options for every kalah batch, split on spaces (e.g. "--egdb FILE")
#   SSHLOGINS   machines to run on, as for `parallel --sshlogin` (e.g. ":,host1,4/host2";
#               `:` is this machine). KALAH and DIR must then be at the same path on
#               every machine (a shared file system).
set -euo pipefail

prog=parallel/solve.sh
die() { echo "$prog: error: $*" >&2; exit 1; }
usage() { sed -n '2,/^set -euo/{/^set -euo/d;s/^# \{0,1\}//;p}' "$0"; }

case "${1:-}" in -h|--help) usage; exit 0 ;; esac
[ $# -ge 2 ] || { usage >&2; die "need DIR and SHARDS"; }
DIR=$1 SHARDS=$2
shift 2
[[ $SHARDS =~ ^[1-9][0-9]*$ ]] || die "SHARDS must be a positive integer, got '$SHARDS'"
command -v parallel >/dev/null 2>&1 ||
    die "GNU parallel not found: install it (Debian: apt-get install parallel)"
KALAH=${KALAH:-kalah}
KALAH=$(command -v "$KALAH") || die "kalah binary '${KALAH}' not found (set KALAH)"
KALAH=$(cd "$(dirname "$KALAH")" && pwd)/$(basename "$KALAH")
THREADS=${THREADS:-1}

mkdir -p "$DIR/results"
DIR=$(cd "$DIR" && pwd)
"$KALAH" split --out "$DIR" "$@" >&2

jobs=()
[ -n "${JOBS:-}" ] && jobs=(--jobs "$JOBS")
remote=()
[ -n "${SSHLOGINS:-}" ] && remote=(--sshlogin "$SSHLOGINS")
read -r -a extra <<<"${BATCH_ARGS:-}"
# A shard that fails or is interrupted is run again on the next call (--resume-failed);
# its batch --resume keeps what it had answered.
seq 1 "$SHARDS" | parallel --will-cite --halt never --joblog "$DIR/parallel.log" \
    --resume-failed "${jobs[@]+"${jobs[@]}"}" "${remote[@]+"${remote[@]}"}" \
    "$KALAH" batch "$DIR/units.jsonl" --shard "{}/$SHARDS" \
    --output "$DIR/results/{}.jsonl" --resume --quiet --threads "$THREADS" \
    "${extra[@]+"${extra[@]}"}"

files=()
for i in $(seq 1 "$SHARDS"); do files+=("$DIR/results/$i.jsonl"); done
status=0
"$KALAH" merge "$DIR/manifest.json" "${files[@]}" --json -q >"$DIR/merged.json.tmp" ||
    status=$?
mv "$DIR/merged.json.tmp" "$DIR/merged.json"
"$KALAH" merge "$DIR/manifest.json" "${files[@]}" -q || true
exit "$status"
