#!/usr/bin/env bash
# test-single-node.sh - end-to-end test of the Slurm scripts on a one-node cluster.
#
# Usage: scripts/slurm/test-single-node.sh
#   (build first: cargo build --release; this script builds nothing)
#
# Starts the local test cluster (start-cluster.sh), runs
#   solve.sh --wait TMPDIR 4 --houses 4 --seeds 3 --depth 2
# and compares the "value" of TMPDIR/merged.json with the "value" of
#   $KALAH solve --houses 4 --seeds 3 --json
# It prints both and OK or MISMATCH, exits non-zero on a mismatch or any
# failure, and stops the cluster on exit (stop-cluster.sh).
#
# Environment:
#   KALAH           kalah binary (default: target/release/kalah in the repo root)
#   SLURM_TEST_DIR  cluster state directory (default /tmp/kalah-slurm)
#   KEEP_CLUSTER=1  leave the cluster running afterwards
#   KEEP_OUTPUT=1   keep the solve's temp directory (always kept on failure)
set -euo pipefail

prog=test-single-node.sh
die() { echo "$prog: error: $*" >&2; exit 1; }

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
KALAH=${KALAH:-$ROOT/target/release/kalah}
[[ $KALAH == /* ]] || KALAH=$ROOT/$KALAH
[ -x "$KALAH" ] || die "kalah binary $KALAH not found: build it (cargo build --release) or set KALAH"
export KALAH
command -v python3 >/dev/null 2>&1 || die "python3 is needed to read the JSON output"

export SLURM_TEST_DIR=${SLURM_TEST_DIR:-/tmp/kalah-slurm}
OUT=$(mktemp -d /tmp/kalah-slurm-test.XXXXXX)
ok=0
cleanup() {
    if [ "${KEEP_CLUSTER:-0}" != 1 ]; then
        "$HERE/stop-cluster.sh" || true
    fi
    if [ $ok = 1 ] && [ "${KEEP_OUTPUT:-0}" != 1 ]; then
        rm -rf "$OUT"
    else
        echo "$prog: output kept in $OUT"
    fi
}
trap cleanup EXIT

"$HERE/start-cluster.sh"
# Use the test cluster's config even if /etc/slurm/slurm.conf is someone else's.
export SLURM_CONF=$SLURM_TEST_DIR/etc/slurm.conf

# value FILE: the "value" field of a JSON object.
value() {
    python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["value"])' "$1"
}

start=$SECONDS
POLL_SECONDS=1 WAIT_TIMEOUT=${WAIT_TIMEOUT:-300} \
    "$HERE/solve.sh" --wait "$OUT/run" 4 --houses 4 --seeds 3 --depth 2
distributed=$(value "$OUT/run/merged.json") || die "cannot read \"value\" from $OUT/run/merged.json"
echo "$prog: distributed solve took $((SECONDS - start))s"

"$KALAH" solve --houses 4 --seeds 3 --json >"$OUT/direct.json" || die "$KALAH solve failed"
direct=$(value "$OUT/direct.json") || die "cannot read \"value\" from $OUT/direct.json"

echo "distributed value: $distributed"
echo "direct value:      $direct"
if [ "$distributed" = "$direct" ]; then
    echo OK
    ok=1
else
    echo MISMATCH
    exit 1
fi
