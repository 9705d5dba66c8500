"""Ranking by what mutants do (MUSE, Metallaxis) and the fix: each suspect line's one-line
mutants (core.locate.mutants) run in shadow copies of the engine (core.locate.shadow) on the
runs the spectrum ranking was made from.

A mutant of the faulty line tends to turn failing runs into passing ones; a mutant of a correct
line tends to break passing runs. Each mutant is run on the failing runs first, the finder's
first: one that leaves the first failing run's answer as it was is rejected there (most are).
One that changes a failing run's answer is then run on the passing runs that reach its line,
until it has broken BREAKS of them (one that turns every failing run to pass, on all of them):
PASSING_RUNS at most, those where the failing runs' wrong move is at stake first.
A line's score is its best mutant's: the share of failing
runs it turns to pass, times the share of passing runs it has shown it keeps (kept / (tried + 1):
few passing runs tried say less than many, none nothing); then the share of failing runs
whose answer it changes at all, times the same (Metallaxis: where a check is missing no mutant
fixes, but mutants there change the wrong answer without breaking the right ones).

A mutant that turns every failing run to pass and keeps every passing run is a candidate; it is
a fix only once confirmed beyond the runs (core.locate.confirmation): the position the locate was
asked about at its depth and one deeper, every edge position with the failing kind of move, the
castling positions at depth 3 (confirmation.THIRD_PLY), and a focused fuzz, each agreeing with
the reference. One that agrees at the asked position at both
depths and, everywhere else it was checked, is wrong only where the engine itself is, the same
way, fixes this bug: the engine has another, which the candidate does not touch (Fix.status).
"""
from __future__ import annotations

import os
import shutil
import tempfile
import threading
import time
from collections import deque
from itertools import zip_longest
from dataclasses import dataclass, field, replace
from typing import Callable

from ..engines.oracle import Request
from ..engines.process import launched_with
from ..errors import EngineError, OracleCancelled
from ..mismatch.shrink import mirror, why_unreachable
from .confirmation import EDGE_DEPTHS, FUZZ_LEAST, THIRD_PLY_DEPTH, Confirmation, fixed_condition
from .coverage import LEANER_START
from .dataflow import DataFlow
from .mutants import Mutant, language_of, line_kind, mutants_of, statement_kind
from .runs import LiveOracles, Run, judge
from .shadow import Shadow
from .spectra import _text

FAILING_RUNS = 12         # failing runs a mutant is tried on at most
PASSING_RUNS = 60         # passing runs a mutant is tried on at most
BREAKS = 3                # passing runs a mutant may break before it is known not to be a fix
RANKS = 40                # the suspects of this many ranks (ties included) are mutated
LINES = 200               # lines mutated at least where the ranks hold them: the tie holding the 200th is finished
MOST_LINES = 600          # lines mutated at most, however wide that tie
FIRST = 3                 # mutants of each line in the first pass (its likeliest one-token slips)
FIRST_SHARE = 2 / 3       # of a count budget the first pass may take: the rest deepens the lines it singled out
CONFIRM_SECONDS = 25.0    # of the mutation's time kept for checking candidates beyond the runs, once one is found
CANDIDATES = 4            # candidates confirmed at most
UNLIKE = 6                # Mutant.likeness of a mutant no one-token slip (deleted, jumps added, swapped)
SUBTREES = 8              # subtrees looked into to tell a candidate's wrong answer from the engine's own


@dataclass
class Outcome:
    """What one mutant did: failing runs turned to pass (`fixed`) or answered otherwise
    (`changed`, fixed included) of `failing` tried; passing runs broken of `passing` tried."""
    mutant: Mutant
    fixed: int = 0
    changed: int = 0
    failing: int = 0
    broke: int = 0
    passing: int = 0

    def score(self, total_failing: int, total_passing: int) -> tuple[float, float]:
        """(share of failing runs fixed, share changed), each times the share of passing runs it
        has shown it keeps, kept / (tried + 1), as if one more were tried and broken: a mutant whose
        time ran out before its passing runs has shown nothing (where there are passing runs), one
        that kept three says less than one tried on sixty that breaks two, and one that broke every
        run it was tried on keeps none."""
        kept = (self.passing - self.broke) / (self.passing + 1) if total_passing else 1.0
        return self.fixed / total_failing * kept, self.changed / total_failing * kept


@dataclass
class LineEvidence:
    """A suspect line's mutants: how many were run, the best of them."""
    path: str
    line: int
    mutants: int = 0
    best: Outcome | None = None
    score: tuple[float, float] = (0.0, 0.0)
    why: str = ""            # why it was tried out of rank order (dataflow: it writes what an effect reads)

    def words(self, failing: int, total_failing: int, total_passing: int) -> str:
        """What its best mutant did, over the `failing` runs mutants are tried on (of `total_failing`)."""
        b = self.best
        if b is None or not b.changed:
            return f"{self.mutants} mutant{'s' if self.mutants != 1 else ''} here change no failing run"
        if not b.fixed:
            return (f"a mutant here ({b.mutant.change}) changes the answer of "
                    f"{counted(b.changed, failing, total_failing, 'failing')}, fixes none, breaks "
                    f"{counted(b.broke, b.passing, total_passing, 'passing')}")
        return (f"a mutant here ({b.mutant.change}) turns {counted(b.fixed, failing, total_failing, 'failing')} to pass, "
                f"breaks {counted(b.broke, b.passing, total_passing, 'passing')}")


def counted(n: int, tried: int, total: int, what: str) -> str:
    """'7 of 7 failing runs', '12 of 12 failing runs tried (of 31)', 'none of the 17 passing
    runs tried' (the time was up)."""
    if not tried and total:
        return f"? (none of the {total} {what} runs tried in the time)"
    return f"{n} of {tried} {what} runs" + (f" tried (of {total})" if tried < total else "")


@dataclass(frozen=True)
class Elsewhere:
    """A position checked beyond the runs where a candidate answers wrong exactly as the engine
    itself does (at every move where it is wrong): a wrong answer the candidate did not make."""
    fen: str
    depth: int
    verdict: str                 # what is wrong there, the candidate's answer against the reference's
    topic: str = ""              # the edge position's topic, "fuzz position", or "" (none)
    wrong: tuple = ()            # ((move, (its count, the reference's)), ...) where it is wrong (_wrong)
    alone: bool = False          # the engine answers it exactly as the candidate: this bug does not show there
    mirror: str = ""             # the engine as it is refuses it: judged by this, its colours swapped (_AsIs.mirrored)
    unreachable: str = ""        # why no game reaches it ('' where one may): why_unreachable's reasons

    def __str__(self) -> str:
        """'en passant by a pinned capturer: 7k/4b3/8/2Pp4/1K6/8/8/8 w - d6 0 1 depth 1: misses c5d6'."""
        topic = "" if not self.topic else f"{self.topic}: " if self.topic != "fuzz position" else f"{self.topic} "
        return f"{topic}{self.fen} depth {self.depth}: {self.verdict}"

    def by_mirror(self) -> str:
        """How a position the engine as it is refuses was judged another bug's."""
        return (f"{self} (the engine as it is refuses this position; with the colours swapped, {self.mirror}, "
                f"it is wrong exactly so, move for move and count for count, and so is this change: judged "
                f"there, as an engine whose rules are the same for both colours)")


