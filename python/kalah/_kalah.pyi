"""Type stubs of the compiled module ``kalah._kalah`` (re-exported by ``kalah``)."""

import os
from typing import Callable, List, Optional, Tuple, Union, final

CLOCKWISE: int
MAX_HOUSES: int
__version__: str

_Path = Union[str, "os.PathLike[str]"]

@final
class Side:
    """A player: South moves first and owns bins 1..H and store H+1; North bins H+2..2H+1."""

    SOUTH: "Side"
    NORTH: "Side"
    @property
    def other(self) -> "Side": ...
    @property
    def sign(self) -> int:
        """+1 for South, -1 for North."""
    @property
    def letter(self) -> str:
        """``S`` or ``N``."""

@final
class Rules:
    """The rules of a game: a preset with options that override it, or ``bao``."""

    def __init__(
        self,
        preset: str = "kalah",
        *,
        houses: Optional[int] = None,
        seeds: Optional[int] = None,
        capture: Optional[str] = None,
        end: Optional[str] = None,
        leftovers: Optional[str] = None,
        early_stop: Optional[bool] = None,
        grand_slam: Optional[str] = None,
    ) -> None: ...
    @staticmethod
    def parse(description: str) -> "Rules": ...
    @staticmethod
    def presets() -> List[str]: ...
    def start(self) -> "Position": ...
    def position(self, board: str) -> "Position": ...
    @property
    def family(self) -> str: ...
    @property
    def houses(self) -> int: ...
    @property
    def seeds(self) -> int: ...
    @property
    def total_seeds(self) -> int: ...
    @property
    def capture(self) -> Optional[str]:
        """None for Bao."""
    @property
    def end(self) -> Optional[str]:
        """None for Bao."""
    @property
    def leftovers(self) -> Optional[str]:
        """None for Bao."""
    @property
    def early_stop(self) -> Optional[bool]:
        """None for Bao."""
    @property
    def grand_slam(self) -> Optional[str]: ...
    @property
    def is_cyclic(self) -> bool: ...
    def __eq__(self, other: object) -> bool: ...
    def __hash__(self) -> int: ...

@final
class Position:
    """A position of a game, in the board notation, with its rules. A Bao position (four
    rows, ``2,2,2/2,2,2/2,2,2/2,2,2:S``) has ``rows``, ``moves()``, ``turns()``, ``play()``;
    what Bao lacks (sowing numbers, stores, the score) raises ``RulesError``."""

    def __init__(self, board: str, rules: Optional[Rules] = None) -> None: ...
    @property
    def rules(self) -> Rules: ...
    @property
    def side_to_move(self) -> Side: ...
    @property
    def houses_per_side(self) -> int:
        """H (Bao: N, the pits a row)."""
    @property
    def counts(self) -> List[int]:
        """The 2H+2 counts in bin order (Bao: the 4N pits, ``rows`` joined)."""
    @property
    def rows(self) -> List[List[int]]:
        """Bao's four rows as its notation writes them (b_N..b_1, a_N..a_1, A_1..A_N,
        B_1..B_N); RulesError for a sowing game."""
    def houses(self, side: Optional[Side] = None) -> List[int]:
        """The houses of ``side`` (default: the mover) from that player's left."""
    def store(self, side: Optional[Side] = None) -> int: ...
    @property
    def stores(self) -> Tuple[int, int]:
        """``(south, north)``."""
    @property
    def seeds_in_houses(self) -> int: ...
    @property
    def is_over(self) -> bool:
        """Bao: the mover's front row is empty or the mover has no move (lost)."""
    @property
    def score(self) -> int:
        """South's store minus North's, as it stands."""
    @property
    def store_margin(self) -> int:
        """The mover's store minus the opponent's."""
    def sowings(self) -> List[int]:
        """Legal sowings: the mover's house from the mover's left, + CLOCKWISE clockwise."""
    def moves(self) -> List[str]:
        """Legal sowings in the notation (``"3"``, ``"3<"``); Bao: moves (``"A3+"``)."""
    def turns(self) -> List[str]:
        """Every legal whole turn in the notation (``"3-6"``); Bao: ``moves()``."""
    def move_name(self, sowing: int) -> str: ...
    def parse_move(self, sowing: str) -> int: ...
    def sow(self, sowing: Union[int, str]) -> Tuple["Position", bool]:
        """The next position and whether the mover sows again."""
    def play(self, moves: str) -> "Position": ...
    def diagram(self) -> str: ...
    def __eq__(self, other: object) -> bool: ...
    def __hash__(self) -> int: ...

@final
class Progress:
    """A report on a running solve (bounds from South)."""

    phase: str
    lower: int
    upper: int
    nodes: int
    seconds: float

@final
class Solution:
    """An exact value with its best turn and a line that replays to it."""

    position: Position
    value: int
    value_for_mover: int
    side_to_move: Side
    best_turn: Optional[str]
    line: List[str]
    exact: bool
    lower: int
    upper: int
    nodes: int
    seconds: float
    egdb_hits: int
    result: str
    """``win``, ``loss`` or ``draw`` for the player to move."""
    plies: Optional[int]
    """Bao: moves of both players to the end under best play; None otherwise."""

