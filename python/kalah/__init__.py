"""Kalah, Oware and related sowing games: rules, positions and an exact solver.

>>> import kalah
>>> pos = kalah.start("kalah", houses=4, seeds=3)
>>> str(pos)
'3,3,3,3,0,3,3,3,3,0:S'
>>> pos.moves()
['1', '2', '3', '4']
>>> kalah.solve(pos).value
6

Values are from South (the first player) unless a name says ``for_mover``. Bins are
numbered as in the command line's notation: South's houses 1..H, South's store H+1,
North's houses H+2..2H+1, North's store 2H+2. See docs/python.md for the whole API.
"""

from __future__ import annotations

from ._kalah import (
    CLOCKWISE,
    MAX_HOUSES,
    Position,
    Progress,
    Rules,
    Side,
    Solution,
    __version__,
    solve,
)
from .errors import (
    DatabaseError,
    IllegalMoveError,
    InternalError,
    KalahError,
    NotationError,
    RulesError,
    RulesMismatchError,
    TooLargeError,
)


def start(
    preset: str = "kalah",
    *,
    houses: int = 6,
    seeds: int = 4,
    capture: str | None = None,
    end: str | None = None,
    leftovers: str | None = None,
    early_stop: bool | None = None,
    grand_slam: str | None = None,
) -> Position:
    """The start position of the game of ``Rules(preset, ...)``."""
    return Rules(
        preset,
        houses=houses,
        seeds=seeds,
        capture=capture,
        end=end,
        leftovers=leftovers,
        early_stop=early_stop,
        grand_slam=grand_slam,
    ).start()


def _rules_from_description(description: str) -> Rules:
    """Unpickles a ``Rules``."""
    return Rules.parse(description)


def _position_from_description(board: str, rules: str) -> Position:
    """Unpickles a ``Position``."""
    return Rules.parse(rules).position(board)


__all__ = [
    "CLOCKWISE",
    "MAX_HOUSES",
    "Position",
    "Progress",
    "Rules",
    "Side",
    "Solution",
    "__version__",
    "solve",
    "start",
    "DatabaseError",
    "IllegalMoveError",
    "InternalError",
    "KalahError",
    "NotationError",
    "RulesError",
    "RulesMismatchError",
    "TooLargeError",
]
