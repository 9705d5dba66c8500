"""Legal-only move generation and bulk counting.

Before anything is generated, `legality_masks` finds what makes a move legal: the
checkers, the evasion mask (capture the checker or interpose; nothing in double
check) and the pin rays along ranks/files and along diagonals; `king_destinations`
then builds the king-ban map, the opponent's attacks with our king lifted off the
board (so it cannot step back along a checking ray), which also answers castling.
Moves then come straight out of target sets: no make/unmake legality test. En
passant alone gets a full re-test, since removing two pawns from one rank can
expose the king (the rank pin). `king_safety` builds the opponent's attack map with
the king in place: the statistics and the analysis overlays want that one.

`count_moves` is the leaf parent's bulk counter: the same target sets, counted
by popcount without producing moves."""
import numpy as np
from numba import njit, types

from .cache import CACHE
from .attacks import bishop_attacks, rook_attacks
from .bits import popcnt, put, tzcnt
from .board import CASTLING, CR_RIGHTS, FLAG_CASTLE, FLAG_EP, FLAG_PROMOTION, MAY_BE_960, MAY_CASTLE, MAY_HAVE_MINORS, \
    ONE, ZERO, layout_file
from .tables import ALL, BETWEEN, BISHOP_RAYS, BISHOP_ZONE, FILE_A, FILE_H, KING, KNIGHT, KNIGHT_ZONE, PAWN_B, \
    PAWN_W, RANK_3, RANK_8, ROOK_RAYS, ROOK_ZONE

MAX_MOVES = 256            # more than the 218 legal moves any position has
MAX_PLY = 64               # plies a move stack holds: MAX_MOVES moves for each
MOVES = types.Array(types.uint16, 1, "C")      # a move stack, as explicit signatures name it


def new_move_stack():
    """One list of moves per ply, for the recursive kernels (generate_moves writes at ply * MAX_MOVES)."""
    return np.zeros(MAX_PLY * MAX_MOVES, np.uint16)


# What a caller may know of the opponent's leapers before a position is made (`fixed`, the last
# argument of legality_masks_at, king_destinations and count_moves_at): perft 2 counts 20-50
# children of one node, and every child's opponent is the node's side to move, whose pieces one
# move changes only where they move. So for the children of one kind of move, the other kinds'
# attacks are the same in every child, found once per node (two_ply.fixed_leapers), and they give
# no check there: they gave none in the node, where that side was to move (a legal position).
# `fixed` is (kinds, attacks): the FIXED_ bits of the opponent's kinds that stand as in the node,
# and every square those pieces attack; where the bits are a constant the code that looks for
# those kinds' checks and attacks is folded away. nothing_fixed(): the position alone.
FIXED_PAWNS, FIXED_KNIGHTS, FIXED_KING = 1, 2, 4

# castling paths, from the side to move (always at the bottom): squares that must be empty
_K_EMPTY = np.uint64(0x60)   # f1 g1
_Q_EMPTY = np.uint64(0x0E)   # b1 c1 d1
# squares the castling king crosses or lands on, which must not be attacked
_K_CROSS = np.uint64(0x60)   # f1 g1
_Q_CROSS = np.uint64(0x0C)   # c1 d1
# the opponent's paths, on the top rank
_THEIR_K_EMPTY = _K_EMPTY << np.uint64(56)
_THEIR_Q_EMPTY = _Q_EMPTY << np.uint64(56)


@njit(cache=CACHE, _nrt=False, forceinline=True)
def attacks_of(T, P, N, D, O, K, side, occ, up):
    """Every square attacked by the pieces in `side`, sliders seen through `occ`.
    `up`: the side's pawns capture towards rank 8."""
    p = P & side
    if up:
        a = ((p & ~FILE_A) << np.uint64(7)) | ((p & ~FILE_H) << np.uint64(9))
    else:
        a = ((p & ~FILE_A) >> np.uint64(9)) | ((p & ~FILE_H) >> np.uint64(7))
    b = N & side
    while b:
        a |= T[KNIGHT + tzcnt(b)]
        b &= b - ONE
    b = D & side
    while b:
        a |= bishop_attacks(T, tzcnt(b), occ)
        b &= b - ONE
    b = O & side
    while b:
        a |= rook_attacks(T, tzcnt(b), occ)
        b &= b - ONE
    b = K & side
    if b:
        a |= T[KING + tzcnt(b)]
    return a


