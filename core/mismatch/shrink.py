"""Delta debugging on a position: the smallest position where an engine still disagrees.

    >>> s = shrink(make_oracle("perftree:tests/engines/ep_rank_pin.py"), make_oracle("core"),
    ...            Request.of("3k4/3p4/8/K1P4r/8/8/8/8 b - - 0 1"), depth=3)
    >>> s.fen, s.pieces
    ('8/8/8/K1Pp3r/8/8/8/3k4 w - d6 0 1', 5)            # for example

A step is a simpler position: fewer pieces, a castling right or the en-passant square dropped,
the halfmove clock and move number reset, a lower depth, white to move instead of black (colours
mirrored), a piece one square closer to the others. Every candidate must be a position the core
accepts and one that can arise in a game (engines legitimately disagree elsewhere), so a start
that cannot arise is only left for one that can; if none keeps the failure the result says so
(`unreachable`). Other steps keep the clocks, so a bug the halfmove clock triggers is shrunk with
it. A step is kept only when the engine still fails the same way: a crash again for a crash; for
a wrong answer, a different count or move list, and, when the caller says what the failure is
(`symptoms`: the class and the kind of move of each differing move, from the finder's report;
core.mismatch.findings), still the one symptom the shrink started from, so a start showing two
bugs does not drift from the one asked about to the other. The walk ends when no single step
keeps the failure. Each test costs one engine call and one reference call (the finder's calls
when `symptoms` is given: one per level below the position).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable, Iterator

import chess

from ..board.analysis import analyze
from ..errors import EngineError, FenError
from ..engines.oracle import Request
from ..engines.oracles import Oracle, OracleCancelled
from ..board.position import Position, square_name

DEFAULT_MAX_CALLS = 400        # engine calls one shrink may spend (each is a process for a script)
DEFAULT_SHRINK_CALLS = 60      # engine calls a suite or fuzz session spends shrinking each finding


@dataclass(frozen=True)
class ShrinkSettings:
    """How a shrink walks: at most `max_calls` engine calls; `move_pieces` tries a piece one
    square closer to the others; `progress(step, fen)` is called for every step kept;
    `cancelled()` True stops it; `symptoms(report)` gives the (class, kind of move) of each
    differing move of a finder report, and with it a step is kept only while `symptom`
    (default: the start's first) is still among them."""
    max_calls: int = DEFAULT_MAX_CALLS
    move_pieces: bool = True
    progress: Callable[[str, str], None] | None = None
    cancelled: Callable[[], bool] | None = None
    symptoms: Callable[[object], list[tuple]] | None = None
    symptom: tuple | None = None


@dataclass
class Shrunk:
    """The result: `fen` at `depth` still fails; `steps` are the simplifications kept, in order."""
    start_fen: str
    start_depth: int
    fen: str
    depth: int
    failure: str                  # "mismatch" or "crash"
    steps: list[str] = field(default_factory=list)
    symptom: tuple = ()           # (class, kind of move) every step kept, when the caller named it
    engine_calls: int = 0
    reference_calls: int = 0
    exhausted: bool = False       # stopped by the call budget, not because no step was left
    cancelled: bool = False
    unreachable: list[str] = field(default_factory=list)   # why `fen` cannot arise in a game, if it cannot
    position: Position | None = field(default=None, repr=False, compare=False)   # `fen`, as the walk holds it

    @property
    def pieces(self) -> int:
        return piece_count(self.fen)

    @property
    def request(self) -> Request:
        """The minimal position as a Request (the Position the walk ended on, not its FEN read again)."""
        return Request.at(self.position) if self.position is not None else Request.of(self.fen)

    def to_json(self) -> dict:
        return {"start_fen": self.start_fen, "start_depth": self.start_depth, "fen": self.fen,
                "depth": self.depth, "pieces": self.pieces, "failure": self.failure,
                "steps": list(self.steps), "engine_calls": self.engine_calls,
                "reference_calls": self.reference_calls, "exhausted": self.exhausted,
                "cancelled": self.cancelled, "unreachable": list(self.unreachable),
                "symptom": list(self.symptom)}


def can_arise(pos: Position) -> bool:
    """No reason the position cannot come up in a game: python-chess's status (kings apart,
    checkers possible) and the core's own list. Elsewhere engines legitimately disagree."""
    return not why_unreachable(pos)


def why_unreachable(pos: Position) -> list[str]:
    """Why the position cannot come up in a game ([] when it can)."""
    reasons = list(analyze(pos).unreachable)
    status = pos.chess_board().status()
    if status != chess.STATUS_VALID and not reasons:
        reasons.append(f"python-chess finds it invalid ({_status_words(status)})")
    return reasons


def _status_words(status) -> str:
    names = [flag.name.lower().replace("_", " ") for flag in chess.Status if flag and flag in status]
    return ", ".join(names) or "invalid"


def piece_count(fen: str) -> int:
    return sum(ch.isalpha() for ch in fen.split()[0])


class _Probe:
    """Asks both oracles about one position; counts the calls."""

    def __init__(self, engine: Oracle, reference: Oracle, settings: ShrinkSettings):
        self.engine, self.reference = engine, reference
        self.cancelled, self.symptoms = settings.cancelled, settings.symptoms
        self.engine_calls = self.reference_calls = 0
        self.differing: list[str] = []     # moves whose counts differed in the last mismatch
        self.found: list[tuple] = []       # the symptoms of the last mismatch (with `symptoms`)

    def failure(self, pos: Position, depth: int) -> str | None:
        """'mismatch', 'crash' or None (they agree). OracleCancelled passes through."""
        request = Request.at(pos)              # a step's position, built, not read: one Request for both
        if self.symptoms is not None:
            return self._found(request, depth)
        try:
            self.engine_calls += 1
            answer = self.engine.answer(request, depth)
        except OracleCancelled:
            raise
        except EngineError:
            return "crash"
        self.reference_calls += 1
        theirs = self.reference.divide(request, depth)
        ours = answer.moves
        if ours is None:                   # an engine that prints only totals
            self.differing = []
            return None if answer.total == sum(theirs.values()) else "mismatch"
        if ours == theirs:
            return None
        # the cheapest differing subtrees first: the next divide costs about the larger count
        rows = {m: max(ours.get(m, 0), theirs.get(m, 0)) for m in set(ours) | set(theirs)
                if ours.get(m) != theirs.get(m)}
        self.differing = sorted(rows, key=lambda m: (rows[m], m))
        return "mismatch"

    def _found(self, request: Request, depth: int) -> str | None:
        """The finder on the position: what differs, and its symptoms."""
        from .finder import find_mismatch       # the finder, and its state trace, only when asked for
        report = find_mismatch(self.engine, self.reference, request, depth, cancelled=self.cancelled)
        self.engine_calls += report.engine_calls + report.trace_calls
        self.reference_calls += report.reference_calls
        if report.cancelled:
            raise OracleCancelled("shrink stopped")
        if report.failure is not None:
            report.raise_unless_finding()
            return "crash"
        if report.agree:
            return None
        top = report.levels[0].differing if report.levels else []
        self.differing = [r.move for r in sorted(top, key=lambda r: (max(r.engine or 0, r.reference or 0), r.move))]
        self.found = list(self.symptoms(report))
        return "mismatch"


def shrink(engine: Oracle, reference: Oracle, request: Request, depth: int = 1,
           settings: ShrinkSettings = ShrinkSettings()) -> Shrunk | None:
    """Shrink the position `request` reaches at `depth` as `settings` say; None when the engine
    does not fail there at all (or, with `settings.symptoms`, does not show the symptom). FenError for a request whose FEN does not
    stand as written (every step is a position the core accepts: none could keep what the engine
    was given); EngineError when the reference fails."""
    if request.warnings:
        raise FenError(f"cannot shrink a FEN that does not stand as written ({'; '.join(request.warnings)}): "
                       f"every step is a position the core accepts")
    start = request.position
    cancelled, symptom = settings.cancelled, settings.symptom
    probe = _Probe(engine, reference, settings)
    kind = probe.failure(start, depth)
    if kind is None:
        return None
    if settings.symptoms is not None and kind == "mismatch":
        if symptom is None:
            symptom = probe.found[0] if probe.found else ()
        elif symptom not in probe.found:
            return None                        # the start does not show it
    else:
        symptom = ()
    result = Shrunk(start.fen(), depth, start.fen(), depth, kind, unreachable=why_unreachable(start),
                    symptom=tuple(symptom), position=start)

    def done() -> Shrunk:
        result.engine_calls, result.reference_calls = probe.engine_calls, probe.reference_calls
        return result

    pos = start
    try:
        while True:
            differing = probe.differing if kind == "mismatch" else []
            for step, candidate, cand_depth in _candidates(pos, result.depth, settings.move_pieces, differing):
                if cancelled is not None and cancelled():
                    result.cancelled = True
                    return done()
                if probe.engine_calls >= settings.max_calls:
                    result.exhausted = True
                    return done()
                if not can_arise(candidate):
                    continue
                if probe.failure(candidate, cand_depth) == kind and (
                        not result.symptom or result.symptom in probe.found):
                    pos, result.fen, result.depth = candidate, candidate.fen(), cand_depth
                    result.position = candidate
                    result.unreachable = []
                    result.steps.append(step)
                    if settings.progress is not None:
                        settings.progress(step, result.fen)
                    break                  # start over from the simpler position
            else:
                return done()              # no single step keeps the failure
    except OracleCancelled:
        result.cancelled = True
        return done()


def _candidates(pos: Position, depth: int, move_pieces: bool,
                differing: list[str]) -> Iterator[tuple[str, Position, int]]:
    """Simpler neighbours of (pos, depth), the biggest simplifications first."""
    if depth > 1:
        # into the subtree whose count differs (at most two tries: they are the finder's path)
        for move in differing[:2]:
            if move in pos.legal_moves():
                yield f"play {move} (its subtree differs)", _valid_child(pos.push(move)), depth - 1
        yield f"depth {depth - 1}", pos, depth - 1
    removable = [sq for sq, p in enumerate(pos.board) if p and p not in "Kk"]
    # ddmin: whole chunks first, so a big position loses half its pieces in one call
    chunk = max(len(removable) // 2, 1) if removable else 0
    while chunk >= 1:
        for i in range(0, len(removable), chunk):
            squares = removable[i:i + chunk]
            candidate = _without(pos, squares)
            if candidate is not None:
                names = ", ".join(f"{pos.board[s]}{square_name(s)}" for s in squares)
                yield f"remove {names}", candidate, depth
        chunk //= 2
    for right in pos.castling:
        candidate = _valid(pos, castling=pos.castling.replace(right, ""))
        if candidate is not None:
            yield f"drop castling right {right}", candidate, depth
    if pos.ep_square is not None:
        candidate = _valid(pos, ep_square=None)
        if candidate is not None:
            yield f"drop en-passant square {square_name(pos.ep_square)}", candidate, depth
    if pos.halfmove != 0 or pos.fullmove != 1:
        candidate = _valid(pos, halfmove=0, fullmove=1)
        if candidate is not None:
            yield "reset the halfmove clock and move number", candidate, depth
    if not pos.white_to_move:
        candidate = mirror(pos)
        if candidate is not None:
            yield "mirror colours (white to move)", candidate, depth
    if move_pieces:
        yield from _closer(pos, depth)


def _valid(pos: Position, **changes) -> Position | None:
    """The position with `changes` (the clocks kept unless changed), if the core accepts it."""
    fields = {"board": pos.board, "white_to_move": pos.white_to_move, "castling": pos.castling,
              "ep_square": pos.ep_square, "halfmove": pos.halfmove, "fullmove": pos.fullmove,
              "castling_rooks": pos.castling_rooks, "chess960": pos.chess960}      # Chess960 stays Chess960
    fields.update(changes)
    try:
        return Position.from_fen(Position(**fields).fen())
    except FenError:
        return None


def _valid_child(pos: Position) -> Position:
    return Position.from_fen(Position(pos.board, pos.white_to_move, pos.castling, pos.ep_square,
                                      pos.halfmove, pos.fullmove, pos.castling_rooks, pos.chess960).fen())


def _rights_kept(pos: Position, board) -> str:
    """The castling rights of `pos` whose king and rook still stand on `board` where they did
    (the rook files are the position's own, so a Chess960 right keeps its rook)."""
    kept = ""
    for right, rook_file in zip("KQkq", pos.castling_rooks):
        if right in pos.castling:
            king, rook, rank = ("K", "R", 0) if right.isupper() else ("k", "r", 56)
            if board[rank + rook_file] == rook and board[pos.board.index(king)] == king:
                kept += right
    return kept


def _without(pos: Position, squares) -> Position | None:
    board = list(pos.board)
    for sq in squares:
        board[sq] = ""
    castling = _rights_kept(pos, board)
    ep = pos.ep_square
    if ep is not None:
        pawn = ep - 8 if pos.white_to_move else ep + 8
        if not board[pawn]:
            ep = None
    return _valid(pos, board=tuple(board), castling=castling, ep_square=ep)


def mirror(pos: Position) -> Position | None:
    """The same position with the colours swapped and the board flipped: perft is unchanged."""
    board = [""] * 64
    for sq, p in enumerate(pos.board):
        if p:
            board[sq ^ 56] = p.swapcase()
    castling = "".join(r for r in "KQkq" if r.swapcase() in pos.castling)
    ep = None if pos.ep_square is None else pos.ep_square ^ 56
    rooks = pos.castling_rooks[2:] + pos.castling_rooks[:2]
    return _valid(pos, board=tuple(board), white_to_move=not pos.white_to_move,
                  castling=castling, ep_square=ep, castling_rooks=rooks)


def _spread(board) -> int:
    """Sum of the king-step distances between every two pieces: moving pieces together lowers it,
    and a step is only offered when it does, so the walk always ends."""
    squares = [sq for sq, p in enumerate(board) if p]
    return sum(max(abs((a & 7) - (b & 7)), abs((a >> 3) - (b >> 3)))
               for i, a in enumerate(squares) for b in squares[i + 1:])


def _closer(pos: Position, depth: int):
    spread = _spread(pos.board)
    for sq, p in enumerate(pos.board):
        if not p:
            continue
        for df in (-1, 0, 1):
            for dr in (-1, 0, 1):
                f, r = (sq & 7) + df, (sq >> 3) + dr
                if (df or dr) and 0 <= f < 8 and 0 <= r < 8 and not pos.board[r * 8 + f]:
                    board = list(pos.board)
                    board[sq], board[r * 8 + f] = "", p
                    if _spread(board) >= spread:
                        continue
                    castling = _rights_kept(pos, board)
                    candidate = _valid(pos, board=tuple(board), castling=castling, ep_square=None)
                    if candidate is not None:
                        yield (f"move {p}{square_name(sq)} to {square_name(r * 8 + f)}", candidate, depth)
