"""Reference engines behind one interface: `divide(fen, moves, depth) -> {uci_move: count}`.

    >>> with make_oracle("stockfish") as sf:
    ...     sf.divide(START_FEN, ["e2e4"], 1)["e7e5"]
    1

Specs (parsed by core.engines.spec.parse_spec): `core` (the jitted core), `python-chess`
(in-process, slow, trusted), `stockfish` (found on PATH or at the Debian path), `uci:PATH` (any
engine speaking `go perft N`), `perftree:PATH` (a script in perftree's protocol, run unchanged),
`cmd:TEMPLATE` (any program run per divide) and `file:ENGINE.toml` (an interactive program
described by an engine file). The FEN and every move are validated by core.board.position before
anything is sent, so an engine only ever sees legal requests; depth 0 is answered here (an
empty divide, one node) because engines disagree about what it means. Every answer from another
program goes through core.engines.divide_parser, and every process through core.engines.process's bounds.

Every oracle is safe to call from several threads: one lock per oracle, one engine process each.
`cancel()` and `close()` never wait: a request running in another thread ends at once with
OracleCancelled, so a GUI thread can stop a deep divide without blocking. `activity()` and `log`
say what it is doing, for the GUI.
"""
from __future__ import annotations

import os
import re
import shlex
import shutil
import threading
import time
from dataclasses import dataclass

from .divide_parser import TOTAL_LINE, ParsedDivide, parse_divide
from .process import MAX_BYTES, MAX_LINES, Activity, EngineLog, EngineProcess, run_command
from .spec import SPECS, Spec, parse_spec
from ..errors import EngineError, EngineTimeout, OracleCancelled
from .lenient_fen import lenient_fen
from ..board.position import Position, is_chess960
from .stockfish import find_stockfish, require_stockfish

__all__ = ["Activity", "EngineLog", "Oracle", "OracleCancelled", "SPECS", "Spec", "make_oracle",
           "parse_spec", "validate", "DEFAULT_TIMEOUT"]

DEFAULT_TIMEOUT = 600.0        # seconds one request may take before the engine counts as hung
HANDSHAKE_TIMEOUT = 10.0       # uci/isready must answer quickly, whatever the perft timeout


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

    def activity(self) -> Activity | None:
        """None when idle, else which call is running and for how long (safe from any thread)."""
        running = self._running
        return None if running is None else Activity(running[0], time.monotonic() - running[1])

    def answer(self, fen: str, moves=(), depth: int = 1) -> Answer:
        """The engine's answer after playing `moves` from `fen`: a divide, or only a total."""
        if not isinstance(depth, int) or depth < 0:
            raise EngineError(f"{self.name}: depth must be a non-negative whole number, got {depth!r}")
        root, moves, position = _validated(fen, moves)
        if depth == 0:
            return Answer({}, 1)

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

    def divide(self, fen: str, moves=(), depth: int = 1) -> dict[str, int]:
        """{uci_move: leaf count depth - 1 plies below it} after playing `moves` from `fen`.
        From an engine that prints only totals, the divide is asked for one move at a time."""
        answer = self.answer(fen, moves, depth)
        if answer.moves is not None:
            return answer.moves
        root, moves, pos = _validated(fen, moves)
        if depth == 1:
            raise EngineError(f"{self.name} prints only totals: a depth-1 divide cannot be read "
                              f"from them (it counted {answer.total} moves)")
        return {m: self.answer(root, moves + [m], depth - 1).total for m in pos.legal_moves()}

    def perft(self, fen: str, moves=(), depth: int = 1) -> int:
        """Total leaf count (1 at depth 0, like every perft)."""
        return self.answer(fen, moves, depth).total

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


POOL_DEPTH = 5          # from here on the worker pool's threads pay for their start-up


class CoreOracle(Oracle):
    """The jitted core: one thread for small divides, every core (no hash table, so nothing
    can collide) for deep ones."""
    name = "core"

    def __init__(self):
        super().__init__()
        self._run = None

    def _divide(self, fen, moves, depth, pos):
        if depth < POOL_DEPTH:
            from ..counting.perft import divide
            return divide(pos, depth)
        from ..counting.pool import start_perft
        self._run = start_perft(pos, depth, divide=True)
        if self._cancelled.is_set():       # cancel() came before the run existed
            self._run.cancel()
        result = self._run.result()
        if result.cancelled:
            raise self._stopped(f"divide {depth} of {pos.fen()}")
        return result.divide

    def _abort(self):
        run = self._run
        if run is not None:
            run.cancel()


