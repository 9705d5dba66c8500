"""Interactive engines: a program kept running across calls that reads commands on stdin.

A `Dialogue` says how to talk to one (UCI's by default, xboard's, or what an engine file
describes). A protocol speaks it: `ConsoleProtocol` here any dialogue an engine file describes,
`UciProtocol` (core.engines.uci) and `XboardProtocol` (core.engines.xboard) their own. Each
request is a `Command`, an object that sends its lines, is handed every line the engine prints and
says when it is done: the start-up (`uci` until `uciok`), the resync (`isready` until `readyok`),
xboard's features, the perft request itself (python-chess's engine module has the same shape).
`InteractiveOracle` keeps one protocol, and so the engine, across calls; its answers are read in
the dialect calibration learned (core.engines.program).
"""
from __future__ import annotations

import hashlib
import re
import threading
import time
from dataclasses import dataclass, replace

from ..errors import CalibrationError, EngineCrashed, EngineError, EngineRefused, EngineTimeout, OracleCancelled
from . import dialect_store
from .dialect import Dialect, normalize
from .mode import Mode, fill_mode, uci_setoptions
from .oracle import DEFAULT_TIMEOUT, Call
from .pipes import QUIET, EngineLog, StderrLine
from .process import EngineProcess
from .program import ProgramOracle
from .spec import Spec
from .templates import fill_line

HANDSHAKE_TIMEOUT = 10.0       # uci/isready must answer quickly, whatever the perft timeout
# While calibrating without a known end, an answer ends after a silence: a long one until it held
# something known, a short one once every legal move was printed (its total may follow, or a
# per-depth engine's next block), a shorter one once its known total was (only words follow it).
CALIBRATION_QUIET = 1.5
QUIET_AFTER = {"moves": 0.3, "total": 0.1}
# an xboard engine refusing a move (`Illegal move: e2e4`, `Illegal move (in check): e1f1`, `Invalid move: e2e5`)
XBOARD_ILLEGAL = r"^(Illegal|Invalid) move\b"
# a line by which a program says it does not know a command: xboard engines take it for a move
# (`Illegal move: uci`) or say `Error (unknown command): uci`, UCI engines `Unknown command: xboard`
# or Stockfish's `Unknown command: 'xboard'. Type help for more information.`
_UNKNOWN = re.compile(r"^(?:(?:illegal|invalid) move(?: \([^)]*\))?|error(?: \([^)]*\))?|unknown command|"
                      r"unrecognized command|unknown)\s*:?\s*['\"`]?(?P<word>[a-z][\w-]*)", re.I)


def refuses_command(line: str, word: str) -> bool:
    """Whether `line` says the program does not know the command `word`."""
    match = _UNKNOWN.match(line.strip())
    return match is not None and match.group("word").lower() == word


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


# --- commands -------------------------------------------------------------------------------

class Command:
    """One request to an engine. `start` sends its lines; then `line` is handed each line the
    engine prints on `stream` ('stdout', or 'both': stderr's lines too, as StderrLine) until it
    sets `done`, and `silence` is called when none came for `quiet()` seconds (by default that
    ends it). `what` names the request in every message; it may take `seconds` in all. `result`
    is what `run` returns."""
    stream = "stdout"

    def __init__(self, what: str, seconds: float):
        self.what, self.seconds = what, seconds
        self.done = False
        self.result = None

    def start(self, engine: EngineProcess):
        pass

    def quiet(self) -> float | None:
        return None

    def line(self, engine: EngineProcess, line: str):
        raise NotImplementedError

    def silence(self, engine: EngineProcess):
        self.done = True

    def timed_out(self, engine: EngineProcess, error: EngineTimeout) -> EngineTimeout:
        """The error to raise when no line came in time (the engine is already stopped)."""
        return error


def run(engine: EngineProcess, command: Command):
    """Send `command`'s lines and hand it the engine's lines until it is done; its result. An
    engine that dies meanwhile is EngineCrashed; a timeout, flood or cancel stops it
    (core.engines.process). One that died while the lines were sent is read first: what it
    printed before it exited may say why (`Error (unknown command): perft`, `Illegal move: uci`),
    and that is the error rather than its exit."""
    try:
        command.start(engine)
    except EngineCrashed:
        _read_last_words(engine, command)
        raise
    deadline = time.monotonic() + command.seconds
    while not command.done:
        try:
            line = engine.read_line(deadline, command.seconds, command.what, quiet=command.quiet(),
                                    stream=command.stream)
        except EngineTimeout as e:
            error = command.timed_out(engine, e)
            if error is e:
                raise
            raise error from None
        if line is QUIET:
            command.silence(engine)
        elif line is None:
            raise engine.crashed(command.what)
        else:
            command.line(engine, line)
    return command.result


