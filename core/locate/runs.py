"""Runs: one engine call on one position at the smallest depth that shows the verdict, in a
process of its own with line coverage recorded for that process alone, judged against the
reference.

`CoveredEngine` is an Oracle, so the finder's and shrink's own machinery drive it unchanged:
every call at `run_depth` or below is a Run (a new process for an engine run once per call,
a new process sent its quit command for an interactive one), every deeper call goes to one
plain process of the engine, without coverage.
"""
from __future__ import annotations

import os
import shutil
import tempfile
import threading
import time
from dataclasses import dataclass, field
from typing import Callable

import chess

from ..engines.oracle import Answer, Oracle, Request
from ..engines.oracles import make_oracle
from ..engines.pair import EnginePair
from ..engines.process import QUIT_SECONDS, launched_with
from ..engines.program import ProgramOracle
from ..errors import EngineError, OracleCancelled
from .coverage import LEANER_START, collect, run_environment

# what a move can be, rarest first: the focus of a failure is the first kind its wrong moves share
KINDS = ("en passant", "castling", "promotion", "in check", "capture", "king move", "knight move",
         "bishop move", "rook move", "queen move", "pawn move")
_PIECE = {chess.PAWN: "pawn move", chess.KNIGHT: "knight move", chess.BISHOP: "bishop move",
          chess.ROOK: "rook move", chess.QUEEN: "queen move", chess.KING: "king move"}


def move_kinds(board: chess.Board, move: chess.Move) -> set[str]:
    """What kind of move `move` is in `board` (legal or not, as long as a piece makes it)."""
    kinds = set()
    piece = board.piece_type_at(move.from_square)
    if piece is not None:
        kinds.add(_PIECE[piece])
    if board.is_castling(move):
        kinds.add("castling")
    elif board.is_en_passant(move) or (piece == chess.PAWN and move.to_square == board.ep_square
                                       and chess.square_file(move.from_square) != chess.square_file(move.to_square)):
        kinds.add("en passant")
    elif board.piece_at(move.to_square) is not None:
        kinds.add("capture")
    if move.promotion:
        kinds.add("promotion")
    if board.is_check():
        kinds.add("in check")
    return kinds


def position_kinds(board: chess.Board) -> set[str]:
    """Every kind of move the side to move has a pseudo-legal (or castling) move of."""
    kinds = set()
    for move in list(board.pseudo_legal_moves):
        kinds |= move_kinds(board, move)
    return kinds


def focus_of(board: chess.Board, moves) -> str | None:
    """The rarest kind every wrong move shares (else the rarest any has): what a focused fuzz looks
    for and what the feature contrast splits runs by."""
    sets = []
    for uci in moves:
        try:
            sets.append(move_kinds(board, chess.Move.from_uci(uci)))
        except ValueError:
            continue
    if not sets:
        return None
    common = set.intersection(*sets) or set.union(*sets)
    return next((k for k in KINDS if k in common), None)


@dataclass(frozen=True)
class WrongMove:
    """A move the engine gets wrong, as what makes it possible in a position: the side to move,
    the piece on its from-square and, for castling, the right of that wing, for en passant the
    square. `at_stake(board)`: the move is possible there (whether the engine gets it right or not);
    `twin(board)`: the board with only that taken away (the right, the square, else the moving
    piece), None where nothing can be (a king's own move) or the result is no position."""
    uci: str
    color: bool
    piece: int
    from_square: int
    to_square: int
    right: int = 0            # castling: the rook squares of the rights this castling needs
    en_passant: bool = False

    @classmethod
    def of(cls, board: chess.Board, uci: str) -> WrongMove | None:
        try:
            move = chess.Move.from_uci(uci)
        except ValueError:
            return None
        piece = board.piece_at(move.from_square)
        if piece is None or piece.color != board.turn:
            return None
        right, en_passant = 0, False
        if board.is_castling(move):
            rank = chess.BB_RANK_1 if board.turn == chess.WHITE else chess.BB_RANK_8
            king = chess.square_file(move.from_square)
            east = chess.square_file(move.to_square) > king
            wing = chess.SquareSet(sq for sq in chess.SQUARES
                                   if (chess.square_file(sq) > king) == east and chess.square_file(sq) != king)
            right = board.clean_castling_rights() & rank & int(wing)
        elif "en passant" in move_kinds(board, move):
            en_passant = True
        return cls(uci, board.turn, piece.piece_type, move.from_square, move.to_square, right, en_passant)

    def at_stake(self, board: chess.Board) -> bool:
        if board.turn != self.color or board.piece_at(self.from_square) != chess.Piece(self.piece, self.color):
            return False
        if self.right and not board.clean_castling_rights() & self.right:
            return False
        return not self.en_passant or board.ep_square == self.to_square

    def twin(self, board: chess.Board) -> chess.Board | None:
        twin = board.copy(stack=False)
        if self.right:
            twin.castling_rights &= ~self.right
        elif self.en_passant:
            twin.ep_square = None
        elif self.piece != chess.KING:
            twin.remove_piece_at(self.from_square)
            twin.castling_rights = twin.clean_castling_rights()
        else:
            return None
        return twin if twin.is_valid() and not self.at_stake(twin) else None


