"""One engine call measured: the wall clock around it, and what the OS says it cost, taken where
the kernel keeps it for each kind of engine (core.engines.usage says which figure is which):

- a program run per call (perftree scripts, `cmd:` templates): the Usage its process left when it
  was reaped (CPU by wait4, peak memory read while it ran);
- an engine kept running (UCI, engine files): CPU from /proc/PID/stat before and after the call,
  VmHWM after it (its peak since it started);
- an engine inside perftscope (python-chess): the CPU of this thread, no memory of its own.
"""
from __future__ import annotations

import time

from ..engines.usage import SOURCES, Usage, proc_times

__all__ = ["CallMeter", "SOURCES", "Usage"]


class CallMeter:
    """`with CallMeter(oracle) as m: oracle.answer(...)`, then `m.wall` and `m.usage` (None when
    the OS gave nothing, e.g. the engine restarted inside the call)."""

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
            self.usage = self.oracle.last_usage
        elif hasattr(self.oracle, "pid"):
            # a restart inside the call (the engine had died) leaves nothing to subtract from
            after = proc_times(self._pid) if self._pid and self.oracle.pid == self._pid else None
            if after is not None and self._before is not None:
                self.usage = Usage(after[0] - self._before[0], after[1], "/proc")
        else:
            self.usage = Usage(time.thread_time() - self._thread, None, "thread")
        return False
