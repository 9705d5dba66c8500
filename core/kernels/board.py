"""The position as a tuple of uint64, always seen from the side to move.

    (P, N, D, O, K, US, OCC, EP, CR, KEY, STM)

P pawns, N knights, D diagonal sliders (bishops and queens), O orthogonal sliders
(rooks and queens), K kings: both colours in each. US the side to move's pieces,
OCC all pieces. The side to move always plays "up" the board: after every move the
board is mirrored (one byte swap per bitboard), so one generator serves both
colours. EP the en-passant target square (0 for none: a target is never a1),
CR castling rights (1 our K-side, 2 our Q-side, 4 their K-side, 8 their Q-side),
KEY the Polyglot Zobrist key of the real position, STM 0 when white is to move.

Moves are 16 bits: from | to << 6 | flag << 12 | promotion << 14, with flag
0 normal, 1 promotion (0 knight, 1 bishop, 2 rook, 3 queen), 2 en passant,
3 castling (to is the king's destination)."""
import numpy as np
from numba import njit

from .bits import bswap, tzcnt
from .tables import CASTLE_KEEP, PAWN_B, PAWN_W, Z_CASTLE, Z_EP, Z_PIECE, Z_TURN

ONE = np.uint64(1)
ZERO = np.uint64(0)
FLAG_NORMAL, FLAG_PROMOTION, FLAG_EP, FLAG_CASTLE = 0, 1, 2, 3


@njit(cache=True, _nrt=False)
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


@njit(cache=True, _nrt=False)
def swap_rights(cr):
    return ((cr >> np.uint64(2)) | (cr << np.uint64(2))) & np.uint64(15)


@njit(cache=True, _nrt=False)
def ep_is_hashed(T, P, us, ep):
    """Polyglot hashes the en-passant file only if a pawn of the side to move stands beside the pushed pawn."""
    return ep != 0 and (T[PAWN_B + np.int64(ep)] & P & us) != 0


@njit(cache=True, _nrt=False)
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
    k ^= T[Z_CASTLE + st * 16 + np.int64(cr)]
    if ep_is_hashed(T, P, us, ep):
        k ^= T[Z_EP + (np.int64(ep) & 7)]
    if st == 0:
        k ^= T[Z_TURN]
    return k


@njit(cache=True, _nrt=False, inline='always')
def make(T, s, m):
    """The position after move m, mirrored so that the opponent is to move."""
    P, N, D, O, K, us, occ, ep, cr, key, stm = s
    mi = np.int64(m)
    frm = mi & 63
    to = (mi >> 6) & 63
    flag = (mi >> 12) & 3
    fb = ONE << np.uint64(frm)
    tb = ONE << np.uint64(to)
    them = occ ^ us
    st = np.int64(stm)
    z_us = Z_PIECE + st * 2 * 6 * 64
    z_them = z_us + 6 * 64

    key ^= T[Z_TURN] ^ T[Z_CASTLE + st * 16 + np.int64(cr)]
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
        promo = (mi >> 14) & 3                      # 0 knight, 1 bishop, 2 rook, 3 queen
        P ^= tb
        key ^= T[z_us + to] ^ T[z_us + (promo + 1) * 64 + to]
        if promo == 0:
            N |= tb
        else:
            if promo != 2:
                D |= tb
            if promo != 1:
                O |= tb
    elif flag == FLAG_EP:
        cb = tb >> np.uint64(8)
        P ^= cb
        occ ^= cb
        key ^= T[z_them + to - 8]
    else:                                           # castling: the rook jumps too
        rf, rt = (7, 5) if to == 6 else (0, 3)
        rook = (ONE << np.uint64(rf)) | (ONE << np.uint64(rt))
        O ^= rook
        us ^= rook
        occ ^= rook
        key ^= T[z_us + 3 * 64 + rf] ^ T[z_us + 3 * 64 + rt]

    cr &= T[CASTLE_KEEP + frm] & T[CASTLE_KEEP + to]
    key ^= T[Z_CASTLE + st * 16 + np.int64(cr)]
    return (bswap(P), bswap(N), bswap(D), bswap(O), bswap(K), bswap(occ ^ us), bswap(occ),
            new_ep, swap_rights(cr), key, stm ^ ONE)
