"""An engine program (a command per call, or an interactive one) whose answers are read in the
dialect calibration learned for it.

The first call of a session takes the dialect the engine file gives, else the one saved for
this spec and program (core.engines.dialect_store), else calibrates (core.engines.calibration)
and saves it. An answer that does not fit a *saved* dialect has the engine calibrated again once
(it may have been rebuilt to print differently) and is read again; one that does not fit a
dialect learned in this session is an error quoting the line.
"""
from __future__ import annotations

import time
from dataclasses import replace

from ..board.position import Position
from ..errors import CalibrationError, EngineUnreadable
from . import dialect_store
from .calibration import Calibration, Probe, calibrate
from .dialect import Dialect
from .divide_parser import read_divide
from .oracle import DEFAULT_TIMEOUT, Answer, Call, Oracle, Request
from .spec import Spec

# perftree's protocol (`move count` rows, a blank line, the total), read as leniently as scripts
# written for it print it: a colon after the move, no total
# (whether a script takes Chess960 is its own: a calibration finds out, a spec option can say no)
PERFTREE = Dialect(rows=("{move} {count}{rest}", "{move}: {count}{rest}"), total="{total}",
                   total_required=False)
STOCKFISH = Dialect(rows=("{move}: {count}",), total="Nodes searched: {total}", chess960=True)


class ProgramOracle(Oracle):
    """Subclasses implement `_exchange(call, expected)` -> (what was sent, the lines printed),
    `expected` being the calibration Probe while calibrating (None otherwise), and `_identity()`."""

    def __init__(self, spec: Spec, name: str, timeout: float = DEFAULT_TIMEOUT, dialect: Dialect | None = None,
                 chess960: bool | None = None):
        super().__init__(spec, name, timeout)
        self._dialect = dialect
        self._given = dialect is not None            # by the engine file or the protocol: never relearned
        self._saved = False                          # read from a record of an earlier session
        self._allow960 = chess960                     # False: the engine file says it does not take it
        self._why_not960 = ""                         # who said so, when not the engine file or the spec
        if dialect is not None and chess960 is False:
            self._dialect = replace(dialect, chess960=False)
        self.calibration: Calibration | None = None
        self.record: str | None = None               # where the learned dialect was saved

    @property
    def dialect(self) -> Dialect | None:
        """How this engine prints its divide (None until the first call or calibrate())."""
        return self._dialect

    @property
    def takes_chess960(self) -> bool | None:
        return None if self._dialect is None else self._dialect.chess960

    def calibrate(self) -> Calibration:
        """Learn the dialect anew from the calibration positions (a given dialect is only
        checked on them), save it and return what was found. CalibrationError when nothing can
        be learned."""
        with self._lock:
            return self._calibrate()

    def _calibrate(self) -> Calibration:
        given = self._dialect if self._given else None
        self.calibration = calibrate(self._ask_probe, self.name, self._allow960, given=given,
                                     why_not960=self._why_not960)
        self._dialect, self._saved = self.calibration.dialect, False
        if not self._given:
            path = dialect_store.save(self.spec, self._identity(), self._dialect)
            self.record = None if path is None else str(path)
        return self.calibration

    def _ask_probe(self, probe: Probe) -> list[str]:
        position = Position.from_fen(probe.fen, chess960=probe.chess960)
        self.log.add(">", f"(calibration: {probe.title}, depth {probe.depth})")
        self._doing = f"learning how {self.name} prints its divide ({probe.number} of {probe.of})"
        outside = self._running is None                  # calibrate() or prepare(), not a call
        if outside:
            self._running = (self.calls, time.monotonic())
        timeout = self.timeout
        if probe.bound is not None:          # the Chess960 probe: seconds, not the whole timeout
            self.timeout = min(timeout, probe.bound)
        try:
            sent, lines = self._exchange(Call(Request.at(position), probe.depth), expected=probe)
        finally:
            self.timeout = timeout
            self._doing = ""
            if outside:
                self._running = None
        probe.sent = sent
        return lines

    def adopt_dialect(self, other: ProgramOracle):
        """Read answers in the dialect `other` has already learned (a new process for the same
        program, e.g. one per run for locate's coverage): no calibration of its own."""
        if other.dialect is not None:
            self._dialect, self._saved = other.dialect, other._saved

    def prepare(self):
        """Load or learn the dialect now rather than in the first call (whose time it would
        otherwise include: a race times every call)."""
        with self._lock:
            self._ensure_dialect()

    def _ensure_dialect(self):
        if self._dialect is not None:
            return
        saved = dialect_store.load(self.spec, self._identity())
        if saved is not None:
            self._dialect, self._saved = saved, True
        else:
            self._calibrate()

    def _answer(self, call: Call):
        self._ensure_dialect()
        if call.position.chess960 and self._dialect.chess960 is False:
            raise CalibrationError(f"{self.name} does not take Chess960 positions (its calibration, its "
                                   f"engine file or its spec says so): {call.position.fen()}")
        sent, lines = self._exchange(call, expected=None)
        try:
            return read_answer(self.name, sent, lines, call, self._dialect)
        except EngineUnreadable:
            if not self._saved:
                raise
            self.log.add("!", "the answer does not fit the saved dialect: calibrating again")
            self._calibrate()
            return read_answer(self.name, sent, lines, call, self._dialect)

    def _exchange(self, call: Call, expected: Probe | None) -> tuple[str, list[str]]:
        raise NotImplementedError

    def _stream(self, expected) -> str:
        """Where this answer is read: both streams while a dialect is being learned (calibration
        finds out which carries it), else the dialect's."""
        if expected is not None and not self._given:
            return "both"
        return self._dialect.stream if self._dialect is not None else "stdout"

    def _identity(self) -> str:
        return ""


def read_answer(name: str, sent: str, lines: list[str], call: Call, dialect: Dialect) -> Answer:
    """The engine's lines for `call` (what it was `sent`) read in `dialect`. Chess960 positions
    keep castling as king takes rook; standard ones read it as the king's two-square move."""
    position = call.position
    parsed = read_divide(lines, position.fen(), dialect, name, sent, depth=call.depth, chess960=position.chess960,
                         moves_sent=call.moves)
    return Answer(parsed.moves, parsed.nodes, parsed)

