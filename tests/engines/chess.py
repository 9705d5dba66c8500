"""The move generator of the planted engines in this folder: python-chess's API, what they use of it.

The engines here are new Python processes per call (the perftree protocol) or per test, about two
thousand in a run of the suite, and `import chess` (python-chess) cost 30 ms of each start, its
standard-library imports (typing, dataclasses, re, enum) and its module, against 8 ms for the
interpreter. Being first on an engine's path (its script's folder), this module is what the
engines import instead: written here, with the standard library's `sys` only, it gives the same
answers as python-chess 1.11 for what the engines call - the moves and their order, making and
unmaking a move (the castling rights, the en-passant square, the clocks, the stack), FEN read and
written, SAN, Chess960 castling written king takes rook - down to the internals the planted bugs
override (`_set_piece_at`, `_remove_piece_at`, `clean_castling_rights`, `castling_rights` as a
bitboard of rooks). So each engine's planted bug is the behaviour it was.
tests/core/engines/test_planted_chess.py holds it to python-chess: the moves in their order, the
FEN, the SAN and perft of random positions, standard and Chess960."""

Bitboard = int
COLORS = [WHITE, BLACK] = [True, False]
PIECE_TYPES = [PAWN, KNIGHT, BISHOP, ROOK, QUEEN, KING] = range(1, 7)
PIECE_SYMBOLS = [None, "p", "n", "b", "r", "q", "k"]
FILE_NAMES = ["a", "b", "c", "d", "e", "f", "g", "h"]
RANK_NAMES = ["1", "2", "3", "4", "5", "6", "7", "8"]
SQUARE_NAMES = [f + r for r in RANK_NAMES for f in FILE_NAMES]
SQUARES = range(64)
globals().update({name.upper(): square for square, name in enumerate(SQUARE_NAMES)})   # A1 ... H8
STARTING_FEN = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"

BB_EMPTY, BB_ALL = 0, (1 << 64) - 1
BB_SQUARES = [1 << s for s in SQUARES]
globals().update({f"BB_{name.upper()}": 1 << square for square, name in enumerate(SQUARE_NAMES)})
BB_CORNERS = BB_SQUARES[0] | BB_SQUARES[7] | BB_SQUARES[56] | BB_SQUARES[63]
BB_FILES = [BB_FILE_A, BB_FILE_B, BB_FILE_C, BB_FILE_D, BB_FILE_E, BB_FILE_F, BB_FILE_G, BB_FILE_H] = \
    [0x0101010101010101 << f for f in range(8)]
BB_RANKS = [BB_RANK_1, BB_RANK_2, BB_RANK_3, BB_RANK_4, BB_RANK_5, BB_RANK_6, BB_RANK_7, BB_RANK_8] = \
    [0xff << (8 * r) for r in range(8)]
BB_BACKRANKS = BB_RANK_1 | BB_RANK_8


class InvalidMoveError(ValueError):
    pass


class IllegalMoveError(ValueError):
    pass


def square(file_index, rank_index):
    return rank_index * 8 + file_index


def square_file(sq):
    return sq & 7


def square_rank(sq):
    return sq >> 3


def square_name(sq):
    return SQUARE_NAMES[sq]


def parse_square(name):
    return SQUARE_NAMES.index(name)


def piece_symbol(piece_type):
    return PIECE_SYMBOLS[piece_type]


def lsb(bb):
    return (bb & -bb).bit_length() - 1


def msb(bb):
    return bb.bit_length() - 1


def scan_forward(bb):
    while bb:
        r = bb & -bb
        yield r.bit_length() - 1
        bb ^= r


def scan_reversed(bb):
    while bb:
        r = bb.bit_length() - 1
        yield r
        bb ^= BB_SQUARES[r]


def popcount(bb):
    return bin(bb).count("1")


# --- attacks: leapers in tables, sliders walked along their rays (memoised by the blockers) ---

def _step_targets(sq, steps):
    bb = 0
    f, r = sq & 7, sq >> 3
    for df, dr in steps:
        if 0 <= f + df < 8 and 0 <= r + dr < 8:
            bb |= 1 << (sq + df + 8 * dr)
    return bb