def _read_last_words(engine: EngineProcess, command: Command, seconds: float = 1.0):
    """Hand `command` what a dead engine printed before its output ended (its line() may raise
    the error those lines say); nothing more when they say nothing to it."""
    deadline = time.monotonic() + seconds
    while not command.done:
        try:
            line = engine.read_line(deadline, seconds, command.what, quiet=seconds, stream=command.stream)
        except EngineError:
            return
        if line is None or line is QUIET:
            return
        command.line(engine, line)


class Until(Command):
    """`lines` sent, then the engine's lines up to the one matching `until`, that one included
    (`uci` until `uciok`, `isready` until `readyok`); with no `until`, only sent."""

    def __init__(self, lines, until: str | None, what: str | None = None):
        super().__init__(what or repr(" / ".join(lines)), HANDSHAKE_TIMEOUT)
        self.lines = list(lines)
        self.until = re.compile(until) if until else None
        self.result: list[str] = []

    def start(self, engine):
        for line in self.lines:
            engine.send(line, repr(line))
        self.done = self.until is None

    def line(self, engine, line):
        self.result.append(line)
        self.done = bool(self.until.search(line.strip()))


class Perft(Command):
    """One request for a divide (or a total): the lines setting up the position, the perft line
    and a sentinel if any are sent; the answer is the lines up to the sentinel's reply, the `end`
    line, the total line of the learned dialect (`end`, a predicate), or, calibrating when none
    of these is known, a silence. A line refusing a move ends the request at once. `stream`: where
    the answer is read (core.engines.program); `holds`: calibration's watch of the answer."""

    def __init__(self, protocol: ConsoleProtocol, lines: list[str], call: Call, reading: Reading, end,
                 sentinel: bool):
        super().__init__(repr(" / ".join(lines)), reading.seconds)
        self.protocol, self.lines, self.moves = protocol, lines, call.moves
        self.end, self.sentinel, self.cancelled = end, sentinel, reading.cancelled
        self.holds = reading.expected.watch() if reading.expected is not None else None
        self.answer_stream = reading.stream
        # an answer on stderr is read with stdout, whose lines are dropped (the log keeps them)
        self.stream = "stdout" if reading.stream == "stdout" else "both"
        self.result: list[str] = []
        self._quiet: float | None = None

    def start(self, engine):
        for line in self.lines:
            engine.send(line, self.what)
        if self.cancelled.is_set():
            raise OracleCancelled(f"{self.protocol.name}: cancelled while answering {self.what}")

    def quiet(self):
        return self._quiet

    def line(self, engine, line):
        if self.answer_stream == "stderr" and not isinstance(line, StderrLine):
            return
        self.check(engine, line)
        if self.end is not None and self.end(line):
            if self.answer_stream == "stderr":
                engine.check_stderr_kept(self.what)
            if not self.sentinel:
                self.result.append(line)
            self.done = True
            return
        self.result.append(line)
        if self.holds is not None and self.end is None:
            self._quiet = QUIET_AFTER.get(self.holds(line), CALIBRATION_QUIET)

    def check(self, engine, line: str):
        """Every line as it comes: a refusal ends the request at once."""
        illegal = self.protocol.illegal
        if illegal is not None and illegal.search(line.strip()):
            raise EngineRefused(f"{self.protocol.name}: refused {_refused(line, self.moves)} in "
                                f"{self.what}: {line.strip()!r}", own_error=line.strip())

    def timed_out(self, engine, error):
        if not engine.pipes.lines_read or self.end is None or engine.pipes.binary:
            return error
        how = "its sentinel's reply" if self.sentinel else ("a line matching `end`" if self.protocol.end
                                                            else "its total line")
        return EngineTimeout(f"{error}; it printed {engine.pipes.lines_read} lines but never {how}: "
                             f"set `end` or `sentinel` in the engine file", error.seconds)


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


