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
"""

from __future__ import annotations

from typing import Any, Dict, List, Optional

try:
    import numpy as np
    import pyspiel
except ImportError as e:  # pragma: no cover - the message is the point
    raise ImportError(
        "kalah.openspiel needs OpenSpiel and NumPy: pip install open_spiel numpy"
    ) from e

from open_spiel.python.observation import IIGObserverForPublicInfoGame

import kalah

from ._bao_spiel import BaoGame, BaoObserver, BaoState
from ._bao_spiel import GAME_TYPE as BAO_GAME_TYPE
from ._bao_spiel import action_of as bao_action_of
from ._bao_spiel import move_of as bao_move_of
from ._bao_spiel import register as _register_bao

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

#: What the game is, for OpenSpiel: two players, sequential, deterministic, perfect
#: information, zero-sum, rewarded at the end.
GAME_TYPE = pyspiel.GameType(
    short_name="kalah",
    long_name="Kalah and related sowing games (the kalah engine's rules)",
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
    parameter_specification=_PARAMETERS,
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


class _Shared:
    """What every state of one game shares and never changes: the rules, the start
    position and the settings. A state's copy (OpenSpiel clones by ``copy.deepcopy``)
    shares it rather than copying it."""

    def __init__(self, params: Dict[str, Any]):
        self.rules = _rules(params)
        board = params["position"].replace(";", ",")
        self.start = self.rules.position(board) if board else self.rules.start()
        self.houses = self.rules.houses
        self.cyclic = self.rules.is_cyclic
        self.margin = {WIN_DRAW_LOSS: False, MARGIN: True}.get(params["returns"])
        if self.margin is None:
            raise ValueError(
                f"returns must be {WIN_DRAW_LOSS} or {MARGIN}, not {params['returns']!r}"
            )
        self.max_length = int(params["max_game_length"])
        if self.max_length < 1:
            raise ValueError(f"max_game_length must be at least 1, not {self.max_length}")
        directions = 2 if self.rules.family == "ethiopian" else 1
        self.num_actions = directions * _bins(self.houses)
        self.seeds = max(self.rules.total_seeds, sum(self.start.counts))

    def __deepcopy__(self, memo: Dict[int, Any]) -> "_Shared":
        return self


class _Node:
    """One state of play, immutable: the position, the positions seen so far (only where
    positions repeat) and whether the game ended by a repetition. Shared between a state
    and its clones until one of them moves."""

    __slots__ = ("position", "seen", "repeated")

    def __init__(self, position: "kalah.Position", seen: frozenset, repeated: bool):
        self.position = position
        self.seen = seen
        self.repeated = repeated

    def __deepcopy__(self, memo: Dict[int, Any]) -> "_Node":
        return self


class KalahGame(pyspiel.Game):
    """The game ``kalah`` of OpenSpiel over the engine's rules (see the module doc for its
    parameters). ``pyspiel.load_game("kalah(...)")`` makes one once this module is
    imported; so does ``KalahGame({"rules": "oware"})``."""

    def __init__(self, params: Optional[Dict[str, Any]] = None):
        full = dict(_PARAMETERS)
        full.update(params or {})
        unknown = set(full) - set(_PARAMETERS)
        if unknown:
            raise ValueError(f"unknown parameters of kalah: {', '.join(sorted(unknown))}")
        # OpenSpiel's game strings split parameters on commas: the board is kept with
        # semicolons, so that str(game) loads the same game again.
        full["position"] = str(full["position"]).replace(",", ";")
        shared = _Shared(full)
        utility = float(shared.seeds) if shared.margin else 1.0
        info = pyspiel.GameInfo(
            num_distinct_actions=shared.num_actions,
            max_chance_outcomes=0,
            num_players=2,
            min_utility=-utility,
            max_utility=utility,
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

    def new_initial_state(self) -> "KalahState":
        """A state at the start position."""
        return KalahState(self)

    def make_py_observer(self, iig_obs_type=None, params=None):
        """The observer of the board (and, for the information state, of the history)."""
        if iig_obs_type is None or (
            iig_obs_type.public_info and not iig_obs_type.perfect_recall
        ):
            return BoardObserver(self._shared.houses, params)
        return IIGObserverForPublicInfoGame(iig_obs_type, params)


class KalahState(pyspiel.State):
    """A state of :class:`KalahGame`: a position of the engine and, where positions repeat,
    the positions already reached. ``str(state)`` is the board notation."""

    def __init__(self, game: KalahGame):
        super().__init__(game)
        self._shared = game._shared
        start = self._shared.start
        seen = frozenset([str(start)]) if self._shared.cyclic else frozenset()
        self._node = _Node(start, seen, False)
        self._sowings = 0

    @property
    def position(self) -> "kalah.Position":
        """The engine's position (with the rules it is played by)."""
        return self._node.position

    @property
    def repeated(self) -> bool:
        """True when the game ended because a position came back."""
        return self._node.repeated

    def is_terminal(self) -> bool:
        """True when the game is over: by the rules, by a repetition, or by the length
        limit."""
        node = self._node
        return (
            node.position.is_over
            or node.repeated
            or self._sowings >= self._shared.max_length
        )

    def current_player(self) -> int:
        """0 when South is to move, 1 when North is, ``TERMINAL`` at the end."""
        if self.is_terminal():
            return pyspiel.PlayerId.TERMINAL
        return 0 if self._node.position.side_to_move == kalah.Side.SOUTH else 1

    def _legal_actions(self, player: int) -> List[int]:
        """The sowings of the player to move as actions, in increasing order."""
        pos = self._node.position
        h, side = self._shared.houses, pos.side_to_move
        return sorted(action_of(h, side, s) for s in pos.sowings())

    def _apply_action(self, action: int) -> None:
        """Sows the house that ``action`` names (checked by the engine)."""
        pos = self._node.position
        nxt, _extra = pos.sow(sowing_of(self._shared.houses, pos.side_to_move, action))
        seen, repeated = self._node.seen, False
        if self._shared.cyclic and not nxt.is_over:
            key = str(nxt)
            repeated = key in seen
            seen = seen | {key}
        self._node = _Node(nxt, seen, repeated)
        self._sowings += 1

    def _action_to_string(self, player: int, action: int) -> str:
        """The action in the notation: its bin, followed by ``<`` for a clockwise
        sowing."""
        clockwise, b = divmod(action, _bins(self._shared.houses))
        return f"{b}<" if clockwise else str(b)

    def score(self) -> int:
        """South's store minus North's, as it stands (the final score at the end)."""
        return self._node.position.score

    def returns(self) -> List[float]:
        """Zero until the end; then +1/0/-1 or the margin (see the module doc)."""
        if not self.is_terminal():
            return [0.0, 0.0]
        score = self._node.position.score
        value = float(score) if self._shared.margin else float((score > 0) - (score < 0))
        return [value, -value]

    def __str__(self) -> str:
        """The board notation (``4,4,4,4,4,4,0,4,4,4,4,4,4,0:S``)."""
        return str(self._node.position)


