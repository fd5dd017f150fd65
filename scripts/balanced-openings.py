#!/usr/bin/env python3
"""Makes a balanced opening set for `kalah match --openings FILE` (data/openings/README.md).

Two ways, each writing one board a line (as `--position` reads it) with a comment:

  book BOOK_FILE OUT
      the positions of an opening book (data/book/*.txt) whose value from South lies
      within a seed of 0 (the same set `kalah match --openings book` plays);

  search OUT TURNS SECONDS WITHIN -- RULE OPTIONS...
      every position after TURNS moves from the start (enumerated with `kalah show`;
      for the families without extra turns a move is a turn), each analysed with
      `kalah analyse --time SECONDS --threads 1`, kept where the evaluation from South
      lies within WITHIN of 0 (seeds; Bao's points, 100 a seed) and the game is not over.

KALAH names the binary (default target/test-release/kalah). The values are heuristic
(deep searches, not proofs): "balanced" means the analysis found the position level.
"""

import json
import os
import subprocess
import sys

KALAH = os.environ.get("KALAH", "target/test-release/kalah")


def show(rules, position=None, moves=None):
    """The `position:` and `moves:` lines of `kalah show`."""
    cmd = [KALAH, "show", *rules]
    if position:
        cmd += ["--position", position]
    if moves:
        cmd += ["--moves", moves]
    out = subprocess.run(cmd, capture_output=True, text=True, check=True).stdout
    board, legal = None, []
    for line in out.splitlines():
        if line.startswith("position:"):
            board = line.split(None, 1)[1].strip()
        elif line.startswith("moves:"):
            legal = line.split()[1:]
    return board, legal


def analyse(rules, board, seconds):
    """The final JSON report of `kalah analyse` of `board`."""
    threads = [] if "bao" in rules else ["--threads", "1"]  # Bao's search is one thread
    cmd = [KALAH, "analyse", *rules, "--position", board, "--time", str(seconds),
           *threads, "--json", "--quiet"]
    # A proven Bao result exits non-zero with its report written: the report is used.
    out = subprocess.run(cmd, capture_output=True, text=True).stdout
    return json.loads(out.strip().splitlines()[-1])


def from_book(book, out):
    kept = []
    header = []
    for line in open(book):
        if line.startswith("#"):
            header.append(line.strip())
            continue
        words = line.split()
        if len(words) < 7:
            continue
        board, turn, ev, lo, hi, kind, depth = words[:7]
        if abs(int(ev)) <= 1:
            kept.append(f"{board}  # eval {int(ev):+d} from South, {kind}, depth {depth}, "
                        f"proven {lo}..{hi}")
    with open(out, "w") as f:
        f.write(f"# balanced openings: the positions of {book} valued within a seed of 0\n")
        for h in header[1:]:
            f.write(f"#   book: {h[2:]}\n")
        f.write(f"# {len(kept)} positions\n")
        f.write("\n".join(kept) + "\n")
    return len(kept)


def search(out, turns, seconds, within, rules):
    frontier = [(show(rules)[0], [])]
    for _ in range(turns):
        nxt = []
        for board, line in frontier:
            _, legal = show(rules, position=board)
            for m in legal:
                child, child_legal = show(rules, position=board, moves=m)
                if child_legal:
                    nxt.append((child, line + [m]))
        frontier = nxt
    seen, kept = set(), []
    for board, line in frontier:
        if board in seen:
            continue
        seen.add(board)
        a = analyse(rules, board, seconds)
        if a.get("exact") and a.get("result") is not None:
            continue
        if abs(a["eval"]) <= within:
            kept.append(f"{board}  # moves {' '.join(line)}: eval {a['eval']:+d} from South "
                        f"at depth {a['depth']} ({seconds} s)")
    with open(out, "w") as f:
        f.write(f"# balanced openings: positions after {turns} moves from the start of "
                f"`{' '.join(rules)}` valued within {within} of 0 from South by "
                f"`kalah analyse --time {seconds}{'' if 'bao' in rules else ' --threads 1'}` "
                f"(heuristic)\n")
        f.write(f"# {len(kept)} of {len(seen)} positions\n")
        f.write("\n".join(kept) + "\n")
    return len(kept), len(seen)


def main(argv):
    if len(argv) >= 3 and argv[0] == "book":
        print(from_book(argv[1], argv[2]))
    elif len(argv) >= 6 and argv[0] == "search" and "--" in argv:
        cut = argv.index("--")
        out, turns, seconds, within = argv[1], int(argv[2]), float(argv[3]), int(argv[4])
        print(search(out, turns, seconds, within, argv[cut + 1:]))
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main(sys.argv[1:])
