"""`perftscope locate` as a Job: which lines of the engine's own source make it wrong.

    job = LocateJob(LocateSettings("perftree:./my-engine.py", fen=FEN, depth=3))
    result = job.run(print)          # Progress events, then a LocateResult
    result.suspects[0].where         # 'my-engine.py:118'

The finder walks down to the position whose move list differs (plain engine calls, no coverage).
Then covered runs at depth 1 (core.locate.runs): the failing position and its twin (the same
position without what makes its wrong move possible: move_aware); where the failing position is
reached by moves, those moves made by the engine from other starts (core.locate.paths: a
make-move bug shows nowhere else); the children of the failing position; shrink from it, every
position it asks about a run (the steps it keeps fail, the ones it rejects mostly pass); the
minimal position's twin and children; positions
of a short fuzz that have the kind of move that goes wrong. Failing runs of another kind (a
second bug, or a crash where the failure is a wrong move list: a child whose move the engine
refuses to play) are left out. The ranking is core.locate.spectra's.
"""
from __future__ import annotations

import threading
import time
from functools import cached_property
from itertools import islice, zip_longest
from dataclasses import dataclass, field

import chess

from ..board.position import START_FEN
from ..engines.oracle import DEFAULT_TIMEOUT, Request
from ..engines.oracles import Oracle
from ..engines.pair import EnginePair
from ..errors import EngineError, OracleCancelled, PerftscopeError
from ..job import Emit, Progress, Subject, ignore
from ..mismatch.finder import Report, find_mismatch
from ..mismatch.fuzz import fuzz_positions
from ..mismatch.shrink import ShrinkSettings, shrink
from ..engines.process import launched_with
from .coverage import scratch_environment
from .runs import CoveredEngine, Run, focus_of, position_kinds, removed, wrong_moves
from .paths import other_starts, path_siblings
from .sources import Program, no_coverage_hint, program_of
from . import confirmation as confirmation_module
from .confirmation import confirmation
from .mutation import Fix, Mutation, MutationResult, rerank
from .spectra import Suspect, Twins, _relative, rank

SHRINK_CALLS = 80          # engine calls shrink may spend (each a covered run)
CHILDREN = 40              # children of one position run at most
FUZZ_RUNS = 60             # focused fuzz positions run at most
FUZZ_SCAN = 4000           # fuzz positions looked at for the focus kind at most
UNFOCUSED = 5              # fuzz positions without the focus kind run ahead of those with it
WORKERS = 2                # covered runs at once (children and fuzz; shrink asks one at a time)


@dataclass(frozen=True)
class LocateSettings:
    engine: str
    reference: str = "core"
    fen: str = START_FEN
    moves: tuple[str, ...] = ()
    depth: int = 1
    sources: tuple[str, ...] = ()        # folders; () finds them from the engine (core.locate.sources)
    top: int = 10
    seconds: float = 40.0                # the runs stop being started after this (the finder's own calls aside)
    timeout: float = DEFAULT_TIMEOUT     # one engine call
    runs: int | None = None              # no run is started once this many have been
    seed: int = 1
    mutants: int | None = None           # mutants of the suspect lines run at most (None: as many as mutant_seconds
                                         # allow; 0: rank by spectra alone)
    mutant_seconds: float = 60.0         # no mutant is started after this many seconds of mutation
    build: str = ""                      # how a native engine is rebuilt in a copy of its source ('' : the engine file's)
    fix_fuzz_seconds: float | None = None    # the focused fuzz a candidate fix must agree on last (None: FUZZ_SECONDS)

    def __post_init__(self):
        if not isinstance(self.depth, int) or self.depth < 1:
            raise PerftscopeError(f"locate needs a depth of at least 1, got {self.depth!r}")
        if self.top < 1:
            raise PerftscopeError(f"--top must be at least 1, got {self.top}")
        if self.runs is not None and self.runs < 1:
            raise PerftscopeError(f"--runs must be at least 1, got {self.runs}")
        if not self.seconds > 0:
            raise PerftscopeError(f"--seconds must be more than 0, got {self.seconds}")
        if self.fix_fuzz_seconds is not None and self.fix_fuzz_seconds < 0:
            raise PerftscopeError(f"the fix fuzz seconds must be 0 or more, got {self.fix_fuzz_seconds}")
        if self.mutants is not None and self.mutants < 0:
            raise PerftscopeError(f"--mutants must be 0 or more, got {self.mutants}")
        self.request                           # FenError / MoveError naming what is wrong

    @cached_property
    def request(self) -> Request:
        """The position to locate from, read once (here, where the settings are made)."""
        return Request.of(self.fen, self.moves)


