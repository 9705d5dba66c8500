"""The window closed, or killed with SIGTERM or SIGKILL, in the middle of a finder run or a
fuzz session: no engine process is left running, nor anything an engine started."""
import os
import signal
import subprocess
import sys
import time

import pytest

from ..processes import marker, with_marker

# The window in a process of its own, busy with a hanging engine; it prints "busy" once the
# engine runs. `close` makes it close its window when a line comes on its stdin, as a user would
# once the engine is in its call (a window closed while the engine starts stops it at once).
VICTIM = """
import sys
from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QApplication
from perftscope.app.gui import MainWindow
from perftscope.core.engines.process import _running

work, engine, close = sys.argv[1], sys.argv[2], sys.argv[3] == "close"
app = QApplication([])
w = MainWindow("8/8/8/8/k3p2Q/8/3P4/3K4 w - - 0 1", reference="core", engine=engine)
w.show()
if work == "finder":
    w.divider.find_mismatch(3)
else:
    w.engines.set(engine=engine, reference="core")
    w.test_engine.choose(mode="fuzz", seconds=60)
    w.test_engine.request_start()

def busy():
    if _running:
        print("busy", flush=True)
        if close:              # closed as a user would, once told the engine is in its call
            import threading
            threading.Thread(target=lambda: sys.stdin.readline() and QTimer.singleShot(0, app, w.close),
                             daemon=True).start()
    else:
        QTimer.singleShot(50, busy)
QTimer.singleShot(50, busy)
app.exec()
"""


def _engine(tmp_path, mark: str, kind: str) -> str:
    """An engine that starts a helper (plain and in a session of its own) and never answers."""
    path = tmp_path / f"hang-{kind}.sh"
    helpers = f"sleep {mark} &\nsetsid sleep {mark} &\n"
    if kind == "uci":
        body = (helpers + 'while read line; do case "$line" in uci) echo uciok;; isready) echo readyok;;\n'
                f"  go*) sleep {mark};; esac; done\n")
    else:
        body = helpers + f"sleep {mark}\n"
    path.write_text("#!/bin/sh\n" + body)
    path.chmod(0o755)
    return f"{kind}:{path}"


@pytest.mark.parametrize("work, kind", [("finder", "perftree"), ("fuzz", "uci")])
@pytest.mark.parametrize("how", ["close", "SIGTERM", "SIGKILL"])
def test_no_engine_process_outlives_the_window(tmp_path, work, kind, how):
    mark = marker()
    engine = _engine(tmp_path, mark, kind)
    # settings of its own: the window remembers its engine, and must not leave this one to the user's
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen", XDG_CONFIG_HOME=str(tmp_path / "config"))
    window = subprocess.Popen([sys.executable, "-c", VICTIM, work, engine, how], stdout=subprocess.PIPE,
                              stdin=subprocess.PIPE, text=True, env=env)
    try:
        assert window.stdout.readline().strip() == "busy"
        deadline = time.monotonic() + 10
        while len(with_marker(mark)) < 3 and time.monotonic() < deadline:
            time.sleep(0.02)
        assert len(with_marker(mark)) >= 3          # the engine's sleep and both helpers
        if how == "close":
            window.stdin.write("close\n")
            window.stdin.flush()
        else:
            window.send_signal(getattr(signal, how))
        window.wait(timeout=30)
        deadline = time.monotonic() + 5
        while with_marker(mark) and time.monotonic() < deadline:
            time.sleep(0.02)
        assert with_marker(mark) == []
    finally:
        if window.poll() is None:
            window.kill()
        for pid in with_marker(mark):
            os.kill(pid, signal.SIGKILL)
