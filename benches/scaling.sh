#!/usr/bin/env bash
# How the parallel search scales with threads, for a machine with more cores than the
# 2-core one of the README's table: solves Kalah(6,4) from the start under both capture
# rules with 1, 2, 4, ... threads up to the cores available, then Kalah(6,5) with empty
# capture on all of them, and prints a Markdown table (value, nodes, search seconds,
# nodes per second, speed-up over one thread, and the whole process's user and system
# seconds, so the kernel's share of the memory set-up stays visible). The endgame
# database is built in memory first on all cores each time (`seconds` in the table is
# the search alone).
#
#   benches/scaling.sh              # builds the release binary first
#   KALAH=path/to/kalah benches/scaling.sh
#   SCALING_65=0 benches/scaling.sh # skip Kalah(6,5) (about 2 min on 2 cores)
#
# Where $OUT is set, the table is also written to $OUT/scaling.md.
set -euo pipefail
cd "$(dirname "$0")/.."

if [ -z "${KALAH:-}" ]; then
    cargo build --release --quiet
    KALAH=target/release/kalah
fi
cores=$(nproc)
field() { python3 -c "import json,sys; print(json.load(sys.stdin)[sys.argv[1]])" "$1"; }

table="| machine | position | threads | value | nodes | search s | M nodes/s | speed-up | user s | system s |
|---|---|---|---|---|---|---|---|---|---|"
machine="$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs), $cores cores"

run() { # label seeds capture threads
    local json
    json=$("$KALAH" solve --houses 6 --seeds "$2" --capture "$3" --threads "$4" --quiet --json)
    local value nodes secs user sys
    value=$(field value <<<"$json")
    nodes=$(field nodes <<<"$json")
    secs=$(field seconds <<<"$json")
    user=$(field user_seconds <<<"$json")
    sys=$(field system_seconds <<<"$json")
    echo "$value $nodes $secs $user $sys"
}

for capture in empty standard; do
    base=""
    t=1
    while [ "$t" -le "$cores" ]; do
        read -r value nodes secs user sys < <(run "6,4" 4 "$capture" "$t")
        [ -z "$base" ] && base=$secs
        row=$(python3 -c "
n, s, b = $nodes, $secs, $base
print(f'| $machine | Kalah(6,4) $capture | $t | {$value:+d} | {n/1e6:.1f} M | {s:.2f} | {n/s/1e6:.1f} | {b/s:.2f}x | {$user:.2f} | {$sys:.2f} |')")
        table="$table
$row"
        echo "$row" >&2
        t=$((t * 2))
    done
done

if [ "${SCALING_65:-1}" != 0 ]; then
    read -r value nodes secs user sys < <(run "6,5" 5 empty "$cores")
    row=$(python3 -c "
n, s = $nodes, $secs
print(f'| $machine | Kalah(6,5) empty | $cores | {$value:+d} | {n/1e6:.1f} M | {s:.2f} | {n/s/1e6:.1f} | | {$user:.2f} | {$sys:.2f} |')")
    table="$table
$row"
    echo "$row" >&2
fi

echo "$table"
if [ -n "${OUT:-}" ]; then
    echo "$table" >"$OUT/scaling.md"
fi
