"""`perftscope race`: engines raced on perft beside the core and Stockfish, every count checked;
with `--repeat N`, two builds of one engine timed in alternation with a verdict."""
from __future__ import annotations

from pathlib import Path

from perftscope.core.engines.spec import SPECS, YARDSTICKS
from perftscope.core.errors import PerftscopeError
from perftscope.core.limits import DEPTH_LIMIT

from . import add_parser
from .common import add_960_arg, int_arg, print_json, seconds_arg

DEFAULT_SECONDS = 10.0
HASH_LIMIT_MB = 1 << 20


def register(sub):
    p = add_parser(sub, "race",
                   description="Race engines on perft by iterative deepening within a budget per position "
                               "(or to a fixed depth), beside the core and Stockfish. Every count is checked "
                               "against the core's: a wrong one disqualifies the engine on that position with "
                               "the finder's verdict. Per depth: nodes, wall time, nodes per second with the "
                               "start-up (the fastest depth-1 call) taken out, CPU time and peak memory of the "
                               "engine process. With --repeat N and two engines (A then B): N alternating "
                               "runs each and a verdict. Exit status: 0 done, 1 an engine was disqualified "
                               "(a wrong count, a crash, a hang), 2 error.")
    p.add_argument("--engine", action="append", required=True, metavar="SPEC",
                   help=f"an engine to race (repeat the option for more): {SPECS}")
    p.add_argument("--positions", default="standard", metavar="standard|FILE|FEN",
                   help="the five standard positions (start, Kiwipete, 3, 4, 5; the default), an EPD or "
                        ".perft file or bundled suite, or one FEN")
    budget = p.add_mutually_exclusive_group()
    budget.add_argument("--seconds", type=seconds_arg, metavar="S",
                        help=f"budget per engine and position (default {DEFAULT_SECONDS:g})")
    # from 1: a race deepens from depth 1, and depth 0 would read as no limit at all
    budget.add_argument("--depth", type=int_arg("depth", 1, DEPTH_LIMIT), metavar="D",
                        help="every engine to depth D instead")
    p.add_argument("--repeat", type=int_arg("repeat", 1, 1000), metavar="N",
                   help="A/B: N timed runs of each of the two engines, alternating "
                        "(6 or more for a 95 %% interval)")
    p.add_argument("--threads", type=int_arg("threads", 1, 1024), metavar="T",
                   help="threads for every engine that can take them (UCI Threads, {threads}); the core's workers")
    p.add_argument("--hash", dest="hash_mb", type=int_arg("hash", 0, HASH_LIMIT_MB), metavar="MB",
                   help="hash table size in MiB for every engine that can take it (UCI Hash, {hash_mb}); 0: none")
    p.add_argument("--yardsticks", default="core,stockfish", metavar="NAMES",
                   help="engines raced beside yours: core, stockfish, both (the default) or none")
    add_960_arg(p, "every position is Chess960: X-FEN KQkq name the outermost rooks (kings on e1/e8 "
                   "included), castling is king takes rook, engines are told (UCI_Chess960)")
    p.add_argument("--timeout", type=seconds_arg, default=120.0, metavar="S",
                   help="longest wait for one engine call before the engine counts as hung (default 120)")
    out = p.add_mutually_exclusive_group()
    out.add_argument("--json", action="store_true", help="one JSON object on stdout")
    out.add_argument("--markdown", action="store_true", help="Markdown tables for an engine's README")
    p.set_defaults(run=run)


def positions_from(text: str, chess960: bool = False):
    """The race's positions: 'standard', a suite file (or bundled suite), or one FEN; with
    `chess960` every one is played as Chess960."""
    from perftscope.core.board.position import Position
    from perftscope.core.counting.suites import load
    from perftscope.core.race.runner import RacePosition, standard_positions
    from .suite import resolve
    if text == "standard":
        return standard_positions(chess960)
    if Path(text).exists() or "/" not in text or " " not in text.strip():
        entries = load(resolve(text), chess960)
        return [RacePosition(e.name or f"#{i + 1}", Position.from_fen(e.full_fen).fen())
                for i, e in enumerate(entries)]
    return [RacePosition("fen", Position.from_fen(text, chess960=chess960).fen())]


def yardsticks_from(text: str) -> tuple[str, ...]:
    names = tuple(x.strip() for x in text.split(",") if x.strip())
    if names in ((), ("none",)):
        return ()
    for name in names:
        if name not in YARDSTICKS:
            raise PerftscopeError(f"--yardsticks: unknown {name!r} ({', '.join(YARDSTICKS)} or none)")
    return names


