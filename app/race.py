"""Races for the Race tab: core.race runs on a bridge worker, each event (a heat starting or
ending, a depth finished) is posted to the GUI thread, the bridge's timer redraws the graphs and
says which engine is being waited for. Stop ends the running engine's process at once. Nothing
here blocks the GUI thread."""
from __future__ import annotations

import json
import time

from PySide6.QtCore import QObject, Signal

from .bridge import Job


class RaceController(QObject):
    finished = Signal(object)          # the core.race.runner.Race, every engine closed

    def __init__(self, bridge, panel, chess960=lambda: False, parent=None):
        super().__init__(parent)
        self.bridge, self.panel = bridge, panel
        self.chess960 = chess960       # the window's Chess960 box: the positions are played as Chess960
        self.race = None               # the running race, then the last one (for export)
        self.job: Job | None = None
        self._index: dict = {}         # (racer, position name) -> table row
        self._running: tuple | None = None     # (engine, position, depth, since) being waited for
        panel.startRequested.connect(self.start)
        panel.stopRequested.connect(self.stop)
        panel.exportRequested.connect(self.export)
        bridge.add_hook(self._tick)

    @property
    def running(self) -> bool:
        return self.job is not None

    def start(self, settings: dict):
        from perftscope.core.engines.mode import Mode
        from perftscope.core.errors import PerftscopeError
        from perftscope.core.race.report import settings_text
        from perftscope.core.race.runner import Race, as_chess960
        if self.job is not None:
            return
        self.job = job = Job()
        try:
            chess960 = self.chess960()
            positions = as_chess960(settings["positions"]) if chess960 else settings["positions"]
            race = Race(settings["engines"], positions, settings["seconds"], settings["depth"],
                        Mode(settings["threads"], settings["hash_mb"]), settings["timeout"],
                        settings["yardsticks"], listener=lambda *event: self.bridge.post(job, self._event, event))
        except PerftscopeError as e:
            self.job = None
            self.panel.show_error(str(e))
            return
        self.race = race
        self._index = {(h.racer, h.position.name): i for i, h in enumerate(race.heats)}
        said = settings_text(race) + (" · Chess960" if chess960 else "")
        self.panel.show_race(race.heats, [r.name for r in race.racers], self._caption(race, said))
        self.panel.set_running(True)
        self.panel.set_status(f"Starting {len(race.racers)} engines…")
        self.bridge.submit(race.run, self._finished, self._failed, job=job)

    def stop(self):
        """End the race now: the running engine is killed, nothing else runs."""
        if self.race is not None and self.job is not None:
            self.race.stop()
            self.panel.set_status("Stopping…")

    def export(self, kind: str, path: str):
        """The last race's table as Markdown or JSON at `path` (a message says where, or why not)."""
        from perftscope.core.race import report
        if self.race is None:
            self.panel.show_error("Nothing to export: no race has run yet")
            return
        if kind == "markdown":
            text = report.to_markdown(self.race)
        else:
            text = json.dumps(report.to_json(self.race), indent=1)
        try:
            with open(path, "w", encoding="utf-8") as f:
                f.write(text + "\n")
        except OSError as e:
            self.panel.show_error(f"cannot write {path}: {e.strerror or e}")
            return
        self.panel.set_status(f"Race exported as {kind} to {path}")

    @staticmethod
    def _caption(race, settings: str) -> str:
        positions = ", ".join(p.name for p in race.positions)
        return f"Race on {positions} · {settings} · every count checked against the core"

    # --- GUI side, through the bridge's timer -----------------------------------------------------
    def _event(self, event):
        kind, heat, lap = event
        row = self._index.get((heat.racer, heat.position.name))
        if row is None:
            return
        self.panel.show_heat(row, heat)
        position = self.race.positions.index(heat.position)
        if kind == "lap":
            if not heat.out:               # a wrong count has no speed to show
                self.panel.graphs.add_lap(heat.racer, position, lap.depth, lap.nps)
            self._running = (heat.engine, heat.position.name, lap.depth + 1, time.monotonic())
        elif heat.status == "running":
            self._running = (heat.engine, heat.position.name, 1, time.monotonic())
        else:
            if heat.out or heat.best is not None:     # a depth too quick to time has no bar
                self.panel.graphs.set_result(heat.racer, position, None if heat.out else heat.best.nps)
            self._running = None

    def _finished(self, race):
        self.job, self._running = None, None
        self.panel.set_running(False)
        self.panel.graphs.refresh()
        out = [h for h in race.heats if h.out]
        stopped = race.stopped.is_set()
        text = (("Race stopped" if stopped else "Race done") +
                f": {len(race.racers)} engines on {len(race.positions)} positions")
        if out:
            self.panel.reveal(race.heats.index(out[0]))
            self.panel.show_error(text + "; out: " + "; ".join(f"{h.engine} on {h.position.name} ({h.status})"
                                                                 for h in out))
        else:
            self.panel.set_status(text + ", every count right")
        self.finished.emit(race)

    def _failed(self, message: str):
        self.job, self._running = None, None
        self.panel.set_running(False)
        self.panel.show_error(message)

    def _tick(self):
        self.panel.graphs.refresh()
        if self._running is not None and self.job is not None:
            engine, position, depth, since = self._running
            self.panel.set_status(f"Racing {engine} on {position}: depth {depth}, "
                                  f"{time.monotonic() - since:.1f} s")

    def close(self):
        self.bridge.remove_hook(self._tick)
        if self.race is not None and self.job is not None:
            self.race.stop()
