"""A long GUI session, scripted: perft runs with live graphs one after another, the divide tree,
finder runs and fuzz sessions against a planted-bug engine, moves on the board, a session saved
and opened again, round after round; resident memory, threads, child processes and the event
loop's latency sampled as it goes.

    python -m tests.soak --minutes 30 --every 60 --out soak.json      # on a display (Xvfb :N)
    python -m tests.soak --plot soak.json docs/soak.png

Each sample is taken between two steps (nothing running, so what is counted is what stayed):
`rss_mb` resident memory, `threads` the process's threads, `children` processes descended from
it that were not there when the soak began, other than the warden (core.engines.warden),
`latency_p99_ms` / `latency_max_ms` how late a 50 ms timer fired since the previous sample.
tests/app/test_soak.py runs a few seconds of it.
"""
from __future__ import annotations

import argparse
import json
import os
import random
import sys
import tempfile
import time
from pathlib import Path

from tests.processes import alive

ENGINES = Path(__file__).parent / "engines"
POSITION_3 = "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1"
EP_PIN = "8/8/8/8/k3p2Q/8/3P4/3K4 w - - 0 1"
KIWIPETE = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"
PROBE_MS = 50


def process_figures(before: frozenset = frozenset()) -> dict:
    """Resident memory (MB) and threads of this process, and the processes descended from it
    other than the warden and those in `before` (there when the soak began: a test session's
    Dask workers, say)."""
    from perftscope.core.engines import warden
    with open("/proc/self/status") as f:
        status = dict(line.split(":", 1) for line in f if ":" in line)
    return {"rss_mb": int(status["VmRSS"].split()[0]) / 1024, "threads": int(status["Threads"]),
            "children": len(descendants() - before - {warden.warden_pid()})}


def descendants() -> frozenset:
    """The live (not zombie) processes descended from this one."""
    from perftscope.core.engines import warden
    table = warden.processes()
    below, stack = set(), [os.getpid()]
    while stack:
        pid = stack.pop()
        for child, (parent, _, _) in table.items():
            if parent == pid and child not in below:
                below.add(child)
                stack.append(child)
    return frozenset(filter(alive, below))


