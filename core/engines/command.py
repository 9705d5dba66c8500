"""A program run once per divide: a `cmd:` template or a perftree script."""
from __future__ import annotations

import os
import shlex
import time

from ..errors import EngineError, EngineTimeout, EngineUnreadable
from . import dialect_store
from .mode import Mode, fill_mode
from .oracle import DEFAULT_TIMEOUT
from .pipes import MAX_BYTES, MAX_LINES, StderrLine, quoted, readable
from .process import EngineProcess, executable
from .program import PERFTREE, ProgramOracle
from .spec import Spec
from .templates import PLACEHOLDER, fill_template


class CommandOracle(ProgramOracle):
    """A program run once per divide: `cmd:TEMPLATE` (its dialect learned by calibration), or a
    perftree script (`PATH DEPTH "FEN" "m1 m2 ..."`, the moves argument left out when empty,
    exactly like perftree, read in perftree's own dialect)."""

    def __init__(self, spec: Spec, timeout: float = DEFAULT_TIMEOUT, mode: Mode | None = None):
        super().__init__(spec.text, spec.short_name, timeout,
                         dialect=PERFTREE if spec.kind == "perftree" else None, chess960=spec.chess960)
        if spec.kind == "perftree":
            self.path = executable(spec.target, self.name)
            self.words = [self.path, "{depth}", "{fen}", "{moves}"]
        else:
            if not PLACEHOLDER.search(spec.target):
                raise EngineError(f"{self.name}: the command template {spec.target!r} has no "
                                  f"{{depth}}, {{fen}} or {{moves}}: the engine would not know what to count")
            self.words = []
            for word in shlex.split(spec.target):    # {threads} and {hash_mb} are the same every call
                word, took = fill_mode(word, mode)
                self.words.append(word)
                self.taken.update(took)
            self.words[0] = executable(self.words[0], self.name)
        self.drop_empty_moves = spec.kind == "perftree"
        self.max_lines, self.max_bytes = MAX_LINES, MAX_BYTES
        self._process: EngineProcess | None = None
        self.last_usage = None       # what the last call's process used (core.engines.usage)

    def _identity(self) -> str:
        return dialect_store.program_identity(self.words[0])

    def _exchange(self, call, expected):
        args = fill_template(self.words, call.fen, call.moves, call.depth, call.position)
        if self.drop_empty_moves and not call.moves:
            args = args[:-1]
        sent = " ".join([os.path.basename(args[0])] + [shlex.quote(a) for a in args[1:]])
        self.last_usage = None
        try:
            self.log.add(">", shlex.join(args))
            self._started(EngineProcess(self.name, args, log=self.log, interactive=False,
                                        max_lines=self.max_lines, max_bytes=self.max_bytes))
            # silence is an answer only where there is no move to list
            lines = run_command(self._process, sent, self.timeout, silence_ok=not call.position.legal_moves(),
                                stream=self._stream(expected))
            self.last_usage = self._process.usage
        finally:
            self._process = None
        if self._cancelled.is_set():
            raise self._stopped(sent)
        return sent, lines

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


def run_command(process: EngineProcess, what: str, timeout: float, silence_ok: bool = True,
                stream: str = "stdout") -> list[str]:
    """Run a started program (asked `what`, as messages quote it) to its end and return the lines
    it printed on `stream` (stdout, stderr, or both: stderr's lines then as StderrLine);
    EngineCrashed when it exits non-zero, EngineTimeout, EngineFlood, OracleCancelled;
    EngineUnreadable when it printed nothing readable there and `silence_ok` is false. The process
    is killed at the end, whatever happened."""
    name = process.name
    deadline = time.monotonic() + timeout
    lines = []
    try:
        while True:
            # both streams are read, so neither can fill its pipe while the other is awaited
            line = process.read_line(deadline, timeout, what, stream="stdout" if stream == "stdout" else "both")
            if line is None:
                break
            if stream != "stderr" or isinstance(line, StderrLine):
                lines.append(line)
        if stream == "stderr":
            process.check_stderr_kept(what)
        if process.reap(max(0.1, deadline - time.monotonic())) is None:
            process.kill()
            raise EngineTimeout(f"{name}: closed its output but did not exit within {timeout:g} s "
                                f"on {what}; the engine was stopped", seconds=timeout)
        if process.proc.returncode != 0 or process.cancelled.is_set():
            raise process.crashed(what)
        if lines and process.pipes.binary:        # it ran to its end: unreadable, not a crash
            raise EngineUnreadable(f"{name} printed binary data, not text, while answering {what}: about "
                               f"{process.pipes.bytes_read} bytes in {len(lines)} line{'s' if len(lines) != 1 else ''}, "
                               f"starting {quoted(lines[0], 40)}")
        if not silence_ok and not any(map(readable, lines)):
            got = (f"{len(lines)} unreadable line{'s' if len(lines) != 1 else ''}, the first {quoted(lines[0])}"
                   if any(lines) else "nothing")
            raise EngineUnreadable(f"{name} exited with code 0 but printed {got} on {'stdout or stderr' if stream == 'both' else stream} while "
                               f"answering {what}; {process.pipes.stderr_said()}")
        return lines
    finally:
        process.kill()
