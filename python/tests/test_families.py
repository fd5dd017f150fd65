"""Every family through the package: sowing by the numbers of `sowings()` agrees with the
notation, and random games end with their score, checked against the published values."""

import random

import pytest

import kalah


# Bao has moves, not sowing numbers: its random games are in test_bao.py.
@pytest.mark.parametrize("preset", [p for p in kalah.Rules.presets() if p != "bao"])
def test_random_games_by_sowing_numbers_agree_with_the_notation(preset):
    rng = random.Random(preset)
    rules = kalah.Rules(preset, houses=4, seeds=3)
    for _ in range(20):
        pos = rules.start()
        # Oware and Ethiopian positions repeat: a random game may never end.
        for _ in range(400):
            if pos.is_over:
                break
            sowings, names = pos.sowings(), pos.moves()
            assert len(sowings) == len(names) > 0
            k = rng.randrange(len(sowings))
            by_number = pos.sow(sowings[k])
            assert by_number == pos.sow(names[k])
            assert pos.parse_move(names[k]) == sowings[k]
            assert pos.move_name(sowings[k]) == names[k]
            nxt, extra = by_number
            if not nxt.is_over:
                assert (nxt.side_to_move == pos.side_to_move) == extra
            assert sum(nxt.counts) <= rules.total_seeds
            pos = nxt
        if pos.is_over:
            assert pos.sowings() == [] and pos.turns() == []
        assert pos.score == pos.stores[0] - pos.stores[1]


def test_published_values_of_kalah():
    # Kalah(4,3) is a win by 6 for South (the core's and the README's example), and with
    # empty capture Kalah(4,2) is a win by 6 (Irving, Donkers and Uiterwijk, 2000).
    assert kalah.solve(kalah.start(houses=4, seeds=3)).value == 6
    assert kalah.solve(kalah.start("kalah-empty", houses=4, seeds=2)).value == 6


def test_ethiopian_sows_both_ways():
    pos = kalah.start("ethiopian", houses=3, seeds=3)
    assert pos.moves() == ["1", "2", "3", "1<", "2<", "3<"]
    assert pos.sowings() == [0, 1, 2, kalah.CLOCKWISE, kalah.CLOCKWISE + 1, kalah.CLOCKWISE + 2]
