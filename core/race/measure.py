"""What the operating system says an engine call cost: CPU seconds and peak resident memory.

Each kind of engine is measured where the kernel keeps the figures, and each Usage says which
figure it is (`source`), because they are not the same thing:

- `wait4`: a program run per call (perftree scripts, `cmd:` templates), reaped with wait4 by
  core.engines.process: its own CPU time and that of the children it waited for, and the peak
  resident memory of the largest of them, over the whole call (start-up included).
- `/proc`: an engine kept running (UCI, engine files): the CPU time read from /proc/PID/stat
  before and after the call (the process and the children it waited for), and VmHWM from
  /proc/PID/status: its peak resident memory since it started, not only during this call.
- `thread`: an engine inside this process (python-chess, the core's worker threads): CPU time of
  the threads that did the work; no memory figure of its own.
"""
from __future__ import annotations

import os
import time
from dataclasses import dataclass

try:
    _TICK = os.sysconf("SC_CLK_TCK")
except (ValueError, OSError, AttributeError):
    _TICK = 100

SOURCES = {"wait4": "CPU and peak memory of the process run for this call (wait4)",
           "/proc": "CPU during the call; peak memory since the engine started (/proc/PID)",
           "thread": "CPU of the threads that counted, inside perftscope; no memory of its own"}


@dataclass(frozen=True)
class Usage:
    cpu: float | None          # seconds, user + system
    peak: int | None           # bytes of resident memory at the most
    source: str                # a key of SOURCES


def proc_times(pid: int) -> tuple[float, int | None] | None:
    """(CPU seconds of `pid` and the children it waited for, VmHWM in bytes) from /proc, or None
    when the process is gone or /proc cannot be read (not Linux)."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as f:
            stat = f.read().decode("ascii", "replace")
        with open(f"/proc/{pid}/status", "rb") as f:
            status = f.read().decode("ascii", "replace")
    except OSError:
        return None
    # the command name in parentheses may hold spaces: fields are counted after its last ')'
    fields = stat[stat.rfind(")") + 2:].split()
    try:
        utime, stime, cutime, cstime = (int(x) for x in fields[11:15])
    except (ValueError, IndexError):
        return None
    peak = None
    for line in status.splitlines():
        if line.startswith("VmHWM:"):
            peak = int(line.split()[1]) * 1024
    return (utime + stime + cutime + cstime) / _TICK, peak


def from_rusage(usage) -> Usage:
    # ru_maxrss is in KiB on Linux
    return Usage(usage.ru_utime + usage.ru_stime, usage.ru_maxrss * 1024, "wait4")


class CallMeter:
    """Measures one call of `oracle` (an Oracle of core.engines): `with CallMeter(o) as m: ...`,
    then `m.wall` and `m.usage`. The wall clock runs from entering to leaving the block."""

    def __init__(self, oracle):
        self.oracle = oracle
        self.wall = 0.0
        self.usage: Usage | None = None

    def __enter__(self):
        self._pid = getattr(self.oracle, "pid", None)
        self._before = proc_times(self._pid) if self._pid else None
        self._thread = time.thread_time()
        self._start = time.perf_counter()
        return self

    def __exit__(self, *exc):
        self.wall = time.perf_counter() - self._start
        if hasattr(self.oracle, "last_usage"):
            ru = self.oracle.last_usage
            self.usage = from_rusage(ru) if ru is not None else None
        elif hasattr(self.oracle, "pid"):
            # a restart inside the call (the engine had died) leaves nothing to subtract from
            after = proc_times(self._pid) if self._pid and self.oracle.pid == self._pid else None
            if after is not None and self._before is not None:
                self.usage = Usage(after[0] - self._before[0], after[1], "/proc")
        else:
            self.usage = Usage(time.thread_time() - self._thread, None, "thread")
        return False
