"""The finder's workflow for the window: start core.mismatch.finder on the engine and the reference,
hand each level to whoever shows it as it arrives, and the report at the end.

A controller in git-cola's sense: it holds the search's state and flow, panels only show
what it emits and ask it for work. Nothing here blocks the GUI thread.
"""
from __future__ import annotations

from PySide6.QtCore import QObject, Signal

from .bridge import Bridge, DivideService, Job


class FinderController(QObject):
    level = Signal(object, object)     # path to the level's position (tuple), core.mismatch.finder.Level
    found = Signal(object)             # core.mismatch.finder.Report (also when the engine failed part way)
    failed = Signal(str)               # one line: the finder could not run at all

    def __init__(self, bridge: Bridge, divides: DivideService, parent=None):
        super().__init__(parent)
        self.bridge, self.divides = bridge, divides
        self.job: Job | None = None
        self.path: list[str] = []      # moves descended so far, from the search's position
        self.report = None             # the last finished report

    @property
    def running(self) -> bool:
        return self.job is not None

    def start(self, fen: str, depth: int, moves=()):
        """Search from `fen` + `moves` at `depth`; a search still running is abandoned."""
        from perftscope.core.mismatch.finder import find_mismatch
        self.cancel()
        self.path, self.report = [], None
        self.job = job = self.divides.track(Job())
        pair, divides = self.divides.pair, self.divides

        def work():
            engine, reference = divides.oracles(pair)
            return find_mismatch(engine, reference, divides.as_written(fen), list(moves), depth,
                                 progress=lambda lv: self.bridge.post(job, self._level, lv),
                                 cancelled=lambda: job.cancelled).raise_unless_finding()

        self.bridge.submit(work, self._found, self._failed, job=job)

    def replay(self, report):
        """Deliver a finished search's levels and report as the search did, with no engine
        call (a Test-engine finding opened in the tree)."""
        self.cancel()
        self.path = []
        for level in report.levels:
            self._level(level)
        self._found(report)

    def cancel(self):
        """Stop delivering this search's results; the caller cancels the oracles' calls."""
        if self.job is not None:
            self.job.cancel()
            self.job = None

    def _level(self, level):
        where = tuple(self.path)
        if level.chosen:
            self.path.append(level.chosen)
        self.level.emit(where, level)

    def _found(self, report):
        self.job, self.report = None, report
        self.found.emit(report)

    def _failed(self, message: str):
        self.job = None
        self.failed.emit(message)
