"""`perftscope locate` for the Suspect lines tab: a core.locate.job.LocateJob on the engines and
timeout of the window's engine selection and the board's position, or on a result's own engines
and position (a *Which line?* action's app.model.Origin), and the tab's depth, run by the tab's app.job_control.JobController. The runs' progress and the
job's activity are the status line; the result is kept in the model's "locate" state, which the
panel watches (what it locates while it runs, then the result). A suspect clicked puts a failing position that ran it on the board.
*Locate the other bug* beside a fix for this bug (the engine having another) locates again with
the result's settings from the other bug's position. Stop halts the covered engine process at once. Nothing here blocks the GUI thread."""
from __future__ import annotations

from dataclasses import replace

from PySide6.QtCore import Signal

from perftscope.core.errors import PerftscopeError

from .job_control import JobTab


class LocateController(JobTab):
    starting = Signal()                # a locate starts: the window shows the tab

    def __init__(self, bridge, panel, selection, main_model, state, parent=None):
        super().__init__(bridge, panel, state, parent)
        self.selection, self.main_model = selection, main_model
        panel.suspectChosen.connect(self.show_failing)
        panel.locateOther.connect(self.locate_other)

    def start(self, options: dict, origin=None, depth: int | None = None):
        """Locate with the panel's `options` on `origin` (an app.model.Origin: a result's engines and
        position; None: the selection's engines on the board's position) at `depth` (None: the tab's)."""
        from perftscope.core.locate.job import LocateSettings

        from .model import Origin
        if self.jobs.running:
            return
        try:
            if origin is None:
                origin = Origin(self.selection.pair(), self.main_model.board_request())
            pair, request = origin.pair, origin.request
            if pair.engine is None:
                raise PerftscopeError("Choose the engine to locate in first (the Divide tab's engine)")
            settings = LocateSettings(pair.engine, pair.reference, request.written, request.moves,
                                      depth or options["depth"], tuple(options["sources"]),
                                      seconds=options["seconds"], timeout=pair.timeout, runs=options["runs"],
                                      mutants=options.get("mutants"), build=options.get("build", ""))
        except PerftscopeError as e:
            self.state.fail(str(e))
            return
        self._run(settings)

    def locate_other(self, other):
        """Locate the other bug a fix for this one left (a core.locate.mutation.Elsewhere): the shown
        result's engines and settings, from that position at its depth."""
        given = self.state.given
        if other is None or given is None or self.jobs.running:
            return
        settings = replace(given, fen=other.fen, moves=(), depth=other.depth)
        self.main_model.show(settings.request)     # the board shows the position now located
        self._run(settings)

    def _run(self, settings):
        from perftscope.core.locate.job import LocateJob
        try:
            job = LocateJob(settings)
        except PerftscopeError as e:
            self.state.fail(str(e))
            return
        self.starting.emit()
        self.jobs.start(job, f"Locating {job.pair.engine_name}: finding the failing position…", given=settings,
                        on_result=self._result)

    def locate(self, origin, depth: int = 1):
        """*Which line?* on a result: locate on its engines and position (an app.model.Origin) with
        the tab's options."""
        self.start(self.panel.options(), origin, depth)

    def _result(self, result) -> tuple[str, bool]:
        engine, reference = result.subject.engines[:2]
        counts = f"{result.failed} failing, {result.passed} passing runs, {result.seconds:.1f} s"
        if result.agree:
            return f"{engine} and {reference} agree at depth {self.state.given.depth}: nothing to locate", False
        if result.stopped and not result.suspects:
            return f"Locate stopped ({counts}): nothing ranked", False
        top = [s.where for s in result.suspects if s.rank == 1]
        tied = f" (tied with {len(top) - 1} more)" if len(top) > 1 else ""
        fixed = ""
        if result.offered:
            f = result.offered[0]
            fixed = (f"; a fix at {f.file}:{f.line} ({f.change})" if f.confirmed else
                     f"; a fix for this bug at {f.file}:{f.line} ({f.change}), the engine has another")
        mutants = f", {result.mutation.tried} mutants" if result.mutation is not None and result.mutation.tried else ""
        return (f"Locate {'stopped' if result.stopped else 'done'}: {top[0] if top else 'no line'} "
                f"ranked first{tied}{fixed}; {counts}{mutants}"), False

    def failing_run(self, suspect):
        """A failing run that ran `suspect`'s lines (the finder's first)."""
        result = self.state.result
        if result is None:
            return None
        lines = set(range(suspect.line, suspect.last + 1))
        for run in result.runs:
            if run.failed and lines & run.lines.get(suspect.path, frozenset()):
                return run
        return result.example

    def show_failing(self, suspect):
        run = self.failing_run(suspect)
        if run is None:
            return
        shown = run.request      # the run's position as it was run: no FEN read again
        self.main_model.locate_shows = shown.position    # one of the result's runs: the result is not stale
        self.main_model.show(shown)
        self.main_model.say(f"{suspect.where} ran in this failing position: {run.verdict}")

    def close(self):
        self.jobs.close()
