"""`perftscope fuzz`: random play and constructed edge positions against a reference."""
from __future__ import annotations

import sys

from perftscope.core.job import Subject
from perftscope.core.mismatch.findings import Finding
from perftscope.core.mismatch.fuzz import DEFAULT_DEPTH
from perftscope.core.mismatch.session_job import FuzzSettings, SessionJob
from perftscope.core.mismatch.shrink import DEFAULT_SHRINK_CALLS
from perftscope.core.engines.pair import EnginePair

from . import add_parser
from .common import add_engine_args, add_960_arg, int_arg, print_json, seconds_arg
from .engine_report import finding_lines, summary_lines
from .job_runner import run_job


def register(sub):
    p = add_parser(sub, "fuzz",
                       description="Compare ENGINE with a reference on constructed edge positions (en passant "
                                   "and pins, castling through attacked squares, rooks captured on their corners, "
                                   "promotions giving check, double checks, every pin direction) and on biased "
                                   "random play. Every mismatch is drilled down, classified and shrunk. "
                                   "The same seed gives the same positions. Exit status: 0 nothing found, "
                                   "1 findings, 2 error.")
    add_engine_args(p)
    p.add_argument("--seed", type=int_arg("seed", 0, 2**63), default=1, metavar="N",
                   help="random seed (default 1)")
    limit = p.add_mutually_exclusive_group()
    limit.add_argument("--seconds", type=seconds_arg, metavar="N",
                       help="stop looking after N seconds (a finding's shrink still finishes; default 30)")
    limit.add_argument("--positions", type=int_arg("positions", 1, 10**9), metavar="N",
                       help="test exactly N positions")
    p.add_argument("--depth", type=int_arg("depth", 1, 3), default=DEFAULT_DEPTH, metavar="D",
                   help=f"perft depth each position is compared at, 1 to 3 (default {DEFAULT_DEPTH})")
    p.add_argument("--first", action="store_true", help="stop at the first finding")
    p.add_argument("--shrink-calls", type=int_arg("shrink calls", 0, 100_000), default=DEFAULT_SHRINK_CALLS,
                   metavar="N", help=f"engine calls spent shrinking each finding (default {DEFAULT_SHRINK_CALLS}; 0: off)")
    add_960_arg(p, "Chess960: the Chess960 castling positions (king or rook already on its target square, "
                   "the rook between, pieces in the way, attacked squares, a rook pinned along the back "
                   "rank) and random play from the 960 start positions; engines are told (UCI_Chess960)")
    p.add_argument("--json", action="store_true", help="one JSON object on stdout")
    p.set_defaults(run=run)


def run(args) -> int:
    seconds = args.seconds if args.seconds is not None or args.positions is not None else 30.0
    settings = FuzzSettings(args.seed, args.depth, seconds, args.chess960, args.positions, args.first,
                            args.shrink_calls)
    # a fuzz session as the Test-engine tab runs it: a SessionJob, each finding an event, Ctrl-C as Stop
    job = SessionJob(EnginePair.parse(args.engine, args.reference, args.timeout), settings)

    def heard(event):
        if args.json:
            return
        if isinstance(event, Subject):        # the session is made: the engines as they call themselves
            limit = f"{seconds:g} s" if args.positions is None else f"{args.positions} positions"
            print(f"engine     {event.engines[0]}")
            print(f"reference  {event.engines[1]}")
            print(f"seed {args.seed}, depth {args.depth}, {limit}" + (", Chess960" if args.chess960 else ""),
                  flush=True)
        elif isinstance(event, Finding):
            _print_finding(event)
    outcome = run_job(job, heard, quiet=args.json)
    result = job.session.result
    if args.json:
        print_json({"engine": outcome.engine, "reference": outcome.reference, "seed": args.seed,
                    "depth": args.depth, "chess960": args.chess960, **result.to_json()})
    else:
        found = sum(f.count for f in result.findings)
        distinct = f" ({len(result.findings)} distinct)" if found != len(result.findings) else ""
        print(f"{result.tested} positions in {result.seconds:.1f} s ({result.per_second:.1f} positions/s), "
              f"{found} finding{'s' if found != 1 else ''}{distinct}")
        for line in summary_lines(result.findings):
            print(line)
    return 1 if result.findings else 0


def _print_finding(finding):
    if finding.count > 1:           # merged with one found before: say so in one line
        print(f"again: {finding.label} at {finding.example_fen}, as {finding.name} "
              f"({finding.count} times)", flush=True)
        return
    print(f"FAIL  {finding.name}  {finding.fen}")
    print("\n".join(finding_lines(finding)), flush=True)
    sys.stdout.flush()
