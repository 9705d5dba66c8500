"""The race: every engine on every position by iterative deepening, every count checked.

    race = Race(["perftree:./my-perft.sh"], standard_positions(), seconds=10)
    race.run()                  # blocks; listener(event, heat, lap) is told as it goes
    race.heats[0].laps[-1].nps  # the deepest depth it finished on the first position

Positions run one after another and, on each, the engines one after another: nothing else of
the race competes with a timed call for the machine's cores. A heat (one engine on one position)
starts with depth-1 calls whose fastest is the engine's start-up: a program's launch, a process's
round trip; it is taken out of every deeper depth's time before nodes per second are computed.
Those calls do not all take the same time: a depth whose net time is within that noise (their
spread, or a share of the start-up if they happened to agree) is given no speed, since its
figure would be the start-up's jitter divided into its nodes (hundreds of Mnps at depth 3 for an
engine that does 54 at depth 6).
Then depth 2, 3, ... while the next depth, predicted from the last one's time and growth, fits in
the budget (a call still running when the budget ends is stopped and does not count), or up to a
fixed depth. After each depth the count is checked against the core's (a perft without a table,
computed after the timed call, never during it, and not charged to the budget); a wrong count ends the heat with the finder's
one-line verdict from the engine's side. A crash, a hang or unreadable output ends the heat with
the engine's own error line, and the race goes on with the next engine.
"""
from __future__ import annotations

import contextlib
import os
import threading
import time
from dataclasses import dataclass, field, replace
from functools import cached_property

from ..engines.mode import Mode
from ..engines.oracle import Request
from ..engines.spec import YARDSTICKS, parse_spec
from ..errors import EngineError, EngineFailed, OracleCancelled
from ..limits import RUN_DEPTH_LIMIT
from ..engines.usage import Usage
from ..mismatch.failures import Failure, word
from .racers import CoreRacer, EngineRacer, Timing

STARTUP_CALLS = 3          # depth-1 calls per heat; the fastest is the start-up
NOISE_SHARE = 0.1          # the start-up's noise is at least this share of it (3 calls may agree)
DEFAULT_TIMEOUT = 600.0    # one call longer than this is a hung engine

# how a heat ended (a failed call worded as every report words it: core.mismatch.failures)
RUNNING, DONE, WRONG, CRASHED, HUNG, FAILED, STOPPED = (
    "running", "done", "wrong count", word("crash"), word("timeout"), word("error"), "stopped")
OUT = (WRONG, CRASHED, HUNG, FAILED)


@dataclass(frozen=True)
class RacePosition:
    name: str
    fen: str

    @cached_property
    def request(self) -> Request:
        """The position read once for the whole race: every engine's calls, the core's check and
        the finder are given this Request."""
        return Request.of(self.fen)


@dataclass(frozen=True)
class Lap:
    """One depth of one engine on one position. `net` is the wall time less the heat's start-up
    (None at depth 1, which is the start-up); `noise` how much the start-up itself varies (a
    net within it gives no speed); `cpu` and `peak` are what the OS says (`source`)."""
    depth: int
    nodes: int
    seconds: float
    net: float | None
    cpu: float | None
    peak: int | None
    source: str | None
    own_seconds: float | None = None
    noise: float = 0.0

    @property
    def within_noise(self) -> bool:
        """Its net time is no more than the start-up's noise: too short to time."""
        return self.net is not None and self.net <= max(self.noise, 0.0)

    @property
    def nps(self) -> float | None:
        return self.nodes / self.net if self.net is not None and self.net > 0 and not self.within_noise else None

    def to_json(self) -> dict:
        return {"depth": self.depth, "nodes": self.nodes, "seconds": self.seconds, "net_seconds": self.net,
                "nps": self.nps, "cpu_seconds": self.cpu, "peak_bytes": self.peak, "measured_by": self.source,
                "own_seconds": self.own_seconds, "noise_seconds": self.noise}