@njit(cache=CACHE, _nrt=False)
def blocker_ray(T, ksq, sniper, side, occ):
    """The ray king..sniper (sniper included) when exactly one piece stands between
    them and it belongs to `side`, else 0. With `side` ours the piece is pinned; with
    `side` theirs it is a discovered-check candidate (core.kernels.overlay_masks)."""
    ray = T[BETWEEN + ksq * 64 + sniper]
    between = ray & occ
    if between and (between & (between - ONE)) == 0 and (between & side):
        return ray | (ONE << np.uint64(sniper))
    return ZERO


@njit(cache=CACHE, _nrt=False, forceinline=True)
def pins_and_checkers(T, ksq, snipers, us, occ):
    """(union of the rays king..sniper holding exactly one of our pieces, the snipers
    with nothing between them and the king)."""
    rays = ZERO
    checkers = ZERO
    while snipers:
        sq = tzcnt(snipers)
        ray = T[BETWEEN + ksq * 64 + sq]
        between = ray & occ
        if between == 0:
            checkers |= ONE << np.uint64(sq)
        elif (between & (between - ONE)) == 0 and (between & us):
            rays |= ray | (ONE << np.uint64(sq))
        snipers &= snipers - ONE
    return rays, checkers


@njit(cache=CACHE, _nrt=False)
def checkers_to(T, P, N, D, O, sq, occ):
    """Pawns (capturing down the board, i.e. the opponent's), knights and sliders
    attacking sq through occ, of both colours; mask with a side. Kings excluded:
    they never give check."""
    return ((T[KNIGHT + sq] & N) | (T[PAWN_W + sq] & P)
            | (rook_attacks(T, sq, occ) & O) | (bishop_attacks(T, sq, occ) & D))


@njit(cache=CACHE, _nrt=False, forceinline=True)
def nothing_fixed():
    """`fixed` for a caller that knows nothing beyond the position."""
    return np.int64(0), ZERO


@njit(cache=CACHE, _nrt=False, forceinline=True)
def legality_masks(T, s):
    """(king square, checkers, evasion mask, orthogonal pin rays, diagonal pin rays)."""
    return legality_masks_at(T, s, tzcnt(s[4] & s[5]), nothing_fixed())


@njit(cache=CACHE, _nrt=False, forceinline=True)
def legality_masks_at(T, s, ksq, fixed):
    """legality_masks for the side to move's king, known to stand on ksq; the kinds `fixed`
    names give no check (FIXED_PAWNS)."""
    P, N, D, O, K, us, occ, ep, cr, key, stm = s
    them = occ ^ us
    kinds = fixed[0]
    checkers = ZERO
    if not kinds & FIXED_KNIGHTS:
        checkers |= T[KNIGHT + ksq] & N & them
    if not kinds & FIXED_PAWNS:
        checkers |= T[PAWN_W + ksq] & P & them
    # Checks and pins from the opponent's sliders on the king's lines (an empty board's: one
    # table load, no slider lookup): a sniper with nothing between it and the king checks, one
    # with exactly one piece between, of ours, pins it; one with more, or with one of theirs,
    # does neither. (An x-ray lookup through our pieces used to pick the snipers first: it
    # removed only those behind one of their own pieces, which the test above drops anyway,
    # and cost more than the loop it shortened: below Kiwipete their queen stands on our king's
    # file at every leaf parent.)
    pin_o = ZERO
    orth = O & them
    if T[ROOK_RAYS + ksq] & orth:
        pin_o, c = pins_and_checkers(T, ksq, T[ROOK_RAYS + ksq] & orth, us, occ)
        checkers |= c
    pin_d = ZERO
    diag = D & them
    if T[BISHOP_RAYS + ksq] & diag:
        pin_d, c = pins_and_checkers(T, ksq, T[BISHOP_RAYS + ksq] & diag, us, occ)
        checkers |= c
    if checkers == 0:
        evasion = ALL
    elif checkers & (checkers - ONE):
        evasion = ZERO
    else:
        evasion = T[BETWEEN + ksq * 64 + tzcnt(checkers)] | checkers
    return ksq, checkers, evasion, pin_o, pin_d


