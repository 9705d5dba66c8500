"""`perftscope locate` for the Suspect lines tab: a core.locate.job.LocateJob on the engines and
timeout of the window's engine selection, the board's position (or one a *Which line?* action
names) and the tab's depth, run by the tab's app.jobs.JobController. The runs' progress and the
job's activity are the status line; the result is kept in the model's "locate" state and shown
by the panel. A suspect clicked puts a failing position that ran it on the board. Stop halts the
covered engine process at once. Nothing here blocks the GUI thread."""
from __future__ import annotations

from PySide6.QtCore import Signal

from perftscope.core.errors import PerftscopeError

from .jobs import JobTab


class LocateController(JobTab):
    starting = Signal()                # a locate starts: the window shows the tab

    def __init__(self, bridge, panel, selection, main_model, state, parent=None):
        super().__init__(bridge, panel, state, parent)
        self.selection, self.main_model = selection, main_model
        panel.suspectChosen.connect(self.show_failing)

    def start(self, options: dict, fen: str | None = None, moves=(), depth: int | None = None):
        """Locate with the panel's `options` on `fen` + `moves` (None: the board's position) at
        `depth` (None: the tab's)."""
        from perftscope.core.locate.job import LocateJob, LocateSettings
        if self.jobs.running:
            return
        if not self.selection.engine:
            self.panel.show_error("Choose the engine to locate in first (the Divide tab's engine)")
            return
        if fen is None:
            fen, moves = self.main_model.board_root
        try:
            settings = LocateSettings(self.selection.engine, self.selection.reference, fen, tuple(moves),
                                      depth or options["depth"], tuple(options["sources"]),
                                      seconds=options["seconds"], timeout=self.selection.timeout,
                                      runs=options["runs"], mutants=options.get("mutants", 0),
                                      build=options.get("build", ""))
            job = LocateJob(settings)
        except PerftscopeError as e:
            self.panel.show_error(str(e))
            return
        self.panel.clear()
        self.starting.emit()
        self.jobs.start(job, f"Locating {job.pair.engine_name}: finding the failing position…", given=settings,
                        on_result=self._result)

    def locate(self, fen: str, moves=(), depth: int = 1):
        """*Which line?*: locate on this position with the tab's options."""
        self.start(self.panel.options(), fen, moves, depth)

    def _result(self, result) -> tuple[str, bool]:
        self.panel.show_result(result)
        engine, reference = result.subject.engines[:2]
        counts = f"{result.failed} failing, {result.passed} passing runs, {result.seconds:.1f} s"
        if result.agree:
            return f"{engine} and {reference} agree at depth {self.state.given.depth}: nothing to locate", False
        if result.stopped and not result.suspects:
            return f"Locate stopped ({counts}): nothing ranked", False
        top = [s.where for s in result.suspects if s.rank == 1]
        tied = f" (tied with {len(top) - 1} more)" if len(top) > 1 else ""
        fixes = [f for f in result.fixes if f.confirmed]
        fixed = f"; a fix at {fixes[0].file}:{fixes[0].line} ({fixes[0].change})" if fixes else ""
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
        self.main_model.show(run.fen, run.moves)
        self.main_model.say(f"{suspect.where} ran in this failing position: {run.verdict}")

    def close(self):
        self.jobs.close()
