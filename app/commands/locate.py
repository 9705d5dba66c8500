"""`perftscope locate`: rank the engine's own source lines by how its failing and passing
positions run them (core.locate)."""
from __future__ import annotations

import os
import sys

from perftscope.core.job import Progress

from . import add_parser
from .common import add_engine_args, add_position_args, int_arg, print_json, seconds_arg


def register(sub):
    p = add_parser(sub, "locate",
                   description="Spectrum-based fault localisation: find the position where ENGINE differs from "
                               "the reference, then run it, shrink's steps around it, its children and a short "
                               "focused fuzz one engine process each at depth 1 with line coverage (Python and "
                               "Node scripts as they are, C/C++ built with --coverage, clang/Rust with "
                               "instrumented profiles), and rank the source lines by Ochiai (DStar beside it). "
                               "Exit status: 0 ranked, or the engine agrees; 2 error.")
    add_position_args(p)
    add_engine_args(p)
    p.add_argument("--source", action="append", default=[], metavar="DIR",
                   help="a folder of the engine's source (repeatable; default: found from the engine)")
    p.add_argument("--top", type=int_arg("--top", 1, 10_000), default=10, metavar="N",
                   help="suspect lines shown (default 10)")
    p.add_argument("--seconds", type=seconds_arg, default=40.0, metavar="S",
                   help="no run is started after this many seconds (default 40)")
    p.add_argument("--runs", type=int_arg("--runs", 1, 100_000), default=None, metavar="N",
                   help="no run is started after this many (default: as many as --seconds allows)")
    p.add_argument("--json", action="store_true", help="one JSON object on stdout")
    p.set_defaults(run=run)


def run(args) -> int:
    from perftscope.core.locate.job import LocateJob, LocateSettings
    from perftscope.core.errors import PerftscopeError
    for folder in args.source:
        if not os.path.isdir(folder):
            raise PerftscopeError(f"--source {folder}: not a folder")
    settings = LocateSettings(args.engine, args.reference, args.fen, tuple(args.moves.split()), args.depth,
                              tuple(os.path.realpath(f) for f in args.source), args.top, args.seconds, args.timeout,
                              runs=args.runs)
    job = LocateJob(settings)
    quiet = args.json

    def emit(event):
        if not quiet and isinstance(event, Progress) and sys.stderr.isatty():
            print(f"\r\x1b[K{event.text[:150]}", end="", file=sys.stderr, flush=True)

    try:
        result = job.run(emit)
    except KeyboardInterrupt:
        job.stop()
        raise
    finally:
        if not quiet and sys.stderr.isatty():
            print("\r\x1b[K", end="", file=sys.stderr, flush=True)
    if args.json:
        print_json(result.to_json(args.top))
        return 0
    print(f"engine     {result.subject.engines[0]}")
    print(f"reference  {result.subject.engines[1]}")
    if result.agree:
        print(f"agree      {result.subject.engines[0]} and {result.subject.engines[1]} agree at depth "
              f"{args.depth}: no failing run, nothing to locate")
        return 0
    example = result.example
    where = example.fen + (f" moves {' '.join(example.moves)}" if example.moves else "")
    print(f"failing    {where}")
    print(f"           {example.verdict}" + (f" ({result.focus})" if result.focus else ""))
    runs = f"runs       {result.failed} failing, {result.passed} passing, depth 1, {result.seconds:.1f} s"
    if result.other_failures:
        runs += f" ({len(result.other_failures)} failing runs of another kind left out)"
    print(runs + (" (stopped)" if result.stopped else ""))
    print(f"source     {', '.join(_shown(f) for f in result.sources)} ({', '.join(result.coverage)} coverage)")
    print()
    shown = result.suspects[:args.top]
    width = max(len(s.where) for s in shown) if shown else 0
    for s in shown:
        rank = f"{s.rank}." if not _tied(result.suspects, s) else f"{s.rank}="
        print(f"{rank:>4} {s.where:<{width}}  {s.score:.3f}  {s.failed}/{s.passed}  {s.text}")
    print()
    print("score: Ochiai; failing/passing runs that ran the line; '=' a tie (same score, same contrast)")
    return 0


def _shown(folder: str) -> str:
    """A folder under the current one as a relative path, others as they are."""
    relative = os.path.relpath(folder)
    return folder if relative.startswith("..") else relative


def _tied(suspects, s) -> bool:
    return sum(1 for o in suspects if o.rank == s.rank) > 1