@njit(cache=CACHE, _nrt=False)
def king_safety(T, s):
    """legality_masks plus every square the opponent attacks with our king removed
    (the protected area the king may not enter)."""
    P, N, D, O, K, us, occ, ep, cr, key, stm = s
    ksq, checkers, evasion, pin_o, pin_d = legality_masks(T, s)
    banned = attacks_of(T, P, N, D, O, K, occ ^ us, occ ^ (K & us), False)
    return ksq, checkers, evasion, pin_o, pin_d, banned


@njit(cache=CACHE, _nrt=False, forceinline=True)
def is_attacked(T, P, N, D, O, K, them, sq, occ):
    """Does `them` attack sq, sliders seen through occ? Cheap tests first."""
    if (T[KNIGHT + sq] & N) & them or (T[PAWN_W + sq] & P) & them or (T[KING + sq] & K) & them:
        return True
    if bishop_attacks(T, sq, occ) & D & them:
        return True
    return (rook_attacks(T, sq, occ) & O & them) != 0


@njit(cache=CACHE, _nrt=False, forceinline=True)
def castles_960(T, s, ksq):
    """Chess960 castlings (1 K-side, 2 Q-side) for a king not in check. The king goes to
    g1 or c1, the rook to f1 or d1; every square either crosses, destinations included,
    must be empty but for the two of them, and every square the king crosses must be
    safe with both lifted: lifting the rook is what finds a rook pinned along rank 1."""
    P, N, D, O, K, us, occ, ep, cr, key, stm = s
    them = occ ^ us
    kbit = ONE << np.uint64(ksq)
    castles = 0
    for side in range(2):
        if not cr & (ONE << np.uint64(side)):
            continue
        rsq = layout_file(cr, np.int64(stm), np.int64(1 + side))
        kto, rto = (6, 5) if side == 0 else (2, 3)
        lifted = occ ^ kbit ^ (ONE << np.uint64(rsq))
        king_path = T[BETWEEN + ksq * 64 + kto] | (ONE << np.uint64(kto))
        rook_path = T[BETWEEN + rsq * 64 + rto] | (ONE << np.uint64(rto))
        if (king_path | rook_path) & lifted:
            continue
        ok = True
        while king_path:
            if is_attacked(T, P, N, D, O, K, them, tzcnt(king_path), lifted):
                ok = False
                break
            king_path &= king_path - ONE
        if ok:
            castles |= 1 << side
    return castles


@njit(cache=CACHE, _nrt=False, forceinline=True)
def king_destinations(T, s, ksq, checkers, shape, fixed):
    """(safe king destinations, castlings: 1 K-side, 2 Q-side), from the king-ban map:
    every square the opponent attacks with our king lifted off the board, so that the
    king cannot step back along a checking ray. Built only when the king has a square
    to go to or may castle; the same map answers the castling squares. `shape`:
    board.CASTLING, or a kernel's narrower one (without MAY_CASTLE no castling code is
    left once LLVM has inlined this with the constant); `fixed` as for legality_masks_at."""
    P, N, D, O, K, us, occ, ep, cr, key, stm = s
    if (shape & MAY_BE_960) != 0 and cr > CR_RIGHTS:
        return _king_destinations_960(T, s, ksq, checkers)
    them = occ ^ us
    candidates = T[KING + ksq] & ~us
    # standard chess: the king is on e1 whenever rights remain, so the map is needed for
    # castling only when a right is left
    if not (candidates or ((shape & MAY_CASTLE) != 0 and (cr & np.uint64(3)) != 0)):
        return ZERO, 0
    banned = _king_ban(T, s, ksq, fixed)
    safe = candidates & ~banned
    if not shape & MAY_CASTLE:
        return safe, 0
    # each castling needs its right, its path empty and the squares the king crosses and lands
    # on safe (e1 too: no check); computed without branches, which the children's varied
    # rights and paths would mispredict
    k_side = (cr & ONE) & np.uint64(((occ & _K_EMPTY) | (banned & _K_CROSS)) == 0)
    q_side = (cr >> ONE) & ONE & np.uint64(((occ & _Q_EMPTY) | (banned & _Q_CROSS)) == 0)
    return safe, np.int64((k_side | (q_side << ONE)) & (np.uint64(checkers == 0) * np.uint64(3)))


