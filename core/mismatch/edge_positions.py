"""Constructed positions where move generators go wrong, for `fuzz`.

    >>> [p.topic for p in edge_positions()][:3]
    ['en passant with the king on the rank', ...]

Each family is built square by square from the rule it tests, for white and (colours mirrored)
for black: en passant with the king on the rank, a pinned capturer, en passant answering a
check; castling with each transit square attacked by each piece type, the enemy king included;
rooks captured on their corners; capture-promotions giving check; double checks; every pin
direction with every kind of pinned piece. Every position is one the core accepts and that can
arise in a game, so a correct engine agrees with the reference on all of them.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

import chess

from ..errors import FenError
from ..board.position import Position
from .shrink import can_arise, mirror


@dataclass(frozen=True)
class EdgePosition:
    topic: str
    fen: str
    family: str = ""          # the family it was built by (the Chess960 ones: fuzz deals them in turn)


def _fen(pieces: dict, white: bool = True, castling: str = "-", ep: str = "-") -> str | None:
    board = chess.Board(None)
    for square, symbol in pieces.items():
        board.set_piece_at(chess.parse_square(square), chess.Piece.from_symbol(symbol))
    fen = f"{board.board_fen()} {'w' if white else 'b'} {castling} {ep} 0 1"
    try:
        pos = Position.from_fen(fen)
    except FenError:
        return None
    return pos.fen() if can_arise(pos) else None


def _en_passant():
    # white pawn on rank 5, black pawn just arrived beside it from rank 7 (ep square on rank 6)
    for pawn, victim, ep in (("c5", "d5", "d6"), ("e5", "d5", "d6"), ("b5", "a5", "a6"), ("g5", "h5", "h6")):
        for king, slider in (("a5", "h5"), ("h5", "a5")):
            for kind in "rq":
                if len({pawn, victim, king, slider}) == 4 and _between_on_rank(king, slider, pawn, victim):
                    yield ("en passant with the king on the rank",
                           _fen({king: "K", pawn: "P", victim: "p", slider: kind, "e8": "k"}, ep=ep))
    # the capturing pawn pinned on a diagonal: leaving it is illegal, capturing along it is legal
    yield ("en passant by a pinned capturer", _fen({"c5": "P", "d5": "p", "b6": "K", "e3": "b", "h8": "k"}, ep="d6"))
    yield ("en passant by a pinned capturer", _fen({"c5": "P", "d5": "p", "b4": "K", "e7": "b", "h8": "k"}, ep="d6"))
    yield ("en passant by a pinned capturer", _fen({"e5": "P", "d5": "p", "h2": "K", "b8": "q", "a1": "k"}, ep="d6"))
    # the captured pawn shields the king on a diagonal
    yield ("en passant uncovering a diagonal", _fen({"e5": "P", "d5": "p", "b3": "K", "g8": "b", "h8": "k"}, ep="d6")
           or _fen({"e5": "P", "d5": "p", "c4": "K", "f7": "b", "h8": "k"}, ep="d6"))
    # en passant answering a check: the double-pushed pawn gives check, capturing it is legal
    yield ("en passant answering a check", _fen({"e5": "P", "d5": "p", "e4": "K", "h8": "k"}, ep="d6"))
    yield ("en passant answering a check", _fen({"c5": "P", "d5": "p", "c4": "K", "h8": "k"}, ep="d6"))
    # ... a discovered check by the double push: en passant does not remove the checker
    yield ("en passant answering a check", _fen({"e5": "P", "d5": "p", "c4": "K", "d7": "b", "h8": "k"}, ep="d6")
           or _fen({"e5": "P", "d5": "p", "a4": "K", "d7": "b", "h8": "k"}, ep="d6"))
    # ... and the capture landing between a slider and the king
    yield ("en passant answering a check", _fen({"e5": "P", "d5": "p", "d1": "K", "d8": "r", "h8": "k"}, ep="d6"))


def _between_on_rank(king, slider, *squares) -> bool:
    lo, hi = sorted((chess.parse_square(king), chess.parse_square(slider)))
    return all(lo < chess.parse_square(s) < hi for s in squares)


_ATTACKERS = "pnbrqk"


def _castling():
    # white castles; for each square the king crosses or lands on (and b1, which may be attacked),
    # each black piece type placed where it attacks that square and nothing else that matters
    for side, rook, path in (("K", "h1", ("f1", "g1")), ("Q", "a1", ("d1", "c1", "b1"))):
        for target in path:
            for kind in _ATTACKERS:
                fen = _castle_attack(side, rook, target, kind)
                if fen:
                    yield (f"castling with {target} attacked by a {chess.piece_name(chess.Piece.from_symbol(kind).piece_type)}",
                           fen)


def _castle_attack(side: str, rook: str, target: str, kind: str) -> str | None:
    goal = chess.parse_square(target)
    for sq in chess.SQUARES:
        name = chess.square_name(sq)
        if name in ("e1", rook) or chess.square_rank(sq) == 0 and kind == "p":
            continue
        for king in (("h8", "a8", "e8") if kind != "k" else (None,)):
            pieces = {"e1": "K", rook: "R", name: kind}
            if king is not None:
                if king == name:
                    continue
                pieces[king] = "k"
            board = chess.Board(None)
            for s, p in pieces.items():
                board.set_piece_at(chess.parse_square(s), chess.Piece.from_symbol(p))
            if not board.attacks(sq) & chess.BB_SQUARES[goal] or board.is_attacked_by(chess.BLACK, chess.E1):
                continue
            others = [s for s in ("f1", "g1", "d1", "c1") if s != target]
            if any(board.is_attacked_by(chess.BLACK, chess.parse_square(s)) for s in others):
                continue
            fen = _fen(pieces, castling=side)
            if fen:
                return fen
    return None


def _corners():
    # a rook with its castling right that the opponent can capture on its corner
    yield ("a rook captured on its corner", _fen({"e8": "k", "h8": "r", "a8": "r", "e1": "K", "g2": "B", "g6": "N"},
                                                castling="kq"))
    yield ("a rook captured on its corner", _fen({"e8": "k", "h8": "r", "a8": "r", "e1": "K", "b2": "B", "c7": "N"},
                                                castling="kq"))
    yield ("a rook captured on its corner", _fen({"e1": "K", "h1": "R", "a1": "R", "e8": "k", "a7": "q"},
                                                white=False, castling="KQ"))
    # the rook moves away and back: the right is gone
    yield ("a rook that moves loses its right",
           _fen({"e1": "K", "h1": "R", "a1": "R", "e8": "k", "h8": "r", "a8": "r"}, castling="KQkq"))


def _promotions():
    yield ("capture-promotion giving check", _fen({"g7": "P", "h8": "r", "e8": "k", "a1": "K"}))
    yield ("capture-promotion giving check", _fen({"g7": "P", "f8": "r", "h6": "k", "a1": "K"}))
    yield ("under-promotion giving check", _fen({"b7": "P", "d7": "k", "a1": "K"}))
    yield ("under-promotion giving check", _fen({"g7": "P", "h8": "n", "e7": "k", "a1": "K"}))
    yield ("promotion out of check", _fen({"e7": "P", "f8": "r", "c8": "K", "d1": "k"}))


def _double_checks():
    yield ("double check", _fen({"e8": "k", "d6": "N", "e1": "R", "a1": "K"}, white=False))
    yield ("double check", _fen({"e8": "k", "b5": "B", "e1": "R", "h1": "K", "f8": "n"}, white=False))
    yield ("double check", _fen({"e8": "k", "f6": "N", "a4": "B", "h1": "K", "d8": "q"}, white=False))


_DIRECTIONS = ((1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (-1, -1), (1, -1), (-1, 1))


def _pins():
    king = chess.D4
    for df, dr in _DIRECTIONS:
        diagonal = df and dr
        pinner = "b" if diagonal else "r"
        for pinned in "PNBRQ":
            f, r = chess.square_file(king), chess.square_rank(king)
            at = [(f + df * i, r + dr * i) for i in (1, 2, 3)]
            if not all(0 <= x < 8 and 0 <= y < 8 for x, y in at):
                continue
            pinned_sq = chess.square_name(chess.square(*at[0]))
            pinner_sq = chess.square_name(chess.square(*at[2]))
            pieces = {"d4": "K", pinned_sq: pinned, pinner_sq: pinner, "h8" if pinner_sq != "h8" else "a8": "k"}
            # something for the pinned piece to capture off its line and on it
            side = chess.square_name(chess.square(*at[1])) if pinned != "P" else None
            if side:
                pieces[side] = "n"
            fen = _fen(pieces)
            if fen:
                direction = "rank" if dr == 0 else "file" if df == 0 else "diagonal"
                yield (f"{chess.piece_name(chess.Piece.from_symbol(pinned).piece_type)} pinned on a {direction}", fen)


# --- Chess960 ---------------------------------------------------------------------------------
# White castles from a king on b1..g1 with rooks anywhere beside it: the king goes to g1 (c1), the
# rook to f1 (d1), every square either crosses empty but for the two of them, every square the king
# stands on or crosses unattacked with both lifted. Each layout below is played as Chess960.

_FILES = "abcdefgh"


def _fen960(pieces: dict, castling: str) -> str | None:
    """A Chess960 position (white to move) with a black king added where it is safe, as the
    core writes it (Shredder-FEN where X-FEN would read as standard chess); None if none fits."""
    for king in ("h8", "a8", "e8", "d8", "b8", "g8", "c8", "f8", "h6", "a6"):
        if king in pieces:
            continue
        board = chess.Board(None, chess960=True)
        for square, symbol in {**pieces, king: "k"}.items():
            board.set_piece_at(chess.parse_square(square), chess.Piece.from_symbol(symbol))
        if board.is_attacked_by(chess.WHITE, chess.parse_square(king)):
            continue
        try:
            pos = Position.from_fen(f"{board.board_fen()} w {castling} - 0 1", chess960=True)
        except FenError:
            return None
        if can_arise(pos):
            return pos.fen()
    return None


def _paths(king: int, rook: int) -> tuple[set, set]:
    """(files the king stands on or crosses, files that must be empty) for castling with the
    king on file `king` and the rook on `rook`, both on the first rank."""
    kingside = rook > king
    king_to, rook_to = (6, 5) if kingside else (2, 3)
    king_path = set(range(min(king, king_to), max(king, king_to) + 1))
    rook_path = set(range(min(rook, rook_to), max(rook, rook_to) + 1))
    return king_path, (king_path | rook_path) - {king, rook}


def _pairs():
    """(king file, rook file, right letter) of every white castling layout."""
    for king in range(1, 7):
        for rook in range(8):
            if rook != king:
                yield king, rook, _FILES[rook].upper()


def _first(*files: int) -> str:
    return ", ".join(f"{_FILES[f]}1" for f in files)


def _chess960_layouts():
    # both rights, every king file and every pair of rook files around it: the king or a rook
    # already on its target square, a rook between the king and its target, king and rook
    # swapping squares (king f1, rook g1) all come up
    for king in range(1, 7):
        for qrook in range(king):
            for krook in range(king + 1, 8):
                pieces = {f"{_FILES[king]}1": "K", f"{_FILES[qrook]}1": "R", f"{_FILES[krook]}1": "R"}
                yield (f"Chess960 castling, king {_first(king)}, rooks {_first(qrook)} and {_first(krook)}",
                       _fen960(pieces, _FILES[krook].upper() + _FILES[qrook].upper()))


def _chess960_blocked():
    # a piece (a knight of either colour) on a square the king must cross, and on one only the
    # rook must cross (beyond the king, or the rook's target)
    for n, (king, rook, right) in enumerate(_pairs()):
        king_path, empty = _paths(king, rook)
        crossed = sorted(empty & king_path)
        rook_only = sorted(empty - king_path)
        for square, where in ((crossed[len(crossed) // 2] if crossed else None, "the king crosses"),
                              (rook_only[0] if rook_only else None, "only the rook crosses")):
            if square is not None:
                pieces = {f"{_FILES[king]}1": "K", f"{_FILES[rook]}1": "R", f"{_FILES[square]}1": "Nn"[n % 2]}
                yield (f"Chess960 castling (king {_first(king)}, rook {_first(rook)}) with a piece on "
                       f"{_first(square)}, which {where}", _fen960(pieces, right))


def _chess960_attacked():
    # the king in check, its target attacked, a square between attacked, a square only the rook
    # crosses attacked, the rook's own square attacked: each by a black rook up the file or a
    # knight, attacking that one of the squares castling looks at
    for king, rook, right in _pairs():
        king_path, empty = _paths(king, rook)
        king_to = 6 if rook > king else 2
        between = sorted(king_path - {king, king_to})
        rook_only = sorted(empty - king_path)
        chosen = [(king, "the king in check"), (rook, "the rook's own square attacked")]
        if king_to != king:
            chosen.append((king_to, "the king's target attacked"))
        if between:
            chosen.append((between[len(between) // 2], "a square the king crosses attacked"))
        if rook_only:
            chosen.append((rook_only[0], "a square only the rook crosses attacked"))
        watched = king_path | empty | {rook}
        for square, words in chosen:
            pieces = {f"{_FILES[king]}1": "K", f"{_FILES[rook]}1": "R"}
            at = _attacker_onto(square, watched, pieces)
            if at is not None:
                pieces[at[0]] = at[1]
                yield (f"Chess960 castling (king {_first(king)}, rook {_first(rook)}) with {words}",
                       _fen960(pieces, right))


def _attacker_onto(square: int, watched: set, pieces: dict) -> tuple[str, str] | None:
    """(where, piece): a black rook up the file or a knight that attacks first-rank file
    `square` and no other file of `watched` (the squares castling looks at)."""
    board = chess.Board(None)
    for name, symbol in pieces.items():
        board.set_piece_at(chess.parse_square(name), chess.Piece.from_symbol(symbol))
    candidates = [(f"{_FILES[square]}5", "r")] + [
        (f"{_FILES[square + df]}{1 + dr}", "n") for df, dr in ((1, 2), (-1, 2), (2, 1), (-2, 1))
        if 0 <= square + df < 8]
    for name, symbol in candidates:
        if name in pieces:
            continue
        board.set_piece_at(chess.parse_square(name), chess.Piece.from_symbol(symbol))
        hit = {f for f in watched if board.is_attacked_by(chess.BLACK, chess.square(f, 0))}
        board.remove_piece_at(chess.parse_square(name))
        if hit == {square}:
            return name, symbol
    return None


def _chess960_pinned_rook():
    # a black rook or queen on the first rank behind the castling rook, seeing a square the king
    # must cross only through that rook: castling is illegal, and a generator that tests the
    # king's squares with the rook still in place castles (king g1, rook b1, a black rook on a1)
    for king, rook, right in _pairs():
        king_path, empty = _paths(king, rook)
        for file in range(8):
            if file in (king, rook) or file in empty or (file > rook) != (rook > king):
                continue
            for symbol in "rq":
                pieces = {f"{_FILES[king]}1": "K", f"{_FILES[rook]}1": "R", f"{_FILES[file]}1": symbol}
                if _seen_through_rook(pieces, king_path, f"{_FILES[rook]}1"):
                    yield (f"Chess960 castling (king {_first(king)}, rook {_first(rook)}) with the rook "
                           f"pinned along the back rank by a {chess.piece_name(chess.Piece.from_symbol(symbol).piece_type)} "
                           f"on {_first(file)}", _fen960(pieces, right))


def _seen_through_rook(pieces: dict, king_path: set, rook: str) -> bool:
    """Black attacks a file of `king_path` on the first rank once the rook is lifted, and none
    while it stands."""
    board = chess.Board(None)
    for name, symbol in pieces.items():
        board.set_piece_at(chess.parse_square(name), chess.Piece.from_symbol(symbol))
    attacked = lambda: any(board.is_attacked_by(chess.BLACK, chess.square(f, 0)) for f in king_path)  # noqa: E731
    if attacked():
        return False
    board.remove_piece_at(chess.parse_square(rook))
    return attacked()


def _mirror960(fen: str) -> str | None:
    """The position with the colours swapped and the board flipped, its rights' rook files kept
    (its topic's squares are flipped by the caller)."""
    board = chess.Board(fen, chess960=True).mirror()
    try:
        pos = Position.from_fen(board.fen(), chess960=True)
    except FenError:
        return None
    return pos.fen() if can_arise(pos) else None


@lru_cache(maxsize=1)
def chess960_edge_positions() -> tuple[EdgePosition, ...]:
    """The Chess960 castling positions, white to move and mirrored, without repeats: every
    layout of king and rooks (the king or the rook already on its target square, the rook
    between the king and its target, the two swapping squares), a piece on a square either
    crosses, each square attacked, the castling rook pinned along the first rank."""
    out, seen = [], set()
    for family in (_chess960_layouts, _chess960_blocked, _chess960_attacked, _chess960_pinned_rook):
        for topic, fen in family():
            if not fen:
                continue
            mirrored = re.sub(r"\b([a-h])1\b", r"\g<1>8", topic)
            for variant, words in ((fen, topic), (_mirror960(fen), mirrored)):
                if variant and variant not in seen:
                    seen.add(variant)
                    out.append(EdgePosition(words, variant, family.__name__.lstrip("_")))
    return tuple(out)


@lru_cache(maxsize=1)
def edge_positions() -> tuple[EdgePosition, ...]:
    """Every constructed position, white to move and mirrored, without repeats."""
    out, seen = [], set()
    for family in (_en_passant, _castling, _corners, _promotions, _double_checks, _pins):
        for topic, fen in family():
            if not fen:
                continue
            for variant in (fen, mirror(Position.from_fen(fen)).fen()):
                if variant not in seen:
                    seen.add(variant)
                    out.append(EdgePosition(topic, variant))
    return tuple(out)
