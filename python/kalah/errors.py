"""The exceptions of the package: every error of the engine is a ``KalahError``.

Each carries the command line's message. The kinds that are bad values also derive from
``ValueError``, the memory one from ``MemoryError`` and the database one from ``OSError``,
so that code catching the built-in kinds catches them too.
"""


class KalahError(Exception):
    """Any error of the engine."""


class RulesError(KalahError, ValueError):
    """The rules asked for make no game (an unknown preset or option, a bad board size)."""


class RulesMismatchError(RulesError):
    """A position does not fit the rules (other houses, more seeds than they hold)."""


class NotationError(KalahError, ValueError):
    """A board or a move list that cannot be read."""


class IllegalMoveError(KalahError, ValueError):
    """A move that cannot be played in the position (an empty house, a game over, ...)."""


class TooLargeError(KalahError, MemoryError):
    """A table, an endgame database or a game graph larger than the memory available."""


class DatabaseError(KalahError, OSError):
    """An endgame database file or the database cache cannot be used."""


class InternalError(KalahError, RuntimeError):
    """A bug: a principal variation that does not replay, a worker that failed."""


__all__ = [
    "KalahError",
    "RulesError",
    "RulesMismatchError",
    "NotationError",
    "IllegalMoveError",
    "TooLargeError",
    "DatabaseError",
    "InternalError",
]
