"""A perft run on the pool as a core.job.Job. Its live counters are not events: whoever shows
them reads `snapshot()` at its own pace (the window's one timer), as core.counting.pool intends.

    job = PerftJob(PerftSettings(Position.from_fen(fen), depth=6, workers=2, hash_exp=20))
    result = job.run()            # a pool Result; cancelled=True after stop()
"""
from __future__ import annotations

import threading
from dataclasses import dataclass

from ..board.position import Position
from ..job import Emit, Subject, ignore
from .pool import PerftRun, Result, Snapshot, _check, start_perft


@dataclass(frozen=True)
class PerftSettings:
    """What a run counts and how: the position, the depth, worker threads, log2 of the table's
    entries (negative: no table)."""
    position: Position
    depth: int
    workers: int
    hash_exp: int = -1


class PerftJob:
    """Bad settings (a depth or a table the pool cannot take) fail here, with core.counting.pool's message."""

    def __init__(self, settings: PerftSettings, root: tuple[str, tuple] | None = None):
        _check(settings.depth, settings.workers, settings.hash_exp)
        self.settings = settings
        fen, moves = root if root is not None else (settings.position.fen(), ())
        self.subject = Subject(fen, tuple(moves), ("core",))
        self.run_: PerftRun | None = None
        self._stopped = threading.Event()
        self._lock = threading.Lock()

    def run(self, emit: Emit = ignore) -> Result:
        s = self.settings
        with self._lock:
            if self._stopped.is_set():          # stopped before it began: nothing counted
                return Result(s.position.fen(), s.depth, s.workers, 0.0, cancelled=True)
            self.run_ = start_perft(s.position, s.depth, s.workers, s.hash_exp)
        return self.run_.result()

    def stop(self):
        with self._lock:
            self._stopped.set()
            if self.run_ is not None:
                self.run_.cancel()

    def activity(self) -> str | None:
        return None

    def snapshot(self) -> Snapshot | None:
        """The run's live counters (None before it has started)."""
        run = self.run_
        return run.snapshot() if run is not None else None
