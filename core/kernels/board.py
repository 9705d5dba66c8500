"""The position as a tuple of uint64, always seen from the side to move.

    (P, N, D, O, K, US, OCC, EP, CR, KEY, STM)

P pawns, N knights, D diagonal sliders (bishops and queens), O orthogonal sliders
(rooks and queens), K kings: both colours in each. US the side to move's pieces,
OCC all pieces. The side to move always plays "up" the board: after every move the
board is mirrored (one byte swap per bitboard), so one generator serves both
colours. EP the en-passant target square (0 for none: a target is never a1),
CR castling rights (1 our K-side, 2 our Q-side, 4 their K-side, 8 their Q-side),
plus, only when a right's king or rook does not stand on e1/a1/h1 (e8/a8/h8), the
Chess960 layout: CR_960 and the king and rook files of each colour (`layout_bits`).
Standard positions keep CR <= 15 and never take the Chess960 branches. KEY the
Polyglot Zobrist key of the real position, STM 0 when white is to move.

Moves are 16 bits: from | to << 6 | flag << 12 | promotion << 14, with flag
0 normal, 1 promotion (0 knight, 1 bishop, 2 rook, 3 queen), 2 en passant,
3 castling (to is the king's destination, g1 or c1 seen from the side to move; the
rook's file comes from CR in Chess960). `move_from`, `move_to`, `move_flag` and
`move_promotion` read these fields; nothing else should shift a move by hand."""
import numpy as np
from numba import njit, types

from .cache import CACHE
from .bits import bswap, tzcnt
from .tables import CASTLE_KEEP, PAWN_B, PAWN_W, Z_CASTLE, Z_EP, Z_PIECE, Z_TURN

STATE = types.UniTuple(types.uint64, 11)      # the tuple above, as explicit signatures name it
ONE = np.uint64(1)
ZERO = np.uint64(0)
FLAG_NORMAL, FLAG_PROMOTION, FLAG_EP, FLAG_CASTLE = 0, 1, 2, 3

# Chess960 layout in CR: bit 7 marks it; from bit 8 on, 9 bits per colour (white
# first): king file, K-side rook file, Q-side rook file, 3 bits each. Bits 4-6 stay
# clear so that swap_rights's shifts never carry layout bits into the rights. Files
# read the same from either side (the mirror swaps ranks only): the layout is never swapped.
CR_RIGHTS = np.uint64(15)
CR_960 = 128
LAYOUT_SHIFT = 8
LAYOUT_BITS = 9


def layout_bits(white_files, black_files) -> int:
    """CR's Chess960 part for (king, K-side rook, Q-side rook) files of each colour."""
    cr = CR_960
    for colour, files in enumerate((white_files, black_files)):
        for i, f in enumerate(files):
            cr |= (f & 7) << (LAYOUT_SHIFT + LAYOUT_BITS * colour + 3 * i)
    return cr


@njit(cache=CACHE, _nrt=False, forceinline=True)
def move_from(m):
    return np.int64(m) & 63


@njit(cache=CACHE, _nrt=False, forceinline=True)
def move_to(m):
    return (np.int64(m) >> 6) & 63


@njit(cache=CACHE, _nrt=False, forceinline=True)
def move_flag(m):
    return (np.int64(m) >> 12) & 3


@njit(cache=CACHE, _nrt=False, forceinline=True)
def move_promotion(m):
    """0 knight, 1 bishop, 2 rook, 3 queen (meaningful with FLAG_PROMOTION only)."""
    return (np.int64(m) >> 14) & 3


@njit(cache=CACHE, _nrt=False, forceinline=True)
def layout_file(cr, colour, which):
    """File of `colour`'s (0 white) king (which 0), K-side rook (1) or Q-side rook (2).
    Callers pass int64 values, not literal ints: numba compiles a function once for each
    distinct literal argument, while LLVM folds the constant after inlining anyway."""
    return np.int64(cr >> np.uint64(LAYOUT_SHIFT + LAYOUT_BITS * colour + 3 * which)) & 7


