"""`perftscope engine check SPEC`: how does this engine talk, and is it understood? It is run on
the calibration positions (core.engines.calibration), what it prints is learned and shown, every
answer is read in what was learned and compared with the core, and the dialect is saved so the
next session reads it at once."""
from __future__ import annotations

from perftscope.core.errors import CalibrationError, EngineError
from perftscope.core.mismatch.failures import does, failure_kind
from perftscope.core.engines.calibration import Probe, probes
from perftscope.core.engines.oracles import DEFAULT_TIMEOUT, SPECS, Request, make_oracle

from . import add_parser
from .common import depth_arg, seconds_arg

KIWIPETE = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"
_VERDICTS = {0: "understood, and it agrees with the core",
             1: "understood, but it disagrees with the core or fails: run perftscope compare to find where",
             2: "not understood: see above"}
# an engine that fails the first position asked: understood (its answer is a failure), a finding
_FAILS = "understood, but it {does} on the start position: a finding about the engine, see above"


def register(sub):
    p = add_parser(sub, "engine",
                       description="Tools for the engine under test.")
    actions = p.add_subparsers(dest="action", metavar="ACTION", required=True)
    check = actions.add_parser(
        "check", help="learn how an engine prints its divide, show it, and compare it with the core",
        description="Run SPEC on positions whose divides are known (the start position, Kiwipete, an "
                    "en passant, pins, promotions, castling, a Chess960 one), learn from its answers how "
                    "it prints a divide (which lines are moves and counts, the notation, the total line, "
                    "pseudo-legal moves listed with 0, a block per depth, Chess960), show what was learned "
                    "and save it, then read every answer that way and compare it with the core. Exit "
                    "status: 0 understood and agrees, 1 understood but disagrees or fails, 2 not understood.")
    check.add_argument("spec", metavar="SPEC", help=f"the engine: {SPECS}")
    check.add_argument("-d", "--depth", type=depth_arg, default=None, metavar="DEPTH",
                       help="also divide Kiwipete at DEPTH, read as learned")
    check.add_argument("-v", "--verbose", action="store_true",
                       help="show what was sent and every line that was not a row or the total")
    check.add_argument("--timeout", type=seconds_arg, default=DEFAULT_TIMEOUT, metavar="SECONDS",
                       help=f"longest wait for one answer (default {DEFAULT_TIMEOUT:g})")
    check.set_defaults(run=run_check)


def run_check(args) -> int:
    core = make_oracle("core")
    with make_oracle(args.spec, timeout=args.timeout) as engine:
        print(f"engine     {engine.name} ({engine.spec})", flush=True)
        if not hasattr(engine, "calibrate"):            # in this process: nothing to learn
            worst = 0
            for probe in probes():
                request = Request.of(probe.fen)          # one of calibration's own positions, read here
                worst = max(worst, _print_answer(f"  {probe.title}, depth {probe.depth}",
                                                 engine.answer(request, probe.depth),
                                                 core.divide(request, probe.depth)))
            print(f"\nverdict    {_VERDICTS[worst]}")
            return worst
        try:
            calibration = engine.calibrate()
        except CalibrationError as e:
            print(f"\nnot understood: {e}")
            print(f"\nverdict    {_VERDICTS[2]}")
            return 2
        except EngineError as e:
            return _failed_on_start(e)
        print("\ncalibration: positions whose divides are known, read as learned")
        worst = 0
        for probe in calibration.standard:
            worst = max(worst, _print_probe(probe, args.verbose, engine))
        worst = max(worst, _print_chess960(calibration, args.verbose))
        _print_dialect(engine, calibration)
        if args.depth is not None:
            print()
            worst = max(worst, _check_deeper(engine, core, args.depth))
    print(f"\nverdict    {_VERDICTS[worst]}")
    return worst


def _failed_on_start(error: EngineError) -> int:
    """The engine failed the start position, the first one asked: a crash, a hang, a flood or a
    refusal is a finding about the engine (1), its own error line quoted; only an answer that
    cannot be read (or an engine that cannot be run) leaves it not understood (2)."""
    kind = failure_kind(error)
    if kind in ("unreadable", "error"):
        print(f"\nfailed on the start position: {error}")
        print(f"\nverdict    {_VERDICTS[2]}")
        return 2
    print(f"\n{does(kind)} on the start position: {error}")
    own = getattr(error, "own_error", "")
    if own:
        print(f"      | {own}")
    print(f"\nverdict    {_FAILS.format(does=does(kind))}")
    return 1


def _head(probe: Probe, verbose: bool) -> str:
    if verbose:
        print(f"  {probe.fen}" + (f"\n    sent     {probe.sent}" if probe.sent else ""))
    return f"  {probe.title + ', depth ' + str(probe.depth):<48}"


