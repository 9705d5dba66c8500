"""What `suite --engine` and `fuzz` report: one Finding per failing position, drilled down with the
finder, classified, and shrunk to a minimal position.

    >>> f = investigate(make_oracle("perftree:tests/engines/ep_rank_pin.py"), make_oracle("core"),
    ...                 Request.of("3k4/8/8/K1Pp3r/8/8/8/8 w - d6 0 2"), depth=1)
    >>> f.kind, f.label
    ('ep-rank-pin', 'en passant through a rank pin')

The class comes from the position where the move lists differ and the finder's reason for each
differing move, so "perft 5 is off by 38" becomes "en passant through a rank pin, c5d6". A call
the engine failed is a finding too, classed by what happened (a crash only for a process that
died; a timeout, a flood, a refused move or position, an answer that cannot be read): its error
line, and the levels the finder had found before it.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field, replace

import chess

from ..errors import EngineError
from ..engines.notation import is_bare_promotion
from ..engines.oracle import Request
from .finder import Report, failed_at_root, find_mismatch, on_start_position
from ..engines.oracles import Oracle, OracleCancelled
from ..board.position import START_FEN, Position, parse_square
from .failures import ENGINE_FAILED, FAILURE_KINDS, at_path, failure_kind, finding_kind, word
from .shrink import ShrinkSettings, Shrunk, piece_count, shrink
from .verdicts import ILLEGAL, NOT_GENERATED

# kind -> what the summary calls it, in the order the summary lists them
CLASSES = {
    "ep-rank-pin": "en passant through a rank pin",
    "ep-check": "en-passant check evasion",
    "ep-pinned": "en passant by a pinned pawn",
    "castling-missing": "castling not generated",
    "castling-rook": "castling moves the rook wrong",
    "castling-attack": "castling through or into attack",
    "castling-rights": "castling rights after a rook moves or is captured",
    "promotion": "promotions",
    "pin": "pinned pieces",
    "check-evasion": "check evasions",
    "king-attack": "the king walking into attack",
    "state": "position state after a move",
    # an engine that failed a call rather than answered with the wrong moves, as
    # core.mismatch.failures, the one wording of a failure, labels it
    **{kind: FAILURE_KINDS[kind].label for kind in ENGINE_FAILED},
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
        """Findings alike: one bug, one row. Wrong answers of the same class whose example
        positions hold the same pieces and whose differing moves are explained alike once what a
        mirror, a colour flip and the kind of slider change is taken out (bug_shape); else the
        same example position and moves. For a crash the same minimal position; a timeout, which
        is not shrunk (each step would wait the timeout), with every other timeout."""
        if self.kind == "timeout":
            return (self.kind,)
        if self.engine_failed:
            return self.kind, self.example_fen
        shown = self.minimal if self.minimal is not None else self.report
        shape = bug_shape(shown) if shown is not None else None
        if shape is not None:
            return "answer", self.kind, shape
        return "answer", self.example_fen, tuple(sorted(self.example_moves))

    @property
    def engine_failed(self) -> bool:
        """The engine failed a call here instead of answering (crashed, hung, flooded, refused a
        legal request, answered what cannot be read), where the other kinds are wrong answers."""
        return self.kind in ENGINE_FAILED

    @property
    def on_start(self) -> bool:
        """It failed on the start position while perftscope learned how it prints a divide,
        whatever position was asked (core.mismatch.finder.on_start_position)."""
        return self.report is not None and self.report.failure is not None and \
            on_start_position(self.report.failure.error)

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
        written = (lambda m: m) if write is None else (lambda m: write(shown.fen, (), m))
        return [f"{ILLEGAL.word} {written(m)}" for m in shown.extra] + \
            [f"{NOT_GENERATED.word} {written(m)}" for m in shown.missing]

    @property
    def example_fen(self) -> str:
        """The smallest position showing the failure: the shrunk one when there is one, the
        start position for a failure there while it was learned how the engine talks."""
        if self.on_start:
            return START_FEN
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
            verb = word(self.kind)
            where = (f"on the start position ({START_FEN}), the first one asked to learn how it prints a divide"
                     if self.on_start else f"{at_path(self.path)} (FEN {self._failed_fen()})")
            return f"{self.label}: the engine {verb} {where}: {self.error}"
        if self.report is None or self.kind == "state" or self.report.note:
            text = f"{self.label}: {self.report.note if self.report is not None else self.error}"
        else:
            moves = []
            pos = self.report.position
            for verdict, listed in ((ILLEGAL.word, self.report.extra), (NOT_GENERATED.word, self.report.missing)):
                for m in listed[:_LISTED]:
                    if _bare(pos, m):       # not a move but a way of writing one: said as it is
                        moves.append(f"{m} {self.report.explanations.get(m, '')}")
                    else:
                        moves.append(f"{verdict} {m} ({self.report.explanations.get(m, '')})")
                if len(listed) > _LISTED:
                    moves.append(f"{len(listed) - _LISTED} more {verdict}")
            text = f"{self.label}: " + "; ".join(moves)
        if self.report is not None and self.report.state_trace is not None:
            text += f"; {self.report.state_trace.sentence('the engine')}"
        return text

    def _failed_fen(self) -> str:
        """The position the engine failed on: where the finder's report ends (it holds it)."""
        if self.report is not None and self.report.fen:
            return self.report.fen
        return self.fen

    def to_json(self) -> dict:
        return {"name": self.name, "fen": self.fen, "depth": self.depth, "kind": self.kind, "count": self.count,
                "class": self.label, "summary": self.summary(), "error": self.error,
                "path": list(self.path), "first_differ_depth": self.first_differ_depth,
                "example_fen": self.example_fen,
                "report": None if self.report is None else self.report.to_json(),
                "shrunk": None if self.shrunk is None else self.shrunk.to_json(),
                "minimal": None if self.minimal is None else self.minimal.to_json()}


