"""A program run once per divide: a `cmd:` template or a perftree script."""
from __future__ import annotations

import os
import shlex

from ..errors import EngineError
from . import dialect_store
from .mode import Mode, fill_mode
from .oracle import DEFAULT_TIMEOUT
from .process import MAX_BYTES, MAX_LINES, EngineProcess, executable, run_command
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

    def _exchange(self, fen, moves, depth, position, expected):
        args = fill_template(self.words, fen, moves, depth, position)
        if self.drop_empty_moves and not moves:
            args = args[:-1]
        sent = " ".join([os.path.basename(args[0])] + [shlex.quote(a) for a in args[1:]])
        self.last_usage = None
        try:
            # silence is an answer only where there is no move to list
            lines = run_command(self.name, args, self.timeout, sent, log=self.log, on_start=self._started,
                                max_lines=self.max_lines, max_bytes=self.max_bytes,
                                silence_ok=not position.legal_moves(), stream=self._stream(expected))
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
