"""`perftscope shrink`: reduce a position where an engine fails to the smallest that still fails."""
from __future__ import annotations

from perftscope.core.errors import PerftscopeError
from perftscope.core.mismatch.finder import find_mismatch
from perftscope.core.engines.oracles import Request
from perftscope.core.engines.pair import EnginePair
from perftscope.core.mismatch.findings import CLASSES, shrink_each
from perftscope.core.mismatch.shrink import DEFAULT_MAX_CALLS, ShrinkSettings

from . import add_parser
from .common import add_engine_args, add_position_args, int_arg, print_json
from .compare import _print_verdict
from .engine_report import shrunk_lines


def register(sub):
    p = add_parser(sub, "shrink",
                       description="Delta debugging on the position: remove pieces, drop castling rights and the "
                                   "en-passant square, lower the depth, mirror colours, move pieces together, keeping "
                                   "a step only while ENGINE still fails the same way (the same class and kind of "
                                   "move). Prints the minimal FEN with its illegal and missing moves: one for each "
                                   "bug the position shows. Exit status: 0 they agree on the "
                                   "position given, 1 shrunk, 2 error.")
    add_position_args(p)
    add_engine_args(p)
    p.add_argument("--max-calls", type=int_arg("max calls", 1, 1_000_000), default=DEFAULT_MAX_CALLS,
                   metavar="N", help=f"engine calls the shrink may spend (default {DEFAULT_MAX_CALLS})")
    p.add_argument("--json", action="store_true", help="one JSON object on stdout")
    p.set_defaults(run=run)


def run(args) -> int:
    request = Request.of(args.fen, args.moves)     # a bad FEN or move fails before any engine starts
    if args.depth < 1:
        raise PerftscopeError("depth must be at least 1 to shrink (at depth 0 every engine counts 1)")
    engine, reference = EnginePair.parse(args.engine, args.reference, args.timeout).make_both()
    with engine, reference:
        if not args.json:
            print(f"engine     {engine.name}")
            print(f"reference  {reference.name}", flush=True)
        progress = None if args.json else (lambda step, fen: print(f"  step     {step}: {fen}", flush=True))
        # one minimal example per bug the position shows (a step keeps the bug it started from)
        results = shrink_each(engine, reference, request, args.depth,
                              ShrinkSettings(args.max_calls, progress=progress))
        examples = []
        for result in results:
            report = None
            if result.failure == "mismatch":
                report = find_mismatch(engine, reference, result.request, result.depth).raise_unless_finding()
            examples.append((result, report))
    if args.json:
        first = examples[0] if examples else (None, None)
        print_json({"engine": engine.name, "reference": reference.name,
                    "shrunk": None if first[0] is None else first[0].to_json(),
                    "report": None if first[1] is None else first[1].to_json(),
                    "examples": [{"shrunk": r.to_json(), "report": None if m is None else m.to_json()}
                                 for r, m in examples]})
    elif not examples:
        print(f"agree      {engine.name} and {reference.name} agree at depth {args.depth}: nothing to shrink")
    for n, (result, report) in enumerate([] if args.json else examples):
        if len(examples) > 1:
            cls, kind = result.symptom
            print(f"\nbug {n + 1} of {len(examples)}: {CLASSES[cls]} ({kind})")
        print("\n".join(line for line in shrunk_lines(result) if not line.startswith("  step")))
        if report is not None:
            print()
            _print_verdict(report)
        else:
            print(f"failure    the engine fails on the minimal position too ({result.failure})")
    return 1 if examples else 0