_SQUARE = re.compile(r"\b[a-h][1-8](?:[a-h][1-8][qrbn]?)?\b")      # a square, or a move in UCI
_LINE_NUMBER = re.compile(r"\b(rank|file) [1-8a-h]\b")
_SLIDERS = {"Q": "S", "R": "S", "B": "S"}


def bug_shape(report: Report) -> tuple | None:
    """What a mirror (of files, where no castling right tells the sides apart), a colour flip and
    the kind of slider leave of a wrong answer: the pieces on the board (the side to move's and
    the other's, a queen, rook or bishop alike) and each differing move's kind and explanation
    with squares, rank and file names and colours taken out, a queen acting along a rank or file
    called a rook, along a diagonal a bishop (the explanation still says which line). None where
    the moves do not say the bug (a note, a state bug traced along the route): those merge only
    on their position."""
    if report.note or not (report.extra or report.missing) or report.state_trace is not None:
        return None
    pos = report.position
    # a castling right is tied to its side of the board: there the files stay (no mirror)
    square = (lambda m: m.group(0)[::2]) if pos.castling else (lambda m: "#")
    pieces = sorted(("own" if p.isupper() == pos.white_to_move else "other", _SLIDERS.get(p.upper(), p.upper()))
                    for p in pos.board if p.isalpha())
    moves = []
    for m in report.extra + report.missing:
        why = report.explanations.get(m, "")
        if re.search(r"\balong (?:a |the )?(?:rank|file)", why):
            why = why.replace("queen", "rook")
        elif "diagonal" in why:
            why = why.replace("queen", "bishop")
        why = _LINE_NUMBER.sub(r"\1", _SQUARE.sub(square, why))
        why = re.sub(r"\b(white|black|White|Black)\b", "", why)
        moves.append((_move_kind(pos, m, m in report.extra), " ".join(why.split())))
    return tuple(pieces), tuple(sorted(moves))


def classify(report: Report) -> str:
    """The failure class of a finder report that disagrees: the most specific class any
    differing move has."""
    return symptoms(report)[0][0]


def symptoms(report: Report) -> list[tuple[str, str]]:
    """(class, kind of move) of each differing move of a finder report that disagrees, the most
    specific class first: what a shrink keeps ("castling-attack", "illegal castling").
    One (class, "") when no move can be named (lists that agree under a differing count, an
    engine that prints only totals) or when the class is the route's (a castled rook left behind)."""
    if getattr(report, "totals_only", False) and report.note and not report.levels[-1].differing:
        return [("other", "")]       # its total differs here; which moves cannot be told
    if report.note or not (report.missing or report.extra):
        return [("state", "")]
    pos = report.position
    if _rook_left_behind(report):
        return [("castling-rook", "")]
    # the route matters only when the engine answers otherwise asked about the position's own FEN
    route = report.state_trace is not None
    found = []
    for m in report.extra + report.missing:
        extra = m in report.extra
        symptom = (_classify_move(pos, m, extra, report.explanations.get(m, ""), route),
                   _move_kind(pos, m, extra))
        if symptom not in found:
            found.append(symptom)
    return sorted(found, key=lambda s: list(CLASSES).index(s[0]))


_PIECE_NAMES = {"P": "pawn", "N": "knight", "B": "bishop", "R": "rook", "Q": "queen", "K": "king"}


