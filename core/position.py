"""Positions: FEN in and out with field-by-field validation, UCI moves, and the
conversion to the kernels' side-to-move-at-the-bottom bitboard tuple.

    >>> pos = Position.from_fen(START_FEN).play("e2e4 e7e5")
    >>> pos.fen()
    'rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq e6 0 2'
"""
from __future__ import annotations

import re
from dataclasses import dataclass

import numpy as np

from . import kernels
from .errors import FenError, MoveError
from .kernels.board import full_key, make
from .kernels.movegen import king_safety
from .kernels.perft import legal_moves as _legal_moves

START_FEN = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
FILES = "abcdefgh"
PIECES = "PNBRQKpnbrqk"
_PROMOTION = "nbrq"          # kernel promotion code -> UCI letter
_UCI = re.compile(r"^[a-h][1-8][a-h][1-8][nbrq]?$")
# castling letter -> (relative rights bit for white-to-move, king square, rook square, colour)
_CASTLING = {"K": (1, 4, 7, "w"), "Q": (2, 4, 0, "w"), "k": (4, 60, 63, "b"), "q": (8, 60, 56, "b")}


def square_name(sq: int) -> str:
    return FILES[sq & 7] + str((sq >> 3) + 1)


def parse_square(name: str) -> int:
    if len(name) != 2 or name[0] not in FILES or name[1] not in "12345678":
        raise ValueError(f"not a square: {name!r}")
    return FILES.index(name[0]) + 8 * (int(name[1]) - 1)


def _u64(bits: int) -> np.uint64:
    return np.uint64(bits & 0xFFFFFFFFFFFFFFFF)


def as_state(values) -> tuple:
    """A kernel state again: numba hands uint64 tuples back to Python as ints, and
    ints above 2**63 cannot be passed back in."""
    return tuple(_u64(int(v)) for v in values)


