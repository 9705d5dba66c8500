"""Interactive engines: a program kept running across calls that reads commands on stdin, and
the Dialogue that says how to talk to it (UCI's by default, xboard's, or what an engine file
describes). Its answers are read in the dialect calibration learned (core.engines.program)."""
from __future__ import annotations

import hashlib
import os
import re
import time
from dataclasses import dataclass, replace

from ..errors import CalibrationError, EngineError, EngineRefused, EngineTimeout
from . import dialect_store
from .dialect import Dialect, normalize
from .mode import Mode, fill_mode, uci_setoptions
from .oracle import DEFAULT_TIMEOUT
from .pipes import QUIET, StderrLine
from .process import EngineProcess, executable
from .program import ProgramOracle
from .templates import fill_line

HANDSHAKE_TIMEOUT = 10.0       # uci/isready must answer quickly, whatever the perft timeout
# While calibrating without a known end, an answer ends after a silence: a long one until it held
# something known, a short one once every legal move was printed (its total may follow, or a
# per-depth engine's next block), a shorter one once its known total was (only words follow it).
CALIBRATION_QUIET = 1.5
QUIET_AFTER = {"moves": 0.3, "total": 0.1}
# an xboard engine refusing a move (`Illegal move: e2e4`, `Illegal move (in check): e1f1`, `Invalid move: e2e5`)
XBOARD_ILLEGAL = r"^(Illegal|Invalid) move\b"


@dataclass(frozen=True)
class Dialogue:
    """How to talk to an interactive engine (UCI, xboard, or what an engine file describes)."""
    command: tuple[str, ...]
    cwd: str | None = None
    env: tuple[tuple[str, str], ...] = ()
    start: tuple[str, ...] = ()            # sent once after starting
    start_until: str | None = None         # regex of the line that ends the start-up answer
    ready: tuple[str, str] | None = None   # (sent, awaited) before each request, to resync
    position: tuple[str, ...] = ("position fen {fen} moves {moves}",)
    divide: str | None = "go perft {depth}"
    totals: str | None = None              # for a program that prints only totals
    end_regex: str | None = None           # a line that ends an answer; default: its total line
    sentinel: str | None = None            # sent after the request; its echo ends the answer
    sentinel_reply: str | None = None
    quit: str | None = "quit"
    moves_each: str | None = None          # a line sent for each move played ("{move}", "usermove {move}")
    fen_after: bool = False                # {fen} is the position after the moves, none are sent
    illegal: str | None = None             # regex of a line refusing a move or a position
    chess960: bool | None = None           # False: it does not take Chess960 positions
    dialect: Dialect | None = None         # how it prints its divide, when the engine file says


def sentinel_reply(d: Dialogue) -> str:
    """The line that ends an answer after the sentinel: `echo WORDS` answers WORDS."""
    if d.sentinel_reply:
        return d.sentinel_reply
    return d.sentinel[5:].strip() if d.sentinel.startswith("echo ") else d.sentinel


UCI = Dialogue(command=(), start=("uci",), start_until=r"^uciok$", ready=("isready", "readyok"))


def with_mode(d: Dialogue, mode: Mode | None) -> tuple[Dialogue, dict[str, int]]:
    """The dialogue with `{threads}` and `{hash_mb}` filled in its command and lines, and what
    they took."""
    taken: dict[str, int] = {}

    def fill(text):
        if text is None:
            return None
        filled, took = fill_mode(text, mode)
        taken.update(took)
        return filled
    d = replace(d, command=tuple(fill(w) for w in d.command), start=tuple(fill(x) for x in d.start),
                position=tuple(fill(x) for x in d.position), divide=fill(d.divide), totals=fill(d.totals))
    return d, taken


