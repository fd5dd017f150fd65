"""Kalah, Oware and related sowing games, and Bao: rules, positions and an exact solver.

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
North's houses H+2..2H+1, North's store 2H+2. Bao la Kujifunza is ``Rules("bao")``, its
positions and moves in Bao's notation (``A3+``). ``Engine`` keeps one solver (and its
table) for a whole game. See docs/python.md for the whole API.
"""

from __future__ import annotations

import os

import array as _array
import sys as _sys
from typing import Any, Dict, Optional, Union

from ._kalah import (
    CLOCKWISE,
    MAX_HOUSES,
    Analysis,
    Engine,
    Opening,
    PieAnalysis,
    PieChoice,
    Position,
    Probe,
    Progress,
    Rules,
    Side,
    Solution,
    TurnAnalysis,
    __version__,
    analyse,
    openings,
    pie,
    probe,
    solve,
)
from ._kalah import export_columns as _export_columns
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
    houses: int | None = None,
    seeds: int | None = None,
    capture: str | None = None,
    end: str | None = None,
    leftovers: str | None = None,
    early_stop: bool | None = None,
    grand_slam: str | None = None,
) -> Position:
    """The start position of the game of ``Rules(preset, ...)`` (the sowing games: 6
    houses of 4 seeds by default; ``bao``: 8 pits a row of 2 seeds)."""
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


def export_table(
    position: Position,
    depth: int,
    *,
    numpy: Optional[bool] = None,
    threads: Optional[int] = None,
    hash_mb: Optional[int] = None,
    egdb: Union[str, "os.PathLike[str]", None] = None,
    egdb_seeds: Optional[int] = None,
    cache: bool = True,
    deepening: Optional[int] = None,
) -> Dict[str, Any]:
    """The evaluation table of ``kalah export`` as columns: every position within ``depth``
    turns of ``position`` (mid-turn positions included, each once) with its exact value.

    A dict of equal-length columns that ``pandas.DataFrame`` takes as it is: ``position``
    (a list of board notations), ``side`` (0 South, 1 North to move), ``turns`` (the fewest
    complete turns that reach it), ``value`` (exact, from South), ``best`` (the best
    sowing as a number of ``Position.sowings()``, -1 when the game is over), ``house1`` ..
    ``houseH`` (the value from South after sowing the mover's I-th house from the mover's
    left, NaN where that sowing is not legal; ``house1_clockwise`` .. where the family
    sows both ways) and ``bin1`` .. ``bin{2H+2}`` (the counts in bin order). The numeric
    columns are NumPy arrays when NumPy is installed (``numpy=None``) or asked for
    (``numpy=True``), else ``array.array``.
    """
    columns = _export_columns(
        position,
        depth,
        threads=threads,
        hash_mb=hash_mb,
        egdb=None if egdb is None else str(egdb),
        egdb_seeds=egdb_seeds,
        cache=cache,
        deepening=deepening,
    )
    np = None
    if numpy is not False:
        try:
            import numpy as np  # noqa: F811
        except ImportError:
            if numpy:
                raise
    table: Dict[str, Any] = {}
    for name, code, data in columns:
        if not code:
            table[name] = data
        elif np is not None:
            table[name] = np.frombuffer(data, dtype=np.dtype(code).newbyteorder("<"))
        else:
            column = _array.array(code, data)
            if _sys.byteorder == "big":
                column.byteswap()
            table[name] = column
    return table


def _rules_from_description(description: str) -> Rules:
    """Unpickles a ``Rules``."""
    return Rules.parse(description)


def _position_from_description(board: str, rules: str) -> Position:
    """Unpickles a ``Position``."""
    return Rules.parse(rules).position(board)


__all__ = [
    "CLOCKWISE",
    "MAX_HOUSES",
    "Analysis",
    "Engine",
    "Opening",
    "PieAnalysis",
    "PieChoice",
    "Position",
    "Probe",
    "Progress",
    "Rules",
    "Side",
    "Solution",
    "TurnAnalysis",
    "__version__",
    "analyse",
    "export_table",
    "openings",
    "pie",
    "probe",
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
