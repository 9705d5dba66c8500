"""The mismatch finder: descend two oracles' divides to the position where their move lists differ.

    >>> report = find_mismatch(make_oracle("perftree:tests/engines/ep_rank_pin.py"),
    ...                        make_oracle("stockfish"), Request.of("8/8/8/8/k3p2Q/8/3P4/3K4 w - - 0 1"), 2)
    >>> report.path, report.missing, report.extra, report.explanations["e4d3"]
    (['d2d4'], [], ['e4d3'], 'en passant e4d3 exposes king a4 to queen h4 along rank 4')

At each level both oracles divide the same position. Different move lists are the answer;
otherwise the finder follows the differing move with the smallest subtree (the cheapest next
divide), one engine call per level, down to depth 1 where counts are all 1 and only the lists
can differ. The CLI prints the Report; the GUI renders its levels as they arrive (`progress`).

An engine that prints only totals is bisected by totals: its total here, then its total below
each legal move, then down the differing one; where its total differs while every move's
subtree agrees, its move list differs or its counts depend on how a position was reached
(core/engines/totals.py: which, and which moves, cannot be told from totals).

An oracle call that fails on the way down ends the descent with `report.failure`, a Failure
saying which side failed (the engine under test or the reference) and how (the error's kind:
crash, timeout, flood, refused, unreadable; or an error such as an engine that cannot start or
cannot be calibrated), with the levels found so far. The engine under test failing a call is a
finding (`report.crash`); anything else is an error of the comparison, which
`raise_unless_finding` raises.
"""
from __future__ import annotations

from dataclasses import dataclass, field, fields
from typing import Callable


from ..board.analysis import analyze, explain_move
from ..errors import EngineError, EngineRefused
from ..engines.divide_parser import zero_rows_note
from ..engines.notation import is_bare_promotion
from ..engines.oracle import Request, refused_words
from ..engines.pipes import quoted
from ..engines.oracles import Oracle, OracleCancelled
from ..engines.totals import sum_mismatch
from ..board.position import START_FEN, Position
from .failures import Failure, at_path, failure_kind
from .state_trace import StateTrace, trace_state

_DEPENDS = "its count depends on how the position was reached"


@dataclass(frozen=True)
class Row:
    """One move of a level's diff table; a count is None when that side did not generate the move
    (`refused`: the engine, asked to play it, refused it, in these words: a move it does not
    generate)."""
    move: str
    engine: int | None
    reference: int | None
    refused: str = ""

    @property
    def differs(self) -> bool:
        return self.engine != self.reference

    def to_json(self) -> dict:
        data = {"move": self.move, "engine": self.engine, "reference": self.reference}
        if self.refused:
            data["refused"] = self.refused
        return data

    @classmethod
    def from_json(cls, data: dict) -> Row:
        refused = data.get("refused", "")
        if refused is True:                 # saved before the engine's words were kept
            refused = "refused"
        return cls(data["move"], data["engine"], data["reference"], refused or "")


@dataclass
class Level:
    """Both divides of one position on the way down; `chosen` is the move followed from here;
    `total` the reference's count where there are no rows (an engine printing only totals), and
    `engine_total` the engine's there."""
    fen: str
    depth: int
    rows: list[Row]
    chosen: str | None = None
    total: int | None = None
    engine_total: int | None = None

    @property
    def nodes(self) -> int | None:
        """The reference's count of this position at this depth, when known."""
        return sum(r.reference or 0 for r in self.rows) if self.rows else self.total

    @property
    def differing(self) -> list[Row]:
        return [r for r in self.rows if r.differs]

    def to_json(self) -> dict:
        return {"fen": self.fen, "depth": self.depth, "rows": [r.to_json() for r in self.rows],
                "chosen": self.chosen, "total": self.total, "engine_total": self.engine_total}

    @classmethod
    def from_json(cls, data: dict) -> Level:
        return cls(data["fen"], data["depth"], [Row.from_json(r) for r in data["rows"]], data.get("chosen"),
                   data.get("total"), data.get("engine_total"))