def _print_chess960(calibration, verbose: bool) -> int:
    """The Chess960 line: whether the engine takes Chess960 and whether it is right there. Only
    an engine that takes it and differs there makes the check fail: a standard-chess engine's
    verdict never depends on Chess960."""
    probe = calibration.chess960_probe
    head = _head(probe, verbose)
    parsed = probe.parsed
    if not calibration.dialect.chess960 or parsed is None:
        print(f"{head}{calibration.chess960}")
        if parsed is not None and parsed.moves is not None:
            details = _verdict(parsed, probe.truth[probe.depth])[1][1:]
            for line in details:
                if not line.startswith("counts:"):
                    print(f"      {line}")
        return 0
    read = f"total {parsed.total}" if parsed.moves is None else f"{len(parsed.moves)} moves, {parsed.nodes} nodes"
    worst, verdict = _verdict(parsed, probe.truth[probe.depth])
    print(f"{head}{read:<24}{calibration.chess960}")
    for line in verdict[1:]:
        print(f"      {line}")
    for note in parsed.notes:
        print(f"      note: {note}")
    return worst


def _print_probe(probe: Probe, verbose: bool, engine=None) -> int:
    """One line per calibration position (what was read, whether it agrees), details below."""
    head = _head(probe, verbose)
    if probe.error:
        print(f"{head}failed: {probe.error}")
        return 1
    if probe.parsed is None:
        print(f"{head}not read: {probe.read_error}")
        for line in (probe.lines or [])[:8]:
            print(f"      | {line}")
        return 2
    parsed = probe.parsed
    truth = probe.truth[probe.depth]
    if parsed.moves is None:
        read = f"total {parsed.total}"
    else:
        read = f"{len(parsed.moves)} moves, {parsed.nodes} nodes"
    worst, verdict = _verdict(parsed, truth)
    notes = list(parsed.notes)
    if parsed.dropped and probe.depth > 1 and engine is not None:
        worst, verdict, notes = _zeros_at_depth_1(engine, probe, worst, verdict, notes)
    print(f"{head}{read:<24}{verdict[0]}")
    for line in verdict[1:]:
        print(f"      {line}")
    for note in notes:
        print(f"      note: {note}")
    if verbose:
        for line in parsed.ignored:
            print(f"      ignored {line!r}")
    return worst


def _verdict(parsed, truth: dict) -> tuple[int, list[str]]:
    """(0 agrees / 1 differs, lines saying how)."""
    if parsed.moves is None:
        expected = sum(truth.values())
        if parsed.total == expected:
            return 0, ["agrees"]
        return 1, [f"differs: the core counts {expected} ({parsed.total - expected:+})"]
    moves = parsed.moves
    missing = [m for m in truth if m not in moves]
    extra = [m for m in moves if m not in truth]
    counts = [f"{m} {moves[m]} (core {truth[m]})" for m in truth if m in moves and moves[m] != truth[m]]
    if not (missing or extra or counts):
        return 0, ["agrees"]
    return 1, ["differs"] + [f"{title}: {', '.join(items)}" for title, items in
                             (("missing", missing), ("extra", extra), ("counts", counts)) if items]


def _zeros_at_depth_1(engine, probe: Probe, worst: int, verdict: list[str], notes: list[str]):
    """Moves listed with 0 at depth 2 that are not legal: asked at depth 1, a move it does not
    count there is a pseudo-legal move it rejects; one it counts is an illegal move it plays."""
    from perftscope.core.engines.divide_parser import zero_rows_note
    dropped = probe.parsed.dropped
    try:
        at_1 = engine.answer(Request.of(probe.fen), 1).moves or {}
    except EngineError as e:
        return worst, verdict, notes + [f"asked at depth 1 about the moves listed with 0, it failed: {e}"]
    played = [m for m in dropped if at_1.get(m)]
    notes = [n for n in notes if not n.endswith(" ".join(dropped))]
    if not played:
        return worst, verdict, notes + [zero_rows_note(dropped, probe.depth, rejected=True)]
    said = (f"at depth 1 it counts {' '.join(played)}, listed with 0 here: it generates "
            f"{'these illegal moves' if len(played) != 1 else 'this illegal move'}")
    return 1, (["differs"] if worst == 0 else verdict) + [said], notes


def _print_dialect(engine, calibration):
    saved = f" (saved to {engine.record})" if getattr(engine, "record", None) else \
        (" (given, not learned)" if getattr(engine, "_given", False) else "")
    print(f"\nlearned{saved}")
    examples = calibration.examples
    for what, how in calibration.dialect.describe():
        example = {"rows": examples.get("row"), "total": examples.get("total"),
                   "illegal": examples.get("zero")}.get(what)
        print(f"  {what:<9} {how}" + (f"   e.g. {example!r}" if example else ""))


def _check_deeper(engine, core, depth: int) -> int:
    kiwipete = Request.of(KIWIPETE)
    try:
        answer = engine.answer(kiwipete, depth)
    except EngineError as e:
        print(f"  failed: {e}")
        return 1
    return _print_answer(f"  Kiwipete, depth {depth}", answer, core.divide(kiwipete, depth))


def _print_answer(title: str, answer, truth: dict) -> int:
    read = f"total {answer.total}" if answer.moves is None else f"{len(answer.moves)} moves, {answer.total} nodes"
    worst, verdict = _verdict(answer, truth)
    print(f"{title:<50}{read:<24}{verdict[0]}")
    for line in verdict[1:]:
        print(f"      {line}")
    return worst
