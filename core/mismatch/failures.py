"""How an engine failed a call, said one way everywhere: the finder's reports, findings, suites
and race heats word a failure through this table, so "hung" in one place is never "timed out" in
another.

    >>> failure_kind(EngineTimeout(...)), WORDS["timeout"], at_path(())
    ('timeout', 'hung', 'at the root')

A failure's kind is the EngineFailed's own (`crash` only for a process that died; `timeout`,
`flood`, `refused`, `unreadable`), or `error` for any other EngineError: an answer that cannot be
used, an engine that cannot start.
"""
from __future__ import annotations

from ..errors import EngineError, EngineFailed, EngineFlood, EngineTimeout

# kind -> what the engine did, as every report says it
WORDS = {
    "crash": "crashed",
    "timeout": "hung",
    "flood": "flooded its output",
    "refused": "refused the request",
    "unreadable": "answered what cannot be read",
    "error": "failed",
}
# the same in the present tense, for what an engine does wherever it is asked ("crashes on the
# start position")
DOES = {
    "crash": "crashes",
    "timeout": "hangs",
    "flood": "floods its output",
    "refused": "refuses the request",
    "unreadable": "answers what cannot be read",
    "error": "fails",
}
ENGINE_FAILED = ("crash", "timeout", "flood", "refused", "unreadable")   # a call that broke off


def failure_kind(error: EngineError) -> str:
    """The kind of a failed call: the EngineFailed's own, else 'error'."""
    if not isinstance(error, EngineFailed):
        return "error"
    kind = getattr(error, "kind", "") or ("timeout" if isinstance(error, EngineTimeout) else
                                           "flood" if isinstance(error, EngineFlood) else "crash")
    return kind if kind in ENGINE_FAILED else "error"


def word(kind: str) -> str:
    """'crashed', 'hung', ... for a kind; 'failed' for one not in the table."""
    return WORDS.get(kind, WORDS["error"])


def at_path(path) -> str:
    """Where a call failed: 'at the root' or 'at path e2e4 e7e5'."""
    return f"at path {' '.join(path)}" if path else "at the root"
