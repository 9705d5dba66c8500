"""The finder's workflow for the window: core.mismatch.find_job.FindJob on the engine and the reference
of the divide tree, run by the finder tab's JobController like every long work: its progress and
the engine call it waits for (the job's activity) in the model's "find" state, each level handed
to whoever shows it as it arrives (with the path to its position), the report kept in that state.
Stop (the Finder report's, or the divide tree's) stops the job: its running engine calls are
killed and the report found so far arrives, `cancelled`.

A controller in git-cola's sense: it holds the search's flow, panels only watch the state.
Nothing here blocks the GUI thread.
"""
from __future__ import annotations

from PySide6.QtCore import Signal

from .bridge import Bridge, DivideService
from .job_control import JobTab


class FinderController(JobTab):
    """`panel` the Finder report (it watches `state`, the model's "find" JobState, and has Stop);
    the search is started by the divide tree's controller (app.dividing), which roots the tree first."""
    panel_starts = False
    level = Signal(object, object)     # path to the level's position (tuple), core.mismatch.finder.Level
    found = Signal(object)             # core.mismatch.finder.Report (also when the engine failed part way)
    failed = Signal(str)               # one line: the finder could not run at all

    def __init__(self, bridge: Bridge, divides: DivideService, panel, state, parent=None):
        super().__init__(bridge, panel, state, parent)
        self.divides = divides
        self.jobs.finished.connect(self.found)
        self.jobs.failed.connect(self.failed)

    @property
    def report(self):
        """The last finished report (None before one, or after a failure)."""
        return self.state.result

    @property
    def origin(self):
        """The engines and position (app.model.Origin) of the search shown (None before one)."""
        return self.state.given

    def start(self, origin):
        """Search from `origin` (an app.model.Origin: the tree's engines and root Request, the
        depth); a search still running is abandoned."""
        from perftscope.core.mismatch.find_job import FindJob, FindSettings
        self.cancel()
        divides, pair = self.divides, origin.pair
        job = FindJob(FindSettings(origin.request, origin.depth), lambda: divides.oracles(pair),
                      (pair.engine_name, pair.reference_name))
        self.jobs.start(job, "", given=origin, on_event=self._level, on_result=self._result)

    def fail(self, message: str):
        """The search cannot start (the engines chosen cannot be read)."""
        self.cancel()
        self.state.fail(message)
        self.failed.emit(message)

    def replay(self, report, origin=None):
        """Deliver a finished search's levels and report as the search did, with no engine
        call (a Test-engine finding opened in the tree), `origin` the engines and position it
        was found with."""
        self.cancel()
        self.state.begin(None, "", given=origin)
        for level in report.levels:
            self._level(level)
        self.state.end(report, "")
        self.found.emit(report)

    def restore(self, report, origin=None):
        """A saved session's report, found with `origin`'s engines (None: not known)."""
        self.cancel()
        self.state.begin(None, "", given=origin)
        self.state.end(report, "")

    def cancel(self):
        """Stop the search and deliver nothing more of it (a new tree replaces it)."""
        self.jobs.abandon()

    def close(self):
        self.jobs.close()

    def _result(self, report) -> tuple[str, bool]:
        return ("search stopped" if report.cancelled else "", False)

    def _level(self, level):
        path = self.state.items                 # moves descended so far, from the search's position
        where = tuple(path)
        if level.chosen:
            path.append(level.chosen)
        self.level.emit(where, level)
