"""How an engine failed a call, one type said one way everywhere: the finder's reports, findings,
suites and race heats hold a Failure and word it through this one table, so "hung" in one place
is never "timed out" in another, and a summary's class for it is never a second label.

    >>> failure_kind(EngineTimeout(...)), word("timeout"), FAILURE_KINDS["timeout"].label, at_path(())
    ('timeout', 'hung', 'timeout', 'at the root')

A failure's kind is the EngineFailed's own (`crash` only for a process that died; `timeout`,
`flood`, `refused`, `unreadable`), or `error` for any other EngineError: an answer that cannot be
used, an engine that cannot start.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from ..errors import EngineCrashed, EngineError, EngineFailed, EngineFlood, EngineTimeout


@dataclass(frozen=True)
class FailureKind:
    word: str       # what the engine did, as every report says it: "crashed"
    label: str      # the class a summary lists a finding of this kind under: "crash"
    does: str       # the same in the present tense, for what it does wherever it is asked: "crashes"


FAILURE_KINDS = {
    "crash": FailureKind("crashed", "crash", "crashes"),
    "timeout": FailureKind("hung", "timeout", "hangs"),
    "flood": FailureKind("flooded its output", "output flood", "floods its output"),
    "refused": FailureKind("refused the request", "refuses a legal position or move", "refuses the request"),
    "unreadable": FailureKind("answered what cannot be read", "answer that cannot be read",
                              "answers what cannot be read"),
    "error": FailureKind("failed", "failure", "fails"),
}
ENGINE_FAILED = ("crash", "timeout", "flood", "refused", "unreadable")   # a call that broke off


def failure_kind(error: EngineError) -> str:
    """The kind of a failed call: the EngineFailed's own, else 'error'."""
    if not isinstance(error, EngineFailed):
        return "error"
    kind = getattr(error, "kind", "") or ("timeout" if isinstance(error, EngineTimeout) else
                                           "flood" if isinstance(error, EngineFlood) else "crash")
    return kind if kind in ENGINE_FAILED else "error"


def finding_kind(kind: str) -> str:
    """The class of a finding about an engine that failed a call of `kind`: the kind itself for a
    call that broke off; any other failure of the engine under test (an answer that cannot be
    used) is an answer that cannot be read. The one fallback for every finding."""
    return kind if kind in ENGINE_FAILED else "unreadable"


def word(kind: str) -> str:
    """'crashed', 'hung', ... for a kind; 'failed' for one not in the table."""
    return FAILURE_KINDS.get(kind, FAILURE_KINDS["error"]).word


def does(kind: str) -> str:
    """'crashes', 'hangs', ... for a kind ("it crashes on the start position"); 'fails' for one not in the table."""
    return FAILURE_KINDS.get(kind, FAILURE_KINDS["error"]).does


def at_path(path) -> str:
    """Where a call failed: 'at the root' or 'at path e2e4 e7e5'."""
    return f"at path {' '.join(path)}" if path else "at the root"


@dataclass(frozen=True)
class Failure:
    """An engine call that failed. `side`: 'engine' (the engine under test) or 'reference';
    `kind`: how a call that broke off failed ('crash', 'timeout', 'flood', or the error's own
    `kind`), or 'error' for any other EngineError (an answer that cannot be used, an engine that
    cannot start); `message`: one line naming the engine and where it failed; `own_error`: the
    engine's own error line (else the message); `command`: the command line it failed on; `path`:
    the moves from the root FEN to the position it was asked about."""
    side: str
    kind: str
    message: str
    own_error: str = ""
    command: str = ""
    path: tuple[str, ...] = ()
    error: EngineError | None = field(default=None, compare=False, repr=False)   # as it was raised

    @classmethod
    def of(cls, error: EngineError, engine: str, where: str, side: str = "engine", path=(),
           kind: str | None = None, named: bool = True) -> Failure:
        """`engine`'s failed call `error`, said as "<engine> <what it did> <where>: <why>": a crash
        by the engine's own error line, anything else by the error's message (a hang: how long it
        was waited for, and for what). `kind`: when the caller knows better than the error (the
        finder's calibration). named=False: the message leaves the engine's name out (a race
        heat's row names it already)."""
        kind = kind or failure_kind(error)
        own = getattr(error, "own_error", "") or ""
        did = kind
        if isinstance(error, EngineCrashed):
            did, why = "crash", own or str(error)     # a process that died crashed, whatever it meant
        else:
            why = str(error)
            if why.startswith(f"{engine}: "):
                why = why[len(engine) + 2:]
        said = f"{word(did)} {where}: {why}"
        return cls(side, kind, f"{engine} {said}" if named else said, own or str(error),
                   getattr(error, "command", "") or "", tuple(path), error)

    @property
    def word(self) -> str:
        """What the engine did, as every report says it: crashed, hung..."""
        return word(self.kind)

    @property
    def finding_kind(self) -> str:
        return finding_kind(self.kind)

    @property
    def is_finding(self) -> bool:
        """The engine under test crashed, hung or flooded: something found out about it, not a
        failure of the comparison."""
        return self.side == "engine" and self.kind != "error"

    def to_json(self) -> dict:
        return {"side": self.side, "kind": self.kind, "message": self.message, "own_error": self.own_error,
                "command": self.command, "path": list(self.path)}

    @classmethod
    def from_json(cls, data: dict) -> Failure:
        return cls(data["side"], data["kind"], data["message"], data.get("own_error", ""),
                   data.get("command", ""), tuple(data.get("path", ())))
