"""The engine sessions (suite and fuzz) as a core.job.Job: typed settings, each finding as it
comes, the engine being waited for as the activity, a SessionOutcome as the result.

    job = SessionJob(pair, FuzzSettings(seed=1, depth=2, seconds=30))
    outcome = job.run(print)        # each Finding (alike ones merged) and a Progress per position
"""
from __future__ import annotations

import threading
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Iterable

from ..engines.pair import EnginePair
from ..job import Emit, Progress, Subject, ignore
from .findings import Finding, merge
from .shrink import DEFAULT_SHRINK_CALLS

if TYPE_CHECKING:
    from ..counting.suites import SuiteEntry


@dataclass(frozen=True)
class SuiteSettings:
    """Every position of a bundled suite (`suite`: its file name in perftscope.resources), or of
    `entries` read from a file of the user's (`suite` then its name; an iterable, so a file of any
    length is streamed in bounded memory), each depth the file
    gives up to `max_depth` and within `max_nodes`, on `jobs` engine processes, each failing
    position shrunk with up to `shrink_calls` engine calls; `cases`: each position's Case an event
    as it ends; `keep_passed`: the passed Cases kept (a long text report keeps the failures only)."""
    suite: str
    max_depth: int | None = 2
    jobs: int = 2
    chess960: bool = False        # every position read as Chess960 (the window's box)
    entries: Iterable[SuiteEntry] | None = None
    max_nodes: int | None = None
    shrink_calls: int = DEFAULT_SHRINK_CALLS
    cases: bool = False
    keep_passed: bool = True


@dataclass(frozen=True)
class FuzzSettings:
    """Edge positions and biased random play drawn from `seed`, each compared at `depth`, for
    `seconds` (None: no time limit) or `positions` positions, until the `first` finding if asked,
    each finding shrunk with up to `shrink_calls` engine calls."""
    seed: int = 1
    depth: int = 2
    seconds: float | None = 30.0
    chess960: bool = False        # Chess960 castling positions and play from the 960 starts
    positions: int | None = None
    first: bool = False
    shrink_calls: int = DEFAULT_SHRINK_CALLS


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
        from .fuzz import Fuzzer
        from .suite_run import SuiteRun

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
            session = SuiteRun(entries, self.pair, jobs=settings.jobs, max_depth=settings.max_depth,
                               max_nodes=settings.max_nodes, shrink_calls=settings.shrink_calls,
                               on_case=emit if settings.cases else None, keep_passed=settings.keep_passed,
                               on_finding=found, on_position=tested)
            said = f"{settings.suite}{' as Chess960' if settings.chess960 else ''}: "
        else:
            session = Fuzzer(self.pair, seed=settings.seed, depth=settings.depth, seconds=settings.seconds,
                             positions=settings.positions, first=settings.first, shrink_calls=settings.shrink_calls,
                             on_finding=found, on_position=tested, chess960=settings.chess960)
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