STOPPED_UNCHECKED = "stopped before it was checked beyond the runs"     # Fix.doubt of a check halted
FIXES_THIS_BUG = "fixes this bug; engine has another"     # Fix.status of a candidate right wherever it changes an answer


@dataclass
class Fix:
    """A mutant that turns every failing run to pass and keeps every passing one; `confirmed`
    once it also agrees beyond the runs (`checked_by` says where), `doubt` where it did not.

    Checked beyond the runs to the end (`checked`) without a wrong answer of its own, but wrong
    at some positions exactly as the engine itself is there (`shared`): it `fixes_this_bug`
    (every answer it changes becomes right; the asked position agrees at its depth and one
    deeper) and the engine has another bug, which it does not touch. Where every such position
    is one no game reaches (`Elsewhere.unreachable`), it is `confirmed`: it agrees wherever a
    game can go that it was checked, and `out_of_game` names the engine's other bug there."""
    file: str
    line: int
    path: str
    change: str
    diff: str
    failing_fixed: int
    passing_kept: int
    failing_runs: int = 0        # the failing runs of the locate (mutants are tried on the first FAILING_RUNS)
    passing_runs: int = 0        # the passing runs (those reaching its line are run, up to PASSING_RUNS)
    confirmed: bool = False
    checked_by: list[str] = field(default_factory=list)
    doubt: str = ""
    refuted: bool = False        # it disagrees with the reference somewhere (`doubt` says where)
    shared: list[Elsewhere] = field(default_factory=list)    # where it disagrees as the engine itself does
    checked: bool = False        # every check beyond the runs ran to its end (none stopped or cut)
    switched: str = ""           # its condition is fixed for good (confirmation.fixed_condition): no fix, unchecked

    @property
    def fixes_this_bug(self) -> bool:
        return self.checked and bool(self.shared) and not self.refuted and not self.confirmed

    @property
    def status(self) -> str:
        """'confirmed', FIXES_THIS_BUG, 'refuted' or 'unchecked' (stopped, the time up, or not tried)."""
        if self.confirmed:
            return "confirmed"
        if self.fixes_this_bug:
            return FIXES_THIS_BUG
        return "refuted" if self.refuted else "unchecked"

    @property
    def why_not(self) -> str:
        """Why a refuted candidate is no fix: 'it disagrees at ...', or that it switches a check off."""
        return (f"{self.switched}: it switches the check off (or on) for good rather than mending it" if self.switched
                else f"it disagrees at {self.doubt}")

    @property
    def other_bug(self) -> Elsewhere | None:
        """The first position where the engine is wrong with or without the candidate, one where
        it answers exactly as the candidate does first (this bug not showing there too, a locate
        there finds the other one in the engine as it is); one the engine was asked, not one
        judged by its mirror, where there is one."""
        asked = [e for e in self.shared if not e.mirror]
        return next((e for e in asked if e.alone), (asked or self.shared or [None])[0])

    @property
    def other_positions(self) -> int:
        """The positions (depths aside) where the engine as it is was asked and is wrong with or
        without the candidate."""
        return len({e.fen for e in self.shared if not e.mirror})

    @property
    def mirrored(self) -> list[Elsewhere]:
        """The positions the engine as it is refuses, where the candidate's wrong answer was judged
        another bug's by the same position with the colours swapped."""
        return [e for e in self.shared if e.mirror]

    def said(self) -> str:
        """'turns all 7 failing runs to pass, keeps 50 of 50 passing runs'."""
        return (f"turns {counted(self.failing_fixed, self.failing_fixed, self.failing_runs, 'failing')} to pass, "
                f"keeps {counted(self.passing_kept, self.passing_kept, self.passing_runs, 'passing')}")

    def beyond(self) -> str:
        """Where a fix for this bug was checked beyond the runs and what it showed there: 'agrees at
        k6r/8/8/8/8/8/8/6K1 w - - 0 1 depth 1 and depth 2; every answer it changes at 224 edge
        positions of its kind of move at depths 1 and 2, 3066 fuzz positions at depth 2 becomes
        right'."""
        asked, rest = self.checked_by[:2], self.checked_by[2:]
        return (f"agrees at {' and '.join(asked)}" +
                (f"; every answer it changes at {', '.join(rest)} becomes right" if rest else ""))

    def another(self) -> str:
        """The other bug, from the engine's side: 'the engine is also wrong at 50 of the positions
        checked, the same way with or without this change (another bug), for instance at ...'."""
        n = self.other_positions
        said = (f"the engine is also wrong at {n} of the positions checked, the same way with or without "
                f"this change (another bug), for instance at {self.other_bug}") if n else ""
        return "; ".join(part for part in (said, self.judged_by_mirror()) if part)

    def out_of_game(self) -> str:
        """'' or, for a confirmed fix: 'the engine as it is is also wrong at 4 positions no game
        reaches, the same way with or without this change (another bug, out of any game), for
        instance at ...'."""
        if not (self.confirmed and self.shared):
            return ""
        n = len({e.fen for e in self.shared})
        other = self.other_bug
        return (f"the engine as it is is also wrong at {n} position{'s' if n != 1 else ''} no game reaches, "
                f"the same way with or without this change (another bug, out of any game), for instance at "
                f"{other} ({other.unreachable})")

    def judged_by_mirror(self) -> str:
        """'' or, where the engine as it is refuses positions where the candidate is wrong: '1
        position the engine as it is refuses was judged by its mirror: ...'."""
        n = len({e.fen for e in self.mirrored})
        if not n:
            return ""
        return (f"{n} position{'s' if n != 1 else ''} the engine as it is refuses "
                f"{'were' if n != 1 else 'was'} judged by {'their mirrors' if n != 1 else 'its mirror'}: "
                f"{self.mirrored[0].by_mirror()}")

    def to_json(self) -> dict:
        other = self.other_bug
        return {"file": self.file, "line": self.line, "change": self.change, "diff": self.diff,
                "failing_fixed": self.failing_fixed, "passing_kept": self.passing_kept,
                "failing_runs": self.failing_runs, "passing_runs": self.passing_runs,
                "status": self.status, "confirmed": self.confirmed, "fixes_this_bug": self.fixes_this_bug,
                "checked_by": list(self.checked_by), "doubt": self.doubt or None,
                "refuted": self.refuted, "engine_disagrees_too": [str(e) for e in self.shared if not e.mirror],
                "out_of_game": self.out_of_game() or None,
                "judged_by_mirror": [{"fen": e.fen, "depth": e.depth, "verdict": e.verdict, "mirror": e.mirror}
                                     for e in self.mirrored],
                "other_bug": None if other is None else {
                    "fen": other.fen, "depth": other.depth, "verdict": other.verdict, "topic": other.topic or None,
                    "this_bug_shows_there": not other.alone, "positions": self.other_positions}}


