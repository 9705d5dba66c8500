"""Whether a cluster run's scheduler has a worker, and which workers died on it (WorkerWatch)."""
from __future__ import annotations

import time
from typing import Callable

from .cluster_settings import ClusterError

WAIT_NOTICE = 0.0          # seconds without a worker before saying so: at the first look
WATCH_EVERY = 0.5          # seconds between looks at the scheduler's workers
CRASH_LIMIT = 3            # workers dying this run, with no task finished: a crash loop
YOUNG = 60.0               # a worker gone within this many seconds of joining died young


class WorkerWatch:
    """Whether the scheduler has a worker, and which workers died on it.

    Dask waits for workers forever, and a worker that dies at start-up is restarted
    by its nanny (or its supervisor) and dies again, forever. So the run looks: with
    no worker for `wait` seconds it gives up, and CRASH_LIMIT workers dying during
    the run before any task finished is a crash loop, reported at once. Deaths are
    read from the scheduler's own event log (add-worker / remove-worker), so a worker
    that lived half a second between two looks is still seen, and one from before
    this run still explains why there is no worker now."""

    def __init__(self, client, wait: float, notify: Callable[[str], None] | None = None):
        self.client = client
        self.address = client.scheduler.address
        self.wait = wait
        self.notify = notify or (lambda message: None)
        self.none_since: float | None = None
        self.noticed = False
        self.last_look = 0.0
        self.before = {key for key, _ in self._deaths()}    # deaths from before this run

    def _deaths(self) -> list[tuple[tuple[float, str], float]]:
        """((when, worker), seconds it lived) for each worker that left unexpectedly."""
        try:
            events = self.client.get_events("all")
        except Exception:      # noqa: BLE001  (an old scheduler without the event log)
            return []
        joined: dict[str, float] = {}
        out = []
        for when, msg in events:
            if not isinstance(msg, dict):
                continue
            if msg.get("action") == "add-worker":
                joined[msg.get("worker")] = when
            elif msg.get("action") == "remove-worker" and not msg.get("expected", False):
                w = msg.get("worker")
                out.append(((when, w), when - joined.get(w, when)))
        return out

    def _workers(self) -> int:
        return len(self.client.scheduler_info(n_workers=-1).get("workers", {}))

    def _young_deaths(self, new_only: bool) -> list[tuple[str, float]]:
        return [(key[1], lived) for key, lived in self._deaths()
                if lived < YOUNG and not (new_only and key in self.before)]

    def workers(self, tasks_finished: int = 0, force: bool = False) -> int:
        """Live workers now; raises ClusterError for a crash loop or a wait run out."""
        now = time.monotonic()
        if not force and now - self.last_look < WATCH_EVERY:
            return -1
        self.last_look = now
        n = self._workers()
        new_deaths = self._young_deaths(new_only=True)
        if tasks_finished == 0 and len(new_deaths) >= CRASH_LIMIT:
            raise ClusterError(self._crash_message(new_deaths, "during this run"))
        if n:
            self.none_since = None
            return n
        if self.none_since is None:
            self.none_since = now
        waited = now - self.none_since
        if waited >= self.wait:
            young = self._young_deaths(new_only=False)
            if young:
                raise ClusterError(self._crash_message(young, f"and none is there after {self.wait:g} s"))
            raise ClusterError(f"no worker at the scheduler {self.address} for {self.wait:g} s "
                               f"({{wait_workers}}); start one with: dask worker {self.address}")
        if waited >= WAIT_NOTICE and not self.noticed:
            self.noticed = True
            self.notify(f"the scheduler at {self.address} has no worker; waiting up to {self.wait:g} s "
                        f"for one (start one with: dask worker {self.address})")
        return 0

    def _crash_message(self, deaths, when: str) -> str:
        worker, lived = deaths[-1]
        return (f"workers keep dying at the scheduler {self.address}: {len(deaths)} joined and died "
                f"within {YOUNG:.0f} s of starting {when} (the last, {worker}, after {lived:.1f} s); "
                f"see the workers' own logs")

    def wait_for_one(self):
        """Block until the scheduler has a worker (or raise as `workers` does)."""
        while self.workers(force=True) <= 0:
            time.sleep(WATCH_EVERY)
