"""Suite and fuzz sessions for the Test-engine tab: a core.mismatch.session_job.SessionJob on the engines
and timeout of the window's engine selection, run by the tab's JobController. Each finding is
merged into the model's "test" state and shown as it is found, the job's activity is the status
line (positions done, findings, which engine call is running), and Stop kills the engine
processes so the session ends at once. Nothing here blocks the GUI thread."""
from __future__ import annotations

from PySide6.QtCore import Signal

from perftscope.core.errors import EngineError

from .job_control import JobTab


class EngineTestController(JobTab):
    """`selection` is the window's widgets.reference.EngineSelection: a session runs on what it
    holds when Start is pressed (core.engines.pair.EnginePair, the timeout included); `chess960()`
    says whether it plays Chess960 (the window's box, as the divide tab reads it from the board)."""
    openRequested = Signal(object, object)      # a finding, the EnginePair its session ran on
    locateRequested = Signal(object, int)       # *Which line?* on a finding: its app.model.Origin, its depth

    def __init__(self, bridge, panel, selection, state, chess960=lambda: False, parent=None):
        super().__init__(bridge, panel, state, parent)
        self.selection = selection
        self.chess960 = chess960       # the window's Chess960 box, read when Start is pressed
        panel.openRequested.connect(lambda finding: self.openRequested.emit(finding, self.state.given))
        panel.locateRequested.connect(self.locate)

    def origin(self, finding):
        """The engines `finding` was found with (its session's, whatever is chosen now) and its position."""
        from perftscope.core.engines.oracle import Request

        from .model import Origin
        return Origin(self.state.given, Request.of(finding.fen))

    def locate(self, finding):
        """*Which line?* on a finding: its own engines and position, at its depth."""
        self.locateRequested.emit(self.origin(finding), finding.depth)

    def start(self, settings):
        """A session with the panel's `settings` (SuiteSettings or FuzzSettings) on the selection's engines."""
        from dataclasses import replace

        from perftscope.core.mismatch.session_job import SessionJob
        if self.jobs.running:
            return
        try:
            pair = self.selection.pair()
        except EngineError as e:
            self.state.fail(str(e))
            return
        settings = replace(settings, chess960=self.chess960())
        self.jobs.start(SessionJob(pair, settings), f"Starting {pair.engine.text}…", given=pair,
                        on_event=self.found, on_result=self._result)

    def found(self, finding):
        """A finding into the tab's state, which the panel shows: one alike already there (the same
        class, minimal position and moves, from another position) is counted on its row."""
        from perftscope.core.mismatch.findings import merge
        self.state.add(finding, merge)

    def _result(self, outcome) -> tuple[str, bool]:
        return f"{outcome.engine} against {outcome.reference}: {outcome.text}", bool(self.state.items)

    def close(self):
        self.jobs.close()