class PythonChessOracle(Oracle):
    """python-chess in this process: slow, independent of the core, nothing to install."""
    name = "python-chess"

    def _divide(self, fen, moves, depth, position):
        import chess
        board = chess.Board(fen, chess960=is_chess960(fen))
        for uci in moves:
            board.push_uci(uci)
        out = {}
        for move in board.legal_moves:
            board.push(move)
            out[move.uci()] = _chess_perft(board, depth - 1, self._cancelled)
            board.pop()
        if self._cancelled.is_set():
            raise self._stopped(f"divide {depth} of {board.fen()}")
        return out


def _chess_perft(board, depth: int, cancelled: threading.Event) -> int:
    if depth == 0:
        return 1
    if depth == 1:
        return board.legal_moves.count()
    total = 0
    for move in board.legal_moves:
        if cancelled.is_set():
            return 0
        board.push(move)
        total += _chess_perft(board, depth - 1, cancelled)
        board.pop()
    return total


# --- other programs ------------------------------------------------------------------------

def fill_template(words: list[str], fen: str, moves: list[str], depth: int) -> list[str]:
    """Fill a command split like a shell line: each placeholder fills exactly one argument, so
    `{fen}` stays one argument with its spaces and `{moves}` is one (possibly empty) argument."""
    values = {"depth": str(depth), "fen": fen, "moves": " ".join(moves),
              "fen_moves": fen + (" moves " + " ".join(moves) if moves else "")}
    return [_PLACEHOLDER.sub(lambda m: values[m.group(1)], word) for word in words]


_PLACEHOLDER = re.compile(r"\{(depth|fen_moves|fen|moves)\}")


def fill_line(template: str, fen: str, moves: list[str], depth: int) -> str:
    """A line for an interactive engine; ` moves {moves}` is dropped when there are none."""
    if not moves:
        template = re.sub(r"\s+moves\s+\{moves\}", "", template)
    return fill_template([template], fen, moves, depth)[0]


class CommandOracle(Oracle):
    """A program run once per divide: `cmd:TEMPLATE`, or a perftree script (`PATH DEPTH "FEN"
    "m1 m2 ..."`, the moves argument left out when empty, exactly like perftree)."""

    def __init__(self, spec: Spec, timeout: float = DEFAULT_TIMEOUT, verbose: bool = False):
        super().__init__(spec.text, spec.short_name, timeout)
        if spec.kind == "perftree":
            self.path = _executable(spec.target, self.name)
            self.words = [self.path, "{depth}", "{fen}", "{moves}"]
        else:
            self.words = shlex.split(spec.target)
            if not _PLACEHOLDER.search(spec.target):
                raise EngineError(f"{self.name}: the command template {spec.target!r} has no "
                                  f"{{depth}}, {{fen}} or {{moves}}: the engine would not know what to count")
            self.words[0] = _executable(self.words[0], self.name)
        self.drop_empty_moves = spec.kind == "perftree"
        self.max_lines, self.max_bytes = MAX_LINES, MAX_BYTES
        self._process: EngineProcess | None = None

    def _answer(self, fen, moves, depth, position):
        args = fill_template(self.words, fen, moves, depth)
        if self.drop_empty_moves and not moves:
            args = args[:-1]
        sent = " ".join([os.path.basename(args[0])] + [shlex.quote(a) for a in args[1:]])
        try:
            lines = run_command(self.name, args, self.timeout, sent, log=self.log, on_start=self._started,
                                max_lines=self.max_lines, max_bytes=self.max_bytes)
        finally:
            self._process = None
        if self._cancelled.is_set():
            raise self._stopped(sent)
        return _read_answer(self.name, sent, lines, position)

    def _started(self, process: EngineProcess):
        self._process = process
        if self._cancelled.is_set():       # cancel() came before the program existed
            process.cancelled.set()
            process.kill()

    def _abort(self):
        process = self._process
        if process is not None:
            process.cancelled.set()
            process.kill()


