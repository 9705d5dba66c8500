"""`perftscope locate`: rank the engine's own source lines by how its failing and passing
positions run them (core.locate)."""
from __future__ import annotations

import json
import os
import shlex
from collections import Counter
from dataclasses import dataclass

from perftscope.core.errors import PerftscopeError

from . import add_parser
from .common import add_engine_args, add_position_args, depth_arg, int_arg, print_json, seconds_arg, seconds_or_zero_arg


def register(sub):
    p = add_parser(sub, "locate",
                   description="Spectrum-based fault localisation: find the position where ENGINE differs from "
                               "the reference, then run it, shrink's steps around it, its children and a short "
                               "focused fuzz one engine process each at depth 1 with line coverage (Python and "
                               "Node scripts as they are, C/C++ built with --coverage, clang/Rust with "
                               "instrumented profiles), and rank the source lines by Ochiai (DStar beside it). "
                               "Then mutate the first ranks' lines one token at a time, each mutant in a copy of "
                               "the source (your files are never touched), rank first the lines whose mutants turn "
                               "failing runs to pass, and offer as the fix a change that turns every failing run "
                               "to pass, keeps the passing ones and agrees beyond them (or as a fix for this bug, "
                               "with where the other shows, when the engine has another). "
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
    p.add_argument("--build", default="", metavar="CMD",
                   help="how a native engine is rebuilt for each mutant, run in a copy of its source folder "
                        "(e.g. \"make\"; default: the engine file's `build`); the user's files are never touched")
    p.add_argument("--mutants", type=int_arg("--mutants", 0, 100_000), default=None, metavar="N",
                   help="mutants of the suspect lines run at most (default: as many as --mutant-seconds allows; "
                        "0: rank by spectra alone)")
    p.add_argument("--mutant-seconds", type=seconds_arg, default=60.0, metavar="S",
                   help="no mutant is started after this many seconds of mutation (default 60)")
    p.add_argument("--fix-fuzz-seconds", type=seconds_or_zero_arg, default=None, metavar="S",
                   help="the focused fuzz a candidate fix must also agree on, after the edge positions of its "
                        "kind of move and the position one deeper (default 20; 0: eight positions)")
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
                              runs=args.runs, mutants=args.mutants, mutant_seconds=args.mutant_seconds,
                              build=args.build, fix_fuzz_seconds=args.fix_fuzz_seconds)
    # as every long command: the Job on a thread of its own, its Progress one line, Ctrl-C as Stop
    from .job_runner import run_job
    result = run_job(LocateJob(settings), quiet=args.json)
    if args.json:
        print_json(json_of(result, settings, args.top))
    else:
        print_text(result, settings, args.top)
    return 0


def json_of(result, settings, top: int) -> dict:
    """The result's JSON, each fix that leaves another bug with the command that locates that one."""
    data = result.to_json(top)
    for fix, shown in zip(result.fixes, data["fixes"]):
        if fix.other_bug is not None:
            shown["other_bug"]["locate"] = next_locate(settings, fix.other_bug)
    return data


