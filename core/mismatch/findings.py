"""What `suite --engine` and `fuzz` report: one Finding per failing position, drilled down with the
finder, classified, and shrunk to a minimal position.

    >>> f = investigate(make_oracle("perftree:tests/engines/ep_rank_pin.py"), make_oracle("core"),
    ...                 "3k4/8/8/K1Pp3r/8/8/8/8 w - d6 0 2", depth=1)
    >>> f.kind, f.label
    ('ep-rank-pin', 'en passant through a rank pin')

The class comes from the position where the move lists differ and the finder's reason for each
differing move, so "perft 5 is off by 38" becomes "en passant through a rank pin, c5d6". A crash
or a timeout is a finding too: its error line, and the levels the finder had found before it.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field

from ..errors import EngineError, EngineTimeout
from .finder import Report, failed_at_root, find_mismatch
from ..engines.oracles import Oracle, OracleCancelled
from ..board.position import Position, parse_square
from .shrink import Shrunk, piece_count, shrink
from .verdicts import ILLEGAL, NOT_GENERATED

# kind -> what the summary calls it, in the order the summary lists them
CLASSES = {
    "ep-rank-pin": "en passant through a rank pin",
    "ep-check": "en-passant check evasion",
    "castling-attack": "castling through or into attack",
    "castling-rights": "castling rights after a rook moves or is captured",
    "promotion": "promotions",
    "pin": "pinned pieces",
    "check-evasion": "check evasions",
    "king-attack": "the king walking into attack",
    "state": "position state after a move",
    "crash": "crash",
    "timeout": "timeout",
    "other": "other move-list differences",
}

_CASTLES = {"e1g1", "e1c1", "e8g8", "e8c8"}
_LISTED = 3                     # differing moves a one-line summary names with their reasons


@dataclass
class Finding:
    """A position where the engine fails, and everything found out about it."""
    fen: str                        # the position checked (the suite entry or fuzz position)
    depth: int
    kind: str
    report: Report | None = None    # the finder's drill-down (levels as far as they got)
    error: str = ""                 # for a crash or timeout: the engine's own error line
    path: list[str] = field(default_factory=list)
    shrunk: Shrunk | None = None
    minimal: Report | None = None   # the finder on the shrunk position: its own moves and reasons
    name: str = ""                  # suite entry name, or "fuzz #N"
    count: int = 1                  # how many positions failed this same way (see merge)

    @property
    def label(self) -> str:
        return CLASSES[self.kind]

    @property
    def merge_key(self) -> tuple:
        """Findings alike: the same class, minimal position and differing moves (for a crash
        or timeout, the position it failed on)."""
        return self.kind, self.example_fen, tuple(sorted(self.example_moves))

    @property
    def engine_failed(self) -> bool:
        """The engine crashed or hung here instead of answering (an error, where the other
        kinds are wrong answers)."""
        return self.kind in ("crash", "timeout")

    @property
    def moves(self) -> list[str]:
        """The differing moves at the mismatch position."""
        return [] if self.report is None else self.report.extra + self.report.missing

    @property
    def example_moves(self) -> list[str]:
        """The differing moves of the example position."""
        if self.minimal is not None:
            return self.minimal.extra + self.minimal.missing
        return self.moves

    def verdict_lines(self, write=None) -> list[str]:
        """The example position's differing moves with their verdicts ('illegal d1b1'), each move
        written by write(fen, moves, uci) (the GUI's SAN toggle), given the position the moves
        are played in; default: the UCI itself."""
        shown = self.minimal if self.minimal is not None else self.report
        if shown is None:
            return []
        word = (lambda m: m) if write is None else (lambda m: write(shown.fen, (), m))
        return [f"{ILLEGAL.word} {word(m)}" for m in shown.extra] + \
            [f"{NOT_GENERATED.word} {word(m)}" for m in shown.missing]

    @property
    def example_fen(self) -> str:
        """The smallest position showing the failure: the shrunk one when there is one."""
        if self.shrunk is not None:
            return self.shrunk.fen
        if self.report is not None and self.report.fen:
            return self.report.fen
        return self.fen

    @property
    def first_differ_depth(self) -> int | None:
        """The perft depth at which the move lists first differ below the checked position:
        one more than the plies the finder went down. None when the lists never differ."""
        if self.report is None or not (self.report.missing or self.report.extra):
            return None
        return len(self.report.path) + 1

    def summary(self) -> str:
        """One line: the class, the moves or error, where."""
        if self.engine_failed:
            verb = "crashed" if self.kind == "crash" else "timed out"
            return (f"{self.label}: the engine {verb} at path {' '.join(self.path) or '(none)'} "
                    f"(FEN {self._failed_fen()}): {self.error}")
        if self.report is None or self.kind == "state" or self.report.note:
            text = f"{self.label}: {self.report.note if self.report is not None else self.error}"
        else:
            moves = []
            for verdict, listed in ((ILLEGAL.word, self.report.extra), (NOT_GENERATED.word, self.report.missing)):
                for m in listed[:_LISTED]:
                    moves.append(f"{verdict} {m} ({self.report.explanations.get(m, '')})")
                if len(listed) > _LISTED:
                    moves.append(f"{len(listed) - _LISTED} more {verdict}")
            text = f"{self.label}: " + "; ".join(moves)
        if self.report is not None and self.report.state_trace is not None:
            text += f"; {self.report.state_trace.sentence('the engine')}"
        return text

    def _failed_fen(self) -> str:
        return Position.from_fen(self.fen).play(self.path).fen()

    def to_json(self) -> dict:
        return {"name": self.name, "fen": self.fen, "depth": self.depth, "kind": self.kind, "count": self.count,
                "class": self.label, "summary": self.summary(), "error": self.error,
                "path": list(self.path), "first_differ_depth": self.first_differ_depth,
                "example_fen": self.example_fen,
                "report": None if self.report is None else self.report.to_json(),
                "shrunk": None if self.shrunk is None else self.shrunk.to_json(),
                "minimal": None if self.minimal is None else self.minimal.to_json()}


def classify(report: Report) -> str:
    """The failure class of a finder report that disagrees."""
    if getattr(report, "totals_only", False) and report.note and not report.levels[-1].differing:
        return "other"               # its total differs here; which moves cannot be told
    if report.note or not (report.missing or report.extra):
        return "state"
    pos = Position.from_fen(report.fen)
    kinds = [_classify_move(pos, m, m in report.extra, report.explanations.get(m, ""), report.path)
             for m in report.extra + report.missing]
    # the most specific class any differing move has
    return min(kinds, key=list(CLASSES).index)


def _classify_move(pos: Position, move: str, extra: bool, why: str, path) -> str:
    mover, target = pos.board[parse_square(move[:2])], pos.board[parse_square(move[2:4])]
    piece = mover.upper()
    # a castling: e1g1 and the like, or in Chess960 the king taking its own rook
    castles = move in _CASTLES or (target.upper() == "R" and target.isupper() == mover.isupper())
    if piece == "K" and castles:
        if extra:
            return "castling-rights" if "castling right" in why else "castling-attack"
        # a legal castle not generated: rights lost by a move, or an attack seen that is not there
        return "castling-rights" if path else "castling-attack"
    if piece == "P" and pos.ep_square is not None and parse_square(move[2:4]) == pos.ep_square:
        if re.search(r"along rank \d", why):
            return "ep-rank-pin"
        if pos.in_check():
            return "ep-check"
        return "pin" if "pinned" in why else "other"
    if len(move) == 5:
        return "promotion"
    if piece == "K":
        return "king-attack"
    if "pinned" in why:
        return "pin"
    if pos.in_check():
        return "check-evasion"
    if not extra and _pinned(pos, move[:2]):
        return "pin"
    return "other"


def _pinned(pos: Position, square: str) -> bool:
    from ..board.analysis import analyze       # analysis pulls in the overlay kernels: only when needed
    return any(p.square == parse_square(square) for p in analyze(pos).pinned)


def error_kind(error: EngineError) -> str:
    """'timeout' or 'crash' for an engine error (a flood or unreadable output counts as a crash)."""
    return "timeout" if isinstance(error, EngineTimeout) else "crash"


def own_error(error: EngineError) -> str:
    """The engine's own error line: `.own_error` where the oracle captured it, else the message."""
    own = getattr(error, "own_error", None)
    return str(own) if own else str(error)


def investigate(engine: Oracle, reference: Oracle, fen: str, depth: int, name: str = "",
                shrink_calls: int = 0, move_pieces: bool = False, cancelled=None) -> Finding | None:
    """Drill down from (fen, depth) with the finder and classify; shrink when `shrink_calls` > 0.

    None when the engine agrees with the reference there. An engine error is a Finding
    (crash or timeout) with the levels found before it; OracleCancelled passes through, and a
    failing reference raises its EngineError."""
    report = find_mismatch(engine, reference, fen, [], depth, cancelled=cancelled)
    failure = report.failure
    if failure is not None:
        if failure.side == "reference":
            raise failure.error or EngineError(failure.message)      # not a finding: the run is in doubt
        kind = "timeout" if failure.kind == "timeout" else "crash"  # a flood or unreadable answer: a crash
        finding = Finding(fen, depth, kind, report=report, error=failure.own_error, path=list(failure.path),
                          name=name)
        if shrink_calls > 0 and finding.kind == "crash":   # a timeout would cost its timeout per step
            # shrink the call that failed: the position at the end of the path, the depth left there
            failed_depth = max(1, depth - len(finding.path))
            finding.shrunk = shrink(engine, reference, finding._failed_fen(), failed_depth,
                                    max_calls=shrink_calls, move_pieces=move_pieces, cancelled=cancelled)
        return finding
    if report.cancelled or report.agree:
        return None
    finding = Finding(fen, depth, classify(report), report=report, path=list(report.path), name=name)
    if shrink_calls > 0:
        finding.shrunk = shrink_finding(engine, reference, finding, shrink_calls, move_pieces, cancelled)
        if finding.shrunk is not None and finding.shrunk.steps and finding.shrunk.failure == "mismatch":
            try:
                finding.minimal = find_mismatch(engine, reference, finding.shrunk.fen, [],
                                                finding.shrunk.depth).raise_unless_finding()
            except OracleCancelled:
                pass
    return finding


def shrink_finding(engine, reference, finding: Finding, max_calls: int, move_pieces: bool,
                   cancelled=None) -> Shrunk | None:
    """Shrink where the failure is sharpest: the position whose move lists differ (depth 1), or
    for a state bug (a note, or a traced one) the checked position at its depth (only reached
    by its moves does the engine miscount)."""
    report = finding.report
    if (report.missing or report.extra) and report.state_trace is None:
        start, depth = report.fen, 1
    else:
        start, depth = finding.fen, finding.depth
    return shrink(engine, reference, start, depth, max_calls=max_calls, move_pieces=move_pieces,
                  cancelled=cancelled)


def timeout_finding(engine: Oracle, fen: str, depth: int, error: EngineError, name: str = "") -> Finding:
    """The engine hung on the position itself (asked at `depth` from `fen`): a timeout finding
    at once, without the finder asking (and waiting) again."""
    report = failed_at_root(engine, fen, depth, error)
    return Finding(fen, depth, "timeout", report=report, error=report.failure.own_error, name=name)


def merge(findings: list[Finding], finding: Finding) -> Finding:
    """Add `finding` to `findings`, or count it on the one already there with the same class,
    minimal position and moves (a session finds the same bug from many positions). Returns
    the finding kept."""
    if any(kept is finding for kept in findings):
        return finding                  # already counted (a session that merged it itself)
    for kept in findings:
        if kept.merge_key == finding.merge_key:
            kept.count += finding.count
            return kept
    findings.append(finding)
    return finding


def shortest_examples(findings: list[Finding]) -> dict[str, Finding]:
    """For each class found, the finding with the fewest pieces (then the shortest FEN)."""
    best: dict[str, Finding] = {}
    for f in findings:
        key = (piece_count(f.example_fen), len(f.example_fen))
        if f.kind not in best or key < (piece_count(best[f.kind].example_fen), len(best[f.kind].example_fen)):
            best[f.kind] = f
    return {k: best[k] for k in CLASSES if k in best}


def depth_histogram(findings: list[Finding]) -> dict[int, int]:
    """How many findings first show their differing move lists at each perft depth."""
    counts: dict[int, int] = {}
    for f in findings:
        d = f.first_differ_depth
        if d is not None:
            counts[d] = counts.get(d, 0) + 1
    return dict(sorted(counts.items()))
