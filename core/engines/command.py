"""A program run once per divide: a `cmd:` template or a perftree script."""
from __future__ import annotations

import os
import re
import shlex
import time

from ..errors import EngineCrashed, EngineError, EngineRefused, EngineTimeout, EngineUnreadable
from . import dialect_store
from .mode import Mode, fill_mode
from .oracle import DEFAULT_TIMEOUT
from .pipes import MAX_BYTES, MAX_LINES, StderrLine, quoted, readable
from .process import EngineProcess, executable
from .program import PERFTREE, ProgramOracle
from .spec import Spec
from .templates import PLACEHOLDER, fill_template

# how a program says it will not play a move: `Illegal move: e1g1`, `error: invalid move e1g1`,
# python-chess's `IllegalMoveError: illegal uci: 'e1g1' in ...`
_REFUSAL = re.compile(r"\b(?:illegal|invalid)\b\W*(?:move|uci)\b", re.I)


class CommandOracle(ProgramOracle):
    """A program run once per divide: `cmd:TEMPLATE` (its dialect learned by calibration), or a
    perftree script (`PATH DEPTH "FEN" "m1 m2 ..."`, the moves argument left out when empty,
    exactly like perftree, read in perftree's own dialect)."""

    def __init__(self, spec: Spec, timeout: float = DEFAULT_TIMEOUT, mode: Mode | None = None):
        super().__init__(spec, spec.short_name, timeout,
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
        self._printed: list[str] = []    # the last call's lines, for a refusal in its words
        self.last_usage = None       # what the last call's process used (core.engines.usage)

    def _identity(self) -> str:
        return dialect_store.program_identity(self.words[0])

    def _answer(self, call):
        """A call that exited with a code (not a signal) or whose answer cannot be read, having
        said in its own words that it will not play a move sent, refused that move
        (EngineRefused quoting its line), as an engine file's `illegal` line does; any other
        failure is what it was."""
        self._printed = []
        try:
            return super()._answer(call)
        except (EngineCrashed, EngineUnreadable) as error:
            refused = _refusal(self.name, error, call.moves, self._printed)
            if refused is None:
                raise
            raise refused from error

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
            if expected is None:           # a request's answer, not a calibration probe's
                self._printed = lines
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


def _refusal(name: str, error: EngineError, moves, printed: list[str]) -> EngineRefused | None:
    """The refusal a failed call was, or None: it exited by itself with a code (a process killed
    by a signal crashed, whatever it printed) or answered what cannot be read, and a line of its
    output says a move sent is illegal, naming it. Nothing else is taken for a refusal."""
    if not moves or getattr(error, "calibrating", False):     # a calibration position has no moves sent
        return None
    if isinstance(error, EngineCrashed):
        if error.exit_code is None or error.exit_code <= 0:
            return None
        lines, how = error.output, f"exited with code {error.exit_code}"
    else:
        lines, how = printed, "gave no answer"
    for line in lines:
        words = line.strip()
        named = [m for m in moves if re.search(rf"(?<![a-z0-9]){m}(?![a-z0-9])", words.lower())]
        if named and _REFUSAL.search(words):
            return EngineRefused(f"{name}: refused the legal move {named[-1]}: it said {quoted(words, 80)} and "
                                 f"{how}", own_error=words, command=getattr(error, "command", ""))
    return None


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
            error = process.crashed(what)
            if isinstance(error, EngineCrashed):
                error.output = tuple(lines) + error.output      # its stdout, then its stderr
            raise error
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
