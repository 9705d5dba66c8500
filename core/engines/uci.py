"""UCI engines: `uci:PATH`, Stockfish, or an engine file with `protocol = "uci"` and `go perft`.

    uci                          until uciok; the options the mode asks for (threads, hash)
    isready                      until readyok, after the start and after every answer
    setoption name UCI_Chess960 value true|false    only when the next position needs it changed
    position fen F moves ...
    go perft D                   read up to its total line

An engine that starts a search instead (`info depth ...`, `bestmove ...`) has no `go perft` and is
said so at once; one that stays silent is told `stop` after 1 s and, while calibrating, asked
`isready` 0.5 s later: a `readyok` before any answer says it ignored `go perft`.
"""
from __future__ import annotations

import os
import re
from dataclasses import replace

from ..errors import CalibrationError, EngineTimeout
from .dialogue import UCI, ConsoleProtocol, Dialogue, InteractiveOracle, Perft, Until, refuses_command
from .mode import Mode
from .oracle import DEFAULT_TIMEOUT
from .process import executable
from .spec import Spec, spec_of

_NO_GO_PERFT = re.compile(r"^(info\s+(depth|seldepth|score|nodes|nps|time|pv|currmove|multipv|hashfull)\b|bestmove\b)")
NO_PERFT_WAIT = 1.0            # seconds a UCI engine may stay silent after `go perft` before it is told to stop
# ... and, while calibrating (small positions at depth 2, answered in milliseconds by any perft),
# seconds of silence after `stop` before it is asked `isready`: a `readyok` before any answer says
# that it ignored `go perft`, as UCI tells engines to do with a command they do not know
NO_PERFT_READY = 0.5
# the advice to an engine without the protocol's perft: many have none at all (Glaurung, Toga II,
# GNU Chess, Phalanx, HoiChess), so a perft command is not presumed
OWN_PERFT = ("if it counts perft with a command of its own, describe that in an engine file "
             "(see docs/connect-your-engine.md)")


class UciPerft(Perft):
    """`go perft N` and its answer, telling an engine that has no `go perft` from one that is
    slow: a search's first line, or (calibrating, before it ever answered one) silence through
    `stop` and a `readyok` at once."""

    def __init__(self, protocol, *args):
        super().__init__(protocol, *args)
        self.go = (protocol.dialogue.divide or "").startswith("go ")
        # `isready` tells an ignored `go perft` only before it ever answered one: later, silence
        # with a `readyok` is a hang of its own (one that hangs on a Chess960 FEN, say)
        self.calibrating = self.holds is not None and not protocol.answered
        self.stop_sent = self.ready_sent = False
        self.heard = False         # a meaningful line of this answer (not `info string`) was read

    def quiet(self):
        # silent after `go perft`: nudge it once with `stop` (a searching engine then says bestmove)
        if not self.result and self.go:
            if not self.stop_sent:
                return NO_PERFT_WAIT
            if self.calibrating and not self.ready_sent:
                return NO_PERFT_READY
        return super().quiet()

    def silence(self, engine):
        if self.result or not self.go:
            self.done = True
        elif not self.stop_sent:
            self.stop_sent = True
            engine.send("stop", self.what)
        elif self.calibrating and not self.ready_sent:
            self.ready_sent = True
            engine.send("isready", self.what)
        else:
            self.done = True

    def check(self, engine, line):
        super().check(engine, line)
        if self.heard:             # only the first meaningful line tells a search from a perft
            return
        name = self.protocol.name
        if self.go and _NO_GO_PERFT.match(line.strip()):
            engine.send("stop", self.what)
            engine.kill()
            raise CalibrationError(f"{name} has no `go perft` (it answered {line.strip()!r}): {OWN_PERFT}")
        if self.go and self.ready_sent and line.strip() == "readyok":
            engine.kill()
            raise CalibrationError(f"{name} has no `go perft` (it said nothing to {self.what} nor to `stop`, "
                                   f"and answered `isready` at once): {OWN_PERFT}")
        self.heard = bool(line.strip()) and not line.startswith("info string")


class UciHandshake(Until):
    """`uci` until `uciok`, for a program that may not speak UCI: one that says it does not know
    `uci` (an xboard engine takes it for a move: `Illegal move: uci`) is told so at once, and one
    that stays silent is asked, in the timeout's message, whether it speaks UCI."""

    def __init__(self, protocol: ConsoleProtocol):
        d = protocol.dialogue
        super().__init__(d.start, d.start_until)
        self.name, self.path = protocol.name, d.command[0]

    def line(self, engine, line):
        refused = [w for w in self.lines if refuses_command(line, w)]
        if refused:
            engine.kill()
            raise CalibrationError(f"{self.name} does not speak UCI (it answered {line.strip()!r} to "
                                   f"`{refused[0]}`): for an xboard engine use xboard:{self.path}")
        super().line(engine, line)

    def timed_out(self, engine, error):
        return EngineTimeout(f"{error}; does it speak UCI? (for an xboard engine use xboard:{self.path})",
                             error.seconds)


class UciProtocol(ConsoleProtocol):
    """UCI: the dialogue's lines, `UCI_Chess960` switched when a position needs it (every UCI
    engine starts with it false; castling is then written king takes rook), `go perft`."""
    perft = UciPerft

    def start(self):
        self.chess960 = False
        super().start()

    def handshake(self):
        return UciHandshake(self)

    def request_lines(self, call):
        lines = super().request_lines(call)
        if call.position.chess960 == self.chess960:
            return lines
        self.chess960 = not self.chess960
        return [f"setoption name UCI_Chess960 value {'true' if self.chess960 else 'false'}"] + lines


class UciOracle(InteractiveOracle):
    """A UCI engine answering `go perft N`, started once and kept running between requests."""
    speaks = UciProtocol

    def __init__(self, path: str, name: str | None = None, timeout: float = DEFAULT_TIMEOUT,
                 spec: Spec | None = None, dialogue: Dialogue = UCI, mode: Mode | None = None):
        name = name or os.path.basename(path)
        if not dialogue.command:                 # an engine file's command is already resolved
            dialogue = replace(dialogue, command=(executable(path, name),))
        super().__init__(spec or spec_of("uci", path), name, dialogue, timeout, mode)
        self.path = self.dialogue.command[0]
