"""Our games for OpenSpiel: a ``pyspiel.Game`` and ``pyspiel.State`` over the engine's rules.

Importing this module registers the games ``kalah`` (the sowing games) and ``bao`` (Bao la
Kujifunza, documented in ``kalah._bao_spiel``: :class:`BaoGame`) with ``pyspiel`` (it
needs the package ``open_spiel``), so that every OpenSpiel algorithm written in Python
(MCTS, minimax, alpha-beta, CFR, AlphaZero, ...) plays any family and any board of ours::

    import pyspiel
    import kalah.openspiel  # registers "kalah" and "bao"

    game = pyspiel.load_game("kalah(rules=oware,houses=6,seeds=4,returns=margin)")
    state = game.new_initial_state()
    bao = pyspiel.load_game("bao(houses=8,seeds=2)")

**Players.** Player 0 is South (moves first), player 1 North.

**Actions** are the bins of the board notation, which number the houses as OpenSpiel's
own ``mancala`` does: South's houses are 1..H, North's H+2..2H+1; 0 and H+1 (the stores)
are never legal. On Kalah(6,4) the actions are those of ``mancala``. Where the mover chooses
the direction (Ethiopian Kalah), a clockwise sowing of bin ``b`` is action ``b + 2H+2``.
One action is one sowing: after a sowing that ends in the mover's store the same player
is to move again, as in ``mancala``.

**Returns** are given at the end of the game only: with ``returns=win_draw_loss`` (the
default) +1, 0 or -1; with ``returns=margin`` the final store difference, South's store
minus North's for player 0 and its negation for player 1 (the value the engine solves).

**End of the game.** The game ends where the rules end it. In the families whose positions
repeat (Ethiopian, Oware) it also ends as soon as a position (the board and the player to
move) comes back: play could then go round the cycle for ever, and the margin stands, as
the engine's rules say (docs/rules.md §5.7). A game still going after ``max_game_length``
sowings is scored as its stores stand (adjudicated; only reached by very long games).

**Parameters** (all optional): ``rules`` (a preset: ``kalah``, ``kalah-empty``, ``online``,
``online-empty``, ``general``, ``egyptian``, ``nigerian``, ``ethiopian``, ``oware``),
``houses`` (6), ``seeds`` (4), ``capture``, ``end``, ``leftovers``, ``grand_slam`` (the
command line's option values; empty: the preset's), ``early_stop`` (``yes``, ``no``, or
empty: the preset's), ``position`` (a board in the notation to start from, its commas
written as semicolons inside a game string; empty: the start), ``returns`` (``win_draw_loss`` or ``margin``), ``max_game_length`` (1000).

**Bao.** ``rules=bao`` makes the game Bao la Kujifunza, the same game as ``bao`` (its
actions, returns, observation and end, module ``kalah._bao_spiel``) under this name:
``houses`` and ``seeds`` are its pits a row and seeds a pit (6 and 4 where not given, as
for every rules of this game), a position that comes back for the third time is a draw, ``returns`` is
``win_draw_loss`` and the sowing options stay empty. Both games are one game over a
per-kind adapter (``kalah._spiel``).
"""

from __future__ import annotations

from typing import Any, Dict, List, Mapping, Optional, Tuple

try:
    import numpy as np  # noqa: F401 - the observers need it (kalah._spiel)
    import pyspiel
except ImportError as e:  # pragma: no cover - the message is the point
    raise ImportError(
        "kalah.openspiel needs OpenSpiel and NumPy: pip install open_spiel numpy"
    ) from e

import kalah

from ._bao_spiel import BaoGame, BaoObserver, BaoState, _BaoAdapter
from ._bao_spiel import GAME_TYPE as BAO_GAME_TYPE
from ._bao_spiel import action_of as bao_action_of
from ._bao_spiel import move_of as bao_move_of
from ._bao_spiel import register as _register_bao
from ._spiel import Adapter, SpielGame, SpielObserver, SpielState, _Node, checked_length
from ._spiel import full_parameters, game_type

