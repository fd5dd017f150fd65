"""The anytime analysis: limits, proven intervals, and agreement with the exact solve."""

import pytest

import kalah


def test_an_analysis_without_limits_is_the_exact_solve():
    pos = kalah.start(houses=4, seeds=3)
    a = kalah.analyse(pos)
    assert a.exact and a.lower == a.value == a.upper == kalah.solve(pos).value
    assert a.line[0] == a.best_turn


@pytest.mark.parametrize("limit", [dict(depth=2), dict(nodes=2000), dict(time=0.2)])
def test_a_limited_analysis_keeps_the_exact_value_inside_its_interval(limit):
    pos = kalah.start(houses=5, seeds=4)
    exact = kalah.solve(pos, threads=1).value
    a = kalah.analyse(pos, threads=1, **limit)
    assert a.lower <= exact <= a.upper
    assert a.lower <= a.value <= a.upper
    assert a.best_turn in pos.turns()
    assert sorted(t.turn for t in a.turns) == sorted(pos.turns())
    for t in a.turns:
        assert t.lower <= t.value <= t.upper


def test_a_cyclic_family_is_analysed_too():
    a = kalah.analyse(kalah.start("oware", houses=6, seeds=4), depth=4)
    assert a.lower <= a.value <= a.upper
    assert not a.exact


def test_bad_limits_and_settings_are_refused():
    pos = kalah.start(houses=4, seeds=3)
    with pytest.raises(kalah.KalahError):
        kalah.analyse(pos, time=-1)
    with pytest.raises(kalah.KalahError):
        kalah.solve(pos, threads=0)
    with pytest.raises(kalah.RulesError):
        kalah.solve(kalah.start("oware", houses=3, seeds=2), hash_mb=16)
    with pytest.raises(kalah.IllegalMoveError):
        kalah.openings(kalah.Position("0,0,0,0,5,0,0,0,0,7:S"))
    with pytest.raises(kalah.DatabaseError):
        kalah.solve(pos, egdb="/nonexistent/file.egdb")
