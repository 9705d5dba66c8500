"""`perftscope suite FILE`: check every position of an EPD or .perft suite."""
from __future__ import annotations

import time
from pathlib import Path

import resources
from core.errors import FenError, SuiteError
from core.perft import perft
from core.position import Position
from core.suites import load

from .common import print_json


def register(sub):
    p = sub.add_parser("suite", help="check a perft suite (EPD or .perft)",
                       description="Run perft on every position of a suite and compare with its expected counts. "
                                   "FILE may also name a bundled suite: " + ", ".join(resources.names()))
    p.add_argument("file", metavar="FILE")
    p.add_argument("--max-depth", type=int, default=None, metavar="N", help="skip depths above N")
    p.add_argument("--max-nodes", type=int, default=None, metavar="N",
                   help="skip depths whose expected count exceeds N")
    p.add_argument("--json", action="store_true", help="one JSON object per (position, depth)")
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
    entries = load(resolve(args.file))
    passed = failed = skipped = 0
    warmed = False
    for entry in entries:
        depths = [d for d, n in sorted(entry.expected.items())
                  if (args.max_depth is None or d <= args.max_depth)
                  and (args.max_nodes is None or n <= args.max_nodes)]
        label = entry.name or entry.source
        try:
            pos = Position.from_fen(entry.full_fen)
        except FenError as e:
            failed += 1
            _report(args, label, f"FAIL  {label}: {e}", error=str(e), fen=entry.fen)
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
        print(f"{passed} passed, {failed} failed" + (f", {skipped} skipped" if skipped else ""))
    return 1 if failed else 0


def _report(args, label, text, **extra):
    if args.json:
        if extra:
            print_json({"name": label, "ok": False, **extra})
    else:
        print(text, flush=True)
