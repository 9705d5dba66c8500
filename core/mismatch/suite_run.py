"""An engine against a whole suite: every position and depth, each failure drilled down,
classified and shrunk; the summary by class; JUnit XML for an engine's own CI.

    >>> run = SuiteRun(load("resources/ep_edge_cases.epd"),
    ...                EnginePair.parse("perftree:tests/engines/ep_rank_pin.py", "core"),
    ...                SuiteSettings("ep_edge_cases.epd", max_depth=None, jobs=2, max_nodes=10_000))
    >>> run.run()
    >>> [c.finding.kind for c in run.cases if c.finding]
    ['ep-rank-pin', 'ep-rank-pin', ...]

A session (core.mismatch.engine_session): each of the `jobs` worker threads owns its own engine and
reference (one process each), so N jobs run N engine processes at once. Expected counts come from
the suite; a position without any is counted by the reference up to `max_depth` (default 3).
"""
from __future__ import annotations

import collections
import threading
import time
import xml.etree.ElementTree as ET
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Callable, Iterable

from ..errors import CalibrationError, EngineError, EngineTimeout, FenError
from .findings import (Finding, depth_histogram, failure_finding, investigate, shortest_examples,
                       timeout_finding)
from ..engines.oracle import Request
from ..engines.oracles import Oracle, OracleCancelled
from ..engines.pair import EnginePair
from ..board.position import Position
from ..counting.suites import SuiteEntry
from .engine_session import EngineSession
from .shrink import DEFAULT_SHRINK_CALLS, why_unreachable

DEFAULT_DEPTH_WITHOUT_COUNTS = 3
IN_FLIGHT = 4                   # positions queued per job ahead of the one running


# how the summary says a count (the Test tab shows it): no key of counts() in words of code
_SAID = {"may_differ": "differ where engines may differ"}


@dataclass
class Case:
    """One suite position's outcome. `checked` holds (depth, expected, engine's count)."""
    entry: SuiteEntry
    name: str
    checked: list[tuple[int, int, int | None]] = field(default_factory=list)
    finding: Finding | None = None
    skipped: str = ""             # why the position was not run (Chess960 castling, no depth left)
    error: str = ""               # an unreadable line or FEN in the suite
    index: int = 0                # its place in the suite
    seconds: float = 0.0
    unreachable: list[str] = field(default_factory=list)    # why the position cannot arise in a game
    fen_error: FenError | None = None    # skipped as a valid Chess960 position read as standard chess

    @property
    def passed(self) -> bool:
        return not (self.finding or self.error or self.skipped)

    @property
    def failed(self) -> bool:
        return bool(self.finding and not self.may_differ or self.error)

    @property
    def may_differ(self) -> bool:
        """The engine's moves differ on a position that cannot arise in a game: engines may
        differ there, so it is said but not counted as a failure (a crash still is one)."""
        return bool(self.finding and self.unreachable and not self.finding.engine_failed)

    def to_json(self) -> dict:
        return {"name": self.name, "fen": self.entry.fen, "passed": self.passed,
                "may_differ": self.may_differ, "unreachable": list(self.unreachable),
                "skipped": self.skipped, "error": self.error, "seconds": round(self.seconds, 3),
                "checked": [{"depth": d, "expected": e, "nodes": n} for d, e, n in self.checked],
                "finding": None if self.finding is None else self.finding.to_json()}


@dataclass(frozen=True)
class SuiteSettings:
    """Every position of a bundled suite (`suite`: its file name in perftscope.resources), or of
    `entries` read from a file of the user's (`suite` then its name; an iterable, so a file of any
    length is streamed in bounded memory), each depth the file
    gives up to `max_depth` and within `max_nodes`, on `jobs` engine processes, each failing
    position shrunk with up to `shrink_calls` engine calls; `cases`: each position's Case an event
    as it ends; `keep_passed`: the passed Cases kept (a long text report keeps the failures only)."""
    suite: str
    max_depth: int | None = 2
    jobs: int = 2
    chess960: bool = False        # every position read as Chess960 (the window's box)
    entries: Iterable[SuiteEntry] | None = None
    max_nodes: int | None = None
    shrink_calls: int = DEFAULT_SHRINK_CALLS
    cases: bool = False
    keep_passed: bool = True


