"""Bao la Kujifunza from Python: its rules, positions and moves in Bao's notation, the exact
solve and the anytime analysis, each compared with the `kalah` command line's `--rules bao`
on the same positions."""

import json
import pickle
import random

import pytest

import kalah


# The command line's Bao reports are read in both of its vocabularies: the one of Bao's own
# commands (`value` for the mover with `value_from_south`, `eval` for the mover with
# `eval_south`, `best`/`best_move`, `moves`, `score`, `result` as `win in 3`) and the one it
# shares with the sowing games (docs/outputs.md: `value` and `eval` from South with
# `value_for_mover` and `eval_mover`, `best_turn`, `turns`, `result` with `plies`).


def south_eval(report):
    """The evaluation from South of an analysis report."""
    return report["eval_south"] if "eval_south" in report else report["eval"]


def mover_eval(turn):
    """A root move's evaluation for the root's mover."""
    return turn["eval_mover"] if "eval_mover" in turn else turn["score"]


def south_value(report):
    """The exact value from South of a solve (or of one move of it, for the position
    before it: that of the root's mover times the root's side)."""
    return report["value_from_south"] if "value_from_south" in report else report["value"]


def mover_value(report):
    """The exact value for the side to move of a solve, or of one move for its mover."""
    return report["value_for_mover"] if "value_for_mover" in report else report["value"]


def result_and_plies(report):
    """`(win|loss|draw, plies or None)` of an exact value."""
    words = report["result"]
    if "plies" in report:
        return words, report["plies"]
    if words == "draw":
        return words, None
    word, plies = words.split(" in ")
    return word, int(plies)


def best_of(report):
    """The best move of a report (`best_turn`, `best_move` or `best`)."""
    for key in ("best_turn", "best_move", "best"):
        if key in report:
            return report[key]
    raise KeyError("no best move in the report")


def move_of(turn):
    """The move of one entry of a report's list of moves."""
    return turn["turn"] if "turn" in turn else turn["move"]


def moves_of(report):
    """A report's list of moves, each with its value or evaluation."""
    return report["turns"] if "turns" in report else report["moves"]


def random_positions(pits, seeds, count, seed):
    """`count` positions of `seeds` seeds thrown at random into 4 rows of `pits` pits, each
    with a seed in both front rows (a game not yet over), South or North to move."""
    rng = random.Random(seed)
    found = []
    while len(found) < count:
        cells = [0] * (4 * pits)
        for _ in range(seeds):
            cells[rng.randrange(len(cells))] += 1
        rows = [cells[k * pits : (k + 1) * pits] for k in range(4)]
        if not any(rows[1]) or not any(rows[2]):
            continue
        side = rng.choice("SN")
        found.append("/".join(",".join(map(str, r)) for r in rows) + ":" + side)
    return found


def test_bao_rules_default_to_the_standard_board_and_round_trip():
    rules = kalah.Rules("bao")
    assert (rules.family, rules.houses, rules.seeds, rules.total_seeds) == ("bao", 8, 2, 64)
    assert str(rules) == "Bao(8,2)"
    assert kalah.Rules.parse(str(rules)) == rules
    assert pickle.loads(pickle.dumps(rules)) == rules
    assert "bao" in kalah.Rules.presets()
    assert rules != kalah.Rules("kalah")
    small = kalah.Rules("bao", houses=4, seeds=3)
    assert str(small) == "Bao(4,3)" and hash(small) == hash(kalah.Rules.parse("Bao(4,3)"))
    assert (small.capture, small.end, small.leftovers, small.early_stop) == (None,) * 4
    assert small.is_cyclic
    assert kalah.start("bao", houses=4) == kalah.Rules("bao", houses=4).start()


def test_bad_bao_rules_are_refused_with_the_engines_messages():
    with pytest.raises(kalah.RulesError, match="3 to 8 pits a row, not 9"):
        kalah.Rules("bao", houses=9)
    with pytest.raises(kalah.RulesError, match="seeds a pit"):
        kalah.Rules("bao", seeds=0)
    with pytest.raises(kalah.RulesError, match="seeds a pit"):
        kalah.Rules("bao", houses=8, seeds=8)
    with pytest.raises(kalah.RulesError, match="seeds a pit"):
        kalah.Rules("bao", seeds=2**62)  # refused, never wrapped round to a small count
    with pytest.raises(kalah.RulesError, match="pits a row"):
        kalah.Rules("bao", houses=-3)
    with pytest.raises(kalah.RulesError, match="does not apply to Bao"):
        kalah.Rules("bao", capture="empty")
    with pytest.raises(kalah.RulesError):
        kalah.Rules.parse("Bao(9,2)")


