"""`perftscope perft` and `perftscope divide`."""
from __future__ import annotations

import argparse
import time

from core.perft import STAT_NAMES, divide, perft, perft_stats
from core.position import Position

from .common import add_position_args, position_from_args, print_json


def _hash_exp(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"hash size is a power of two exponent, got {text!r}") from None
    if value > 32:
        raise argparse.ArgumentTypeError(f"hash size 2^{value} entries is too large (at most 2^32)")
    return value


def _workers(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"workers must be a whole number, got {text!r}") from None
    if value < 1 or value > 256:
        raise argparse.ArgumentTypeError(f"workers must be between 1 and 256, got {value}")
    return value


def register(sub):
    # -h is the hash size (FastPerft's flag), so help is --help only
    p = sub.add_parser("perft", add_help=False, help="count leaf nodes",
                       description="Count the leaf nodes DEPTH plies below a position.")
    p.add_argument("--help", action="help", help="show this help and exit")
    add_position_args(p)
    p.add_argument("-h", "--hash", type=_hash_exp, default=-1, metavar="EXP",
                   help="hash table of 2^EXP entries (negative disables; default off)")
    p.add_argument("-w", "--workers", type=_workers, default=1, metavar="N", help="worker threads")
    p.add_argument("-s", "--stats", action="store_true",
                   help="also count captures, en passant, castles, promotions, checks, mates")
    p.add_argument("--json", action="store_true", help="one JSON object on stdout")
    p.set_defaults(run=run_perft)

    d = sub.add_parser("divide", help="perft of each legal move (Stockfish's format)",
                       description="Print each legal move with the node count below it.")
    add_position_args(d)
    d.add_argument("--json", action="store_true", help="one JSON object on stdout")
    d.set_defaults(run=run_divide)


def _warm_up(pos: Position, stats: bool = False):
    # compile (or load from the cache) before the clock starts
    perft(pos, 2)
    if stats:
        perft_stats(pos, 1)


def run_perft(args) -> int:
    pos = position_from_args(args)
    _warm_up(pos, args.stats)
    start = time.perf_counter()
    if args.stats:
        nodes, stats = perft_stats(pos, args.depth)
    else:
        nodes, stats = perft(pos, args.depth), None
    seconds = time.perf_counter() - start
    nps = nodes / seconds if seconds > 0 else 0.0
    if args.json:
        out = {"fen": pos.fen(), "depth": args.depth, "nodes": nodes, "seconds": round(seconds, 6),
               "nps": round(nps), "workers": 1}
        if stats is not None:
            out["stats"] = stats
        print_json(out)
        return 0
    print(f"nodes    {nodes}")
    print(f"seconds  {seconds:.3f}")
    print(f"nps      {nps:,.0f}")
    if stats is not None:
        for name in STAT_NAMES:
            print(f"{name:<17}{stats[name]}")
    return 0


def run_divide(args) -> int:
    pos = position_from_args(args)
    _warm_up(pos)
    start = time.perf_counter()
    rows = divide(pos, args.depth)
    seconds = time.perf_counter() - start
    total = sum(rows.values()) if args.depth > 0 else 1
    if args.json:
        print_json({"fen": pos.fen(), "depth": args.depth, "moves": rows, "nodes": total,
                    "seconds": round(seconds, 6)})
        return 0
    for move, count in sorted(rows.items()):      # sorted, so two divides diff line by line
        print(f"{move}: {count}")
    print()
    print(f"Nodes searched: {total}")
    return 0
