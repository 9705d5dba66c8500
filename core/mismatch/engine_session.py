"""A session testing an engine at scale, whatever it walks (a suite's positions, fuzz's edge
positions and random play): what the CLI and the GUI's Test-engine tab see of it.

    session.run()          # until its end or stop()
    session.stop()         # from any thread: running engine calls are killed, nothing more is tested
    session.activity()     # the engine call running longest now (for a status line), or None
    session.findings       # so far
    session.summary()      # one line: what was tested, what was found

A session is given a core.engines.pair.EnginePair and makes its own oracles from it (a spec
that cannot start fails when the session is made, before anything runs), closes them at the
end, and calls `on_finding(finding)` as each finding is made and `on_position()` after each
position, from the thread that runs it.
"""
from __future__ import annotations

import threading
from typing import Callable

from ..engines.oracle import Oracle
from ..engines.pair import EnginePair
from ..engines.process import Activity
from .findings import Finding


class EngineSession:
    """The common part of SuiteRun and Fuzzer: the oracles, stopping, activity, the hooks."""

    def __init__(self, pair: EnginePair, on_finding: Callable[[Finding], None] | None = None,
                 on_position: Callable[[], None] | None = None):
        self.pair = pair
        self.on_finding, self.on_position = on_finding, on_position
        self.stopped = threading.Event()
        self._lock = threading.Lock()
        self._engines: list[Oracle] = []
        self._oracles: list[Oracle] = []
        engine, reference = self.new_oracles()        # a bad spec fails here, with its own message
        self.engine_name, self.reference_name = engine.name, reference.name
        self._spare = [(engine, reference)]

    def new_oracles(self) -> tuple[Oracle, Oracle]:
        """An engine and a reference of their own (one process each), stopped and closed with the session."""
        engine, reference = self.pair.make_both()
        with self._lock:
            self._engines.append(engine)
            self._oracles += [engine, reference]
        if self.stopped.is_set():                     # stop() came while they were starting
            engine.cancel()
            reference.cancel()
        return engine, reference

    def take_oracles(self) -> tuple[Oracle, Oracle]:
        """The pair made when the session was, for its first user; new ones after that."""
        with self._lock:
            spare = self._spare.pop() if self._spare else None
        return spare or self.new_oracles()

    def stop(self):
        """End the session at once: running engine calls are killed, nothing more is tested."""
        self.stopped.set()
        with self._lock:
            oracles = list(self._oracles)
        for oracle in oracles:
            oracle.cancel()

    def activity(self) -> Activity | None:
        """The engine call that has been running longest, None when none is."""
        with self._lock:
            engines = list(self._engines)
        running = [a for a in (e.activity() for e in engines) if a is not None]
        return max(running, key=lambda a: a.seconds) if running else None

    def close(self):
        with self._lock:
            oracles, self._oracles, self._engines, self._spare = self._oracles, [], [], []
        for oracle in oracles:
            oracle.close()

    def found(self, finding: Finding):
        if self.on_finding is not None:
            self.on_finding(finding)

    def tested(self):
        if self.on_position is not None:
            self.on_position()

    @property
    def findings(self) -> list[Finding]:
        raise NotImplementedError

    def run(self):
        raise NotImplementedError

    def summary(self) -> str:
        raise NotImplementedError