def wrong_moves(run: Run, board: chess.Board) -> list[WrongMove]:
    """The moves a failing run got wrong, each as a WrongMove of its position."""
    return [w for w in (WrongMove.of(board, uci) for uci in run.wrong) if w is not None]


def removed(board: chess.Board, smaller: chess.Board) -> int | None:
    """How many things (pieces, castling rights, the en-passant square) `smaller` has taken away
    from `board`, with nothing added or moved and the same side to move; None if it is not so."""
    if board.turn != smaller.turn:
        return None
    pieces, fewer = board.piece_map(), smaller.piece_map()
    if any(pieces.get(sq) != p for sq, p in fewer.items()):
        return None
    rights, kept = board.clean_castling_rights(), smaller.clean_castling_rights()
    if kept & ~rights:
        return None
    if smaller.ep_square is not None and smaller.ep_square != board.ep_square:
        return None
    return (len(pieces) - len(fewer) + chess.popcount(rights & ~kept)
            + (board.ep_square is not None and smaller.ep_square is None))


@dataclass
class Run:
    """One covered engine call. `lines`: {file: lines that ran}, only the source's; `failed`:
    the engine's answer differs from the reference's (or the call failed); `verdict` says how;
    `kinds` the kinds of move the position has (for the feature contrast)."""
    origin: str
    fen: str
    moves: tuple[str, ...]
    depth: int
    failed: bool
    verdict: str
    lines: dict[str, frozenset[int]] = field(default_factory=dict)
    kinds: frozenset[str] = frozenset()
    wrong: tuple[str, ...] = ()      # the moves that differ (missing or extra), when the lists differ
    stake: bool = False              # a move some failing run got wrong is possible here (set before ranking)
    # the reference's divide, which mutants are judged on ({} where the side to move has no move;
    # None: a run made without the reference's answer, which no mutant can be judged on)
    expected: dict[str, int] | None = field(default=None, repr=False)
    branches: dict[str, dict[int, frozenset[int]]] = field(default_factory=dict, repr=False)  # {file: {line: outcomes taken}} (gcov)
    asked: Request | None = field(default=None, repr=False, compare=False)    # the Request run (fen, moves: its text)

    @property
    def request(self) -> Request:
        """The Request this run was made on, as it was asked (its FEN is not read again)."""
        if self.asked is None:             # a Run made by hand, from its text
            self.asked = Request.of(self.fen, self.moves)
        return self.asked

    def board(self) -> chess.Board:
        return self.request.position.chess_board()

    def to_json(self) -> dict:
        return {"origin": self.origin, "fen": self.fen, "moves": list(self.moves), "depth": self.depth,
                "failed": self.failed, "verdict": self.verdict, "wrong": list(self.wrong),
                "stake": self.stake, "lines": sum(len(v) for v in self.lines.values())}


def judge(answer: Answer | None, error: EngineError | None, theirs: dict[str, int]) -> tuple[bool, str, tuple]:
    """(failed, verdict, the differing moves) of one answer against the reference's divide."""
    if error is not None:
        return True, f"failed: {error}", ()
    if answer.moves is None:
        if answer.total == sum(theirs.values()):
            return False, "agrees", ()
        return True, f"total {answer.total}, reference {sum(theirs.values())}", ()
    missing = [m for m in theirs if m not in answer.moves]
    extra = [m for m in answer.moves if m not in theirs]
    counts = [m for m in theirs if m in answer.moves and answer.moves[m] != theirs[m]]
    if not (missing or extra or counts):
        return False, "agrees", ()
    parts = []
    if missing:
        parts.append("misses " + " ".join(missing))
    if extra:
        parts.append("generates illegal " + " ".join(extra))
    if counts:
        parts.append("counts differ below " + " ".join(counts))
    return True, "; ".join(parts), tuple(missing + extra or counts)


class LiveOracles:
    """The engine's oracles of the calls in flight (covered runs, mutants' runs), each made in the
    dialect `dialect` learnt so that it is not calibrated again, and cancelled together by `halt`
    from any thread. Once halted none is made: the check and the registration are under one lock,
    so no oracle made during a halt slips past it and runs on."""

    def __init__(self, dialect: Oracle):
        self.dialect = dialect
        self.halted = threading.Event()
        self._live: set[Oracle] = set()
        self._guard = threading.Lock()

    def make(self, spec, timeout: float, stopped: Callable[[], OracleCancelled]) -> Oracle:
        """A new oracle on `spec`; `stopped()` is raised once halted."""
        with self._guard:
            if self.halted.is_set():
                raise stopped()
            oracle = make_oracle(spec, timeout=timeout)
            if isinstance(oracle, ProgramOracle) and isinstance(self.dialect, ProgramOracle):
                oracle.adopt_dialect(self.dialect)
            self._live.add(oracle)
            return oracle

    def release(self, oracle: Oracle | None):
        with self._guard:
            self._live.discard(oracle)

    def halt(self, *also: Oracle):
        """Cancel every oracle in flight, and `also`; make no other."""
        self.halted.set()
        with self._guard:
            live = list(self._live)
        for oracle in live + list(also):
            oracle.cancel()


