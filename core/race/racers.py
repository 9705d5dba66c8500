"""The contestants of a race, each timed the same way: one call is one perft of a position at a
depth, measured by the wall clock around it and by what the OS says it cost (core.race.measure).

`EngineRacer` drives any engine spec through its Oracle (a program per call, a process kept
running, python-chess in this thread); `CoreRacer` runs the core's worker pool with the race's
threads and table, the settings a yardstick is labelled with.
"""
from __future__ import annotations

import re
import time
from dataclasses import dataclass

from ..engines.mode import Mode, describe, uci_defaults
from ..engines.spec import Spec, parse_spec
from ..errors import OracleCancelled
from ..limits import table_bytes
from ..engines.usage import Usage
from .measure import CallMeter

# "Time: 523 ms", "time 0.52 s", "took 1.2s", "Total time (ms) : 523", "N leaves in 0.857 s"
_UNIT = r"ms|msec|milliseconds?|us|µs|microseconds?|s|secs?|seconds?"
_OWN_TIME = re.compile(rf"\b(?:time|elapsed|took)\b(?P<gap>[^\d\n]{{0,20}}?)(?P<n>\d+(?:\.\d+)?)\s*"
                       rf"(?P<unit>{_UNIT})?(?!\w)|\bin\s+(?P<n2>\d+(?:\.\d+)?)\s*(?P<unit2>{_UNIT})(?!\w)", re.I)
_LABEL_UNIT = re.compile(r"\((ms|s|sec|seconds)\)", re.I)
_SECONDS = {"ms": 1e-3, "msec": 1e-3, "millisecond": 1e-3, "milliseconds": 1e-3, "us": 1e-6, "µs": 1e-6,
            "microsecond": 1e-6, "microseconds": 1e-6, "s": 1.0, "sec": 1.0, "secs": 1.0, "second": 1.0,
            "seconds": 1.0}


def own_time(lines) -> float | None:
    """Seconds from the last line where an engine says how long it took, None if none does. After
    'time' a number without a unit is milliseconds when whole ('time 523'), seconds with a decimal
    point; after 'in' it needs its unit ('in 0.857 s')."""
    for line in reversed(list(lines)):
        m = _OWN_TIME.search(line)
        if m and m["n2"]:                   # "in 0.857 s": only with its unit
            return float(m["n2"]) * _SECONDS[m["unit2"].lower()]
        if m:
            label = _LABEL_UNIT.search(m["gap"])
            unit = (m["unit"] or (label[1] if label else "") or ("s" if "." in m["n"] else "ms")).lower()
            return float(m["n"]) * _SECONDS[unit]
    return None


@dataclass(frozen=True)
class Timing:
    """One call: the count, the wall clock around it, what the OS says it cost, and the time the
    engine printed itself (None when it prints none)."""
    nodes: int
    seconds: float
    usage: Usage | None
    own_seconds: float | None = None


class EngineRacer:
    """An engine spec raced through its Oracle; `oracle` is what the finder asks when its count
    is wrong."""

    def __init__(self, spec: Spec, mode: Mode | None, timeout: float):
        self.spec, self.mode, self.timeout = spec, mode, timeout
        self.oracle = None
        self.launch: float | None = None      # seconds to start a process kept running
        self.name = spec.short_name

    def start(self):
        from ..engines.oracles import make_oracle
        began = time.perf_counter()
        self.oracle = make_oracle(self.spec, timeout=self.timeout, mode=self.mode)
        self.name = self.oracle.name
        if getattr(self.oracle, "pid", None):
            self.launch = time.perf_counter() - began

    @property
    def label(self) -> str:
        taken = self.oracle.taken if self.oracle is not None else {}
        defaults = uci_defaults(getattr(self.oracle, "greeting", []))
        settings = describe(self.mode, taken, defaults)
        return f"{self.name} ({settings})" if settings else self.name

    def call(self, request, depth: int) -> Timing:
        """One timed call on `request` (a core.engines.oracle.Request, read before the clock starts)."""
        if hasattr(self.oracle, "prepare"):     # how it prints a divide is learned before a call is timed
            self.oracle.prepare()
        with CallMeter(self.oracle) as meter:
            answer = self.oracle.answer(request, depth)
        call = self.oracle.calls
        printed = [text for number, way, text in self.oracle.log.entries() if number == call and way == "<"]
        return Timing(answer.total, meter.wall, meter.usage, own_time(printed))

    def cancel(self):
        if self.oracle is not None:
            self.oracle.cancel()

    def close(self):
        if self.oracle is not None:
            self.oracle.close()


def hash_exp_for(hash_mb: int | None) -> int:
    """The largest core table (2^exp entries) within `hash_mb` MiB; -1 (no table) for none or 0."""
    if not hash_mb:
        return -1
    exp = 2
    while table_bytes(exp + 1) <= hash_mb * 2 ** 20:
        exp += 1
    return exp if table_bytes(exp) <= hash_mb * 2 ** 20 else -1


class CoreRacer:
    """The core on its worker pool: `threads` workers (1 unless the race asks for more) and the
    largest table within the race's hash size (none unless asked)."""
    oracle = None
    launch = None
    spec = parse_spec("core")

    def __init__(self, mode: Mode | None):
        self.mode = mode or Mode()
        self.workers = self.mode.threads or 1
        self.hash_exp = hash_exp_for(self.mode.hash_mb)
        self.name = "core"
        self._run = None

    def start(self):
        from .. import kernels
        kernels.table()          # compiled or loaded now, not inside the first timed call

    @property
    def taken(self) -> dict:
        return {"threads": self.workers,
                "hash_mb": table_bytes(self.hash_exp) // 2 ** 20 if self.hash_exp >= 0 else 0}

    @property
    def label(self) -> str:
        return f"core ({describe(None, self.taken)})"

    def call(self, request, depth: int) -> Timing:
        from ..counting.pool import start_perft
        began = time.perf_counter()
        self._run = start_perft(request.position, depth, self.workers, self.hash_exp)
        result = self._run.result()
        wall = time.perf_counter() - began
        if result.cancelled:
            raise OracleCancelled(f"core: cancelled while counting perft {depth} of {request.root}")
        return Timing(result.nodes, wall, Usage(sum(result.worker_cpu), None, "thread"))

    def cancel(self):
        run = self._run
        if run is not None:
            run.cancel()

    def close(self):
        self.cancel()
