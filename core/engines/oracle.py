"""The one interface every source of perft numbers has: `answer(request, depth)` on a Request
checked before any engine sees it, and `divide`/`perft` built on it.

A FEN is read where it enters (a command's argument, the window's FEN field, a suite line, a
generated or shrunk position) into a `Request`: the FEN as it is sent, the moves and the Position
they reach, validated once by core.board.position, so an engine only ever sees legal requests. A
descent makes the next request by playing one move on that Position (`then`), never by reading the
FEN and replaying the path again, and every method takes a Request, never a FEN. The FEN is written
out only where a process is spoken to; depth 0 is answered here (an empty divide, one node) because
engines disagree about what it means. Every oracle is safe to call from several threads: one lock
per oracle, one engine process each. `cancel()` and `close()` never wait: a request running in
another thread ends at once with OracleCancelled. `activity()` and `log` say what it is doing, for
the GUI.
"""
from __future__ import annotations

import threading
import time
from dataclasses import dataclass, replace

from ..board.position import Position
from ..errors import EngineError, EngineRefused, MoveError, OracleCancelled
from .divide_parser import ParsedDivide
from .lenient_fen import fen_as_written, lenient_position
from .pipes import EngineLog
from .process import Activity
from .totals import sum_mismatch

DEFAULT_TIMEOUT = 600.0        # seconds one request may take before the engine counts as hung


@dataclass(frozen=True)
class Request:
    """A position to ask engines about, validated once. `root`: the FEN with the castling rights
    and en-passant square that cannot stand dropped (core.engines.lenient_fen), what references
    are sent; `written`: the FEN with those fields as given, what the engine under test is sent;
    `warnings`: one line per field dropped; `moves`: played from the root; `position`: where they
    lead; `start`: the root's Position, before the moves."""
    root: str
    written: str
    warnings: tuple[str, ...]
    moves: tuple[str, ...]
    position: Position
    start: Position

    @classmethod
    def of(cls, fen, moves=()) -> Request:
        """The request of a FEN as it enters (read here, once) with `moves` played; FenError or
        MoveError naming what is wrong. A Request is returned as it is (with `moves` played on it)."""
        if isinstance(fen, Request):
            return fen.then(*_move_list(moves))
        moves = _move_list(moves)
        start, root, warnings = lenient_position(fen)
        written = fen_as_written(fen, (root, warnings))
        return cls(root, written, tuple(warnings), (), start, start).then(*moves)

    @classmethod
    def at(cls, position: Position, moves=()) -> Request:
        """The request of a position already read or built (a generated or shrunk one), with
        `moves` played: its FEN is written, never read again."""
        root = position.fen()
        return cls(root, root, (), (), position, position).then(*_move_list(moves))

    def then(self, *moves: str) -> Request:
        """The request after `moves` more, played on the position already reached."""
        if not moves:
            return self
        moves = _move_list(moves)
        position = self.position
        for i, move in enumerate(moves):
            try:
                position = position.push(move)
            except MoveError as e:
                raise MoveError(f"move {len(self.moves) + i + 1} of the move list: {e}") from None
        return replace(self, moves=self.moves + moves, position=position)

    @property
    def fen(self) -> str:
        """The FEN of the position reached (the root's when no moves were played)."""
        return self.position.fen() if self.moves else self.root

    def sent(self, as_written: bool = False) -> str:
        """The root FEN a side is sent: the engine under test the FEN as written (`as_written`),
        references the one that stands."""
        return self.written if as_written else self.root

    def from_root(self) -> Request:
        """This request with no moves played: its root."""
        return replace(self, moves=(), position=self.start) if self.moves else self


@dataclass(frozen=True)
class Call:
    """One engine call as it goes down to the process: `request` at `depth`, its root sent as
    written (`as_written`: the engine under test, see lenient_fen) or as it stands."""
    request: Request
    depth: int
    as_written: bool = False

    @property
    def fen(self) -> str:
        """The root FEN this side is sent."""
        return self.request.sent(self.as_written)

    @property
    def moves(self) -> list[str]:
        return list(self.request.moves)

    @property
    def position(self) -> Position:
        """Where the moves lead, already played."""
        return self.request.position


def _move_list(moves) -> tuple[str, ...]:
    return tuple(m.strip().lower() for m in (moves.split() if isinstance(moves, str) else moves))


def refused_words(refusals: dict[str, EngineRefused], answered: dict[str, int], total: int) -> dict[str, str]:
    """{move: the engine's own words} of the legal moves an engine printing only totals refused
    to play below a position where it counts `total`, the others `answered`. A refusal is
    believed where the engine answers for other moves, or counts nothing here (it generates no
    move); one that refused every move yet counts leaves below them failed on every call: the
    first failure is raised as it came (a crash stays a crash)."""
    if refusals and not answered and total != 0:
        first = next(iter(refusals.values()))
        raise first.__cause__ if isinstance(first.__cause__, EngineError) else first
    return {m: e.own_error or str(e) for m, e in refusals.items()}


