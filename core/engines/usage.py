"""What the operating system says an engine process used: CPU seconds and peak resident memory.

Each figure says where it comes from (`Usage.source`, explained in SOURCES), because they are not
the same thing. Peak memory is VmHWM from /proc/PID/status, the high-water mark of the program's
own address space. wait4's ru_maxrss is not used: Linux folds into it the memory of the process
that started the program (the hiwater of the address space the child execs from: all of
perftscope's, hundreds of MiB), so a 10 MiB engine would read as 300 MiB.
"""
from __future__ import annotations

import os
from dataclasses import dataclass

try:
    _TICK = os.sysconf("SC_CLK_TCK")
except (ValueError, OSError, AttributeError):
    _TICK = 100

SOURCES = {
    "wait4": "a program run per call: CPU of the process and the children it waited for (wait4); "
             "peak memory read from /proc as its output arrived",
    "/proc": "an engine kept running: CPU during the call from /proc/PID/stat; peak memory since "
             "the engine started (VmHWM)",
    "thread": "inside perftscope: CPU of the threads that counted; no memory of its own",
}


@dataclass(frozen=True)
class Usage:
    cpu: float | None          # seconds, user + system
    peak: int | None           # bytes of resident memory at the most
    source: str | None         # a key of SOURCES


def proc_times(pid: int) -> tuple[float, int | None] | None:
    """(CPU seconds of `pid` and the children it waited for, VmHWM in bytes) from /proc, or None
    when the process is gone or /proc cannot be read (not Linux)."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as f:
            stat = f.read().decode("ascii", "replace")
    except OSError:
        return None
    # the command name in parentheses may hold spaces: fields are counted after its last ')'
    fields = stat[stat.rfind(")") + 2:].split()
    try:
        utime, stime, cutime, cstime = (int(x) for x in fields[11:15])
    except (ValueError, IndexError):
        return None
    return (utime + stime + cutime + cstime) / _TICK, peak_memory(pid)


def peak_memory(pid: int) -> int | None:
    """VmHWM of `pid` in bytes; None when it is gone, a zombie, or /proc cannot be read."""
    try:
        with open(f"/proc/{pid}/status", "rb") as f:
            for line in f:
                if line.startswith(b"VmHWM:"):
                    return int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        pass
    return None