@dataclass
class LocateResult:
    subject: Subject
    agree: bool = False                  # the engine agrees with the reference: nothing to locate
    suspects: list[Suspect] = field(default_factory=list)
    runs: list[Run] = field(default_factory=list)          # those ranked
    other_failures: list[Run] = field(default_factory=list)   # failing runs of another kind, left out
    example: Run | None = None           # the failing position the finder found
    focus: str | None = None             # the kind of move that goes wrong
    twins: list[Twins] = field(default_factory=list)   # the move-aware step's twins of each failing run
    sources: tuple[str, ...] = ()
    coverage: tuple[str, ...] = ()       # the kinds of coverage data that came back
    report: Report | None = None
    seconds: float = 0.0
    stopped: bool = False
    mutation: MutationResult | None = None   # what the suspect lines' mutants did (None: not tried)
    warnings: list[str] = field(default_factory=list)   # the FEN as written, a position no game reaches

    @property
    def fixes(self) -> list[Fix]:
        return self.mutation.fixes if self.mutation is not None else []

    @property
    def offered(self) -> list[Fix]:
        """The fixes offered (MutationResult.offered)."""
        return self.mutation.offered if self.mutation is not None else []

    @property
    def failed(self) -> int:
        return sum(r.failed for r in self.runs)

    @property
    def passed(self) -> int:
        return sum(not r.failed for r in self.runs)

    def to_json(self, top: int | None = None) -> dict:
        counts: dict[str, list[int]] = {}
        for run in self.runs:
            counts.setdefault(run.origin, [0, 0])[0 if run.failed else 1] += 1
        return {"engine": self.subject.engines[0], "reference": self.subject.engines[1],
                "fen": self.subject.fen, "moves": list(self.subject.moves), "agree": self.agree,
                "suspects": [s.to_json() for s in self.suspects[:top]],
                "runs": {"failed": self.failed, "passed": self.passed, "left_out": len(self.other_failures),
                         "by_origin": {k: {"failed": v[0], "passed": v[1]} for k, v in counts.items()}},
                "positions": [r.to_json() for r in self.runs],
                "twins": [{"failing": t.failing, "twins": list(t.twins), "move": t.move, "without": t.without}
                          for t in self.twins],
                "example": None if self.example is None else self.example.to_json(),
                "focus": self.focus, "sources": list(self.sources), "coverage": list(self.coverage),
                "seconds": round(self.seconds, 2), "stopped": self.stopped, "warnings": list(self.warnings),
                "fixes": [f.to_json() for f in self.fixes],
                "mutants": None if self.mutation is None else {
                    "made": self.mutation.made, "tried": self.mutation.tried,
                    "seconds": round(self.mutation.seconds, 2), "note": self.mutation.note or None},
                "mutants_per_second": None if self.mutation is None else round(self.mutation.per_second, 2)}