__all__ = [
    "BAO_GAME_TYPE",
    "BaoGame",
    "BaoObserver",
    "BaoState",
    "GAME_TYPE",
    "KalahGame",
    "KalahState",
    "WIN_DRAW_LOSS",
    "MARGIN",
    "action_of",
    "bao_action_of",
    "bao_move_of",
    "sowing_of",
    "register",
]

#: Returns of +1, 0 or -1 at the end of the game.
WIN_DRAW_LOSS = "win_draw_loss"
#: Returns of the final store difference (South's minus North's for player 0).
MARGIN = "margin"

_EARLY_STOP = {"": None, "yes": True, "no": False}

#: The parameters of the game with their defaults; empty strings leave the preset's choice.
_PARAMETERS: Dict[str, Any] = {
    "rules": "kalah",
    "houses": 6,
    "seeds": 4,
    "capture": "",
    "end": "",
    "leftovers": "",
    "early_stop": "",
    "grand_slam": "",
    "position": "",
    "returns": WIN_DRAW_LOSS,
    "max_game_length": 1000,
}

#: What the game is, for OpenSpiel (:func:`kalah._spiel.game_type`).
GAME_TYPE = game_type(
    "kalah", "Kalah and related sowing games (the kalah engine's rules)", _PARAMETERS
)


def _bins(houses: int) -> int:
    """The number of bins of a board (both rows and both stores): 2H+2."""
    return 2 * houses + 2


def action_of(houses: int, side: "kalah.Side", sowing: int) -> int:
    """The OpenSpiel action of the engine's sowing ``sowing`` (as ``Position.sowings()``
    numbers it: the mover's house from the mover's left, ``kalah.CLOCKWISE`` added for a
    clockwise sowing) when ``side`` is to move on a board of ``houses`` houses."""
    house, clockwise = sowing % kalah.CLOCKWISE, sowing >= kalah.CLOCKWISE
    if not 0 <= house < houses:
        raise ValueError(f"no house {house} on a board of {houses} houses")
    first = 1 if side == kalah.Side.SOUTH else houses + 2
    return first + house + clockwise * _bins(houses)


def sowing_of(houses: int, side: "kalah.Side", action: int) -> int:
    """The engine's sowing of the OpenSpiel action ``action`` when ``side`` is to move:
    the inverse of :func:`action_of`. Raises ``ValueError`` for an action that names no
    house of ``side``."""
    b, clockwise = action % _bins(houses), action // _bins(houses)
    first = 1 if side == kalah.Side.SOUTH else houses + 2
    if not (first <= b < first + houses and clockwise in (0, 1)):
        raise ValueError(f"action {action} is not a house of {side} on {houses} houses")
    return b - first + clockwise * kalah.CLOCKWISE


def _rules(params: Dict[str, Any]) -> "kalah.Rules":
    """The engine's rules of the game parameters (errors are the engine's)."""
    early = params["early_stop"]
    if early not in _EARLY_STOP:
        raise ValueError(f"early_stop must be yes, no or empty, not {early!r}")
    return kalah.Rules(
        params["rules"],
        houses=params["houses"],
        seeds=params["seeds"],
        capture=params["capture"] or None,
        end=params["end"] or None,
        leftovers=params["leftovers"] or None,
        early_stop=_EARLY_STOP[early],
        grand_slam=params["grand_slam"] or None,
    )


