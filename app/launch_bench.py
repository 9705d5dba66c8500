"""Measure the first launch as a user meets it (docs/BENCHMARKS.md, "Start-up"): every row of
the start-up table, each in processes of its own, cold meaning an empty PERFTSCOPE_CACHE (a fresh
temporary folder: the user's own cache is left alone). Wall time and the process's CPU time
(children included) side by side: on a shared machine the wall clock also measures the others.

    python -m perftscope.app.launch_bench [--rounds N] [--no-gui] [--json] [--python PYTHON]
    python -m perftscope.app.launch_bench --kernels [--python PYTHON]   # each kernel's compile
    perftscope bench --startup                   # the same rows after the speed bench

--python times another installed build (another checkout's venv) with the same method, for a
before/after table in one sitting.

The GUI rows need an X server (Xvfb will do) and xdotool: the launch is polled every 50 ms for
its first window (the splash) and its main window, and its terminal lines say when every
kernel is ready.
"""
from __future__ import annotations

import argparse
import json
import os
import re
import resource
import shutil
import subprocess
import sys
import tempfile
import threading
import time

START = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
DIVIDE = ["divide", "-d", "1"]
PERFTREE = ["perftree", "3", START]


def _children_cpu() -> float:
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def _env(cache: str, config: str | None = None) -> dict:
    env = dict(os.environ, PERFTSCOPE_CACHE=cache)
    if config:
        env["XDG_CONFIG_HOME"] = config
    return env


PYTHON = sys.executable     # the build measured (--python)


def timed(argv: list[str], cache: str) -> tuple[float, float]:
    """(wall seconds, CPU seconds) of `python -m perftscope ARGV`, helper processes included."""
    cpu, start = _children_cpu(), time.perf_counter()
    subprocess.run([PYTHON, "-m", "perftscope", *argv], env=_env(cache), check=True,
                   stdout=subprocess.DEVNULL)
    return time.perf_counter() - start, _children_cpu() - cpu


def cold(argv: list[str]) -> tuple[float, float]:
    """`timed` with an empty cache, removed afterwards."""
    cache = tempfile.mkdtemp(prefix="perftscope-cache-")
    try:
        return timed(argv, cache)
    finally:
        shutil.rmtree(cache, ignore_errors=True)


def compile_all() -> tuple[float, float]:
    """Every kernel the window prepares, compiled in one process from an empty cache."""
    cache = tempfile.mkdtemp(prefix="perftscope-cache-")
    try:
        cpu, start = _children_cpu(), time.perf_counter()
        subprocess.run([PYTHON, "-c", "from perftscope.app.warmup import warm; warm()"],
                       env=_env(cache), check=True)
        return time.perf_counter() - start, _children_cpu() - cpu
    finally:
        shutil.rmtree(cache, ignore_errors=True)


_EVENTS = """
import json, sys, time
from collections import defaultdict
import numba.core.event as ev
stack, own, count = [], defaultdict(float), defaultdict(int)
class Listener(ev.Listener):
    def on_start(self, event):
        f = event.data["dispatcher"].py_func
        stack.append([f.__module__.rpartition(".")[2] + "." + f.__name__, time.process_time(), 0.0])
    def on_end(self, event):
        name, start, nested = stack.pop()
        spent = time.process_time() - start
        own[name] += spent - nested
        count[name] += 1
        if stack:
            stack[-1][2] += spent
ev.register("numba:compile", Listener())
from perftscope.app.cli import main
main(sys.argv[1:])
print(json.dumps({"kernels": sorted(([n, t, count[n]] for n, t in own.items()), key=lambda r: -r[1]),
                  "cpu": time.process_time()}), file=sys.stderr)
"""


