"""`perftscope locate`: rank the engine's own source lines by how its failing and passing
positions run them (core.locate)."""
from __future__ import annotations

import json
import os
from dataclasses import dataclass

from perftscope.core.errors import PerftscopeError

from . import add_parser
from .common import add_engine_args, add_position_args, depth_arg, int_arg, print_json, seconds_arg


def register(sub):
    p = add_parser(sub, "locate",
                   description="Spectrum-based fault localisation: find the position where ENGINE differs from "
                               "the reference, then run it, shrink's steps around it, its children and a short "
                               "focused fuzz one engine process each at depth 1 with line coverage (Python and "
                               "Node scripts as they are, C/C++ built with --coverage, clang/Rust with "
                               "instrumented profiles), and rank the source lines by Ochiai (DStar beside it). "
                               "Exit status: 0 ranked, or the engine agrees; 2 error.")
    add_position_args(p, depth=False)
    p.add_argument("-d", "--depth", type=depth_arg, default=None, metavar="DEPTH",
                   help="the depth the finder looks for the failing position at (needed unless --session or "
                        "--finding gives the position)")
    add_engine_args(p, reference=None, reference_help="the truth (default: the --session's, else core)",
                    engine_required=False, engine_help="the engine under test (default: the --session's)")
    start = p.add_mutually_exclusive_group()
    start.add_argument("--session", default=None, metavar="FILE",
                       help="start from a saved session (File > Save session, gui --save-session): its finder's "
                            "failing position, else its position and divide depth; its engines unless given")
    start.add_argument("--finding", default=None, metavar="FILE[:N]",
                       help="start from a finding of `suite --engine ... --json` or `fuzz --json` output (the Nth, "
                            "default the first), or a file holding one finding (those name engines, not their "
                            "specs: give --engine)")
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
    from perftscope.core.board.position import START_FEN
    for folder in args.source:
        if not os.path.isdir(folder):
            raise PerftscopeError(f"--source {folder}: not a folder")
    engine, reference, fen, moves, depth = args.engine, args.reference, args.fen, tuple(args.moves.split()), args.depth
    if args.session or args.finding:
        start = session_start(args.session) if args.session else finding_start(args.finding)
        if args.fen != START_FEN or args.moves:
            raise PerftscopeError(f"--{'session' if args.session else 'finding'} gives the position: "
                                  f"leave out -f and -m")
        fen, moves = start.fen, start.moves
        depth = depth or start.depth
        engine = engine or start.engine
        reference = reference or start.reference
    if not engine:
        raise PerftscopeError("give the engine to locate in: --engine SPEC" + (" (the session names none)" if args.session else ""))
    if depth is None:
        raise PerftscopeError("give the depth: -d DEPTH (or --session / --finding giving the position)")
    settings = LocateSettings(engine, reference or "core", fen, moves, depth,
                              tuple(os.path.realpath(f) for f in args.source), args.top, args.seconds, args.timeout,
                              runs=args.runs)
    # as every long command: the Job on a thread of its own, its Progress one line, Ctrl-C as Stop
    from .job_runner import run_job
    result = run_job(LocateJob(settings), quiet=args.json)
    if args.json:
        print_json(result.to_json(args.top))
        return 0
    print(f"engine     {result.subject.engines[0]}")
    print(f"reference  {result.subject.engines[1]}")
    if result.agree:
        print(f"agree      {result.subject.engines[0]} and {result.subject.engines[1]} agree at depth "
              f"{settings.depth}: no failing run, nothing to locate")
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
        rank += "*" if s.way else " "
        print(f"{rank:>5} {s.where:<{width}}  {s.score:.3f}  {s.failed}/{s.passed}  {s.text}")
    print()
    if any(s.way for s in shown):
        twin = result.twins[0]
        print(f"*: ran on the way to {twin.move}, not in the same position without {twin.without}: ranked above "
              f"the rest, then by the runs where {twin.move} is possible")
    print("score: Ochiai; failing/passing runs that ran the line; '=' a tie (same evidence)")
    return 0