def _check(oracle: Oracle, request) -> None:
    if not isinstance(request, Request):
        raise TypeError(f"{oracle.name}: an oracle is asked about a Request (Request.of(fen, moves) where "
                        f"the FEN enters), not a {type(request).__name__}")


@dataclass(frozen=True)
class Answer:
    """One call's answer: `moves` {uci: count}, or None from an engine that prints only totals;
    `total` the leaf count; `parsed` what the divide parser made of the output (None in process)."""
    moves: dict[str, int] | None
    total: int
    parsed: ParsedDivide | None = None


def waiting_for(oracles) -> str:
    """What the engine calls running now in `oracles` wait for, each with its timeout ("waiting
    for my-perft.sh: call 3, 12.4 s (timeout 60 s)"), "" when none runs: one line for any window."""
    return "   ".join(f"{act.words(o.name)} (timeout {o.timeout:g} s)" for o in oracles
                      if (act := o.activity()) is not None)


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
        self._doing = ""                     # Activity.doing (calibration, core.engines.program)
        self.last: Answer | None = None
        self.taken: dict[str, int] = {}     # the threads and hash it was given (core.engines.mode)
        self._closed = False

    def activity(self) -> Activity | None:
        """None when idle, else which call is running and for how long (safe from any thread)."""
        running = self._running
        return None if running is None else Activity(running[0], time.monotonic() - running[1], self._doing)

    def answer(self, request: Request, depth: int = 1, as_written: bool = False) -> Answer:
        """The engine's answer to `request` (a core.engines.oracle.Request): a divide, or only a
        total. The engine is sent the root FEN with what cannot stand dropped, or with `as_written`
        its castling and en-passant fields as given (for the engine under test: see lenient_fen)."""
        _check(self, request)
        if not isinstance(depth, int) or depth < 0:
            raise EngineError(f"{self.name}: depth must be a non-negative whole number, got {depth!r}")
        if depth == 0:
            return Answer({}, 1)
        with self._lock:
            if self._closed:
                # closed while this request was on its way (a thread still parsing its position):
                # it must not start the engine again, a process nobody would close
                raise self._stopped(f"a depth-{depth} request after close()")
            self._cancelled.clear()
            self.calls += 1
            self.log.start(self.calls)
            self._running = (self.calls, time.monotonic())
            try:
                self.last = self._ask(request, depth, as_written)
            except EngineError as e:
                self.log.add("!", str(e))
                raise
            finally:
                self._running = None
            return self.last

    def divide(self, request: Request, depth: int = 1, as_written: bool = False) -> dict[str, int]:
        """{uci_move: leaf count depth - 1 plies below it} at `request`'s position.
        From an engine that prints only totals, the divide is asked for one move at a time."""
        return self.divide_refused(request, depth, as_written)[0]

    def divide_refused(self, request: Request, depth: int = 1,
                       as_written: bool = False) -> tuple[dict[str, int], dict[str, str]]:
        """(divide, refused): as divide(); from an engine that prints only totals, a legal move it
        refuses to play is left out of the divide (a move it does not generate) and listed in
        `refused` with the engine's own words, the other moves kept (see refused_words)."""
        answer = self.answer(request, depth, as_written)
        if answer.moves is not None:
            return answer.moves, {}
        if depth == 1:
            raise EngineError(f"{self.name} prints only totals: a depth-1 divide cannot be read "
                              f"from them (it counted {answer.total} moves)")
        rows, refusals = {}, {}
        for m in request.position.legal_moves():
            try:
                rows[m] = self.answer(request.then(m), depth - 1, as_written).total
            except EngineRefused as e:
                refusals[m] = e
        refused = refused_words(refusals, rows, answer.total)
        if sum(rows.values()) != answer.total:
            # its own total counts other moves than the legal ones it was asked about one by one:
            # these rows alone would agree with the reference where the engine does not
            raise EngineError(sum_mismatch(self.name, answer.total, depth, rows))
        return rows, refused

    def perft(self, request: Request, depth: int = 1, as_written: bool = False) -> int:
        """Total leaf count (1 at depth 0, like every perft)."""
        return self.answer(request, depth, as_written).total

    def _ask(self, request: Request, depth: int, as_written: bool) -> Answer:
        """One call on `request` (under the lock), handed to `_answer` as the Call it is."""
        return self._answer(Call(request, depth, as_written))

    def _answer(self, call: Call) -> Answer:
        rows = self._divide(call)
        return Answer(rows, sum(rows.values()))

    def _divide(self, call: Call) -> dict[str, int]:
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
        """Free the engine; a request still running is cancelled rather than waited for, and one
        made later is cancelled at once (OracleCancelled) rather than starting it again."""
        self._closed = True
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
