#!/bin/sh
# Runs `kalah analyse --json` with deterministic limits (one thread, a depth or node
# limit, no database) on a few positions of every family, and prints the answers with
# the wall-time fields removed, so that two builds can be compared with diff:
#   scripts/compare-analyse.sh OLD_KALAH > old.txt; scripts/compare-analyse.sh NEW_KALAH > new.txt
set -u
k=${1:-target/test-release/kalah}
strip='del(.. | .seconds?, .nodes_per_second?, .elapsed_ms?, .time_ms?, .nps?)'
run() {
    echo "== $*"
    "$k" analyse --json "$@" 2>&1 | jq -cS "$strip" 2>/dev/null || "$k" analyse --json "$@" 2>&1 | tail -3
}
run --threads 1 --houses 6 --seeds 4 --depth 10 --egdb-seeds 0
run --threads 1 --houses 6 --seeds 6 --depth 9 --egdb-seeds 0
run --threads 1 --houses 6 --seeds 6 --nodes 300000 --egdb-seeds 0
run --threads 1 --houses 6 --seeds 6 --depth 8 --multi 3 --egdb-seeds 0
run --threads 1 --houses 6 --seeds 6 --moves 1-2,9,3 --depth 9 --egdb-seeds 0
run --threads 1 --houses 6 --seeds 5 --depth 12 --egdb-seeds 0
run --threads 1 --houses 4 --seeds 3 --depth 30 --egdb-seeds 0
run --threads 1 --rules oware --houses 6 --seeds 4 --depth 7
run --threads 1 --rules oware --houses 6 --seeds 4 --nodes 200000 --multi 3
run --threads 1 --rules oware --houses 4 --seeds 2 --depth 20
run --threads 1 --rules ethiopian --houses 6 --seeds 4 --depth 6
run --threads 1 --rules ethiopian --houses 6 --seeds 3 --nodes 100000
run --rules bao --houses 8 --seeds 2 --depth 4
run --rules bao --houses 8 --seeds 2 --nodes 50000
run --rules bao --houses 4 --seeds 2 --depth 8
run --threads 1 --houses 4 --seeds 3 --egdb-seeds 0
run --threads 1 --houses 3 --seeds 3 --multi 2 --egdb-seeds 0
run --rules bao --houses 3 --seeds 1
