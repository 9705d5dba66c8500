"""Fuzzing an engine against a reference: random play and constructed edge positions.

    >>> fuzzer = Fuzzer(EnginePair.parse("perftree:tests/engines/no_underpromotion.py", "core"),
    ...                 FuzzSettings(seed=1, seconds=30, first=True))
    >>> result = fuzzer.run()
    >>> result.findings[0].kind
    'promotion'

Positions alternate between the edge positions (core/mismatch/edge_positions.py, in an order drawn from
the seed) and random play from the start position and the bundled suites' positions, biased
towards captures, checks, promotions, castling and double pushes, where generators go wrong.
With `chess960` every position is Chess960: the Chess960 castling positions (the king or the rook
already on its target square, the rook between, pieces in the way, attacked squares, a rook
pinned along the back rank) alternate with the 960 start positions and random play from them.
Each position is compared at `depth`; a difference at a shallower depth shows there too, and
the finder then walks down to where the move lists differ. Every mismatch (and every crash) is
drilled down, classified and shrunk. The same seed gives the same sequence of positions. A
session (core.mismatch.engine_session): one engine process and one reference, made from an EnginePair.
"""
from __future__ import annotations

import itertools
import random
import time
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Callable, Iterator

import chess

from perftscope import resources
from .edge_positions import chess960_edge_positions, edge_positions
from ..errors import EngineError, EngineTimeout, PerftscopeError
from .findings import Finding, investigate, merge, timeout_finding
from ..engines.oracles import OracleCancelled
from ..engines.oracle import Request
from ..engines.pair import EnginePair
from ..board.position import START_FEN, Position
from .shrink import DEFAULT_SHRINK_CALLS, can_arise
from ..counting.suites import load
from .engine_session import EngineSession

DEFAULT_DEPTH = 2


@dataclass(frozen=True)
class FuzzSettings:
    """Edge positions and biased random play drawn from `seed`, each compared at `depth`, for
    `seconds` (None: no time limit) or `positions` positions, until the `first` finding if asked,
    each finding shrunk with up to `shrink_calls` engine calls."""
    seed: int = 1
    depth: int = DEFAULT_DEPTH
    seconds: float | None = 30.0
    chess960: bool = False        # Chess960 castling positions and play from the 960 starts
    positions: int | None = None
    first: bool = False
    shrink_calls: int = DEFAULT_SHRINK_CALLS


MAX_PLIES = 60                 # random games are at most this long
START_SUITES = ("standard.epd", "perftsuite.epd", "edge_cases.epd")
CHESS960_SUITES = ("chess960.perft",)     # python-chess_chess960.perft holds the 960 starts themselves

# how much more likely a move of each kind is than a quiet one
_WEIGHTS = {"promotion": 8.0, "castling": 8.0, "check": 4.0, "capture": 3.0, "double push": 3.0,
            "en passant": 8.0}


@dataclass
class FuzzResult:
    tested: int = 0
    seconds: float = 0.0
    findings: list[Finding] = field(default_factory=list)
    stopped: bool = False

    @property
    def per_second(self) -> float:
        return self.tested / self.seconds if self.seconds > 0 else 0.0

    def to_json(self) -> dict:
        return {"tested": self.tested, "seconds": round(self.seconds, 3),
                "positions_per_second": round(self.per_second, 2), "stopped": self.stopped,
                "findings": [f.to_json() for f in self.findings]}


@lru_cache(maxsize=2)
def start_positions(chess960: bool = False) -> tuple[str, ...]:
    """The start position and every standard position of the bundled suites that can arise;
    `chess960`: the bundled Chess960 suite's positions instead (random play also starts from the
    960 start positions, each written when it is drawn)."""
    fens = [] if chess960 else [START_FEN]
    for name in CHESS960_SUITES if chess960 else START_SUITES:
        for entry in load(resources.path(name), chess960):
            try:
                pos = Position.from_fen(entry.full_fen)
            except PerftscopeError:
                continue              # Chess960 castling and the like: not what fuzz plays from
            if can_arise(pos) and pos.fen() not in fens:
                fens.append(pos.fen())
    return tuple(fens)


def _as_chess960(fen: str) -> str:
    """The FEN written so that it says Chess960 by itself (Shredder-FEN where X-FEN would read as
    standard chess): how the engines are told."""
    return Position.from_fen(fen, chess960=True).fen()


def _weight(board: chess.Board, move: chess.Move) -> float:
    if move.promotion:
        return _WEIGHTS["promotion"]
    if board.is_castling(move):
        return _WEIGHTS["castling"]
    if board.is_en_passant(move):
        return _WEIGHTS["en passant"]
    weight = 1.0
    if board.is_capture(move):
        weight = _WEIGHTS["capture"]
    if board.piece_type_at(move.from_square) == chess.PAWN and abs(move.to_square - move.from_square) == 16:
        weight = max(weight, _WEIGHTS["double push"])
    if board.gives_check(move):
        weight = max(weight, _WEIGHTS["check"])
    return weight