def _move_kind(pos: Position, move: str, extra: bool) -> str:
    """'illegal castling', 'not generated promotion to n', 'illegal pawn move': the same for a
    position and its colour mirror."""
    verdict = ILLEGAL.word if extra else NOT_GENERATED.word
    frm, to = parse_square(move[:2]), parse_square(move[2:4])
    piece = pos.board[frm].upper()
    if piece == "K" and _castles(pos, move):
        return f"{verdict} castling"
    if piece == "P" and pos.ep_square is not None and to == pos.ep_square:
        return f"{verdict} en passant"
    if len(move) == 5:
        return f"{verdict} promotion to {move[4]}"
    if extra and _bare(pos, move):
        return f"{verdict} promotion without its piece"
    return f"{verdict} {_PIECE_NAMES.get(piece, 'piece')} move"


def _castles(pos: Position, move: str) -> bool:
    """e1g1 and the like by a king, or in Chess960 the king taking its own rook."""
    mover, target = pos.board[parse_square(move[:2])], pos.board[parse_square(move[2:4])]
    if mover.upper() != "K":
        return False
    return move[:4] in _CASTLES or (target.upper() == "R" and target.isupper() == mover.isupper())


def _bare(pos: Position, move: str) -> bool:
    return is_bare_promotion(pos.chess_board(), move)


def _rook_left_behind(report: Report) -> bool:
    """A castling on the path whose rook the engine left in its corner: the engine's move list
    here is the legal one of the position with that rook back on its starting square."""
    if not report.path:
        return False
    board = report.root_position.chess_board()
    rooks = {}                  # colour -> (where its rook stood, where castling put it)
    for uci in report.path:
        move = board.parse_uci(uci)
        if board.is_castling(move):
            kingside = chess.square_file(move.to_square) > chess.square_file(move.from_square)
            rank = chess.square_rank(move.from_square)
            start = move.to_square if board.chess960 else chess.square(7 if kingside else 0, rank)
            rooks[board.turn] = (start, chess.square(5 if kingside else 3, rank))
        board.push(move)
    for colour, (start, end) in rooks.items():
        if board.piece_at(end) != chess.Piece(chess.ROOK, colour) or board.piece_at(start) is not None:
            continue
        imagined = board.copy(stack=False)
        imagined.remove_piece_at(end)
        imagined.set_piece_at(start, chess.Piece(chess.ROOK, colour))
        legal = {imagined.uci(m) for m in imagined.legal_moves}
        explained = sum(m in legal for m in report.extra) + sum(m not in legal for m in report.missing)
        near = {chess.square_name(start), chess.square_name(end)}
        touched = any(m[:2] in near or m[2:4] in near or any(f"on {sq}" in report.explanations.get(m, "")
                                                             for sq in near)
                      for m in report.extra + report.missing)
        # most of what differs is what that rook on its old square explains (the rest may be
        # what else the engine's wrong position holds)
        if touched and explained * 3 >= 2 * len(report.extra + report.missing):
            return True
    return False


def _classify_move(pos: Position, move: str, extra: bool, why: str, route: bool) -> str:
    mover = pos.board[parse_square(move[:2])]
    piece = mover.upper()
    if piece == "K" and _castles(pos, move):
        if extra:
            return "castling-rights" if "castling right" in why else "castling-attack"
        # a legal castle not generated: a right its moves lost (the state trace says which), else
        # not generated, whether or not it castles the other way (why cannot be told from here)
        return "castling-rights" if route else "castling-missing"
    if piece == "P" and pos.ep_square is not None and parse_square(move[2:4]) == pos.ep_square:
        if re.search(r"along rank \d", why):
            return "ep-rank-pin"
        if pos.in_check():
            return "ep-check"
        # a pinned capturer: off its line (illegal) or, pinned along a diagonal, capturing along it
        return "ep-pinned" if "pinned" in why or (not extra and _pinned(pos, move[:2])) else "other"
    if len(move) == 5 or (extra and _bare(pos, move)):
        return "promotion"
    if piece == "K":
        return "king-attack"
    if "pinned" in why:
        return "pin"
    if pos.in_check():
        return "check-evasion"
    if not extra and _pinned(pos, move[:2]):
        return "pin"
    # a move whose verdict depends on the route (a state trace names the field): a state bug
    return "state" if route else "other"


def _pinned(pos: Position, square: str) -> bool:
    from ..board.analysis import analyze       # analysis pulls in the overlay kernels: only when needed
    return any(p.square == parse_square(square) for p in analyze(pos).pinned)