class SuiteRun(EngineSession):
    """Runs the suite on worker threads; `on_case(case)` is called (from a worker) as each ends,
    besides the session's on_finding and on_position."""

    def __init__(self, entries: Iterable[SuiteEntry], pair: EnginePair, settings: SuiteSettings,
                 on_case: Callable[[Case], None] | None = None, on_finding: Callable[[Finding], None] | None = None,
                 on_position: Callable[[], None] | None = None):
        s = self.settings = settings
        self.entries, self.jobs = entries, max(1, s.jobs)
        self.max_depth, self.max_nodes, self.shrink_calls = s.max_depth, s.max_nodes, s.shrink_calls
        self.on_case = on_case
        # every case, or (keep_passed False: a text report of a suite of any length) only those
        # that did not pass, the others counted: memory then grows with the failures alone
        self.keep_passed = s.keep_passed
        self.cases: list[Case] = []
        self._counts = dict.fromkeys(("passed", "failed", "may_differ", "skipped"), 0)
        self.unreadable = 0            # suite lines that could not be read (each named on stderr as it came)
        self.seconds = 0.0
        self._local = threading.local()
        super().__init__(pair, on_finding, on_position)

    def _pair_for_thread(self) -> tuple[Oracle, Oracle]:
        pair = getattr(self._local, "pair", None)
        if pair is None:
            self._local.pair = pair = self.take_oracles()
        return pair

    # --- the run ---------------------------------------------------------------------------
    def run(self) -> list[Case]:
        start = time.perf_counter()
        try:
            with ThreadPoolExecutor(self.jobs, thread_name_prefix="suite-job") as pool:
                # the entries may be a stream (core.counting.suites.read): a bounded number in flight
                waiting: collections.deque = collections.deque()
                try:
                    for index, entry in enumerate(self.entries):
                        waiting.append(pool.submit(self._run_case, index, entry))
                        while len(waiting) > IN_FLIGHT * self.jobs:
                            waiting.popleft().result()          # a failing reference raises here
                    for future in waiting:
                        future.result()
                except BaseException:
                    # Ctrl-C (or a failing reference): the running engine calls are killed now,
                    # before leaving the pool waits for its jobs (it waited for a deep perft to end)
                    self.stop()
                    raise
        finally:
            self.close()
            self.seconds = time.perf_counter() - start
        self.cases.sort(key=lambda c: c.index)
        return self.cases

    def _run_case(self, index: int, entry: SuiteEntry):
        if self.stopped.is_set():
            return
        case = Case(entry, entry.name or entry.source, index=index)
        started = time.perf_counter()
        try:
            self._check(case)
        except OracleCancelled:
            if not self.stopped.is_set():
                raise
            return
        except EngineError:
            self.stop()                      # the reference failed: the whole run is in doubt
            raise
        if self.stopped.is_set():
            return                           # cut short: its result would be a guess
        case.seconds = time.perf_counter() - started
        with self._lock:
            for key, value in (("passed", case.passed), ("failed", case.failed), ("may_differ", case.may_differ),
                               ("skipped", bool(case.skipped))):
                self._counts[key] += value
            self.unreadable += bool(case.entry.error)
            if self.keep_passed or not case.passed:
                self.cases.append(case)
        self.tested()
        if case.finding is not None:
            self.found(case.finding)
        if self.on_case is not None:
            self.on_case(case)

    def _check(self, case: Case):
        if case.entry.error:
            case.error = case.entry.error
            return
        engine, reference = self._pair_for_thread()
        try:
            # the suite line's FEN, read here once (strictly: a suite's FEN must stand as written):
            # every call below is given this Request
            request = Request.at(Position.from_fen(case.entry.full_fen))
        except FenError as e:
            if e.chess960:             # valid Chess960, but the run was not told the suite is
                case.skipped, case.fen_error = str(e), e
            elif str(e).startswith("FEN field 3 (castling)"):
                case.skipped = f"unsupported (Chess960 castling?): {e}"
            else:
                case.error = str(e)
            return
        depths = self._depths(case.entry, request, reference)
        if not depths:
            case.skipped = "no depth within the limits"
            return
        for depth, expected in depths:
            try:
                got = engine.perft(request, depth)
            except OracleCancelled:
                raise
            except CalibrationError:
                if request.position.chess960 and getattr(engine, "takes_chess960", None) is False:
                    case.skipped = f"{engine.name} does not take Chess960 positions"
                    return
                raise
            except EngineError as e:
                got = None
                failed_with = e
            else:
                failed_with = None
            case.checked.append((depth, expected, got))
            if got == expected:
                continue
            if isinstance(failed_with, EngineTimeout):     # asking again would wait as long again
                case.finding = timeout_finding(engine, request, depth, failed_with, case.name)
                return
            case.finding = investigate(engine, reference, request, depth, name=case.name,
                                       shrink_calls=self.shrink_calls, cancelled=self.stopped.is_set)
            if case.finding is None:
                case.finding = self._unexplained(engine, case, request, depth, expected, got, failed_with)
            case.unreachable = why_unreachable(request.position)
            return

    def _depths(self, entry: SuiteEntry, request: Request, reference: Oracle) -> list[tuple[int, int]]:
        """(depth, expected) ascending: the file's counts within the limits, and the reference's
        for depths up to max_depth the file gives none for (1 to 3 when it gives none at all)."""
        within = lambda d, n: ((self.max_depth is None or d <= self.max_depth)  # noqa: E731
                               and (self.max_nodes is None or n <= self.max_nodes))
        out = {d: n for d, n in entry.expected.items() if within(d, n)}
        top = self.max_depth if self.max_depth is not None else \
            (0 if entry.expected else DEFAULT_DEPTH_WITHOUT_COUNTS)
        for depth in range(1, top + 1):
            if depth in entry.expected:
                continue
            nodes = reference.perft(request, depth)
            if not within(depth, nodes):
                break
            out[depth] = nodes
        return sorted(out.items())

    @staticmethod
    def _unexplained(engine, case, request: Request, depth, expected, got, error) -> Finding:
        # the engine failed against the file but agrees with the reference when asked again
        if error is not None:
            return failure_finding(engine, request, depth, error, case.name)
        return Finding(request.written, depth, "other", name=case.name,
                       error=f"the engine counts {got} at depth {depth}, the suite expects {expected}, "
                             f"and the reference agrees with the engine (a wrong count in the suite, "
                             f"or an engine whose answers change between calls)")

    # --- the summary -----------------------------------------------------------------------
    @property
    def findings(self) -> list[Finding]:
        """The failures' findings (not those on positions that cannot arise in a game)."""
        return [c.finding for c in self.cases if c.finding is not None and c.failed]

    def counts(self) -> dict[str, int]:
        with self._lock:
            return dict(self._counts)

    def summary(self) -> str:
        return (", ".join(f"{n} {_SAID.get(k, k)}" for k, n in self.counts().items())
                + (" (stopped)" if self.stopped.is_set() else ""))

    def by_class(self) -> dict[str, tuple[int, Finding]]:
        """kind -> (how many, the shortest example)."""
        examples = shortest_examples(self.findings)
        return {k: (sum(f.kind == k for f in self.findings), ex) for k, ex in examples.items()}

    def to_json(self) -> dict:
        return {"engine": self.engine_name, "reference": self.reference_name, **self.counts(),
                "seconds": round(self.seconds, 3), "stopped": self.stopped.is_set(),
                "classes": {k: {"count": n, "class": ex.label, "example": ex.example_fen,
                                "summary": ex.summary()} for k, (n, ex) in self.by_class().items()},
                "first_differ_depth": {str(d): n for d, n in depth_histogram(self.findings).items()},
                "cases": [c.to_json() for c in self.cases]}