def print_text(result, settings, top: int):
    """The result as text: the engines, the failing position, the runs, the ranked suspects, the fix."""
    print(f"engine     {result.subject.engines[0]}")
    print(f"reference  {result.subject.engines[1]}")
    if result.agree:
        print(f"agree      {result.subject.engines[0]} and {result.subject.engines[1]} agree at depth "
              f"{settings.depth}: no failing run, nothing to locate")
        return
    for warning in result.warnings:
        print(f"warning    {warning}")
    example = result.example
    where = example.fen + (f" moves {' '.join(example.moves)}" if example.moves else "")
    print(f"failing    {where}")
    print(f"           {example.verdict}" + (f" ({result.focus})" if result.focus else ""))
    runs = f"runs       {result.failed} failing, {result.passed} passing, depth 1, {result.seconds:.1f} s"
    if result.other_failures:
        runs += f" ({len(result.other_failures)} failing runs of another kind left out)"
    print(runs + (" (stopped)" if result.stopped else ""))
    print(f"source     {', '.join(_shown(f) for f in result.sources)} ({', '.join(result.coverage)} coverage)")
    mutation = result.mutation
    if mutation is not None:
        print("mutants    " + (f"{mutation.tried} run of {mutation.made} made, {mutation.per_second:.1f} per second, "
                                f"{mutation.seconds:.1f} s" if mutation.tried else mutation.note or "none run"))
    print()
    shown = result.suspects[:top]
    width = max(len(s.where) for s in shown) if shown else 0
    ties = Counter(s.rank for s in result.suspects)
    column = max((len(_rank(s, ties)) for s in shown), default=0)
    for s in shown:
        print(f"{_rank(s, ties):>{column}}{'*' if s.way else ' '} {s.where:<{width}}  {s.score:.3f}  "
              f"{s.failed}/{s.passed}  {s.text}")
        if s.mutants:
            print(f"{'':>{column + 2}}{s.evidence.split('; ')[0]}")
    if shown and ties[shown[-1].rank] > sum(1 for s in shown if s.rank == shown[-1].rank):
        more = ties[shown[-1].rank] - sum(1 for s in shown if s.rank == shown[-1].rank)
        print(f"{'':>{column + 2}}... {more} more share rank {shown[-1].rank} (--top)")
    print()
    offered = result.offered
    for fix in offered:
        if fix.confirmed:
            print(f"fix        {fix.file}:{fix.line}: {fix.change} {fix.said()}, and agrees at "
                  f"{', '.join(fix.checked_by)}" + ("; wherever a game can go" if fix.shared else ""))
            _print_diff(fix)
            if fix.shared:
                print(f"another    {fix.out_of_game()}")
    if offered and offered[0].fixes_this_bug:
        fix = offered[0]
        print(f"fix        {fix.file}:{fix.line}: {fix.change} fixes this bug (the engine has another): it "
              f"{fix.said()}, {fix.beyond()}")
        _print_diff(fix)               # under its fix line, not under `next`, which it is not part of
        print(f"another    {fix.another()}")
        command = next_locate(settings, fix.other_bug)
        print(f"next       {command}   (locates that one)" if fix.other_bug.alone else
              f"next       with this fix applied (this bug shows there too): {command}")
    elif mutation is not None and mutation.tried and not offered:
        first = result.suspects[0] if result.suspects else None
        refuted = "".join(f"; {f.file}:{f.line} {f.change} fixes the runs but not beyond them ({f.doubt})"
                          for f in result.fixes[:2] if f.refuted)
        print(f"no fix     {mutation.no_fix()}" +
              (f": it belongs at {first.file}:{first.line} ({first.evidence.split('; ')[0]})"
               if first and not mutation.cut else "") + refuted)
    if any(s.way for s in shown):
        from perftscope.core.locate.spectra import missed
        twin = result.twins[0]
        way = (f"ran where {twin.move} should have been generated" if twin.move in missed(result.runs[twin.failing])
               else f"ran on the way to {twin.move} (the lines that play it after those that generate it)")
        print(f"*: {way}, not in the same position without {twin.without}: ranked above "
              f"the rest, then by the runs where {twin.move} is possible")
    print("score: Ochiai; failing/passing runs that ran the line; '=' a tie (same evidence), of how many"
          + ("; mutants rank first, the spectrum after" if mutation is not None and mutation.tried else ""))


def _print_diff(fix):
    print("\n".join("           " + line for line in fix.diff.rstrip("\n").split("\n")))


def next_locate(settings, other) -> str:
    """The command that locates the other bug a fix for this one left (a core.locate.mutation.
    Elsewhere): the same engine, reference, sources and build, at its position and depth."""
    words = ["perftscope", "locate", "--engine", settings.engine]
    if settings.reference != "core":
        words += ["--reference", settings.reference]
    for folder in settings.sources:
        words += ["--source", _shown(folder)]
    if settings.build:
        words += ["--build", settings.build]
    words += ["-f", other.fen, "-d", str(other.depth)]
    return shlex.join(words)


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
    from perftscope.app.session_files import SessionError, load
    data = load(path)
    report = data.get("finder")
    if report and not report.get("agree") and (report.get("missing") or report.get("extra")):
        return Start(report["root_fen"], tuple(report.get("path") or ()), 1, data.get("engine"), data.get("reference"))
    divide = data.get("divide")
    if divide and divide.get("engine"):
        return Start(divide["fen"], tuple(divide.get("moves") or ()), divide["depth"], data.get("engine"),
                     data.get("reference"))
    raise SessionError(f"{path}: the session holds no finding (no finder report that differs and no "
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


def _rank(s, ties) -> str:
    """'3.' alone, '1= of 31' in a tie."""
    return f"{s.rank}." if ties[s.rank] == 1 else f"{s.rank}= of {ties[s.rank]}"
