"""Suite and fuzz sessions for the Test-engine tab: the session runs on a bridge worker on the
engines and timeout of the window's engine selection, each finding is posted to the panel as it
is found, the bridge's timer refreshes the status line (positions done, findings, which engine
call is running), and Stop kills the engine processes so the session ends at once. Nothing
here blocks the GUI thread."""
from __future__ import annotations

import threading

from PySide6.QtCore import QObject, Signal

from perftscope import resources
from perftscope.core.errors import EngineError
from .bridge import Job


class EngineTestController(QObject):
    """`selection` is the window's widgets.reference.EngineSelection: a session runs on what it
    holds when Start is pressed (core.engines.pair.EnginePair, the timeout included)."""
    openRequested = Signal(object, object)      # a finding, the EnginePair its session ran on

    def __init__(self, bridge, panel, selection, parent=None):
        super().__init__(parent)
        self.bridge, self.panel, self.selection = bridge, panel, selection
        self.job: Job | None = None
        self.session = None            # the running SuiteRun or Fuzzer
        self.pair = None               # the engines of the last session started
        self.names = ("", "")          # engine and reference, as the findings name them
        self.found: list = []          # the session's findings, alike ones merged
        self.done = 0
        self.settings: dict = {}
        self._stop_asked = False
        self._lock = threading.Lock()
        panel.startRequested.connect(self.start)
        panel.stopRequested.connect(self.stop)
        panel.openRequested.connect(lambda finding: self.openRequested.emit(finding, self.pair))
        bridge.add_hook(self._tick)

    @property
    def running(self) -> bool:
        return self.job is not None

    def start(self, settings: dict):
        """A session with the panel's `settings` (mode, suite, depths, ...) on the selection's engines."""
        if self.job is not None:
            return
        try:
            pair = self.selection.pair()
        except EngineError as e:
            self.panel.show_error(str(e))
            return
        self.settings, self.pair, self.done, self.session, self.found = settings, pair, 0, None, []
        self._stop_asked = False
        self.panel.clear()
        self.panel.set_running(True)
        self.panel.set_status(f"Starting {pair.engine.text}…")
        self.job = job = Job()
        self.bridge.submit(self._run, self._finished, self._failed, settings, pair, job, job=job)

    def stop(self):
        """End the session now: running engine calls are killed, nothing more is tested."""
        self._stop_asked = True                 # a session still being made stops once it is
        session = self.session
        if session is not None:
            session.stop()
        self.panel.set_status("Stopping…")

    # --- worker side -------------------------------------------------------------------------
    def _count(self):
        with self._lock:
            self.done += 1

    def _run(self, settings, pair, job):
        """Make the session (its oracles start here, off the GUI thread), run it, say how it went."""
        from perftscope.core.counting.suites import load
        from perftscope.core.mismatch.fuzz import Fuzzer
        from perftscope.core.mismatch.suite_run import SuiteRun
        hooks = dict(on_finding=lambda finding: self.bridge.post(job, self._found, finding), on_position=self._count)
        if settings["mode"] == "suite":
            session = SuiteRun(load(resources.path(settings["suite"])), pair, jobs=settings["jobs"],
                               max_depth=settings["max_depth"], **hooks)
            said = f"{settings['suite']}: "
        else:
            session = Fuzzer(pair, seed=settings["seed"], depth=settings["depth"], seconds=settings["seconds"],
                             **hooks)
            said = ""
        self.names = (session.engine_name, session.reference_name)
        self.session = session
        if self._stop_asked:
            session.stop()
        try:
            session.run()
        finally:
            session.close()
        return said + session.summary()

    # --- GUI side (through the bridge's timer) ---------------------------------------------
    def _found(self, finding):
        from perftscope.core.mismatch.findings import merge
        # a suite posts one finding per failing position: alike ones share a row with a count
        self.panel.add_finding(merge(self.found, finding), *self.names)

    def _finished(self, text: str):
        self.job, self.session = None, None
        self.panel.set_running(False)
        found = len(self.panel.findings)
        line = f"{self.names[0]} against {self.names[1]}: {text}"
        (self.panel.show_error if found else self.panel.set_status)(line)

    def _failed(self, message: str):
        self.job, self.session = None, None
        self.panel.set_running(False)
        self.panel.show_error(message)

    def _tick(self):
        if self.job is None or self.session is None:
            return
        engine, reference = self.names
        what = "positions" if self.settings.get("mode") == "fuzz" else "suite positions"
        text = f"Testing {engine} against {reference}: {self.done} {what} done, " \
               f"{len(self.panel.findings)} findings"
        current = self.session.activity()
        if current is not None:
            text += f"; {current.words(engine)}"
        self.panel.set_status(text)

    def close(self):
        self.bridge.remove_hook(self._tick)
        if self.session is not None:
            self.session.stop()
