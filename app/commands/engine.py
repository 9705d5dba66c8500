"""`perftscope engine check SPEC`: is a new engine understood? One divide from the start
position and one from Kiwipete, each read by the divide parser and compared with the core."""
from __future__ import annotations

from perftscope.core.errors import EngineError
from perftscope.core.engines.oracles import DEFAULT_TIMEOUT, SPECS, make_oracle
from perftscope.core.board.position import START_FEN

from . import add_parser
from .common import depth_arg, seconds_arg

KIWIPETE = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"
POSITIONS = (("start position", START_FEN), ("Kiwipete", KIWIPETE))


def register(sub):
    p = add_parser(sub, "engine",
                       description="Tools for the engine under test.")
    actions = p.add_subparsers(dest="action", metavar="ACTION", required=True)
    check = actions.add_parser(
        "check", help="one divide from the start position and Kiwipete, read and compared with the core",
        description="Run one divide of the start position and of Kiwipete on SPEC, print what was "
                    "read from its output, what was ignored and where it disagrees with the core. "
                    "Exit status: 0 understood and agrees, 1 understood but disagrees, 2 not understood "
                    "or failed.")
    check.add_argument("spec", metavar="SPEC", help=f"the engine: {SPECS}")
    check.add_argument("-d", "--depth", type=depth_arg, default=2, metavar="DEPTH",
                       help="divide depth (default 2)")
    check.add_argument("--timeout", type=seconds_arg, default=DEFAULT_TIMEOUT, metavar="SECONDS",
                       help=f"longest wait for one divide (default {DEFAULT_TIMEOUT:g})")
    check.set_defaults(run=run_check)


def run_check(args) -> int:
    core = make_oracle("core")
    worst = 0
    with make_oracle(args.spec, timeout=args.timeout) as engine:
        print(f"engine     {engine.name} ({engine.spec})")
        for title, fen in POSITIONS:
            print(f"\n{title}, divide {args.depth}: {fen}")
            worst = max(worst, _check_one(engine, core, fen, args.depth))
    verdict = {0: "understood, and it agrees with the core",
               1: "understood, but it disagrees with the core: run perftscope compare to find where",
               2: "not understood, or it failed: see above"}[worst]
    print(f"\nverdict    {verdict}")
    return worst


def _check_one(engine, core, fen: str, depth: int) -> int:
    try:
        answer = engine.answer(fen, [], depth)
    except EngineError as e:
        print(f"  error    {e}")
        return 2
    sent = [t for call, d, t in engine.log.entries() if d == ">" and call == engine.calls]
    if sent:
        print(f"  sent     {sent[-1] if len(sent) == 1 else ' / '.join(sent[-3:])}")
    parsed = answer.parsed
    if answer.moves is None:
        print(f"  read     a total only: {answer.total} (it will be bisected by totals)")
    else:
        printed = f", its total line says {parsed.total}" if parsed and parsed.total is not None else ""
        print(f"  read     {len(answer.moves)} moves adding up to {answer.total}{printed}")
    for note in (parsed.notes if parsed else []):
        print(f"  note     {note}")
    for line in (parsed.ignored if parsed else []):
        print(f"  ignored  {line!r}")
    truth = core.divide(fen, [], depth)
    if answer.moves is None:
        expected = sum(truth.values())
        if answer.total == expected:
            print(f"  agrees   total {expected}")
            return 0
        print(f"  differs  total {answer.total}, the core's {expected} ({answer.total - expected:+})")
        return 1
    missing = [m for m in truth if m not in answer.moves]
    extra = [m for m in answer.moves if m not in truth]
    counts = [f"{m} {answer.moves[m]} (core {truth[m]})" for m in truth
              if m in answer.moves and answer.moves[m] != truth[m]]
    if not (missing or extra or counts):
        print(f"  agrees   all {len(truth)} moves")
        return 0
    for title, items in (("missing", missing), ("extra", extra), ("counts", counts)):
        if items:
            print(f"  {title:<8} {', '.join(items)}")
    return 1
