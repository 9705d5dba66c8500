"""A FEN's fields read one at a time on a board of 64 piece letters (a1 = 0, '' for an empty
square), each error naming its field: the placement, the castling field (X-FEN's KQkq and
Shredder-FEN's rook files, with the kings' and rooks' files on their first rank they are read
against), the en-passant square and the two counters; squares by name. core.board.position
builds a Position from them and writes its FEN with them.
"""
from __future__ import annotations

from ..errors import FenError

FILES = "abcdefgh"
PIECES = "PNBRQKpnbrqk"
# castling letter -> (relative rights bit for white-to-move, king square, rook square, colour)
# of standard chess; in Chess960 the letter names the side of the king, a Position's `castling_rooks` the file
CASTLING_RIGHTS = {"K": (1, 4, 7, "w"), "Q": (2, 4, 0, "w"), "k": (4, 60, 63, "b"), "q": (8, 60, 56, "b")}
STANDARD_ROOKS = (7, 0, 7, 0)     # rook files of K, Q, k, q


def square_name(sq: int) -> str:
    return FILES[sq & 7] + str((sq >> 3) + 1)


def parse_square(name: str) -> int:
    if len(name) != 2 or name[0] not in FILES or name[1] not in "12345678":
        raise ValueError(f"not a square: {name!r}")
    return FILES.index(name[0]) + 8 * (int(name[1]) - 1)


def placement(board) -> str:
    """The FEN's first field from 64 piece letters (a1 = 0, '' for an empty square)."""
    ranks = []
    for r in range(7, -1, -1):
        row, empty = "", 0
        for f in range(8):
            p = board[r * 8 + f]
            if p:
                row += (str(empty) if empty else "") + p
                empty = 0
            else:
                empty += 1
        ranks.append(row + (str(empty) if empty else ""))
    return "/".join(ranks)


def read_placement(text: str) -> list:
    where = "FEN field 1 (piece placement)"
    ranks = text.split("/")
    if len(ranks) != 8:
        raise FenError(f"{where}: expected 8 ranks separated by '/', got {len(ranks)}")
    board = [""] * 64
    for i, row in enumerate(ranks):
        r = 7 - i
        f = 0
        for ch in row:
            if ch.isdigit():                 # a 9 is a miscount, reported below as such
                f += int(ch)
            elif ch in PIECES:
                if f < 8:
                    board[r * 8 + f] = ch
                f += 1
            else:
                raise FenError(f"{where}: unknown piece {ch!r} in rank {r + 1} ({row!r})")
        if f != 8:
            raise FenError(f"{where}: rank {r + 1} ({row!r}) describes {f} squares, expected 8")
    for colour, king in (("white", "K"), ("black", "k")):
        count = board.count(king)
        if count != 1:
            raise FenError(f"{where}: {colour} has {count} kings, expected exactly 1")
    for sq in list(range(8)) + list(range(56, 64)):
        if board[sq] in ("P", "p"):
            colour = "white" if board[sq] == "P" else "black"
            raise FenError(f"{where}: {colour} pawn on {square_name(sq)} "
                           f"(pawns cannot stand on the first or last rank)")
    return board


def king_file(board: list, white: bool):
    """File of the king on its first rank, None when it is elsewhere."""
    rank = 0 if white else 56
    king = "K" if white else "k"
    for f in range(8):
        if board[rank + f] == king:
            return f
    return None


def rook_files(board: list, white: bool) -> list:
    rank, rook = (0, "R") if white else (56, "r")
    return [f for f in range(8) if board[rank + f] == rook]


def outermost_rook(board: list, white: bool, kingside: bool):
    """File of the outermost rook on that side of the king on its first rank (X-FEN's K/Q)."""
    king = king_file(board, white)
    if king is None:
        return None
    side = [f for f in rook_files(board, white) if (f > king) == kingside and f != king]
    return (max(side) if kingside else min(side)) if side else None


def standard_layout(board, castling: str, rooks: tuple) -> bool:
    """Every right present is played by a king on e1/e8 with a rook on its standard corner."""
    for letter, rook_file, std in zip("KQkq", rooks, STANDARD_ROOKS):
        if letter in castling and (rook_file != std or king_file(board, letter.isupper()) != 4):
            return False
    return True