@dataclass(frozen=True)
class Reading:
    """How one request's answer is read: in `dialect` (the one learned), or while calibrating
    against `expected` (the calibration Probe); on `stream` (core.engines.program); within
    `seconds`; until `cancelled` is set from another thread."""
    dialect: Dialect | None
    expected: object
    stream: str
    seconds: float
    cancelled: threading.Event


# --- protocols ------------------------------------------------------------------------------

class ConsoleProtocol:
    """Any dialogue an engine file describes, spoken to one engine process at a time: started
    (its start lines, the options the mode asks for, a resync), asked one request after another
    (`request`), restarted when it died between them, asked to quit. A request that fails
    (timeout, flood, crash, refusal) stops the engine and the next one starts anew. `taken`:
    the threads and hash it took (shared with the oracle, core.engines.mode)."""
    perft = Perft

    def __init__(self, name: str, dialogue: Dialogue, log: EngineLog, mode: Mode | None,
                 taken: dict[str, int]):
        self.name, self.dialogue, self.log, self.mode, self.taken = name, dialogue, log, mode, taken
        self.end = re.compile(dialogue.end_regex) if dialogue.end_regex else None
        self.illegal = re.compile(dialogue.illegal) if dialogue.illegal else None
        self.engine: EngineProcess | None = None
        self.greeting: list[str] = []       # the engine's reply to the start lines
        self.restarts = 0
        self.answered = False               # it answered a request once (it may have died since)

    def start(self):
        """Start the engine (again, when it died or was killed: one more of `restarts`)."""
        d = self.dialogue
        if self.engine is not None:
            self.restarts += 1
            self.engine.kill()
        self.engine = EngineProcess(self.name, list(d.command), cwd=d.cwd, env=dict(d.env), log=self.log)
        greeting = run(self.engine, self.handshake())
        if d.start_until:
            self.greeting = greeting
        setoptions, took = uci_setoptions(self.greeting, self.mode)
        for line in setoptions:                 # before isready: a table is allocated before readyok
            self.engine.send(line, repr(line))
        self.taken.update(took)
        self.sync()

    def handshake(self) -> Command:
        """The start lines, and the engine's reply up to the line that ends it."""
        return Until(self.dialogue.start, self.dialogue.start_until)

    def sync(self):
        """The resync round trip (`isready` until `readyok`), where the dialogue has one: lines
        an answer left behind are read before the next request."""
        if self.dialogue.ready:
            sent, awaited = self.dialogue.ready
            run(self.engine, Until([sent], f"^{re.escape(awaited)}$"))

    def refuses_chess960(self) -> str:
        """Why the engine said at start-up that it takes no Chess960 position ('' when it did not)."""
        return ""

    @property
    def alive(self) -> bool:
        return self.engine is not None and self.engine.alive

    # --- one request ------------------------------------------------------------------------
    def request(self, call: Call, reading: Reading) -> tuple[str, list[str]]:
        """(what was sent, the answer's lines) for one call to the running engine."""
        engine = self.engine
        engine.pipes.drain()
        engine.pipes.begin_call()
        command = self.perft_command(call, reading)
        try:
            lines = run(engine, command)
            self.answered = True
            self.sync()       # swallow trailing lines before the next request
        except EngineError:
            if self.engine is not None:
                self.engine.kill()
            raise
        return command.what, lines

    def perft_command(self, call: Call, reading: Reading) -> Perft:
        sentinel = self.sentinel()
        lines = self.request_lines(call)
        if sentinel:
            lines.append(sentinel[0])
        end = self.answer_end(call.depth, sentinel, reading.dialect, reading.expected)
        return self.perft(self, lines, call, reading, end, bool(sentinel))

    def request_lines(self, call: Call) -> list[str]:
        d = self.dialogue
        fen, moves, depth, position = call.fen, call.moves, call.depth, call.position
        if d.fen_after:
            fen, moves = position.fen(), []
        lines = [fill_line(t, fen, [] if d.moves_each else moves, depth, position) for t in d.position]
        if d.moves_each:
            lines += [d.moves_each.replace("{move}", text) for text in self.move_texts(fen, moves, position.chess960)]
        lines.append(fill_line(d.divide or d.totals, fen, moves, depth, position))
        return lines

    def move_texts(self, fen: str, moves: list[str], chess960: bool) -> list[str]:
        """Each of `moves` played from `fen` as the engine is to be sent it: as it is (UCI)."""
        return list(moves)

    def sentinel(self) -> tuple[str, str] | None:
        """(sent after the request, the reply that ends its answer), None without one."""
        d = self.dialogue
        return (d.sentinel, sentinel_reply(d)) if d.sentinel else None

    def knows_end(self) -> bool:
        """Whether an answer's end is known without a total line: a sentinel or an `end` line."""
        return bool(self.dialogue.sentinel) or self.end is not None

    def answer_end(self, depth, sentinel, dialect: Dialect | None, expected):
        """A predicate for the line that ends an answer (None: a silence ends it)."""
        if sentinel:
            pattern = re.compile(f"^{re.escape(sentinel[1])}$")
            return lambda line: bool(pattern.search(line.strip()))
        if self.end is not None:
            return lambda line: bool(self.end.search(line.strip()))
        if expected is not None:
            return None
        self.check_end(dialect)
        return _TotalEnd(dialect, depth)

    def check_end(self, dialect: Dialect):
        """CalibrationError when nothing tells where an answer in `dialect` ends."""
        if dialect.total is None and not dialect.json and not self.knows_end():
            raise CalibrationError(f"{self.name} prints no total line after its divide, so the end of "
                                   f"an answer cannot be told: give it a `sentinel` in an engine file "
                                   f"(see docs/connect-your-engine.md)")

    # --- life -------------------------------------------------------------------------------
    def close(self):
        """Ask the engine to quit; it is killed if it has not within a second (never waited for)."""
        engine, self.engine = self.engine, None
        if engine is not None:
            engine.close(self.dialogue.quit)

    def abort(self):
        """From another thread: kill the engine; the running request reads end-of-output and
        reports the cancel."""
        engine = self.engine
        if engine is not None:
            engine.cancelled.set()
            engine.kill()


