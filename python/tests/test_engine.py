"""`kalah.Engine` keeps one solver, and its transposition table, for a whole game: the
analyses of successive positions of one game reuse it (counted by `solvers_made`, and seen
in the nodes a repeated solve needs), new rules or `new_game()` set up a fresh one, and its
values are those of the module-level calls."""

import pytest

import kalah


def test_the_positions_of_one_game_share_one_solver():
    engine = kalah.Engine(threads=1, hash_mb=16)
    assert engine.solvers_made == 0 and engine.rules is None
    pos = kalah.start(houses=5, seeds=3)
    while not pos.is_over:
        a = engine.analyse(pos, depth=4)
        assert a.lower <= a.value <= a.upper
        assert a.best_turn in pos.turns()
        pos = pos.play(a.best_turn)
    assert engine.solvers_made == 1
    assert engine.rules == pos.rules


def test_the_table_kept_answers_a_position_solved_before():
    engine = kalah.Engine(threads=1, hash_mb=16)
    pos = kalah.start(houses=4, seeds=3)
    first = engine.solve(pos)
    again = engine.solve(pos)
    assert again.value == first.value == kalah.solve(pos).value
    assert engine.solvers_made == 1
    # The second solve starts from the first one's table: far fewer nodes (one thread,
    # so the counts are the same on every run).
    assert again.nodes < first.nodes
    # A fresh game starts from an empty table, and searches as the first solve did.
    engine.new_game()
    assert engine.rules is None
    fresh = engine.solve(pos)
    assert engine.solvers_made == 2
    assert fresh.nodes == first.nodes


def test_an_analysis_repeated_on_the_engine_starts_from_its_table():
    engine = kalah.Engine(threads=1, hash_mb=16)
    pos = kalah.start(houses=6, seeds=4)
    first = engine.analyse(pos, depth=10)
    again = engine.analyse(pos, depth=10)
    assert engine.solvers_made == 1
    assert again.nodes < first.nodes
    assert again.lower <= again.value <= again.upper
    # The module-level call sets up a table of its own each time: no fewer nodes.
    alone = [kalah.analyse(pos, depth=10, threads=1, hash_mb=16).nodes for _ in range(2)]
    assert alone[0] == alone[1]


def test_prepare_sets_up_the_solver_before_the_first_call():
    engine = kalah.Engine(threads=1, hash_mb=16)
    rules = kalah.Rules(houses=4, seeds=3)
    engine.prepare(rules)
    assert engine.solvers_made == 1 and engine.rules == rules
    engine.analyse(rules.start(), depth=3)
    engine.prepare(rules)
    assert engine.solvers_made == 1
    engine.prepare(kalah.Rules("bao", houses=3))  # nothing to set up for Bao
    assert engine.solvers_made == 1


def test_other_rules_get_a_solver_of_their_own():
    engine = kalah.Engine(threads=1, hash_mb=16)
    engine.analyse(kalah.start(houses=4, seeds=3), depth=2)
    engine.analyse(kalah.start(houses=4, seeds=3).play("1"), depth=2)
    assert engine.solvers_made == 1
    oware = kalah.start("oware", houses=3, seeds=2)
    s = kalah.Engine().solve(oware)
    assert s.value == kalah.solve(oware).value
    engine.analyse(kalah.start(houses=4, seeds=2), depth=2)
    assert engine.solvers_made == 2
    assert engine.rules == kalah.Rules(houses=4, seeds=2)


def test_an_engine_analysis_keeps_the_exact_value_in_its_interval():
    engine = kalah.Engine(threads=1, hash_mb=16)
    pos = kalah.start(houses=5, seeds=4)
    exact = kalah.solve(pos, threads=1).value
    for limit in (dict(depth=2), dict(nodes=3000), dict(depth=6)):
        a = engine.analyse(pos, **limit)
        assert a.lower <= exact <= a.upper
    full = engine.analyse(pos)
    assert full.exact and full.value == exact
    assert engine.solvers_made == 1


def test_bao_solves_once_for_every_position_its_graph_holds():
    engine = kalah.Engine()
    pos = kalah.Position("2,1,0,1/1,0,0,0/0,0,0,1/2,1,1,0:S")
    line = kalah.solve(pos).line
    for move in line[:6]:
        ours = engine.solve(pos)
        assert ours.value == kalah.solve(pos).value
        assert ours.best_turn == kalah.solve(pos).best_turn
        pos = pos.play(move)
    assert engine.graphs_solved == 1
    other = kalah.Position("0,2,0/1,1,0/1,0,2/0,1,1:S")
    assert engine.solve(other).result == "win"
    assert engine.graphs_solved == 2
    assert engine.solvers_made == 0
    a = engine.analyse(other, depth=4)
    assert a.best_turn in other.moves()


def test_bad_engine_settings_are_refused():
    with pytest.raises(kalah.KalahError):
        kalah.Engine(threads=0)
    with pytest.raises(kalah.RulesError, match="memory_mb"):
        kalah.Engine(memory_mb=0)
    with pytest.raises(kalah.RulesError, match="does not apply to Bao"):
        kalah.Engine(hash_mb=16).solve(kalah.start("bao", houses=3))
    with pytest.raises(kalah.KalahError):
        kalah.Engine().analyse(kalah.start(houses=4, seeds=3), time=-1)