def junit_xml(run: SuiteRun, suite_name: str) -> str:
    """JUnit XML: one testcase per position, a <failure> per finding (an <error> for a crash)."""
    counts = run.counts()
    root = ET.Element("testsuites")
    suite = ET.SubElement(root, "testsuite", name=f"perft {suite_name} ({run.engine_name})",
                          tests=str(len(run.cases)), failures=str(sum(
                              c.failed and c.finding is not None and not c.finding.engine_failed
                              for c in run.cases)),
                          errors=str(sum(bool(c.error) or (c.finding is not None and
                                                           c.finding.engine_failed)
                                         for c in run.cases)),
                          skipped=str(counts["skipped"]), time=f"{run.seconds:.3f}")
    for case in run.cases:
        tc = ET.SubElement(suite, "testcase", classname=f"perftscope.{run.engine_name}",
                           name=f"{case.name}: {case.entry.fen}", time=f"{case.seconds:.3f}")
        if case.skipped:
            ET.SubElement(tc, "skipped", message=case.skipped)
        elif case.may_differ:
            ET.SubElement(tc, "skipped", message=f"engines may differ here: this position cannot arise in a "
                                                 f"game ({'; '.join(case.unreachable)}); {case.finding.summary()}")
        elif case.error:
            ET.SubElement(tc, "error", message=case.error, type="fen").text = case.entry.fen
        elif case.finding is not None:
            f = case.finding
            tag = "error" if f.engine_failed else "failure"
            el = ET.SubElement(tc, tag, message=f.summary(), type=f.kind)
            el.text = _details(case)
    ET.indent(root)
    return ET.tostring(root, encoding="unicode", xml_declaration=True) + "\n"


def _details(case: Case) -> str:
    f = case.finding
    lines = [f"position {case.entry.fen}"]
    lines += [f"depth {d}: expected {e}, engine {'failed' if n is None else n}" for d, e, n in case.checked]
    if f.path:
        lines.append(f"path {' '.join(f.path)}")
    if f.report is not None and f.report.fen:
        lines.append(f"{'failed at' if f.engine_failed else 'differs at'} {f.report.fen}")
    lines.append(f.summary())
    if f.shrunk is not None:
        lines.append(f"minimal {f.shrunk.fen} (depth {f.shrunk.depth}, {f.shrunk.pieces} pieces)")
    return "\n".join(lines)
