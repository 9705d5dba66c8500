"""`perftscope perft` and `perftscope divide`, on the worker pool with an optional shared hash
table, or, for a small request (no table, no statistics, a tree core.counting.shallow calls
small), on one thread through the move list, which loads the generator alone: on an empty
compile cache the pool's kernels cost most of a minute on a slow host. On a terminal a long run
shows a live progress line on stderr (nodes, NPS over the last interval, hash hit rate); stdout
only ever gets the answer."""
from __future__ import annotations

import argparse
import sys

from perftscope.core.counting.results import Result, default_workers
from perftscope.core.limits import TABLE_MAX_EXP, WORKERS_LIMIT

from . import add_parser
from .cluster_args import add_cluster_args, run_cluster, wants_cluster
from .common import add_position_args, int_arg, position_from_args, print_json, stderr_is_terminal

PROGRESS_AFTER = 0.5          # seconds before a progress line appears
PROGRESS_EVERY = 0.25


def _hash_exp(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"hash size is a power of two exponent, got {text!r}") from None
    if value > TABLE_MAX_EXP:
        raise argparse.ArgumentTypeError(f"hash size 2^{value} entries is too large (at most 2^{TABLE_MAX_EXP})")
    return value


_workers = int_arg("workers", 1, WORKERS_LIMIT)


def _add_pool_args(parser):
    # -h is the hash size (FastPerft's flag), so help is --help only
    parser.add_argument("--help", action="help", help="show this help and exit")
    add_position_args(parser)
    parser.add_argument("-h", "--hash", type=_hash_exp, default=-1, metavar="EXP",
                        help="shared hash table of 2^EXP entries, 16 bytes each "
                             "(negative disables; default off)")
    parser.add_argument("-w", "--workers", type=_workers, default=default_workers(), metavar="N",
                        help="worker threads (default: %(default)s, this machine's cores; a small request "
                             "without a table or statistics counts on one)")
    parser.add_argument("--json", action="store_true", help="one JSON object on stdout")
    add_cluster_args(parser)


def register(sub):
    p = add_parser(sub, "perft", add_help=False,
                       description="Count the leaf nodes DEPTH plies below a position.")
    _add_pool_args(p)
    p.add_argument("-s", "--stats", action="store_true",
                   help="also count captures, en passant, castles, promotions, checks, mates "
                        "(every leaf move is classified, so no hash table), and print the "
                        "workers and hash counters")
    p.set_defaults(run=run_perft)

    d = add_parser(sub, "divide", add_help=False,
                       description="Print each legal move with the node count below it.")
    _add_pool_args(d)
    d.set_defaults(run=run_divide, stats=False)


def _progress_line(snap, last) -> str:
    nodes, elapsed = snap.nodes, snap.elapsed
    if last is not None and elapsed > last.elapsed:
        nps = (nodes - last.nodes) / (elapsed - last.elapsed)
    else:
        nps = nodes / elapsed if elapsed > 0 else 0.0
    line = f"nodes {nodes:,}  nps {nps / 1e6:,.1f}M"
    if snap.hash is not None:
        line += f"  hash hits {100 * snap.hash.hit_rate:.1f}%  fill {100 * snap.hash.fill:.0f}%"
    if snap.items_total:
        line += f"  items {snap.items_done}/{snap.items_total}"
    return line + f"  {elapsed:.1f}s"


def _wait(run) -> Result:
    """The run's result; on a terminal, a progress line on stderr while it goes. Ctrl-C
    cancels the workers before the interrupt goes on up."""
    live = stderr_is_terminal()
    shown = False
    last = None
    try:
        while True:
            try:
                return run.result(timeout=PROGRESS_EVERY if live else None)
            except TimeoutError:
                snap = run.snapshot()
                if snap.elapsed >= PROGRESS_AFTER:
                    sys.stderr.write("\r" + _progress_line(snap, last) + "\x1b[K")
                    sys.stderr.flush()
                    shown = True
                last = snap
    except KeyboardInterrupt:
        run.cancel()
        run.result(timeout=5)
        raise
    finally:
        if shown:
            sys.stderr.write("\r\x1b[K")
            sys.stderr.flush()


def _run(args, divide: bool) -> Result:
    pos = position_from_args(args)
    # kernels are loaded here, not on the run's thread: Ctrl-C stops a first compile at once
    if not args.stats and args.hash < 0:
        from perftscope.core.counting import shallow
        if shallow.is_small(pos, args.depth):
            shallow.prepare(args.depth)
            return _wait(shallow.start_shallow(pos, args.depth, divide=divide))
    from perftscope.core.counting.pool import prepare, start_perft
    prepare(args.stats)
    run = start_perft(pos, args.depth, workers=args.workers, hash_exp=args.hash, divide=divide,
                      stats=args.stats)
    return _wait(run)


def _json_common(r: Result) -> dict:
    return {"fen": r.fen, "depth": r.depth, "nodes": r.nodes, "seconds": round(r.seconds, 6),
            "nps": round(r.nps), "workers": r.workers, "path": r.path,
            # on a shared machine the wall clock measures the neighbours; this, the work
            "worker_cpu": [round(c, 6) for c in r.worker_cpu],
            "hash": r.hash.as_dict() if r.hash is not None else None}


def run_perft(args) -> int:
    if wants_cluster(args):
        return run_cluster(args, divide=False)
    r = _run(args, divide=False)
    if args.json:
        out = _json_common(r)
        if r.stats is not None:
            out["stats"] = r.stats
        print_json(out)
        return 0
    print(f"nodes    {r.nodes}")
    print(f"seconds  {r.seconds:.3f}")
    print(f"nps      {r.nps:,.0f}")
    if args.stats:
        print(f"workers  {r.workers}")
        h = r.hash
        if h is None:
            print("hash     off")
        else:
            print(f"hash     {h.entries:,} entries, {100 * h.fill:.1f}% full, {h.probes:,} probes, "
                  f"{h.hits:,} hits ({100 * h.hit_rate:.1f}%), {h.stores:,} stores, "
                  f"{h.replacements:,} replacements")
        from perftscope.core.counting.pool import STAT_NAMES
        for name in STAT_NAMES:
            print(f"{name:<17}{r.stats[name]}")
    return 0


def run_divide(args) -> int:
    if wants_cluster(args):
        return run_cluster(args, divide=True)
    r = _run(args, divide=True)
    if args.json:
        out = _json_common(r)
        out["moves"] = r.divide
        print_json(out)
        return 0
    for move, count in sorted(r.divide.items()):      # sorted, so two divides diff line by line
        print(f"{move}: {count}")
    print()
    print(f"Nodes searched: {r.nodes}")
    return 0