@dataclass
class MutationResult:
    evidence: dict[tuple[str, int], LineEvidence] = field(default_factory=dict)
    fixes: list[Fix] = field(default_factory=list)     # candidates, confirmed or not
    tried: int = 0                                     # mutants run (built, parsed)
    made: int = 0                                      # mutants made
    seconds: float = 0.0
    note: str = ""                                     # why no mutant ran, when none did
    cut: str = ""            # why mutants were left untried or candidates unchecked ("stopped", "the time was up", a cap)

    @property
    def offered(self) -> list[Fix]:
        """The fixes offered with their diff: the confirmed ones, else those for this bug (the
        engine having another)."""
        confirmed = [f for f in self.fixes if f.confirmed]
        return confirmed or [f for f in self.fixes if f.fixes_this_bug]

    @property
    def per_second(self) -> float:
        return self.tried / self.seconds if self.seconds > 0 else 0.0

    def no_fix(self) -> str:
        """What the mutants say when none is a confirmed fix: that no one-token change fixes it only
        once every mutant made has run and every candidate was checked (a stopped or timed-out
        mutation has not ruled the rest out). A fix for this bug (the engine has another) is said
        by its own words (Fix.beyond, Fix.another), not here."""
        partial = [f for f in self.fixes if f.fixes_this_bug]
        if partial:
            f = partial[0]
            return (f"{f.file}:{f.line}, {f.change}, fixes this bug but is not confirmed: {f.another()}")
        if not self.cut:
            return "no one-token change fixes it (a missing check?)"
        unchecked = [f for f in self.fixes if f.status == "unchecked"]
        if unchecked:
            f = unchecked[0]
            return (f"a candidate at {f.file}:{f.line}, {f.change}, {f.said()}, was not checked beyond the runs "
                    f"({self.cut}): not offered as a fix")
        return (f"no fix among the {self.tried} mutants run of {self.made} made ({self.cut}): "
                f"a one-token change may still fix it")