class InteractiveOracle(ProgramOracle):
    """A program kept running across calls that reads commands on stdin: a UCI engine answering
    `go perft N`, an xboard engine, or anything an engine file describes. Restarted when it has
    died between requests; a request that fails (timeout, flood, crash, refusal) stops it and
    the next one starts anew."""

    def __init__(self, spec: str, name: str, dialogue: Dialogue, timeout: float = DEFAULT_TIMEOUT,
                 mode: Mode | None = None):
        super().__init__(spec, name, timeout, dialect=dialogue.dialect, chess960=dialogue.chess960)
        self.mode = mode
        self.dialogue, self.taken = with_mode(dialogue, mode)
        self.greeting: list[str] = []       # the engine's reply to the start lines
        self.restarts = 0
        self._engine: EngineProcess | None = None
        self._end = re.compile(dialogue.end_regex) if dialogue.end_regex else None
        self._illegal = re.compile(dialogue.illegal) if dialogue.illegal else None
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

    def _identity(self) -> str:
        described = replace(self.dialogue, dialect=None, env=())
        return (dialect_store.program_identity(self.dialogue.command[0]) + " " +
                hashlib.sha256(repr(described).encode()).hexdigest()[:16])

    def _start(self):
        d = self.dialogue
        self._engine = EngineProcess(self.name, list(d.command), cwd=d.cwd, env=dict(d.env), log=self.log)
        for line in d.start:
            self._engine.send(line, repr(line))
        if d.start_until:
            self.greeting = self._read_until(re.compile(d.start_until), HANDSHAKE_TIMEOUT,
                                             repr(" / ".join(d.start)))
        setoptions, took = uci_setoptions(self.greeting, self.mode)
        for line in setoptions:                 # before isready: a table is allocated before readyok
            self._engine.send(line, repr(line))
        self.taken.update(took)
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

    # --- one request ------------------------------------------------------------------------
    def _exchange(self, fen, moves, depth, position, expected):
        if self._engine is None or not self._engine.alive:
            if self._engine is not None:
                self.restarts += 1
                self._engine.kill()
            self._start()
        engine = self._engine
        engine.pipes.drain()
        engine.pipes.begin_call()
        sentinel = self._sentinel()
        sent_lines = self._request_lines(fen, moves, depth, position)
        if sentinel:
            sent_lines.append(sentinel[0])
        sent = " / ".join(sent_lines)
        try:
            for line in sent_lines:
                engine.send(line, repr(sent))
            if self._cancelled.is_set():
                raise self._stopped(repr(sent))
            lines = self._read_answer(depth, expected, repr(sent), sentinel, moves)
            self._sync()       # swallow trailing lines before the next request
        except EngineError:
            if self._engine is not None:
                self._engine.kill()
            raise
        return repr(sent), lines

    def _request_lines(self, fen, moves, depth, position) -> list[str]:
        d = self.dialogue
        if d.fen_after:
            fen, moves = position.fen(), []
        lines = self._setup_lines(position) + [fill_line(t, fen, [] if d.moves_each else moves, depth, position)
                                          for t in d.position]
        if d.moves_each:
            lines += [d.moves_each.replace("{move}", self._move_text(m, fen, moves[:i], position.chess960))
                      for i, m in enumerate(moves)]
        lines.append(fill_line(d.divide or d.totals, fen, moves, depth, position))
        return lines

    def _move_text(self, move: str, fen: str, before: list[str], chess960: bool) -> str:
        return move

    def _sentinel(self) -> tuple[str, str] | None:
        d = self.dialogue
        return (d.sentinel, sentinel_reply(d)) if d.sentinel else None

    def _setup_lines(self, position) -> list[str]:
        """Lines sent before the position when this request needs the engine set up anew."""
        return []

    def _read_answer(self, depth, expected, what, sentinel, moves) -> list[str]:
        """The answer's lines, up to the sentinel's reply, the `end` line, the total line of
        the learned dialect, or (calibrating, when none of these is known) a silence."""
        engine = self._engine
        deadline = time.monotonic() + self.timeout
        end = self._answer_end(depth, sentinel, calibrating=expected is not None)
        lines: list[str] = []
        quiet = None
        holds = expected.watch() if expected is not None else None
        stream = self._stream(expected)
        while True:
            try:
                # an answer on stderr is read with stdout, whose lines are dropped (the log keeps them)
                line = engine.read_line(deadline, self.timeout, what, quiet=self._quiet(lines, quiet),
                                        stream="stdout" if stream == "stdout" else "both")
            except EngineTimeout as e:
                if not engine.pipes.lines_read or end is None or engine.pipes.binary:
                    raise
                how = "its sentinel's reply" if sentinel else ("a line matching `end`" if self._end
                                                               else "its total line")
                raise EngineTimeout(f"{e}; it printed {engine.pipes.lines_read} lines but never {how}: "
                                    f"set `end` or `sentinel` in the engine file", e.seconds) from None
            if line is QUIET:
                if self._on_quiet(lines, what):
                    continue
                return lines
            if line is None:
                raise engine.crashed(what)
            if stream == "stderr" and not isinstance(line, StderrLine):
                continue
            self._check_line(line, lines, what, moves)
            if end is not None and end(line):
                if stream == "stderr":
                    engine.check_stderr_kept(what)
                return lines if sentinel else lines + [line]
            lines.append(line)
            if holds is not None and end is None:
                quiet = QUIET_AFTER.get(holds(line), CALIBRATION_QUIET)

    def _quiet(self, lines, quiet):
        return quiet

    def _on_quiet(self, lines, what) -> bool:
        """A silence while calibrating: True to keep waiting."""
        return False

    def _answer_end(self, depth, sentinel, calibrating: bool):
        """A predicate for the line that ends an answer (None: a silence ends it)."""
        if sentinel:
            pattern = re.compile(f"^{re.escape(sentinel[1])}$")
            return lambda line: bool(pattern.search(line.strip()))
        if self._end is not None:
            return lambda line: bool(self._end.search(line.strip()))
        if calibrating:
            return None
        self._check_end(self._dialect)
        return _TotalEnd(self._dialect, depth)

    def _check_end(self, dialect: Dialect):
        if dialect.total is None and not dialect.json and not self._sentinel() and self._end is None:
            raise CalibrationError(f"{self.name} prints no total line after its divide, so the end of "
                                   f"an answer cannot be told: give it a `sentinel` in an engine file "
                                   f"(see README)")

    def _calibrate(self):
        calibration = super()._calibrate()
        self._check_end(calibration.dialect)
        return calibration

    def _check_line(self, line: str, lines: list[str], what: str, moves):
        """Every line as it comes: a refusal ends the request at once."""
        if self._illegal is not None and self._illegal.search(line.strip()):
            raise EngineRefused(f"{self.name}: refused {_refused(line, moves)} in {what}: {line.strip()!r}")

    # --- life -------------------------------------------------------------------------------
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


