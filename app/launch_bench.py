"""Measure the first launch as a user meets it (docs/BENCHMARKS.md, "First launch").

    python -m perftscope.app.launch_bench windows [--cache DIR] [COMMAND ...]   # on an X server, with xdotool
    python -m perftscope.app.launch_bench runs [DEPTH]            # first and second perft in a window

`windows` starts COMMAND (default: `perftscope gui`) with an empty private compile cache
(PERFTSCOPE_CACHE in a fresh temporary directory; the user's own cache is left alone) and
polls the X server every 50 ms: when the first perftscope window is mapped (the splash) and
when the main window is (a usable board). `runs` prepares the kernels on an empty cache as
the launch does, opens the window and reports the first two perft runs' own figures: the
first must not carry any compile time.
"""
from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import time


def _windows() -> list[tuple[int, int]]:
    found = subprocess.run(["xdotool", "search", "--onlyvisible", "--name", "^perftscope$"],
                           capture_output=True, text=True).stdout.split()
    sizes = []
    for wid in found:
        geometry = subprocess.run(["xdotool", "getwindowgeometry", wid], capture_output=True, text=True).stdout
        w, _, h = geometry.split("Geometry:")[-1].strip().partition("x")
        if w.isdigit() and h.isdigit():
            sizes.append((int(w), int(h)))
    return sizes


def windows(command: list[str], cache: str | None = None) -> int:
    cache = cache or tempfile.mkdtemp(prefix="perftscope-cache-")
    config = tempfile.mkdtemp(prefix="perftscope-config-")
    env = dict(os.environ, PERFTSCOPE_CACHE=cache, XDG_CONFIG_HOME=config)
    start = time.monotonic()
    proc = subprocess.Popen(command, env=env, stderr=subprocess.PIPE, text=True)
    first_line = None
    first = None

    def line_reader():
        nonlocal first_line
        for line in proc.stderr:
            if first_line is None:
                first_line = time.monotonic() - start
    import threading
    threading.Thread(target=line_reader, daemon=True).start()
    while proc.poll() is None and time.monotonic() - start < 600:
        sizes = _windows()
        now = time.monotonic() - start
        if sizes and first is None:
            first = now
            print(f"first window (splash) {now:.2f} s {sizes}", flush=True)
        if any(w > 600 for w, _ in sizes):
            print(f"main window (usable board) {now:.2f} s {sizes}", flush=True)
            break
        time.sleep(0.05)
    proc.terminate()
    proc.wait(10)
    if first_line is not None:
        print(f"first line on the terminal {first_line:.2f} s")
    return 0


def runs(depth: int) -> int:
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    os.environ["PERFTSCOPE_CACHE"] = tempfile.mkdtemp(prefix="perftscope-cache-")
    from PySide6.QtCore import QEventLoop, QSettings, QTimer
    from PySide6.QtWidgets import QApplication

    app = QApplication(sys.argv[:1])
    for kind in (QSettings.IniFormat, QSettings.NativeFormat):
        QSettings.setPath(kind, QSettings.UserScope, tempfile.mkdtemp(prefix="perftscope-config-"))
    from perftscope.app.launch import prepare_kernels
    seconds = prepare_kernels(None, terminal=None)
    print(f"kernels prepared on an empty cache in {seconds:.1f} s")
    from perftscope.app.gui import MainWindow
    window = MainWindow()
    window.run_panel.set_settings(workers=1, hash_exp=-1)      # no table: both runs do the same work
    results = []
    window.runs.finished.connect(results.append)
    import resource

    def process_cpu():
        r = resource.getrusage(resource.RUSAGE_SELF)
        return r.ru_utime + r.ru_stime

    for i in range(2):
        cpu_before = process_cpu()
        window.runs.start_at(depth)
        loop = QEventLoop()
        while len(results) <= i:
            QTimer.singleShot(50, loop.quit)
            loop.exec()
        r = results[i]
        cpu = sum(r.worker_cpu)
        # the whole process's CPU beside the workers': a wall time far above both is the
        # machine's other load, not this run
        print(f"run {i + 1}: perft {depth} = {r.nodes:,} nodes in {r.seconds:.3f} s, "
              f"{r.nps / 1e6:.1f} Mnps (worker CPU {cpu:.3f} s, {r.nodes / cpu / 1e6:.1f} Mnps per CPU second; "
              f"process CPU {process_cpu() - cpu_before:.3f} s)")
    first, second = results
    print(f"first / second NPS: {first.nps / second.nps:.3f}")
    window.close()
    app.quit()
    return 0


if __name__ == "__main__":
    mode, rest = (sys.argv[1], sys.argv[2:]) if len(sys.argv) > 1 else ("windows", [])
    if mode == "windows":
        # --cache DIR: time a launch on that (warm) cache instead of an empty one
        cache = rest[1] if rest[:1] == ["--cache"] else None
        rest = rest[2:] if cache else rest
        sys.exit(windows(rest or ["perftscope", "gui"], cache))
    sys.exit(runs(int(rest[0]) if rest else 6))