@njit(cache=CACHE, _nrt=False, forceinline=True)
def rights_after_960(cr, stm, frm, to):
    """Chess960 rights after a move frm -> to by the side to move (relative squares):
    ours go with a king or rook move, theirs with the capture of their rook."""
    us = np.int64(stm)
    king, k_rook, q_rook = np.int64(0), np.int64(1), np.int64(2)     # not literals: see layout_file
    # independent tests: a missing right's files may equal a present one's, harmlessly
    if frm == layout_file(cr, us, king):
        cr &= ~np.uint64(3)
    if frm == layout_file(cr, us, k_rook):
        cr &= ~np.uint64(1)
    if frm == layout_file(cr, us, q_rook):
        cr &= ~np.uint64(2)
    if to == 56 + layout_file(cr, 1 - us, k_rook):
        cr &= ~np.uint64(4)
    if to == 56 + layout_file(cr, 1 - us, q_rook):
        cr &= ~np.uint64(8)
    if (cr & CR_RIGHTS) == 0:
        return ZERO                  # no rights left: back on the standard path
    return cr


@njit(cache=CACHE, _nrt=False)
def kind_on(P, N, D, O, bit):
    """Kind (0 pawn .. 4 queen, 5 king) of the piece on `bit`."""
    if P & bit:
        return 0
    if N & bit:
        return 1
    if D & bit:
        return 4 if O & bit else 2
    if O & bit:
        return 3
    return 5


@njit(cache=CACHE, _nrt=False)
def swap_rights(cr):
    return (((cr >> np.uint64(2)) | (cr << np.uint64(2))) & CR_RIGHTS) | (cr & ~CR_RIGHTS)


@njit(cache=CACHE, _nrt=False)
def ep_is_hashed(T, P, us, ep):
    """Polyglot hashes the en-passant file only if a pawn of the side to move stands beside the pushed pawn."""
    return ep != 0 and (T[PAWN_B + np.int64(ep)] & P & us) != 0


@njit(cache=CACHE, _nrt=False)
def full_key(T, s):
    """The Polyglot key computed from scratch (the incremental one must equal it)."""
    P, N, D, O, K, us, occ, ep, cr, key, stm = s
    st = np.int64(stm)
    k = ZERO
    b = occ
    while b:
        sq = tzcnt(b)
        bit = ONE << np.uint64(sq)
        theirs = 0 if us & bit else 1
        k ^= T[Z_PIECE + ((st * 2 + theirs) * 6 + kind_on(P, N, D, O, bit)) * 64 + sq]
        b &= b - ONE
    k ^= T[Z_CASTLE + st * 16 + np.int64(cr & CR_RIGHTS)]
    if ep_is_hashed(T, P, us, ep):
        k ^= T[Z_EP + (np.int64(ep) & 7)]
    if st == 0:
        k ^= T[Z_TURN]
    return k


@njit(cache=CACHE, _nrt=False, forceinline=True)
def promoted(N, D, O, tb, promo):
    """(N, D, O) with the promotion piece (0 knight .. 3 queen) put on tb."""
    if promo == 0:
        return N | tb, D, O
    if promo == 1:
        return N, D | tb, O
    if promo == 2:
        return N, D, O | tb
    return N, D | tb, O | tb