def investigate(engine: Oracle, reference: Oracle, request: Request, depth: int, name: str = "",
                shrink_calls: int = 0, move_pieces: bool = False, cancelled=None) -> Finding | None:
    """Drill down from (request, depth) with the finder and classify; shrink when `shrink_calls` > 0.
    `request`: the Request a session read its position into (the finding's `fen` is its FEN as
    written).

    None when the engine agrees with the reference there. A call the engine failed is a Finding
    of that failure's class with the levels found before it; OracleCancelled passes through, and
    a failure that is no finding (the reference failing, an engine that cannot be calibrated)
    raises its EngineError."""
    report = find_mismatch(engine, reference, request, depth, cancelled=cancelled)
    fen = request.written
    failure = report.failure
    if failure is not None:
        if not failure.is_finding:
            raise failure.error or EngineError(failure.message)      # not a finding: the run is in doubt
        finding = Finding(fen, depth, failure.finding_kind, report=report, error=failure.own_error, path=list(failure.path),
                          name=name)
        # a timeout would cost its timeout per step; a crash on the start position is no smaller elsewhere
        if shrink_calls > 0 and finding.kind == "crash" and not finding.on_start:
            # shrink the call that failed: the position at the end of the path, the depth left there
            failed_depth = max(1, depth - len(finding.path))
            failed_at = request.from_root().then(*finding.path)     # played on, not read again
            finding.shrunk = shrink(engine, reference, Request.at(failed_at.position), failed_depth,
                                    ShrinkSettings(shrink_calls, move_pieces, cancelled=cancelled))
        return finding
    if report.cancelled or report.agree:
        return None
    finding = Finding(fen, depth, classify(report), report=report, path=list(report.path), name=name)
    if shrink_calls > 0:
        finding.shrunk = shrink_finding(engine, reference, finding,
                                        ShrinkSettings(shrink_calls, move_pieces, cancelled=cancelled), request)
        if finding.shrunk is not None and finding.shrunk.steps and finding.shrunk.failure == "mismatch":
            try:
                finding.minimal = find_mismatch(engine, reference, finding.shrunk.request,
                                                finding.shrunk.depth).raise_unless_finding()
            except OracleCancelled:
                pass
            else:
                if finding.minimal.failure is None and not finding.minimal.agree:
                    # one bug, one class: the minimal position decides, not the route to the start
                    finding.kind = classify(finding.minimal)
    return finding


def shrink_finding(engine, reference, finding: Finding, settings: ShrinkSettings,
                   request: Request | None = None) -> Shrunk | None:
    """Shrink where the failure is sharpest: the position whose move lists differ (depth 1), or
    for a state bug (a note, or a traced one) the checked position at its depth (only reached
    by its moves does the engine miscount). `request`: the checked position's Request, when the
    caller has it (else its FEN is read)."""
    report = finding.report
    request = request if request is not None else Request.of(finding.fen)
    if (report.missing or report.extra) and report.state_trace is None:
        start, depth = Request.at(request.from_root().then(*report.path).position), 1
    else:
        start, depth = request, finding.depth
    # the bug the finding is about: its class, and the kind of move of the first move that has it
    symptom = next((s for s in symptoms(report) if s[0] == finding.kind), None)
    return shrink(engine, reference, start, depth, replace(settings, symptoms=symptoms, symptom=symptom))


def shrink_each(engine: Oracle, reference: Oracle, request: Request, depth: int,
                settings: ShrinkSettings = ShrinkSettings()) -> list[Shrunk]:
    """One minimal example per bug the position shows: a shrink for each symptom (class and kind
    of move) of the finder's report on it, in the order of `symptoms`. [] when they agree; a
    crash gives the one shrink of the crash."""
    report = find_mismatch(engine, reference, request, depth).raise_unless_finding()
    if report.failure is not None:
        found = shrink(engine, reference, request, depth, settings)
        return [] if found is None else [found]
    if report.agree:
        return []
    out = []
    for symptom in symptoms(report):
        found = shrink(engine, reference, request, depth, replace(settings, symptoms=symptoms, symptom=symptom))
        if found is not None:
            out.append(found)
    return out


def timeout_finding(engine: Oracle, request: Request, depth: int, error: EngineError, name: str = "") -> Finding:
    """The engine hung on the position itself (asked at `depth` about `request`): a timeout finding
    at once, without the finder asking (and waiting) again."""
    if getattr(error, "calibrating", False):
        raise error            # it hung on the start position while perftscope learned how it talks
    return failure_finding(engine, request, depth, error, name)


def failure_finding(engine: Oracle, request: Request, depth: int, error: EngineError, name: str = "") -> Finding:
    """The engine failed when asked about `request` itself at `depth`: a finding of that failure's
    class (an error that is no failed call is 'unreadable'), built from the finder's Failure
    like every other failure finding, worded by core.mismatch.failures."""
    report = failed_at_root(engine, request, depth, error)
    return Finding(request.written, depth, finding_kind(failure_kind(error)), report=report,
                   error=report.failure.own_error, name=name)


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
