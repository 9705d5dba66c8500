"""Positions: FEN in and out (each field read and checked by core.board.fen_fields), UCI moves,
and the conversion to the kernels' side-to-move-at-the-bottom bitboard tuple.

Chess960: the castling field may be X-FEN (`KQkq` meaning the outermost rook on
that side of the king, a file letter where that is ambiguous) or Shredder-FEN
(`HAha`, the rooks' files). A FEN is standard chess unless `chess960=True` says
otherwise, its castling field names rook files, or standard chess cannot hold it (a
king with a castling right stands on its first rank off e1/e8); in standard chess
`KQkq` mean the corner rooks. In Chess960 a castling move is written king takes
rook (`e1h1`, `b1a1`), as Stockfish with UCI_Chess960 and python-chess do.

    >>> pos = Position.from_fen(START_FEN).play("e2e4 e7e5")
    >>> pos.fen()
    'rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq e6 0 2'

The rules (legal moves, check, the position after a move) come from the core's kernels.
A process whose kernels are still being prepared (the GUI's first seconds on an empty
compile cache) may have python-chess answer them meanwhile: `python_chess_until(loaded)`.
The two agree move for move (tests/core/board/test_position.py plays random games with both);
what only the kernels know (the state tuple, its key, the analysis) waits for them. The
kernel modules are imported at their first use: importing them imports numba.
"""
from __future__ import annotations

import re
import threading
from dataclasses import dataclass, replace
from functools import cached_property
from typing import NamedTuple

import numpy as np

from ..errors import FenError, MoveError
# FILES, PIECES, parse_square and placement are read from here too (the board, its editor, the state trace)
from .fen_fields import (CASTLING_RIGHTS, FILES, PIECES, STANDARD_ROOKS, king_file, names_chess960,
                         outermost_rook, parse_square, placement, read_castling, read_counter, read_en_passant,
                         read_placement, square_name, standard_layout)

START_FEN = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
_PROMOTION = "nbrq"          # kernel promotion code -> UCI letter
_UCI = re.compile(r"^[a-h][1-8][a-h][1-8][nbrq]?$")
FEN_STYLES = ("xfen", "shredder")

_kernels_loaded: threading.Event | None = None     # None: the kernels answer from the start


def python_chess_until(loaded: threading.Event | None) -> None:
    """Let python-chess answer the rules in this process until `loaded` is set (by whoever
    loads the kernels); None: the kernels answer at once (the default)."""
    global _kernels_loaded
    _kernels_loaded = loaded


def _python_chess_answers() -> bool:
    loaded = _kernels_loaded
    return loaded is not None and not loaded.is_set()


def _k():
    """The kernel modules (core.kernels, .board, .movegen), imported at first use."""
    from .. import kernels
    from ..kernels import board, movegen
    return kernels, board, movegen


class Move(NamedTuple):
    """A legal move as the rules gave it: squares are real (a1 = 0). `to` is where the moving
    piece lands (a castling king's destination); `rook` a castling rook's square. `token` is
    the answering rules' own move: the kernel's 16-bit move or python-chess's Move."""
    uci: str
    frm: int
    to: int
    castle: bool
    en_passant: bool
    rook: int | None
    token: object


def is_chess960(fen: str) -> bool:
    """Whether a valid FEN is a Chess960 position: its castling field names rook files, or
    a king with a right stands off e1/e8 (see reads_as_chess960)."""
    return Position.from_fen(fen).chess960


