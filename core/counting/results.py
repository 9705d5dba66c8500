"""What a perft run reports (its Result, its live Snapshot, the table's HashStats), shared by
the pool (core.counting.pool) and the small requests' path (core.counting.shallow). No numba:
a command can name these types without loading a kernel."""
from __future__ import annotations

import os
from dataclasses import dataclass


@dataclass(frozen=True)
class WorkerCounters:
    nodes: int
    probes: int
    hits: int
    stores: int
    replacements: int
    items: int


@dataclass(frozen=True)
class HashStats:
    entries: int
    probes: int
    hits: int
    stores: int
    replacements: int
    fill: float                # fraction of entries in use
    by_depth: tuple[tuple[int, int, int], ...] = ()    # (remaining depth, probes, hits)

    @property
    def hit_rate(self) -> float:
        return self.hits / self.probes if self.probes else 0.0

    def as_dict(self) -> dict:
        return {"entries": self.entries, "probes": self.probes, "hits": self.hits,
                "stores": self.stores, "replacements": self.replacements,
                "fill": round(self.fill, 6),
                "by_depth": [{"depth": d, "probes": p, "hits": h} for d, p, h in self.by_depth]}


@dataclass(frozen=True)
class Snapshot:
    """Live counters. nodes counts leaves accounted for so far (a table hit adds its
    whole subtree), so nodes / elapsed is the run's NPS; hash.fill is an estimate
    until the run is done."""
    elapsed: float
    nodes: int
    workers: tuple[WorkerCounters, ...]
    hash: HashStats | None
    items_done: int
    items_total: int
    done: bool
    cancelled: bool


@dataclass(frozen=True)
class Result:
    fen: str
    depth: int
    workers: int
    seconds: float
    cancelled: bool = False
    nodes: int | None = None                 # None when cancelled
    divide: dict[str, int] | None = None     # {uci: count}, when asked for
    stats: dict[str, int] | None = None      # the chessprogramming columns, when asked for
    hash: HashStats | None = None
    items: int = 0
    worker_cpu: tuple[float, ...] = ()      # each worker thread's CPU seconds

    @property
    def nps(self) -> float:
        return self.nodes / self.seconds if self.nodes and self.seconds > 0 else 0.0


def default_workers() -> int:
    return os.cpu_count() or 1
