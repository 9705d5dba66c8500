"""The finder as a core.job.Job: typed settings, each Level as it is divided, the Report as the result.

    job = FindJob(FindSettings(Request.of(fen), depth=3), lambda: (engine, reference), ("mine", "core"))
    report = job.run(print)         # each Level as it is divided, then a Progress (levels of depth)
"""
from __future__ import annotations

import threading
from dataclasses import dataclass
from typing import Callable

from ..engines.oracle import Oracle, Request, waiting_for
from ..job import Emit, Progress, Subject, ignore
from .finder import Report, find_mismatch


@dataclass(frozen=True)
class FindSettings:
    """Where the search starts (a Request: the position checked once, the moves played from it)
    and at which depth."""
    request: Request
    depth: int


class FindJob:
    """find_mismatch as a Job: `oracles()` gives (engine, reference) on the job's thread (starting
    an engine can fail: that is the run's error); `engines` name them for the Subject. Each Level
    is an event, followed by a Progress (levels divided of at most `depth`, no words: the CLI
    prints the levels themselves); stop() ends the search before its next engine call and cancels
    the call running (OracleCancelled ends the search: the report so far, `cancelled`);
    activity() says which engine call is waited for and how long."""

    def __init__(self, settings: FindSettings, oracles: Callable[[], tuple[Oracle, Oracle]],
                 engines: tuple[str, ...] = ()):
        self.settings, self._oracles = settings, oracles
        request = settings.request
        self.subject = Subject(request.written, tuple(request.moves), engines)
        self._stopped = threading.Event()
        self._asked: tuple[Oracle, ...] = ()

    def run(self, emit: Emit = ignore) -> Report:
        engine, reference = self._asked = self._oracles()
        depth, levels = self.settings.depth, []

        def level(event):
            levels.append(event)
            emit(event)
            emit(Progress(len(levels), depth, ""))
        return find_mismatch(engine, reference, self.settings.request, depth,
                             progress=level, cancelled=self._stopped.is_set).raise_unless_finding()

    def stop(self):
        self._stopped.set()
        for oracle in self._asked:
            oracle.cancel()

    def activity(self) -> str | None:
        return waiting_for(self._asked) or None
