"""perft 2 without a move list: a depth-2 node's moves are enumerated straight from
their target sets, and each child is built from what the generator already knows
(the piece kind, a double push, a promotion) and bulk-counted at once. This is how
the fastest C++ generators work (Gigantua: no move list, the child built by value
by a routine that knows the piece kind); it saves writing, reading and decoding a
move list and finding the moving piece's kind again for the 25-45 children of every
depth-2 node, where almost all of a perft's makes happen.

Five counting sites (king, pawns, knights, diagonal and orthogonal sliders) each
get the bulk counter inlined by LLVM (`forceinline`: numba types and lowers it once,
so a site costs LLVM's time only, not a whole numba compile as `inline='always'` did);
the rare moves (promotions, en passant) share one more, behind a call, and castlings
count with the king's moves (docs/notebook/speed.md). The opponent's sliders boxed in by
their own pieces are left out of the children that cannot open their box (boxed_in).
The whole is compiled four times, as C kernels that _perft calls
through their addresses (by_address: linked into no other kernel), for the board shapes of
board.py: any position; one whose children cannot castle (`perft2_they_cannot_castle`:
the opponent's pieces still between king and rook, as in every opening); without castling
rights (`perft2_no_castling`: a sparse endgame then never pays for castling, as
Gigantua's generator, specialised on the castling rights, does not); and with only
kings, rooks and pawns as well (`perft2_pawns_and_rooks`: no knight or diagonal lookups
either, the most common endgames and perft's position 3)."""
import numpy as np
from numba import cfunc, njit, types

from .cache import CACHE
from .attacks import bishop_attacks, rook_attacks
from .bits import bswap, tzcnt
from .board import DOUBLE_PUSH, EN_PASSANT, KING_OR_CASTLE, MAY_CASTLE, MAY_HAVE_MINORS, NO_CASTLING, ONE, \
    PAWNS_AND_ROOKS, PROMOTE, STANDARD_CASTLING, STATE, ZERO, make_leaf_parent
from .movegen import FIXED_KING, FIXED_KNIGHTS, FIXED_PAWNS, children_cannot_castle, count_moves_at, ep_is_legal, \
    king_destinations, legality_masks, narrowed, nothing_fixed, pawn_targets
from .by_address import C_SIGNATURE, TABLE, from_python, table_view
from .tables import BISHOP_RAYS, FILE_A, FILE_H, KING, KNIGHT, PAWN_B, PERFT2_KERNELS, RANK_8, ROOK_RAYS


_NOT_8 = ~RANK_8
# _count's arguments are int64, never literal ints: numba compiles a function once for each
# distinct literal argument (five times here), while LLVM folds the constants after inlining
_FROM_TARGET = np.int64(0)      # delta 0: every target is reached from frm


@njit(cache=CACHE, _nrt=False, forceinline=True)
def _count(T, s, frm, delta, targets, what, shape, their_king, fixed):
    """Leaves below the children reached by moving `what` to each of `targets`, from frm, or
    for pawns (delta > 0) from each target minus delta. No move of ours moves their king: it
    stands on their_king in every child, as the children see it, found once per node: that
    square and every table entry read at it (the knight and pawn checks, the king's rays and
    zones) are loop-invariant for LLVM, not found again from each child's king bitboard; nor
    does it move our leapers of another kind than `what`: `fixed` (movegen.FIXED_PAWNS) names
    them and gives their attacks, found once per node (fixed_leapers)."""
    total = np.uint64(0)
    while targets:
        to = tzcnt(targets)
        total += count_moves_at(T, make_leaf_parent(T, s, to - delta if delta else frm, to, what, shape), shape,
                                their_king, fixed)
        targets &= targets - ONE
    return total


@njit(types.uint64(TABLE, STATE, types.int64, types.int64, types.uint64, types.int64, types.int64), cache=CACHE,
      _nrt=False)
