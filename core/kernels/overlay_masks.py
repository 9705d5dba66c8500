"""What the generator knows before it generates, as masks for the overlays.

Every mask comes from the generator's own functions (king_safety, blocker_ray,
checkers_to, ep_is_legal in movegen), so an overlay shows exactly what the
generator acted on. Everything is in kernel coordinates: the side to move plays
up the board (core.board.analysis mirrors back to real squares).

Also the two king-threat primitives the threat benchmark times: the generator's
single-square attack test (movegen.is_attacked, re-exported here) and the bulk
king-zone pass (every piece's attacks computed once and summed into bit-sliced
per-square counters)."""
import numpy as np
from numba import njit

from .cache import CACHE
from .attacks import bishop_attacks, rook_attacks
from .bits import tzcnt
from .board import ONE, ZERO
from .movegen import blocker_ray, checkers_to, ep_is_legal, is_attacked, king_safety  # noqa: F401
from .tables import BETWEEN, FILE_A, FILE_H, KING, KNIGHT, PAWN_B

# en-passant verdicts: the legal ones first, then why a capture is illegal
EP_LEGAL = 0
EP_CAPTURES_CHECKER = 1    # legal: takes the pawn that gives check
EP_BLOCKS_CHECK = 2        # legal: lands between the king and a checking slider (unreachable)
EP_CHECK_NOT_RESOLVED = 3
EP_RANK_PIN = 4            # both pawns leave the rank and open it to a rook or queen
EP_CAPTURER_PINNED = 5     # the capturing pawn leaves a pin line
EP_VICTIM_SHIELDS = 6      # the captured pawn was the only shield (unreachable)
NO_SQUARE = 64


@njit(cache=CACHE, _nrt=False)
def attackers_to(T, s, sq, occ):
    """Opponent pieces (kings included) attacking sq, sliders seen through occ."""
    P, N, D, O, K, us, all_occ, ep, cr, key, stm = s
    return (checkers_to(T, P, N, D, O, sq, occ) | (T[KING + sq] & K)) & (all_occ ^ us)


@njit(cache=CACHE, _nrt=False)
def line_blockers(T, s, theirs, out):
    """Pieces standing alone between our king and an opponent slider: ours (pinned)
    when `theirs` is False, the opponent's (discovered-check candidates, Stockfish's
    enemy blockers) when True. Writes rows (blocker, slider, ray king..slider with the
    slider) into out and returns how many."""
    P, N, D, O, K, us, occ, ep, cr, key, stm = s
    them = occ ^ us
    ksq = tzcnt(K & us)
    side = them if theirs else us
    # the blocking side is transparent, so its pieces do not hide the sliders behind them
    see = us if theirs else them
    snipers = ((rook_attacks(T, ksq, see) & O) | (bishop_attacks(T, ksq, see) & D)) & them
    n = 0
    while snipers:
        sq = tzcnt(snipers)
        ray = blocker_ray(T, ksq, sq, side, occ)
        if ray:
            out[n, 0] = np.uint64(tzcnt(T[BETWEEN + ksq * 64 + sq] & occ))
            out[n, 1] = np.uint64(sq)
            out[n, 2] = ray
            n += 1
        snipers &= snipers - ONE
    return n


@njit(cache=CACHE, _nrt=False)
def _add(c0, c1, c2, c3, c4, a):
    # ripple-carry add of a one-bit-per-square board into five bit planes (counts 0..31)
    t = c0 & a
    c0 ^= a
    a = t
    t = c1 & a
    c1 ^= a
    a = t
    t = c2 & a
    c2 ^= a
    a = t
    t = c3 & a
    c3 ^= a
    c4 ^= t
    return c0, c1, c2, c3, c4


@njit(cache=CACHE, _nrt=False)
def attack_counts(T, P, N, D, O, K, side, occ, up):
    """How many of `side`'s pieces attack each square, as five bit planes: bit q of
    plane i is bit i of square q's count. The same piece walk as attacks_of, but
    summed instead of or-ed (at most 19 pieces can attack one square)."""
    c0 = c1 = c2 = c3 = c4 = ZERO
    p = P & side
    if up:
        left, right = (p & ~FILE_A) << np.uint64(7), (p & ~FILE_H) << np.uint64(9)
    else:
        left, right = (p & ~FILE_A) >> np.uint64(9), (p & ~FILE_H) >> np.uint64(7)
    c0, c1, c2, c3, c4 = _add(c0, c1, c2, c3, c4, left)
    c0, c1, c2, c3, c4 = _add(c0, c1, c2, c3, c4, right)
    b = N & side
    while b:
        c0, c1, c2, c3, c4 = _add(c0, c1, c2, c3, c4, T[KNIGHT + tzcnt(b)])
        b &= b - ONE
    b = D & side
    while b:
        c0, c1, c2, c3, c4 = _add(c0, c1, c2, c3, c4, bishop_attacks(T, tzcnt(b), occ))
        b &= b - ONE
    b = O & side
    while b:
        c0, c1, c2, c3, c4 = _add(c0, c1, c2, c3, c4, rook_attacks(T, tzcnt(b), occ))
        b &= b - ONE
    b = K & side
    if b:
        c0, c1, c2, c3, c4 = _add(c0, c1, c2, c3, c4, T[KING + tzcnt(b)])
    return c0, c1, c2, c3, c4