@dataclass(frozen=True)
class Start:
    """Where a locate starts when a file gives it: the position, the depth that shows the
    failure there, the engines named (None: not named)."""
    fen: str
    moves: tuple[str, ...]
    depth: int
    engine: str | None
    reference: str | None


def session_start(path: str) -> Start:
    """A saved session's finder report (its failing position, at depth 1), else its divide's
    position and depth; SessionError for a file that is not a session or holds neither."""
    from perftscope.app import session
    data = session.load(path)
    report = data.get("finder")
    if report and not report.get("agree") and (report.get("missing") or report.get("extra")):
        return Start(report["root_fen"], tuple(report.get("path") or ()), 1, data.get("engine"), data.get("reference"))
    divide = data.get("divide")
    if divide and divide.get("engine"):
        return Start(divide["fen"], tuple(divide.get("moves") or ()), divide["depth"], data.get("engine"),
                     data.get("reference"))
    raise session.SessionError(f"{path}: the session holds no finding (no finder report that differs and no "
                               f"divide against an engine): give -f, -d and --engine")


def finding_start(spec: str) -> Start:
    """The Nth finding (`FILE:N`, 1-based; the first without) of a suite's or a fuzz's --json
    output, or of a file holding one finding: its finder's failing position at depth 1, else its
    position and depth."""
    path, n = spec, 1
    head, sep, tail = spec.rpartition(":")
    if sep and tail.isdigit() and not os.path.exists(spec):
        path, n = head, int(tail)
    try:
        with open(path, encoding="utf-8") as f:
            text = f.read(64 << 20)
    except OSError as e:
        raise PerftscopeError(f"--finding {path}: cannot read it: {e.strerror or e}") from None
    try:
        data = json.loads(text)
    except ValueError:
        # suite --json without --engine, or a stream of objects: one per line
        try:
            data = [json.loads(line) for line in text.splitlines() if line.strip()]
        except ValueError:
            raise PerftscopeError(f"--finding {path}: not JSON (the output of suite --engine ... --json or "
                                  f"fuzz --json)") from None
    findings = _findings(data)
    if not findings:
        raise PerftscopeError(f"--finding {path}: no finding in it (the output of suite --engine ... --json or "
                              f"fuzz --json, or one finding)")
    if not 1 <= n <= len(findings):
        raise PerftscopeError(f"--finding {spec}: it holds {len(findings)} finding"
                              f"{'s' if len(findings) != 1 else ''}, not a number {n}")
    finding = findings[n - 1]
    try:
        report = finding.get("report") or {}
        if report.get("root_fen") and (report.get("missing") or report.get("extra")):
            return Start(report["root_fen"], tuple(report.get("path") or ()), 1, None, None)
        depth = finding["depth"]
        if not isinstance(depth, int) or isinstance(depth, bool):
            raise TypeError
        return Start(str(finding["fen"]), (), depth, None, None)
    except (KeyError, TypeError, AttributeError):
        raise PerftscopeError(f"--finding {spec}: finding {n} has no position and depth") from None


def _findings(data) -> list[dict]:
    """The findings of a fuzz's or a suite's JSON, or of one finding."""
    if isinstance(data, list):
        return [f for item in data for f in _findings(item)]
    if not isinstance(data, dict):
        return []
    if isinstance(data.get("findings"), list):
        return [f for f in data["findings"] if isinstance(f, dict)]
    if isinstance(data.get("cases"), list):
        return [c["finding"] for c in data["cases"] if isinstance(c, dict) and isinstance(c.get("finding"), dict)]
    if isinstance(data.get("finding"), dict):
        return [data["finding"]]
    if "fen" in data and ("report" in data or "kind" in data):
        return [data]
    return []


def _shown(folder: str) -> str:
    """A folder under the current one as a relative path, others as they are."""
    relative = os.path.relpath(folder)
    return folder if relative.startswith("..") else relative


def _tied(suspects, s) -> bool:
    return sum(1 for o in suspects if o.rank == s.rank) > 1