@final
class TurnAnalysis:
    """One root turn of an analysis."""

    turn: str
    value: int
    value_for_mover: int
    exact: bool
    lower: Optional[int]
    upper: Optional[int]
    depth: int
    result: Optional[str]
    within_moves: Optional[int]

@final
class Analysis:
    """What an analysis within limits knows (values from South)."""

    position: Position
    value: int
    value_for_mover: int
    side_to_move: Side
    best_turn: Optional[str]
    line: List[str]
    exact: bool
    lower: Optional[int]
    """None for Bao, which proves results (``result``) rather than intervals."""
    upper: Optional[int]
    depth: int
    turns: List[TurnAnalysis]
    nodes: int
    seconds: float
    result: Optional[str]
    """``win``, ``loss`` or ``draw`` proven for the player to move; None while not."""
    within_moves: Optional[int]
    """Bao: the proven result comes within this many moves; None otherwise."""

@final
class Opening:
    """One first turn solved exactly."""

    turn: str
    position_after: Position
    value: int
    value_for_mover: int
    line: List[str]
    nodes: int
    seconds: float

@final
class PieChoice:
    """A first move under the pie rule and the second player's choice."""

    opening: Opening
    swap: bool
    first_player: int
    advantage: int

@final
class PieAnalysis:
    """The pie rule applied to every first move."""

    offer: str
    value: int
    choices: List[PieChoice]
    best: PieChoice

@final
class Probe:
    """A position's exact value read from an endgame database file."""

    position: Position
    value: int
    value_for_mover: int
    moves: List[Tuple[str, int]]
    best: List[str]

def solve(
    position: Position,
    *,
    threads: Optional[int] = None,
    hash_mb: Optional[int] = None,
    egdb: Optional[_Path] = None,
    egdb_seeds: Optional[int] = None,
    cache: bool = True,
    deepening: Optional[int] = None,
    memory_mb: Optional[int] = None,
    progress: Optional[Callable[[Progress], object]] = None,
) -> Solution: ...
def analyse(
    position: Position,
    *,
    time: Optional[float] = None,
    nodes: Optional[int] = None,
    depth: Optional[int] = None,
    lines: Optional[int] = None,
    threads: Optional[int] = None,
    hash_mb: Optional[int] = None,
    egdb: Optional[_Path] = None,
    egdb_seeds: Optional[int] = None,
    cache: bool = True,
    progress: Optional[Callable[[Analysis], object]] = None,
) -> Analysis: ...
def openings(
    position: Position,
    *,
    threads: Optional[int] = None,
    hash_mb: Optional[int] = None,
    egdb: Optional[_Path] = None,
    egdb_seeds: Optional[int] = None,
    cache: bool = True,
    deepening: Optional[int] = None,
    memory_mb: Optional[int] = None,
    progress: Optional[Callable[[Union[Opening, Progress]], object]] = None,
) -> List[Opening]:
    """Bao: every move from one solved graph; ``progress`` gets the solve's ``Progress``."""
def pie(
    position: Position,
    *,
    offer: str = "turn",
    threads: Optional[int] = None,
    hash_mb: Optional[int] = None,
    egdb: Optional[_Path] = None,
    egdb_seeds: Optional[int] = None,
    cache: bool = True,
    deepening: Optional[int] = None,
    progress: Optional[Callable[[Opening], object]] = None,
) -> PieAnalysis: ...
def probe(position: Position, egdb: _Path) -> Probe: ...

@final
class Engine:
    """A game-long engine: one solver (its transposition table and databases) set up at
    the first call on a game's rules and kept for every later call on those rules."""

    def __init__(
        self,
        *,
        threads: Optional[int] = None,
        hash_mb: Optional[int] = None,
        egdb: Optional[_Path] = None,
        egdb_seeds: Optional[int] = None,
        cache: bool = True,
        memory_mb: Optional[int] = None,
    ) -> None: ...
    def analyse(
        self,
        position: Position,
        *,
        time: Optional[float] = None,
        nodes: Optional[int] = None,
        depth: Optional[int] = None,
        lines: Optional[int] = None,
        progress: Optional[Callable[[Analysis], object]] = None,
    ) -> Analysis: ...
    def solve(
        self,
        position: Position,
        *,
        progress: Optional[Callable[[Progress], object]] = None,
    ) -> Solution: ...
    def prepare(self, rules: Rules) -> None:
        """Sets up the solver of ``rules`` now (database, table), outside any call's time."""
    def new_game(self) -> None:
        """Drops the solver and the Bao game graph kept."""
    @property
    def rules(self) -> Optional[Rules]:
        """The rules of the solver kept."""
    @property
    def solvers_made(self) -> int:
        """Solvers set up so far: one per change of rules or ``new_game``."""
    @property
    def graphs_solved(self) -> int:
        """Bao game graphs solved so far."""
def export_columns(
    position: Position,
    depth: int,
    *,
    threads: Optional[int] = None,
    hash_mb: Optional[int] = None,
    egdb: Optional[_Path] = None,
    egdb_seeds: Optional[int] = None,
    cache: bool = True,
    deepening: Optional[int] = None,
) -> List[Tuple[str, str, Union[bytes, List[str]]]]: ...
