#!/usr/bin/env bash
# test.sh - the GNU parallel path end to end, as CI runs it: a split solve of Kalah(6,3)
# on 4 shards, interrupted after three seconds and run again, must merge to the value of a
# direct `kalah solve`, with every unit answered exactly once.
#
# Usage: KALAH=target/release/kalah scripts/parallel/test.sh
set -euo pipefail
cd "$(dirname "$0")/../.."
KALAH=${KALAH:-target/release/kalah}
[ -x "$KALAH" ] || { echo "test.sh: $KALAH not found: build with cargo build --release" >&2; exit 1; }
export KALAH
# A small database built in memory: the first answers come at once, so the interruption
# falls in the middle of the work.
export BATCH_ARGS="--no-cache --egdb-seeds 12"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
opts=(--houses 6 --seeds 3 --depth 2)

# The first run is interrupted (SIGINT, as Ctrl-C), the second finishes the work.
timeout -s INT 3 scripts/parallel/solve.sh "$work/run" 4 "${opts[@]}" >/dev/null 2>&1 || true
before=$(cat "$work"/run/results/*.jsonl 2>/dev/null | wc -l)
scripts/parallel/solve.sh "$work/run" 4 "${opts[@]}" >"$work/summary.txt" 2>"$work/split.txt"
read -r merged status units answers < <(python3 -c '
import json, sys
m = json.load(open(sys.argv[1]))
print(m.get("value"), m["status"], m["units"], m["answers"])' "$work/run/merged.json")
direct=$("$KALAH" solve "${opts[@]:0:4}" --json -q | python3 -c 'import json,sys; print(json.load(sys.stdin)["value"])')
echo "parallel: $units units, $before answered before the interruption, $answers answers in all"
echo "merged value: $merged ($status), direct solve: $direct"
[ "$status" = exact ] && [ "$merged" = "$direct" ] || { echo "MISMATCH"; exit 1; }
[ "$answers" = "$units" ] || { echo "units answered twice or not at all"; exit 1; }
echo OK