KING_STEPS = ((1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (1, -1), (-1, 1), (-1, -1))
BB_KNIGHT_ATTACKS = [_step_targets(s, ((1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2)))
                     for s in SQUARES]
BB_KING_ATTACKS = [_step_targets(s, KING_STEPS) for s in SQUARES]
BB_PAWN_ATTACKS = [[_step_targets(s, ((-1, -1), (1, -1))) for s in SQUARES],     # [BLACK][sq]
                   [_step_targets(s, ((-1, 1), (1, 1))) for s in SQUARES]]       # [WHITE][sq]

# the squares of each direction from each square, nearest first
_RAYS = [[[] for _ in KING_STEPS] for _ in SQUARES]
for _s in SQUARES:
    for _d, (_df, _dr) in enumerate(KING_STEPS):
        _f, _r = (_s & 7) + _df, (_s >> 3) + _dr
        while 0 <= _f < 8 and 0 <= _r < 8:
            _RAYS[_s][_d].append(_r * 8 + _f)
            _f, _r = _f + _df, _r + _dr
RANK_DIRS, FILE_DIRS, DIAG_DIRS = (0, 1), (2, 3), (4, 5, 6, 7)


def _line(sq, dirs):
    bb = 0
    for d in dirs:
        for t in _RAYS[sq][d]:
            bb |= 1 << t
    return bb


BB_RANK_LINES = [_line(s, RANK_DIRS) for s in SQUARES]
BB_FILE_LINES = [_line(s, FILE_DIRS) for s in SQUARES]
BB_DIAG_LINES = [_line(s, DIAG_DIRS) for s in SQUARES]


class _Slides(dict):
    """One square's attacks along some directions, by the blockers on them: computed on first use."""
    __slots__ = ("square", "dirs")

    def __init__(self, square, dirs):
        super().__init__()
        self.square, self.dirs = square, dirs

    def __missing__(self, occupied):
        attacks = 0
        for d in self.dirs:
            for t in _RAYS[self.square][d]:
                attacks |= 1 << t
                if occupied >> t & 1:
                    break
        self[occupied] = attacks
        return attacks


def _edges(sq):
    return (((BB_RANK_1 | BB_RANK_8) & ~BB_RANKS[sq >> 3]) | ((BB_FILE_A | BB_FILE_H) & ~BB_FILES[sq & 7]))


# the squares whose pieces block a slider (its lines but the last square of each), and its attacks by them
BB_RANK_MASKS = [BB_RANK_LINES[s] & ~(BB_FILE_A | BB_FILE_H) for s in SQUARES]
BB_FILE_MASKS = [BB_FILE_LINES[s] & ~(BB_RANK_1 | BB_RANK_8) for s in SQUARES]
BB_DIAG_MASKS = [BB_DIAG_LINES[s] & ~_edges(s) for s in SQUARES]
BB_RANK_ATTACKS = [_Slides(s, RANK_DIRS) for s in SQUARES]
BB_FILE_ATTACKS = [_Slides(s, FILE_DIRS) for s in SQUARES]
BB_DIAG_ATTACKS = [_Slides(s, DIAG_DIRS) for s in SQUARES]


def rook_attacks(sq, occupied):
    return BB_RANK_ATTACKS[sq][BB_RANK_MASKS[sq] & occupied] | BB_FILE_ATTACKS[sq][BB_FILE_MASKS[sq] & occupied]


def bishop_attacks(sq, occupied):
    return BB_DIAG_ATTACKS[sq][BB_DIAG_MASKS[sq] & occupied]


def ray(a, b):
    """The whole line through a and b (edge to edge), or 0 when they share none."""
    for lines in (BB_RANK_LINES, BB_FILE_LINES, BB_DIAG_LINES):
        if lines[a] >> b & 1:
            return (lines[a] & lines[b]) | BB_SQUARES[a] | BB_SQUARES[b]
    return 0


def between(a, b):
    bb = ray(a, b) & ((BB_ALL << a) ^ (BB_ALL << b))
    return bb & (bb - 1)


class Piece:
    __slots__ = ("piece_type", "color")

    def __init__(self, piece_type, color):
        self.piece_type, self.color = piece_type, color

    def symbol(self):
        s = PIECE_SYMBOLS[self.piece_type]
        return s.upper() if self.color else s

    @classmethod
    def from_symbol(cls, symbol):
        return cls(PIECE_SYMBOLS.index(symbol.lower()), symbol.isupper())

    def __eq__(self, other):
        return isinstance(other, Piece) and (self.piece_type, self.color) == (other.piece_type, other.color)

    def __hash__(self):
        return self.piece_type + (-1 if self.color else 5)

    def __repr__(self):
        return f"Piece.from_symbol({self.symbol()!r})"

    def __str__(self):
        return self.symbol()


class Move:
    __slots__ = ("from_square", "to_square", "promotion", "drop")

    def __init__(self, from_square, to_square, promotion=None, drop=None):
        self.from_square, self.to_square, self.promotion, self.drop = from_square, to_square, promotion, drop

    def uci(self):
        if self.drop:
            return PIECE_SYMBOLS[self.drop].upper() + "@" + SQUARE_NAMES[self.to_square]
        if self.promotion:
            return SQUARE_NAMES[self.from_square] + SQUARE_NAMES[self.to_square] + PIECE_SYMBOLS[self.promotion]
        if self:
            return SQUARE_NAMES[self.from_square] + SQUARE_NAMES[self.to_square]
        return "0000"

    def __bool__(self):
        return bool(self.from_square or self.to_square or self.promotion or self.drop)

    def __eq__(self, other):
        return isinstance(other, Move) and (self.from_square, self.to_square, self.promotion, self.drop) == \
            (other.from_square, other.to_square, other.promotion, other.drop)

    def __hash__(self):
        return hash((self.from_square, self.to_square, self.promotion, self.drop))

    def __repr__(self):
        return f"Move.from_uci({self.uci()!r})"

    __str__ = uci

    @classmethod
    def null(cls):
        return cls(0, 0)

    @classmethod
    def from_uci(cls, uci):
        if uci == "0000":
            return cls.null()
        if 4 <= len(uci) <= 5 and uci[1] != "@":
            try:
                from_square, to_square = SQUARE_NAMES.index(uci[0:2]), SQUARE_NAMES.index(uci[2:4])
                promotion = PIECE_SYMBOLS.index(uci[4]) if len(uci) == 5 else None
            except ValueError:
                raise InvalidMoveError(f"invalid uci: {uci!r}") from None
            if from_square == to_square:
                raise InvalidMoveError(f"invalid uci (use 0000 for null moves): {uci!r}")
            return cls(from_square, to_square, promotion=promotion)
        raise InvalidMoveError(f"expected uci string to be of length 4 or 5: {uci!r}")


class SquareSet:
    def __init__(self, mask=0):
        self.mask = mask

    def __iter__(self):
        return scan_forward(self.mask)

    def __len__(self):
        return popcount(self.mask)

    def __contains__(self, sq):
        return bool(BB_SQUARES[sq] & self.mask)

    def __bool__(self):
        return bool(self.mask)

    def __int__(self):
        return self.mask


class _Moves:
    """board.legal_moves / board.pseudo_legal_moves: iterable, `in` asks the board."""

    def __init__(self, generate, contains):
        self._generate, self._contains = generate, contains

    def __iter__(self):
        return self._generate()

    def __contains__(self, move):
        return self._contains(move)

    def __bool__(self):
        return any(True for _ in self._generate())

    def count(self):              # no __len__, as in python-chess: list() would generate twice
        return sum(1 for _ in self._generate())


def _check_castling_field(field):
    """python-chess's FEN castling pattern: `-`, or up to two white then up to two black letters."""
    if field == "-":
        return True
    i = 0
    while i < len(field) and i < 2 and field[i] in "KQABCDEFGH":
        i += 1
    j = i
    while j < len(field) and j - i < 2 and field[j] in "kqabcdefgh":
        j += 1
    return j == len(field)


_PIECE_BOARDS = ("pawns", "knights", "bishops", "rooks", "queens", "kings")
_STATE = _PIECE_BOARDS + ("occupied", "promoted", "turn", "castling_rights", "ep_square",
                          "halfmove_clock", "fullmove_number")


class Board:
    starting_fen = STARTING_FEN

    def __init__(self, fen=STARTING_FEN, *, chess960=False):
        self.chess960 = chess960
        self.occupied_co = [0, 0]
        self.move_stack, self._stack = [], []
        if fen is None:
            self.clear()
        elif fen == type(self).starting_fen:
            self.reset()
        else:
            self.set_fen(fen)

    # --- the pieces ---

    def _clear_board(self):
        self.pawns = self.knights = self.bishops = self.rooks = self.queens = self.kings = 0
        self.occupied = self.promoted = 0
        self.occupied_co = [0, 0]

    def clear(self):
        self._clear_board()
        self.turn, self.castling_rights, self.ep_square = WHITE, BB_EMPTY, None
        self.halfmove_clock, self.fullmove_number = 0, 1
        self.clear_stack()

    def reset(self):
        Board.set_fen(self, STARTING_FEN)          # python-chess's reset: a subclass's set_fen not called

    def clear_stack(self):
        self.move_stack.clear()
        self._stack.clear()

    def piece_type_at(self, sq):
        mask = BB_SQUARES[sq]
        if not self.occupied & mask:
            return None
        if self.pawns & mask:
            return PAWN
        if self.knights & mask:
            return KNIGHT
        if self.bishops & mask:
            return BISHOP
        if self.rooks & mask:
            return ROOK
        if self.queens & mask:
            return QUEEN
        if self.kings & mask:
            return KING
        return None

    def color_at(self, sq):
        mask = BB_SQUARES[sq]
        if self.occupied_co[WHITE] & mask:
            return WHITE
        if self.occupied_co[BLACK] & mask:
            return BLACK
        return None

    def piece_at(self, sq):
        piece_type = self.piece_type_at(sq)
        return Piece(piece_type, bool(self.occupied_co[WHITE] & BB_SQUARES[sq])) if piece_type else None

    def piece_map(self, *, mask=BB_ALL):
        return {sq: self.piece_at(sq) for sq in scan_reversed(self.occupied & mask)}

    def pieces_mask(self, piece_type, color):
        return getattr(self, _PIECE_BOARDS[piece_type - 1]) & self.occupied_co[color]

    def king(self, color):
        mask = self.occupied_co[color] & self.kings & ~self.promoted
        return msb(mask) if mask else None

    def _toggle(self, piece_type, mask):
        if piece_type == PAWN:
            self.pawns ^= mask
        elif piece_type == KNIGHT:
            self.knights ^= mask
        elif piece_type == BISHOP:
            self.bishops ^= mask
        elif piece_type == ROOK:
            self.rooks ^= mask
        elif piece_type == QUEEN:
            self.queens ^= mask
        else:
            self.kings ^= mask

    def _remove_piece_at(self, sq):
        piece_type = self.piece_type_at(sq)
        if piece_type is None:
            return None
        mask = BB_SQUARES[sq]
        self._toggle(piece_type, mask)
        self.occupied ^= mask
        self.occupied_co[WHITE] &= ~mask
        self.occupied_co[BLACK] &= ~mask
        self.promoted &= ~mask
        return piece_type

    def _set_piece_at(self, sq, piece_type, color, promoted=False):
        self._remove_piece_at(sq)
        mask = BB_SQUARES[sq]
        self._toggle(piece_type, mask)
        self.occupied ^= mask
        self.occupied_co[color] ^= mask
        if promoted:
            self.promoted ^= mask

    def set_piece_at(self, sq, piece, promoted=False):
        if piece is None:
            self._remove_piece_at(sq)
        else:
            self._set_piece_at(sq, piece.piece_type, piece.color, promoted)
        self.clear_stack()

    def remove_piece_at(self, sq):
        color = bool(self.occupied_co[WHITE] & BB_SQUARES[sq])
        piece_type = self._remove_piece_at(sq)
        self.clear_stack()
        return Piece(piece_type, color) if piece_type else None

    # --- attacks ---

    def attacks_mask(self, sq):
        mask = BB_SQUARES[sq]
        if mask & self.pawns:
            return BB_PAWN_ATTACKS[bool(mask & self.occupied_co[WHITE])][sq]
        if mask & self.knights:
            return BB_KNIGHT_ATTACKS[sq]
        if mask & self.kings:
            return BB_KING_ATTACKS[sq]
        attacks = 0
        if mask & (self.bishops | self.queens):
            attacks = bishop_attacks(sq, self.occupied)
        if mask & (self.rooks | self.queens):
            attacks |= rook_attacks(sq, self.occupied)
        return attacks

    def attackers_mask(self, color, sq, occupied=None):
        occupied = self.occupied if occupied is None else occupied
        queens_and_rooks = self.queens | self.rooks
        queens_and_bishops = self.queens | self.bishops
        attackers = ((BB_KING_ATTACKS[sq] & self.kings) | (BB_KNIGHT_ATTACKS[sq] & self.knights)
                     | (rook_attacks(sq, occupied) & queens_and_rooks)
                     | (bishop_attacks(sq, occupied) & queens_and_bishops)
                     | (BB_PAWN_ATTACKS[not color][sq] & self.pawns))
        return attackers & self.occupied_co[color]

    def attackers(self, color, sq, occupied=None):
        return SquareSet(self.attackers_mask(color, sq, occupied))

    def is_attacked_by(self, color, sq, occupied=None):
        return bool(self.attackers_mask(color, sq, occupied))

    def checkers_mask(self):
        king = self.king(self.turn)
        return BB_EMPTY if king is None else self.attackers_mask(not self.turn, king)

    def is_check(self):
        return bool(self.checkers_mask())

    def pin_mask(self, color, sq):
        king = self.king(color)
        if king is None:
            return BB_ALL
        square_mask = BB_SQUARES[sq]
        for lines, sliders in ((BB_FILE_LINES, self.rooks | self.queens), (BB_RANK_LINES, self.rooks | self.queens),
                               (BB_DIAG_LINES, self.bishops | self.queens)):
            rays = lines[king]
            if rays & square_mask:
                for sniper in scan_reversed(rays & sliders & self.occupied_co[not color]):
                    if between(sniper, king) & (self.occupied | square_mask) == square_mask:
                        return ray(king, sniper)
                break
        return BB_ALL

    def is_pinned(self, color, sq):
        return self.pin_mask(color, sq) != BB_ALL

    def _slider_blockers(self, king):
        rooks_and_queens = self.rooks | self.queens
        bishops_and_queens = self.bishops | self.queens
        snipers = ((BB_RANK_LINES[king] | BB_FILE_LINES[king]) & rooks_and_queens) | \
            (BB_DIAG_LINES[king] & bishops_and_queens)
        blockers = 0
        for sniper in scan_reversed(snipers & self.occupied_co[not self.turn]):
            b = between(king, sniper) & self.occupied
            if b and BB_SQUARES[msb(b)] == b:        # exactly one piece in between
                blockers |= b
        return blockers & self.occupied_co[self.turn]

    def _ep_skewered(self, king, capturer):
        last_double = self.ep_square + (-8 if self.turn == WHITE else 8)
        occupancy = (self.occupied & ~BB_SQUARES[last_double] & ~BB_SQUARES[capturer]) | BB_SQUARES[self.ep_square]
        enemy = self.occupied_co[not self.turn]
        if BB_RANK_ATTACKS[king][BB_RANK_MASKS[king] & occupancy] & enemy & (self.rooks | self.queens):
            return True
        return bool(bishop_attacks(king, occupancy) & enemy & (self.bishops | self.queens))

    # --- move generation, in python-chess's order ---

    def generate_pseudo_legal_moves(self, from_mask=BB_ALL, to_mask=BB_ALL):
        our_pieces = self.occupied_co[self.turn]
        for from_square in scan_reversed(our_pieces & ~self.pawns & from_mask):
            for to_square in scan_reversed(self.attacks_mask(from_square) & ~our_pieces & to_mask):
                yield Move(from_square, to_square)
        if from_mask & self.kings:
            yield from self.generate_castling_moves(from_mask, to_mask)
        pawns = self.pawns & our_pieces & from_mask
        if not pawns:
            return
        for from_square in scan_reversed(pawns):
            targets = BB_PAWN_ATTACKS[self.turn][from_square] & self.occupied_co[not self.turn] & to_mask
            for to_square in scan_reversed(targets):
                yield from self._pawn_moves(from_square, to_square)
        if self.turn == WHITE:
            single = pawns << 8 & ~self.occupied
            double = single << 8 & ~self.occupied & (BB_RANK_3 | BB_RANK_4)
        else:
            single = pawns >> 8 & ~self.occupied
            double = single >> 8 & ~self.occupied & (BB_RANK_6 | BB_RANK_5)
        back = 8 if self.turn == BLACK else -8
        for to_square in scan_reversed(single & to_mask):
            yield from self._pawn_moves(to_square + back, to_square)
        for to_square in scan_reversed(double & to_mask):
            yield Move(to_square + 2 * back, to_square)
        if self.ep_square:
            yield from self.generate_pseudo_legal_ep(from_mask, to_mask)

    @staticmethod
    def _pawn_moves(from_square, to_square):
        if square_rank(to_square) in (0, 7):
            return [Move(from_square, to_square, p) for p in (QUEEN, ROOK, BISHOP, KNIGHT)]
        return [Move(from_square, to_square)]

    def generate_pseudo_legal_ep(self, from_mask=BB_ALL, to_mask=BB_ALL):
        if not self.ep_square or not BB_SQUARES[self.ep_square] & to_mask:
            return
        if BB_SQUARES[self.ep_square] & self.occupied:
            return
        capturers = (self.pawns & self.occupied_co[self.turn] & from_mask
                     & BB_PAWN_ATTACKS[not self.turn][self.ep_square] & BB_RANKS[4 if self.turn else 3])
        for capturer in scan_reversed(capturers):
            yield Move(capturer, self.ep_square)

    def _attacked_for_king(self, path, occupied):
        return any(self.attackers_mask(not self.turn, sq, occupied) for sq in scan_reversed(path))

    def generate_castling_moves(self, from_mask=BB_ALL, to_mask=BB_ALL):
        backrank = BB_RANK_1 if self.turn == WHITE else BB_RANK_8
        king = self.occupied_co[self.turn] & self.kings & ~self.promoted & backrank & from_mask
        king &= -king
        if not king:
            return
        for candidate in scan_reversed(self.clean_castling_rights() & backrank & to_mask):
            rook = BB_SQUARES[candidate]
            a_side = rook < king
            king_to = (BB_FILE_C if a_side else BB_FILE_G) & backrank
            rook_to = (BB_FILE_D if a_side else BB_FILE_F) & backrank
            king_path = between(msb(king), msb(king_to))
            rook_path = between(candidate, msb(rook_to))
            if not ((self.occupied ^ king ^ rook) & (king_path | rook_path | king_to | rook_to)
                    or self._attacked_for_king(king_path | king, self.occupied ^ king)
                    or self._attacked_for_king(king_to, self.occupied ^ king ^ rook ^ rook_to)):
                yield self._from_chess960(self.chess960, msb(king), candidate)

    def _generate_evasions(self, king, checkers, from_mask=BB_ALL, to_mask=BB_ALL):
        attacked = 0
        for checker in scan_reversed(checkers & (self.bishops | self.rooks | self.queens)):
            attacked |= ray(king, checker) & ~BB_SQUARES[checker]
        if BB_SQUARES[king] & from_mask:
            for to_square in scan_reversed(BB_KING_ATTACKS[king] & ~self.occupied_co[self.turn] & ~attacked & to_mask):
                yield Move(king, to_square)
        checker = msb(checkers)
        if BB_SQUARES[checker] == checkers:          # one checker: capture it or block
            target = between(king, checker) | checkers
            yield from self.generate_pseudo_legal_moves(~self.kings & from_mask, target & to_mask)
            if self.ep_square and not BB_SQUARES[self.ep_square] & target:
                last_double = self.ep_square + (-8 if self.turn == WHITE else 8)
                if last_double == checker:
                    yield from self.generate_pseudo_legal_ep(from_mask, to_mask)

    def _is_safe(self, king, blockers, move):
        if move.from_square == king:
            if self.is_castling(move):
                return True
            return not self.is_attacked_by(not self.turn, move.to_square)
        if self.is_en_passant(move):
            return bool(self.pin_mask(self.turn, move.from_square) & BB_SQUARES[move.to_square]
                        and not self._ep_skewered(king, move.from_square))
        return bool(not blockers & BB_SQUARES[move.from_square] or ray(move.from_square, move.to_square) & BB_SQUARES[king])

    def generate_legal_moves(self, from_mask=BB_ALL, to_mask=BB_ALL):
        king_mask = self.kings & self.occupied_co[self.turn]
        if not king_mask:
            yield from self.generate_pseudo_legal_moves(from_mask, to_mask)
            return
        king = msb(king_mask)
        blockers = self._slider_blockers(king)
        checkers = self.attackers_mask(not self.turn, king)
        moves = self._generate_evasions(king, checkers, from_mask, to_mask) if checkers else \
            self.generate_pseudo_legal_moves(from_mask, to_mask)
        for move in moves:
            if self._is_safe(king, blockers, move):
                yield move

    def generate_legal_ep(self, from_mask=BB_ALL, to_mask=BB_ALL):
        for move in self.generate_pseudo_legal_ep(from_mask, to_mask):
            if not self.is_into_check(move):
                yield move

    @property
    def legal_moves(self):
        return _Moves(self.generate_legal_moves, self.is_legal)

    @property
    def pseudo_legal_moves(self):
        return _Moves(self.generate_pseudo_legal_moves, self.is_pseudo_legal)

    def has_pseudo_legal_en_passant(self):
        return self.ep_square is not None and any(self.generate_pseudo_legal_ep())

    def has_legal_en_passant(self):
        return self.ep_square is not None and any(self.generate_legal_ep())

    # --- questions about a move ---

    def is_en_passant(self, move):
        return (self.ep_square == move.to_square and bool(self.pawns & BB_SQUARES[move.from_square])
                and abs(move.to_square - move.from_square) in (7, 9) and not self.occupied & BB_SQUARES[move.to_square])

    def is_capture(self, move):
        touched = BB_SQUARES[move.from_square] ^ BB_SQUARES[move.to_square]
        return bool(touched & self.occupied_co[not self.turn]) or self.is_en_passant(move)

    def is_zeroing(self, move):
        touched = BB_SQUARES[move.from_square] ^ BB_SQUARES[move.to_square]
        return bool(touched & self.pawns or touched & self.occupied_co[not self.turn] or move.drop == PAWN)

    def is_castling(self, move):
        if self.kings & BB_SQUARES[move.from_square]:
            diff = square_file(move.from_square) - square_file(move.to_square)
            return abs(diff) > 1 or bool(self.rooks & self.occupied_co[self.turn] & BB_SQUARES[move.to_square])
        return False

    def is_pseudo_legal(self, move):
        if not move or move.drop:
            return False
        piece = self.piece_type_at(move.from_square)
        if not piece:
            return False
        from_mask, to_mask = BB_SQUARES[move.from_square], BB_SQUARES[move.to_square]
        if not self.occupied_co[self.turn] & from_mask:
            return False
        if move.promotion:
            if piece != PAWN or square_rank(move.to_square) != (7 if self.turn == WHITE else 0):
                return False
        if piece == KING:
            if self._from_chess960(self.chess960, move.from_square, move.to_square) in \
                    list(self.generate_castling_moves()):
                return True
        if self.occupied_co[self.turn] & to_mask:
            return False
        if piece == PAWN:
            return move in list(self.generate_pseudo_legal_moves(from_mask, to_mask))
        return bool(self.attacks_mask(move.from_square) & to_mask)

    def is_into_check(self, move):
        king = self.king(self.turn)
        if king is None:
            return False
        checkers = self.attackers_mask(not self.turn, king)
        if checkers and move not in list(self._generate_evasions(
                king, checkers, BB_SQUARES[move.from_square], BB_SQUARES[move.to_square])):
            return True
        return not self._is_safe(king, self._slider_blockers(king), move)

    def is_legal(self, move):
        return self.is_pseudo_legal(move) and not self.is_into_check(move)

    def is_checkmate(self):
        return self.is_check() and not any(self.generate_legal_moves())

    # --- castling rights and Chess960 ---

    def clean_castling_rights(self):
        if self._stack:
            return self.castling_rights          # no right is given in a game: filtered already
        castling = self.castling_rights & self.rooks
        white = castling & BB_RANK_1 & self.occupied_co[WHITE]
        black = castling & BB_RANK_8 & self.occupied_co[BLACK]
        if not self.chess960:
            white &= BB_A1 | BB_H1
            black &= BB_A8 | BB_H8
            if not self.occupied_co[WHITE] & self.kings & ~self.promoted & BB_E1:
                white = 0
            if not self.occupied_co[BLACK] & self.kings & ~self.promoted & BB_E8:
                black = 0
            return white | black
        out = 0
        for rights, backrank, color in ((white, BB_RANK_1, WHITE), (black, BB_RANK_8, BLACK)):
            king_mask = self.occupied_co[color] & self.kings & backrank & ~self.promoted
            if not king_mask:
                rights = 0
            a_side = rights & -rights
            h_side = BB_SQUARES[msb(rights)] if rights else 0
            if a_side and msb(a_side) > msb(king_mask):
                a_side = 0
            if h_side and msb(h_side) < msb(king_mask):
                h_side = 0
            out |= a_side | h_side
        return out

    def has_chess960_castling_rights(self):
        chess960, self.chess960 = self.chess960, True
        rights = self.clean_castling_rights()
        self.chess960 = chess960
        if rights & ~BB_CORNERS:
            return True
        if rights & BB_RANK_1 and not self.occupied_co[WHITE] & self.kings & BB_E1:
            return True
        return bool(rights & BB_RANK_8 and not self.occupied_co[BLACK] & self.kings & BB_E8)

    def _from_chess960(self, chess960, from_square, to_square, promotion=None, drop=None):
        if not chess960 and promotion is None and drop is None:
            if from_square == E1 and self.kings & BB_E1:
                if to_square == H1:
                    return Move(E1, G1)
                if to_square == A1:
                    return Move(E1, C1)
            elif from_square == E8 and self.kings & BB_E8:
                if to_square == H8:
                    return Move(E8, G8)
                if to_square == A8:
                    return Move(E8, C8)
        return Move(from_square, to_square, promotion, drop)

    def _to_chess960(self, move):
        if move.from_square == E1 and self.kings & BB_E1:
            if move.to_square == G1 and not self.rooks & BB_G1:
                return Move(E1, H1)
            if move.to_square == C1 and not self.rooks & BB_C1:
                return Move(E1, A1)
        elif move.from_square == E8 and self.kings & BB_E8:
            if move.to_square == G8 and not self.rooks & BB_G8:
                return Move(E8, H8)
            if move.to_square == C8 and not self.rooks & BB_C8:
                return Move(E8, A8)
        return move

    # --- making and unmaking ---

    def _state(self):
        return (self.pawns, self.knights, self.bishops, self.rooks, self.queens, self.kings, self.occupied,
                self.promoted, self.turn, self.castling_rights, self.ep_square, self.halfmove_clock,
                self.fullmove_number, self.occupied_co[WHITE], self.occupied_co[BLACK])

    def push(self, move):
        move = self._to_chess960(move)
        state = self._state()
        self.castling_rights = self.clean_castling_rights()          # before the stack grows
        self.move_stack.append(self._from_chess960(self.chess960, move.from_square, move.to_square,
                                                   move.promotion, move.drop))
        self._stack.append(state)
        ep_square, self.ep_square = self.ep_square, None
        self.halfmove_clock += 1
        if self.turn == BLACK:
            self.fullmove_number += 1
        if not move:
            self.turn = not self.turn
            return
        if self.is_zeroing(move):
            self.halfmove_clock = 0
        from_bb, to_bb = BB_SQUARES[move.from_square], BB_SQUARES[move.to_square]
        promoted = bool(self.promoted & from_bb)
        piece_type = self._remove_piece_at(move.from_square)
        assert piece_type is not None, f"push() expects move to be pseudo-legal, but got {move} in {self.board_fen()}"
        captured_piece_type = self.piece_type_at(move.to_square)
        self.castling_rights &= ~to_bb & ~from_bb
        if piece_type == KING and not promoted:
            self.castling_rights &= ~(BB_RANK_1 if self.turn == WHITE else BB_RANK_8)
        elif captured_piece_type == KING and not self.promoted & to_bb:
            if self.turn == WHITE and square_rank(move.to_square) == 7:
                self.castling_rights &= ~BB_RANK_8
            elif self.turn == BLACK and square_rank(move.to_square) == 0:
                self.castling_rights &= ~BB_RANK_1
        if piece_type == PAWN:
            diff = move.to_square - move.from_square
            if diff == 16 and square_rank(move.from_square) == 1:
                self.ep_square = move.from_square + 8
            elif diff == -16 and square_rank(move.from_square) == 6:
                self.ep_square = move.from_square - 8
            elif move.to_square == ep_square and abs(diff) in (7, 9) and not captured_piece_type:
                self._remove_piece_at(ep_square + (-8 if self.turn == WHITE else 8))
        if move.promotion:
            promoted, piece_type = True, move.promotion
        castling = piece_type == KING and self.occupied_co[self.turn] & to_bb
        if castling:
            a_side = square_file(move.to_square) < square_file(move.from_square)
            self._remove_piece_at(move.from_square)
            self._remove_piece_at(move.to_square)
            rank = 0 if self.turn == WHITE else 56
            self._set_piece_at(rank + (2 if a_side else 6), KING, self.turn)
            self._set_piece_at(rank + (3 if a_side else 5), ROOK, self.turn)
        else:
            self._set_piece_at(move.to_square, piece_type, self.turn, promoted)
        self.turn = not self.turn

    def pop(self):
        move = self.move_stack.pop()
        (self.pawns, self.knights, self.bishops, self.rooks, self.queens, self.kings, self.occupied,
         self.promoted, self.turn, self.castling_rights, self.ep_square, self.halfmove_clock,
         self.fullmove_number, self.occupied_co[WHITE], self.occupied_co[BLACK]) = self._stack.pop()
        return move

    def parse_uci(self, uci):
        move = Move.from_uci(uci)
        if not move:
            return move
        move = self._to_chess960(move)
        move = self._from_chess960(self.chess960, move.from_square, move.to_square, move.promotion, move.drop)
        if not self.is_legal(move):
            raise IllegalMoveError(f"illegal uci: {uci!r} in {self.fen()}")
        return move

    def push_uci(self, uci):
        move = self.parse_uci(uci)
        self.push(move)
        return move

    def copy(self, *, stack=True):
        board = type(self)(None, chess960=self.chess960)
        for name in _STATE:
            setattr(board, name, getattr(self, name))
        board.occupied_co = list(self.occupied_co)
        if stack:
            stack = len(self.move_stack) if stack is True else stack
            board.move_stack = [Move(m.from_square, m.to_square, m.promotion, m.drop) for m in self.move_stack[-stack:]]
            board._stack = self._stack[-stack:]
        return board

    # --- FEN and SAN ---

    def set_fen(self, fen):
        parts = fen.split()
        if not parts:
            raise ValueError("empty fen")
        board_part = parts.pop(0)
        turn_part = parts.pop(0) if parts else "w"
        if turn_part not in ("w", "b"):
            raise ValueError(f"expected 'w' or 'b' for turn part of fen: {fen!r}")
        castling_part = parts.pop(0) if parts else "-"
        if not _check_castling_field(castling_part):
            raise ValueError(f"invalid castling part in fen: {fen!r}")
        ep_part = parts.pop(0) if parts else "-"
        if ep_part != "-" and ep_part not in SQUARE_NAMES:
            raise ValueError(f"invalid en passant part in fen: {fen!r}")
        counters = []
        for name, default in (("half-move clock", 0), ("fullmove number", 1)):
            if not parts:
                counters.append(default)
                continue
            try:
                value = int(parts.pop(0))
            except ValueError:
                raise ValueError(f"invalid {name} in fen: {fen!r}") from None
            if value < 0:
                raise ValueError(f"{name} cannot be negative: {fen!r}")
            counters.append(value)
        if parts:
            raise ValueError(f"fen string has more parts than expected: {fen!r}")
        self._set_board_fen(board_part)
        self.turn = turn_part == "w"
        self._set_castling_fen(castling_part)
        self.ep_square = None if ep_part == "-" else SQUARE_NAMES.index(ep_part)
        self.halfmove_clock, self.fullmove_number = counters[0], max(counters[1], 1)
        self.clear_stack()

    def _set_board_fen(self, fen):
        rows = fen.split("/")
        if len(rows) != 8:
            raise ValueError(f"expected 8 rows in position part of fen: {fen!r}")
        for row in rows:
            width, previous = 0, ""
            for c in row:
                if c in "12345678":
                    if previous == "digit":
                        raise ValueError(f"two subsequent digits in position part of fen: {fen!r}")
                    width, previous = width + int(c), "digit"
                elif c == "~":
                    if previous != "piece":
                        raise ValueError(f"'~' not after piece in position part of fen: {fen!r}")
                    previous = ""
                elif c.lower() in "pnbrqk":
                    width, previous = width + 1, "piece"
                else:
                    raise ValueError(f"invalid character in position part of fen: {fen!r}")
            if width != 8:
                raise ValueError(f"expected 8 columns per row in position part of fen: {fen!r}")
        self._clear_board()
        sq = 0
        for c in fen:
            if c in "12345678":
                sq += int(c)
            elif c == "~":
                self.promoted |= BB_SQUARES[(7 - (sq - 1) // 8) * 8 + (sq - 1) % 8]
            elif c != "/":
                self._set_piece_at((7 - sq // 8) * 8 + sq % 8, PIECE_SYMBOLS.index(c.lower()), c.isupper())
                sq += 1

    def _set_castling_fen(self, field):
        self.castling_rights = BB_EMPTY
        if field == "-":
            return
        for flag in field:
            color = flag.isupper()
            flag = flag.lower()
            backrank = BB_RANK_1 if color == WHITE else BB_RANK_8
            rooks = self.occupied_co[color] & self.rooks & backrank
            king = self.king(color)
            if flag == "q":
                if king is not None and lsb(rooks) < king:
                    self.castling_rights |= rooks & -rooks
                else:
                    self.castling_rights |= BB_FILE_A & backrank
            elif flag == "k":
                rook = msb(rooks)
                if king is not None and king < rook:
                    self.castling_rights |= BB_SQUARES[rook]
                else:
                    self.castling_rights |= BB_FILE_H & backrank
            else:
                self.castling_rights |= BB_FILES[FILE_NAMES.index(flag)] & backrank

    def board_fen(self):
        rows = []
        for rank in range(7, -1, -1):
            row, empty = "", 0
            for file in range(8):
                piece = self.piece_at(rank * 8 + file)
                if piece is None:
                    empty += 1
                    continue
                row += (str(empty) if empty else "") + piece.symbol()
                empty = 0
            rows.append(row + (str(empty) if empty else ""))
        return "/".join(rows)

    def castling_xfen(self):
        out = []
        for color in COLORS:
            king = self.king(color)
            if king is None:
                continue
            backrank = BB_RANK_1 if color == WHITE else BB_RANK_8
            for rook_square in scan_reversed(self.clean_castling_rights() & backrank):
                a_side = square_file(rook_square) < square_file(king)
                other_rooks = self.occupied_co[color] & self.rooks & backrank & ~BB_SQUARES[rook_square]
                if any((square_file(other) < square_file(rook_square)) == a_side for other in scan_reversed(other_rooks)):
                    letter = FILE_NAMES[square_file(rook_square)]
                else:
                    letter = "q" if a_side else "k"
                out.append(letter.upper() if color == WHITE else letter)
        return "".join(out) or "-"

    def fen(self):
        ep_square = self.ep_square if self.has_legal_en_passant() else None
        return " ".join([self.board_fen(), "w" if self.turn == WHITE else "b", self.castling_xfen(),
                         SQUARE_NAMES[ep_square] if ep_square is not None else "-",
                         str(self.halfmove_clock), str(self.fullmove_number)])

    def san(self, move):
        if not move:
            return "--"
        if self.is_castling(move):
            san = "O-O-O" if square_file(move.to_square) < square_file(move.from_square) else "O-O"
        else:
            piece_type = self.piece_type_at(move.from_square)
            capture = self.is_capture(move)
            if piece_type == PAWN:
                san = FILE_NAMES[square_file(move.from_square)] if capture else ""
            else:
                san = PIECE_SYMBOLS[piece_type].upper()
                others = 0
                from_mask = self.pieces_mask(piece_type, self.turn) & ~BB_SQUARES[move.from_square]
                for candidate in self.generate_legal_moves(from_mask, BB_SQUARES[move.to_square]):
                    others |= BB_SQUARES[candidate.from_square]
                if others:
                    row = column = False
                    if others & BB_RANKS[square_rank(move.from_square)]:
                        column = True
                    if others & BB_FILES[square_file(move.from_square)]:
                        row = True
                    else:
                        column = True
                    san += (FILE_NAMES[square_file(move.from_square)] if column else "") + \
                        (RANK_NAMES[square_rank(move.from_square)] if row else "")
            san += ("x" if capture else "") + SQUARE_NAMES[move.to_square]
            if move.promotion:
                san += "=" + PIECE_SYMBOLS[move.promotion].upper()
        self.push(move)
        try:
            if self.is_checkmate():
                return san + "#"
            return san + "+" if self.is_check() else san
        finally:
            self.pop()