@njit(cache=CACHE, _nrt=False, forceinline=True)
def make(T, s, m):
    """The position after move m, mirrored so that the opponent is to move."""
    P, N, D, O, K, us, occ, ep, cr, key, stm = s
    frm = move_from(m)
    to = move_to(m)
    flag = move_flag(m)
    fb = ONE << np.uint64(frm)
    tb = ONE << np.uint64(to)
    them = occ ^ us
    st = np.int64(stm)
    z_us = Z_PIECE + st * 2 * 6 * 64
    z_them = z_us + 6 * 64

    key ^= T[Z_TURN]
    if ep_is_hashed(T, P, us, ep):
        key ^= T[Z_EP + (np.int64(ep) & 7)]

    if them & tb:                                   # capture: clear the victim
        key ^= T[z_them + kind_on(P, N, D, O, tb) * 64 + to]
        P &= ~tb
        N &= ~tb
        D &= ~tb
        O &= ~tb
        them ^= tb

    kind = kind_on(P, N, D, O, fb)
    key ^= T[z_us + kind * 64 + frm] ^ T[z_us + kind * 64 + to]
    move = fb | tb
    if kind == 0:
        P ^= move
    elif kind == 1:
        N ^= move
    elif kind == 5:
        K ^= move
    else:
        if D & fb:
            D ^= move
        if O & fb:
            O ^= move
    us ^= move
    occ = (occ ^ fb) | tb

    new_ep = ZERO
    if flag == FLAG_NORMAL:
        if kind == 0 and to - frm == 16:
            # mirrored for the child, where the opponent moves "up"
            new_ep = np.uint64((frm + 8) ^ 56)
            if T[PAWN_W + frm + 8] & P & them:
                key ^= T[Z_EP + (frm & 7)]
    elif flag == FLAG_PROMOTION:
        promo = move_promotion(m)
        P ^= tb
        key ^= T[z_us + to] ^ T[z_us + (promo + 1) * 64 + to]
        N, D, O = promoted(N, D, O, tb, promo)
    elif flag == FLAG_EP:
        cb = tb >> np.uint64(8)
        P ^= cb
        occ ^= cb
        key ^= T[z_them + to - 8]
    elif cr <= CR_RIGHTS:                           # castling: the rook jumps too
        rf, rt = (7, 5) if to == 6 else (0, 3)
        rook = (ONE << np.uint64(rf)) | (ONE << np.uint64(rt))
        O ^= rook
        us ^= rook
        occ ^= rook
        key ^= T[z_us + 3 * 64 + rf] ^ T[z_us + 3 * 64 + rt]
    else:
        # Chess960 castling: king and rook may start on each other's destination, or the
        # king may not move at all, so the four squares are set from scratch
        rf = layout_file(cr, st, np.int64(1 if to == 6 else 2))
        rt = 5 if to == 6 else 3
        rfb = ONE << np.uint64(rf)
        rtb = ONE << np.uint64(rt)
        touched = fb | tb | rfb | rtb
        K = (K & ~(fb | tb)) | tb
        O = (O & ~rfb) | rtb
        us = (us & ~touched) | tb | rtb
        occ = (occ & ~touched) | tb | rtb
        key ^= T[z_us + 3 * 64 + rf] ^ T[z_us + 3 * 64 + rt]

    if cr:                                          # most positions have no rights left
        before = cr
        if cr <= CR_RIGHTS:
            cr &= T[CASTLE_KEEP + frm] & T[CASTLE_KEEP + to]
        else:
            cr = rights_after_960(cr, stm, frm, to)
        if cr != before:
            key ^= T[Z_CASTLE + st * 16 + np.int64(before & CR_RIGHTS)] ^ \
                T[Z_CASTLE + st * 16 + np.int64(cr & CR_RIGHTS)]
    return (bswap(P), bswap(N), bswap(D), bswap(O), bswap(K), bswap(occ ^ us), bswap(occ),
            new_ep, swap_rights(cr), key, stm ^ ONE)


