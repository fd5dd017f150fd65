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

The game is :class:`BaoGame` over :class:`_BaoAdapter` (the game, its states and its
observer are those of every kind, in ``kalah._spiel``); ``kalah(rules=bao,...)`` is the
same game under the sowing games' name.
"""

from __future__ import annotations

from typing import Any, Dict, List, Mapping, Optional, Tuple

import pyspiel

import kalah

from ._spiel import Adapter, SpielGame, SpielObserver, SpielState, _Node, checked_length
from ._spiel import full_parameters, game_type

#: The parameters of the game with their defaults.
PARAMETERS: Dict[str, Any] = {
    "houses": 8,
    "seeds": 2,
    "position": "",
    "repetitions": 3,
    "max_game_length": 1000,
}

#: What the game is, for OpenSpiel (:func:`game_type`).
GAME_TYPE = game_type("bao", "Bao la Kujifunza (the kalah engine's rules)", PARAMETERS)

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


class _BaoAdapter(Adapter):
    """Bao for the shared game of ``kalah._spiel``: the moves of the notation as actions
    (:func:`action_of`), a draw when a position comes back ``repetitions`` times, +1 and
    -1 at a win. ``houses`` and ``seeds`` of None are Bao's own board (8 pits a row, 2
    seeds a pit)."""

    def __init__(self, params: Mapping[str, Any]):
        houses, seeds = params.get("houses"), params.get("seeds")
        self.rules = kalah.Rules("bao", houses=houses, seeds=seeds)
        board = str(params.get("position", "")).replace(";", ",")
        self.start = self.rules.position(board) if board else self.rules.start()
        self.pits = self.rules.houses
        self.num_actions = 4 * self.pits
        self.utility = 1.0
        self.repetitions = int(params.get("repetitions", PARAMETERS["repetitions"]))
        if self.repetitions < 2:
            raise ValueError(f"repetitions must be at least 2, not {self.repetitions}")
        self.max_length = checked_length(params)

    def moves(self, position: "kalah.Position") -> Tuple[str, ...]:
        return tuple(position.moves())

    def over(self, node: _Node) -> bool:
        return not node.moves(self)

    def actions(self, position: "kalah.Position", moves: Tuple[str, ...]) -> List[int]:
        return sorted(action_of(self.pits, m) for m in moves)

    def play(self, position: "kalah.Position", action: int) -> "kalah.Position":
        return position.play(move_of(self.pits, position.side_to_move, action))

    def winner(self, node: _Node) -> Optional["kalah.Side"]:
        """The side that won at ``node``; None while the game goes on or when drawn."""
        if node.repeated or node.moves(self):
            return None
        return node.position.side_to_move.other

    def returns(self, node: _Node) -> List[float]:
        won = self.winner(node)
        if won is None:
            return [0.0, 0.0]
        return [1.0, -1.0] if won == kalah.Side.SOUTH else [-1.0, 1.0]

    def action_string(self, player: int, position: "kalah.Position", action: int) -> str:
        sides = {0: kalah.Side.SOUTH, 1: kalah.Side.NORTH}
        return move_of(self.pits, sides.get(player, position.side_to_move), action)

    def observer(self, params: Optional[Dict[str, Any]]) -> "BaoObserver":
        return BaoObserver(self.pits, params)


class BaoGame(SpielGame):
    """The game ``bao`` of OpenSpiel (see the module doc for its parameters).
    ``pyspiel.load_game("bao(houses=4)")`` makes one once ``kalah.openspiel`` is
    imported."""

    def __init__(self, params: Optional[Dict[str, Any]] = None):
        full = full_parameters("bao", PARAMETERS, params)
        super().__init__(GAME_TYPE, full, _BaoAdapter(full))

    def new_initial_state(self) -> "BaoState":
        """A state at the start position."""
        return BaoState(self)


class BaoState(SpielState):
    """A state of a game of Bao (:class:`BaoGame`, or ``kalah`` with ``rules=bao``): a
    position of the engine and how often each position was reached. ``str(state)`` is
    Bao's notation of the position."""

    def winner(self) -> Optional["kalah.Side"]:
        """The side that won, once the game is won; None while it goes on or when drawn."""
        return self._adapter.winner(self._node)


class BaoObserver(SpielObserver):
    """The observation of a state, the same for both players (perfect information): the 4N
    pit counts in the notation's order (``Position.counts``), then 1 for the player to move
    (South, North); its string is Bao's notation."""

    def __init__(self, pits: int, params: Optional[Dict[str, Any]]):
        super().__init__("pits", 4 * pits, params)


def register() -> None:
    """Registers the game ``bao`` with ``pyspiel`` (again is a no-op)."""
    if GAME_TYPE.short_name not in pyspiel.registered_names():
        pyspiel.register_game(GAME_TYPE, BaoGame)
