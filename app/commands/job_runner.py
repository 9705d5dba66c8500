"""A long command runs its core.job.Job the way the window does: on a thread of its own, its
events handed back to the command's thread as they come, its Progress as one line on stderr (kept
up to date on a terminal; where stderr is no terminal, none, or with `logged` one line every
LOG_EVERY seconds), Ctrl-C as Stop.

    result = run_job(job, on_event=print_finding)       # raises what the job raised

A Ctrl-C asks the job to stop (running engine calls are killed) and, once it has ended, is the
KeyboardInterrupt it always was (`perftscope: interrupted`, exit 130), so that no engine outlives
the command and no half-run reads as a result; a second one, or a job that does not end within
STOP_GRACE seconds of its stop, is raised at once.
"""
from __future__ import annotations

import queue
import sys
import threading
import time
from typing import Callable

from perftscope.core.job import Progress

from .common import stderr_is_terminal

LOG_EVERY = 5.0          # seconds between progress lines when stderr is not a terminal
LIVE_EVERY = 0.25        # ... and between redraws of the live line on a terminal
STOP_GRACE = 30.0        # seconds a stopped job has to end before the command gives up on it
POLL = 0.1


class ProgressLine:
    """A job's Progress on stderr: one line redrawn in place on a terminal; elsewhere none, or
    with `logged` one every LOG_EVERY seconds (and the last one). `quiet`: none at all (a JSON run)."""

    def __init__(self, quiet: bool = False, logged: bool = False):
        self.live = stderr_is_terminal()
        self.quiet = quiet or not (self.live or logged)
        self.last: Progress | None = None
        self._printed = 0.0
        self._shown = False

    def show(self, progress: Progress):
        self.last = progress
        now = time.monotonic()
        final = progress.total is not None and progress.done >= progress.total
        if self.quiet or not progress.text or \
                (not final and now - self._printed < (LIVE_EVERY if self.live else LOG_EVERY)):
            return
        self._printed = now
        if self.live:
            sys.stderr.write("\r" + progress.text[:150] + "\x1b[K")
            self._shown = True
        else:
            sys.stderr.write(progress.text + "\n")
        sys.stderr.flush()

    def say(self, line: str):
        """A line of its own, the live line ended first."""
        self.close()
        print(line, file=sys.stderr, flush=True)

    def close(self):
        if self._shown:
            sys.stderr.write("\n")
            sys.stderr.flush()
            self._shown = False


class JobRunner:
    """Runs one job (see the module's doc); `line.last` is its last Progress (what a stopped run had done)."""

    def __init__(self, job, on_event: Callable[[object], None] | None = None, quiet: bool = False,
                 logged: bool = False):
        self.job, self.on_event = job, on_event
        self.line = ProgressLine(quiet, logged)
        self.stopped = False
        self._events: queue.Queue = queue.Queue()
        self._outcome: list = []

    def run(self):
        worker = threading.Thread(target=self._work, name="perftscope-job", daemon=True)
        worker.start()
        stop_deadline = None
        try:
            while worker.is_alive() or not self._events.empty():
                try:
                    self._deliver(self._events.get(timeout=POLL))
                except queue.Empty:
                    pass
                except KeyboardInterrupt:
                    if self.stopped:
                        raise
                    self.stopped, stop_deadline = True, time.monotonic() + STOP_GRACE
                    self.line.say("perftscope: stopping (Ctrl-C again to quit at once)")
                    self.job.stop()
                if stop_deadline is not None and time.monotonic() > stop_deadline:
                    raise KeyboardInterrupt
        finally:
            self.line.close()
        if self.stopped:
            raise KeyboardInterrupt
        kind, value = self._outcome[0]
        if kind == "error":
            raise value
        return value

    def _work(self):
        try:
            self._outcome.append(("result", self.job.run(self._events.put)))
        except BaseException as e:      # noqa: BLE001  (handed to the command's thread, raised there)
            self._outcome.append(("error", e))

    def _deliver(self, event):
        if isinstance(event, Progress):
            self.line.show(event)
        if self.on_event is not None:
            self.on_event(event)


def run_job(job, on_event: Callable[[object], None] | None = None, quiet: bool = False):
    """The job's result (see JobRunner); what it raised is raised here."""
    return JobRunner(job, on_event, quiet).run()