def test_the_start_and_its_moves_equal_the_cli(cli):
    for pits, seeds in [(3, 2), (4, 2), (8, 2), (5, 3)]:
        pos = kalah.start("bao", houses=pits, seeds=seeds)
        theirs = cli(
            "show", "--rules", "bao", "--houses", str(pits), "--seeds", str(seeds), quiet=False
        )
        assert str(pos) == theirs["position"]
        assert pos.moves() == theirs["moves"]
        assert pos.rows == theirs["rows"]
        assert pos.counts == sum(theirs["rows"], [])
        assert pos.side_to_move == kalah.Side.SOUTH and not pos.is_over


def test_positions_along_random_games_equal_the_cli(cli):
    rng = random.Random(11)
    pos = kalah.start("bao", houses=4, seeds=2)
    for _ in range(24):
        theirs = cli("show", "--rules", "bao", "--position", str(pos), quiet=False)
        assert pos.moves() == theirs["moves"]
        assert pos.is_over == (theirs["over"] or not theirs["moves"])
        if not pos.moves():
            break
        move = rng.choice(pos.moves())
        after = pos.play(move)
        assert after == pos.play(move)  # a move always gives the same position
        assert after.side_to_move == pos.side_to_move.other
        # No seed leaves the board, but for those of the capture that wins (R7.1).
        assert after.seeds_in_houses == 32 or after.is_over
        assert kalah.Position(str(after), pos.rules) == after
        pos = after


@pytest.mark.parametrize("pits,depth", [(4, 3), (8, 2), (3, 4)])
def test_perft_of_the_moves_equals_the_cli(cli, pits, depth):
    def perft(pos, d):
        moves = pos.moves()
        if d == 1:
            return len(moves)
        return sum(perft(pos.play(m), d - 1) for m in moves)

    start = kalah.start("bao", houses=pits)
    theirs = cli(
        "perft", "--rules", "bao", "--houses", str(pits), "--depth", str(depth), quiet=False
    )
    assert [perft(start, d) for d in range(1, depth + 1)] == theirs["counts"]


def test_a_position_without_rules_gets_bao_rules_that_hold_it():
    pos = kalah.Position("0,0,0/0,0,1/2,0,1/0,0,0:S")
    assert str(pos.rules) == "Bao(3,2)"
    assert pos.houses_per_side == 3 and pos.seeds_in_houses == 4
    full = kalah.Position("9,0,0/0,0,1/2,0,1/0,9,9:N")
    assert str(full.rules) == "Bao(3,3)"  # 31 seeds on 12 pits: 3 a pit
    assert full.side_to_move == kalah.Side.NORTH


def test_bad_positions_and_moves_raise_the_right_exceptions():
    rules = kalah.Rules("bao", houses=3)
    with pytest.raises(kalah.NotationError, match="4 rows"):
        kalah.Position("1,2,3/1,2,3:S")
    with pytest.raises(kalah.NotationError, match=":S or :N"):
        rules.position("1,1,1/1,1,1/1,1,1/1,1,1")
    with pytest.raises(kalah.RulesMismatchError, match="pits a row"):
        rules.position("1,1,1,1/1,1,1,1/1,1,1,1/1,1,1,1:S")
    with pytest.raises(kalah.RulesMismatchError, match="seeds"):
        rules.position("9,9,9/1,1,1/1,1,1/1,1,1:S")
    start = rules.start()
    with pytest.raises(kalah.IllegalMoveError, match="player not to move"):
        start.play("a1+")
    with pytest.raises(kalah.IllegalMoveError, match="not a legal move"):
        start.play("A1-")
    with pytest.raises(kalah.NotationError, match="not a Bao move"):
        start.play("3")
    with pytest.raises(kalah.NotationError, match="numbered 1 to 3"):
        start.play("A4+")
    with pytest.raises(kalah.IllegalMoveError, match="game is over"):
        kalah.Position("1,1,1/0,0,0/1,1,1/1,1,1:N").play("a1+")


def test_what_bao_does_not_have_is_refused_not_guessed():
    pos = kalah.start("bao", houses=3)
    for call in (
        lambda: pos.sow(0),
        lambda: pos.sowings(),
        lambda: pos.stores,
        lambda: pos.score,
        lambda: pos.houses(),
        lambda: kalah.pie(pos),
        lambda: kalah.export_table(pos, 1),
        lambda: kalah.solve(pos, hash_mb=16),
        lambda: kalah.analyse(pos, threads=1, depth=1),
    ):
        with pytest.raises(kalah.RulesError, match="does not apply to Bao"):
            call()
    with pytest.raises(kalah.RulesError, match="Bao's four rows"):
        kalah.start().rows
    with pytest.raises(kalah.RulesError, match="memory_mb"):
        kalah.solve(kalah.start(houses=3, seeds=2), memory_mb=64)


