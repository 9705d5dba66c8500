"""The engine sessions (suite and fuzz) as a core.job.Job: typed settings, each finding as it
comes, the engine being waited for as the activity, a SessionOutcome as the result.

    job = SessionJob(pair, FuzzSettings(seed=1, depth=2, seconds=30))
    outcome = job.run(print)        # each Finding (alike ones merged) and a Progress per position
"""
from __future__ import annotations

import threading
from dataclasses import dataclass, field, replace

from ..engines.pair import EnginePair
from ..job import Emit, Progress, Subject, ignore
from .findings import Finding, merge
from .fuzz import Fuzzer, FuzzSettings
from .suite_run import SuiteRun, SuiteSettings


@dataclass
class SessionOutcome:
    """What a session ended with: its one line (the suite's name first), its findings (alike ones
    merged), and the engines they belong to."""
    text: str
    findings: list[Finding] = field(default_factory=list)
    engine: str = ""
    reference: str = ""


class SessionJob:
    """A suite or a fuzz session on `pair`'s engines. The session, and so the engines' processes,
    is made when the job runs (off the caller's thread); a spec that cannot start fails the run."""

    def __init__(self, pair: EnginePair, settings: SuiteSettings | FuzzSettings):
        self.pair, self.settings = pair, settings
        self.subject = Subject(engines=(pair.engine_name or "", pair.reference_name),
                               what=f"suite {settings.suite}" if isinstance(settings, SuiteSettings)
                               else f"fuzz seed {settings.seed}, depth {settings.depth}")
        self.session = None
        self.found: list[Finding] = []
        self.done = 0
        self._stopped = threading.Event()
        self._lock = threading.Lock()
        self._total: int | None = None

    def run(self, emit: Emit = ignore) -> SessionOutcome:
        from ... import resources
        from ..counting.suites import load

        suite = isinstance(self.settings, SuiteSettings)

        def found(finding: Finding):
            if suite:       # its case's own: counted here on a copy, the case's report (JSON, JUnit) untouched
                finding = replace(finding)
            with self._lock:
                kept = merge(self.found, finding)   # a suite posts one per failing position: alike ones counted
            emit(kept)

        def tested():
            with self._lock:
                self.done += 1
                done = self.done
            emit(Progress(done, self._total, ""))

        settings = self.settings
        if isinstance(settings, SuiteSettings):
            entries = settings.entries if settings.entries is not None else \
                load(resources.path(settings.suite), settings.chess960)
            self._total = len(entries) if hasattr(entries, "__len__") else None
            session = SuiteRun(entries, self.pair, settings, on_case=emit if settings.cases else None,
                               on_finding=found, on_position=tested)
            said = f"{settings.suite}{' as Chess960' if settings.chess960 else ''}: "
        else:
            session = Fuzzer(self.pair, settings, on_finding=found, on_position=tested)
            said = ""
        self.session = session
        # the engines as their oracles name themselves, which is how findings name them
        self.subject = replace(self.subject, engines=(session.engine_name, session.reference_name))
        emit(self.subject)
        if self._stopped.is_set():          # a stop that came while the session was being made
            session.stop()
        try:
            session.run()
        finally:
            session.close()
        with self._lock:
            findings = list(self.found)
        return SessionOutcome(said + session.summary(), findings, session.engine_name, session.reference_name)

    def stop(self):
        """End the session now: running engine calls are killed, nothing more is tested."""
        self._stopped.set()
        session = self.session
        if session is not None:
            session.stop()

    def activity(self) -> str | None:
        session = self.session
        if session is None:
            return None
        engine, reference = session.engine_name, session.reference_name
        what = "suite positions" if isinstance(self.settings, SuiteSettings) else "positions"
        with self._lock:
            done, found = self.done, len(self.found)
        text = f"Testing {engine} against {reference}: {done} {what} done, {found} finding{'s' * (found != 1)}"
        current = session.activity()
        if current is not None:
            text += f"; {current.words(engine)}"
        return text
