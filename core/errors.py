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