POSITIONS = (
    # BAO.md E16's two positions (drawn), a win in 3, and random small boards.
    ["2,1,0,1/1,0,0,0/0,0,0,1/2,1,1,0:S", "0,1,0,1/2,1,0,0/0,1,1,0/0,2,0,1:S",
     "0,2,0/1,1,0/1,0,2/0,1,1:S"]
    + random_positions(3, 10, 8, seed=1)
    + random_positions(4, 12, 6, seed=2)
)


@pytest.mark.parametrize("board", POSITIONS)
def test_solve_equals_the_cli(cli, board):
    pos = kalah.Position(board)
    ours = kalah.solve(pos)
    theirs = cli("solve", "--rules", "bao", "--position", board)
    assert ours.value == south_value(theirs)
    assert ours.value_for_mover == mover_value(theirs)
    assert ours.exact and ours.lower == ours.upper == ours.value
    assert ours.best_turn == best_of(theirs)
    assert ours.line == theirs["pv"]
    assert ours.nodes == theirs["positions"]
    assert (ours.result, ours.plies) == result_and_plies(theirs)
    assert ours.result == {1: "win", -1: "loss", 0: "draw"}[ours.value_for_mover]


@pytest.mark.parametrize("board", [b for b in POSITIONS if kalah.Position(b).moves()][:8])
def test_openings_give_every_move_the_value_of_the_cli(cli, board):
    pos = kalah.Position(board)
    ours = kalah.openings(pos)
    theirs = cli("openings", "--rules", "bao", "--position", board)
    assert sorted(o.turn for o in ours) == sorted(pos.moves())
    assert {o.turn: o.value_for_mover for o in ours} == {
        move_of(m): mover_value(m) for m in moves_of(theirs)
    }
    best = kalah.solve(pos)
    assert ours[0].turn == best.best_turn and ours[0].value == best.value
    for o in ours:
        assert o.value == o.value_for_mover * pos.side_to_move.sign
        assert o.position_after == pos.play(o.turn)
        assert o.line[0] == o.turn
        pos.play(" ".join(o.line))  # the line replays


def test_a_graph_larger_than_the_memory_allowed_is_too_large():
    with pytest.raises(kalah.TooLargeError, match="analyse"):
        kalah.solve(kalah.start("bao", houses=3, seeds=2), memory_mb=1)
    with pytest.raises(kalah.TooLargeError):
        kalah.openings(kalah.start("bao", houses=3, seeds=2), memory_mb=1)
    with pytest.raises(kalah.IllegalMoveError):
        kalah.openings(kalah.Position("1,1,1/0,0,0/1,1,1/1,1,1:N"))


@pytest.mark.parametrize("pits,depth", [(4, 3), (8, 2), (3, 5)])
def test_analyse_within_a_depth_equals_the_cli(cli, pits, depth):
    pos = kalah.start("bao", houses=pits).play(kalah.start("bao", houses=pits).moves()[1])
    ours = kalah.analyse(pos, depth=depth)
    args = ["analyse", "--rules", "bao", "--position", str(pos), "--depth", str(depth), "--json"]
    lines = cli(*args,
                json_output=False, quiet=False).strip().splitlines()
    theirs = json.loads(lines[-1])
    assert ours.depth == theirs["depth"]
    assert ours.value == south_eval(theirs)
    assert ours.value_for_mover == ours.side_to_move.sign * ours.value
    assert ours.best_turn == best_of(theirs)
    assert ours.line == theirs["pv"]
    assert ours.exact == theirs["exact"]
    assert ours.lower is None and ours.upper is None
    assert [t.turn for t in ours.turns] == [move_of(t) for t in theirs["turns"]]
    assert [t.value_for_mover for t in ours.turns] == [mover_eval(t) for t in theirs["turns"]]


def test_a_proven_win_is_labelled_and_agrees_with_the_solve():
    pos = kalah.Position("0,2,0/1,1,0/1,0,2/0,1,1:S")
    exact = kalah.solve(pos)
    a = kalah.analyse(pos, depth=6)
    assert a.exact and a.result == exact.result == "win"
    assert a.within_moves >= exact.plies == 3
    assert a.value == a.value_for_mover > 0
    assert exact.value == 1
    # A draw is never proven within limits: heuristic, labelled so.
    drawn = kalah.Position(POSITIONS[0])
    assert kalah.solve(drawn).result == "draw"
    guess = kalah.analyse(drawn, depth=4)
    assert not guess.exact and guess.result is None


def test_progress_reaches_python_and_its_exception_stops_the_call():
    seen = []
    kalah.analyse(kalah.start("bao", houses=4), depth=3, progress=seen.append)
    assert [a.depth for a in seen] == [1, 2, 3]
    reports = []
    kalah.solve(kalah.Position(POSITIONS[0]), progress=reports.append)
    for p in reports:
        assert (p.lower, p.upper) == (-1, 1)

    def stop(_):
        raise RuntimeError("enough")

    with pytest.raises(RuntimeError, match="enough"):
        kalah.analyse(kalah.start("bao", houses=4), depth=6, progress=stop)
