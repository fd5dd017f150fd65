"""The OpenSpiel game ``bao``: Bao la Kujifunza over the engine's rules (registered by
``kalah.openspiel``, which documents it beside the sowing games' ``kalah``).

**Players.** Player 0 is South (moves first), player 1 North.

**Actions.** One action is one move (a whole turn: relays and captures included), numbered
in the canonical order of Bao's notation: the mover's front pits 1..N, then back pits 1..N,
``+`` before ``-``. Action ``2 * (k - 1) + d`` is pit ``k`` of the front row (``k`` of
1..N) or pit ``k - N`` of the back row (``k`` of N+1..2N), ``d`` 0 for ``+`` and 1 for
``-``: ``4N`` actions. ``action_to_string`` is the move in the notation (``A3+`` for
South, ``a3+`` for North).

**End and returns.** The game ends when the mover's front row is empty or the mover has no
legal move (the mover has lost: returns -1 for the mover, +1 for the other), as a draw
(0, 0) when a position (the board and the player to move) comes back for the
``repetitions``-th time (3 by default, as ``kalah play`` and ``kalah match`` do), and as a
draw after ``max_game_length`` moves. A draw is Bao's value of endless play (BAO.md R9.1).

**Parameters** (all optional): ``houses`` (8: pits a row, 3 to 8), ``seeds`` (2 a pit),
``position`` (a position in Bao's notation to start from, its commas written as
semicolons inside a game string; empty: the start), ``repetitions`` (3),
``max_game_length`` (1000).
"""

from __future__ import annotations

from typing import Any, Dict, List, Mapping, Optional, Tuple

import numpy as np
import pyspiel
from open_spiel.python.observation import IIGObserverForPublicInfoGame

import kalah

#: The parameters of the game with their defaults.
PARAMETERS: Dict[str, Any] = {
    "houses": 8,
    "seeds": 2,
    "position": "",
    "repetitions": 3,
    "max_game_length": 1000,
}

#: What the game is, for OpenSpiel: two players, sequential, deterministic, perfect
#: information, zero-sum, rewarded at the end.
GAME_TYPE = pyspiel.GameType(
    short_name="bao",
    long_name="Bao la Kujifunza (the kalah engine's rules)",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.DETERMINISTIC,
    information=pyspiel.GameType.Information.PERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.ZERO_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=2,
    min_num_players=2,
    provides_information_state_string=True,
    provides_information_state_tensor=False,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification=PARAMETERS,
)

_ROWS = {"A": 0, "B": 1, "a": 0, "b": 1}


def action_of(pits: int, move: str) -> int:
    """The action of a move in Bao's notation (``A3+``, ``b8-``) on a board of ``pits`` pits
    a row. Raises ``ValueError`` for text that is not a move of this board."""
    text = move.strip()
    if len(text) < 3 or text[0] not in _ROWS or text[-1] not in "+-":
        raise ValueError(f"{move!r} is not a Bao move such as A3+")
    pit = int(text[1:-1]) if text[1:-1].isdigit() else 0
    if not 1 <= pit <= pits:
        raise ValueError(f"{move!r}: pits are numbered 1 to {pits}")
    return 2 * (_ROWS[text[0]] * pits + pit - 1) + (text[-1] == "-")


def move_of(pits: int, side: "kalah.Side", action: int) -> str:
    """The move in Bao's notation of ``action`` for ``side`` to move: the inverse of
    :func:`action_of`. Raises ``ValueError`` for an action outside 0..4N-1."""
    if not 0 <= action < 4 * pits:
        raise ValueError(f"action {action} is not a move on {pits} pits a row (0 to {4 * pits - 1})")
    index, anticlockwise = divmod(action, 2)
    row, pit = divmod(index, pits)
    letter = "AB"[row] if side == kalah.Side.SOUTH else "ab"[row]
    return f"{letter}{pit + 1}{'-' if anticlockwise else '+'}"


class _Shared:
    """What every state of one game shares and never changes (kept, not copied, by a
    state's deep copy)."""

    def __init__(self, params: Dict[str, Any]):
        self.rules = kalah.Rules("bao", houses=params["houses"], seeds=params["seeds"])
        board = params["position"].replace(";", ",")
        self.start = self.rules.position(board) if board else self.rules.start()
        self.pits = self.rules.houses
        self.repetitions = int(params["repetitions"])
        if self.repetitions < 2:
            raise ValueError(f"repetitions must be at least 2, not {self.repetitions}")
        self.max_length = int(params["max_game_length"])
        if self.max_length < 1:
            raise ValueError(f"max_game_length must be at least 1, not {self.max_length}")

    def __deepcopy__(self, memo: Dict[int, Any]) -> "_Shared":
        return self


class _Node:
    """One state of play, immutable and shared between a state and its clones until one
    of them moves: the position, how often each position was reached, whether the last
    one reached the repetition limit, and the legal moves (found once)."""

    __slots__ = ("position", "seen", "repeated", "_moves")

    def __init__(self, position: "kalah.Position", seen: Mapping[str, int], repeated: bool):
        self.position = position
        self.seen = seen
        self.repeated = repeated
        self._moves: Optional[Tuple[str, ...]] = None

    def moves(self) -> Tuple[str, ...]:
        """The legal moves in canonical order (none once the game is over)."""
        if self._moves is None:
            self._moves = tuple(self.position.moves())
        return self._moves

    def __deepcopy__(self, memo: Dict[int, Any]) -> "_Node":
        return self