@dataclass
class Heat:
    """One engine on one position: its laps and how it ended (`verdict` says why it is out)."""
    racer: int
    engine: str
    position: RacePosition
    laps: list[Lap] = field(default_factory=list)
    startup: float | None = None
    startup_cpu: float | None = None
    startup_noise: float = 0.0  # how much its depth-1 calls vary (Lap.noise)
    load: float | None = None   # the machine's 1-minute load average when the heat began
    status: str = ""
    verdict: str = ""
    note: str = ""              # e.g. the depth the budget cut short
    failure: Failure | None = None   # the call that put it out, when one failed

    @property
    def out(self) -> bool:
        return self.status in OUT

    @property
    def best(self) -> Lap | None:
        """The deepest lap with a speed: what the engine is ranked by on this position."""
        timed = [lap for lap in self.laps if lap.nps is not None]
        return timed[-1] if timed and not self.out else None

    def snapshot(self) -> "Heat":
        return replace(self, laps=list(self.laps))

    def to_json(self) -> dict:
        best = self.best
        return {"engine": self.engine, "position": self.position.name, "fen": self.position.fen,
                "status": self.status, "verdict": self.verdict, "note": self.note,
                "startup_seconds": self.startup, "startup_cpu_seconds": self.startup_cpu,
                "startup_noise_seconds": self.startup_noise,
                "load_average": self.load, "depth": best.depth if best else None,
                "nps": best.nps if best else None, "laps": [lap.to_json() for lap in self.laps]}


def standard_positions(chess960: bool = False) -> list[RacePosition]:
    """The five positions engine authors quote (perftscope bench's): start, Kiwipete, 3, 4, 5;
    `chess960`: played as Chess960 (castling king takes rook, the same counts)."""
    from ... import resources
    from ..counting.suites import load
    by_name = {e.name: e for e in load(resources.path("standard.epd"), chess960)}
    return [RacePosition(n, by_name[n].full_fen) for n in ("initial", "kiwipete", "pos3", "pos4", "pos5")]


def as_chess960(positions) -> list[RacePosition]:
    """The positions played as Chess960 (the window's Chess960 box, the CLI's --960): each FEN
    written so that it says Chess960 by itself, which is how every engine is told (UCI_Chess960,
    xboard's variant). FenError for one that is not a valid Chess960 position."""
    from ..board.position import Position
    return [RacePosition(p.name, Position.from_fen(p.fen, chess960=True).fen()) for p in positions]


class Truth:
    """The core's count of each (position, depth), computed once, on every core, without a table."""

    def __init__(self):
        self._counts: dict[tuple[str, int], int] = {}
        self._run = None

    def count(self, request: Request, depth: int) -> int:
        """OracleCancelled when cancel() stopped it."""
        key = (request.root, depth)
        if key not in self._counts:
            from ..counting.pool import start_perft
            self._run = start_perft(request.position, depth, hash_exp=-1)
            result = self._run.result()
            if result.cancelled:
                raise OracleCancelled(f"core: stopped while checking perft {depth} of {request.root}")
            self._counts[key] = result.nodes
        return self._counts[key]

    def cancel(self):
        run = self._run
        if run is not None:
            run.cancel()

    def learn(self, request: Request, depth: int, nodes: int):
        """A count the core made the same way (no table) during the race: no need to redo it."""
        self._counts.setdefault((request.root, depth), nodes)