@dataclass
class Report:
    """The finder's answer. `path` holds every move from the FEN given (the caller's moves first)
    to `fen`, the position where the engine's move list differs from the reference's."""
    engine: str
    reference: str
    root_fen: str
    depth: int
    agree: bool = False
    path: list[str] = field(default_factory=list)
    fen: str = ""
    missing: list[str] = field(default_factory=list)      # legal (reference has it), engine lacks it
    extra: list[str] = field(default_factory=list)        # engine generates it, not legal
    explanations: dict[str, str] = field(default_factory=dict)
    levels: list[Level] = field(default_factory=list)
    engine_calls: int = 0
    reference_calls: int = 0
    unreachable: list[str] = field(default_factory=list)  # why start or `fen` cannot arise in a game
    note: str = ""
    cancelled: bool = False
    failure: Failure | None = None   # why the descent stopped early
    totals_only: bool = False    # the engine printed only totals: missing/extra cannot be told
    fen_warnings: list[str] = field(default_factory=list)   # what the comparison dropped from the FEN
    given_fen: str = ""      # the root FEN as written, which the engine is given (see lenient_fen)
    state_trace: StateTrace | None = None   # the move after which the engine's position is wrong
    trace_calls: int = 0     # engine calls spent asking whether (and where) its state goes wrong
    notes: list[str] = field(default_factory=list)   # how the engine's answers were read (rows of 0 dropped)
    reached: Position | None = field(default=None, repr=False, compare=False)   # `fen` as the finder played it
    root: Position | None = field(default=None, repr=False, compare=False)      # `root_fen` as the request held it

    @property
    def root_position(self) -> Position:
        """The Position of `root_fen`: the request's, or for a report read back, `root_fen` read."""
        if self.root is None or self.root.fen() != self.root_fen:
            self.root = Position.from_fen(self.root_fen)
        return self.root

    @property
    def position(self) -> Position:
        """The Position of `fen`: the one the finder reached by playing moves, or for a report read
        back (or one whose `fen` was changed), `fen` read."""
        if self.reached is None or self.reached.fen() != self.fen:
            self.reached = Position.from_fen(self.fen)
        return self.reached

    @property
    def crash(self) -> bool:
        """The engine under test crashed, hung or flooded: a finding, with the levels found before."""
        return self.failure is not None and self.failure.is_finding

    @property
    def error(self) -> str:
        """One line: why the descent stopped early ("" when it did not)."""
        return self.failure.message if self.failure is not None else ""

    @property
    def command(self) -> str:
        """The command line the engine failed on, when it is known."""
        return self.failure.command if self.failure is not None else ""

    def raise_unless_finding(self) -> Report:
        """This report, unless the descent stopped on a failure that is not a finding (the
        reference failed, or the engine's answer could not be used): then that EngineError."""
        if self.failure is not None and not self.failure.is_finding:
            raise self.failure.error or EngineError(self.failure.message)
        return self

    def calls_line(self) -> str:
        """'engine calls N (reference calls M)', and the calls spent on its state said apart."""
        line = f"engine calls {self.engine_calls} (reference calls {self.reference_calls})"
        if self.trace_calls and self.state_trace is not None:
            line += f", {self.trace_calls} more tracing its state"
        elif self.trace_calls:
            line += f", {self.trace_calls} more asking about the position's own FEN (it answers alike)"
        return line

    def to_json(self) -> dict:
        return {"agree": self.agree, "path": list(self.path), "fen": self.fen,
                "missing": list(self.missing), "extra": list(self.extra),
                "explanations": dict(self.explanations),
                "levels": [lv.to_json() for lv in self.levels], "engine_calls": self.engine_calls,
                "reference_calls": self.reference_calls, "engine": self.engine,
                "reference": self.reference, "root_fen": self.root_fen, "depth": self.depth,
                "unreachable": list(self.unreachable), "note": self.note, "cancelled": self.cancelled,
                "error": self.error, "crash": self.crash, "totals_only": self.totals_only,
                "fen_warnings": list(self.fen_warnings), "given_fen": self.given_fen, "command": self.command,
                "failure": self.failure.to_json() if self.failure is not None else None,
                "trace_calls": self.trace_calls, "notes": list(self.notes),
                "state_trace": None if self.state_trace is None else self.state_trace.to_json()}

    @classmethod
    def from_json(cls, data: dict) -> Report:
        """The report to_json wrote (also one written before `failure` existed: its `crash`,
        `error` and `command`)."""
        plain = {f.name for f in fields(cls)} - {"levels", "failure", "state_trace", "reached", "root"}
        report = cls(**{k: v for k, v in data.items() if k in plain})
        report.levels = [Level.from_json(lv) for lv in data.get("levels", [])]
        if data.get("state_trace"):
            report.state_trace = StateTrace(**data["state_trace"])
        if data.get("failure"):
            report.failure = Failure.from_json(data["failure"])
        elif data.get("crash"):
            report.failure = Failure("engine", "crash", data.get("error", ""), command=data.get("command", ""),
                                     path=tuple(report.path))
        return report