@njit(cache=CACHE, _nrt=False, forceinline=True)
def _king_ban(T, s, ksq, fixed):
    """The king-ban map: every square the opponent attacks with our king lifted off the board,
    looking up only the enemy pieces that could reach the king's neighbourhood (and c1, g1
    for a king on e1); the attacks of the kinds `fixed` names taken from it."""
    P, N, D, O, K, us, occ, ep, cr, key, stm = s
    them = occ ^ us
    kinds, known = fixed
    if kinds & FIXED_PAWNS:
        P = ZERO
    if kinds & FIXED_KING:
        K = ZERO
    knights = ZERO
    if not kinds & FIXED_KNIGHTS:
        knights = N & them
        if knights:
            knights &= T[KNIGHT_ZONE + ksq]
    diag = D & them
    if diag:
        diag &= T[BISHOP_ZONE + ksq]
    orth = O & them
    if orth:
        orth &= T[ROOK_ZONE + ksq]
    return known | attacks_of(T, P, knights, diag, orth, K, them, occ ^ (ONE << np.uint64(ksq)), False)


@njit(cache=CACHE, _nrt=False)
def _king_destinations_960(T, s, ksq, checkers):
    """king_destinations for Chess960 rights (cr > CR_RIGHTS), out of the standard path."""
    P, N, D, O, K, us, occ, ep, cr, key, stm = s
    candidates = T[KING + ksq] & ~us
    may_castle = checkers == 0 and (cr & np.uint64(3)) != 0
    if not (candidates or may_castle):
        return ZERO, 0
    safe = candidates & ~_king_ban(T, s, ksq, nothing_fixed())
    if may_castle:
        return safe, castles_960(T, s, ksq)
    return safe, 0


@njit(cache=CACHE, _nrt=False, forceinline=True)
def narrowed(s, shape):
    """s as a kernel built for `shape` sees it: without MAY_HAVE_MINORS its knights and
    diagonal sliders are a known 0, so that every lookup for them folds away where this is
    inlined with the constant."""
    if shape & MAY_HAVE_MINORS:
        return s
    P, N, D, O, K, us, occ, ep, cr, key, stm = s
    return (P, ZERO, ZERO, O, K, us, occ, ep, cr, key, stm)


@njit(cache=CACHE, _nrt=False, forceinline=True)
def children_cannot_castle(s):
    """True when no position one move after s (standard rights) can castle: the opponent
    has no right whose path is free of their own pieces. One move of ours never empties a
    square of theirs (a capture puts our piece there), so such a path stays shut. True of
    every depth-2 node of the start position's perft 6, whose opponent has not had the three
    moves that clear a path."""
    them = s[6] ^ s[5]
    cr = s[8]
    return (((cr & np.uint64(4)) == 0 or (them & _THEIR_K_EMPTY) != 0)
            and ((cr & np.uint64(8)) == 0 or (them & _THEIR_Q_EMPTY) != 0))