# What a counting kernel is built for: make_leaf_parent's, count_moves' and king_destinations'
# `shape` argument. Bit MAY_CASTLE: castling rights may exist; bit MAY_HAVE_MINORS: knights,
# bishops or queens may; bit MAY_BE_960: the rights may be Chess960 ones (CR > CR_RIGHTS). Passed
# as int64 values rather than literals, so that numba compiles each of those functions once for
# every shape, and LLVM folds the constant where it inlines them: a kernel built for less has none
# of the other code (Gigantua specialises its generator the same way, at compile time).
MAY_CASTLE, MAY_HAVE_MINORS, MAY_BE_960 = 1, 2, 4
CASTLING = np.int64(MAY_CASTLE | MAY_HAVE_MINORS | MAY_BE_960)     # any position
STANDARD_CASTLING = np.int64(MAY_CASTLE | MAY_HAVE_MINORS)   # standard rights, as below perft 2's kernels
NO_CASTLING = np.int64(MAY_HAVE_MINORS)                # no castling rights
PAWNS_AND_ROOKS = np.int64(0)       # no castling rights and no knight, bishop or queen either

# What moves, for make_leaf_parent: the piece kinds 0-5 as above, then the moves that do more
DOUBLE_PUSH, CASTLE, EN_PASSANT = 6, 7, 8
PROMOTE = 9                          # + 0 knight .. 3 queen
# the king, or a castling when it goes from e1 to g1 or c1 (no king move goes two squares): lets
# perft 2 count its castlings with the king's moves, and a kernel without rights use kind 5
KING_OR_CASTLE = 13
# the castling rook's from and to squares by the king's destination file: c (a1 d1), g (h1 f1)
_CASTLING_ROOKS = np.uint64((0x09 << 16) | (0xA0 << 48))


@njit(cache=CACHE, _nrt=False, forceinline=True)
def make_leaf_parent(T, s, frm, to, what, shape):
    """The position after frm -> to, for a child that will only be counted: the mover's
    kind (`what`) comes from the generator instead of the board, a capture clears the
    square from every kind without asking which, and the key is left at 0, since the
    leaf parents below are never looked up in a table. Standard chess only (the
    Chess960 castling goes through `make`). `shape` as above: without MAY_CASTLE s has no
    rights and the child has none; with it the child keeps its own rights only (the side to
    move's: CR's 1 and 2, never the opponent's 4 and 8), all that count_moves reads of a
    standard position."""
    P, N, D, O, K, us, occ, ep, cr, key, stm = s
    fb = ONE << np.uint64(frm)
    tb = ONE << np.uint64(to)
    move = fb | tb
    clear = ~tb
    P &= clear
    N &= clear
    D &= clear
    O &= clear
    new_ep = ZERO
    if what == 0:
        P ^= move
    elif what == 1:
        N ^= move
    elif what == 2:
        D ^= move
    elif what == 3:
        O ^= move
    elif what == 4:
        D ^= move
        O ^= move
    elif what == 5 or what == KING_OR_CASTLE:
        K ^= move
        if what == KING_OR_CASTLE and frm == 4:
            # e1 -> g1 or c1 is castling (no king move goes two squares): the rook jumps too
            rook = (_CASTLING_ROOKS >> np.uint64((to & 7) * 8)) & np.uint64(0xFF)
            O ^= rook
            us ^= rook
            occ ^= rook
    elif what == DOUBLE_PUSH:
        P ^= move
        new_ep = np.uint64((frm + 8) ^ 56)      # mirrored for the child
    elif what == CASTLE:
        K ^= move
        rook = np.uint64(0xA0) if to == 6 else np.uint64(0x09)
        O ^= rook
        us ^= rook
        occ ^= rook
    elif what == EN_PASSANT:
        P ^= move
        victim = tb >> np.uint64(8)
        P ^= victim
        occ ^= victim
    else:
        P ^= fb
        N, D, O = promoted(N, D, O, tb, what - PROMOTE)
    us ^= move
    occ = (occ ^ fb) | tb
    if shape & MAY_CASTLE:
        # the child's own rights alone (theirs, which only our capture of a rook can take):
        # it is only counted, and counting reads no other
        cr = (cr & T[CASTLE_KEEP + to]) >> np.uint64(2)
    else:
        cr = ZERO
    return (bswap(P), bswap(N), bswap(D), bswap(O), bswap(K), bswap(occ ^ us), bswap(occ),
            new_ep, cr, ZERO, stm ^ ONE)