def diff_rows(engine: dict[str, int], reference: dict[str, int], refused=None) -> list[Row]:
    """Rows in the reference's order, then the engine's extra moves in its order; `refused`
    {move: the engine's words} of the moves it refused to play (not generated)."""
    refused = refused or {}
    rows = [Row(m, engine.get(m), c, refused.get(m, "")) for m, c in reference.items()]
    rows += [Row(m, c, None) for m, c in engine.items() if m not in reference]
    return rows


def _subtree_size(row: Row) -> tuple:
    # the next divide costs about as much as the larger of the two counts
    return (max(row.engine or 0, row.reference or 0), row.move)


def find_mismatch(engine: Oracle, reference: Oracle, request: Request, depth: int = 1,
                  progress: Callable[[Level], None] | None = None,
                  cancelled: Callable[[], bool] | None = None) -> Report:
    """Descend from `request` (a core.engines.oracle.Request: its root FEN + its moves) until the
    two move lists differ (or everything agrees). Each level below is the one above with the
    chosen move played on its Position; no FEN is read again.

    `progress(level)` is called after each level; when `cancelled()` turns true the finder stops
    before the next engine call and returns what it has with `report.cancelled` set. To stop
    inside a long divide, also call cancel() on the oracles: that ends the same way.
    An oracle that fails ends the report with its `failure` (`raise_unless_finding()` raises the
    ones that are not findings)."""
    start = request.position
    report = Report(engine=engine.name, reference=reference.name, root_fen=request.root, depth=depth,
                    path=list(request.moves), fen=start.fen(), unreachable=_unreachable(start),
                    fen_warnings=list(request.warnings), given_fen=request.written, reached=start,
                    root=request.start)
    report.agree = depth == 0          # depth 0: one node each, nothing to ask
    pos, remaining = start, depth
    while remaining > 0:
        if cancelled is not None and cancelled():
            report.cancelled = True
            return report
        side, asked, refused = "engine", report.path, {}
        try:
            # the engine under test is given the FEN as written (core.engines.lenient_fen)
            answer = engine.answer(request, remaining, as_written=True)
            report.engine_calls += 1
            side = "reference"
            theirs = reference.divide(request, remaining)
            report.reference_calls += 1
            ours = answer.moves
            if ours is None:           # totals only: ask below each move only when the totals differ
                report.totals_only = True
                if remaining == 1 or answer.total == sum(theirs.values()):
                    _compare_totals(report, pos, remaining, answer.total, theirs, progress)
                    return _traced(report, engine, request, remaining, answer, cancelled)
                ours, side, refusals = {}, "engine", {}
                for move in theirs:
                    asked = report.path + [move]
                    try:
                        ours[move] = engine.perft(request.then(move), remaining - 1, as_written=True)
                    except EngineRefused as e:     # it would not play the move: one it does not generate
                        refusals[move] = e
                    report.engine_calls += 1
                asked = report.path + list(refusals)[:1]     # where a refusal not believed failed
                refused = refused_words(refusals, ours, answer.total)
            dropped = getattr(answer.parsed, "dropped", None)
            if dropped and remaining > 1:      # listed with 0: rejected, or an illegal move with nothing below?
                side = "engine"
                at_1 = engine.answer(request, 1, as_written=True)
                report.engine_calls += 1
                played = [m for m in dropped if (at_1.moves or {}).get(m)]
                if not played:
                    _note(report, zero_rows_note(dropped, remaining, rejected=at_1.moves is not None))
                else:
                    side = "reference"
                    return _played_at_depth_1(report, pos, remaining, played, at_1.moves,
                                              reference.divide(request, 1), progress)
            elif dropped:
                _note(report, zero_rows_note(dropped, remaining))
        except OracleCancelled:        # someone called cancel() on an oracle: a stop, not a failure
            report.cancelled = True
            return report
        except EngineError as e:
            if side == "engine":
                report.engine_calls += 1          # the call it failed in was made
            at = request.then(*asked[len(report.path):]).position     # where it failed, played on, not read again
            return _failed(report, engine if side == "engine" else reference, side, e, asked, at)
        level = Level(pos.fen(), remaining, diff_rows(ours, theirs, refused))
        report.levels.append(level)
        report.fen, report.reached = level.fen, pos
        missing = [m for m in theirs if m not in ours]
        extra = [m for m in ours if m not in theirs]
        differing = level.differing
        # a totals-only engine whose total is not the sum of its totals below each legal move
        # plays other moves here
        moves_differ = report.totals_only and sum(ours.values()) != answer.total
        if differing and not (missing or extra or moves_differ):
            level.chosen = min(differing, key=_subtree_size).move
        if progress is not None:
            progress(level)
        if moves_differ:
            report.note = sum_mismatch(report.engine, answer.total, remaining, ours)
            return _traced(report, engine, request, remaining, answer, cancelled)
        if missing or extra:
            report.missing, report.extra, report.explanations = _explained(pos, missing, extra)
            for move, words in refused.items():
                report.explanations[move] += f"; asked to play it, the engine refused it ({quoted(words, 80)})"
            report.unreachable = _unreachable(start, pos)
            return _traced(report, engine, request, remaining, answer, cancelled)
        if not differing:
            if len(report.levels) > 1:
                report.note = _inconsistent(report)
                return _traced(report, engine, request, remaining, answer, cancelled)
            report.agree = True
            return report
        report.path.append(level.chosen)
        request = request.then(level.chosen)
        pos = request.position
        remaining -= 1
    return report