@njit(cache=CACHE, _nrt=False, forceinline=True)
def pawn_targets(P, us, occ, evasion, pin_o, pin_d):
    """Legal pawn destinations (en passant aside): single pushes, double pushes,
    captures towards the a-file (+7) and towards the h-file (+9)."""
    pawns = P & us
    empty = ~occ
    them = occ ^ us
    if (pawns & (pin_o | pin_d)) == 0:
        # no pawn pinned (nearly always): the plain target sets
        push1 = (pawns << np.uint64(8)) & empty
        push2 = ((push1 & RANK_3) << np.uint64(8)) & empty
        left = ((pawns & ~FILE_A) << np.uint64(7)) & them
        right = ((pawns & ~FILE_H) << np.uint64(9)) & them
        return push1 & evasion, push2 & evasion, left & evasion, right & evasion
    free = pawns & ~(pin_o | pin_d)
    on_file = pawns & pin_o          # may push along its pin, never capture
    on_diag = pawns & pin_d          # may capture along its pin, never push
    push1 = ((free << np.uint64(8)) | ((on_file << np.uint64(8)) & pin_o)) & empty
    push2 = ((push1 & RANK_3) << np.uint64(8)) & empty
    left = (((free & ~FILE_A) << np.uint64(7)) | (((on_diag & ~FILE_A) << np.uint64(7)) & pin_d)) & them
    right = (((free & ~FILE_H) << np.uint64(9)) | (((on_diag & ~FILE_H) << np.uint64(9)) & pin_d)) & them
    return push1 & evasion, push2 & evasion, left & evasion, right & evasion


@njit(cache=CACHE, _nrt=False)
def ep_is_legal(T, s, frm, ksq, checkers, evasion):
    """Full test for en passant frm -> ep: it must answer any check, and lifting
    both pawns must not open a slider line to our king (the rank pin, or the
    capturing pawn pinned on a diagonal)."""
    P, N, D, O, K, us, occ, ep, cr, key, stm = s
    to_bit = ONE << ep
    victim = to_bit >> np.uint64(8)
    if checkers and not (evasion & (to_bit | victim)):
        return False
    after = occ ^ (ONE << np.uint64(frm)) ^ victim ^ to_bit
    them = (occ ^ us) ^ victim
    if rook_attacks(T, ksq, after) & O & them:
        return False
    if bishop_attacks(T, ksq, after) & D & them:
        return False
    return True


@njit(cache=CACHE, _nrt=False, forceinline=True)
def count_moves(T, s, shape):
    """Number of legal moves of s (count_moves_at, the king's square found from s)."""
    return count_moves_at(T, s, shape, tzcnt(s[4] & s[5]), nothing_fixed())


@njit(cache=CACHE, _nrt=False, forceinline=True)
def count_moves_at(T, s, shape, ksq, fixed):
    """Number of legal moves, by popcount of target sets (the leaf parent's work), the side to
    move's king on ksq (perft 2 knows it once for all its children: two_ply._count), and what
    `fixed` says of the opponent's leapers (FIXED_PAWNS).
    `shape`: board.CASTLING, or what a kernel built for less knows of s (board.NO_CASTLING,
    board.PAWNS_AND_ROOKS)."""
    s = narrowed(s, shape)
    P, N, D, O, K, us, occ, ep, cr, key, stm = s
    ksq, checkers, evasion, pin_o, pin_d = legality_masks_at(T, s, ksq, fixed)
    king_to, castles = king_destinations(T, s, ksq, checkers, shape, fixed)
    n = popcnt(king_to) + np.uint64(castles & 1) + np.uint64(castles >> 1)
    if evasion == 0:
        return n                                   # double check: king moves only
    target = ~us & evasion
    pinned = pin_o | pin_d

    push1, push2, left, right = pawn_targets(P, us, occ, evasion, pin_o, pin_d)
    # pushes and captures land on different squares (single and double pushes too), so they
    # count as one set; captures to the left and to the right may share a square
    quiet_or_left = push1 | push2 | left
    n += popcnt(quiet_or_left) + popcnt(right)
    n += np.uint64(3) * (popcnt(quiet_or_left & RANK_8) + popcnt(right & RANK_8))

    b = N & us & ~pinned                            # a pinned knight never moves
    while b:
        n += popcnt(T[KNIGHT + tzcnt(b)] & target)
        b &= b - ONE
    # Pinned sliders get loops of their own here, so each counting loop is one lookup and a
    # popcount with no branch; generate_moves masks inside one loop instead, since it writes
    # every move out anyway and a pin is rare.
    b = D & us & ~pinned
    while b:
        n += popcnt(bishop_attacks(T, tzcnt(b), occ) & target)
        b &= b - ONE
    b = D & us & pin_d
    while b:
        n += popcnt(bishop_attacks(T, tzcnt(b), occ) & target & pin_d)
        b &= b - ONE
    b = O & us & ~pinned
    while b:
        n += popcnt(rook_attacks(T, tzcnt(b), occ) & target)
        b &= b - ONE
    b = O & us & pin_o
    while b:
        n += popcnt(rook_attacks(T, tzcnt(b), occ) & target & pin_o)
        b &= b - ONE

    if ep:
        b = T[PAWN_B + np.int64(ep)] & P & us
        while b:
            if ep_is_legal(T, s, tzcnt(b), ksq, checkers, evasion):
                n += ONE
            b &= b - ONE
    return n


