"""app.job_control.JobController: any core.job.Job off the GUI thread, its progress, activity, result
and error written into the tab's JobState, and a panel watching that state."""
import threading

import pytest
from PySide6.QtCore import QSettings

from perftscope.app.bridge import Bridge
from perftscope.app.job_control import JobController
from perftscope.app.model import JobState
from perftscope.core.errors import EngineError
from perftscope.core.job import Progress, Subject
from perftscope.widgets import palette
from perftscope.widgets.race_panel import RacePanel
from perftscope.widgets.reference import EngineSelection
from perftscope.widgets import test_engine_panel


class Counting:
    """A job of the protocol's shape: counts up, one Progress and one event per step, until
    stopped or `fail_at`; the GUI thread is never the one it runs on."""

    def __init__(self, steps: int = 1000, fail_at: int | None = None):
        self.steps, self.fail_at = steps, fail_at
        self.subject = Subject("8/8/8/8/8/8/8/K6k w - - 0 1", ("a1a2",), ("mine", "core"))
        self.stopped = threading.Event()
        self.threads: set = set()
        self.done = 0

    def run(self, emit):
        self.threads.add(threading.get_ident())
        for i in range(1, self.steps + 1):
            if self.stopped.wait(0.01):
                break
            if i == self.fail_at:
                raise EngineError("mine crashed at step 3")
            self.done = i
            emit(Progress(i, self.steps, ""))
            emit(("step", i))
        return ("counted", self.done, self.stopped.is_set())

    def stop(self):
        self.stopped.set()

    def activity(self):
        return f"counting: {self.done} done" if self.done else None


@pytest.fixture
def tab(qtbot):
    bridge = Bridge()
    state = JobState("idle")
    yield bridge, state, JobController(bridge, state)
    bridge.shutdown()


def test_a_job_runs_off_the_gui_thread_and_its_state_is_the_tabs(qtbot, tab):
    bridge, state, jobs = tab
    events, finished = [], []
    jobs.finished.connect(finished.append)
    job = Counting(steps=20)
    assert jobs.start(job, "starting", given="settings", on_event=events.append,
                      on_result=lambda r: (f"{r[1]} counted", False))
    assert state.running and state.status == "starting" and state.subject is job.subject
    assert not jobs.start(Counting(), "again")              # one at a time
    qtbot.waitUntil(lambda: not jobs.running, timeout=10000)
    assert threading.get_ident() not in job.threads
    assert events == [("step", i) for i in range(1, 21)]     # in order, each once, Progress apart
    assert state.progress == Progress(20, 20, "") and state.done == 20
    assert state.result == ("counted", 20, False) and finished == [state.result]
    assert state.status == "20 counted" and not state.error and not state.running
    assert state.given == "settings"


def test_stop_ends_the_job_with_what_it_has_and_activity_is_the_status(qtbot, tab):
    _, state, jobs = tab
    jobs.start(Counting(), "starting")
    qtbot.waitUntil(lambda: state.status.startswith("counting: "), timeout=10000)
    jobs.stop()
    qtbot.waitUntil(lambda: not jobs.running, timeout=5000)
    assert state.result[2] is True and 0 < state.result[1] < 1000


def test_an_error_is_the_jobs_whole_outcome(qtbot, tab):
    _, state, jobs = tab
    failed = []
    jobs.failed.connect(failed.append)
    jobs.start(Counting(fail_at=3), "starting")
    qtbot.waitUntil(lambda: not jobs.running, timeout=10000)
    assert state.error and state.status == "mine crashed at step 3" and failed == [state.status]
    assert state.result is None


def test_a_job_abandoned_delivers_nothing_more(qtbot, tab):
    _, state, jobs = tab
    events = []
    job = Counting()
    jobs.start(job, "starting", on_event=events.append)
    qtbot.waitUntil(lambda: bool(events), timeout=10000)
    jobs.abandon()
    assert job.stopped.is_set() and not state.running
    seen = len(events)
    qtbot.wait(300)
    assert len(events) == seen and state.result is None


@pytest.mark.parametrize("make", [lambda s: test_engine_panel.TestEnginePanel(s), lambda s: RacePanel(s)])
def test_panels_watch_the_state_and_show_an_error_in_one_colour(qtbot, tmp_path, make):
    panel = make(EngineSelection(QSettings(str(tmp_path / "perftscope.ini"), QSettings.IniFormat)))
    qtbot.addWidget(panel)
    state = JobState("idle")
    panel.watch(state)
    state.begin(Subject("8/8/8/8/8/8/8/K6k w - - 0 1", (), ("mine", "core")), "working")
    assert panel.can_stop() and not panel.can_start() and panel.status_text() == "working"
    assert panel.status.toolTip() == "8/8/8/8/8/8/8/K6k w - - 0 1 · mine against core"
    state.fail("mine crashed")
    assert panel.can_start() and not panel.can_stop() and panel.status_text() == "mine crashed"
    assert palette.ERROR in panel.status.styleSheet()
