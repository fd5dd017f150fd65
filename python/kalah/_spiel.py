"""The one OpenSpiel game of ``kalah.openspiel`` over a per-kind adapter: the game, its
states and its observer are written here once; what differs between the sowing games and
Bao la Kujifunza (the legal actions, playing one, the returns, the observation, the
names of the actions) is asked of an :class:`Adapter` (``_SowingAdapter`` in
``kalah.openspiel``, ``_BaoAdapter`` in ``kalah._bao_spiel``).

A game is a :class:`SpielGame` made from its parameters and an adapter; its states keep
an immutable :class:`_Node` (the position, how often each position was reached where
positions can repeat, whether the last one reached the repetition limit) shared between
a state and its clones until one of them moves.
"""

from __future__ import annotations

from typing import Any, Dict, List, Mapping, Optional, Tuple

import numpy as np
import pyspiel
from open_spiel.python.observation import IIGObserverForPublicInfoGame

import kalah


def game_type(short_name: str, long_name: str, parameters: Dict[str, Any]) -> pyspiel.GameType:
    """What a game of this package is, for OpenSpiel: two players, sequential,
    deterministic, perfect information, zero-sum, rewarded at the end, observed as a
    string and a tensor; named ``short_name`` and taking ``parameters``."""
    return pyspiel.GameType(
        short_name=short_name,
        long_name=long_name,
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
        parameter_specification=parameters,
    )


class Adapter:
    """What one kind of game answers for the shared game and state (each kind sets the
    attributes in its constructor and overrides the methods). An adapter is made once per
    game and never changes, so a state's deep copy keeps it."""

    #: The engine's rules of the game.
    rules: "kalah.Rules"
    #: The position a new game starts from.
    start: "kalah.Position"
    #: The number of distinct actions.
    num_actions: int
    #: The largest absolute return.
    utility: float
    #: The moves (actions) after which a game still going ends (and is scored as the
    #: kind says).
    max_length: int
    #: The count of a position's visits that ends the game as a draw; None where
    #: positions never repeat (nothing is tracked).
    repetitions: Optional[int]

    def moves(self, position: "kalah.Position") -> Tuple[Any, ...]:
        """The legal moves of ``position`` in the engine's terms (found once a node)."""
        raise NotImplementedError

    def over(self, node: "_Node") -> bool:
        """True when the rules end the game at ``node`` (its position; its moves,
        ``node.moves(self)``, where the kind asks them)."""
        raise NotImplementedError

    def actions(self, position: "kalah.Position", moves: Tuple[Any, ...]) -> List[int]:
        """The legal ``moves`` of ``position`` as actions, in increasing order."""
        raise NotImplementedError

    def play(self, position: "kalah.Position", action: int) -> "kalah.Position":
        """The position after ``action`` (checked by the engine)."""
        raise NotImplementedError

    def tracked(self, position: "kalah.Position") -> bool:
        """True when a visit of ``position`` counts toward a repetition."""
        return self.repetitions is not None

    def returns(self, node: "_Node") -> List[float]:
        """The returns of a terminal state at ``node``."""
        raise NotImplementedError

    def action_string(self, player: int, position: "kalah.Position", action: int) -> str:
        """The action in the kind's notation, for ``player`` (or the player to move)."""
        raise NotImplementedError

    def observer(self, params: Optional[Dict[str, Any]]) -> "SpielObserver":
        """The observer of the board of this kind."""
        raise NotImplementedError


class _Node:
    """One state of play, immutable and shared between a state and its clones until one
    of them moves: the position, how often each tracked position was reached, whether the
    last one reached the repetition limit, and the legal moves (found once)."""

    __slots__ = ("position", "seen", "repeated", "_moves")

    def __init__(self, position: "kalah.Position", seen: Mapping[str, int], repeated: bool):
        self.position = position
        self.seen = seen
        self.repeated = repeated
        self._moves: Optional[Tuple[Any, ...]] = None

    def moves(self, adapter: Adapter) -> Tuple[Any, ...]:
        """The legal moves (by ``adapter``, found once)."""
        if self._moves is None:
            self._moves = tuple(adapter.moves(self.position))
        return self._moves

    def __deepcopy__(self, memo: Dict[int, Any]) -> "_Node":
        return self


def checked_length(params: Mapping[str, Any]) -> int:
    """``max_game_length`` of the parameters, at least 1."""
    length = int(params["max_game_length"])
    if length < 1:
        raise ValueError(f"max_game_length must be at least 1, not {length}")
    return length


def full_parameters(
    name: str, defaults: Mapping[str, Any], params: Optional[Mapping[str, Any]]
) -> Dict[str, Any]:
    """The parameters of the game ``name``: ``defaults`` with ``params`` over them
    (unknown names refused), the board kept with semicolons (OpenSpiel's game strings
    split parameters on commas, so that str(game) loads the same game again)."""
    full = dict(defaults)
    full.update(params or {})
    unknown = set(full) - set(defaults)
    if unknown:
        raise ValueError(f"unknown parameters of {name}: {', '.join(sorted(unknown))}")
    full["position"] = str(full["position"]).replace(",", ";")
    return full


