"""The cluster options of `perftscope perft` and `perftscope divide`:

    perftscope perft -d 9 --split 4 --local 2 --journal d9.sqlite
    perftscope divide -d 8 --split 3 --cluster tcp://host:8786

--split K sends the run through core.counting.cluster instead of the in-process pool. The
answer goes to stdout as usual; the set-up, the Dask dashboard's address (with --dashboard) and
the progress (tasks done, nodes, NPS) go to stderr. The run is a core.counting.cluster.ClusterJob
run as every long command runs its job (app.commands.job_runner): Ctrl-C stops it, the tasks done
kept by the journal."""
from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING

from perftscope.core.errors import PerftscopeError
from perftscope.core.limits import CLUSTER_TASKS as DEFAULT_TASKS, CLUSTER_WORKER_WAIT as WORKER_WAIT, SPLIT_LIMIT, \
    WORKERS_LIMIT

from .common import fail, int_arg, print_json

if TYPE_CHECKING:       # the cluster module is imported by a cluster run alone: it loads every kernel
    from perftscope.core.counting.cluster import ClusterResult
# core.counting.cluster.ClusterRun's parameters as this command's flags: its errors name them
FLAGS = {"depth": "-d", "hash_exp": "-h", "split": "--split", "address": "--cluster", "local": "--local",
         "journal": "--journal", "wait_workers": "--wait-workers", "tasks": "--tasks", "dashboard": "--dashboard"}


def add_cluster_args(parser: argparse.ArgumentParser):
    g = parser.add_argument_group("cluster (Dask)")
    g.add_argument("--split", type=int_arg("split", 0, SPLIT_LIMIT), metavar="K",
                   help="expand K plies here, merge transpositions, count the rest on a Dask cluster")
    where = g.add_mutually_exclusive_group()
    where.add_argument("--cluster", metavar="ADDRESS",
                       help="an existing Dask scheduler, e.g. tcp://host:8786 (start workers there with "
                            "`dask worker tcp://host:8786` after `pip install perftscope`)")
    where.add_argument("--local", type=int_arg("local workers", 1, WORKERS_LIMIT), metavar="N",
                       help="a local cluster of N worker processes (the default, with N = -w)")
    g.add_argument("--journal", metavar="FILE",
                   help="SQLite file keeping each finished task; run again with it to resume")
    g.add_argument("--wait-workers", type=_seconds, metavar="SECONDS",
                   help=f"give up when the scheduler has had no worker this long "
                        f"(default {WORKER_WAIT:g}); workers dying at start-up again and again "
                        "are reported sooner")
    g.add_argument("--tasks", type=int_arg("tasks", 1, 1_000_000), metavar="N",
                   help=f"tasks to pack the positions into (default {DEFAULT_TASKS})")
    g.add_argument("--dashboard", action="store_true",
                   help="serve the Dask dashboard (a local cluster's on the loopback only) and say its address")


def _seconds(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"--wait-workers must be a number of seconds, got {text!r}") from None
    if not 0 < value <= 86_400:
        raise argparse.ArgumentTypeError(f"--wait-workers must be more than 0 and at most 86400 seconds, "
                                         f"got {text}")
    return value


def wants_cluster(args) -> bool:
    """True when --split was given; refuses cluster options without it."""
    if args.split is None:
        extra = [flag for flag, value in (("--cluster", args.cluster), ("--local", args.local),
                                          ("--journal", args.journal), ("--tasks", args.tasks),
                                          ("--wait-workers", args.wait_workers),
                                          ("--dashboard", args.dashboard or None))
                 if value is not None]
        if extra:
            fail(f"{', '.join(extra)} {'needs' if len(extra) == 1 else 'need'} --split K")
        return False
    if getattr(args, "stats", False):
        fail("--stats cannot run on a cluster: leave out --split or --stats")
    return True


def _started(r: ClusterResult, line):
    where = f", dashboard {r.dashboard}" if r.dashboard else ""
    done = f" ({r.tasks_from_journal} from the journal)" if r.tasks_from_journal else ""
    line.say(f"cluster: {r.workers} workers, scheduler {r.scheduler}{where}")
    line.say(f"split {r.split}: {r.unique_positions:,} unique of {r.total_positions:,} positions "
             f"(merge ratio {r.merge_ratio:.4f}), {r.tasks} tasks{done}")


def run_cluster(args, divide: bool) -> int:
    from perftscope.core.counting.cluster import ClusterError, ClusterJob, ClusterResult, ClusterRun, Notice
    from .job_runner import JobRunner
    local = args.local
    if args.cluster is None and local is None:
        local = args.workers
    try:
        job = ClusterJob(ClusterRun(args.fen, args.moves, args.depth, args.split, divide, args.tasks or DEFAULT_TASKS,
                                    args.hash, args.cluster, local, args.journal, args.wait_workers or WORKER_WAIT,
                                    args.dashboard))
    except ClusterError as e:
        raise PerftscopeError(e.spelled(FLAGS)) from None

    def heard(event):
        if isinstance(event, ClusterResult):
            _started(event, runner.line)
        elif isinstance(event, Notice):
            runner.line.say(f"perftscope: {event.text}")
    runner = JobRunner(job, heard, logged=True)     # a long run's progress is logged where stderr is a file
    try:
        r = runner.run()
    except ClusterError as e:
        raise PerftscopeError(e.spelled(FLAGS)) from None
    except KeyboardInterrupt:       # stopped: the tasks done are said, and kept by a journal
        p = runner.line.last
        kept = f"; the journal {args.journal} keeps them" if args.journal else ""
        if p is not None:
            print(f"perftscope: {p.done} of {p.total} tasks done when interrupted{kept}", file=sys.stderr)
        raise
    if args.json:
        out = {"fen": r.fen, "depth": r.depth, "nodes": r.nodes, "seconds": round(r.seconds, 6),
               "nps": round(r.nps), "workers": r.workers, "split": r.split, "tasks": r.tasks,
               "tasks_run": r.tasks_run, "tasks_from_journal": r.tasks_from_journal,
               "unique_positions": r.unique_positions, "total_positions": r.total_positions,
               "merge_ratio": round(r.merge_ratio, 6)}
        if divide:
            out["moves"] = r.divide
        print_json(out)
        return 0
    if divide:
        for move, count in sorted(r.divide.items()):
            print(f"{move}: {count}")
        print()
        print(f"Nodes searched: {r.nodes}")
        print(f"tasks {r.tasks}/{r.tasks} done", file=sys.stderr)
        return 0
    print(f"nodes    {r.nodes}")
    print(f"seconds  {r.seconds:.3f}")
    print(f"nps      {r.nps:,.0f}")
    print(f"tasks    {r.tasks}/{r.tasks} ({r.tasks_from_journal} from the journal)")
    print(f"workers  {r.workers}")
    print(f"split    {r.split}: {r.unique_positions} unique of {r.total_positions} (merge ratio {r.merge_ratio:.4f})")
    return 0