def _note(report: Report, note: str):
    if note not in report.notes:
        report.notes.append(note)


def _played_at_depth_1(report: Report, pos: Position, depth: int, played: list[str], ours: dict[str, int],
                       theirs: dict[str, int], progress) -> Report:
    """The engine listed `played` with 0 at `depth` (as a pseudo-legal move it rejects would be),
    yet at depth 1 it counts them: it generates those illegal moves, with nothing below them. The
    report ends at this position, at depth 1."""
    level = Level(pos.fen(), 1, diff_rows(ours, theirs))
    report.levels.append(level)
    report.fen, report.reached = level.fen, pos
    if progress is not None:
        progress(level)
    missing = [m for m in theirs if m not in ours]
    extra = [m for m in ours if m not in theirs]
    report.missing, report.extra, report.explanations = _explained(pos, missing, extra)
    report.unreachable = _unreachable(pos)
    listed = " ".join(played)
    _note(report, f"at depth {depth} it listed {listed} with 0, as it would a pseudo-legal move it "
                   f"rejects, but at depth 1 it counts {'them' if len(played) != 1 else 'it'}: it generates "
                   f"{'these illegal moves' if len(played) != 1 else 'this illegal move'}")
    return report


def _explained(pos: Position, missing: list[str], extra: list[str]):
    """(missing, extra, {move: why}). A promotion the engine printed without its piece (`b7b8`)
    is said as such, and the promotions it may stand for are not listed as missing too."""
    why = {}
    board = pos.chess_board()
    for bare in [m for m in extra if is_bare_promotion(board, m)]:
        completions = [bare + p for p in "qrbn"]
        legal = [m for m in completions if m in missing]
        missing = [m for m in missing if m not in completions]
        why[bare] = (f"printed without its piece; {', '.join(legal)} are legal" if legal else
                     f"printed without its piece; no promotion there is legal: {explain_move(pos, bare + 'q')}")
    why.update({m: explain_move(pos, m) for m in missing + extra if m not in why})
    return missing, extra, why