def random_play(rng: random.Random, chess960: bool = False) -> Iterator[tuple[str, str]]:
    """(source, fen) forever: biased random games, a few positions taken from each. `chess960`:
    games from the 960 start positions (each start itself tested now and then) and the Chess960
    suites, every FEN written so that it says Chess960."""
    starts = start_positions(chess960)
    first = 960 if chess960 else 0          # Chess960: the 960 start positions, then the suite's
    while True:
        start = rng.randrange(first + len(starts))
        fen = _as_chess960(chess.Board.from_chess960_pos(start).fen()) if start < first else starts[start - first]
        board = chess.Board(fen, chess960=chess960)
        if chess960 and rng.random() < 0.25:
            yield _start_words(start), fen
        for ply in range(rng.randrange(4, MAX_PLIES)):
            moves = list(board.legal_moves)
            if not moves:
                break
            board.push(rng.choices(moves, weights=[_weight(board, m) for m in moves])[0])
            if rng.random() < 0.25:
                yield (f"random play from {_start_words(start, chess960)}, ply {ply + 1}",
                       _as_chess960(board.fen()) if chess960 else board.fen())


def _start_words(start: int, chess960: bool = True) -> str:
    if not chess960:
        return f"start position {start}"
    return f"Chess960 start position {start}" if start < 960 else f"Chess960 suite position {start - 960}"


def fuzz_positions(seed: int, chess960: bool = False) -> Iterator[tuple[str, str]]:
    """Edge positions (shuffled by the seed) alternating with random play; then random play only.
    `chess960`: the Chess960 castling positions and games from the Chess960 starts."""
    rng = random.Random(seed)
    edges = list(chess960_edge_positions() if chess960 else edge_positions())
    rng.shuffle(edges)
    if chess960:          # the families dealt in turn: the 20 pinned rooks among 500 come up at once
        families: dict[str, list] = {}
        for edge in edges:
            families.setdefault(edge.family, []).append(edge)
        edges = [e for turn in itertools.zip_longest(*families.values()) for e in turn if e is not None]
    play = random_play(random.Random(rng.random()), chess960)
    for edge in edges:
        yield f"edge: {edge.topic}", edge.fen
        yield next(play)
    yield from play


class Fuzzer(EngineSession):
    """A fuzz session with `settings` (FuzzSettings); `run` until its `seconds` or `positions` (or
    `first` finding), `stop` from any thread."""

    def __init__(self, pair: EnginePair, settings: FuzzSettings = FuzzSettings(),
                 on_finding: Callable[[Finding], None] | None = None, on_position: Callable[[], None] | None = None):
        s = self.settings = settings
        self.seed, self.depth, self.seconds, self.positions = s.seed, s.depth, s.seconds, s.positions
        self.chess960, self.first, self.shrink_calls = s.chess960, s.first, s.shrink_calls
        self.result = FuzzResult()
        super().__init__(pair, on_finding, on_position)
        self.engine, self.reference = self.take_oracles()

    @property
    def findings(self) -> list[Finding]:
        return self.result.findings

    def summary(self) -> str:
        result = self.result
        found = sum(f.count for f in result.findings)
        distinct = f" ({len(result.findings)} distinct)" if found != len(result.findings) else ""
        return (f"fuzz seed {self.seed}{' (Chess960)' if self.chess960 else ''}: {result.tested} positions in {result.seconds:.1f} s "
                f"({result.per_second:.1f}/s), {found} findings{distinct}" + (" (stopped)" if result.stopped else ""))

    def run(self) -> FuzzResult:
        """Test positions until a limit, then close the oracles. Findings alike are merged
        (findings.merge): `on_finding` then gets the one found before, its count up."""
        (chess960_edge_positions if self.chess960 else edge_positions)()    # built before the clock starts
        start_positions(self.chess960)
        start = time.perf_counter()
        deadline = None if self.seconds is None else start + self.seconds
        over = lambda: self.stopped.is_set() or (deadline is not None and time.perf_counter() > deadline)  # noqa: E731
        result = self.result
        try:
            for source, fen in fuzz_positions(self.seed, self.chess960):
                if over() or (self.positions is not None and result.tested >= self.positions):
                    break
                finding = self._test(fen)
                result.tested += 1
                self.tested()
                if finding is not None:
                    finding.name = f"#{result.tested} {source}"
                    self.found(merge(result.findings, finding))
                    if self.first:
                        break
        except OracleCancelled:
            pass
        finally:
            self.close()
        result.stopped = self.stopped.is_set()
        result.seconds = time.perf_counter() - start
        return result

    def _test(self, fen: str) -> Finding | None:
        request = Request.of(fen)              # a generated position read once, for every call below
        try:
            answer = self.engine.answer(request, self.depth)
        except OracleCancelled:
            raise
        except EngineTimeout as e:         # asking again would wait as long again; the next
            return timeout_finding(self.engine, request, self.depth, e)    # call restarts the engine
        except EngineError:
            answer = None                  # a crash: the finder asks again and records it
        if answer is not None:
            theirs = self.reference.divide(request, self.depth)
            if answer.moves == theirs or (answer.moves is None and answer.total == sum(theirs.values())):
                return None
        # the shrink of a finding runs to its end (bounded by shrink_calls), even past --seconds
        return investigate(self.engine, self.reference, request, self.depth,
                           shrink_calls=self.shrink_calls, cancelled=self.stopped.is_set)
