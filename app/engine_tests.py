"""Suite and fuzz sessions for the Test-engine tab: the session runs on a bridge worker, each
finding is posted to the panel as it is found, the bridge's timer refreshes the status line
(positions done, findings, which engine call is running), and Stop kills the engine processes
so the session ends at once. Nothing here blocks the GUI thread."""
from __future__ import annotations

import threading

from PySide6.QtCore import QObject

from perftscope import resources
from .bridge import Job


class EngineTestController(QObject):
    def __init__(self, bridge, panel, parent=None):
        super().__init__(parent)
        self.bridge, self.panel = bridge, panel
        self.job: Job | None = None
        self.session = None            # the running SuiteRun or Fuzzer
        self.names = ("", "")          # engine and reference, as the findings name them
        self.found: list = []          # the session's findings, alike ones merged
        self.done = 0
        self.settings: dict = {}
        self._lock = threading.Lock()
        panel.startRequested.connect(self.start)
        panel.stopRequested.connect(self.stop)
        bridge.add_hook(self._tick)

    @property
    def running(self) -> bool:
        return self.job is not None

    def start(self, settings: dict):
        if self.job is not None:
            return
        self.settings, self.done, self.session, self.found = settings, 0, None, []
        self.panel.clear()
        self.panel.set_running(True)
        self.panel.set_status(f"Starting {settings['engine']}…")
        self.job = job = Job()
        work = self._suite if settings["mode"] == "suite" else self._fuzz
        self.bridge.submit(work, self._finished, self._failed, settings, job, job=job)

    def stop(self):
        """End the session now: running engine calls are killed, nothing more is tested."""
        session = self.session
        if session is not None:
            session.stop()
        self.panel.set_status("Stopping…")

    # --- worker side -------------------------------------------------------------------------
    def _post_finding(self, job, finding):
        self.bridge.post(job, self._found, finding)

    def _count(self, *_):
        with self._lock:
            self.done += 1

    def _suite(self, settings, job):
        from perftscope.core.mismatch.suite_run import SuiteRun
        from perftscope.core.counting.suites import load
        entries = load(resources.path(settings["suite"]))

        def on_case(case):
            self._count()
            if case.finding is not None:
                self._post_finding(job, case.finding)

        run = SuiteRun(entries, settings["engine"], settings["reference"], jobs=settings["jobs"],
                       max_depth=settings["max_depth"], on_case=on_case)
        self.names = (run.engine_name, run.reference_name)
        self.session = run
        run.run()
        return f"{settings['suite']}: " + ", ".join(f"{n} {k}" for k, n in run.counts().items()) + \
            (" (stopped)" if run.stopped.is_set() else "")

    def _fuzz(self, settings, job):
        from perftscope.core.mismatch.fuzz import Fuzzer
        from perftscope.core.engines.oracles import make_oracle
        engine = make_oracle(settings["engine"])
        try:
            reference = make_oracle(settings["reference"])
        except Exception:
            engine.close()
            raise
        try:
            self.names = (engine.name, reference.name)
            fuzzer = Fuzzer(engine, reference, seed=settings["seed"], depth=settings["depth"],
                            seconds=settings["seconds"])
            self.session = fuzzer
            result = fuzzer.run(on_finding=lambda f, _source: self._post_finding(job, f), on_position=self._count)
        finally:
            engine.close()
            reference.close()
        return (f"fuzz seed {settings['seed']}: {result.tested} positions in {result.seconds:.1f} s "
                f"({result.per_second:.1f}/s), {len(result.findings)} findings"
                + (" (stopped)" if result.stopped else ""))

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
        oracle = getattr(self.session, "engine", None)
        activity = getattr(oracle, "activity", None) if oracle is not None else None
        current = activity() if callable(activity) else None
        if current is not None:
            text += f"; waiting for {engine}: call {current.call}, {current.seconds:.1f} s"
        self.panel.set_status(text)

    def close(self):
        self.bridge.remove_hook(self._tick)
        if self.session is not None:
            self.session.stop()