def _count_rare(T, s, frm, delta, targets, what, their_king):
    """_count for the rare moves (promotions, en passant), left a call so that the
    counting code is not compiled in once more for each."""
    return _count(T, s, frm, delta, targets, what, STANDARD_CASTLING, their_king, nothing_fixed())


@njit(cache=CACHE, _nrt=False, forceinline=True)
def fixed_leapers(T, s, ksq):
    """The squares s's pawns, knights and king (on ksq) attack, as its children see them
    (mirrored): a child made by a move of another kind has them the same, `fixed` for _count
    (movegen.FIXED_PAWNS)."""
    P, N, D, O, K, us, occ, ep, cr, key, stm = s
    pawns = bswap(P & us)
    knights = bswap(N & us)
    pawn_attacks = ((pawns & ~FILE_A) >> np.uint64(9)) | ((pawns & ~FILE_H) >> np.uint64(7))
    knight_attacks = ZERO
    b = knights
    while b:
        knight_attacks |= T[KNIGHT + tzcnt(b)]
        b &= b - ONE
    return pawn_attacks, knight_attacks, T[KING + (ksq ^ 56)]


@njit(cache=CACHE, _nrt=False, forceinline=True)
def boxed_in(T, s):
    """(s's D and O without the opponent's boxed sliders, the walls): a boxed slider has a piece
    of its own on every square next to it along its lines (a queen may be boxed along one kind
    of line and not the other), the walls are those pieces. No move of ours puts a piece of
    theirs anywhere, so in a child of s such a slider has no move along those lines unless the
    move captured a wall: the children counted without it (unboxed) count the same, with one
    slider lookup fewer each. Below the start position most of the opponent's sliders are
    boxed for the first plies (their own pawns and pieces around them)."""
    P, N, D, O, K, us, occ, ep, cr, key, stm = s
    them = occ ^ us
    walls = ZERO
    b = D & them
    while b:
        sq = tzcnt(b)
        box = T[KING + sq] & T[BISHOP_RAYS + sq]
        if box & ~them == 0:
            D ^= ONE << np.uint64(sq)
            walls |= box
        b &= b - ONE
    b = O & them
    while b:
        sq = tzcnt(b)
        box = T[KING + sq] & T[ROOK_RAYS + sq]
        if box & ~them == 0:
            O ^= ONE << np.uint64(sq)
            walls |= box
        b &= b - ONE
    return D, O, walls


@njit(cache=CACHE, _nrt=False, forceinline=True)
def _unboxed(s, unboxed, targets):
    """s as the children reached by moves to `targets` may see it (boxed_in): without the
    opponent's boxed sliders, unless one of the moves captures a wall."""
    D, O, walls = unboxed
    if targets & walls:
        return s
    return s[0], s[1], D, O, s[4], s[5], s[6], s[7], s[8], s[9], s[10]


