"""A race, and an A/B duel of two builds, as core.job.Jobs: typed settings, each heat starting or
ending and each depth finished as an event, the engine being waited for as its activity, the Race
(the Duel) as its result.

    job = RaceJob(RaceSettings(("perftree:./my-perft.sh",), tuple(standard_positions()), seconds=5))
    race = job.run(print)        # RaceEvent('heat' | 'lap', heat, lap) as it goes
    duel = DuelJob(DuelSettings("uci:./old", "uci:./new", positions, repeat=10)).run(print)
                                 # ... and a DuelRun and a Progress after each timed run
"""
from __future__ import annotations

import threading
import time
from dataclasses import dataclass

from ..engines.mode import Mode
from ..job import Emit, Progress, Subject, ignore
from ..engines.spec import YARDSTICKS
from .duel import Duel, DuelSettings, Match
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


@dataclass(frozen=True)
class DuelRun:
    """One timed run of a duel: `match` (its position's figures so far), `side` 'A' or 'B', `round` from 0."""
    match: Match
    side: str
    round: int


class _Racing:
    """What both jobs share: the race's events emitted, the engine being waited for as activity."""

    def __init__(self):
        self._emit: Emit = ignore
        self._running: tuple | None = None      # (engine, position, depth, since) being waited for
        self._lock = threading.Lock()

    def _run(self, work, emit: Emit):
        self._emit = emit
        try:
            return work()
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


class RaceJob(_Racing):
    """A bad setting (no budget, both budgets, a spec that cannot be read) fails here."""

    def __init__(self, settings: RaceSettings):
        super().__init__()
        self.settings = settings
        self.race = Race(list(settings.engines), list(settings.positions), settings.seconds, settings.depth,
                         Mode(settings.threads, settings.hash_mb), settings.timeout, settings.yardsticks,
                         listener=self._heard)
        positions = ", ".join(p.name for p in self.race.positions)
        self.subject = Subject(engines=tuple(r.name for r in self.race.racers), what=f"Race on {positions}")

    def run(self, emit: Emit = ignore) -> Race:
        """The whole race (every engine closed at the end)."""
        return self._run(self.race.run, emit)


class DuelJob(_Racing):
    """Two builds timed in alternation (core.race.duel): the race's events, then after each timed
    run a DuelRun and a Progress (runs done of all the rounds asked)."""

    def __init__(self, settings: DuelSettings):
        super().__init__()
        self.settings = settings
        self.duel = Duel(settings, listener=self._heard, on_run=self._ran)
        self.race = self.duel.race
        positions = ", ".join(p.name for p in self.race.positions)
        self.subject = Subject(engines=tuple(r.name for r in self.race.racers), what=f"A/B on {positions}")
        self._runs, self._all = 0, 2 * settings.repeat * len(self.race.positions)

    def run(self, emit: Emit = ignore) -> Duel:
        """The whole duel (every engine closed at the end)."""
        return self._run(self.duel.run, emit)

    def _ran(self, match: Match, side: str, round_: int):
        self._runs += 1
        self._emit(DuelRun(match, side, round_))
        self._emit(Progress(self._runs, self._all, f"A/B: run {self._runs} of {self._all} ({side} on "
                                                   f"{match.position.name}, depth {match.depth})"))