class Soak:
    """Drives `window` through the steps, round after round, for `seconds`; a sample every
    `every` seconds (taken at the next pause between steps). `small`: lighter steps for a run
    of a few seconds (the suite's). `done()` once finished; `samples` and `counts` then hold it all."""

    def __init__(self, window, seconds: float, every: float, small: bool = False, seed: int = 1):
        from PySide6.QtCore import QTimer
        self.w, self.seconds, self.every, self.small = window, seconds, every, small
        self.random = random.Random(seed)
        self.samples: list[dict] = []
        self.before = descendants()
        self.counts = {"rounds": 0, "perft runs": 0, "divides": 0, "finder runs": 0, "fuzz sessions": 0,
                       "moves": 0, "sessions saved and opened": 0}
        self.started = time.monotonic()
        self.next_sample = self.started
        self.lateness: list[float] = []
        self._expected = time.monotonic() + PROBE_MS / 1000
        self.probe = QTimer()
        self.probe.setInterval(PROBE_MS)
        self.probe.timeout.connect(self._probe)
        self.probe.start()
        self.steps = self._round()
        self.waiting_for = None
        self.finished = False
        self.driver = QTimer()
        self.driver.setInterval(20)
        self.driver.timeout.connect(self._drive)
        self.driver.start()
        self.session_file = os.path.join(tempfile.mkdtemp(prefix="perftscope-soak-"), "session.json")

    def done(self) -> bool:
        return self.finished

    # --- the event loop's latency ----------------------------------------------------------
    def _probe(self):
        now = time.monotonic()
        self.lateness.append(max(0.0, now - self._expected))
        self._expected = now + PROBE_MS / 1000

    # --- the steps -------------------------------------------------------------------------
    def _round(self):
        """The steps of one round: (name, start) with start() returning 'is it finished?'."""
        w, small = self.w, self.small
        engine = f"perftree:{ENGINES / 'ep_rank_pin.py'}"

        def perft(fen, depth, hash_exp):
            def start():
                w.board.set_fen(fen)
                w.runs.start(depth, 2, hash_exp)
                self.counts["perft runs"] += 1
                return lambda: not w.runs.running
            return start

        def divide():
            w.engines.set(engine=engine, reference="core")
            w.board.set_fen(POSITION_3)
            w.divider.divide(1 if small else 2)
            self.counts["divides"] += 1
            return lambda: not w.divider.busy()

        def find():
            w.engines.set(engine=engine, reference="core")
            w.board.set_fen(EP_PIN)
            w.divider.find_mismatch(2 if small else 3)
            self.counts["finder runs"] += 1
            return lambda: not w.divider.busy()

        def fuzz():
            w.engines.set(engine=engine, reference="core")
            w.test_engine.choose(mode="fuzz", seconds=1 if small else 5, seed=self.random.randrange(1000))
            w.test_engine.request_start()
            self.counts["fuzz sessions"] += 1
            return lambda: not w.engine_tests.running

        def moves():
            w.board.set_fen(KIWIPETE)
            for _ in range(10 if small else 40):
                legal = w.board.position.legal_moves()
                if not legal:
                    break
                w.board.play(self.random.choice(legal))
                self.counts["moves"] += 1
            for _ in range(5):
                w.board.undo()
            return lambda: True

        def session():
            w.sessions.save(self.session_file)
            ok = w.sessions.open(self.session_file)
            self.counts["sessions saved and opened"] += ok
            return lambda: True

        big = [("perft", perft(KIWIPETE, 4 if small else 5, 18)), ("perft", perft(POSITION_3, 5 if small else 6, -1))]
        if not small:
            big.append(("perft", perft("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", 6, 20)))
        return big + [("divide", divide), ("find", find), ("fuzz", fuzz), ("moves", moves), ("session", session)]

    def _drive(self):
        if self.finished:
            return
        if self.waiting_for is not None and not self.waiting_for():
            return
        self.waiting_for = None
        now = time.monotonic()
        if now >= self.next_sample:                 # a pause between steps: count what stayed
            self._sample(now)
            self.next_sample += self.every
        if now - self.started >= self.seconds:
            self._finish()
            return
        if not self.steps:
            self.steps = self._round()
            self.counts["rounds"] += 1
        _, start = self.steps.pop(0)
        self.waiting_for = start()

    def _sample(self, now: float):
        late = sorted(self.lateness) or [0.0]
        self.lateness = []
        self.samples.append({"t": round(now - self.started, 1), **process_figures(self.before),
                             "latency_p50_ms": round(1000 * late[len(late) // 2], 1),
                             "latency_p99_ms": round(1000 * late[min(len(late) - 1, int(len(late) * 0.99))], 1),
                             "latency_max_ms": round(1000 * late[-1], 1), **self.counts})

    def _finish(self):
        self.finished = True
        self.driver.stop()
        self.probe.stop()


def summary(samples: list[dict], warm: int = 1) -> dict:
    """The figures the soak is judged by: memory growth after the first `warm` samples, threads
    and children at the start and end of that stretch, latency first and last."""
    after = samples[warm:] or samples
    return {"samples": len(samples), "minutes": round(samples[-1]["t"] / 60, 1),
            "rss_warm_mb": round(after[0]["rss_mb"], 1), "rss_end_mb": round(samples[-1]["rss_mb"], 1),
            "rss_growth_mb": round(samples[-1]["rss_mb"] - after[0]["rss_mb"], 1),
            "rss_max_mb": round(max(s["rss_mb"] for s in after), 1),
            "threads_warm": after[0]["threads"], "threads_end": samples[-1]["threads"],
            "threads_max": max(s["threads"] for s in after),
            "children_max": max(s["children"] for s in samples),
            "latency_p99_first_ms": after[0]["latency_p99_ms"], "latency_p99_last_ms": samples[-1]["latency_p99_ms"],
            "latency_max_ms": max(s["latency_max_ms"] for s in after)}


def run(minutes: float, every: float, out: str | None, small: bool = False) -> dict:
    """The soak in a window of its own; returns {"samples", "summary", "counts"}."""
    os.environ["PATH"] = os.path.dirname(sys.executable) + os.pathsep + os.environ.get("PATH", "")
    from PySide6.QtCore import QEventLoop, QSettings, QTimer
    from PySide6.QtWidgets import QApplication
    from perftscope.app.gui import MainWindow, apply_style
    app = QApplication.instance() or QApplication([])
    apply_style(app)
    # settings of its own: the window remembers its engines and sizes, the user's stay as they are
    for kind in (QSettings.NativeFormat, QSettings.IniFormat):
        QSettings.setPath(kind, QSettings.UserScope, tempfile.mkdtemp(prefix="perftscope-soak-settings-"))
    w = MainWindow(KIWIPETE, reference="core")
    w.resize(1280, 800)
    w.show()
    soak = Soak(w, minutes * 60, every, small=small)
    loop = QEventLoop()
    check = QTimer()
    check.timeout.connect(lambda: soak.done() and loop.quit())
    check.start(100)
    loop.exec()
    check.stop()
    w.close()
    result = {"samples": soak.samples, "summary": summary(soak.samples), "counts": soak.counts,
              "machine": {"cpus": os.cpu_count(), "load_average": list(os.getloadavg())}}
    if out:
        Path(out).write_text(json.dumps(result, indent=1) + "\n")
    return result


def plot(data_file: str, image: str):
    """The per-sample figures as a small picture: memory, threads and children, latency."""
    import numpy as np
    import pyqtgraph as pg
    import pyqtgraph.exporters
    from PySide6.QtWidgets import QApplication
    app = QApplication.instance() or QApplication([])
    samples = json.loads(Path(data_file).read_text())["samples"]
    minutes = np.array([s["t"] for s in samples]) / 60
    pg.setConfigOptions(antialias=True, background="w", foreground="#333")
    layout = pg.GraphicsLayoutWidget()
    layout.resize(900, 640)
    rows = (("resident memory", "MB", (("rss_mb", "#1f5fa8"),)),
            ("threads and child processes", "", (("threads", "#15781b"), ("children", "#882020"))),
            ("event-loop lateness of a 50 ms timer", "ms", (("latency_p99_ms", "#e68f00"),
                                                            ("latency_p50_ms", "#1f5fa8"))))
    for i, (title, unit, series) in enumerate(rows):
        p = layout.addPlot(row=i, col=0, title=title)
        p.addLegend(offset=(-10, 10))
        p.setLabel("bottom", "minutes")
        if unit:
            p.setLabel("left", unit)
        for key, colour in series:
            name = {"rss_mb": "RSS", "threads": "threads", "children": "child processes",
                    "latency_p99_ms": "99th percentile", "latency_p50_ms": "median"}[key]
            p.plot(minutes, [s[key] for s in samples], pen=pg.mkPen(colour, width=2), symbol="o",
                   symbolSize=4, symbolBrush=colour, name=name)
        top = max(max(s[k] for s in samples) for k, _ in series)
        p.setYRange(0, top * 1.15 + 1, padding=0)
        p.getAxis("left").setWidth(60)
    layout.show()                 # laid out at its size before the picture is taken
    app.processEvents()
    exporter = pyqtgraph.exporters.ImageExporter(layout.scene())
    exporter.parameters()["width"] = 900
    exporter.export(image)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.soak", description=__doc__.splitlines()[0])
    parser.add_argument("--minutes", type=float, default=30.0)
    parser.add_argument("--every", type=float, default=60.0, help="seconds between samples")
    parser.add_argument("--out", help="write the samples and summary as JSON")
    parser.add_argument("--plot", nargs=2, metavar=("JSON", "PNG"), help="draw a soak's samples")
    args = parser.parse_args(argv)
    if args.plot:
        plot(*args.plot)
        return 0
    result = run(args.minutes, args.every, args.out)
    print(json.dumps({"summary": result["summary"], "counts": result["counts"]}, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