@njit(cache=CACHE, _nrt=False)
def king_zones(T, s):
    """Both king zones (king square and neighbours) with the opposing attack counts
    restricted to them: (zone_us, zone_them, 5 planes of their attacks on our zone,
    5 planes of our attacks on their zone). One bulk pass per side."""
    P, N, D, O, K, us, occ, ep, cr, key, stm = s
    them = occ ^ us
    kus = K & us
    kthem = K & them
    zone_us = T[KING + tzcnt(kus)] | kus
    zone_them = T[KING + tzcnt(kthem)] | kthem
    a0, a1, a2, a3, a4 = attack_counts(T, P, N, D, O, K, them, occ, False)
    b0, b1, b2, b3, b4 = attack_counts(T, P, N, D, O, K, us, occ, True)
    return (zone_us, zone_them,
            a0 & zone_us, a1 & zone_us, a2 & zone_us, a3 & zone_us, a4 & zone_us,
            b0 & zone_them, b1 & zone_them, b2 & zone_them, b3 & zone_them, b4 & zone_them)


@njit(cache=CACHE, _nrt=False)
def ep_verdict(T, s, frm, ksq, checkers, evasion):
    """(verdict code, square of the piece behind the verdict or NO_SQUARE) for the
    en-passant capture from frm. Legality is ep_is_legal's; this only says why."""
    P, N, D, O, K, us, occ, ep, cr, key, stm = s
    to_bit = ONE << ep
    victim = to_bit >> np.uint64(8)
    frm_bit = ONE << np.uint64(frm)
    if ep_is_legal(T, s, frm, ksq, checkers, evasion):
        if checkers & victim:
            return EP_CAPTURES_CHECKER, tzcnt(victim)
        if checkers:
            return EP_BLOCKS_CHECK, tzcnt(checkers)
        return EP_LEGAL, NO_SQUARE
    if checkers and not (evasion & (to_bit | victim)):
        return EP_CHECK_NOT_RESOLVED, tzcnt(checkers)
    # the same test as ep_is_legal: which slider sees the king once both pawns are gone
    after = occ ^ frm_bit ^ victim ^ to_bit
    them = (occ ^ us) ^ victim
    x = ((rook_attacks(T, ksq, after) & O) | (bishop_attacks(T, ksq, after) & D)) & them
    sq = tzcnt(x)
    line = T[BETWEEN + ksq * 64 + sq]
    if line & frm_bit and line & victim:
        return EP_RANK_PIN, sq
    if line & frm_bit:
        return EP_CAPTURER_PINNED, sq
    return EP_VICTIM_SHIELDS, sq


@njit(cache=CACHE, _nrt=False)
def ep_verdicts(T, s, out):
    """One row (capturing pawn's square, verdict code, culprit square) per pawn of
    ours beside the en-passant target; returns the row count (0 without a target)."""
    ep = s[7]
    if ep == 0:
        return 0
    ksq, checkers, evasion, pin_o, pin_d, banned = king_safety(T, s)
    n = 0
    b = T[PAWN_B + np.int64(ep)] & s[0] & s[5]
    while b:
        frm = tzcnt(b)
        code, who = ep_verdict(T, s, frm, ksq, checkers, evasion)
        out[n, 0] = frm
        out[n, 1] = code
        out[n, 2] = who
        n += 1
        b &= b - ONE
    return n


@njit(cache=CACHE, _nrt=False)
def check_before_double_push(T, s):
    """Opponent pieces that attacked our king before their double push (the pawn put
    back on its origin). Non-zero means the position cannot arise in a game: it was
    their move with our king in check."""
    P, N, D, O, K, us, occ, ep, cr, key, stm = s
    if ep == 0:
        return ZERO
    undo = ((ONE << ep) >> np.uint64(8)) | ((ONE << ep) << np.uint64(8))
    before = (P ^ undo, N, D, O, K, us, occ ^ undo, ZERO, cr, key, stm)
    return attackers_to(T, before, tzcnt(K & us), occ ^ undo)
