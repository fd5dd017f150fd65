"""Rules, positions and sowing through the package, against the core's own examples."""

import pickle

import pytest

import kalah


def test_start_of_kalah_six_by_four_in_the_notation():
    pos = kalah.start()
    assert str(pos) == "4,4,4,4,4,4,0,4,4,4,4,4,4,0:S"
    assert pos.side_to_move == kalah.Side.SOUTH
    assert pos.counts == [4] * 6 + [0] + [4] * 6 + [0]
    assert pos.sowings() == [0, 1, 2, 3, 4, 5]
    assert pos.moves() == ["1", "2", "3", "4", "5", "6"]


def test_extra_turn_when_last_seed_in_store():
    pos = kalah.start()
    after, extra = pos.sow(2)
    assert extra
    assert str(after) == "4,4,0,5,5,5,1,4,4,4,4,4,4,0:S"
    assert pos.sow("3") == (after, True)
    assert str(pos.play("3-6")) == "4,4,0,5,5,0,2,5,5,5,5,4,4,0:N"


def test_north_houses_count_from_north_left():
    pos = kalah.start().play("3-6")
    assert pos.side_to_move == kalah.Side.NORTH
    assert pos.houses() == pos.houses(kalah.Side.NORTH) == pos.counts[7:13]
    assert pos.moves() == ["8", "9", "10", "11", "12", "13"]
    assert pos.stores == (2, 0)


def test_turns_follow_every_chain_of_extra_sowings():
    pos = kalah.start("kalah", houses=4, seeds=3)
    assert pos.turns() == ["1", "2-1", "2-3", "2-4", "3", "4"]


def test_positions_and_rules_survive_pickling():
    rules = kalah.Rules("oware", houses=5, seeds=2, grand_slam="capture-all")
    pos = rules.start().play("3")
    assert pickle.loads(pickle.dumps(pos)) == pos
    assert pickle.loads(pickle.dumps(rules)) == rules
    assert kalah.Rules.parse(str(rules)) == rules


@pytest.mark.parametrize(
    "make, error",
    [
        (lambda: kalah.Position("1,2,3"), kalah.NotationError),
        (lambda: kalah.Rules("chess"), kalah.RulesError),
        (lambda: kalah.Rules("oware", capture="empty"), kalah.RulesError),
        (lambda: kalah.Rules(houses=9), kalah.RulesError),
        (lambda: kalah.Rules().position("3,3,3,3,0,3,3,3,3,0:S"), kalah.RulesMismatchError),
        (lambda: kalah.start().play("9"), kalah.IllegalMoveError),
        (lambda: kalah.start().sow(6), kalah.IllegalMoveError),
        (lambda: kalah.start().play("1-2"), kalah.IllegalMoveError),
    ],
)
def test_bad_input_raises_the_right_exception(make, error):
    with pytest.raises(error):
        make()