class _TotalEnd:
    """The learned total line for the depth asked ends an answer: the one saying that depth,
    the D-th of an engine printing one per depth, else the first."""

    def __init__(self, dialect: Dialect, depth: int):
        self.dialect, self.depth, self.seen = dialect, depth, 0

    def __call__(self, line: str) -> bool:
        if self.dialect.json:          # a JSON answer on one line
            return line.strip().startswith("{") and line.strip().endswith("}")
        match = self.dialect.total_match(normalize(line))
        if match is None:
            return False
        self.seen += 1
        said = match.groupdict().get("depth")
        if said is not None:
            return said.isdigit() and int(said) == self.depth
        return not self.dialect.per_depth or self.seen >= self.depth


def _refused(line: str, moves) -> str:
    """What a refusal names: the move it quotes when that is one of the moves sent."""
    named = [m for m in moves if m in line.split() or line.rstrip().endswith(m)]
    return f"the legal move {named[-1]}" if named else ("a move or the position" if moves else "the position")


_NO_GO_PERFT = re.compile(r"^(info\s+(depth|seldepth|score|nodes|nps|time|pv|currmove|multipv|hashfull)\b|bestmove\b)")
NO_PERFT_WAIT = 1.0            # seconds a UCI engine may stay silent after `go perft` before it is told to stop
# ... and, while calibrating (small positions at depth 2, answered in milliseconds by any perft),
# seconds of silence after `stop` before it is asked `isready`: a `readyok` before any answer says
# that it ignored `go perft`, as UCI tells engines to do with a command they do not know
NO_PERFT_READY = 0.5