class BaoGame(pyspiel.Game):
    """The game ``bao`` of OpenSpiel (see the module doc for its parameters).
    ``pyspiel.load_game("bao(houses=4)")`` makes one once ``kalah.openspiel`` is
    imported."""

    def __init__(self, params: Optional[Dict[str, Any]] = None):
        full = dict(PARAMETERS)
        full.update(params or {})
        unknown = set(full) - set(PARAMETERS)
        if unknown:
            raise ValueError(f"unknown parameters of bao: {', '.join(sorted(unknown))}")
        # OpenSpiel's game strings split parameters on commas: the board is kept with
        # semicolons, so that str(game) loads the same game again.
        full["position"] = str(full["position"]).replace(",", ";")
        shared = _Shared(full)
        info = pyspiel.GameInfo(
            num_distinct_actions=4 * shared.pits,
            max_chance_outcomes=0,
            num_players=2,
            min_utility=-1.0,
            max_utility=1.0,
            utility_sum=0.0,
            max_game_length=shared.max_length,
        )
        super().__init__(GAME_TYPE, info, full)
        self._shared = shared

    @property
    def rules(self) -> "kalah.Rules":
        """The engine's rules of this game."""
        return self._shared.rules

    @property
    def start(self) -> "kalah.Position":
        """The position a new game starts from."""
        return self._shared.start

    def new_initial_state(self) -> "BaoState":
        """A state at the start position."""
        return BaoState(self)

    def make_py_observer(self, iig_obs_type=None, params=None):
        """The observer of the board (and, for the information state, of the history)."""
        if iig_obs_type is None or (
            iig_obs_type.public_info and not iig_obs_type.perfect_recall
        ):
            return BaoObserver(self._shared.pits, params)
        return IIGObserverForPublicInfoGame(iig_obs_type, params)


class BaoState(pyspiel.State):
    """A state of :class:`BaoGame`: a position of the engine and how often each position
    was reached. ``str(state)`` is Bao's notation of the position."""

    def __init__(self, game: BaoGame):
        super().__init__(game)
        self._shared = game._shared
        start = self._shared.start
        self._node = _Node(start, {str(start): 1}, False)
        self._moves_played = 0

    @property
    def position(self) -> "kalah.Position":
        """The engine's position (with Bao's rules)."""
        return self._node.position

    @property
    def repeated(self) -> bool:
        """True when the game ended because a position came back ``repetitions`` times."""
        return self._node.repeated

    def is_terminal(self) -> bool:
        """True when the game is over: won, drawn by repetition, or at the length limit."""
        node = self._node
        return (
            node.repeated
            or self._moves_played >= self._shared.max_length
            or not node.moves()
        )

    def current_player(self) -> int:
        """0 when South is to move, 1 when North is, ``TERMINAL`` at the end."""
        if self.is_terminal():
            return pyspiel.PlayerId.TERMINAL
        return 0 if self._node.position.side_to_move == kalah.Side.SOUTH else 1

    def _legal_actions(self, player: int) -> List[int]:
        """The legal moves as actions, in increasing (canonical) order."""
        pits = self._shared.pits
        return sorted(action_of(pits, m) for m in self._node.moves())

    def _apply_action(self, action: int) -> None:
        """Plays the move that ``action`` names (checked by the engine)."""
        node = self._node
        nxt = node.position.play(move_of(self._shared.pits, node.position.side_to_move, action))
        key = str(nxt)
        seen = dict(node.seen)
        seen[key] = seen.get(key, 0) + 1
        self._node = _Node(nxt, seen, seen[key] >= self._shared.repetitions)
        self._moves_played += 1

    def _action_to_string(self, player: int, action: int) -> str:
        """The move in Bao's notation, with the row letters of ``player``."""
        sides = {0: kalah.Side.SOUTH, 1: kalah.Side.NORTH}
        side = sides.get(player, self._node.position.side_to_move)
        return move_of(self._shared.pits, side, action)

    def winner(self) -> Optional["kalah.Side"]:
        """The side that won, once the game is won; None while it goes on or when drawn."""
        node = self._node
        if node.repeated or node.moves():
            return None
        return node.position.side_to_move.other

    def returns(self) -> List[float]:
        """Zero until the end; then +1 for the winner and -1 for the loser, 0 for a draw."""
        won = self.winner() if self.is_terminal() else None
        if won is None:
            return [0.0, 0.0]
        return [1.0, -1.0] if won == kalah.Side.SOUTH else [-1.0, 1.0]

    def __str__(self) -> str:
        """Bao's notation of the position (``2,2,2/2,2,2/2,2,2/2,2,2:S``)."""
        return str(self._node.position)


class BaoObserver:
    """The observation of a state, the same for both players (perfect information): the 4N
    pit counts in the notation's order (``Position.counts``), then 1 for the player to move
    (South, North); its string is Bao's notation."""

    def __init__(self, pits: int, params: Optional[Dict[str, Any]]):
        if params:
            raise ValueError(f"the observation takes no parameters, given {params}")
        cells = 4 * pits
        self.tensor = np.zeros(cells + 2, np.float32)
        self.dict = {"pits": self.tensor[:cells], "to_move": self.tensor[cells:]}

    def set_from(self, state: BaoState, player: int) -> None:
        """Writes the observation of ``state`` into ``tensor``."""
        del player
        self.dict["pits"][:] = list(state.position.counts)
        self.dict["to_move"][:] = 0
        if not state.is_terminal():
            self.dict["to_move"][state.current_player()] = 1

    def string_from(self, state: BaoState, player: int) -> str:
        """Bao's notation of ``state``."""
        del player
        return str(state)


def register() -> None:
    """Registers the game ``bao`` with ``pyspiel`` (again is a no-op)."""
    if GAME_TYPE.short_name not in pyspiel.registered_names():
        pyspiel.register_game(GAME_TYPE, BaoGame)
