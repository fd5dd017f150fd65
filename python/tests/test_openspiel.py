"""The OpenSpiel game of ``kalah.openspiel``: it agrees with OpenSpiel's own ``mancala`` move
by move, OpenSpiel's MCTS bot plays whole games of Kalah and Oware through it, and
OpenSpiel's exhaustive search over it (margin returns) finds the engine's exact values."""

import random
import subprocess
import sys

import pytest

pyspiel = pytest.importorskip(
    "pyspiel", reason="open_spiel is not installed (pip install open_spiel)"
)

import numpy as np  # noqa: E402

import kalah  # noqa: E402
import kalah.openspiel as ko  # noqa: E402
from open_spiel.python.algorithms import mcts, minimax  # noqa: E402


def mancala_counts(state):
    """Our bin order (South's houses, South's store, North's houses, North's store) of a
    ``mancala`` state, whose board starts with North's store."""
    board = [int(x) for x in state.observation_tensor(0)[:14]]
    return board[1:] + board[:1]


@pytest.mark.parametrize("seed", range(40))
def test_state_agrees_with_mancala_move_by_move(seed):
    rng = random.Random(seed)
    ours = pyspiel.load_game("kalah").new_initial_state()
    theirs = pyspiel.load_game("mancala").new_initial_state()
    while True:
        assert ours.is_terminal() == theirs.is_terminal()
        assert ours.current_player() == theirs.current_player()
        assert ours.legal_actions() == theirs.legal_actions()
        if ours.is_terminal():
            break
        assert list(ours.position.counts) == mancala_counts(theirs)
        action = rng.choice(ours.legal_actions())
        assert ours.action_to_string(action) == theirs.action_to_string(action)
        ours.apply_action(action)
        theirs.apply_action(action)
    assert ours.returns() == theirs.returns()
    assert ours.history() == theirs.history()


def test_actions_round_trip_through_sowings():
    for houses in range(1, kalah.MAX_HOUSES + 1):
        seen = set()
        for side in (kalah.Side.SOUTH, kalah.Side.NORTH):
            for house in range(houses):
                for sowing in (house, house + kalah.CLOCKWISE):
                    action = ko.action_of(houses, side, sowing)
                    assert ko.sowing_of(houses, side, action) == sowing
                    assert 0 < action < 2 * (2 * houses + 2)
                    seen.add(action)
        # Every house of both rows in both directions has an action of its own.
        assert len(seen) == 4 * houses


def test_action_of_the_other_row_is_refused():
    with pytest.raises(ValueError, match="not a house of"):
        ko.sowing_of(6, kalah.Side.SOUTH, 8)
    with pytest.raises(ValueError, match="not a house of"):
        ko.sowing_of(6, kalah.Side.NORTH, 7)
    state = pyspiel.load_game("kalah").new_initial_state()
    with pytest.raises(ValueError):
        state.apply_action(0)


def test_ethiopian_actions_are_the_engines_sowings_in_both_directions():
    game = pyspiel.load_game("kalah(rules=ethiopian,houses=4,seeds=3)")
    assert game.num_distinct_actions() == 2 * 10
    rng = random.Random(7)
    state = game.new_initial_state()
    while not state.is_terminal():
        pos = state.position
        sowings = sorted(
            ko.sowing_of(4, pos.side_to_move, a) for a in state.legal_actions()
        )
        assert sowings == sorted(pos.sowings())
        names = sorted(state.action_to_string(a) for a in state.legal_actions())
        assert names == sorted(pos.moves())
        state.apply_action(rng.choice(state.legal_actions()))


def test_bad_parameters_raise_the_engines_errors():
    with pytest.raises(kalah.RulesError, match="unknown rules preset"):
        pyspiel.load_game("kalah(rules=chess)")
    with pytest.raises(ValueError, match="returns must be"):
        pyspiel.load_game("kalah(returns=points)")
    with pytest.raises(ValueError, match="early_stop must be"):
        pyspiel.load_game("kalah(early_stop=maybe)")
    with pytest.raises(kalah.NotationError):
        pyspiel.load_game("kalah(position=1;2)")


def test_parameters_reach_the_rules():
    game = pyspiel.load_game(
        "kalah(rules=kalah,houses=5,seeds=3,capture=empty,early_stop=yes,returns=margin)"
    )
    assert game.rules == kalah.Rules(
        "kalah", houses=5, seeds=3, capture="empty", early_stop=True
    )
    assert game.num_distinct_actions() == 12
    assert (game.min_utility(), game.max_utility()) == (-30.0, 30.0)
    state = game.new_initial_state()
    assert str(state) == str(game.rules.start())


def test_a_game_can_start_from_a_position():
    board = "0,0,1,0,0,0,20,0,0,0,0,0,1,26:N"
    game = pyspiel.load_game("kalah", {"position": board, "returns": "margin"})
    # OpenSpiel's game strings split on commas: the board is kept with semicolons.
    assert game.get_parameters()["position"] == board.replace(",", ";")
    assert str(pyspiel.load_game(str(game)).new_initial_state()) == board
    state = game.new_initial_state()
    assert str(state) == board
    assert state.current_player() == 1
    assert state.legal_actions() == [13]
    state.apply_action(13)  # North's last seed reaches North's store: North's row is empty
    assert state.is_terminal()
    assert state.returns() == [-6.0, 6.0]  # 20 + 1 (South's row) against 27


def test_observation_is_the_bins_and_the_player_to_move():
    state = pyspiel.load_game("kalah(houses=3,seeds=2)").new_initial_state()
    state.apply_action(2)  # bin 2 ends in South's store: South sows again
    assert state.observation_string(0) == str(state) == "2,0,3,1,2,2,2,0:S"
    assert state.observation_tensor(1) == [2, 0, 3, 1, 2, 2, 2, 0, 1, 0]
    assert state.current_player() == 0