class _SowingAdapter(Adapter):
    """The sowing games for the shared game of ``kalah._spiel``: the bins of the notation
    as actions (:func:`action_of`), the game over at the first repetition where positions
    repeat, the stores' difference (or its sign) as the returns."""

    def __init__(self, params: Mapping[str, Any]):
        self.rules = _rules(params)
        board = params["position"].replace(";", ",")
        self.start = self.rules.position(board) if board else self.rules.start()
        self.houses = self.rules.houses
        self.repetitions = 2 if self.rules.is_cyclic else None
        self.margin = {WIN_DRAW_LOSS: False, MARGIN: True}.get(params["returns"])
        if self.margin is None:
            raise ValueError(
                f"returns must be {WIN_DRAW_LOSS} or {MARGIN}, not {params['returns']!r}"
            )
        self.max_length = checked_length(params)
        directions = 2 if self.rules.family == "ethiopian" else 1
        self.num_actions = directions * _bins(self.houses)
        seeds = max(self.rules.total_seeds, sum(self.start.counts))
        self.utility = float(seeds) if self.margin else 1.0

    def moves(self, position: "kalah.Position") -> Tuple[int, ...]:
        return tuple(position.sowings()) if not position.is_over else ()

    def over(self, node: _Node) -> bool:
        return node.position.is_over

    def actions(self, position: "kalah.Position", moves: Tuple[int, ...]) -> List[int]:
        side = position.side_to_move
        return sorted(action_of(self.houses, side, s) for s in moves)

    def play(self, position: "kalah.Position", action: int) -> "kalah.Position":
        nxt, _extra = position.sow(sowing_of(self.houses, position.side_to_move, action))
        return nxt

    def tracked(self, position: "kalah.Position") -> bool:
        return self.repetitions is not None and not position.is_over

    def returns(self, node: _Node) -> List[float]:
        score = node.position.score
        value = float(score) if self.margin else float((score > 0) - (score < 0))
        return [value, -value]

    def action_string(self, player: int, position: "kalah.Position", action: int) -> str:
        clockwise, b = divmod(action, _bins(self.houses))
        return f"{b}<" if clockwise else str(b)

    def observer(self, params: Optional[Dict[str, Any]]) -> "BoardObserver":
        return BoardObserver(self.houses, params)


#: The parameters of ``kalah`` that only the sowing games take (empty for ``rules=bao``).
_SOWING_ONLY = ("capture", "end", "leftovers", "early_stop", "grand_slam")


def _bao_adapter(full: Mapping[str, Any]) -> _BaoAdapter:
    """The adapter of ``kalah(rules=bao,...)``: the board of ``houses`` and ``seeds`` (this
    game's 6 and 4 where not given: OpenSpiel fills in the defaults), the sowing options
    refused."""
    for name in _SOWING_ONLY:
        if full[name] not in ("", None):
            raise ValueError(f"{name} is an option of the sowing games, not of rules=bao")
    if full["returns"] != WIN_DRAW_LOSS:
        raise ValueError(f"returns is {WIN_DRAW_LOSS} for rules=bao (a game is won or drawn)")
    return _BaoAdapter(
        {
            "houses": full["houses"],
            "seeds": full["seeds"],
            "position": full["position"],
            "max_game_length": full["max_game_length"],
        }
    )


class KalahGame(SpielGame):
    """The game ``kalah`` of OpenSpiel over the engine's rules (see the module doc for its
    parameters). ``pyspiel.load_game("kalah(...)")`` makes one once this module is
    imported; so does ``KalahGame({"rules": "oware"})``. With ``rules=bao`` it is Bao
    (its states are :class:`BaoState`)."""

    def __init__(self, params: Optional[Dict[str, Any]] = None):
        full = full_parameters("kalah", _PARAMETERS, params)
        if str(full["rules"]).strip().lower() == "bao":
            adapter: Adapter = _bao_adapter(full)
        else:
            adapter = _SowingAdapter(full)
        super().__init__(GAME_TYPE, full, adapter)

    def new_initial_state(self) -> SpielState:
        """A state at the start position (a :class:`BaoState` for ``rules=bao``)."""
        if isinstance(self._adapter, _BaoAdapter):
            return BaoState(self)
        return KalahState(self)


class KalahState(SpielState):
    """A state of :class:`KalahGame`: a position of the engine and, where positions repeat,
    the positions already reached. ``str(state)`` is the board notation."""

    def score(self) -> int:
        """South's store minus North's, as it stands (the final score at the end)."""
        return self._node.position.score


class BoardObserver(SpielObserver):
    """The observation of a state, the same for both players (perfect information): the
    counts of the 2H+2 bins in bin order, then 1 for the player to move (South, North);
    its string is the board notation."""

    def __init__(self, houses: int, params: Optional[Dict[str, Any]]):
        super().__init__("bins", _bins(houses), params)


def register() -> None:
    """Registers the games ``kalah`` and ``bao`` with ``pyspiel`` (done on import; again is
    a no-op)."""
    if GAME_TYPE.short_name not in pyspiel.registered_names():
        pyspiel.register_game(GAME_TYPE, KalahGame)
    _register_bao()


register()
