"""`perftscope compare`: find where an engine's move generation departs from a reference."""
from __future__ import annotations

from perftscope.core.mismatch.find_job import FindJob, FindSettings
from perftscope.core.mismatch.finder import Level, Report
from perftscope.core.engines.oracle import Request
from perftscope.core.engines.oracles import DEFAULT_TIMEOUT, stockfish_available
from perftscope.core.engines.pipes import quoted
from perftscope.core.engines.pair import EnginePair
from perftscope.core.mismatch.verdicts import ILLEGAL, NOT_GENERATED

from . import add_parser
from .common import add_engine_args, add_position_args, print_json
from .job_runner import run_job


def register(sub):
    p = add_parser(sub, "compare",
                       description="Diff the divides of ENGINE and a reference, descend into the "
                                   "smallest differing subtree and stop where the move lists differ. "
                                   "An engine that crashes, hangs or floods on the way is a finding. "
                                   "Exit status: 0 agree, 1 mismatch or crash, 2 error.")
    add_position_args(p)
    add_engine_args(p, reference=None,
                    reference_help="the trusted side (default: stockfish when installed, else core)",
                    timeout_help=f"longest wait for one divide before the engine counts as hung "
                                 f"(default {DEFAULT_TIMEOUT:g})")
    p.add_argument("--json", action="store_true", help="one JSON object on stdout")
    p.add_argument("-v", "--verbose", action="store_true",
                   help="show every line of the engines' answers that was not understood")
    p.set_defaults(run=run)


def run(args) -> int:
    request = Request.of(args.fen, args.moves)     # a bad FEN or move fails before any engine starts
    reference_spec = args.reference or ("stockfish" if stockfish_available() else "core")
    engine, reference = EnginePair.parse(args.engine, reference_spec, args.timeout).make_both()
    with engine, reference:
        if not args.json:
            print(f"engine     {engine.name}")
            print(f"reference  {reference.name}")
            for warning in request.warnings:
                print(f"warning    the FEN's {warning} (for the truth, as python-chess drops it; "
                      f"{engine.name} is given the FEN as written)")
            print(flush=True)
        said: set[str] = set()

        def progress(event):
            if isinstance(event, Level) and not args.json:
                _print_level(event)
                _print_reading(engine, args.verbose, said)

        # the finder as the window runs it: a Job, Ctrl-C as its Stop (the engine call running killed)
        job = FindJob(FindSettings(request, args.depth), lambda: (engine, reference), (engine.name, reference.name))
        report = run_job(job, progress, quiet=args.json)
        if report.crash and not args.json:
            _print_reading(engine, args.verbose, said)
    if args.json:
        print_json(report.to_json())
    else:
        _print_verdict(report, said)
    return 0 if report.agree else 1


def _print_reading(oracle, verbose: bool, said: set):
    """What the divide parser assumed (once each) and, with --verbose, how the engine was learned
    to print a divide and what it ignored."""
    dialect = getattr(oracle, "dialect", None)
    if verbose and dialect is not None and "dialect" not in said:
        said.add("dialect")
        for what, how in dialect.describe():
            print(f"dialect    {oracle.name}: {what} {how}")
    answer = getattr(oracle, "last", None)
    parsed = getattr(answer, "parsed", None)
    if parsed is None:
        return
    for note in parsed.notes:
        if note not in (said or ()):
            said.add(note)
            print(f"note       {oracle.name}: {note}")
    if verbose:
        for line in parsed.ignored:
            print(f"ignored    {oracle.name}: {line!r}")
    if parsed.notes or (verbose and parsed.ignored):
        print(flush=True)


def _print_level(level: Level):
    # printed as each level arrives, so a slow engine shows progress
    print(f"depth {level.depth}  {level.fen}")
    if not level.rows:
        print("  (only totals from the engine here)\n", flush=True)
        return
    width = max([len(r.move) for r in level.rows] + [4])
    differing = level.differing
    if differing:
        print(f"  {'move':<{width}}  {'engine':>12}  {'reference':>12}")
    for row in differing:
        mark = "  <- followed" if row.move == level.chosen else f"  (refused: {quoted(row.refused, 60)})" if row.refused else ""
        print(f"  {row.move:<{width}}  {_count(row.engine):>12}  {_count(row.reference):>12}{mark}")
    agreeing = len(level.rows) - len(differing)
    print(f"  ({'1 move agrees' if agreeing == 1 else f'{agreeing} moves agree'})" if differing else
          f"  all {agreeing} moves agree")
    print(flush=True)


def _count(value):
    return "-" if value is None else str(value)


def _print_verdict(report: Report, said: set | None = None):
    for note in report.notes:
        if note not in (said or ()):
            print(f"note       {report.engine}: {note}")
    for reason in report.unreachable:
        print(f"warning    this position cannot arise in a real game ({reason}); "
              f"engines legitimately disagree here")
    print(f"path       {' '.join(report.path) or '(none)'}")
    print(f"fen        {report.fen}")
    if report.crash:
        print(f"{report.failure.kind:<10} {report.error}")
        if report.command:
            print(f"command    {report.command}")
    elif report.agree:
        nodes = report.levels[0].nodes if report.levels else 1
        print(f"agree      {nodes} node{'s' if nodes != 1 else ''} at depth {report.depth}")
    elif report.note:
        print(f"mismatch   {report.note}")
    else:
        print("mismatch   the move lists differ here")
        _print_moves(NOT_GENERATED.heading(report.engine) + ":", report.missing, report)
        _print_moves(ILLEGAL.heading(report.engine) + ":", report.extra, report)
    if report.state_trace is not None:
        print(f"state      {report.state_trace.sentence(report.engine)}")
    print(report.calls_line())


def _print_moves(title: str, moves: list[str], report: Report):
    if not moves:
        return
    print(title)
    width = max(len(m) for m in moves)
    for move in moves:
        why = report.explanations.get(move, "")
        print(f"  {move:<{width}}  {why}".rstrip())

