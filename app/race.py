"""Races for the Race tab: a core.race.race_job.RaceJob run by the tab's app.job_control.JobController. The
model's "race" state holds the Race (its `given`: the panel lays out its rows from it), each event
as it is delivered (a heat starting or ending, a depth finished: the panel shows it in the table
and the graphs) and the Race again as the result; the timer redraws the graphs, the job's activity
says which engine is being waited for. Stop ends the running engine's process at once. Nothing
here blocks the GUI thread."""
from __future__ import annotations

import json

from PySide6.QtCore import Signal

from .job_control import JobTab


class RaceController(JobTab):
    finished = Signal(object)          # the core.race.runner.Race, every engine closed
    locateRequested = Signal(object, int)   # *Which line?* on a wrong count: its app.model.Origin, the depth

    def __init__(self, bridge, panel, state, chess960=lambda: False, parent=None):
        super().__init__(bridge, panel, state, parent)
        self.chess960 = chess960       # the window's Chess960 box: the positions are played as Chess960
        self.jobs.finished.connect(self.finished)
        panel.exportRequested.connect(self.export)
        panel.locateRequested.connect(self.locate)

    def start(self, settings):
        """A race with the panel's `settings` (core.race.race_job.RaceSettings); with the Chess960
        box ticked its positions are played as Chess960. The Race is the state's `given` (the
        panel lays its rows out from it), each event one of its items."""
        from dataclasses import replace

        from perftscope.core.errors import PerftscopeError
        from perftscope.core.race.race_job import RaceJob
        from perftscope.core.race.runner import as_chess960
        if self.jobs.running:
            return
        try:
            if self.chess960():
                settings = replace(settings, positions=tuple(as_chess960(settings.positions)))
            job = RaceJob(settings)
        except PerftscopeError as e:
            self.state.fail(str(e))
            return
        self.jobs.start(job, f"Starting {len(job.race.racers)} engines…", given=job.race, on_event=self.state.add,
                        on_result=self._result, sample=self.panel.graphs.refresh)

    def locate(self, row: int):
        """*Which line?* on a heat whose count was wrong: that engine (its spec as raced, the race's
        timeout) against the core, on the heat's position, at the depth it counted wrong."""
        from perftscope.core.engines.pair import EnginePair
        from perftscope.core.errors import PerftscopeError

        from .model import Origin
        race = self.state.given
        if race is None or not 0 <= row < len(race.heats):
            return
        heat = race.heats[row]
        try:
            pair = EnginePair.parse(race.racers[heat.racer].spec, "core", race.timeout)
        except PerftscopeError as e:
            self.state.say(str(e), error=True)
            return
        self.locateRequested.emit(Origin(pair, heat.position.request), heat.laps[-1].depth if heat.laps else 1)

    def export(self, kind: str, path: str):
        """The last race's table as Markdown or JSON at `path` (a message says where, or why not)."""
        from perftscope.core.race import report
        race = self.state.result
        if race is None:
            self.state.say("Nothing to export: no race has run yet", error=True)
            return
        if kind == "markdown":
            text = report.to_markdown(race)
        else:
            text = json.dumps(report.to_json(race), indent=1)
        try:
            with open(path, "w", encoding="utf-8") as f:
                f.write(text + "\n")
        except OSError as e:
            self.state.say(f"cannot write {path}: {e.strerror or e}", error=True)
            return
        self.state.say(f"Race exported as {kind} to {path}")

    def _result(self, race) -> tuple[str, bool]:
        out = [h for h in race.heats if h.out]
        text = (("Race stopped" if race.stopped.is_set() else "Race done") +
                f": {len(race.racers)} engines on {len(race.positions)} positions")
        if out:
            return text + "; out: " + "; ".join(f"{h.engine} on {h.position.name} ({h.status})" for h in out), True
        return text + ", every count right", False

    def close(self):
        self.jobs.close()