def reads_as_chess960(fen: str) -> bool:
    """Whether a FEN's castling field is read as Chess960 without `chess960=True`: it names
    rook files (Shredder-FEN, or X-FEN's file letters), or a king with a right stands on its
    first rank off e1/e8, which standard chess cannot hold. Only the first three fields are
    looked at, so this answers for FENs whose rights cannot stand as well."""
    fields = fen.split()
    if len(fields) < 3 or fields[2] == "-":
        return False
    try:
        board = read_placement(fields[0])
    except FenError:
        return False
    return names_chess960(fields[2], board)


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
    castling: str            # subset of "KQkq" in that order (the king's side), "" for none
    ep_square: int | None
    halfmove: int = 0
    fullmove: int = 1
    castling_rooks: tuple = STANDARD_ROOKS   # rook file of each right K, Q, k, q
    chess960: bool = False
    fen_style: str = "xfen"                  # how fen() writes a Chess960 castling field

    # --- FEN ---------------------------------------------------------------
    @classmethod
    def from_fen(cls, fen: str, chess960: bool = False, fen_style: str | None = None) -> "Position":
        """Parse and validate; FenError names the field that is wrong. The position is
        Chess960 when `chess960` or reads_as_chess960(fen); fen() writes castling in
        `fen_style` ('xfen' or 'shredder'), by default the style that was read."""
        fields = fen.split()
        if len(fields) < 4 or len(fields) > 6:
            raise FenError(f"FEN needs 4 to 6 fields (placement, side to move, castling, en passant, "
                           f"halfmove clock, fullmove number), got {len(fields)}: {fen!r}")
        board = read_placement(fields[0])
        if fields[1] not in ("w", "b"):
            raise FenError(f"FEN field 2 (side to move): expected 'w' or 'b', got {fields[1]!r}")
        white = fields[1] == "w"
        chess960 = chess960 or (fields[2] != "-" and names_chess960(fields[2], board))
        try:
            castling, rooks, style_read = read_castling(fields[2], board, chess960)
        except FenError as e:
            if chess960 or not _valid_chess960(fen):
                raise
            raise FenError(f"{e}; it is a valid Chess960 position: {{chess960}}", chess960=True) from None
        ep = read_en_passant(fields[3], board, white)
        halfmove = read_counter(fields, 4, "halfmove clock", 0, 0)
        fullmove = read_counter(fields, 5, "fullmove number", 1, 0)
        if fen_style is not None and fen_style not in FEN_STYLES:
            raise ValueError(f"fen_style must be one of {', '.join(FEN_STYLES)}, not {fen_style!r}")
        pos = cls(tuple(board), white, castling, ep, halfmove, max(fullmove, 1), rooks, chess960,
                  fen_style or style_read)
        pos._check_not_capturable_king()
        return pos

    def fen(self) -> str:
        ep = square_name(self.ep_square) if self.ep_square is not None else "-"
        castling = self.castling_field()
        if not self.chess960:
            castling = self.castling_field("xfen")       # Shredder-FEN would say Chess960
        elif castling and not names_chess960(castling, list(self.board)):
            # X-FEN with the kings on e1/e8 reads as standard chess; Shredder-FEN says Chess960
            # (that is how --960 reaches the engines through a FEN alone)
            castling = self.castling_field("shredder")
        return (f"{placement(self.board)} {'w' if self.white_to_move else 'b'} {castling or '-'} "
                f"{ep} {self.halfmove} {self.fullmove}")

    def castling_field(self, style: str | None = None) -> str:
        """The castling rights as X-FEN or Shredder-FEN ('' for none)."""
        style = style or self.fen_style
        out = ""
        for letter, rook_file in zip("KQkq", self.castling_rooks):
            if letter not in self.castling:
                continue
            upper = letter.isupper()
            if style == "shredder":
                out += FILES[rook_file].upper() if upper else FILES[rook_file]
            elif outermost_rook(self.board, upper, letter.upper() == "K") == rook_file:
                out += letter
            else:
                out += FILES[rook_file].upper() if upper else FILES[rook_file]
        return out

    def with_options(self, chess960: bool | None = None, fen_style: str | None = None) -> "Position":
        """The same position, Chess960 switched on (never off when its rights need it)
        or written in another FEN style."""
        c960 = self.chess960 if chess960 is None else (chess960 or not standard_layout(
            self.board, self.castling, self.castling_rooks))
        return replace(self, chess960=c960, fen_style=fen_style or self.fen_style)

    def __str__(self) -> str:
        return self.fen()

    # --- kernel state --------------------------------------------------------
    def state(self) -> tuple:
        """The kernels' tuple (see core.kernels.board), mirrored when black is to move.
        Built once per position; a position made by a move gets its child's state
        (with the key the move updated) from the kernel and never rebuilds it."""
        return self._state

    @cached_property
    def _state(self) -> tuple:
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
            bit = CASTLING_RIGHTS[letter][0]
            rights |= bit if self.white_to_move else ((bit >> 2) | (bit << 2)) & 15
        if not standard_layout(self.board, self.castling, self.castling_rooks):
            k_white, q_white, k_black, q_black = self.castling_rooks
            rights |= _k()[1].layout_bits((king_file(self.board, True) or 0, k_white, q_white),
                                  (king_file(self.board, False) or 0, k_black, q_black))
        ep = (self.ep_square ^ flip) if self.ep_square is not None else 0
        s = (_u64(bb["P"]), _u64(bb["N"]), _u64(bb["D"]), _u64(bb["O"]), _u64(bb["K"]), _u64(us),
             _u64(occ), _u64(ep), _u64(rights), _u64(0), _u64(0 if self.white_to_move else 1))
        kernels, kboard, _ = _k()
        key = np.uint64(kboard.full_key(kernels.table(), s))
        return s[:9] + (key,) + s[10:]

    @classmethod
    def from_state(cls, s: tuple, halfmove: int = 0, fullmove: int = 1, chess960: bool = False,
                   fen_style: str = "xfen") -> "Position":
        state = as_state(s)
        P, N, D, O, K, us, occ, ep, cr, key, stm = (int(x) for x in state)
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
        rights = cr & 15 if white else (((cr & 15) >> 2) | ((cr & 15) << 2)) & 15
        castling = "".join(letter for letter in "KQkq" if rights & CASTLING_RIGHTS[letter][0])
        rooks = STANDARD_ROOKS
        if cr > 15:
            files = [(cr >> (8 + 9 * colour + 3 * which)) & 7 for colour in (0, 1) for which in (1, 2)]
            rooks = tuple(f if letter in castling else std
                          for f, letter, std in zip(files, "KQkq", STANDARD_ROOKS))
        pos = cls(tuple(board), white, castling, (ep ^ flip) if ep else None, halfmove, fullmove,
                  rooks, chess960 or cr > 15, fen_style)
        pos.__dict__["_state"] = state          # keep the kernel's state and its incremental key
        return pos

    @property
    def key(self) -> int:
        """Polyglot Zobrist key."""
        return int(self.state()[9])

    # --- moves -------------------------------------------------------------
    def _kernel_moves(self):
        kernels, _, movegen = _k()
        return movegen.legal_moves(kernels.table(), self.state())

    def move_to_uci(self, m: int) -> str:
        """UCI of the kernel's 16-bit move m."""
        kb = _k()[1]
        flip = 0 if self.white_to_move else 56
        frm, to, flag = kb.move_from(m), kb.move_to(m), kb.move_flag(m)
        if flag == kb.FLAG_CASTLE and self.chess960:
            to = self.castling_rook(kingside=to == 6) ^ flip     # king takes rook
        uci = square_name(frm ^ flip) + square_name(to ^ flip)
        if flag == kb.FLAG_PROMOTION:
            uci += _PROMOTION[kb.move_promotion(m)]
        return uci

    def castling_rook(self, kingside: bool, white: bool | None = None) -> int:
        """The square of the rook that castles on that side (for the side to move by default)."""
        white = self.white_to_move if white is None else white
        rook_file = self.castling_rooks[(0 if white else 2) + (0 if kingside else 1)]
        return rook_file + (0 if white else 56)

    def moves(self) -> list[Move]:
        """The legal moves, from the kernels or (see python_chess_until) python-chess."""
        return self._python_chess_moves() if _python_chess_answers() else self._moves_of_kernel()

    def _moves_of_kernel(self) -> list[Move]:
        kb = _k()[1]
        flip = 0 if self.white_to_move else 56
        out = []
        for m in self._kernel_moves():
            flag = kb.move_flag(m)
            castle = flag == kb.FLAG_CASTLE
            to = kb.move_to(m)
            out.append(Move(self.move_to_uci(m), kb.move_from(m) ^ flip, to ^ flip, castle,
                            flag == kb.FLAG_EP, self.castling_rook(kingside=to == 6) if castle else None, int(m)))
        return out

    def _python_chess_moves(self) -> list[Move]:
        import chess
        board = self._chess_board
        out = []
        for m in board.legal_moves:
            castle = board.is_castling(m)
            to, rook = m.to_square, None
            if castle:
                kingside = board.is_kingside_castling(m)
                to = chess.square(6 if kingside else 2, chess.square_rank(m.from_square))
                rook = self.castling_rook(kingside)
            out.append(Move(m.uci(), m.from_square, to, castle, board.is_en_passant(m), rook, m))
        return out

    @cached_property
    def _chess_board(self):
        import chess
        return chess.Board(self.fen(), chess960=self.chess960)

    def chess_board(self):
        """This position as a python-chess Board of one's own to push moves on (a copy of the
        one kept for move generation: the FEN is not read again)."""
        return self._chess_board.copy(stack=False)

    def legal_moves(self) -> list[str]:
        """Legal moves in UCI notation."""
        return [m.uci for m in self.moves()]

    def castling_moves(self) -> dict[str, int]:
        """{uci: the king's destination square} for each legal castling (for a board that
        lets the king be dropped on its rook or on its destination)."""
        return {m.uci: m.to for m in self.moves() if m.castle}

    def find_move(self, uci: str, moves: list[Move] | None = None) -> Move:
        """The legal move a UCI string names; MoveError when malformed or illegal. In Chess960
        a castling is king takes rook; e1g1 / e1c1 are also read when king and rook stand on
        their standard squares (as python-chess reads them)."""
        text = uci.strip().lower()
        if not _UCI.match(text):
            raise MoveError(f"malformed move {uci!r}: expected UCI like e2e4 or e7e8q")
        moves = self.moves() if moves is None else moves
        for m in moves:
            if m.uci == text:
                return m
        if self.chess960:
            for m in moves:
                if m.castle and m.frm & 7 == 4 and m.rook & 7 in (0, 7) and \
                        square_name(m.frm) + square_name(m.to) == text:
                    return m
        raise MoveError(f"illegal move {uci!r} in position {self.fen()}")

    def kernel_move(self, uci: str) -> int:
        """The kernel's 16-bit move for a UCI string; MoveError when malformed or illegal."""
        return self.find_move(uci, self._moves_of_kernel()).token

    def push(self, uci: str) -> "Position":
        """The position after one legal UCI move."""
        m = self.find_move(uci)
        mover = self.board[m.frm]
        capture = m.en_passant or (not m.castle and bool(self.board[m.to]))
        halfmove = 0 if mover in "Pp" or capture else self.halfmove + 1
        fullmove = self.fullmove + (0 if self.white_to_move else 1)
        if isinstance(m.token, int):
            kernels, kb, _ = _k()
            child = kb.make(kernels.table(), self.state(), np.uint16(m.token))
            return Position.from_state(child, halfmove, fullmove, self.chess960, self.fen_style)
        board = self._chess_board.copy(stack=False)
        board.push(m.token)
        return _from_chess_board(board, halfmove, fullmove, self.chess960, self.fen_style)

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
        if _python_chess_answers():
            return self._chess_board.is_check()
        kernels, _, movegen = _k()
        return bool(movegen.king_safety(kernels.table(), self.state())[1])

    def _check_not_capturable_king(self):
        # The kernel's check test leaves kings out (in a legal game a king never gives check), so
        # kings side by side would pass it and be counted as a king capturing a king.
        white_king, black_king = self.board.index("K"), self.board.index("k")
        if max(abs((white_king & 7) - (black_king & 7)), abs((white_king >> 3) - (black_king >> 3))) <= 1:
            raise FenError(f"illegal position: the kings stand side by side on {square_name(white_king)} "
                           f"and {square_name(black_king)} (each could capture the other)")
        mirrored = Position(self.board, not self.white_to_move, "", None)
        if mirrored.in_check():
            side = "black" if self.white_to_move else "white"
            raise FenError(f"illegal position: {side} is not to move but is in check "
                           f"(its king could be captured)")


def _from_chess_board(board, halfmove: int, fullmove: int, chess960: bool, fen_style: str) -> "Position":
    """The Position python-chess's board holds (its rights read as KQkq with rook files)."""
    import chess
    squares = tuple(p.symbol() if (p := board.piece_at(sq)) else "" for sq in range(64))
    rights = board.clean_castling_rights()
    castling, rooks = "", list(STANDARD_ROOKS)
    for i, letter in enumerate("KQkq"):
        white, kingside = letter.isupper(), letter in "Kk"
        king = king_file(list(squares), white)
        back = chess.BB_RANK_1 if white else chess.BB_RANK_8
        files = [sq & 7 for sq in chess.scan_forward(rights & back)
                 if king is not None and ((sq & 7) > king) == kingside]
        if files:
            castling += letter
            rooks[i] = files[0]
    return Position(squares, board.turn == chess.WHITE, castling, board.ep_square, halfmove, fullmove,
                    tuple(rooks), chess960, fen_style)


def _valid_chess960(fen: str) -> bool:
    try:
        Position.from_fen(fen, chess960=True)
    except FenError:
        return False
    return True