class Race:
    """`engines`: specs raced (Specs, or texts read here, once); `yardsticks`: the core and
    Stockfish, run the same way, unless the engines name them already. `seconds` per heat, or a fixed `depth`. `listener(event, heat, lap)`
    is called from the race's thread: 'heat' when a heat starts or ends, 'lap' after each depth."""

    def __init__(self, engines, positions, seconds: float | None = None, depth: int | None = None,
                 mode: Mode | None = None, timeout: float = DEFAULT_TIMEOUT, yardsticks=YARDSTICKS,
                 listener=None):
        if (seconds is None) == (depth is None):
            raise EngineError("a race needs a budget in seconds or a fixed depth, not both")
        self.seconds, self.depth, self.mode, self.timeout = seconds, depth, mode or Mode(), timeout
        self.positions = list(positions)
        self.listener = listener
        self.racers = [self._racer(parse_spec(spec)) for spec in engines]
        named = {r.spec.kind for r in self.racers if r.spec.kind in YARDSTICKS}
        for stick in yardsticks:
            if stick not in named and (stick != "stockfish" or _have_stockfish()):
                self.racers.append(self._racer(parse_spec(stick)))
        self.heats = [Heat(i, r.name, p) for p in self.positions for i, r in enumerate(self.racers)]
        self.truth = Truth()
        self.load = {"start": None, "end": None, "cpus": os.cpu_count()}
        self.stopped = threading.Event()
        self._current = None          # (racer, its call's end) while a call runs
        self._cut_lock = threading.Lock()

    def _racer(self, spec):
        return CoreRacer(self.mode) if spec.kind == "core" else EngineRacer(spec, self.mode, self.timeout)

    # --- from any thread --------------------------------------------------------------------
    def stop(self):
        """End the race now: the running call is stopped (its process killed), nothing else runs."""
        self.stopped.set()            # before reading _current: a call starting now sees it
        self.truth.cancel()
        current = self._current
        if current is not None:
            self._cut(*current)

    def _cut(self, racer, over: threading.Event):
        """Stop one call: asked again every 50 ms until it returns (a cancel that came as the call
        was starting could be lost), never once it is over, so it cannot reach the next call."""
        def keep_cancelling():
            while True:
                with self._cut_lock:
                    if over.is_set():
                        return
                    racer.cancel()
                over.wait(0.05)
        threading.Thread(target=keep_cancelling, name="race-cut", daemon=True).start()

    @contextlib.contextmanager
    def _cuttable(self, racer, budget_end: float | None = None):
        """A call stop() can end, and the budget's end too when there is one."""
        over = threading.Event()
        self._current = (racer, over)
        timer = None
        if budget_end is not None:
            timer = threading.Timer(max(0.0, budget_end - time.monotonic()), self._cut, (racer, over))
            timer.daemon = True
            timer.start()
        try:
            if self.stopped.is_set():
                raise OracleCancelled("stopped")
            yield
        finally:
            with self._cut_lock:
                over.set()
            self._current = None
            if timer is not None:
                timer.cancel()

    # --- the race's thread --------------------------------------------------------------------
    def start(self):
        """Start every engine; EngineError from one that cannot start closes the others. A
        crash or a hang while starting is that engine's failure on every position instead."""
        self.load["start"] = os.getloadavg()
        for i, racer in enumerate(self.racers):
            try:
                racer.start()
            except EngineFailed as e:
                for heat in self.heats:
                    if heat.racer == i:
                        self.fail(heat, e, None)
            except BaseException:
                self.close()
                raise
            names = [r.name for r in self.racers[:i]]
            if racer.name in names:           # two builds of one program: told apart by number
                racer.name = f"{racer.name} #{names.count(racer.name) + 1}"
            for heat in self.heats:
                if heat.racer == i:
                    heat.engine = racer.name

    def run(self):
        """The whole race; every engine is closed at the end."""
        try:
            self.start()
            for heat in self.heats:
                if self.stopped.is_set():
                    break
                if not heat.status:
                    self.deepen(heat)
        finally:
            self.finish()
        return self

    def finish(self):
        self.load["end"] = os.getloadavg()
        self.close()

    def deepen(self, heat: Heat):
        """One heat: start-up, then depth after depth within the budget (or up to the depth)."""
        racer = self.racers[heat.racer]
        request = heat.position.request
        last_depth = self.depth or RUN_DEPTH_LIMIT
        heat.status = RUNNING
        heat.load = os.getloadavg()[0]
        self._tell("heat", heat)
        began = time.monotonic()
        budget_end = None if self.seconds is None else began + self.seconds
        depth = 1
        try:
            timings = [self.timed(racer, request, 1, None) for _ in range(STARTUP_CALLS)]
            first = min(timings, key=lambda t: t.seconds)
            heat.startup = first.seconds
            spread = max(t.seconds for t in timings) - first.seconds
            heat.startup_noise = max(spread, NOISE_SHARE * first.seconds)
            heat.startup_cpu = first.usage.cpu if first.usage is not None else None
            if self._check(heat, racer, 1, first):
                return
            depth = 2
            while depth <= last_depth and not self.stopped.is_set():
                if budget_end is not None:
                    previous, last = heat.laps[-2:] if len(heat.laps) > 1 else (None, heat.laps[-1])
                    growth = last.nodes / previous.nodes if previous is not None else last.nodes
                    predicted = heat.startup + (last.net or 0.0) * growth
                    if time.monotonic() + predicted > budget_end:
                        break
                timing = self.timed(racer, request, depth, budget_end)
                if timing is None:
                    heat.note = f"depth {depth} did not finish within the {self.seconds:g} s budget"
                    break
                checking = time.monotonic()
                if self._check(heat, racer, depth, timing):
                    return
                if budget_end is not None:       # the core's check is not the engine's time
                    budget_end += time.monotonic() - checking
                depth += 1
            heat.status = STOPPED if self.stopped.is_set() else DONE
        except OracleCancelled:
            heat.status = STOPPED
        except EngineError as e:
            self.fail(heat, e, depth)
        finally:
            self._tell("heat", heat)

    def timed(self, racer, request: Request, depth: int, budget_end: float | None) -> Timing | None:
        """One call, stopped at the budget's end (None then) or by stop() (OracleCancelled)."""
        try:
            with self._cuttable(racer, budget_end):
                timing = racer.call(request, depth)
        except OracleCancelled:
            if self.stopped.is_set() or budget_end is None:
                raise
            return None
        # a call can end in the moment between the budget's end and the cut reaching it: it did
        # not finish within the budget either (it would be counted a millisecond or two over)
        if budget_end is not None and time.monotonic() > budget_end:
            return None
        return timing

    def _check(self, heat: Heat, racer, depth: int, timing: Timing) -> bool:
        """Record the lap; True when its count is wrong (the heat is then out, with the verdict)."""
        usage = timing.usage or Usage(None, None, None)
        net = None if depth == 1 else timing.seconds - heat.startup
        lap = Lap(depth, timing.nodes, timing.seconds, net, usage.cpu, usage.peak, usage.source,
                  timing.own_seconds, heat.startup_noise)
        if isinstance(racer, CoreRacer) and racer.hash_exp < 0:
            self.truth.learn(heat.position.request, depth, timing.nodes)
        heat.laps.append(lap)
        wrong = self.disqualify(heat, depth, timing.nodes)
        self._tell("lap", heat, lap)
        return wrong

    def disqualify(self, heat: Heat, depth: int, nodes: int) -> bool:
        """Check `nodes` against the core's count; a wrong one puts the heat out with the
        finder's verdict. True when it did."""
        expected = self.truth.count(heat.position.request, depth)
        if nodes == expected:
            return False
        heat.status = WRONG
        heat.verdict = (f"depth {depth}: {nodes:,} against the core's {expected:,} ({nodes - expected:+,}); "
                        f"{self._why(self.racers[heat.racer], heat.position.request, depth)}")
        return True

    def _why(self, racer, request: Request, depth: int) -> str:
        """The finder's one-line verdict from the engine's side: which move, illegal or not generated."""
        if racer.oracle is None:
            return "counted with a hash table: a table collision (the count without one is right)"
        from ..engines.oracles import make_oracle
        from ..mismatch.findings import investigate
        try:
            with self._cuttable(racer), make_oracle("core") as core:    # stop() reaches the finder's calls
                finding = investigate(racer.oracle, core, request, depth, cancelled=self.stopped.is_set)
        except OracleCancelled:
            return "stopped before the finder found the move"
        except EngineError as e:
            return f"the finder could not follow it: {e}"
        if finding is None:
            return ("asked again, it counts right: its count depends on what it counted before "
                    "(state kept between calls)")
        return finding.summary()

    def fail(self, heat: Heat, error: EngineError, depth: int | None):
        """A failed call puts the heat out, worded as every report words a failure (a crash by the
        engine's own error line, a hang by how long it was waited for)."""
        heat.failure = Failure.of(error, heat.engine, f"at depth {depth}" if depth else "while starting",
                                  named=False)
        heat.status = {"crash": CRASHED, "timeout": HUNG}.get(heat.failure.kind, FAILED)
        heat.verdict = heat.failure.message

    def _tell(self, event: str, heat: Heat, lap: Lap | None = None):
        if self.listener is not None:
            self.listener(event, heat.snapshot(), lap)

    def close(self):
        for racer in self.racers:
            try:
                racer.close()
            except EngineError:
                pass

    @property
    def wrong(self) -> bool:
        """An engine was out somewhere: a wrong count, a crash or a hang."""
        return any(h.out for h in self.heats)


def _have_stockfish() -> bool:
    from ..engines.stockfish import find_stockfish
    return find_stockfish() is not None
