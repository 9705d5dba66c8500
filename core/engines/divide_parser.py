"""The one tolerant reader of divide output, for every kind of engine.

    >>> parse_divide(["e2e4: 20", "g1f3: 20", "", "Nodes searched: 40"], START).moves
    {'e2e4': 20, 'g1f3': 20}

Understood: `move count` lines with `:`, `=`, `-` or spaces between (more words after the count
are ignored, a `1.` numbering before the move too); moves in UCI (any case, `e7e8=Q`), in SAN
(`Nf3`, resolved against the position) or castling written king-takes-rook (`e1h1`, turned into
the position's notation); a JSON map of moves; total lines (`Nodes searched: N`, `Total: N |
Time ...`, `Perft 3: N`, `Nodes: N`, or a bare number as perftree prints it) or none, when the
sum is used with a note. Anything else is ignored and listed in `ignored`. A promotion printed
without its piece letter is ambiguous and is reported, never guessed. An engine that prints only
a total gives `moves=None`.
"""
from __future__ import annotations

import json
import re
from dataclasses import dataclass, field

import chess

from ..errors import EngineError
from .process import UNREADABLE, quoted, unreadable

_UCI = r"[a-hA-H][1-8][-x]?[a-hA-H][1-8](?:=?[nbrqNBRQ])?"
_SAN = r"(?:O-O-O|O-O|0-0-0|0-0|[NBRQK][a-h]?[1-8]?x?[a-h][1-8]|[a-h](?:x[a-h])?[1-8](?:=?[NBRQ])?)[+#]?"
_MOVE_LINE = re.compile(rf"^(?:\d+\s*[.)]\s*)?(?P<move>{_UCI}|{_SAN})\s*(?:[:=\-]\s*|\s+)(?P<count>\d+)"
                        rf"(?:[\s,;|(].*)?$")
TOTAL_LINE = re.compile(r"^(?:total(?:\s+nodes)?|nodes(?:\s+searched)?|leaf\s+nodes|count|"
                         r"perft(?:\s*\(\s*\d+\s*\)|\s+\d+(?=\s*[:=]))?)\s*[:=]?\s*(?P<n>\d+)\b", re.I)
_BARE_NUMBER = re.compile(r"^\d+$")
_JSON_TOTAL_KEYS = ("total", "nodes", "count", "perft")


@dataclass
class ParsedDivide:
    """`moves`: {uci: count} in the engine's order, or None when it printed only a total;
    `total`: the total it printed (None if none); `ignored`: lines not understood;
    `notes`: what the reader had to assume."""
    moves: dict[str, int] | None
    total: int | None
    ignored: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    @property
    def nodes(self) -> int:
        return self.total if self.moves is None else sum(self.moves.values())


def parse_divide(lines, fen: str, name: str = "engine", what: str = "the request",
                 chess960: bool = False) -> ParsedDivide:
    """Read an engine's answer for the position `fen` (the position divided, moves played).
    EngineError for an answer that cannot be taken as a divide: duplicates, a total that does
    not match the moves, an ambiguous promotion, nothing understood at all."""
    lines = [x.rstrip("\r\n") for x in lines]
    board = chess.Board(fen, chess960=chess960)
    rows: list[tuple[str, int, str]] = []
    ignored: list[str] = []
    total = total_line = None
    text = "\n".join(lines).strip()
    if text.startswith("{"):
        rows, total = _json_rows(text, name, what)
        total_line = text
    else:
        after_blank = False
        for raw in lines:
            line = raw.strip()
            if not line:
                after_blank = True
                continue
            match = _MOVE_LINE.match(line)
            if match:
                rows.append((match.group("move"), int(match.group("count")), line))
                continue
            number = TOTAL_LINE.match(line) or (_BARE_NUMBER.match(line) and (rows or after_blank)
                                                 and re.match(r"(?P<n>\d+)", line))
            if number and total is None:
                total, total_line = int(number.group("n")), line
                continue
            _refuse_corrupt(line, name, what)
            ignored.append(line)
    notes: list[str] = []
    if not rows:
        if total is not None:
            return ParsedDivide(None, total, ignored, notes)
        if ignored:
            raise EngineError(f"{name}: nothing understood in the answer to {what}: {len(ignored)} "
                              f"line{'s' if len(ignored) != 1 else ''}, the first {quoted(ignored[0])} "
                              f"(expected 'move count' lines or a total)")
        return ParsedDivide({}, None, ignored, ["no output: taken as no moves"])
    moves: dict[str, int] = {}
    bare_promotions: dict[str, int] = {}
    for written, count, line in rows:
        uci = _to_uci(board, written, name, what, line, chess960, notes)
        if _is_bare_promotion(board, uci):
            bare_promotions[uci] = bare_promotions.get(uci, 0) + 1
        if uci in moves and uci not in bare_promotions:
            raise EngineError(f"{name}: move {uci} listed twice in the answer to {what}: {line!r}")
        moves[uci] = moves.get(uci, 0) + count
    for uci, times in bare_promotions.items():
        raise EngineError(f"{name}: ambiguous promotion {uci} (no piece letter) listed {times} time"
                          f"{'s' if times != 1 else ''} in the answer to {what}: which piece each "
                          f"count is for cannot be told; print it as {uci}q, {uci}r, {uci}b, {uci}n")
    if total is not None and total != sum(moves.values()):
        raise EngineError(f"{name}: the moves add up to {sum(moves.values())} but the engine reports "
                          f"{total} in the answer to {what}: {total_line!r}")
    if total is None:
        notes.append("no total line: the sum of the moves is used")
    return ParsedDivide(moves, total, ignored, notes)