def run(args) -> int:
    from perftscope.core.engines.spec import parse_spec
    from perftscope.core.race import report
    from perftscope.core.race.duel import DuelSettings
    from perftscope.core.race.race_job import DuelJob, DuelRun, RaceEvent, RaceJob, RaceSettings
    from .job_runner import run_job

    specs = [parse_spec(spec) for spec in args.engine]      # read once: a typo fails before any engine starts
    positions = positions_from(args.positions, args.chess960)
    if args.repeat is not None and len(args.engine) != 2:
        raise PerftscopeError("--repeat compares two builds: give exactly two --engine (A, then B)")
    seconds = args.seconds if args.depth is None else None
    if seconds is None and args.depth is None:
        seconds = DEFAULT_SECONDS
    live = not (args.json or args.markdown)
    printer = _Printer() if live else None

    def show(event):
        if isinstance(event, RaceEvent):
            printer.event(event.kind, event.heat, event.lap)
        elif isinstance(event, DuelRun):
            printer.run(event.match, event.side, event.round)
    # a race (and an A/B duel) as the window runs it: a Job, each heat and depth (and timed run) an
    # event, Ctrl-C as Stop; the duel's progress line where no text report is printed as it goes
    if args.repeat is not None:
        job = DuelJob(DuelSettings(specs[0], specs[1], tuple(positions), args.repeat, seconds, args.depth,
                                   args.threads, args.hash_mb, args.timeout))
        duel = job.duel
    else:
        job = RaceJob(RaceSettings(tuple(specs), tuple(positions), seconds, args.depth, args.threads, args.hash_mb,
                                   args.timeout, yardsticks_from(args.yardsticks)))
        duel = None
    race = job.race
    if live:
        print(f"race       {report.settings_text(race, args.repeat)}", flush=True)
    run_job(job, show if live else None, quiet=live)
    if args.json:
        print_json(report.to_json(race, duel))
    elif args.markdown:
        print(report.to_markdown(race, duel))
    else:
        printer.summary(race, duel)
    return 1 if race.wrong else 0


class _Printer:
    """The text report, printed as the race goes: a header per position, a line per depth."""
    COLUMNS = f"  {'engine':<24} {'depth':>5} {'nodes':>15} {'wall s':>9} {'net s':>9} {'nps':>14} " \
              f"{'CPU s':>8} {'peak MiB':>9} {'own s':>8}"

    def __init__(self):
        self.position = None

    def event(self, event, heat, lap):
        if heat.position != self.position:
            self.position = heat.position
            print(f"\n{heat.position.name:<10} {heat.position.fen}\n{self.COLUMNS}", flush=True)
        if event == "lap":
            print(self._lap(heat.engine, lap), flush=True)
        elif heat.out or heat.note:
            print(f"  {heat.engine:<24} {heat.status}: {heat.verdict or heat.note}", flush=True)

    @staticmethod
    def _lap(engine, lap) -> str:
        from perftscope.core.race.report import net_cell
        from perftscope.core.units import format_rate

        def num(value, fmt):
            return "—" if value is None else format(value, fmt)
        return (f"  {engine[:24]:<24} {lap.depth:>5} {lap.nodes:>15,} {lap.seconds:>9.4f} "
                f"{net_cell(lap):>9} "
                f"{format_rate(lap.nps) if lap.nps else '—':>14} {num(lap.cpu, '.3f'):>8} "
                f"{num(lap.peak / 2**20 if lap.peak else None, '.1f'):>9} {num(lap.own_seconds, '.4f'):>8}")

    def run(self, match, side, round_):
        print(f"  run {round_ + 1} {side} on {match.position.name}: "
              f"{(match.a if side == 'A' else match.b)[-1]:.4f} s", flush=True)

    def summary(self, race, duel):
        from perftscope.core.race import report
        print(f"\nmachine    {report.load_text(race)}")
        for racer in race.racers:
            print(f"engine     {racer.label}")
        names = [p.name for p in race.positions]
        width = max([len(r.name) for r in race.racers] + [6])
        print(f"\n{'':<{width}}  " + "  ".join(f"{n:>22}" for n in names))
        for i, racer in enumerate(race.racers):
            cells = [report.speed_cell(h) for h in race.heats if h.racer == i]
            print(f"{racer.name:<{width}}  " + "  ".join(f"{c:>22}" for c in cells))
        out = [h for h in race.heats if h.out]
        for heat in out:
            print(f"\nout        {heat.engine} on {heat.position.name}: {heat.status}: {heat.verdict}")
        if duel is not None:
            a, b = race.racers
            print(f"\nA          {a.label}   {a.spec}\nB          {b.label}   {b.spec}")
            for m in duel.matches:
                if m.verdict is None:
                    print(f"{m.position.name:<10} {m.out}")
                    continue
                print(f"{m.position.name:<10} depth {m.depth}: A median {m.verdict.a.median:.4f} s "
                      f"({m.verdict.a.low:.4f}–{m.verdict.a.high:.4f}), B median {m.verdict.b.median:.4f} s "
                      f"({m.verdict.b.low:.4f}–{m.verdict.b.high:.4f})")
                print(f"{'':<10} {m.verdict.text}")
                if m.cpu_verdict is not None:
                    print(f"{'':<10} CPU time: {m.cpu_verdict.text}")
            if duel.total is not None:
                print(f"total      {duel.total.text}")
                if duel.cpu_total is not None:
                    print(f"           CPU time: {duel.cpu_total.text}")
