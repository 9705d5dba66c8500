"""The one interface every source of perft numbers has: `answer(fen, moves, depth)` on a request
checked before any engine sees it, and `divide`/`perft` built on it.

The FEN and every move are validated by core.board.position first, so an engine only ever sees
legal requests; depth 0 is answered here (an empty divide, one node) because engines disagree
about what it means. Every oracle is safe to call from several threads: one lock per oracle, one
engine process each. `cancel()` and `close()` never wait: a request running in another thread
ends at once with OracleCancelled. `activity()` and `log` say what it is doing, for the GUI.
"""
from __future__ import annotations

import threading
import time
from dataclasses import dataclass

from ..board.position import Position
from ..errors import EngineError, OracleCancelled
from .divide_parser import ParsedDivide, parse_divide
from .lenient_fen import fen_as_written, lenient_fen
from .process import Activity, EngineLog

DEFAULT_TIMEOUT = 600.0        # seconds one request may take before the engine counts as hung


def validate(fen: str, moves) -> tuple[str, list[str]]:
    """(normalised root FEN, lower-case moves) after checking both with core.board.position; castling
    rights and en-passant squares that cannot stand are dropped (core.engines.lenient_fen).

    Raises FenError or MoveError naming what is wrong; the engine is never asked."""
    root, moves, _ = _validated(fen, moves)
    return root, moves


def _validated(fen: str, moves) -> tuple[str, list[str], Position]:
    """validate() and the position it reached, so a request parses and replays it once."""
    moves = [m.strip().lower() for m in (moves.split() if isinstance(moves, str) else moves)]
    root, _ = lenient_fen(fen)
    return root, moves, Position.from_fen(root).play(moves)


def fen_warnings(fen: str) -> list[str]:
    """What a comparison drops from `fen` (one line each), [] for a FEN that stands as it is."""
    return lenient_fen(fen)[1]


@dataclass(frozen=True)
class Answer:
    """One call's answer: `moves` {uci: count}, or None from an engine that prints only totals;
    `total` the leaf count; `parsed` what the divide parser made of the output (None in process)."""
    moves: dict[str, int] | None
    total: int
    parsed: ParsedDivide | None = None


class Oracle:
    """A source of divides. Subclasses implement `_answer` (or `_divide`) on validated input
    and `_abort` to stop it from another thread."""
    name = "oracle"

    def __init__(self, spec: str | None = None, name: str | None = None, timeout: float = DEFAULT_TIMEOUT):
        self._lock = threading.Lock()
        self._cancelled = threading.Event()
        self.spec = spec or type(self).name
        self.name = name or type(self).name
        self.timeout = float(timeout)
        self.log = EngineLog()
        self.calls = 0
        self._running: tuple[int, float] | None = None
        self.last: Answer | None = None
        self.taken: dict[str, int] = {}     # the threads and hash it was given (core.engines.mode)

    def activity(self) -> Activity | None:
        """None when idle, else which call is running and for how long (safe from any thread)."""
        running = self._running
        return None if running is None else Activity(running[0], time.monotonic() - running[1])

    def answer(self, fen: str, moves=(), depth: int = 1, as_written: bool = False) -> Answer:
        """The engine's answer after playing `moves` from `fen`: a divide, or only a total.
        The engine is sent the FEN with what cannot stand dropped, or with `as_written` its
        castling and en-passant fields as given (for the engine under test: see lenient_fen)."""
        if not isinstance(depth, int) or depth < 0:
            raise EngineError(f"{self.name}: depth must be a non-negative whole number, got {depth!r}")
        root, moves, position = _validated(fen, moves)
        if depth == 0:
            return Answer({}, 1)
        if as_written:
            root = fen_as_written(fen)

        with self._lock:
            self._cancelled.clear()
            self.calls += 1
            self.log.start(self.calls)
            self._running = (self.calls, time.monotonic())
            try:
                self.last = self._answer(root, moves, depth, position)
            except EngineError as e:
                self.log.add("!", str(e))
                raise
            finally:
                self._running = None
            return self.last

    def divide(self, fen: str, moves=(), depth: int = 1, as_written: bool = False) -> dict[str, int]:
        """{uci_move: leaf count depth - 1 plies below it} after playing `moves` from `fen`.
        From an engine that prints only totals, the divide is asked for one move at a time."""
        answer = self.answer(fen, moves, depth, as_written)
        if answer.moves is not None:
            return answer.moves
        _, moves, pos = _validated(fen, moves)
        if depth == 1:
            raise EngineError(f"{self.name} prints only totals: a depth-1 divide cannot be read "
                              f"from them (it counted {answer.total} moves)")
        return {m: self.answer(fen, moves + [m], depth - 1, as_written).total for m in pos.legal_moves()}

    def perft(self, fen: str, moves=(), depth: int = 1, as_written: bool = False) -> int:
        """Total leaf count (1 at depth 0, like every perft)."""
        return self.answer(fen, moves, depth, as_written).total

    def _answer(self, fen: str, moves: list[str], depth: int, position: Position) -> Answer:
        """`position` is fen + moves, already parsed and played by answer()."""
        rows = self._divide(fen, moves, depth, position)
        return Answer(rows, sum(rows.values()))

    def _divide(self, fen: str, moves: list[str], depth: int, position: Position) -> dict[str, int]:
        raise NotImplementedError

    def cancel(self):
        """Stop the request running in another thread, if any; it raises OracleCancelled."""
        if self._lock.locked():
            self._cancelled.set()
            self._abort()

    def _abort(self):
        pass

    def _stopped(self, sent: str) -> OracleCancelled:
        return OracleCancelled(f"{self.name}: cancelled while answering {sent}")

    def close(self):
        """Free the engine; a request still running is cancelled rather than waited for."""
        if self._lock.acquire(blocking=False):
            try:
                self._release()
            finally:
                self._lock.release()
        else:
            self.cancel()     # the request's own error path releases the engine

    def _release(self):
        pass

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def __repr__(self):
        return f"<{type(self).__name__} {self.name}>"




def read_answer(name: str, sent: str, lines: list[str], position: Position) -> Answer:
    # Chess960 writes castling king-takes-rook natively; standard chess gets it normalised
    chess960 = bool(getattr(position, "chess960", False))
    parsed = parse_divide(lines, position.fen(), name, sent, chess960=chess960)
    return Answer(parsed.moves, parsed.nodes, parsed)