@njit(cache=CACHE, _nrt=False, forceinline=True)
def _perft2(T, s, shape, children):
    """Leaf nodes two plies below s; `shape` a constant (board.CASTLING, or what a kernel
    built for less knows of s: none of the other code is then compiled in) and `children`
    the same for the children it counts (narrower where none of them can castle). A
    promotion makes a child of another shape: promotions count through _count_rare,
    built for any, as does en passant."""
    s = narrowed(s, shape)
    P, N, D, O, K, us, occ, ep, cr, key, stm = s
    ksq, checkers, evasion, pin_o, pin_d = legality_masks(T, s)
    their_king = tzcnt(K & (occ ^ us)) ^ 56        # mirrored, as the children see it
    king_to, castles = king_destinations(T, s, ksq, checkers, shape, nothing_fixed())
    pawn_at, knight_at, king_at = fixed_leapers(T, s, ksq)
    # the opponent's boxed sliders, found where the children may have minor pieces (not in the
    # endgames of perft2_pawns_and_rooks, whose rooks are seldom boxed)
    unboxed = boxed_in(T, s) if children & MAY_HAVE_MINORS else (s[2], s[3], ZERO)
    # castlings counted with the king's moves (KING_OR_CASTLE), not by a call to _count_rare,
    # which LLVM may leave out of line: a call costs more than the child
    targets = king_to | (np.uint64(castles & 1) << np.uint64(6)) | (np.uint64(castles & 2) << np.uint64(1))
    king = np.int64(KING_OR_CASTLE) if shape & MAY_CASTLE else np.int64(5)
    total = _count(T, _unboxed(s, unboxed, targets), ksq, _FROM_TARGET, targets, king, children, their_king,
                   (np.int64(FIXED_PAWNS | FIXED_KNIGHTS), pawn_at | knight_at))
    if evasion == 0:
        return total
    target = ~us & evasion
    push1, push2, left, right = pawn_targets(P, us, occ, evasion, pin_o, pin_d)
    for way in range(4):
        if way == 0:
            t, delta, what = push1 & _NOT_8, 8, 0
        elif way == 1:
            t, delta, what = push2, 16, DOUBLE_PUSH
        elif way == 2:
            t, delta, what = left & _NOT_8, 7, 0
        else:
            t, delta, what = right & _NOT_8, 9, 0
        total += _count(T, _unboxed(s, unboxed, t), np.int64(0), delta, t, what, children, their_king,
                        (np.int64(FIXED_KNIGHTS | FIXED_KING), knight_at | king_at))
    b = N & us & ~(pin_o | pin_d)
    while b:
        sq = tzcnt(b)
        t = T[KNIGHT + sq] & target
        total += _count(T, _unboxed(s, unboxed, t), sq, _FROM_TARGET, t, np.int64(1), children, their_king,
                        (np.int64(FIXED_PAWNS | FIXED_KING), pawn_at | king_at))
        b &= b - ONE
    every = (np.int64(FIXED_PAWNS | FIXED_KNIGHTS | FIXED_KING), pawn_at | knight_at | king_at)
    b = D & us & ~pin_o
    while b:
        sq = tzcnt(b)
        bit = ONE << np.uint64(sq)
        t = bishop_attacks(T, sq, occ) & target
        if pin_d & bit:
            t &= pin_d
        total += _count(T, _unboxed(s, unboxed, t), sq, _FROM_TARGET, t, np.int64(4 if O & bit else 2), children,
                        their_king, every)
        b &= b - ONE
    b = O & us & ~pin_d
    while b:
        sq = tzcnt(b)
        bit = ONE << np.uint64(sq)
        t = rook_attacks(T, sq, occ) & target
        if pin_o & bit:
            t &= pin_o
        total += _count(T, _unboxed(s, unboxed, t), sq, _FROM_TARGET, t, np.int64(4 if D & bit else 3), children,
                        their_king, every)
        b &= b - ONE
    if (push1 | left | right) & RANK_8:
        for k in range(12):
            way = k % 3
            total += _count_rare(T, s, 0, 8 if way == 0 else (7 if way == 1 else 9),
                                 (push1 if way == 0 else (left if way == 1 else right)) & RANK_8,
                                 PROMOTE + 3 - k // 3, their_king)
    if ep:
        b = T[PAWN_B + np.int64(ep)] & P & us
        while b:
            sq = tzcnt(b)
            if ep_is_legal(T, s, sq, ksq, checkers, evasion):
                total += _count_rare(T, s, sq, 0, ONE << ep, EN_PASSANT, their_king)
            b &= b - ONE
    return total


# Each variant is a C kernel (by_address): compiled once here, called through its address by
# _perft, so no kernel above links it in again. Slots in tables.PERFT2_KERNELS, in this order:
KERNEL_ANY, KERNEL_THEY_CANNOT_CASTLE, KERNEL_NO_CASTLING, KERNEL_PAWNS_AND_ROOKS = range(4)


@njit(cache=CACHE, _nrt=False, forceinline=True)
def kernel_for(s):
    """The slot of the perft 2 kernel for an s with standard rights (or none): without
    rights, whether knights, bishops or queens are left; with them, whether a child can
    castle. (Chess960 rights take the move list: make_leaf_parent knows standard castling
    alone.)"""
    if s[8] == 0:
        return KERNEL_PAWNS_AND_ROOKS if (s[1] | s[2]) == 0 else KERNEL_NO_CASTLING
    return KERNEL_THEY_CANNOT_CASTLE if children_cannot_castle(s) else KERNEL_ANY


@njit(cache=CACHE, _nrt=False, forceinline=True)
def children_shape(kernel):
    """The board shape (board.py) the kernel in slot `kernel` counts its children with."""
    if kernel == KERNEL_ANY:
        return STANDARD_CASTLING
    if kernel == KERNEL_PAWNS_AND_ROOKS:
        return PAWNS_AND_ROOKS
    return NO_CASTLING


@cfunc(C_SIGNATURE, cache=CACHE, _nrt=False)
def _any(data, size, P, N, D, O, K, us, occ, ep, cr, key, stm):
    """Leaf nodes two plies below s. Standard castling rights only: a Chess960 position
    takes core.kernels.perft's move-list path, since make_leaf_parent knows standard
    castling alone."""
    return _perft2(table_view(data, size), (P, N, D, O, K, us, occ, ep, cr, key, stm), STANDARD_CASTLING,
                   STANDARD_CASTLING)


@cfunc(C_SIGNATURE, cache=CACHE, _nrt=False)
def _they_cannot_castle(data, size, P, N, D, O, K, us, occ, ep, cr, key, stm):
    """perft2 for an s with standard rights whose children cannot castle
    (movegen.children_cannot_castle): s's own castlings as in perft2, its children counted
    without castling code, as perft2_no_castling counts them. Below the start position the
    opponent's pieces stay between king and rook for the first plies: every depth-2 node of
    its perft 6 is one of these (docs/notebook/speed.md)."""
    return _perft2(table_view(data, size), (P, N, D, O, K, us, occ, ep, cr, key, stm), STANDARD_CASTLING,
                   NO_CASTLING)


@cfunc(C_SIGNATURE, cache=CACHE, _nrt=False)
def _no_castling(data, size, P, N, D, O, K, us, occ, ep, cr, key, stm):
    """perft2 for an s without castling rights (s[8] == 0), so that nothing below it
    has any: compiled without the castling code (the rights' update at each child,
    the castling tests of the king-ban map), which a sparse endgame otherwise pays
    at every node (docs/notebook/speed.md)."""
    return _perft2(table_view(data, size), (P, N, D, O, K, us, occ, ep, cr, key, stm), NO_CASTLING, NO_CASTLING)


@cfunc(C_SIGNATURE, cache=CACHE, _nrt=False)
def _pawns_and_rooks(data, size, P, N, D, O, K, us, occ, ep, cr, key, stm):
    """perft2 for an s without castling rights, knights, bishops or queens (s[8], s[1]
    and s[2] all 0). Its children have none either but where a pawn promotes, and those
    are counted by _count_rare, built for any position. Compiled without the knight and
    diagonal-slider code, which took about a quarter of position 3's time (docs/notebook/speed.md)."""
    return _perft2(table_view(data, size), (P, N, D, O, K, us, occ, ep, cr, key, stm), PAWNS_AND_ROOKS,
                   PAWNS_AND_ROOKS)


_KERNELS = (_any, _they_cannot_castle, _no_castling, _pawns_and_rooks)
# the same, from Python (tests)
perft2, perft2_they_cannot_castle, perft2_no_castling, perft2_pawns_and_rooks = map(from_python, _KERNELS)


def bind(T):
    """Write this process's kernel addresses into its table T (kernels.table()), which
    every caller of _perft passes: core.kernels.perft does it when it is imported."""
    addresses = np.array([k.address for k in _KERNELS], np.uint64)
    slots = slice(PERFT2_KERNELS, PERFT2_KERNELS + len(_KERNELS))
    if not np.array_equal(T[slots], addresses):
        owner = T.view()
        owner.setflags(write=True)     # T itself stays read-only (kernels.table())
        owner[slots] = addresses