def _traced(report: Report, engine: Oracle, request: Request, depth: int, answer, cancelled) -> Report:
    """A disagreement at the end of a path (`request`: the root + the path): when the engine
    answers otherwise asked about the position's own FEN, the move that breaks its state and what
    its position holds (core.mismatch.state_trace); the engine's answer here was `answer`."""
    if report.agree or not report.path:
        return report
    inconsistent = _DEPENDS in report.note
    before = getattr(engine, "calls", 0)
    try:
        report.state_trace = trace_state(engine, request, depth, answer, cancelled)
    except OracleCancelled:
        report.cancelled = True
    except EngineError:
        pass              # it failed on a FEN of its own position: the finding above stands alone
    report.trace_calls = getattr(engine, "calls", 0) - before
    if report.state_trace is None and inconsistent and not report.cancelled:
        report.note += ("; asked as the root FEN + the moves and as this position's own FEN it "
                        "answers alike, so what it depends on is the moves searched before this one "
                        "(state an unmake does not restore, or a hash table collision)")
    return report


def _compare_totals(report: Report, pos: Position, depth: int, total: int, theirs: dict[str, int],
                    progress) -> Report:
    """A totals-only engine whose total here matches the reference's, or any total at depth 1:
    the level has no rows (nothing is known move by move), the note says what the totals say."""
    reference_total = sum(theirs.values())
    level = Level(pos.fen(), depth, [], total=reference_total, engine_total=total)
    report.levels.append(level)
    report.fen, report.reached = level.fen, pos
    if progress is not None:
        progress(level)
    if total == reference_total:
        if len(report.levels) > 1:
            parent = report.levels[-2]
            row = next(r for r in parent.rows if r.move == parent.chosen)
            report.note = (f"{report.engine} counted {row.engine} below {parent.chosen} one level up, "
                           f"but asked about this position directly it answers {total} like "
                           f"{report.reference}: {_DEPENDS}")
        else:
            report.agree = True
        return report
    report.note = sum_mismatch(report.engine, total, depth, dict(theirs))
    return report


def failed_at_root(engine: Oracle, request: Request, depth: int, error: EngineError) -> Report:
    """The report of an engine under test that failed when asked about `request` itself, at
    `depth` (one call, no descent): for a session that will not ask it again."""
    report = Report(engine=engine.name, reference="", root_fen=request.root, depth=depth, fen=request.root,
                    fen_warnings=list(request.warnings), given_fen=request.written, engine_calls=1,
                    root=request.start)
    return _failed(report, engine, "engine", error, [], request.position)


def on_start_position(error: EngineError | None) -> bool:
    """The engine crashed, hung or flooded on the start position, asked first to learn how it
    prints a divide (core.engines.calibration): a finding about it, not about the position asked."""
    return getattr(error, "calibrating", False) and failure_kind(error) in ("crash", "timeout", "flood")


def _failed(report: Report, oracle: Oracle, side: str, error: EngineError, path, at: Position) -> Report:
    """An oracle failed mid-descent at `at` (the root + `path`): the report ends there, with the
    levels found so far."""
    fen = at.fen()
    where = f"{at_path(path)} (FEN {fen})"
    kind = failure_kind(error)
    if on_start_position(error):
        # it crashed, hung or flooded on the first position perftscope asks any engine: a
        # finding, said of that position
        where = (f"on the start position ({START_FEN}), the first one asked to learn how it prints "
                 f"a divide, before the position asked")
    elif getattr(error, "calibrating", False):
        # any other failure while perftscope learned how it talks is not about this position
        kind = "error"
    if side == "engine" and report.fen_warnings:      # it was given the FEN as written, not the one above
        where += f" given the FEN as written, {report.given_fen}"
    report.failure = Failure.of(error, oracle.name, where, side, path, kind)
    report.path, report.fen, report.reached = list(path), fen, at   # where it failed; the levels say how it got there
    return report


def _inconsistent(report: Report) -> str:
    parent = report.levels[-2]
    row = next(r for r in parent.rows if r.move == parent.chosen)
    here = sum(r.engine for r in report.levels[-1].rows)
    return (f"no move differs here, yet one level up {report.engine} counted {row.engine} below "
            f"{parent.chosen} against {report.reference}'s {row.reference}; asked about this position "
            f"directly it answers {here}: {_DEPENDS}")


def _unreachable(*positions: Position) -> list[str]:
    reasons: list[str] = []
    for pos in positions:
        reasons += [r for r in analyze(pos).unreachable if r not in reasons]
    return reasons