class InteractiveOracle(ProgramOracle):
    """A program kept running across calls that reads commands on stdin: a UCI engine answering
    `go perft N`, an xboard engine, or anything an engine file describes, spoken to by the
    protocol of its kind (`speaks`)."""
    speaks = ConsoleProtocol

    def __init__(self, spec: Spec, name: str, dialogue: Dialogue, timeout: float = DEFAULT_TIMEOUT,
                 mode: Mode | None = None):
        super().__init__(spec, name, timeout, dialect=dialogue.dialect, chess960=dialogue.chess960)
        self.mode = mode
        self.dialogue, self.taken = with_mode(dialogue, mode)
        self.protocol = self.speaks(self.name, self.dialogue, self.log, mode, self.taken)
        with self._lock:
            self._start()

    @property
    def pid(self) -> int | None:
        """The engine process id (for tests and for the GUI's process list)."""
        engine = self.protocol.engine
        return engine.pid if engine is not None else None

    @property
    def running(self) -> bool:
        """Whether the engine process is alive (a killed one is restarted on the next request)."""
        return self.protocol.alive

    @property
    def greeting(self) -> list[str]:
        """The engine's reply to its start lines."""
        return self.protocol.greeting

    @property
    def restarts(self) -> int:
        return self.protocol.restarts

    def _identity(self) -> str:
        described = replace(self.dialogue, dialect=None, env=())
        return (dialect_store.program_identity(self.dialogue.command[0]) + " " +
                hashlib.sha256(repr(described).encode()).hexdigest()[:16])

    def _start(self):
        self.protocol.start()
        why = self.protocol.refuses_chess960()
        if why and self._allow960 is None:
            self._allow960, self._why_not960 = False, why

    def _exchange(self, call, expected):
        if not self.protocol.alive:       # it died since: started anew
            self._start()
        return self.protocol.request(call, Reading(self._dialect, expected, self._stream(expected), self.timeout,
                                                   self._cancelled))

    def _calibrate(self):
        calibration = super()._calibrate()
        self.protocol.check_end(calibration.dialect)
        return calibration

    def _release(self):
        self.protocol.close()

    def _abort(self):
        self.protocol.abort()

    def __del__(self):
        protocol = getattr(self, "protocol", None)
        if protocol is not None and protocol.alive:
            protocol.engine.kill()
