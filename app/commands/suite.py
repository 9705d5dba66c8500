"""`perftscope suite FILE`: check every position of an EPD or .perft suite, with the core or
(`--engine`) with the user's engine, each failure drilled down, classified and shrunk."""
from __future__ import annotations

import sys
import time
from pathlib import Path

from perftscope import resources
from perftscope.core.mismatch.shrink import DEFAULT_SHRINK_CALLS
from perftscope.core.errors import FenError, PerftscopeError, SuiteError
from perftscope.core.engines.oracles import DEFAULT_TIMEOUT, SPECS
from perftscope.core.counting.perft import perft
from perftscope.core.board.position import Position
from perftscope.core.counting.suites import read

from . import engine_report
from . import add_parser
from .common import add_960_arg, int_arg, print_json, spelled
from .common import seconds_arg


def register(sub):
    p = add_parser(sub, "suite",
                       description="Run perft on every position of a suite and compare with its expected counts. "
                                   "FILE may also name a bundled suite: " + ", ".join(resources.names()))
    p.add_argument("file", metavar="FILE")
    p.add_argument("--max-depth", type=int, default=None, metavar="N", help="skip depths above N")
    p.add_argument("--max-nodes", type=int, default=None, metavar="N",
                   help="skip depths whose expected count exceeds N")
    p.add_argument("--json", action="store_true",
                   help="one JSON object per (position, depth); with --engine one report object")
    add_960_arg(p, "every position is Chess960: X-FEN KQkq name the outermost rooks (kings on e1/e8 "
                   "included), castling is king takes rook, engines are told (UCI_Chess960)")
    engine = p.add_argument_group("testing an engine (exit 0 all pass, 1 failures, 2 error)")
    engine.add_argument("--engine", metavar="SPEC",
                        help=f"run this engine on every position instead of the core: {SPECS}")
    engine.add_argument("--reference", metavar="SPEC", default="core",
                        help="the truth for drilling down and for positions without counts (default core)")
    engine.add_argument("--jobs", type=int_arg("jobs", 1, 64), default=1, metavar="N",
                        help="engine processes run in parallel (default 1)")
    engine.add_argument("--timeout", type=seconds_arg, default=DEFAULT_TIMEOUT, metavar="S",
                        help=f"longest wait for one engine call (default {DEFAULT_TIMEOUT:g})")
    engine.add_argument("--junit", metavar="FILE", help="also write JUnit XML, one test case per position")
    engine.add_argument("--shrink-calls", type=int_arg("shrink calls", 0, 100_000),
                        default=DEFAULT_SHRINK_CALLS, metavar="N",
                        help=f"engine calls spent shrinking each failure (default {DEFAULT_SHRINK_CALLS}; 0: off)")
    p.set_defaults(run=run_suite)


def resolve(name: str) -> Path:
    path = Path(name)
    if path.exists():
        return path
    try:
        return resources.path(name)
    except FileNotFoundError:
        raise SuiteError(f"no such suite file: {name} (bundled suites: {', '.join(resources.names())})") from None


def run_suite(args) -> int:
    entries = read(resolve(args.file), args.chess960)        # streamed: a suite of any length in bounded memory
    if args.engine:
        return engine_report.run_engine_suite(args, entries)
    for option in ("junit",):
        if getattr(args, option):
            raise PerftscopeError(f"--{option} needs --engine (the core's own run has no findings)")
    passed = failed = skipped = unreadable = 0
    warmed = False
    for entry in entries:
        depths = [d for d, n in sorted(entry.expected.items())
                  if (args.max_depth is None or d <= args.max_depth)
                  and (args.max_nodes is None or n <= args.max_nodes)]
        label = entry.name or entry.source
        if entry.error:                  # a line that cannot be read: named, and the rest still run
            unreadable += 1
            print(f"perftscope: {entry.error}", file=sys.stderr, flush=True)
            continue
        try:
            pos = Position.from_fen(entry.full_fen)
        except FenError as e:
            failed += 1
            _report(args, label, f"FAIL  {label}: {spelled(e)}", error=spelled(e), fen=entry.fen)
            continue
        if not depths:
            continue
        if not warmed:
            perft(pos, 2)          # compile or load kernels before timing
            warmed = True
        problems, total_seconds = [], 0.0
        for depth in depths:
            start = time.perf_counter()
            nodes = perft(pos, depth)
            seconds = time.perf_counter() - start
            total_seconds += seconds
            ok = nodes == entry.expected[depth]
            if not ok:
                problems.append(f"D{depth} expected {entry.expected[depth]}, got {nodes}")
            if args.json:
                print_json({"name": label, "fen": entry.fen, "depth": depth, "expected": entry.expected[depth],
                            "nodes": nodes, "ok": ok, "seconds": round(seconds, 6)})
        if problems:
            failed += 1
            if not args.json:
                print(f"FAIL  {label}  {'; '.join(problems)}  {entry.fen}", flush=True)
        else:
            passed += 1
            if not args.json:
                span = f"D{depths[0]}" + (f"-D{depths[-1]}" if len(depths) > 1 else "")
                print(f"ok    {label}  {span}  {total_seconds:.3f}s  {entry.fen}", flush=True)
    if not args.json:
        print(f"{passed} passed, {failed} failed" + (f", {skipped} skipped" if skipped else "")
              + (f", {unreadable} unreadable line{'s' if unreadable != 1 else ''}" if unreadable else ""))
    return 2 if unreadable else 1 if failed else 0


def _report(args, label, text, **extra):
    if args.json:
        if extra:
            print_json({"name": label, "ok": False, **extra})
    else:
        print(text, flush=True)
