#!/usr/bin/env bash
# prove.sh - prove "the value is V" for a split made by scripts/parallel/solve.sh or
# `kalah split`, in rounds of narrow windows run on GNU parallel (hypothesis mode).
#
# Usage: scripts/parallel/prove.sh DIR V [SHARDS]
#   e.g. scripts/parallel/prove.sh k65 12 8
#
# Each round: `kalah merge DIR/manifest.json --hypothesis V` with every answer so far
# writes the windows still needed to DIR/hypothesis-V/round-R.jsonl; GNU parallel solves
# them in SHARDS shards (default 4) with `kalah batch`; repeat until the hypothesis is
# confirmed or refuted. Interrupted, run the same command again: finished rounds and
# shards are kept. The verdict is in DIR/hypothesis-V/merged.json.
#
# Environment: KALAH, JOBS, THREADS, BATCH_ARGS, SSHLOGINS as for solve.sh.
set -euo pipefail

prog=parallel/prove.sh
die() { echo "$prog: error: $*" >&2; exit 1; }
usage() { sed -n '2,/^set -euo/{/^set -euo/d;s/^# \{0,1\}//;p}' "$0"; }

case "${1:-}" in -h|--help) usage; exit 0 ;; esac
[ $# -ge 2 ] || { usage >&2; die "need DIR and V"; }
DIR=$1 V=$2 SHARDS=${3:-4}
[[ $V =~ ^-?[0-9]+$ ]] || die "V must be an integer, got '$V'"
[[ $SHARDS =~ ^[1-9][0-9]*$ ]] || die "SHARDS must be a positive integer, got '$SHARDS'"
[ -f "$DIR/manifest.json" ] || die "$DIR/manifest.json not found: run kalah split first"
command -v parallel >/dev/null 2>&1 ||
    die "GNU parallel not found: install it (Debian: apt-get install parallel)"
KALAH=${KALAH:-kalah}
KALAH=$(command -v "$KALAH") || die "kalah binary '${KALAH}' not found (set KALAH)"
THREADS=${THREADS:-1}
read -r -a extra <<<"${BATCH_ARGS:-}"
jobs=()
[ -n "${JOBS:-}" ] && jobs=(--jobs "$JOBS")
remote=()
[ -n "${SSHLOGINS:-}" ] && remote=(--sshlogin "$SSHLOGINS")

H=$DIR/hypothesis-$V
mkdir -p "$H"
for round in $(seq 1 1000); do
    answers=("$H"/answers-*.jsonl)
    [ -e "${answers[0]}" ] || answers=()
    windows=$H/round-$round.jsonl
    status=0
    # A round whose windows are written is not asked again (its answers may be partial).
    if [ ! -f "$windows" ]; then
        "$KALAH" merge "$DIR/manifest.json" "${answers[@]+"${answers[@]}"}" \
            --hypothesis "$V" --next "$windows" --json -q >"$H/merged.json" || status=$?
        [ "$status" = 0 ] || [ "$status" = 3 ] || die "kalah merge failed (status $status)"
        if [ "$status" = 0 ]; then
            rm -f "$windows"
            "$KALAH" merge "$DIR/manifest.json" "${answers[@]+"${answers[@]}"}" \
                --hypothesis "$V" -q || true
            exit 0
        fi
    fi
    echo "$prog: round $round: $(wc -l <"$windows") windows" >&2
    seq 1 "$SHARDS" | parallel --will-cite --halt never --joblog "$H/round-$round.log" \
        --resume-failed "${jobs[@]+"${jobs[@]}"}" "${remote[@]+"${remote[@]}"}" \
        "$KALAH" batch "$windows" --shard "{}/$SHARDS" \
        --output "$H/answers-$round-{}.jsonl" --resume --quiet --threads "$THREADS" \
        "${extra[@]+"${extra[@]}"}"
done
die "no verdict after 1000 rounds"