def _refuse_corrupt(line: str, name: str, what: str):
    """A move or total line with bytes in it that are not text (a NUL, bytes that are not UTF-8)
    cannot be ignored like other noise: leaving its move out would report it as not generated."""
    bad = unreadable(line)
    if bad:
        clean = UNREADABLE.sub("", line).strip()
        if _MOVE_LINE.match(clean) or TOTAL_LINE.match(clean) or re.search(r"[:=]\s*\d+$", clean):
            raise EngineError(f"{name}: a line of the answer to {what} holds {bad}: {quoted(line)}; "
                              f"its count cannot be trusted")


def _json_rows(text: str, name: str, what: str):
    try:
        data = json.loads(text)
    except ValueError as e:
        raise EngineError(f"{name}: the answer to {what} looks like JSON but is not: {e}") from None
    total = None
    for key in ("moves", "divide"):
        if isinstance(data.get(key), dict):
            total = next((data[k] for k in _JSON_TOTAL_KEYS if isinstance(data.get(k), int)), None)
            data = data[key]
            break
    rows = []
    for move, count in data.items():
        if move.lower() in _JSON_TOTAL_KEYS and isinstance(count, int):
            total = count
        elif isinstance(count, int) and not isinstance(count, bool):
            rows.append((move, count, f"{move!r}: {count}"))
        else:
            raise EngineError(f"{name}: JSON answer to {what}: {move!r} maps to {count!r}, not a count")
    return rows, total


def _to_uci(board: chess.Board, written: str, name: str, what: str, line: str, chess960: bool,
            notes: list[str]) -> str:
    if re.fullmatch(_UCI, written):
        uci = re.sub(r"[-x=]", "", written).lower()
        if not chess960:
            uci = _king_takes_rook(board, uci, notes)
        return uci
    try:
        return board.parse_san(written).uci()
    except ValueError:
        pass
    # an engine may generate an illegal move: find it among the pseudo-legal ones by its SAN
    stripped = written.rstrip("+#").replace("0", "O")
    for move in board.generate_pseudo_legal_moves():
        if board.san(move).rstrip("+#") == stripped:
            return move.uci()
    raise EngineError(f"{name}: cannot read the SAN move {written!r} in {board.fen()} "
                      f"in the answer to {what}: {line!r}")


def _king_takes_rook(board: chess.Board, uci: str, notes: list[str]) -> str:
    """e1h1 -> e1g1 when our king is on e1 and our rook on h1: standard chess writes castling
    as the king's two-square move."""
    start, to = chess.parse_square(uci[:2]), chess.parse_square(uci[2:4])
    king, rook = board.piece_at(start), board.piece_at(to)
    if (king and rook and king.piece_type == chess.KING and rook.piece_type == chess.ROOK
            and king.color == rook.color == board.turn and chess.square_rank(start) == chess.square_rank(to)):
        file = 6 if chess.square_file(to) > chess.square_file(start) else 2
        normal = chess.square_name(chess.square(file, chess.square_rank(start)))
        note = "castling written king-takes-rook (e1h1) read as the king's move (e1g1)"
        if note not in notes:
            notes.append(note)
        return uci[:2] + normal
    return uci


def _is_bare_promotion(board: chess.Board, uci: str) -> bool:
    if len(uci) != 4:
        return False
    piece = board.piece_at(chess.parse_square(uci[:2]))
    last = 7 if board.turn == chess.WHITE else 0
    return (piece is not None and piece.piece_type == chess.PAWN and piece.color == board.turn
            and chess.square_rank(chess.parse_square(uci[2:])) == last)