@njit(cache=CACHE, _nrt=False)
def _emit(buf, n, frm, targets):
    while targets:
        put(buf, n, np.uint16(frm | (tzcnt(targets) << 6)))
        n += 1
        targets &= targets - ONE
    return n


@njit(cache=CACHE, _nrt=False)
def _emit_pawns(buf, n, targets, delta):
    """Pawn moves to `targets` from `to - delta`, four moves for each promotion."""
    while targets:
        to = tzcnt(targets)
        m = (to - delta) | (to << 6)
        if to >= 56:
            for promo in range(3, -1, -1):            # queen first
                put(buf, n, np.uint16(m | (FLAG_PROMOTION << 12) | (promo << 14)))
                n += 1
        else:
            put(buf, n, np.uint16(m))
            n += 1
        targets &= targets - ONE
    return n


@njit(cache=CACHE, _nrt=False)
def generate_moves(T, s, buf, n):
    """Write the legal moves into buf from index n on; return the new end index."""
    P, N, D, O, K, us, occ, ep, cr, key, stm = s
    ksq, checkers, evasion, pin_o, pin_d = legality_masks(T, s)
    king_to, castles = king_destinations(T, s, ksq, checkers, CASTLING, nothing_fixed())
    n = _emit(buf, n, ksq, king_to)
    if castles & 1:
        put(buf, n, np.uint16(ksq | (6 << 6) | (FLAG_CASTLE << 12)))
        n += 1
    if castles & 2:
        put(buf, n, np.uint16(ksq | (2 << 6) | (FLAG_CASTLE << 12)))
        n += 1
    if evasion == 0:
        return n
    target = ~us & evasion
    pinned = pin_o | pin_d

    push1, push2, left, right = pawn_targets(P, us, occ, evasion, pin_o, pin_d)
    # int64 deltas, not literal ints: one compile of _emit_pawns instead of four
    n = _emit_pawns(buf, n, push1, np.int64(8))
    n = _emit_pawns(buf, n, push2, np.int64(16))
    n = _emit_pawns(buf, n, left, np.int64(7))
    n = _emit_pawns(buf, n, right, np.int64(9))

    b = N & us & ~pinned
    while b:
        sq = tzcnt(b)
        n = _emit(buf, n, sq, T[KNIGHT + sq] & target)
        b &= b - ONE
    b = D & us & ~pin_o
    while b:
        sq = tzcnt(b)
        t = bishop_attacks(T, sq, occ) & target
        if pin_d & (ONE << np.uint64(sq)):
            t &= pin_d
        n = _emit(buf, n, sq, t)
        b &= b - ONE
    b = O & us & ~pin_d
    while b:
        sq = tzcnt(b)
        t = rook_attacks(T, sq, occ) & target
        if pin_o & (ONE << np.uint64(sq)):
            t &= pin_o
        n = _emit(buf, n, sq, t)
        b &= b - ONE

    if ep:
        b = T[PAWN_B + np.int64(ep)] & P & us
        while b:
            frm = tzcnt(b)
            if ep_is_legal(T, s, frm, ksq, checkers, evasion):
                put(buf, n, np.uint16(frm | (np.int64(ep) << 6) | (FLAG_EP << 12)))
                n += 1
            b &= b - ONE
    return n


@njit(cache=CACHE)
def legal_moves(T, s):
    """The legal moves of s as an array of 16-bit moves."""
    buf = np.zeros(MAX_MOVES, np.uint16)
    n = generate_moves(T, s, buf, np.int64(0))     # int64, not a literal: one compile for every caller
    return buf[:n].copy()
