"""The finder's workflow for the window: core.mismatch.find_job.FindJob on the engine and the reference
of the divide tree, run by a JobController, each level handed to whoever shows it as it arrives
(with the path to its position), the report kept in the model's "find" state.

A controller in git-cola's sense: it holds the search's flow, panels only show what it emits and
ask it for work. Nothing here blocks the GUI thread.
"""
from __future__ import annotations

from PySide6.QtCore import QObject, Signal

from perftscope.core.errors import PerftscopeError

from .bridge import Bridge, DivideService, Ticket
from .jobs import JobController


class FinderController(QObject):
    level = Signal(object, object)     # path to the level's position (tuple), core.mismatch.finder.Level
    found = Signal(object)             # core.mismatch.finder.Report (also when the engine failed part way)
    failed = Signal(str)               # one line: the finder could not run at all

    def __init__(self, bridge: Bridge, divides: DivideService, state, parent=None):
        super().__init__(parent)
        self.divides, self.state = divides, state
        self.jobs = JobController(bridge, state, self)
        self.jobs.finished.connect(self.found)
        self.jobs.failed.connect(self.failed)

    @property
    def running(self) -> bool:
        return self.jobs.running

    @property
    def report(self):
        """The last finished report (None before one, or after a failure)."""
        return self.state.result

    def start(self, fen: str, depth: int, moves=(), engines: tuple[str, ...] = ()):
        """Search from `fen` + `moves` at `depth`; a search still running is abandoned."""
        from perftscope.core.mismatch.find_job import FindJob, FindSettings
        self.cancel()
        divides, pair, refused = self.divides, self.divides.pair, self.divides.refused
        try:
            # the tree's root Request: the engine under test is sent the FEN as written
            settings = FindSettings(divides.request(fen, moves), depth)
        except PerftscopeError as e:
            self.state.fail(str(e))
            self.failed.emit(str(e))
            return
        job = FindJob(settings, lambda: divides.oracles(pair, refused), engines)
        self.jobs.start(job, "", on_event=self._level, ticket=divides.track(Ticket()))

    def replay(self, report):
        """Deliver a finished search's levels and report as the search did, with no engine
        call (a Test-engine finding opened in the tree)."""
        self.cancel()
        self.state.begin(None, "")
        for level in report.levels:
            self._level(level)
        self.state.end(report, "")
        self.found.emit(report)

    def cancel(self):
        """Stop delivering this search's results; the caller cancels the oracles' calls."""
        self.jobs.abandon()

    def _level(self, level):
        path = self.state.items                 # moves descended so far, from the search's position
        where = tuple(path)
        if level.chosen:
            path.append(level.chosen)
        self.level.emit(where, level)
