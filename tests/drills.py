"""Fault drills: each hostile engine of tests/core/engines/test_hostile_engines.py once more, through
the product's own oracles, with the figures docs/RELIABILITY.md gives: what perftscope said,
how long after the call began, how much this process's resident memory rose meanwhile, and how
many of the engine's processes were left a second later.

    python -m tests.drills            # a Markdown table on stdout (about a minute)

Hanging engines are given a 5 s timeout (the window's default is 60 s, the CLI's 600 s).
"""
from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

from tests.processes import marker, with_marker
from perftscope.core.engines.oracle import Request

PAWNS = "8/8/8/8/8/8/PP6/K6k w - - 0 1"
TIMEOUT = 5.0
UCI_LOOP = ('while read line; do case "$line" in uci) echo uciok;; isready) echo readyok;;\n'
            '  go*) {go};; quit) {quit};; esac; done\n')

# (file name, what the engine does, kind, shell body); MARK becomes a `sleep` duration to find its processes
DRILLS = [
    ("random.sh", "prints 3000 random bytes", "perftree", "head -c 3000 /dev/urandom"),
    ("urandom.sh", "prints random bytes for ever", "perftree", "cat /dev/urandom"),
    ("latin1.sh", "a move line with bytes that are not UTF-8", "perftree", r"printf 'a2a3: 1\nb2b3: 1\377\n'"),
    ("nul.sh", "a move line with a NUL byte", "perftree", r"printf 'a2a3: 1\nb2\000b3: 1\n'"),
    ("cr.sh", "lines ended by \\r only", "perftree",
     r"printf 'a2a3: 1\ra2a4: 1\rb2b3: 1\rb2b4: 1\ra1b1: 1\r\r5\r'"),
    ("half-line.sh", "half a line, then silence", "perftree", "printf 'a2a3: 1'; sleep MARK"),
    ("stderr.sh", "its divide on stderr, nothing on stdout", "perftree", r"printf 'a2a3: 1\na2a4: 1\n' >&2"),
    ("uci-stderr", "a UCI engine answering on stderr", "uci",
     'while read line; do case "$line" in uci) echo uciok >&2;; esac; done'),
    ("silent.sh", "exit 0 with nothing printed", "perftree", "exit 0"),
    ("closes-stdin", "closes its input after the handshake", "uci",
     "read line; echo uciok; read line; echo readyok\nexec 0<&-\nsleep MARK"),
    ("child.sh", "leaves a child holding its output", "perftree", "sleep MARK &\nprintf 'a2a3: 1\\n'"),
    ("setsid-child.sh", "leaves a setsid grandchild holding its output", "perftree",
     "setsid sleep MARK &\nprintf 'a2a3: 1\\n'"),
    ("quiet-child.sh", "leaves a child running, output redirected", "perftree",
     "sleep MARK >/dev/null 2>&1 &\nprintf 'a2a3: 1\\na2a4: 1\\nb2b3: 1\\nb2b4: 1\\na1b1: 1\\n'"),
    ("stubborn", "ignores SIGTERM and quit (closed after one answer)", "uci-stubborn",
     "trap '' TERM INT HUP\n" + UCI_LOOP.format(go=r"printf 'a2a3: 1\n\nNodes searched: 1\n'", quit=":")),
    ("yes.sh", "prints `e2e4 1` for ever", "perftree", 'yes "e2e4 1"'),
    ("endless-line.sh", "prints one endless line", "perftree", "yes | tr -d '\\n'"),
]


def _rss_mb() -> float:
    with open("/proc/self/status") as f:
        return next(int(line.split()[1]) for line in f if line.startswith("VmRSS:")) / 1024


def drill(folder: Path, name: str, what: str, kind: str, body: str) -> dict:
    from perftscope.core.engines.oracles import make_oracle
    from perftscope.core.errors import PerftscopeError
    mark = marker()
    script = folder / name
    script.write_text("#!/bin/sh\n" + body.replace("MARK", mark) + "\n")
    script.chmod(0o755)
    peak, before, stop = [_rss_mb()], _rss_mb(), threading.Event()

    def watch():
        while not stop.wait(0.005):
            peak.append(_rss_mb())
    watcher = threading.Thread(target=watch, daemon=True)
    watcher.start()
    start = time.monotonic()
    oracle = None
    try:
        oracle = make_oracle(f"{kind.split('-')[0]}:{script}", timeout=TIMEOUT)
        said = f"answered {oracle.divide(Request.of(PAWNS), 1)}"
        if kind == "uci-stubborn":
            closing = time.monotonic()
            oracle.close()
            said += f"; close() returned in {1000 * (time.monotonic() - closing):.0f} ms"
    except PerftscopeError as e:
        said = str(e)
    seconds = time.monotonic() - start
    if oracle is not None and kind != "uci-stubborn":
        oracle.close()
    stop.set()
    watcher.join()
    time.sleep(1.5 if kind == "uci-stubborn" else 1.0)
    left = len(with_marker(mark)) + len(with_marker(str(script)))
    return {"fault": what, "said": said, "seconds": seconds, "memory_mb": max(peak) - before, "left": left}


def window_killed(how: str, work: str) -> dict:
    """The window's process killed (or closed) while a hanging engine works: seconds from the
    signal until no process of the engine is left."""
    from tests.app.test_gui_killed import VICTIM, _engine
    mark = marker()
    kind = "perftree" if work == "finder" else "uci"
    engine = _engine(Path(tempfile.mkdtemp()), mark, kind)
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen", XDG_CONFIG_HOME=tempfile.mkdtemp())
    env["PATH"] = os.path.dirname(sys.executable) + os.pathsep + env["PATH"]
    window = subprocess.Popen([sys.executable, "-c", VICTIM, work, engine, how], stdout=subprocess.PIPE,
                              text=True, env=env)
    window.stdout.readline()
    while len(with_marker(mark)) < 3:
        time.sleep(0.01)
    start = time.monotonic()
    if how != "close":
        window.send_signal(getattr(__import__("signal"), how))
    window.wait()
    while with_marker(mark) and time.monotonic() - start < 10:
        time.sleep(0.005)
    return {"fault": f"window {'closed' if how == 'close' else 'sent ' + how} during a {work} run",
            "seconds": time.monotonic() - start, "left": len(with_marker(mark))}


def main() -> int:
    os.environ["PATH"] = os.path.dirname(sys.executable) + os.pathsep + os.environ.get("PATH", "")
    folder = Path(tempfile.mkdtemp(prefix="perftscope-drills-"))
    drill(folder, "warm-up.sh", "warm-up", "perftree", "printf 'a2a3: 1\\n'")     # imports and first allocations
    print("| the engine | perftscope said | seconds | memory rise | processes left |")
    print("|---|---|---|---|---|")
    for name, what, kind, body in DRILLS:
        r = drill(folder, name, what, kind, body)
        said = r["said"].replace("|", "\\|").replace(str(folder) + "/", "")
        print(f"| {what} | {said} | {r['seconds']:.3f} | {r['memory_mb']:.1f} MB | {r['left']} |", flush=True)
    print()
    print("| the window | seconds until no engine process is left | processes left |")
    print("|---|---|---|")
    for work in ("finder", "fuzz"):
        for how in ("close", "SIGTERM", "SIGKILL"):
            r = window_killed(how, work)
            print(f"| {r['fault']} | {r['seconds']:.3f} | {r['left']} |", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