def names_chess960(text: str, board: list) -> bool:
    """A castling field that names rook files, or a right whose king stands on its first rank
    off the e-file (standard chess cannot hold it; a king elsewhere has no right at all)."""
    for ch in text:
        if ch.upper() in "ABCDEFGH":
            return True
        if ch in "KQkq":
            king = king_file(board, ch.isupper())
            if king is not None and king != 4:
                return True
    return False


def read_castling(text: str, board: list, chess960: bool):
    """(rights as a KQkq subset, rook files of K Q k q, style read: 'xfen' or 'shredder').
    In standard chess (not `chess960`) K Q k q need the king on e1/e8 and the corner rook."""
    where = "FEN field 3 (castling)"
    if text == "-":
        return "", STANDARD_ROOKS, "xfen"
    rooks = list(STANDARD_ROOKS)
    seen = ""
    for ch in text:
        if ch.upper() not in "KQABCDEFGH":
            raise FenError(f"{where}: unexpected {ch!r} in {text!r} (expected '-', letters from KQkq "
                           f"or, for Chess960, rook files A-H / a-h)")
        white = ch.isupper()
        side, rank = ("white", 1) if white else ("black", 8)
        king = king_file(board, white)
        if ch in "KQkq":
            kingside = ch.upper() == "K"
            standard = CASTLING_RIGHTS[ch]
            if chess960:
                rook = outermost_rook(board, white, kingside)
            else:
                rook = standard[2] & 7 if king == 4 and board[standard[2]] == ("R" if white else "r") else None
            if king is None or rook is None:
                raise FenError(f"{where}: {ch!r} needs the {side} king on {square_name(standard[1])} "
                               f"and a {side} rook on {square_name(standard[2])} (or, in Chess960, "
                               f"the king on rank {rank} and a rook on its {'h' if kingside else 'a'}-side)")
        else:
            rook = FILES.index(ch.lower())
            if king is None or rook not in rook_files(board, white) or rook == king:
                raise FenError(f"{where}: {ch!r} needs the {side} king on rank {rank} and a {side} rook "
                               f"on {ch.lower()}{rank}")
            kingside = rook > king
        letter = ("K" if kingside else "Q") if white else ("k" if kingside else "q")
        if letter in seen:
            raise FenError(f"{where}: {text!r} gives {side} two {'king' if kingside else 'queen'}-side "
                           f"castling rights ({ch!r} repeats one)")
        seen += letter
        rooks["KQkq".index(letter)] = rook
    style = "shredder" if all(ch.upper() in "ABCDEFGH" for ch in text) else "xfen"
    castling = "".join(letter for letter in "KQkq" if letter in seen)
    return castling, tuple(rooks), style


def read_en_passant(text: str, board: list, white: bool):
    where = "FEN field 4 (en passant)"
    if text == "-":
        return None
    try:
        sq = parse_square(text)
    except ValueError:
        raise FenError(f"{where}: expected '-' or a square like e3 or d6, got {text!r}") from None
    rank = 6 if white else 3
    if sq >> 3 != rank - 1:
        raise FenError(f"{where}: {text} is not on rank {rank}, where a double push by "
                       f"{'black' if white else 'white'} would leave it")
    pawn_sq, origin = (sq - 8, sq + 8) if white else (sq + 8, sq - 8)
    pawn = "p" if white else "P"
    if board[pawn_sq] != pawn or board[sq] or board[origin]:
        colour = "black" if white else "white"
        raise FenError(f"{where}: {text} needs a {colour} pawn on {square_name(pawn_sq)} that has just "
                       f"moved from {square_name(origin)}, with {text} and {square_name(origin)} empty")
    return sq


def read_counter(fields, index, name, default, minimum):
    if len(fields) <= index:
        return default
    text = fields[index]
    if not text.isdigit() or int(text) < minimum:
        raise FenError(f"FEN field {index + 1} ({name}): expected a non-negative integer, got {text!r}")
    return int(text)
