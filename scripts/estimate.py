#!/usr/bin/env python3
"""estimate.py - the cost of a whole split solve, from a sample of its units.

Usage: scripts/estimate.py ANSWERS.jsonl [...]

ANSWERS are what `kalah batch` wrote for the units of `kalah split --sample N` (each
answer carries its unit, with the unit's weight: how many units of the split it stands
for). For each kind of proof asked (exact values; "at least v" and "at most v" for a
hypothesis) it prints Knuth's estimates (the mean over the sample of weight x cost) of
the number of units, of their CPU seconds and of their nodes, each with its standard
error, and the totals. A hypothesis is proved by both halves, so its total is their sum.

Every shard of a batch runs its units one after the other on one search thread, so a
unit's "seconds" are CPU seconds.
"""
import json
import math
import sys


def main(paths):
    if not paths or paths[0] in ("-h", "--help"):
        print(__doc__.strip())
        return 0 if paths else 2
    groups = {}
    for path in paths:
        with open(path) as f:
            for n, line in enumerate(f, 1):
                line = line.strip()
                if not line:
                    continue
                try:
                    answer = json.loads(line)
                    unit = json.loads(answer["input"])
                except (ValueError, KeyError) as e:
                    sys.exit(f"{path} line {n}: not an answer to a sampled unit ({e})")
                if "error" in answer:
                    sys.exit(f"{path} line {n}: unit {unit.get('id')}: {answer['error']}")
                if "weight" not in unit:
                    sys.exit(f"{path} line {n}: the unit has no weight: answer the "
                             "sample.jsonl of kalah split --sample")
                w = float(unit["weight"])
                g = groups.setdefault(unit.get("proof", "exact"), [])
                g.append((w, float(answer["seconds"]), float(answer["nodes"])))
    out = {}
    for proof, rows in sorted(groups.items()):
        n = len(rows)

        def est(values):
            mean = sum(values) / n
            var = sum((v - mean) ** 2 for v in values) / (n - 1) if n > 1 else float("nan")
            return mean, math.sqrt(var / n)

        units = est([w for w, _, _ in rows])
        seconds = est([w * t for w, t, _ in rows])
        nodes = est([w * k for w, _, k in rows])
        out[proof] = {
            "sample": n,
            "units": units,
            "cpu_seconds": seconds,
            "nodes": nodes,
            "unit_seconds_mean": sum(t for _, t, _ in rows) / n,
            "unit_seconds_max": max(t for _, t, _ in rows),
        }
    total = (sum(g["cpu_seconds"][0] for g in out.values()),
             math.sqrt(sum(g["cpu_seconds"][1] ** 2 for g in out.values())))
    for proof, g in out.items():
        print(f"{proof:9} sample {g['sample']:5}  units {g['units'][0]:.3e} ± {g['units'][1]:.1e}"
              f"  CPU {g['cpu_seconds'][0] / 86400:.3e} ± {g['cpu_seconds'][1] / 86400:.1e} days"
              f"  nodes {g['nodes'][0]:.3e} ± {g['nodes'][1]:.1e}"
              f"  (a unit: mean {g['unit_seconds_mean']:.2f} s, max {g['unit_seconds_max']:.1f} s)")
    print(f"total     CPU {total[0] / 86400:.3e} ± {total[1] / 86400:.1e} days"
          f" ({total[0] / 3600:.3e} hours)")
    print(json.dumps({"groups": out, "cpu_seconds": total}))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
