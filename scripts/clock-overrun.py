#!/usr/bin/env python3
"""Times the engine's moves on a clock through its pipes (docs/engine.md, "A game clock"):
for each board of a set, `go stime 1000 ntime 1000 movestogo 1` (hard limit 855 ms), a
`go ponder` hit 0.3 s later, and a `go ponder` stopped 0.3 s later followed by the same
`go`; prints the longest move and the largest overrun of the hard limit of each.

Usage: python3 scripts/clock-overrun.py KALAH_BINARY data/openings/kalah-6x6.txt
"""
import subprocess, time, sys
K = sys.argv[1]
boards = [l.split('#')[0].strip() for l in open(sys.argv[2]) if l.strip() and not l.startswith('#')]
p = subprocess.Popen([K, "engine", "--threads", "1", "--hash-mb", "64", "--no-book", "--quiet"],
                     stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
def send(l): p.stdin.write(l + "\n"); p.stdin.flush()
def until(word):
    while True:
        l = p.stdout.readline()
        if l.startswith(word): return l
send("rules --houses 6 --seeds 6"); send("isready"); until("readyok")
hard = (1000 - 50) * 0.9  # ms: go stime/ntime 1000 movestogo 1 (docs/engine.md)
res = {"go": [], "ponderhit": [], "stop then go": []}
for b in boards:
    send(f"position {b}")
    t = time.perf_counter(); send("go stime 1000 ntime 1000 movestogo 1"); until("bestmove")
    res["go"].append((time.perf_counter() - t) * 1e3)
    send(f"position {b}"); send("go ponder stime 1000 ntime 1000 movestogo 1")
    time.sleep(0.3)
    t = time.perf_counter(); send("ponderhit"); until("bestmove")
    res["ponderhit"].append((time.perf_counter() - t) * 1e3)
    send(f"position {b}"); send("go ponder stime 1000 ntime 1000 movestogo 1")
    time.sleep(0.3)
    t = time.perf_counter(); send("stop"); until("bestmove")
    send(f"position {b}"); send("go stime 1000 ntime 1000 movestogo 1"); until("bestmove")
    res["stop then go"].append((time.perf_counter() - t) * 1e3)
send("quit")
for k, v in res.items():
    over = [x - hard for x in v]
    print(f"{k}: {len(v)} moves, hard {hard:.0f} ms, longest {max(v):.1f} ms, "
          f"largest overrun {max(over):+.1f} ms, moves past the hard limit {sum(o > 0 for o in over)}")