def compile_events(argv: list[str] = DIVIDE) -> dict:
    """numba's compile events around `perftscope ARGV` on an empty cache: each function's own
    compile CPU time (the compiles nested in it left out) and how many signatures it got."""
    cache = tempfile.mkdtemp(prefix="perftscope-cache-")
    try:
        proc = subprocess.run([PYTHON, "-c", _EVENTS, *argv], env=_env(cache), check=True,
                              stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        return json.loads(proc.stderr.strip().splitlines()[-1])
    finally:
        shutil.rmtree(cache, ignore_errors=True)


def format_events(events: dict, most: int = 15) -> str:
    total = sum(t for _, t, _ in events["kernels"])
    lines = [f"compile events of a cold `perftscope divide -d 1`: {total:.2f} s of CPU in "
             f"{len(events['kernels'])} functions (the process: {events['cpu']:.2f} s)"]
    for name, t, n in events["kernels"][:most]:
        lines.append(f"  {t:7.2f} s  {100 * t / total:4.0f}%  {name}" + (f" ({n} signatures)" if n > 1 else ""))
    return "\n".join(lines)


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


def gui_can_be_measured() -> str | None:
    """Why the GUI rows cannot be measured here (None: they can)."""
    if not os.environ.get("DISPLAY"):
        return "no X display (run it under Xvfb)"
    if shutil.which("xdotool") is None:
        return "xdotool is not installed"
    return None


def gui(cache: str | None = None, command: list[str] | None = None, limit: float = 600) -> dict:
    """Start `perftscope gui` (on an empty cache unless `cache` is given) and report when its
    splash and its main window were mapped, when its kernels were all ready (its terminal's
    last line, on a cold cache) and its CPU time, helpers included."""
    own = cache is None
    cache = cache or tempfile.mkdtemp(prefix="perftscope-cache-")
    config = tempfile.mkdtemp(prefix="perftscope-config-")
    command = command or [PYTHON, "-m", "perftscope", "gui"]
    cpu = _children_cpu()
    start = time.monotonic()
    proc = subprocess.Popen(command, env=_env(cache, config), stderr=subprocess.PIPE, text=True)
    out: dict = {"splash": None, "window": None, "ready": None}
    said: list[str] = []

    def read_terminal():
        for line in proc.stderr:
            said.append(line)
            if "first run only" in line and re.search(r"\d+/\d+ ready\b", line):
                out["ready"] = time.monotonic() - start
    reader = threading.Thread(target=read_terminal, daemon=True)
    reader.start()
    try:
        while proc.poll() is None and time.monotonic() - start < limit:
            sizes = _windows()
            now = time.monotonic() - start
            if sizes and out["splash"] is None:
                out["splash"] = now
            if out["window"] is None and any(w > 600 for w, _ in sizes):
                out["window"] = now
            if out["window"] is not None and (out["ready"] is not None or not own and now > out["window"] + 1):
                break
            time.sleep(0.05)
    finally:
        proc.terminate()
        proc.wait(30)
        reader.join(5)
        if own:
            shutil.rmtree(cache, ignore_errors=True)
        shutil.rmtree(config, ignore_errors=True)
    out["cpu"] = _children_cpu() - cpu
    if out["window"] is None:
        out["error"] = "".join(said[-5:]).strip() or f"exit status {proc.returncode}"
    return out


def measure(rounds: int = 3, with_gui: bool = True) -> dict:
    """Every row: cold `divide -d 1` (each round a new empty cache), the same warm, warm
    `perftree 3`, every kernel compiled in one process, and the GUI's launch cold and warm."""
    rows: dict = {"load_before": os.getloadavg()[0]}
    rows["divide_cold"] = [cold(DIVIDE) for _ in range(rounds)]
    cache = tempfile.mkdtemp(prefix="perftscope-cache-")
    try:
        timed(DIVIDE, cache)
        timed(PERFTREE, cache)
        rows["divide_warm"] = [timed(DIVIDE, cache) for _ in range(rounds)]
        rows["perftree_warm"] = [timed(PERFTREE, cache) for _ in range(rounds)]
        rows["compile_all"] = [compile_all() for _ in range(max(1, rounds // 2))]
        why_not = gui_can_be_measured() if with_gui else "not asked for"
        if why_not:
            rows["gui_not_measured"] = why_not
        else:
            rows["gui_cold"] = [gui() for _ in range(rounds)]
            gui(cache)                                   # fills the shared cache
            rows["gui_warm"] = [gui(cache) for _ in range(rounds)]
    finally:
        shutil.rmtree(cache, ignore_errors=True)
    rows["load_after"] = os.getloadavg()[0]
    return rows


def _pairs(runs) -> str:
    return ", ".join(f"{w:.2f} s (cpu {c:.2f} s)" for w, c in runs)


def format_rows(rows: dict) -> str:
    lines = [f"start-up (load average {rows['load_before']:.1f} before, {rows['load_after']:.1f} after)",
             f"  `perftscope divide -d 1`, cold:      {_pairs(rows['divide_cold'])}",
             f"  `perftscope divide -d 1`, warm:      {_pairs(rows['divide_warm'])}",
             f"  `perftscope perftree 3 FEN`, warm:   {_pairs(rows['perftree_warm'])}",
             f"  every kernel compiled, one process:  {_pairs(rows['compile_all'])}"]
    if "gui_not_measured" in rows:
        lines.append(f"  `perftscope gui`: not measured: {rows['gui_not_measured']}")
    for label in ("cold", "warm"):
        for r in rows.get(f"gui_{label}", ()):
            ready = f", every kernel ready {r['ready']:.2f} s" if r.get("ready") is not None else ""
            window = f"{r['window']:.2f} s" if r.get("window") is not None else f"not seen ({r.get('error')})"
            splash = f"{r['splash']:.2f} s" if r.get("splash") is not None else "not seen"
            lines.append(f"  `perftscope gui`, {label}: splash {splash}, usable window {window}{ready} "
                         f"(cpu {r['cpu']:.2f} s)")
    return "\n".join(lines)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python -m perftscope.app.launch_bench", description=__doc__.split("\n")[0])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--no-gui", action="store_true")
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--python", default=sys.executable, help="the Python of the build to time")
    parser.add_argument("--kernels", action="store_true",
                        help="instead: what each kernel costs to compile (numba's compile events)")
    args = parser.parse_args(argv)
    global PYTHON
    PYTHON = args.python
    if args.kernels:
        events = compile_events()
        print(json.dumps(events, indent=1) if args.json else format_events(events))
        return 0
    rows = measure(max(1, args.rounds), with_gui=not args.no_gui)
    print(json.dumps(rows, indent=1) if args.json else format_rows(rows))
    return 0


if __name__ == "__main__":
    sys.exit(main())