class LocateJob:
    def __init__(self, settings: LocateSettings):
        self.settings = settings
        self.pair = EnginePair.parse(settings.engine, settings.reference, settings.timeout)
        self.program: Program = program_of(self.pair.engine)
        self.sources = tuple(settings.sources) or self.program.sources
        if not self.sources:
            raise PerftscopeError(f"no source folder found for {self.pair.engine_name}: give --source DIR "
                                  f"(the folder of its source files)")
        self.subject = Subject(settings.fen, tuple(settings.moves),
                               (self.pair.engine_name, self.pair.reference_name), "locate")
        self._stop = threading.Event()
        self._doing: str | None = None
        self._oracles: list[Oracle] = []
        self._mutation: Mutation | None = None

    def stop(self) -> None:
        self._stop.set()
        if self._mutation is not None:
            self._mutation.halt()
        for oracle in list(self._oracles):
            if isinstance(oracle, CoveredEngine):
                oracle.halt()
            oracle.cancel()

    def activity(self) -> str | None:
        return self._doing

    def run(self, emit: Emit = ignore) -> LocateResult:
        s, start = self.settings, time.monotonic()
        deadline = start + s.seconds

        def over() -> bool:
            return self._stop.is_set() or time.monotonic() > deadline or covered.full
        result = LocateResult(self.subject, sources=self.sources)
        reference = self.pair.make_reference()
        self._oracles.append(reference)

        def on_run(run: Run):
            failed = sum(r.failed for r in covered.runs)
            emit(Progress(len(covered.runs), None, f"run {len(covered.runs)} ({run.origin}): {run.verdict} "
                                                   f"· {failed} failing, {len(covered.runs) - failed} passing"))

        programs = (self.program.path,) if self.program.kind == "native" else ()
        try:
            covered = CoveredEngine(self.pair, reference, self.sources, programs, on_run=on_run)
        except BaseException:
            reference.close()
            raise
        self._oracles.append(covered)
        covered.limit = s.runs
        scratch = launched_with(scratch_environment(covered.scratch))
        scratch.__enter__()
        ranking = False
        try:
            self._doing = f"finding where {covered.name} differs from {reference.name}"
            emit(Progress(0, None, self._doing))
            asked = s.request
            report = find_mismatch(covered.plain, reference, asked, s.depth,
                                   cancelled=self._stop.is_set).raise_unless_finding()
            result.report = report
            if report.cancelled or self._stop.is_set():
                result.stopped = True
                return self._done(result, start)
            if report.agree:
                result.agree = True
                return self._done(result, start)
            for warning in asked.warnings:
                result.warnings.append(f"the FEN's {warning} (for the truth; {covered.name} is given the FEN "
                                       f"as written)")
            result.warnings += [f"this position cannot arise in a real game ({reason}); engines legitimately "
                                f"disagree here" for reason in report.unreachable]
            failing = asked.from_root().then(*report.path)
            board = failing.position.chess_board()
            result.focus = focus_of(board, report.missing + report.extra)
            self._batch(covered, [failing], "finder", over)
            self._doing = "the failing position without what makes its wrong move possible"
            self._batch(covered, self._twins(covered, failing), "twins", over)
            if failing.moves:
                # a bug in how a move updates the position shows only after the engine made that move
                self._doing = "the failing path's moves made from other starts"
                self._batch(covered, _alternate(path_siblings(failing), other_starts(failing, seed=s.seed)),
                            "paths", over)
            self._doing = "the children of the failing position"
            self._batch(covered, [failing.then(m) for m in failing.position.legal_moves()[:CHILDREN]],
                        "children", over)
            self._doing = "shrinking the failing position, each step a covered run"
            covered.origin = "shrink"
            shrunk = None
            try:
                # a FEN that does not stand as written is not shrunk: every step would be a position
                # that stands, none still what the engine was given
                if not failing.warnings:
                    shrunk = shrink(covered, reference, failing, 1, ShrinkSettings(SHRINK_CALLS, cancelled=over))
            except OracleCancelled:
                pass
            if shrunk is not None and shrunk.fen != failing.position.fen():
                small = shrunk.request
                self._doing = "the minimal position without what makes its wrong move possible"
                self._batch(covered, self._twins(covered, small), "twins", over)
                self._doing = "the children of the minimal position"
                self._batch(covered, [small.then(m) for m in small.position.legal_moves()[:CHILDREN]],
                            "children", over)
            self._doing = f"a short fuzz on positions with {(result.focus or 'any move').removesuffix(' move')} moves"
            self._batch(covered, islice(self._fuzz(result.focus, over), FUZZ_RUNS), "fuzz", over)
            ranking = True
        except OracleCancelled:
            result.stopped = ranking = True
        finally:
            scratch.__exit__(None, None, None)
            self._doing = None
            covered.close()
            if not ranking:                     # an early return or an error: the reference is done with
                reference.close()
        try:
            return self._ranked(result, covered, reference, emit, start)
        finally:
            self._doing = None
            reference.close()

    def _ranked(self, result: LocateResult, covered: CoveredEngine, reference: Oracle, emit: Emit,
                start: float) -> LocateResult:
        """The runs ranked, then re-ranked by the suspect lines' mutants."""
        s = self.settings
        result.stopped = result.stopped or self._stop.is_set()
        example = next((r for r in covered.runs if r.failed), None)
        result.example = example
        result.coverage = tuple(sorted(covered.kinds_found))
        example_focus = result.focus
        for run in covered.runs:
            if run.failed and example_focus is not None:
                # a crash (a child whose move the engine refuses) or wrong moves of another kind
                b = run.request.position
                if not run.wrong or focus_of(b.chess_board(), run.wrong) != example_focus:
                    result.other_failures.append(run)
                    continue
            result.runs.append(run)
        if example is None:
            raise PerftscopeError(f"{covered.name} differs from {reference.name} at depth {s.depth}, but no run at "
                                  f"depth 1 failed on its own (a bug that shows only deeper is not located yet)")
        if not any(run.lines for run in result.runs):
            if covered.kinds_found:
                raise PerftscopeError(f"{covered.name} left {', '.join(sorted(covered.kinds_found))} coverage, but "
                                      f"none of it in {', '.join(self.sources)}: give --source DIR, the folder of "
                                      f"the source files that ran")
            raise PerftscopeError(no_coverage_hint(self.program, covered.name))
        result.twins = move_aware(result.runs)
        result.suspects = rank(result.runs, self.sources, result.focus, result.twins)
        if s.mutants != 0 and not self._stop.is_set():
            self._mutate(result, reference, emit, covered.plain)
        return self._done(result, start)

    def _mutate(self, result: LocateResult, reference: Oracle, emit: Emit, dialect: Oracle):
        s = self.settings
        build = s.build or self.program.build
        if self.program.kind == "native" and not build:
            result.mutation = MutationResult(note="a native engine is rebuilt for each mutant: give --build CMD "
                                                  "(run in a copy of its source folder) or a `build` line in its "
                                                  "engine file")
            return
        self._doing = "mutants of the suspect lines"
        tried = [0]

        def said(text):
            tried[0] += 1
            emit(Progress(tried[0], None, text))
        mutation = self._mutation = Mutation(self.pair.engine.text, self.sources, result.runs,
                                             lambda path: _relative(path, self.sources), build,
                                             timeout=s.timeout, budget=s.mutants, emit=said, dialect=dialect)
        end = time.monotonic() + s.mutant_seconds

        def over() -> bool:
            return self._stop.is_set() or time.monotonic() > end
        focus = result.focus

        def fuzz():
            return (r for r in self._fuzz(focus, self._stop.is_set, s.seed + 1)
                    if focus is None or focus in position_kinds(r.position.chess_board()))
        checks = confirmation(reference, s.request, s.depth, focus, fuzz,
                              confirmation_module.FUZZ_SECONDS if s.fix_fuzz_seconds is None else s.fix_fuzz_seconds)
        result.mutation = mutation.run(result.suspects, over, checks, deadline=end)
        result.suspects = rerank(result.suspects, result.mutation, result.failed, result.passed)
        result.stopped = result.stopped or self._stop.is_set()

    def _done(self, result: LocateResult, start: float) -> LocateResult:
        result.seconds = time.monotonic() - start
        return result

    def _batch(self, covered: CoveredEngine, requests, origin: str, over):
        """Covered runs of `requests` (an iterable), WORKERS at a time, until `over()`."""
        requests = iter(requests)
        lock = threading.Lock()

        def work():
            while not over():
                with lock:
                    request = next(requests, None)
                if request is None:
                    return
                try:
                    covered.run(request, 1, origin)
                except OracleCancelled:
                    return
                except EngineError:
                    pass                  # a failing run, already kept
        workers = [threading.Thread(target=work, daemon=True, name=f"locate {origin} {i}") for i in range(WORKERS)]
        for worker in workers:
            worker.start()
        for worker in workers:
            worker.join()

    @staticmethod
    def _twins(covered: CoveredEngine, request: Request) -> list[Request]:
        """The failing run of `request`'s position, each wrong move taken away (core.locate.runs.WrongMove.twin)."""
        where = request.position.fen()
        run = next((r for r in reversed(covered.runs)
                    if r.failed and r.request.position.fen() == where), None)
        if run is None:
            return []
        board = run.board()
        out = []
        for wrong in wrong_moves(run, board):
            twin = wrong.twin(board)
            if twin is not None:
                fen = twin.fen(en_passant="fen")
                if all(fen != r.written for r in out):
                    out.append(Request.of(fen))
        return out

    def _fuzz(self, focus: str | None, over, seed: int | None = None):
        """Fuzz positions (core.mismatch.fuzz): those with a move of the `focus` kind (more
        failures of the same kind, and passing ones where that kind goes right), a few without
        it between them (passing runs of the code around it)."""
        focused = plain = 0
        for scanned, (_, fen) in enumerate(fuzz_positions(self.settings.seed if seed is None else seed)):
            if over() or scanned >= FUZZ_SCAN:
                return
            if focus is None or focus in position_kinds(chess.Board(fen)):
                focused += 1
                yield Request.of(fen)
            elif plain < focused + UNFOCUSED:
                plain += 1
                yield Request.of(fen)