def _read_answer(name: str, sent: str, lines: list[str], position: Position) -> Answer:
    # Chess960 writes castling king-takes-rook natively; standard chess gets it normalised
    chess960 = bool(getattr(position, "chess960", False))
    parsed = parse_divide(lines, position.fen(), name, sent, chess960=chess960)
    return Answer(parsed.moves, parsed.nodes, parsed)


@dataclass(frozen=True)
class Dialogue:
    """How to talk to an interactive engine (UCI, or what an engine file describes)."""
    command: tuple[str, ...]
    cwd: str | None = None
    env: tuple[tuple[str, str], ...] = ()
    start: tuple[str, ...] = ()            # sent once after starting
    start_until: str | None = None         # regex of the line that ends the start-up answer
    ready: tuple[str, str] | None = None   # (sent, awaited) before each request, to resync
    position: tuple[str, ...] = ("position fen {fen} moves {moves}",)
    divide: str | None = "go perft {depth}"
    totals: str | None = None              # for a program that prints only totals
    end_regex: str | None = None           # a line that ends an answer; default: a total line
    sentinel: str | None = None            # sent after the request; its echo ends the answer
    sentinel_reply: str | None = None
    quit: str | None = "quit"


def sentinel_reply(d: Dialogue) -> str:
    """The line that ends an answer after the sentinel: `echo WORDS` answers WORDS."""
    if d.sentinel_reply:
        return d.sentinel_reply
    return d.sentinel[5:].strip() if d.sentinel.startswith("echo ") else d.sentinel


UCI = Dialogue(command=(), start=("uci",), start_until=r"^uciok$", ready=("isready", "readyok"))


class InteractiveOracle(Oracle):
    """A program kept running across calls that reads commands on stdin: a UCI engine answering
    `go perft N`, or anything an engine file describes. Restarted when it has died between
    requests; a request that fails (timeout, flood, crash) stops it and the next one starts anew."""

    def __init__(self, spec: str, name: str, dialogue: Dialogue, timeout: float = DEFAULT_TIMEOUT):
        super().__init__(spec, name, timeout)
        self.dialogue = dialogue
        self.restarts = 0
        self._engine: EngineProcess | None = None
        self._end = re.compile(dialogue.end_regex) if dialogue.end_regex else None
        with self._lock:
            self._start()

    @property
    def pid(self) -> int | None:
        """The engine process id (for tests and for the GUI's process list)."""
        return self._engine.pid if self._engine is not None else None

    @property
    def running(self) -> bool:
        """Whether the engine process is alive (a killed one is restarted on the next request)."""
        engine = self._engine
        return engine is not None and engine.alive

    def _start(self):
        d = self.dialogue
        self._engine = EngineProcess(self.name, list(d.command), cwd=d.cwd, env=dict(d.env), log=self.log)
        for line in d.start:
            self._engine.send(line, repr(line))
        if d.start_until:
            self._read_until(re.compile(d.start_until), HANDSHAKE_TIMEOUT, repr(" / ".join(d.start)))
        self._sync()

    def _sync(self):
        if self.dialogue.ready:
            sent, awaited = self.dialogue.ready
            self._engine.send(sent, repr(sent))
            self._read_until(re.compile(f"^{re.escape(awaited)}$"), HANDSHAKE_TIMEOUT, repr(sent))

    def _read_until(self, pattern, seconds: float, what: str) -> list[str]:
        deadline = time.monotonic() + seconds
        lines = []
        while True:
            line = self._engine.read_line(deadline, seconds, what)
            if line is None:
                raise self._engine.crashed(what)
            if pattern.search(line.strip()):
                return lines + [line]
            lines.append(line)

    def _answer(self, fen, moves, depth, position):
        if self._engine is None or not self._engine.alive:
            if self._engine is not None:
                self.restarts += 1
                self._engine.kill()
            self._start()
        d = self.dialogue
        engine = self._engine
        engine.drain()
        engine.begin_call()
        sent_lines = self._setup_lines(fen) + [fill_line(t, fen, moves, depth) for t in d.position]
        sent_lines.append(fill_line(d.divide or d.totals, fen, moves, depth))
        if d.sentinel:
            sent_lines.append(d.sentinel)
        sent = " / ".join(sent_lines)
        try:
            for line in sent_lines:
                engine.send(line, repr(sent))
            if self._cancelled.is_set():
                raise self._stopped(repr(sent))
            if d.sentinel:
                end = re.compile(f"^{re.escape(sentinel_reply(d))}$")
            else:
                end = self._end or TOTAL_LINE
            try:
                lines = self._read_until(end, self.timeout, repr(sent))
            except EngineTimeout as e:
                if not engine.lines_read:
                    raise
                how = "its sentinel's reply" if d.sentinel else ("a line matching `end`" if self._end
                                                                 else "a total line")
                raise EngineTimeout(f"{e}; it printed {engine.lines_read} lines but never {how}: "
                                    f"set `end` or `sentinel` in the engine file", e.seconds) from None
            if d.sentinel:
                lines = lines[:-1]
            self._sync()       # swallow trailing lines before the next request
        except EngineError:
            if self._engine is not None:
                self._engine.kill()
            raise
        return _read_answer(self.name, repr(sent), lines, position)

    def _setup_lines(self, fen: str) -> list[str]:
        """Lines sent before the position when this request needs the engine set up anew."""
        return []

    def _stop(self):
        engine, self._engine = self._engine, None
        if engine is not None:
            engine.close(self.dialogue.quit)

    def _release(self):
        self._stop()

    def _abort(self):
        engine = self._engine
        if engine is not None:
            engine.cancelled.set()
            engine.kill()     # the running request reads end-of-output and reports the cancel

    def __del__(self):
        engine = getattr(self, "_engine", None)
        if engine is not None and engine.alive:
            engine.kill()


