"""Interactive engines: a program kept running across calls that reads commands on stdin, and
the Dialogue that says how to talk to it (UCI's by default, or what an engine file describes)."""
from __future__ import annotations

import os
import re
import time
from dataclasses import dataclass, replace

from ..errors import EngineError, EngineTimeout
from .divide_parser import TOTAL_LINE
from .mode import Mode, fill_mode, uci_setoptions
from .oracle import DEFAULT_TIMEOUT, Oracle, read_answer
from .process import EngineProcess, executable
from .templates import fill_line

HANDSHAKE_TIMEOUT = 10.0       # uci/isready must answer quickly, whatever the perft timeout


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


class InteractiveOracle(Oracle):
    """A program kept running across calls that reads commands on stdin: a UCI engine answering
    `go perft N`, or anything an engine file describes. Restarted when it has died between
    requests; a request that fails (timeout, flood, crash) stops it and the next one starts anew."""

    def __init__(self, spec: str, name: str, dialogue: Dialogue, timeout: float = DEFAULT_TIMEOUT,
                 mode: Mode | None = None):
        super().__init__(spec, name, timeout)
        self.mode = mode
        self.dialogue, self.taken = with_mode(dialogue, mode)
        self.greeting: list[str] = []       # the engine's reply to the start lines
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
        sent_lines = self._setup_lines(position) + [fill_line(t, fen, moves, depth) for t in d.position]
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
                if not engine.lines_read or engine.binary:
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
        return read_answer(self.name, repr(sent), lines, position)

    def _setup_lines(self, position) -> list[str]:
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
                 spec: str | None = None, mode: Mode | None = None):
        name = name or os.path.basename(path)
        program = executable(path, name)
        super().__init__(spec or f"uci:{path}", name, replace(UCI, command=(program,)), timeout, mode)
        self.path = program

    def _start(self):
        self._chess960 = False                 # every UCI engine starts with UCI_Chess960 false
        super()._start()

    def _setup_lines(self, position) -> list[str]:
        if position.chess960 == self._chess960:
            return []
        self._chess960 = not self._chess960    # castling is written king takes rook in Chess960
        return [f"setoption name UCI_Chess960 value {'true' if self._chess960 else 'false'}"]

