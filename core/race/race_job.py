"""A race as a core.job.Job: typed settings, each heat starting or ending and each depth
finished as an event, the engine being waited for as its activity, the Race as its result.

    job = RaceJob(RaceSettings(("perftree:./my-perft.sh",), tuple(standard_positions()), seconds=5))
    race = job.run(print)        # RaceEvent('heat' | 'lap', heat, lap) as it goes
"""
from __future__ import annotations

import threading
import time
from dataclasses import dataclass

from ..engines.mode import Mode
from ..job import Emit, Subject, ignore
from ..engines.spec import YARDSTICKS
from .runner import DEFAULT_TIMEOUT, RUNNING, Heat, Lap, Race, RacePosition


@dataclass(frozen=True)
class RaceSettings:
    """What a race runs: engine specs (Specs, or texts read when the race is made), positions, a budget in `seconds` per heat or a fixed
    `depth` (the other None), threads and hash asked of every engine (None: its own), the
    per-call timeout, and the yardsticks ('core', 'stockfish') raced beside them."""
    engines: tuple
    positions: tuple[RacePosition, ...]
    seconds: float | None = None
    depth: int | None = None
    threads: int | None = None
    hash_mb: int | None = None
    timeout: float = DEFAULT_TIMEOUT
    yardsticks: tuple[str, ...] = YARDSTICKS


@dataclass(frozen=True)
class RaceEvent:
    """'heat' when a heat starts or ends, 'lap' after each depth (its Lap); `heat` is a snapshot."""
    kind: str
    heat: Heat
    lap: Lap | None = None


class RaceJob:
    """A bad setting (no budget, both budgets, a spec that cannot be read) fails here."""

    def __init__(self, settings: RaceSettings):
        self.settings = settings
        self._emit: Emit = ignore
        self._running: tuple | None = None      # (engine, position, depth, since) being waited for
        self._lock = threading.Lock()
        self.race = Race(list(settings.engines), list(settings.positions), settings.seconds, settings.depth,
                         Mode(settings.threads, settings.hash_mb), settings.timeout, settings.yardsticks,
                         listener=self._heard)
        positions = ", ".join(p.name for p in self.race.positions)
        self.subject = Subject(engines=tuple(r.name for r in self.race.racers), what=f"Race on {positions}")

    def run(self, emit: Emit = ignore) -> Race:
        """The whole race (every engine closed at the end)."""
        self._emit = emit
        try:
            return self.race.run()
        finally:
            with self._lock:
                self._running = None

    def stop(self):
        """End the race now: the running engine is killed, nothing else runs."""
        self.race.stop()

    def activity(self) -> str | None:
        with self._lock:
            running = self._running
        if running is None:
            return None
        engine, position, depth, since = running
        return f"Racing {engine} on {position}: depth {depth}, {time.monotonic() - since:.1f} s"

    def _heard(self, kind: str, heat: Heat, lap: Lap | None):
        with self._lock:
            if kind == "lap":
                self._running = (heat.engine, heat.position.name, lap.depth + 1, time.monotonic())
            elif heat.status == RUNNING:
                self._running = (heat.engine, heat.position.name, 1, time.monotonic())
            else:
                self._running = None
        self._emit(RaceEvent(kind, heat, lap))
