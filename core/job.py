"""Long work, one shape: a perft run, the finder, an engine session (suite or fuzz), a race and
locate are each a Job, and the CLI and the window run any of them the same way.

    job = SomeJob(settings)            # typed, frozen settings; a bad setting fails here, once
    result = job.run(emit)             # on a worker thread, until done or stop(); emit(event) as it goes
    job.stop()                         # from any thread, returns at once; run() ends soon with what it has
    job.activity()                     # one line on what is being waited for now, or None (polled)
    job.subject                        # the position and engines every event and the result belong to

A job never touches Qt and never prints: events are plain objects handed to `emit` from the
thread that runs it (the CLI prints them, the window's JobController posts them to the GUI
thread); `Progress` is the event of how far it is, and a job that names its subject better once
it has started (the engines as their processes call themselves) emits the new Subject. The
result is a typed object the job defines; an error the user must see is raised as a
core.errors.PerftscopeError (one line) and is the job's whole outcome.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Protocol, TypeVar

R = TypeVar("R", covariant=True)

Emit = Callable[[object], None]


def ignore(event: object) -> None:
    """The emit of a caller that wants only the result."""


@dataclass(frozen=True)
class Subject:
    """What a result belongs to, as its caption says it: the position (a FEN and the moves played
    from it) and the engines by name (the engine under test first, then the reference or the
    other racers). A position-free job (a race on several positions) names them in `what`."""
    fen: str | None = None
    moves: tuple[str, ...] = ()
    engines: tuple[str, ...] = ()
    what: str = ""

    def caption(self) -> str:
        parts = [self.what] if self.what else []
        if self.fen is not None:
            parts.append(self.fen + (f" + {' '.join(self.moves)}" if self.moves else ""))
        if self.engines:
            parts.append(self.engines_line())
        return " · ".join(parts)

    def engines_line(self) -> str:
        """The engines as a caption names them: "mine against core", the other racers after."""
        return " against ".join(self.engines[:2]) + "".join(f", {e}" for e in self.engines[2:])


@dataclass(frozen=True)
class Progress:
    """How far a job is: `done` of `total` units (None: not known ahead) and a line saying it."""
    done: int
    total: int | None
    text: str


class Job(Protocol[R]):
    subject: Subject

    def run(self, emit: Emit = ignore) -> R: ...

    def stop(self) -> None: ...

    def activity(self) -> str | None: ...