class Mutation:
    """The mutation step of one locate: `run(suspects, over)`."""

    def __init__(self, spec: str, sources, runs: list[Run], relative: Callable[[str], str], build: str = "",
                 timeout: float = 10.0, workers: int = 2, budget: int | None = None,
                 emit: Callable[[str], None] = lambda text: None, dialect=None):
        self.spec, self.sources, self.build = spec, tuple(sources), build
        self.total_failing, self.total_passing = sum(r.failed for r in runs), sum(not r.failed for r in runs)
        # a mated or stalemated side's divide is {}: a run there is judged on it like any other
        self.failing = [r for r in runs if r.failed and r.expected is not None][:FAILING_RUNS]
        self.passing = _capped([r for r in runs if not r.failed and r.expected is not None])
        self.relative, self.timeout, self.workers, self.budget, self.emit = relative, timeout, workers, budget, emit
        self._live = LiveOracles(dialect)  # dialect: the engine's own oracle, whose learnt dialect mutants' oracles read in
        self._halted = self._live.halted
        self._flow: DataFlow | None = None          # set by _run, with the suspect lines
        self._by_line: dict[tuple[str, int], list[Mutant]] = {}
        self._taken: set[Mutant] = set()            # mutants taken by a pass (each tried once)

    def halt(self):
        self._live.halt()

    @property
    def check_timeout(self) -> float:
        """One engine call of a check beyond the runs: deeper than a run, so longer than its timeout."""
        return max(self.timeout * 4, 30.0)

    def run(self, suspects, over: Callable[[], bool], confirmation: Confirmation | None = None,
            deadline: float | None = None) -> MutationResult:
        """The suspects' mutants until `over()`, and once a candidate is found until CONFIRM_SECONDS
        before `deadline` (time.monotonic()), so that checking it fits in the mutation's time."""
        start = time.monotonic()
        result = MutationResult()
        candidates: list[Outcome] = []
        self._folder = tempfile.mkdtemp(prefix="perftscope-mutants-")   # made here: a step never run leaves none
        if deadline is not None:
            stop_mutants = over

            def over() -> bool:
                return stop_mutants() or (bool(candidates) and time.monotonic() > deadline - CONFIRM_SECONDS)
        try:
            self._run(suspects, over, confirmation, result, candidates)
        finally:
            shutil.rmtree(self._folder, ignore_errors=True)
            result.seconds = time.monotonic() - start
        return result

    def _run(self, suspects, over, confirmation, result, candidates: list[Outcome]):
        if not self.failing:
            result.note = "no failing run to try mutants on"
            return
        texts: dict[str, str] = {}
        by_line: dict[tuple[str, int], list[Mutant]] = {}
        ranks: dict[tuple[str, int], int] = {}
        for rank, path, number in suspect_lines(suspects):
            if path not in texts:
                try:
                    with open(path, encoding="utf-8", errors="surrogateescape") as f:
                        texts[path] = f.read()
                except OSError:
                    continue
            result.evidence[(path, number)] = LineEvidence(path, number)
            by_line[(path, number)] = []            # in rank order: the plan takes lines in turn from it
            ranks[(path, number)] = rank
        for path, text in texts.items():            # each file split and its rules read once
            for m in mutants_of(path, [n for p, n in by_line if p == path], text):
                by_line[(path, m.line)].append(m)
        split = {path: text.splitlines() for path, text in texts.items()}
        # a continuation line takes its statement's kind
        kinds = {(path, n): statement_kind(split[path], n, language_of(path)) for path, n in by_line}
        first, rest = plan(by_line, ranks, self.budget, kinds)
        if self.build:
            first, rest = slips_first(first, rest)
        # the lines writing what the lines whose mutants change a failing answer read (dataflow)
        self._flow = DataFlow(split, by_line, ranks, language_of)
        self._by_line, self._taken = by_line, set()
        every = len(first) + len(rest)
        result.made = every if self.budget is None else min(self.budget, every)
        if result.made < every:
            # the rest were never tried: nothing may be said of them (the time's cut overrides this)
            result.cut = f"capped at {result.made}: {every - result.made} more not made"
        if not result.made:
            result.note = "no mutant could be made of the suspect lines (no rules for their language)"
            return
        shadows = []
        ran = {path for r in self.failing + self.passing for path in r.lines}
        try:
            for i in range(self.workers):
                shadows.append(Shadow(self.sources, self.spec, os.path.join(self._folder, f"w{i}"), self.build, ran))
            # the other copies built (a native build recorded) while the first is built and checked
            builds = [threading.Thread(target=s.build, daemon=True, name="locate mutants build") for s in shadows[1:]]
            for t in builds:
                t.start()
            baseline = self._baseline(shadows[0])
            for t in builds:
                t.join()
            if baseline:
                result.note = baseline
                return
            # under a count, the data-flow lead takes its mutants from the second pass's share, not the first's
            self._pass(shadows, first, over, result, candidates, *((None, 0) if self.budget is None else
                                                                  (len(first), result.made - len(first))))
            # deepen the lines whose first mutants changed a failing answer, in their order, then the
            # lines writing what they read (each one's likeliest slip tried in the first pass, as soon
            # as a mutant of a reader changed an answer), then the rest
            changed = {key for key, e in result.evidence.items() if e.best is not None and e.best.changed}
            rest = sorted(rest, key=lambda m: ((m.path, m.line) not in changed,
                                               (m.path, m.line) not in self._flow.chosen))
            self._pass(shadows, rest, over, result, candidates,
                       None if self.budget is None else result.made - len(self._taken))
            mutants = first + rest
            # the best candidate of each line first, in rank order, then the others: a line whose every
            # candidate is refuted beyond the runs is told from one holding the fix
            order = {key: i for i, key in enumerate(result.evidence)}
            made = {m: i for i, m in enumerate(mutants)}
            candidates.sort(key=lambda o: (order[(o.mutant.path, o.mutant.line)], made[o.mutant]))
            firsts = {}
            for o in candidates:
                firsts.setdefault((o.mutant.path, o.mutant.line), o)
            candidates = list(firsts.values()) + [o for o in candidates if o not in firsts.values()]
            for candidate in candidates[:CANDIDATES]:
                m = candidate.mutant
                fix = Fix(self.relative(m.path), m.line, m.path, m.change, m.diff(texts[m.path], self.relative(m.path)),
                          candidate.fixed, candidate.passing, self.total_failing, self.total_passing)
                if confirmation is not None and not self._halted.is_set():
                    self._confirm(shadows[0], fix, m, confirmation, shadows[1] if len(shadows) > 1 else None)
                    if not (fix.confirmed or fix.refuted):
                        self._cut_short(result)         # stopped while it was being checked
                elif confirmation is not None:
                    self._cut_short(result)
                result.fixes.append(fix)
            result.fixes.sort(key=lambda f: not f.confirmed)
        finally:
            for s in shadows:
                s.close()

    def _cut_short(self, result: MutationResult):
        result.cut = "stopped" if self._halted.is_set() else "the time was up"

    def _pass(self, shadows: list[Shadow], mutants: list[Mutant], over, result: MutationResult,
              candidates: list[Outcome], limit: int | None = None, spare: int = 0):
        """`mutants` tried (`limit` at most, and `spare` more where mutants are promoted; none taken
        before), one worker per shadow, until `over()`: each line's evidence kept, each candidate
        (every failing run turned to pass, every passing run kept) added to `candidates`. Where a
        mutant changes a failing answer, the likeliest slip of each suspect line writing what its
        line reads (DataFlow) goes next."""
        work = _Work(mutants, self._taken, limit, spare)
        counted = threading.Lock()

        def worker(shadow: Shadow):
            while True:
                with counted:
                    mutant = work.take()
                if mutant is None:
                    return
                if over() or self._halted.is_set():
                    return self._cut_short(result)
                try:
                    outcome = self._try(shadow, mutant, over)
                except OracleCancelled:
                    return self._cut_short(result)
                if over() or self._halted.is_set():      # its runs may have been cut short
                    self._cut_short(result)
                with counted:
                    evidence = result.evidence[(mutant.path, mutant.line)]
                    if outcome is None:
                        continue
                    result.tried += 1
                    evidence.mutants += 1
                    score = outcome.score(len(self.failing), len(self.passing))
                    if evidence.best is None or score > evidence.score:
                        evidence.best, evidence.score = outcome, score
                    if (outcome.fixed == len(self.failing) and not outcome.broke
                            and outcome.passing == len(self.passing)):
                        candidates.append(outcome)
                    if outcome.changed:
                        self._follow((mutant.path, mutant.line), work, result)
                    self.emit(f"mutant {result.tried} of {result.made}: {self.relative(mutant.path)}:"
                              f"{mutant.line} {mutant.change}: fixes {outcome.fixed} of {len(self.failing)} "
                              f"failing runs")
        threads = [threading.Thread(target=worker, args=(s,), daemon=True, name=f"locate mutants {i}")
                   for i, s in enumerate(shadows)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()

    def _follow(self, effect: tuple[str, int], work: _Work, result: MutationResult):
        """The likeliest slip of each line writing what `effect` (a line whose mutant changed a
        failing answer) and the condition holding it read, next in `work` (the line's other
        mutants keep their turn: the lead costs a mutant a line, dataflow.PER_EFFECT lines an
        effect and dataflow.WRITERS in all)."""
        def likeliest(line) -> list[Mutant]:
            return firsts(self._by_line[line])[:1]

        def done(line) -> bool:
            return all(m in self._taken for m in likeliest(line))
        for line, why in (self._flow.after(effect, self.relative, done) if self._flow is not None else ()):
            result.evidence[line].why = why
            work.promote(likeliest(line))
            self.emit(f"next: {self.relative(line[0])}:{line[1]}, which {why}")

    def _baseline(self, shadow: Shadow) -> str:
        """'' when the copy, unmutated, builds and fails its first failing run as the engine
        did; else why no mutant can be run. Sets the mutants' timeout from its time."""
        if not shadow.build():
            return f"the engine's build command ({self.build}) fails in a copy of its source folder"
        start = time.monotonic()
        run = self.failing[0]
        with _Engine(self, shadow) as engine:
            failed, verdict = self._judge(engine, run, self.timeout)
        if verdict != run.verdict:
            return (f"a copy of the engine's source does not answer as the engine did ({verdict}): give --source "
                    f"the folder holding the program and what it runs" + ("" if self.build else
                                                                           ", and --build for a native program"))
        self.timeout = min(self.timeout, max(2.0, 5 * (time.monotonic() - start)))
        return ""

    def _try(self, shadow: Shadow, mutant: Mutant, over) -> Outcome | None:
        """The mutant's outcome on the runs, None when it does not build or parse."""
        outcome = Outcome(mutant)
        # a run that never reaches the line answers as it did: only the runs that ran it are run
        # (all of them where no run's coverage holds the line: a statement's continuation line)
        known = any(mutant.line in r.lines.get(mutant.path, ()) for r in self.failing + self.passing)

        def reaches(run: Run) -> bool:
            return not known or mutant.line in run.lines.get(mutant.path, ())
        if not reaches(self.failing[0]):
            outcome.failing = 1
            return outcome                  # the finder's failing run never gets here: no build needed
        with shadow.applied(mutant) as target, _Engine(self, shadow) as engine:
            if not shadow.build():
                return None
            judged = False
            for run in self.failing:
                if over() or self._halted.is_set():
                    break
                outcome.failing += 1
                if not reaches(run):
                    continue
                failed, verdict = self._judge(engine, run, self.timeout)
                if not judged and _unparsed(target, verdict):
                    return None
                judged = True
                if not failed:
                    outcome.fixed += 1
                    outcome.changed += 1
                elif verdict != run.verdict and not verdict.startswith("failed:"):
                    outcome.changed += 1
                if outcome.failing == 1 and not outcome.changed:
                    return outcome          # the first failing run says it all
            if not outcome.changed:
                return outcome
            # one that turns every failing run to pass is tried on every passing run, not stopped
            # at its BREAKS-th break: mutants of several lines that each switch the failing move
            # off break the same first passing runs, and only the share of all they keep tells
            # them apart (Metallaxis counts every run a mutant is killed on)
            every = outcome.fixed == outcome.failing == len(self.failing)
            for run in self.passing:        # what it breaks weighs against what it changes or fixes
                if over() or self._halted.is_set() or (outcome.broke >= BREAKS and not every):
                    break
                outcome.passing += 1
                if reaches(run):
                    outcome.broke += self._judge(engine, run, self.timeout)[0]
            return outcome

    def _judge(self, engine: _Engine, run: Run, timeout: float) -> tuple[bool, str]:
        answer, error = engine.answer(run.request, run.depth, timeout)
        failed, verdict, _ = judge(answer, error, run.expected)
        return failed, verdict

    def _confirm(self, shadow: Shadow, fix: Fix, mutant: Mutant, c: Confirmation, original: Shadow | None = None):
        """Sets `fix.checked` and `fix.confirmed` (and `checked_by`, or `doubt`: the first position
        it disagrees on): the candidate agrees with the reference on the asked position at its
        depth, on every edge position of the failing kind at EDGE_DEPTHS, on the castling positions
        of THIRD_PLY at THIRD_PLY_DEPTH, on the asked position one deeper and on a focused fuzz at depth 2 for `c.fuzz_seconds`; the cheap checks first, as
        most refute. Where it disagrees as the engine itself does (`original`: an unmutated copy)
        at every move where it is wrong, the wrong answer is another bug's, not the candidate's:
        the position goes to `fix.shared` and the checks go on. Checked to the end so, it is not
        confirmed but `fixes_this_bug` (the asked position aside, which the candidate must answer
        right at both depths). Wrong anywhere the engine is not, it is refuted, whatever it shared."""
        fixed = fixed_condition(mutant.after)
        if fixed and fixed_condition(mutant.before) != fixed:
            # whatever it agrees on, it leaves a check that can never fire: if that is the fix, the
            # fix deletes the check; as written it is not offered
            fix.refuted, fix.switched = True, fixed
            fix.doubt = fix.why_not
            return
        as_is = _AsIs(self, original) if original is not None else None
        try:
            self._check(shadow, fix, mutant, c, as_is)
        finally:
            if as_is is not None:
                as_is.close()
        if fix.checked and fix.shared and not fix.confirmed:
            other = fix.other_bug
            fix.doubt = (other.by_mirror() if other.mirror else
                         f"{other}, as the engine itself answers there (another bug?)")

    def _check(self, shadow: Shadow, fix: Fix, mutant: Mutant, c: Confirmation, as_is: _AsIs | None):
        asked = f"{c.asked.position.fen()} depth {c.depth}"
        # (request, depth, topic, whether a wrong answer there may be the engine's own)
        checks = [(c.asked, c.depth, "", False)]
        checks += [(request, depth, topic, True) for depth in EDGE_DEPTHS for topic, request in c.edges]
        checks += [(request, THIRD_PLY_DEPTH, topic, True) for topic, request in c.third_ply]
        # the asked position is the bug's own: a wrong answer there, at either depth, is the candidate's
        checks.append((c.asked, c.depth + 1, "", False))
        with shadow.applied(mutant), _Engine(self, shadow) as engine:
            if not shadow.build():
                fix.doubt = "it no longer builds"
                return
            for request, depth, topic, shareable in checks:
                if self._halted.is_set():
                    fix.doubt = STOPPED_UNCHECKED
                    return
                if not self._agrees(engine, fix, request, depth, c, topic, as_is if shareable else None):
                    return
            start, fuzzed = time.monotonic(), 0
            for request in c.fuzz():
                if fuzzed >= FUZZ_LEAST and time.monotonic() - start > c.fuzz_seconds:
                    break
                if self._halted.is_set():
                    fix.doubt = STOPPED_UNCHECKED
                    return
                if not self._agrees(engine, fix, request, 2, c, "fuzz position", as_is):
                    return
                fuzzed += 1
            if fix.shared and not self._other_bug(engine, fix, c, as_is):
                return
        fix.checked_by = [asked, f"depth {c.depth + 1}"]
        if c.edges:
            fix.checked_by.append(f"{len(c.edges)} edge positions of its kind of move at depths "
                                  f"{' and '.join(map(str, EDGE_DEPTHS))}")
        if c.third_ply:
            fix.checked_by.append(f"{len(c.third_ply)} positions where castling follows a king or rook move, "
                                  f"at depth {THIRD_PLY_DEPTH}")
        if fuzzed:
            fix.checked_by.append(f"{fuzzed} fuzz positions at depth 2")
        fix.checked = True
        # the confirmation is agreement wherever a game can go: the engine's own wrong
        # answers, the same with or without the change, at positions none reaches do not hold it back
        fix.confirmed = all(e.unreachable for e in fix.shared)

    def _other_bug(self, engine: _Engine, fix: Fix, c: Confirmation, as_is: _AsIs) -> bool:
        """Whether the wrong answers the candidate shares with the engine may be another bug's: not
        where, with the colours swapped, the candidate answers right what the engine answers wrong
        exactly as the candidate does here (_one_side). A change that fixes this bug for one side
        only (a half fix) is wrong just as the engine is at the other side's positions; their
        mirrors tell it. Else `fix` is refuted there (it disagrees, not as another bug). Positions
        judged by their mirror (Elsewhere.mirror) are not asked again: there the candidate answers
        the mirror as the engine does."""
        for here in {(e.fen, e.depth): e for e in fix.shared if not e.mirror}.values():
            if self._halted.is_set():
                fix.doubt = STOPPED_UNCHECKED
                return False
            swapped = mirror(Request.of(here.fen).position)
            if swapped is None:
                continue
            other = Request.at(swapped)
            if self._one_side(engine, as_is, c, Request.of(here.fen), other, here.depth, dict(here.wrong), [SUBTREES]):
                fix.refuted = True
                fix.doubt = (f"{here}, as the engine itself answers there; with the colours swapped "
                             f"({other.position.fen()}) the engine is wrong the same way and this change "
                             f"answers right: it fixes this bug for one side only")
                return False
        return True

    def _one_side(self, engine: _Engine, as_is: _AsIs, c: Confirmation, here: Request, there: Request, depth: int,
                  wrong: dict, below: list[int]) -> bool:
        """Whether at `there` (`here` with the colours swapped) the candidate answers right a move the
        engine as it is answers wrong exactly as the candidate answers its mirror at `here`
        (`wrong`: the candidate's _wrong there), move for move: where both count a move's subtree
        alike, the subtrees are compared the same way down to depth 1, where a move generated or
        missed is its own evidence (at depth 3 two castling bugs each shift a leaf or two and
        their counts meet by chance: a whole fix was once called a half one). `below`: subtrees
        left to look into (SUBTREES); with none left the counts decide."""
        theirs = c.reference.divide(there, depth)
        mine = _wrong(engine.answer(there, depth, self.check_timeout)[0], theirs)
        engines = _wrong(as_is.answer(there, depth)[0], theirs)
        if mine is None or engines is None:
            return False
        fixed_there = {m: n for m, n in engines.items() if m not in mine}
        for move, counts in wrong.items():
            turned = _mirrored(move)
            if fixed_there.get(turned) != counts:
                continue
            if depth == 1 or None in counts or below[0] < 1:
                return True
            below[0] -= 1
            after = here.then(move)
            mine_after, error = engine.answer(after, depth - 1, self.check_timeout)
            wrong_after = None if error is not None else _wrong(mine_after, c.reference.divide(after, depth - 1))
            if wrong_after and self._one_side(engine, as_is, c, after, there.then(turned), depth - 1, wrong_after, below):
                return True
        return False

    def _agrees(self, engine: _Engine, fix: Fix, request: Request, depth: int, c: Confirmation, topic: str,
                as_is: _AsIs | None = None) -> bool:
        """Whether the candidate (`engine`) may go on being checked after `request` at `depth`: it
        agrees with the reference there, or (`as_is` given) is wrong only where the engine itself
        is, the same way (then the position goes to `fix.shared`). Else `fix` is refuted there."""
        answer, error = engine.answer(request, depth, self.check_timeout)
        theirs = c.reference.divide(request, depth)
        failed, verdict, _ = judge(answer, error, theirs)
        if not failed:
            return True
        here = Elsewhere(request.position.fen(), depth, verdict, topic, tuple((_wrong(answer, theirs) or {}).items()))
        if as_is is not None and as_is.wrong_alike(request, depth, answer, theirs, engine, c.reference):
            _share(fix, replace(here, alone=as_is.same))
            return True
        swapped = None if as_is is None else as_is.mirrored(request, depth, answer, theirs, engine, c.reference)
        if swapped is not None:
            # the mirror, where the engine as it is answers as the candidate, is the other bug's to locate
            _share(fix, swapped)
            _share(fix, replace(here, mirror=swapped.fen))
            return True
        fix.doubt, fix.refuted = str(here) + beyond_any_game(request), True
        return False


def _share(fix: Fix, here: Elsewhere):
    """`here` among the positions where `fix` is wrong as the engine is, once, with why no game
    reaches it where none does."""
    if not any((e.fen, e.depth, e.mirror) == (here.fen, here.depth, here.mirror) for e in fix.shared):
        reasons = why_unreachable(Request.of(here.fen).position)
        fix.shared.append(replace(here, unreachable=", ".join(reasons)) if reasons else here)


def beyond_any_game(request: Request) -> str:
    """' (a position no game reaches: ...)' where `request` cannot arise in a game, else ''. A
    candidate refuted only there may be right wherever a game can go, as engines legitimately
    disagree on such positions; the refutation stands (a suite's case may be the very one the
    engine's check is for), but the author is told what it rests on."""
    reasons = why_unreachable(request.position)
    return (f" (a position no game reaches: {', '.join(reasons)}; engines legitimately disagree there)"
            if reasons else "")


def _wrong(answer, theirs: dict[str, int]) -> dict[str, tuple] | None:
    """{move: (its count, the reference's)} where `answer` differs from `theirs`; None without a
    divide."""
    if answer is None or answer.moves is None:
        return None
    return {m: (answer.moves.get(m), theirs.get(m)) for m in set(answer.moves) | set(theirs)
            if answer.moves.get(m) != theirs.get(m)}


def _mirrored(move: str) -> str:
    """A UCI move with the board flipped: e1g1 -> e8g8."""
    flip = {str(r): str(9 - r) for r in range(1, 9)}
    return "".join(flip.get(ch, ch) for ch in move)


class _AsIs:
    """The engine as it is (an unmutated shadow copy, built on first use), asked where a candidate
    disagrees with the reference: whether it is wrong wherever the candidate is, the same way."""

    def __init__(self, mutation: Mutation, shadow: Shadow):
        self.mutation, self.shadow = mutation, shadow
        self.engine: _Engine | None = None
        self.built: bool | None = None
        self.same = False          # the last position asked about: the engine answered it as the candidate
        self._asked: dict[tuple, tuple] = {}      # (FEN as written, moves, depth): (answer, error), the last few

    def wrong_alike(self, request: Request, depth: int, mine, theirs: dict[str, int], candidate: _Engine,
                    reference, below: list[int] | None = None) -> bool:
        """Whether the engine as it is answers `request` as `mine` (the `candidate`'s answer) at every
        move where `mine` differs from `theirs` (the `reference`'s): the candidate adds no error
        there. Where both count a legal move's subtree wrong, each otherwise (two bugs mixing
        below it), the subtree is looked into, SUBTREES of them at most; an illegal move both
        generate is alike, whatever each counts below it."""
        top, below = below is None, [SUBTREES] if below is None else below
        if mine is None:
            return False
        answer, error = self.answer(request, depth)
        if answer is None or error is not None:
            return False
        if top:
            self.same = (answer.moves, answer.total) == (mine.moves, mine.total)
        timeout = self.mutation.check_timeout
        if mine.moves is None or answer.moves is None:
            return mine.moves is None and answer.moves is None and mine.total == answer.total
        for move in set(mine.moves) | set(theirs):
            if mine.moves.get(move) == theirs.get(move) or answer.moves.get(move) == mine.moves.get(move):
                continue
            if move not in theirs and move in answer.moves:
                # an illegal move both generate: the same wrong answer; what either counts below it is
                # no reference's to judge (no legal move leads there), and this bug may show there
                continue
            if depth < 2 or move not in theirs or move not in mine.moves or move not in answer.moves or below[0] < 1:
                return False
            below[0] -= 1
            after = request.then(move)
            mine_after, error = candidate.answer(after, depth - 1, timeout)
            if error is not None or not self.wrong_alike(after, depth - 1, mine_after, reference.divide(after, depth - 1),
                                                         candidate, reference, below):
                return False
        return True

    def mirrored(self, request: Request, depth: int, mine, theirs: dict[str, int], candidate: _Engine,
                 reference) -> Elsewhere | None:
        """Where the engine as it is cannot be asked `request` (it refuses it, fails or crashes: this
        bug may be why) but answers it with the colours swapped, the mirror (as an Elsewhere, the
        candidate wrong there) when both the engine as it is and the candidate are wrong there
        exactly as the candidate (`mine`) is at `request`, moves mirrored, counts equal, and nowhere
        else: the candidate's wrong answer is then the engine's own, in an engine whose rules are
        the same for both colours. Else None. A change that breaks one colour is not excused: the
        engine as it is answers the mirror otherwise (right, or wrong in fewer moves or by other
        counts); one that breaks both adds to the engine's wrong answer at the mirror."""
        wrong = _wrong(mine, theirs)
        if not wrong:
            return None               # no divide to hold move for move, or nothing wrong
        answer, error = self.answer(request, depth)
        if error is None:
            return None               # it answers (or its copy does not build): judged there or not at all
        swapped = mirror(request.position)
        if swapped is None:
            return None
        other = Request.at(swapped)
        theirs_there = reference.divide(other, depth)
        answer, error = self.answer(other, depth)
        engines = None if error is not None else _wrong(answer, theirs_there)
        if not engines or engines != {_mirrored(m): counts for m, counts in wrong.items()}:
            return None
        candidates, error = candidate.answer(other, depth, self.mutation.check_timeout)
        if error is not None or _wrong(candidates, theirs_there) != engines:
            return None
        verdict = judge(candidates, None, theirs_there)[1]
        return Elsewhere(other.position.fen(), depth, verdict, "", tuple(engines.items()),
                         alone=(candidates.moves, candidates.total) == (answer.moves, answer.total))

    def answer(self, request: Request, depth: int):
        """(answer, error) of the engine as it is; (None, None) where its copy does not build. The
        last few asked are kept: a refusal is asked about again, a hang is not waited for twice."""
        if self.built is None:
            self.built = self.shadow.build()
            self.engine = _Engine(self.mutation, self.shadow)
        if not self.built:
            return None, None
        key = (request.written, request.moves, depth)
        if key not in self._asked:
            if len(self._asked) >= 8:
                self._asked.pop(next(iter(self._asked)))
            self._asked[key] = self.engine.answer(request, depth, self.mutation.check_timeout)
        return self._asked[key]

    def close(self):
        if self.engine is not None:
            self.engine.close()


class _Engine:
    """The shadow's engine for one mutant: one oracle kept across its runs (an interactive
    engine's process started once per mutant, not once per run), made again after a call fails;
    it reads answers in the dialect the engine's own oracle learnt, so it is not calibrated again."""

    def __init__(self, mutation: Mutation, shadow: Shadow):
        self.mutation, self.shadow = mutation, shadow
        self.oracle = None
        self.timeout = None
        self.asked = 0

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def answer(self, request: Request, depth: int, timeout: float):
        """(answer, error) on `request` at `depth`."""
        live = self.mutation._live
        if live.halted.is_set():
            raise OracleCancelled("mutants stopped")
        self.asked += 1
        if self.asked == 2:
            self.shadow.compile_mutant()     # run again: its Python is compiled once, not by each process
        with launched_with({**LEANER_START, **self.shadow.env}):
            if self.oracle is None or timeout != self.timeout:
                self.close()
                self.oracle = live.make(self.shadow.spec, timeout, lambda: OracleCancelled("mutants stopped"))
                self.timeout = timeout
            try:
                return self.oracle.answer(request, depth, as_written=True), None
            except OracleCancelled:
                raise
            except EngineError as e:
                self.close()               # a crashed or hung process is not asked again
                return None, e

    def close(self):
        if self.oracle is not None:
            self.mutation._live.release(self.oracle)
            self.oracle.close()
            self.oracle = None


class _Work:
    """A pass's mutants in order, `limit` taken at most (None: all) and `spare` more where
    mutants are `promote`d (they go before the rest), none of those `taken` before (a set
    shared by the passes). Not locked: the workers take and promote under their own lock."""

    def __init__(self, mutants: list[Mutant], taken: set, limit: int | None = None, spare: int = 0):
        self.pending, self.urgent, self.taken = deque(mutants), deque(), taken
        self.left = float("inf") if limit is None else max(0, limit)
        self.spare = spare

    def take(self) -> Mutant | None:
        while self.left > 0 and (self.urgent or self.pending):
            mutant = (self.urgent or self.pending).popleft()
            if mutant not in self.taken:
                self.taken.add(mutant)
                self.left -= 1
                return mutant
        return None

    def promote(self, mutants: list[Mutant]):
        new = [m for m in mutants if m not in self.taken]
        self.urgent.extend(new)
        grown = min(len(new), self.spare)
        self.left, self.spare = self.left + grown, self.spare - grown


def plan(by_line: dict[tuple[str, int], list[Mutant]], ranks: dict[tuple[str, int], int],
         budget: int | None = None, kinds: dict[tuple[str, int], int] | None = None) -> tuple[list[Mutant], list[Mutant]]:
    """(first pass, the rest) of the mutants of the suspect lines, `budget` in all (None: every
    one, the mutation's time being the limit). The first pass takes each line's FIRST likeliest
    one-token slips and a name written for its peer (`firsts`; Mutant.likeness: a constant off
    by one, a comparison with or without its `=`, ...), so that a faulty line in a wide tie (one
    that runs in every run, which no spectrum separates) is reached, within FIRST_SHARE of a budget; the rest are every line's other
    mutants (the caller deepens the lines the first pass singled out). Each in rank order; within
    a rank the lines in turn, conditions first, then assignments and expressions, then calls and
    returns (line_kind: where one-token slips of move generators are found most; `kinds` the
    kind of each line's statement, which a continuation line takes: mutants.statement_kind)."""
    def in_turn(lists: dict[tuple[str, int], list[Mutant]]) -> list[Mutant]:
        by_rank: dict[int, list[tuple[int, list[Mutant]]]] = {}
        for key, mutants in lists.items():
            kind = (kinds or {}).get(key, line_kind(mutants[0].before) if mutants else 0)
            by_rank.setdefault(ranks[key], []).append((kind, mutants))
        out = []
        for rank in sorted(by_rank):
            for kind in sorted({k for k, _ in by_rank[rank]}):
                out += [m for turn in zip_longest(*(ms for k, ms in by_rank[rank] if k == kind)) for m in turn if m]
        return out
    first = in_turn({key: firsts(ms) for key, ms in by_line.items()})
    if budget is not None:
        first = first[:max(1, int(budget * FIRST_SHARE))] if budget else []
    chosen = set(first)
    rest = [m for m in in_turn(by_line) if m not in chosen]
    return first, rest


def firsts(mutants: list[Mutant]) -> list[Mutant]:
    """A line's mutants of the first pass: its FIRST likeliest one-token slips, and its likeliest
    name written for a peer when none of them is one (a line of six constants, each off by one
    either way, gets its `start` written `end` tried too), and the statement of the `else` of the
    chain it begins hoisted above it (mutants._defaults: an update one case forgets, which no
    one-token change makes and later passes may not reach) second, after its likeliest slip: the
    lines of a wide tie take their turns one mutant each, and a line's fifth may come too late."""
    ordered = sorted(mutants, key=lambda m: m.likeness)
    out = ordered[:FIRST]
    name = next((m for m in ordered if m.kind == "name"), None)
    out += [name] if name is not None and name not in out else []
    default = next((m for m in ordered if m.kind == "default"), None)
    return out[:1] + [default] + [m for m in out[1:] if m != default] if default is not None else out


def slips_first(first: list[Mutant], rest: list[Mutant]) -> tuple[list[Mutant], list[Mutant]]:
    """For a native engine, where each mutant is a build: the first pass keeps its one-token slips
    (an operator, a constant) and leaves the rest (a statement deleted, a jump added, arguments
    swapped: most do not compile, or say less) to follow it, so its builds reach more lines."""
    slips = [m for m in first if m.likeness < UNLIKE]
    return slips, [m for m in first if m.likeness >= UNLIKE] + rest


def suspect_lines(suspects) -> list[tuple[int, str, int]]:
    """[(rank, path, line)] of the suspects of the first RANKS ranks (ties included), in rank
    order; past LINES lines no other rank is begun, but the tie holding the LINES-th line is
    finished (a faulty line that runs in every run shares its rank with dozens)."""
    out: list[tuple[int, str, int]] = []
    ranks: list[int] = []
    for s in suspects:
        if s.rank not in ranks:
            if len(ranks) == RANKS or len(out) >= LINES:
                break
            ranks.append(s.rank)
        if language_of(s.path) is None:
            continue
        out += [(s.rank, s.path, line) for line in range(s.line, s.last + 1)][:MOST_LINES - len(out)]
    return out


def _capped(passing: list[Run]) -> list[Run]:
    """PASSING_RUNS of the `passing` runs, in their order: those where a move some failing run got
    wrong is at stake (Run.stake) taken first. There a mutant that switches that move off breaks
    what a fix keeps, and elsewhere it breaks nothing: a cap that left them out took a switch-off
    for a near-fix. Their order is kept, so that a mutant stopped at its BREAKS-th break meets
    them as it did."""
    taken = {id(r) for r in sorted(passing, key=lambda r: not r.stake)[:PASSING_RUNS]}
    return [r for r in passing if id(r) in taken]


def _unparsed(path: str, verdict: str) -> bool:
    """A JavaScript mutant Node could not parse, told by its first run's error (a Python one was
    compiled when made, a native one built): one Node process per mutant, not two, since most
    mutants parse and a `node --check` beforehand cost about as much as the run."""
    return language_of(path) == "javascript" and verdict.startswith("failed:") and "SyntaxError" in verdict


def refuted_score(fixed: int, kept: int, failing: int, total_passing: int) -> tuple[float, float]:
    """What a candidate refuted beyond the runs weighs (it turned `fixed` failing runs of `failing`
    to pass and kept `kept` passing runs): as a mutant that turned the same failing runs to pass
    and broke one of the passing runs it kept, the position that refuted it (Metallaxis counts
    every test a mutant is killed by): below a candidate not refuted, above a mutant that broke
    more of the runs."""
    return Outcome(None, fixed, fixed, failing, min(1, kept), kept).score(failing, max(total_passing, 1))


NOTHING = (0.0, 0.0, False, 0.0, 0)     # rerank's weight of a line no mutant says anything of


def _out_of_order(lines) -> str:
    """Why any of `lines` (LineEvidence or None) was tried out of rank order, as evidence ends it."""
    return "".join(f"; tried as it {e.why}" for e in lines if e is not None and e.why)


def _unmoved(s, count: int, lines=()):
    """Suspect `s` whose `count` mutants changed no failing run, said so, and why any of its
    `lines` (LineEvidence) was tried out of rank order."""
    return replace(s, evidence=f"{s.evidence}; {count} mutant{'s' if count != 1 else ''} here change no failing run"
                               f"{_out_of_order(lines)}", mutants=count)


def rerank(suspects, mutation: MutationResult, total_failing: int, total_passing: int):
    """The suspects ordered by their lines' mutants first (a confirmed fix, then the best
    mutant's share of failing runs turned to pass; a candidate refuted beyond the runs counts as a
    mutant that broke one more passing run, refuted_score), the spectrum's order after, and within
    one of its ranks the share of failing answers the mutants change: a suspect of several lines
    is split where its lines' mutants differ, each such line a suspect of its own. Equal evidence
    shares a rank."""
    rows = []
    texts: dict[str, list[str]] = {}
    failing = min(total_failing, FAILING_RUNS)
    fixed = {(f.path, f.line): f for f in reversed(mutation.fixes) if f.confirmed}
    # a candidate refuted beyond the runs is no fix, but what it did to the runs stands: it weighs
    # as a mutant that broke one more passing run, not as one that fixes nothing (which put a line
    # whose mutant fixed every failing run and kept every passing one below lines whose mutants
    # broke eight); where that equals another line's mutant, it comes after it, as its checks
    # stopped at the first position where it was wrong: one break is the least it makes
    refuted = {(f.path, f.line): f for f in reversed(mutation.fixes) if f.refuted}
    # one agreeing beyond the runs but where the engine itself gives the same wrong answer (a second
    # bug) keeps the weight of what it does to the runs: unconfirmed, no fix is claimed
    blurred = {(f.path, f.line): f for f in reversed(mutation.fixes)
               if f.shared and not f.confirmed and not f.refuted}
    # where every candidate checked was refuted (the best of each line first, CANDIDATES lines at
    # most), the runs did not tell this locate's fixes from its switch-offs: a candidate left
    # unchecked (the checks' cap, the time; or cut by the time before its last passing runs, none
    # broken) weighs as those checked did, not above them
    presumed = bool(mutation.fixes) and all(f.refuted for f in mutation.fixes)
    for s in suspects:
        lines = [mutation.evidence.get((s.path, n)) for n in range(s.line, s.last + 1)]
        tried = [e for e in lines if e is not None]
        if not tried:
            rows.append((s, NOTHING))
            continue
        count = sum(e.mutants for e in tried)
        if not count:
            rows.append((s, NOTHING))
            continue
        if not any(e.score > (0.0, 0.0) for e in tried):
            rows.append((_unmoved(s, count, tried), NOTHING))
            continue

        def between(first: int, last: int):
            """The lines first..last of `s` whose mutants changed nothing, as a suspect of their own."""
            held = lines[first - s.line:last - s.line + 1]
            count = sum(e.mutants for e in held if e is not None)
            part = replace(s, line=first, last=last, text=_text(texts, s.path, first))
            return _unmoved(part, count, held) if count else part
        start = s.line
        for n, e in zip(range(s.line, s.last + 1), lines):
            if e is None or e.score == (0.0, 0.0):
                continue
            if start < n:
                rows.append((between(start, n - 1), NOTHING))
            fix, wrong, shared = fixed.get((s.path, n)), refuted.get((s.path, n)), blurred.get((s.path, n))
            score, after = e.score, False
            if fix is not None:
                said = (f"{fix.change} here is a fix ({fix.said()}, and agrees beyond them"
                        f"{', wherever a game can go' if fix.shared else ''})")
            elif shared is not None and shared.fixes_this_bug:
                said = f"{shared.change} here fixes this bug ({shared.said()}); the engine has another"
            elif shared is not None:
                said = (f"a mutant here ({shared.change}) {shared.said()} and agrees beyond them but at "
                        f"{shared.doubt}: no fix claimed")
            elif wrong is not None:
                said = f"a mutant here ({wrong.change}) {wrong.said()} but is no fix: {wrong.why_not}"
                score = min(e.score, refuted_score(wrong.failing_fixed, wrong.passing_kept, failing, total_passing))
                after = score[0] > 0       # after a mutant of another line that did as well in the runs alone
            elif presumed and (e.best.fixed, e.best.broke) == (failing, 0):
                said = (e.words(failing, total_failing, total_passing) + ", not checked beyond them (every "
                        "candidate checked was refuted)")
                score = min(e.score, refuted_score(e.best.fixed, e.best.passing, failing, total_passing))
                after = score[0] > 0
            else:
                said = e.words(failing, total_failing, total_passing)
            # a line whose mutants turn failing runs to pass as another's do, in one rank of the spectrum:
            # the likelier one-token slip its mutant undoes, the likelier the line is the faulty one
            # (real faults are mostly small slips of the kinds Mutant.likeness puts first)
            slip = e.best.mutant.likeness if score[0] > 0 and e.best is not None else 0
            rows.append((replace(s, line=n, last=n, text=_text(texts, s.path, n), mutants=e.mutants,
                                 mutation=score[0], changes=score[1],
                                 evidence=f"{said}; {s.evidence}{_out_of_order([e])}"),
                         (float(fix is not None), score[0], after, score[1], slip)))
            start = n + 1
        if start <= s.last:
            rows.append((between(start, s.last), NOTHING))
    # a fix first, then the lines whose mutants turn failing runs to pass (a refuted candidate after
    # a mutant that did as well in the runs); the spectrum's order after, the lines whose mutants
    # change the failing answers first within one of its ranks, then the likelier slip undone
    rows.sort(key=lambda row: (-row[1][0], -row[1][1], row[1][2], row[0].rank, -row[1][3], row[1][4]))
    out, previous, current = [], None, 0
    for i, (s, score) in enumerate(rows):
        key = (round(score[0], 12), round(score[1], 12), score[2], s.rank, round(score[3], 12), score[4])
        if key != previous:
            current, previous = i + 1, key
        out.append(replace(s, rank=current))
    return out