@dataclass(frozen=True)
class Position:
    """A chess position as a FEN describes it. `board[sq]` is a piece letter or ''."""
    board: tuple
    white_to_move: bool
    castling: str            # subset of "KQkq" in that order, "" for none
    ep_square: int | None
    halfmove: int = 0
    fullmove: int = 1

    # --- FEN ---------------------------------------------------------------
    @classmethod
    def from_fen(cls, fen: str) -> "Position":
        """Parse and validate; FenError names the field that is wrong."""
        fields = fen.split()
        if len(fields) < 4 or len(fields) > 6:
            raise FenError(f"FEN needs 4 to 6 fields (placement, side to move, castling, en passant, "
                           f"halfmove clock, fullmove number), got {len(fields)}: {fen!r}")
        board = _parse_placement(fields[0])
        if fields[1] not in ("w", "b"):
            raise FenError(f"FEN field 2 (side to move): expected 'w' or 'b', got {fields[1]!r}")
        white = fields[1] == "w"
        castling = _parse_castling(fields[2], board)
        ep = _parse_ep(fields[3], board, white)
        halfmove = _parse_counter(fields, 4, "halfmove clock", 0, 0)
        fullmove = _parse_counter(fields, 5, "fullmove number", 1, 0)
        pos = cls(tuple(board), white, castling, ep, halfmove, max(fullmove, 1))
        pos._check_not_capturable_king()
        return pos

    def fen(self) -> str:
        ranks = []
        for r in range(7, -1, -1):
            row, empty = "", 0
            for f in range(8):
                p = self.board[r * 8 + f]
                if p:
                    row += (str(empty) if empty else "") + p
                    empty = 0
                else:
                    empty += 1
            ranks.append(row + (str(empty) if empty else ""))
        ep = square_name(self.ep_square) if self.ep_square is not None else "-"
        return (f"{'/'.join(ranks)} {'w' if self.white_to_move else 'b'} {self.castling or '-'} "
                f"{ep} {self.halfmove} {self.fullmove}")

    def __str__(self) -> str:
        return self.fen()

    # --- kernel state --------------------------------------------------------
    def state(self) -> tuple:
        """The kernels' tuple (see core.kernels.board), mirrored when black is to move."""
        flip = 0 if self.white_to_move else 56
        bb = {c: 0 for c in "PNDOK"}
        us = occ = 0
        mine = str.isupper if self.white_to_move else str.islower
        for sq, p in enumerate(self.board):
            if not p:
                continue
            bit = 1 << (sq ^ flip)
            occ |= bit
            if mine(p):
                us |= bit
            kind = p.upper()
            if kind in "PNK":
                bb[kind] |= bit
            if kind in "BQ":
                bb["D"] |= bit
            if kind in "RQ":
                bb["O"] |= bit
        rights = 0
        for letter in self.castling:
            bit = _CASTLING[letter][0]
            rights |= bit if self.white_to_move else ((bit >> 2) | (bit << 2)) & 15
        ep = (self.ep_square ^ flip) if self.ep_square is not None else 0
        s = (_u64(bb["P"]), _u64(bb["N"]), _u64(bb["D"]), _u64(bb["O"]), _u64(bb["K"]), _u64(us),
             _u64(occ), _u64(ep), _u64(rights), _u64(0), _u64(0 if self.white_to_move else 1))
        key = np.uint64(full_key(kernels.table(), s))
        return s[:9] + (key,) + s[10:]

    @classmethod
    def from_state(cls, s: tuple, halfmove: int = 0, fullmove: int = 1) -> "Position":
        P, N, D, O, K, us, occ, ep, cr, key, stm = (int(x) for x in s)
        white = stm == 0
        flip = 0 if white else 56
        board = [""] * 64
        for sq in range(64):
            bit = 1 << sq
            if not occ & bit:
                continue
            if P & bit:
                letter = "P"
            elif N & bit:
                letter = "N"
            elif K & bit:
                letter = "K"
            elif D & bit and O & bit:
                letter = "Q"
            elif D & bit:
                letter = "B"
            else:
                letter = "R"
            ours = bool(us & bit)
            board[sq ^ flip] = letter if ours == white else letter.lower()
        if not white:
            cr = ((cr >> 2) | (cr << 2)) & 15
        castling = "".join(letter for letter in "KQkq" if cr & _CASTLING[letter][0])
        return cls(tuple(board), white, castling, (ep ^ flip) if ep else None, halfmove, fullmove)

    @property
    def key(self) -> int:
        """Polyglot Zobrist key."""
        return int(self.state()[9])

    # --- moves -------------------------------------------------------------
    def _kernel_moves(self):
        return _legal_moves(kernels.table(), self.state())

    def move_to_uci(self, m: int) -> str:
        m = int(m)
        flip = 0 if self.white_to_move else 56
        uci = square_name((m & 63) ^ flip) + square_name(((m >> 6) & 63) ^ flip)
        if (m >> 12) & 3 == 1:
            uci += _PROMOTION[(m >> 14) & 3]
        return uci

    def legal_moves(self) -> list[str]:
        """Legal moves in UCI notation, generated by the core."""
        return [self.move_to_uci(m) for m in self._kernel_moves()]

    def kernel_move(self, uci: str) -> int:
        """The kernel's 16-bit move for a UCI string; MoveError when malformed or illegal."""
        text = uci.strip().lower()
        if not _UCI.match(text):
            raise MoveError(f"malformed move {uci!r}: expected UCI like e2e4 or e7e8q")
        for m in self._kernel_moves():
            if self.move_to_uci(m) == text:
                return int(m)
        raise MoveError(f"illegal move {uci!r} in position {self.fen()}")

    def push(self, uci: str) -> "Position":
        """The position after one legal UCI move."""
        m = self.kernel_move(uci)
        frm, to = m & 63, (m >> 6) & 63
        if not self.white_to_move:
            frm, to = frm ^ 56, to ^ 56
        mover = self.board[frm]
        capture = bool(self.board[to]) or (m >> 12) & 3 == 2
        halfmove = 0 if mover in "Pp" or capture else self.halfmove + 1
        fullmove = self.fullmove + (0 if self.white_to_move else 1)
        child = make(kernels.table(), self.state(), np.uint16(m))
        return Position.from_state(child, halfmove, fullmove)

    def play(self, moves) -> "Position":
        """Play a sequence of UCI moves (a list or a space-separated string)."""
        if isinstance(moves, str):
            moves = moves.split()
        pos = self
        for i, uci in enumerate(moves):
            try:
                pos = pos.push(uci)
            except MoveError as e:
                raise MoveError(f"move {i + 1} of the move list: {e}") from None
        return pos

    def in_check(self) -> bool:
        return bool(king_safety(kernels.table(), self.state())[1])

    def _check_not_capturable_king(self):
        mirrored = Position(self.board, not self.white_to_move, "", None)
        if mirrored.in_check():
            side = "black" if self.white_to_move else "white"
            raise FenError(f"illegal position: {side} is not to move but is in check "
                           f"(its king could be captured)")


def _parse_placement(text: str) -> list:
    where = "FEN field 1 (piece placement)"
    ranks = text.split("/")
    if len(ranks) != 8:
        raise FenError(f"{where}: expected 8 ranks separated by '/', got {len(ranks)}")
    board = [""] * 64
    for i, row in enumerate(ranks):
        r = 7 - i
        f = 0
        for ch in row:
            if ch in "12345678":
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


def _parse_castling(text: str, board: list) -> str:
    where = "FEN field 3 (castling)"
    if text == "-":
        return ""
    seen = ""
    for ch in text:
        if ch not in _CASTLING:
            raise FenError(f"{where}: unexpected {ch!r} in {text!r} (expected '-' or letters from KQkq; "
                           f"Chess960 castling is not supported)")
        if ch in seen:
            raise FenError(f"{where}: {ch!r} appears twice in {text!r}")
        seen += ch
        _, king_sq, rook_sq, colour = _CASTLING[ch]
        king, rook = ("K", "R") if colour == "w" else ("k", "r")
        if board[king_sq] != king or board[rook_sq] != rook:
            side = "white" if colour == "w" else "black"
            raise FenError(f"{where}: {ch!r} needs the {side} king on {square_name(king_sq)} "
                           f"and a {side} rook on {square_name(rook_sq)}")
    return "".join(letter for letter in "KQkq" if letter in seen)


def _parse_ep(text: str, board: list, white: bool):
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


def _parse_counter(fields, index, name, default, minimum):
    if len(fields) <= index:
        return default
    text = fields[index]
    if not text.isdigit() or int(text) < minimum:
        raise FenError(f"FEN field {index + 1} ({name}): expected a non-negative integer, got {text!r}")
    return int(text)