class BoardObserver:
    """The observation of a state, the same for both players (perfect information): the
    counts of the 2H+2 bins in bin order, then 1 for the player to move (South, North);
    its string is the board notation."""

    def __init__(self, houses: int, params: Optional[Dict[str, Any]]):
        if params:
            raise ValueError(f"the observation takes no parameters, given {params}")
        bins = _bins(houses)
        self.tensor = np.zeros(bins + 2, np.float32)
        self.dict = {"bins": self.tensor[:bins], "to_move": self.tensor[bins:]}

    def set_from(self, state: KalahState, player: int) -> None:
        """Writes the observation of ``state`` into ``tensor``."""
        del player
        pos = state.position
        self.dict["bins"][:] = list(pos.counts)
        self.dict["to_move"][:] = 0
        if not state.is_terminal():
            self.dict["to_move"][state.current_player()] = 1

    def string_from(self, state: KalahState, player: int) -> str:
        """The board notation of ``state``."""
        del player
        return str(state)


def register() -> None:
    """Registers the games ``kalah`` and ``bao`` with ``pyspiel`` (done on import; again is
    a no-op)."""
    if GAME_TYPE.short_name not in pyspiel.registered_names():
        pyspiel.register_game(GAME_TYPE, KalahGame)
    _register_bao()


register()
