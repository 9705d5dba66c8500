"""What a cluster run counts, where and how (ClusterRun, checked once), and ClusterError, whose
messages name the run's parameters as ClusterRun names them ("split must be between ..."): a
front end writes its own word for each with ClusterError.spelled (the CLI's `--split`)."""
from __future__ import annotations

import os
import re
from dataclasses import dataclass

from ..errors import PerftscopeError
from ..limits import CLUSTER_TASKS, CLUSTER_WORKER_WAIT, SPLIT_LIMIT, TABLE_MAX_EXP, WORKERS_LIMIT

DEFAULT_TASKS = CLUSTER_TASKS       # fixed, not per worker: a journal resumes on any cluster size
WORKER_WAIT = CLUSTER_WORKER_WAIT   # seconds a run waits while the scheduler has no worker
JOURNAL_FORMAT = 2          # 2: rows in generation order (core.counting.split)


class ClusterError(PerftscopeError):
    """A cluster run that cannot start, cannot reach its scheduler, or did not finish.

    The message names the run's parameters in braces ({split}, {journal}, ClusterRun's
    fields): str() writes each name as it is, spelled() as the caller calls it."""

    def __str__(self):
        return self.spelled({})

    def spelled(self, words: dict[str, str]) -> str:
        """The message with each {parameter} written as words[parameter] (default: its name)."""
        return _PARAMETER.sub(lambda m: words.get(m.group(1), m.group(1)), self.template)

    @property
    def template(self) -> str:
        return super().__str__()


_PARAMETER = re.compile(r"\{(" + "|".join(("fen", "moves", "depth", "split", "divide", "tasks", "hash_exp",
                                             "address", "local", "journal", "wait_workers", "dashboard")) + r")\}")


@dataclass(frozen=True)
class ClusterRun:
    """What a run counts (perft or divide of `fen` + `moves` at `depth`, the first `split` plies
    on the client), where (the scheduler at `address`, else a local cluster of `local` worker
    processes, default one per core), into how many `tasks`, with which table on each worker
    (`hash_exp` < 0: none), keeping finished tasks in `journal`, how long it waits for a worker
    (`wait_workers` seconds), and whether the scheduler serves its dashboard (`dashboard`: a
    local cluster's on the loopback only, like everything a local cluster listens on)."""
    fen: str
    moves: str
    depth: int
    split: int
    divide: bool = False
    tasks: int = DEFAULT_TASKS
    hash_exp: int = -1
    address: str | None = None
    local: int | None = None
    journal: str | os.PathLike | None = None
    wait_workers: float = WORKER_WAIT
    dashboard: bool = False

    def check(self):
        """ClusterError naming the parameter that cannot be run."""
        if self.hash_exp > TABLE_MAX_EXP:
            raise ClusterError(f"{{hash_exp}} {self.hash_exp}: a table of 2^{self.hash_exp} entries is too large "
                               f"(at most 2^{TABLE_MAX_EXP})")
        if self.depth < 0:
            raise ClusterError(f"{{depth}} must be >= 0, got {self.depth}")
        most = min(self.depth, SPLIT_LIMIT)
        if not 0 <= self.split <= most:
            raise ClusterError(f"{{split}} must be between 0 and {most} for depth {self.depth}, got {self.split}")
        if self.divide and self.split < 1:
            raise ClusterError("divide on a cluster needs {split} of at least 1")
        if self.tasks < 1:
            raise ClusterError(f"{{tasks}} must be at least 1, got {self.tasks}")
        if self.local is not None and self.address is not None:
            raise ClusterError("give either {local} N or {address} ADDRESS, not both")
        if self.local is not None and not 1 <= self.local <= WORKERS_LIMIT:
            raise ClusterError(f"{{local}} needs between 1 and {WORKERS_LIMIT} workers, got {self.local}")
        if not self.wait_workers > 0:
            raise ClusterError(f"{{wait_workers}} must be more than 0 seconds, got {self.wait_workers}")

    def key(self) -> dict:
        """What decides the answer and the tasks: a journal is kept for this, and refused for another."""
        return {"format": JOURNAL_FORMAT, "fen": self.fen, "moves": " ".join(self.moves.split()),
                "depth": self.depth, "split": self.split, "divide": self.divide, "tasks": self.tasks}
