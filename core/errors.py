"""Errors a user can cause, each with a one-line message naming what is wrong."""


class PerftscopeError(Exception):
    """Base for user-facing errors: the CLI prints str(e) on one line and exits 2."""


class FenError(PerftscopeError, ValueError):
    """A FEN that cannot be read or describes an impossible position."""


class MoveError(PerftscopeError, ValueError):
    """A move that is malformed or not legal in its position."""


class SuiteError(PerftscopeError, ValueError):
    """A position-suite file that cannot be read."""


class EngineError(PerftscopeError):
    """A reference engine that is missing, died, hung or answered nonsense."""


class OracleCancelled(EngineError):
    """A request stopped by cancel() or close() from another thread."""


class EngineFailed(EngineError):
    """An engine that stopped answering in the middle of a call: crashed, hung or flooded.
    When it is the engine under test, the mismatch finder reports this as a finding."""


class EngineCrashed(EngineFailed):
    """The engine exited (or closed its output) before finishing its answer.

    `own_error`: its last meaningful stderr line(s), runtime trailers dropped;
    `command`: the command line (or the line sent) that it failed on."""

    def __init__(self, message: str, own_error: str = "", command: str = ""):
        super().__init__(message)
        self.own_error = own_error
        self.command = command


class EngineTimeout(EngineFailed):
    """No complete answer within the per-call timeout; `seconds` is how long it was given."""

    def __init__(self, message: str, seconds: float = 0.0):
        super().__init__(message)
        self.seconds = seconds


class EngineFlood(EngineFailed):
    """More output in one call than the caps allow (lines or bytes): most likely a loop."""