class SpielGame(pyspiel.Game):
    """A game of OpenSpiel over ``adapter``, of type ``game_type`` and parameters
    ``params`` (already full: :func:`full_parameters`)."""

    def __init__(self, game_type: "pyspiel.GameType", params: Dict[str, Any], adapter: Adapter):
        info = pyspiel.GameInfo(
            num_distinct_actions=adapter.num_actions,
            max_chance_outcomes=0,
            num_players=2,
            min_utility=-adapter.utility,
            max_utility=adapter.utility,
            utility_sum=0.0,
            max_game_length=adapter.max_length,
        )
        super().__init__(game_type, info, params)
        self._adapter = adapter

    @property
    def rules(self) -> "kalah.Rules":
        """The engine's rules of this game."""
        return self._adapter.rules

    @property
    def start(self) -> "kalah.Position":
        """The position a new game starts from."""
        return self._adapter.start

    def make_py_observer(self, iig_obs_type=None, params=None):
        """The observer of the board (and, for the information state, of the history)."""
        if iig_obs_type is None or (
            iig_obs_type.public_info and not iig_obs_type.perfect_recall
        ):
            return self._adapter.observer(params)
        return IIGObserverForPublicInfoGame(iig_obs_type, params)


class SpielState(pyspiel.State):
    """A state of a :class:`SpielGame`: a position of the engine and how often each
    position was reached. ``str(state)`` is the position's notation."""

    def __init__(self, game: SpielGame):
        super().__init__(game)
        self._adapter = game._adapter
        start = self._adapter.start
        seen = {str(start): 1} if self._adapter.tracked(start) else {}
        self._node = _Node(start, seen, False)
        self._plies = 0

    @property
    def position(self) -> "kalah.Position":
        """The engine's position (with the rules it is played by)."""
        return self._node.position

    @property
    def repeated(self) -> bool:
        """True when the game ended because a position came back (as often as the game
        allows)."""
        return self._node.repeated

    def is_terminal(self) -> bool:
        """True when the game is over: by the rules, by a repetition, or by the length
        limit."""
        node, adapter = self._node, self._adapter
        return (
            node.repeated
            or self._plies >= adapter.max_length
            or adapter.over(node)
        )

    def current_player(self) -> int:
        """0 when South is to move, 1 when North is, ``TERMINAL`` at the end."""
        if self.is_terminal():
            return pyspiel.PlayerId.TERMINAL
        return 0 if self._node.position.side_to_move == kalah.Side.SOUTH else 1

    def _legal_actions(self, player: int) -> List[int]:
        """The legal moves as actions, in increasing order."""
        node = self._node
        return self._adapter.actions(node.position, node.moves(self._adapter))

    def _apply_action(self, action: int) -> None:
        """Plays the move that ``action`` names (checked by the engine)."""
        adapter, node = self._adapter, self._node
        nxt = adapter.play(node.position, action)
        seen, repeated = node.seen, False
        if adapter.tracked(nxt):
            key = str(nxt)
            seen = dict(seen)
            seen[key] = seen.get(key, 0) + 1
            repeated = seen[key] >= adapter.repetitions
        self._node = _Node(nxt, seen, repeated)
        self._plies += 1

    def _action_to_string(self, player: int, action: int) -> str:
        """The action in the notation of the game's kind."""
        return self._adapter.action_string(player, self._node.position, action)

    def returns(self) -> List[float]:
        """Zero until the end; then the returns of the game's kind."""
        if not self.is_terminal():
            return [0.0, 0.0]
        return self._adapter.returns(self._node)

    def __str__(self) -> str:
        """The notation of the position."""
        return str(self._node.position)


class SpielObserver:
    """The observation of a state, the same for both players (perfect information): the
    ``cells`` counts of the position (``Position.counts``, the plane named ``planes``),
    then 1 for the player to move (South, North); its string is the position's
    notation."""

    def __init__(self, planes: str, cells: int, params: Optional[Dict[str, Any]]):
        if params:
            raise ValueError(f"the observation takes no parameters, given {params}")
        self._planes = planes
        self.tensor = np.zeros(cells + 2, np.float32)
        self.dict = {planes: self.tensor[:cells], "to_move": self.tensor[cells:]}

    def set_from(self, state: SpielState, player: int) -> None:
        """Writes the observation of ``state`` into ``tensor``."""
        del player
        self.dict[self._planes][:] = list(state.position.counts)
        self.dict["to_move"][:] = 0
        if not state.is_terminal():
            self.dict["to_move"][state.current_player()] = 1

    def string_from(self, state: SpielState, player: int) -> str:
        """The notation of ``state``."""
        del player
        return str(state)
