"""A/B: two builds of one engine timed in alternation, with a verdict per position and in total.

    duel = Duel(DuelSettings("uci:./build-old/perft", "uci:./build-new/perft", tuple(standard_positions()),
                             repeat=10, depth=5))
    duel.run().total.text       # 'B is 7.2 % faster (95 % interval 5.1 to 9.3 %, 10 runs each)'

On each position both builds first run a heat of the race (counts checked, start-ups measured;
with a budget in seconds, the deepest depth both reach is the depth of the timed runs). Then
`repeat` rounds, each one run of A and one of B back to back, the order swapped every round
(AB BA AB ...): a machine getting busier or quieter over the minutes weighs on both alike, never
all A then all B. Each run is checked against the core's count too. The time compared is the
wall time less the engine's start-up; CPU time is compared as well where the OS gives it.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from ..engines.mode import Mode
from ..errors import EngineError, OracleCancelled
from .runner import DEFAULT_TIMEOUT, Race, RacePosition
from .stats import Verdict, compare


@dataclass
class Match:
    """One position of the duel: the depth timed, each build's wall and CPU seconds per run, the
    verdicts, or why the position is out (a build disqualified there)."""
    position: RacePosition
    depth: int | None = None
    a: list[float] = field(default_factory=list)
    b: list[float] = field(default_factory=list)
    a_cpu: list[float | None] = field(default_factory=list)
    b_cpu: list[float | None] = field(default_factory=list)
    verdict: Verdict | None = None
    cpu_verdict: Verdict | None = None
    out: str = ""

    def to_json(self) -> dict:
        return {"position": self.position.name, "fen": self.position.fen, "depth": self.depth,
                "a_seconds": self.a, "b_seconds": self.b, "a_cpu_seconds": self.a_cpu,
                "b_cpu_seconds": self.b_cpu, "out": self.out,
                "verdict": self.verdict.to_json() if self.verdict else None,
                "cpu_verdict": self.cpu_verdict.to_json() if self.cpu_verdict else None}


@dataclass(frozen=True)
class DuelSettings:
    """Two builds (`a`, `b`: Specs, or texts read when the duel is made), the positions, `repeat`
    timed runs of each per position, a budget in `seconds` per heat or a fixed `depth` (the other
    None), threads and hash asked of both (None: their own), the per-call timeout."""
    a: object
    b: object
    positions: tuple[RacePosition, ...]
    repeat: int
    seconds: float | None = None
    depth: int | None = None
    threads: int | None = None
    hash_mb: int | None = None
    timeout: float = DEFAULT_TIMEOUT


class Duel:
    """A against B; `race` holds the two heats per position and the engines' processes.
    `listener` is the race's (core.race.runner.Race); `on_run(match, side, round)` is called after
    each timed run."""

    def __init__(self, settings: DuelSettings, listener=None, on_run=None):
        s = settings
        self.repeat = s.repeat
        self.race = Race([s.a, s.b], s.positions, s.seconds, s.depth, Mode(s.threads, s.hash_mb), s.timeout,
                         yardsticks=(), listener=listener)
        self.matches = [Match(p) for p in self.race.positions]
        self.total: Verdict | None = None
        self.cpu_total: Verdict | None = None
        self.on_run = on_run

    def stop(self):
        self.race.stop()

    def run(self) -> "Duel":
        race = self.race
        try:
            race.start()
            for match, heats in zip(self.matches, _pairs(race.heats)):
                if race.stopped.is_set():
                    break
                self._match(match, heats)
        finally:
            race.finish()
        self._totals()
        return self

    def _match(self, match: Match, heats):
        race = self.race
        for heat in heats:
            if not heat.status:
                race.deepen(heat)
        out = [h for h in heats if h.out]
        if out:
            match.out = "; ".join(f"{h.engine} {h.status}: {h.verdict}" for h in out)
            return
        deepest = [h.laps[-1].depth for h in heats if h.laps]
        if len(deepest) < 2 or race.stopped.is_set():
            match.out = "stopped"
            return
        match.depth = race.depth or min(deepest)
        request = match.position.request        # read once for every round of both builds
        for round_ in range(self.repeat):
            for side in ((0, 1) if round_ % 2 == 0 else (1, 0)):
                heat = heats[side]
                try:
                    timing = race.timed(race.racers[side], request, match.depth, None)
                    wrong = race.disqualify(heat, match.depth, timing.nodes)
                except OracleCancelled:
                    match.out = "stopped"
                    return
                except EngineError as e:
                    race.fail(heat, e, match.depth)
                    wrong = True
                if wrong:
                    heat.verdict = f"run {round_ + 1} of {self.repeat}, {heat.verdict}"
                    match.out = f"{heat.engine} {heat.status}: {heat.verdict}"
                    return
                cpu = timing.usage.cpu if timing.usage is not None else None
                (match.a if side == 0 else match.b).append(timing.seconds)
                (match.a_cpu if side == 0 else match.b_cpu).append(cpu)
                if self.on_run is not None:
                    self.on_run(match, "AB"[side], round_)
        match.verdict = compare(match.a, match.b)
        match.cpu_verdict = _cpu_verdict(match.a_cpu, match.b_cpu)

    def _totals(self):
        """The rounds summed over the positions every run of which finished."""
        done = [m for m in self.matches if m.verdict is not None]
        if not done:
            return
        self.total = compare([sum(x) for x in zip(*(m.a for m in done))],
                             [sum(x) for x in zip(*(m.b for m in done))])
        cpus = [m for m in done if m.cpu_verdict is not None]
        if len(cpus) == len(done):
            self.cpu_total = compare([sum(x) for x in zip(*(m.a_cpu for m in done))],
                                     [sum(x) for x in zip(*(m.b_cpu for m in done))])

    @property
    def wrong(self) -> bool:
        return self.race.wrong


def _pairs(heats):
    """The race's heats two by two: A and B on each position."""
    return [heats[i:i + 2] for i in range(0, len(heats), 2)]


def _cpu_verdict(a, b) -> Verdict | None:
    # CPU figures come in ticks from /proc: a run below a few ticks says nothing
    if any(x is None or x <= 0 for x in a + b):
        return None
    return compare(a, b)