class UciOracle(InteractiveOracle):
    """A UCI engine answering `go perft N`, started once and kept running between requests."""

    def __init__(self, path: str, name: str | None = None, timeout: float = DEFAULT_TIMEOUT,
                 spec: str | None = None):
        name = name or os.path.basename(path)
        executable = _executable(path, name)
        super().__init__(spec or f"uci:{path}", name, _uci(executable), timeout)
        self.path = executable

    def _start(self):
        self._chess960 = False                 # every UCI engine starts with UCI_Chess960 false
        super()._start()

    def _setup_lines(self, fen: str) -> list[str]:
        if is_chess960(fen) == self._chess960:
            return []
        self._chess960 = not self._chess960    # castling is written king takes rook in Chess960
        return [f"setoption name UCI_Chess960 value {'true' if self._chess960 else 'false'}"]


def _uci(path: str) -> Dialogue:
    from dataclasses import replace
    return replace(UCI, command=(path,))


# --- finding and naming engines ------------------------------------------------------------

def _executable(path: str, name: str) -> str:
    """An absolute path to run, or EngineError saying why `path` cannot be run."""
    if not path:
        raise EngineError(f"{name}: no program given (write the spec as uci:PATH or perftree:PATH)")
    found = path if os.sep in path else shutil.which(path)
    if found is None:
        raise EngineError(f"{name}: {path!r} is not a file and not a program on PATH")
    if not os.path.isfile(found):
        raise EngineError(f"{name}: {found} does not exist")
    if not os.access(found, os.X_OK):
        raise EngineError(f"{name}: {found} is not executable (chmod +x it)")
    return os.path.abspath(found)


def stockfish_available() -> bool:
    return find_stockfish() is not None


def make_oracle(spec, timeout: float = DEFAULT_TIMEOUT) -> Oracle:
    """An Oracle for `spec` (text or Spec); EngineError naming the spec when it is unknown or
    cannot start."""
    spec = parse_spec(spec)
    if spec.kind == "core":
        oracle = CoreOracle()
    elif spec.kind == "python-chess":
        oracle = PythonChessOracle()
    elif spec.kind == "stockfish":
        return UciOracle(require_stockfish(), name="stockfish", timeout=timeout, spec=spec.text)
    elif spec.kind == "uci":
        return UciOracle(spec.target, timeout=timeout, spec=spec.text)
    elif spec.kind in ("perftree", "cmd"):
        return CommandOracle(spec, timeout=timeout)
    else:
        from .engine_file import load_engine_file
        return load_engine_file(spec, timeout=timeout)
    oracle.spec, oracle.timeout = spec.text, float(timeout)
    return oracle
