"""Dask workers a test holds in its hand, so that what it does next (kill the client, the
scheduler or a worker) lands mid-run however fast the core counts and however starved of CPU
the client is beside other tests: with free-running workers a run of perft 7 can end in about a
second, before a test polling for its first results has seen them."""
import contextlib
import os
import signal
import sqlite3
import time

from perftscope.core.board.position import START_FEN, Position
from perftscope.core.counting.cluster import count_task, make_tasks
from perftscope.core.counting.split import split_positions


def warmed(client, workers: int) -> list[int]:
    """Waits for `workers` workers, has each load the counting kernels (a task of depth 1) so
    that no slice below is spent loading them, and returns their process ids."""
    client.wait_for_workers(workers, timeout=60)
    rows = make_tasks(split_positions(Position.from_fen(START_FEN), 1, False), 2, 1)[0].rows
    client.run(count_task, rows, 1)
    return list(client.run(os.getpid).values())


def tasks_in_journal(journal) -> int:
    """The tasks a running client has written to its journal so far (0 before it exists), read
    without ever creating the file."""
    try:
        with sqlite3.connect(f"file:{journal}?mode=ro", uri=True) as db:
            return db.execute("SELECT COUNT(*) FROM tasks").fetchone()[0]
    except sqlite3.OperationalError:         # not created yet
        return 0


@contextlib.contextmanager
def paced(pids, done, enough: int, running=lambda: True, timeout: float = 120):
    """Holds the processes (SIGSTOP) and lets them run in slices of 5 ms until done() (what the
    client has recorded: journal rows, tasks reported) reaches `enough`, then yields with them
    still held. After each slice the client is given time to record what the slice finished,
    so the run is held a few tasks past `enough`, never at its end. They run again on leaving,
    whatever happened."""
    for pid in pids:
        os.kill(pid, signal.SIGSTOP)
    try:
        deadline = time.monotonic() + timeout
        while done() < enough:
            assert running(), f"the client ended with {done()} tasks recorded, before {enough}"
            assert time.monotonic() < deadline, f"{done()} tasks recorded after {timeout:g} s"
            for pid in pids:
                os.kill(pid, signal.SIGCONT)
            time.sleep(0.005)
            for pid in pids:
                os.kill(pid, signal.SIGSTOP)
            before, waited = done(), time.monotonic()
            while done() == before and time.monotonic() - waited < 0.05:
                time.sleep(0.005)
        yield
    finally:
        for pid in pids:
            with contextlib.suppress(ProcessLookupError):     # killed meanwhile
                os.kill(pid, signal.SIGCONT)
