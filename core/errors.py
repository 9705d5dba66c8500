"""Errors a user can cause, each with a one-line message naming what is wrong."""


class PerftscopeError(Exception):
    """Base for user-facing errors: the CLI prints str(e) on one line and exits 2."""


class FenError(PerftscopeError, ValueError):
    """A FEN that cannot be read or describes an impossible position.

    `chess960`: standard chess refuses it but it is a valid Chess960 position (X-FEN rights with
    the kings on e1/e8 and a rook off its corner). Its message then ends with how to say that the
    position is Chess960, `{chess960}` in the template: str() writes it in words, spelled() as the
    caller says it (the CLI's `add --960`, the window's Chess960 box)."""

    def __init__(self, message: str, chess960: bool = False):
        super().__init__(message)
        self.chess960 = chess960

    def __str__(self):
        return self.spelled("read it as Chess960")

    def spelled(self, how: str) -> str:
        return self.template.replace("{chess960}", how)

    @property
    def template(self) -> str:
        return super().__str__()


class MoveError(PerftscopeError, ValueError):
    """A move that is malformed or not legal in its position."""


class SuiteError(PerftscopeError, ValueError):
    """A position-suite file that cannot be read."""


class EngineError(PerftscopeError):
    """A reference engine that is missing, died, hung or answered nonsense."""


class OracleCancelled(EngineError):
    """A request stopped by cancel() or close() from another thread."""


class EngineFailed(EngineError):
    """An engine that failed a call: crashed, hung, flooded, refused the request or gave an
    answer that cannot be read. When it is the engine under test, the mismatch finder reports
    this as a finding of class `kind`."""
    kind = "crash"


class EngineCrashed(EngineFailed):
    """The engine exited (or closed its output) before finishing its answer.

    `own_error`: its last meaningful stderr line(s), runtime trailers dropped;
    `command`: the command line (or the line sent) that it failed on; `exit_code`: the code it
    exited with (negative: the signal that killed it; None when it did not exit by itself);
    `output`: what it printed before it ended, where the caller kept it (a refusal in its words:
    core.engines.command)."""
    kind = "crash"

    def __init__(self, message: str, own_error: str = "", command: str = "", exit_code: int | None = None,
                 output: tuple[str, ...] = ()):
        super().__init__(message)
        self.own_error = own_error
        self.command = command
        self.exit_code = exit_code
        self.output = output


class EngineTimeout(EngineFailed):
    """No complete answer within the per-call timeout; `seconds` is how long it was given."""
    kind = "timeout"

    def __init__(self, message: str, seconds: float = 0.0):
        super().__init__(message)
        self.seconds = seconds


class EngineFlood(EngineFailed):
    """More output in one call than the caps allow (lines or bytes): most likely a loop."""
    kind = "flood"


class EngineRefused(EngineFailed):
    """The engine refused a position or a move perftscope checked as legal (`Illegal move:
    e1g1`), or answered for another position than the one asked (a move it ignored).
    `own_error`: the engine's own words, when a line of it said so."""
    kind = "refused"

    def __init__(self, message: str, own_error: str = "", command: str = ""):
        super().__init__(message)
        self.own_error = own_error
        self.command = command


class EngineUnreadable(EngineFailed):
    """An answer that does not fit how the engine was learned to print its divide: a line that
    looks like a row but is none, a row listed twice, a number that cannot be read whole, rows
    that do not add up to its own total. The message quotes the line."""
    kind = "unreadable"


class CalibrationError(EngineError):
    """What the engine prints could not be learned from the positions whose answers are known:
    a setup problem (the wrong command, no perft command), not a finding about its moves."""