class UciOracle(InteractiveOracle):
    """A UCI engine answering `go perft N`, started once and kept running between requests. One
    that starts a search instead (`info depth ...`, `bestmove ...`) is stopped at once: it has no
    `go perft`."""

    def __init__(self, path: str, name: str | None = None, timeout: float = DEFAULT_TIMEOUT,
                 spec: str | None = None, dialogue: Dialogue = UCI, mode: Mode | None = None):
        name = name or os.path.basename(path)
        if not dialogue.command:                 # an engine file's command is already resolved
            dialogue = replace(dialogue, command=(executable(path, name),))
        super().__init__(spec or f"uci:{path}", name, dialogue, timeout, mode)
        self.path = self.dialogue.command[0]

    def _start(self):
        self._chess960 = False                 # every UCI engine starts with UCI_Chess960 false
        self._stop_sent = False
        super()._start()

    def _setup_lines(self, position) -> list[str]:
        if position.chess960 == self._chess960:
            return []
        self._chess960 = not self._chess960    # castling is written king takes rook in Chess960
        return [f"setoption name UCI_Chess960 value {'true' if self._chess960 else 'false'}"]

    def _read_answer(self, depth, expected, what, sentinel, moves):
        self._stop_sent = False
        self._ready_sent = False
        # `isready` tells an ignored `go perft` only before it ever answered one: later, silence
        # with a `readyok` is a hang of its own (one that hangs on a Chess960 FEN, say)
        self._calibrating = expected is not None and not getattr(self, "_answered", False)
        self._heard = False        # a meaningful line of this answer (not `info string`) was read
        lines = super()._read_answer(depth, expected, what, sentinel, moves)
        self._answered = True
        return lines

    def _quiet(self, lines, quiet):
        # silent after `go perft`: nudge it once with `stop` (a searching engine then says bestmove)
        if not lines and (self.dialogue.divide or "").startswith("go "):
            if not self._stop_sent:
                return NO_PERFT_WAIT
            if self._calibrating and not self._ready_sent:
                return NO_PERFT_READY
        return quiet

    def _on_quiet(self, lines, what) -> bool:
        if lines:
            return False
        if not self._stop_sent:
            self._stop_sent = True
            self._engine.send("stop", what)
            return True
        if self._calibrating and not self._ready_sent:
            self._ready_sent = True
            self._engine.send("isready", what)
            return True
        return False

    def _check_line(self, line, lines, what, moves):
        super()._check_line(line, lines, what, moves)
        if self._heard:        # only the first meaningful line tells a search from a perft
            return
        go = (self.dialogue.divide or "").startswith("go ")
        if go and _NO_GO_PERFT.match(line.strip()):
            self._engine.send("stop", what)
            self._engine.kill()
            raise CalibrationError(f"{self.name} has no `go perft` (it answered {line.strip()!r}): describe "
                                   f"its perft command in an engine file (see README)")
        if go and self._ready_sent and line.strip() == "readyok":
            self._engine.kill()
            raise CalibrationError(f"{self.name} has no `go perft` (it said nothing to {what} nor to `stop`, "
                                   f"and answered `isready` at once): describe its perft command in an "
                                   f"engine file (see README)")
        self._heard = bool(line.strip()) and not line.startswith("info string")
