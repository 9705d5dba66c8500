"""Any long work of the window, one way: a core.job.Job runs on a thread of its own, its events
are posted through the bridge and delivered by the bridge's one timer, and what the tab shows
(running, status line, error, progress, the Subject, the result) is written into the tab's
app.model.JobState, which its panel watches. Start, Stop, progress, errors and "which position
and engines this belongs to" are done here once for every tab; a tab's controller says only what
is particular to it (what an event adds to the view, the line a result ends with).
Nothing here blocks the GUI thread.
"""
from __future__ import annotations

from typing import Callable

from PySide6.QtCore import QObject, Signal

from perftscope.core.job import Job, Progress, Subject

from .bridge import Bridge, Ticket


class JobController(QObject):
    """One job at a time for the tab whose state is `state`.

    start(job, status, on_event, on_result, sample): `on_event(event)` gets every event that is not
    a core.job.Progress (those go to the state), on the GUI thread; `on_result(result) -> (line,
    error)` the line the tab ends with; `sample()` runs on every tick while the job runs (live
    graphs read their counters there). While the job runs, its `activity()` is the status line."""
    finished = Signal(object)          # the job's result, after the state has it
    failed = Signal(str)               # one line: the job could not run, or failed

    def __init__(self, bridge: Bridge, state, parent=None):
        super().__init__(parent)
        self.bridge, self.state = bridge, state
        self.job: Job | None = None
        self.ticket: Ticket | None = None
        self._on_event = self._on_result = self._sample = None
        bridge.add_hook(self._tick)

    @property
    def running(self) -> bool:
        return self.job is not None

    def start(self, job: Job, status: str, given=None, on_event: Callable | None = None,
              on_result: Callable | None = None, sample: Callable | None = None,
              ticket: Ticket | None = None) -> bool:
        """Run `job` (False, and nothing done, while another runs). `given`: what the job runs on,
        kept in the state (the engines a finding is reopened with)."""
        if self.job is not None:
            return False
        self.job, self.ticket = job, ticket or Ticket()
        self._on_event, self._on_result, self._sample = on_event, on_result, sample
        self.state.begin(job.subject, status, given)
        ticket = self.ticket
        self.bridge.start_thread(job.run, lambda result: self._done(ticket, result),
                                 lambda message: self._failed(ticket, message),
                                 lambda event: self.bridge.post(ticket, self._event, event), job=ticket)
        return True

    def stop(self, status: str | None = "Stopping…"):
        """Ask the job to end now (it ends soon with what it has, delivered as usual)."""
        if self.job is not None:
            self.job.stop()
            if status:
                self.state.say(status)

    def abandon(self):
        """Stop the job and deliver nothing more of it (a new one replaces it)."""
        if self.job is not None:
            self.ticket.cancel()
            self.job.stop()
            self.job = None
            self.state.running = False
            self.state.changed.emit()

    def deliver(self, event):
        """An event as if the job had emitted it (a finished search replayed, a finding merged)."""
        self._event(event)

    # --- GUI thread, through the bridge's timer ----------------------------------------------
    def _event(self, event):
        if isinstance(event, Progress):
            self.state.advance(event)
        elif isinstance(event, Subject):       # named better once started (the engines' own names)
            self.state.belongs_to(event)
        elif self._on_event is not None:
            self._on_event(event)

    def _done(self, ticket: Ticket, result):
        if ticket is not self.ticket:
            return
        if self._sample is not None:
            self._sample()                     # the last reading, the job's own counters final
        self.job = None
        line, error = self._on_result(result) if self._on_result is not None else ("", False)
        self.state.end(result, line, error)
        self.finished.emit(result)

    def _failed(self, ticket: Ticket, message: str):
        if ticket is not self.ticket:
            return
        self.job = None
        self.state.fail(message)
        self.failed.emit(message)

    def _tick(self):
        job = self.job
        if job is None:
            return
        if self._sample is not None:
            self._sample()
        activity = job.activity()
        if activity:
            self.state.say(activity)

    def close(self):
        self.bridge.remove_hook(self._tick)
        if self.job is not None:
            self.job.stop()


class JobTab(QObject):
    """A tab's controller: its `panel` watches `state` (the tab's JobState), and the panel's Start
    and Stop run the tab's own `start` and `stop` on its JobController. A tab whose work another
    tab starts (`panel_starts` False: the finder, started from the divide tree it fills) wires
    only Stop."""
    panel_starts = True

    def __init__(self, bridge: Bridge, panel, state, parent=None):
        super().__init__(parent)
        self.panel, self.state = panel, state
        self.jobs = JobController(bridge, state, self)
        panel.watch(state)
        if self.panel_starts:
            panel.startRequested.connect(self.start)
        panel.stopRequested.connect(self.stop)

    @property
    def running(self) -> bool:
        return self.jobs.running

    def start(self, *args):
        raise NotImplementedError

    def stop(self):
        """End the job now: its running engine or workers are stopped, nothing more runs."""
        self.jobs.stop()
