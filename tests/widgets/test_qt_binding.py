import subprocess
import sys

# A Python signal emitted to a Python slot many times, as the refresh timer does all session.
SCRIPT = """
from PySide6.QtCore import QCoreApplication, QObject, QTimer, Signal
app = QCoreApplication([])
class Source(QObject):
    ping = Signal()
calls = []
source = Source()
source.ping.connect(lambda: calls.append(1))
for _ in range(20000):
    source.ping.emit()
timer = QTimer()
timer.setInterval(0)
timer.timeout.connect(lambda: None)
timer.start()
for _ in range(5000):
    app.processEvents()
print(len(calls))
"""


def test_signals_and_slots_survive_a_long_session():
    # PySide6 6.12.0 on Python 3.11 aborts here ("deallocating True or False"): the binding
    # the project installs must not
    done = subprocess.run([sys.executable, "-c", SCRIPT], capture_output=True, text=True, timeout=120,
                          env={"QT_QPA_PLATFORM": "offscreen", "PATH": ""})
    assert done.returncode == 0, done.stderr[-400:]
    assert done.stdout.strip() == "20000"