def play_to_end(game, choose):
    """Plays a game with ``choose(state)`` picking every action, checking each one is
    legal and that the position follows the engine's own sowing; returns the final
    state."""
    state = game.new_initial_state()
    while not state.is_terminal():
        action = choose(state)
        assert action in state.legal_actions()
        pos = state.position
        expected, _ = pos.sow(ko.sowing_of(pos.houses_per_side, pos.side_to_move, action))
        state.apply_action(action)
        assert state.position == expected
    return state


@pytest.mark.parametrize(
    "spec",
    ["kalah", "kalah(rules=oware,houses=6,seeds=4)", "kalah(rules=oware,houses=4,seeds=3)"],
)
def test_mcts_bot_plays_complete_games(spec):
    game = pyspiel.load_game(spec)
    rng = np.random.RandomState(3)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rng)
    bots = [
        mcts.MCTSBot(
            game, uct_c=2, max_simulations=20, evaluator=evaluator, random_state=rng
        )
        for _ in range(2)
    ]
    state = play_to_end(game, lambda s: bots[s.current_player()].step(s))
    sign = float((state.score() > 0) - (state.score() < 0))
    assert state.returns() == [sign, -sign]
    ended = state.position.is_over or state.repeated
    assert ended or state.move_number() == game.max_game_length()


def test_oware_ends_when_a_position_comes_back():
    # Random play on a small Oware board soon goes round a cycle.
    game = pyspiel.load_game("kalah(rules=oware,houses=3,seeds=2,returns=margin)")
    repeated = 0
    for seed in range(30):
        rng = random.Random(seed)
        seen = [str(game.new_initial_state())]
        state = play_to_end(game, lambda s: rng.choice(s.legal_actions()))
        history_positions = game.new_initial_state()
        for action in state.history()[:-1]:
            history_positions.apply_action(action)
            seen.append(str(history_positions))
        if state.repeated:
            repeated += 1
            # The last position is the first one reached twice.
            assert str(state) in seen
            assert len(set(seen)) == len(seen)
            assert not state.position.is_over
        else:
            assert state.position.is_over
        assert state.returns() == [float(state.score()), -float(state.score())]
    assert repeated > 0


EXHAUSTIVE = [
    "kalah(houses=3,seeds=2)",
    "kalah(houses=4,seeds=1)",
    "kalah(houses=3,seeds=3)",
    "kalah(rules=kalah-empty,houses=3,seeds=2)",
    "kalah(rules=online,houses=3,seeds=2)",
    "kalah(rules=general,houses=3,seeds=2)",
    "kalah(rules=nigerian,houses=3,seeds=2)",
    "kalah(leftovers=discard,houses=4,seeds=1)",
]


@pytest.mark.parametrize("spec", EXHAUSTIVE)
def test_openspiels_alpha_beta_finds_the_exact_values(spec):
    game = pyspiel.load_game(spec[:-1] + ",returns=margin)")
    assert not game.rules.is_cyclic
    value, _ = minimax.alpha_beta_search(game, maximum_depth=1000)
    assert value == kalah.solve(game.rules.start()).value
    # And from positions along a random game, each for the player to move.
    rng = random.Random(spec)
    state = game.new_initial_state()
    while not state.is_terminal():
        mover = state.current_player()
        value, _ = minimax.alpha_beta_search(game, state=state, maximum_depth=1000)
        exact = kalah.solve(state.position)
        assert value == exact.value_for_mover
        assert value == (exact.value if mover == 0 else -exact.value)
        state.apply_action(rng.choice(state.legal_actions()))


@pytest.mark.parametrize(
    "spec",
    [
        "kalah(rules=oware,houses=2,seeds=1)",
        "kalah(rules=oware,houses=2,seeds=2)",
        "kalah(rules=ethiopian,houses=2,seeds=2)",
    ],
)
def test_a_repetition_ending_the_game_keeps_the_engines_values(spec):
    # The engine values a cycle as the margin standing (retrograde analysis); ending the
    # game at the first repetition gives the same values on the smallest boards.
    game = pyspiel.load_game(spec[:-1] + ",returns=margin)")
    assert game.rules.is_cyclic
    value, _ = minimax.alpha_beta_search(game, maximum_depth=1000)
    assert value == kalah.solve(game.rules.start()).value


def test_a_state_survives_serialization():
    game = pyspiel.load_game("kalah(rules=ethiopian,houses=4,seeds=3,returns=margin)")
    state = game.new_initial_state()
    rng = random.Random(5)
    for _ in range(6):
        state.apply_action(rng.choice(state.legal_actions()))
    text = pyspiel.serialize_game_and_state(game, state)
    game2, state2 = pyspiel.deserialize_game_and_state(text)
    assert str(game2) == str(game)
    assert str(state2) == str(state)
    assert state2.legal_actions() == state.legal_actions()


def test_win_draw_loss_returns_are_the_sign_of_the_margin():
    margin = pyspiel.load_game("kalah(houses=4,seeds=1,returns=margin)")
    wdl = pyspiel.load_game("kalah(houses=4,seeds=1)")
    value, _ = minimax.alpha_beta_search(wdl, maximum_depth=1000)
    exact, _ = minimax.alpha_beta_search(margin, maximum_depth=1000)
    assert value == (exact > 0) - (exact < 0)



def test_without_open_spiel_the_import_says_what_to_install():
    code = (
        "import sys; sys.modules['pyspiel'] = None\n"
        "try:\n    import kalah.openspiel\n"
        "except ImportError as e:\n    print(e)\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout
    assert "pip install open_spiel" in out