def _alternate(*lists):
    """The items of `lists` in turn: each kind of run gets its share when the time runs out."""
    return [x for turn in zip_longest(*lists) for x in turn if x is not None]


TWIN_DISTANCE = 3          # a twin has at most this many things taken away from its failing run's position


def move_aware(runs: list[Run]) -> list[Twins]:
    """Marks each run where a move some failing run got wrong is at stake (`Run.stake`) and
    returns, for each failing run, its closest twins among the runs: positions that are its own
    with only things taken away (pieces, rights, the en-passant square; at most TWIN_DISTANCE) and
    where none of its wrong moves is possible."""
    boards = [run.board() for run in runs]
    wrongs = {i: wrong_moves(run, boards[i]) for i, run in enumerate(runs) if run.failed}
    every = [w for ws in wrongs.values() for w in ws]
    for run, board in zip(runs, boards):
        run.stake = run.failed or any(w.at_stake(board) for w in every)
    out = []
    for i, moves in wrongs.items():
        if not moves:
            continue
        near: dict[int, list[int]] = {}
        for j, board in enumerate(boards):
            if j == i or any(w.at_stake(board) for w in moves):
                continue
            distance = removed(boards[i], board)
            if distance is not None and 0 < distance <= TWIN_DISTANCE:
                near.setdefault(distance, []).append(j)
        if near:
            closest = near[min(near)]
            out.append(Twins(i, tuple(closest), moves[0].uci, _difference(boards[i], boards[closest[0]])))
    return out


def _difference(board: chess.Board, smaller: chess.Board) -> str:
    """What `smaller` lacks of `board`, in words: 'the castling right k', 'the rook on a1'."""
    parts = [f"the {chess.piece_name(p.piece_type)} on {chess.square_name(sq)}"
             for sq, p in sorted(board.piece_map().items()) if smaller.piece_at(sq) != p]
    lost = board.clean_castling_rights() & ~smaller.clean_castling_rights()
    if lost:
        rights = board.copy(stack=False)
        rights.castling_rights = lost
        parts.append(f"the castling right {rights.castling_xfen()}")
    if board.ep_square is not None and smaller.ep_square is None:
        parts.append("the en-passant square")
    return ", ".join(parts)