class CoveredEngine(Oracle):
    """The engine under test with every call at `run_depth` or below run as a covered Run
    (`on_run(run)` after each); `origin` names what asked (finder, shrink, children, fuzz)."""

    def __init__(self, pair: EnginePair, reference: Oracle, sources, programs=(),
                 run_depth: int = 1, on_run: Callable[[Run], None] | None = None):
        self.pair = pair
        super().__init__(pair.engine.text, pair.engine_name, pair.timeout)
        self.reference, self.sources, self.programs = reference, tuple(sources), tuple(programs)
        self.run_depth, self.on_run = run_depth, on_run
        self.origin = "finder"
        self.kinds_found: set[str] = set()          # kinds of coverage data any run left
        self.runs: list[Run] = []
        self.plain = pair.make_engine()              # deeper calls, and the dialect every run reads in
        if isinstance(self.plain, ProgramOracle) and self.plain.dialect is None:
            try:
                self.plain.prepare()                 # learnt once, outside every run's coverage
            except BaseException:
                self.plain.close()
                raise
        self._folder = tempfile.mkdtemp(prefix="perftscope-locate-")
        self.scratch = os.path.join(self._folder, "outside-runs")   # data of the calls that are not runs
        self._guard = threading.Lock()
        self._live = LiveOracles(self.plain)
        self._seen: dict[tuple, _Done] = {}
        self._number = 0
        self.limit: int | None = None                # runs started at most (--runs): the next one is cancelled
        self._started = 0

    @property
    def full(self) -> bool:
        """As many runs started as `limit` allows: no other is."""
        return self.limit is not None and self._started >= self.limit

    def _ask(self, request, depth, as_written):
        if depth > self.run_depth:
            return self.plain.answer(request, depth, as_written=True)
        return self.run(request, depth, as_written=as_written).answer

    def run(self, request: Request, depth: int, origin: str | None = None, as_written: bool = True) -> _Done:
        """One covered call on `request` (its FEN as written, or with `as_written` false the one
        that stands), safe from several threads at once (each run has an engine process and a
        folder of its own); the Run is kept, handed to on_run and returned with the answer; a
        failed call's EngineError is raised after the Run is kept."""
        fen, moves = request.sent(as_written), request.moves
        with self._guard:
            seen = self._seen.get((fen, moves, depth))
            if seen is None:
                # counted where it starts: two workers each seeing one run left would start two
                if self.full:
                    raise OracleCancelled(f"{self.limit} runs started, as many as asked")
                self._started += 1
            self._number += 1
            folder = os.path.join(self._folder, str(self._number))
        if seen is not None:           # shrink asks about its start again: one run per position
            if seen.error is not None:
                raise seen.error
            return seen
        with self._guard:
            theirs = self.reference.divide(request, depth)
        os.makedirs(folder)
        answer, error = None, None
        oracle = None
        try:
            # the oracle is made inside: an interactive engine starts its process when it is made
            with launched_with({**LEANER_START, **run_environment(folder, self.sources)}) as started:
                try:
                    oracle = self._live.make(self.pair.engine, self.timeout, lambda: self._stopped("a covered run"))
                    answer = oracle.answer(request, depth, as_written=as_written)
                except OracleCancelled:
                    raise
                except EngineError as e:
                    error = e
                finally:
                    if oracle is not None:
                        oracle.close()     # an interactive engine is sent its quit command: it writes its data on exit
                    self._finish(started)
        finally:
            self._live.release(oracle)
        branches: dict[str, dict[int, set[int]]] = {}
        lines, kinds = collect(folder, self.sources, self.programs, branches)
        shutil.rmtree(folder, ignore_errors=True)
        self.kinds_found |= kinds
        failed, verdict, wrong = judge(answer, error, theirs)
        board = request.position.chess_board()
        run = Run(origin or self.origin, fen, moves, depth, failed, verdict,
                  {f: frozenset(v) for f, v in lines.items()}, frozenset(position_kinds(board)), wrong,
                  expected=dict(theirs),
                  branches={f: {n: frozenset(w) for n, w in ways.items()} for f, ways in branches.items()},
                  asked=request)
        with self._guard:
            self.runs.append(run)
            done = self._seen[(fen, moves, depth)] = _Done(run, answer, error)
        if self.on_run is not None:
            self.on_run(run)
        if error is not None:
            raise error
        return done

    @staticmethod
    def _finish(started):
        """Wait for the run's processes to exit (their coverage is written on the way out)."""
        deadline = time.monotonic() + QUIT_SECONDS + 1.0
        for proc in started:
            try:
                proc.wait(max(0.0, deadline - time.monotonic()))
            except Exception:         # noqa: BLE001 - still running: the oracle's close kills it
                pass

    def halt(self):
        """Stop every run now and start no other (from any thread)."""
        self._live.halt(self.plain)

    def _release(self):
        self.plain.close()
        shutil.rmtree(self._folder, ignore_errors=True)


@dataclass
class _Done:
    run: Run
    answer: Answer | None
    error: EngineError | None = None
