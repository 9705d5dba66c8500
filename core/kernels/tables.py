"""Every precomputed table in one flat uint64 array, `T`, passed to each kernel.

One array means one pointer in every hot function and tables that stay off the
numba globals path (a large global array makes a function uncacheable). The
offsets below are plain ints, frozen into the kernels as constants.

Squares: a1 = 0, b1 = 1, ..., h8 = 63. Slider attacks come from PEXT-indexed
tables where the CPU has BMI2, from magic multiplication elsewhere; both modes
share one layout (a square's block starts at the same offset). In PEXT mode a rook
is looked up by rank and by file (RANK_ATT, FILE_ATT) and the rook blocks under
SLIDERS go unread: only the magic mode uses them."""
import numpy as np
from numba import njit

from .cache import CACHE

# --- layout ----------------------------------------------------------------
KNIGHT = 0            # [sq] knight attacks
KING = 64             # [sq] king attacks
PAWN_W = 128          # [sq] squares a white pawn on sq attacks (sq+7, sq+9)
PAWN_B = 192          # [sq] squares a black pawn on sq attacks (sq-7, sq-9)
BETWEEN = 256         # [a*64+b] squares strictly between a and b when aligned, else 0
LINE = BETWEEN + 4096  # [a*64+b] the whole line through a and b when aligned, else 0
ROOK_MASK = LINE + 4096
BISHOP_MASK = ROOK_MASK + 64
ROOK_OFF = BISHOP_MASK + 64       # absolute index in T of a square's attack block
BISHOP_OFF = ROOK_OFF + 64
ROOK_MAGIC = BISHOP_OFF + 64
BISHOP_MAGIC = ROOK_MAGIC + 64
ROOK_SHIFT = BISHOP_MAGIC + 64
BISHOP_SHIFT = ROOK_SHIFT + 64
ROOK_RAYS = BISHOP_SHIFT + 64     # [sq] empty-board attacks: is any slider on the square's lines?
BISHOP_RAYS = ROOK_RAYS + 64
# [ksq] squares from which a rook / bishop / knight could reach a square next to the
# king (or c1, g1 for a king on e1: castling reads the same map), on an empty board:
# the only enemy pieces the king-ban map needs to look at
ROOK_ZONE = BISHOP_RAYS + 64
BISHOP_ZONE = ROOK_ZONE + 64
KNIGHT_ZONE = BISHOP_ZONE + 64
# Zobrist keys (Polyglot values) seen from the side to move, so that a board that
# is always oriented "side to move at the bottom" still gets the standard key.
CASTLE_KEEP = KNIGHT_ZONE + 64   # [sq] rights that survive a move from or to sq
Z_PIECE = CASTLE_KEEP + 64        # [((stm*2 + theirs)*6 + kind)*64 + sq]
Z_CASTLE = Z_PIECE + 2 * 2 * 6 * 64  # [stm*16 + rights]
Z_EP = Z_CASTLE + 32              # [file]
Z_TURN = Z_EP + 16                # xor when white is to move (Polyglot convention)
# PEXT mode: rook attacks as a rank part and a file part, each 6 relevant bits at most, so
# 64 entries per square and line (64 KB for both, inside L2) instead of one 800 KB block
# whose lookups miss the cache in sparse positions (docs/notebook/speed.md)
RANK_MASK = Z_TURN + 16           # [sq] relevant squares of sq's rank
FILE_MASK = RANK_MASK + 64        # [sq] relevant squares of sq's file
RANK_ATT = FILE_MASK + 64         # [sq*64 + pext(occ, RANK_MASK[sq])] attacks along the rank
FILE_ATT = RANK_ATT + 64 * 64     # [sq*64 + pext(occ, FILE_MASK[sq])] attacks along the file
SLIDERS = FILE_ATT + 64 * 64      # attack blocks for all squares, rooks then bishops
ROOK_ENTRIES = 102400
BISHOP_ENTRIES = 5248
# the addresses of perft 2's compiled kernels in this process (core.kernels.two_ply.bind):
# _perft calls them through these, so that no kernel above links their code in again
PERFT2_KERNELS = SLIDERS + ROOK_ENTRIES + BISHOP_ENTRIES
SIZE = PERFT2_KERNELS + 4

# piece kinds, Polyglot order
PAWN, KNIGHT_KIND, BISHOP, ROOK, QUEEN, KING_KIND = 0, 1, 2, 3, 4, 5

FILE_A = np.uint64(0x0101010101010101)
FILE_H = np.uint64(0x8080808080808080)
RANK_3 = np.uint64(0xFF0000)
RANK_7 = np.uint64(0xFF000000000000)
RANK_8 = np.uint64(0xFF00000000000000)
ALL = np.uint64(0xFFFFFFFFFFFFFFFF)

_ROOK_DIRS = ((1, 0), (-1, 0), (0, 1), (0, -1))
_RANK_DIRS = ((1, 0), (-1, 0))
_FILE_DIRS = ((0, 1), (0, -1))
_BISHOP_DIRS = ((1, 1), (1, -1), (-1, 1), (-1, -1))


def _union(T, at, squares):
    """OR of T[at + sq] over the squares of a bitboard."""
    u = 0
    for sq in range(64):
        if squares >> sq & 1:
            u |= int(T[at + sq])
    return u


def _bb(squares):
    b = 0
    for s in squares:
        b |= 1 << s
    return b


def _steps(sq, deltas):
    f, r = sq % 8, sq // 8
    return [(r + dr) * 8 + f + df for df, dr in deltas if 0 <= f + df < 8 and 0 <= r + dr < 8]


def _ray_attacks(sq, occ, dirs):
    out = 0
    for df, dr in dirs:
        f, r = sq % 8 + df, sq // 8 + dr
        while 0 <= f < 8 and 0 <= r < 8:
            out |= 1 << (r * 8 + f)
            if occ >> (r * 8 + f) & 1:
                break
            f, r = f + df, r + dr
    return out


def _relevant_mask(sq, dirs):
    """Squares whose occupancy matters for a slider on sq (edges excluded)."""
    out = 0
    for df, dr in dirs:
        f, r = sq % 8 + df, sq // 8 + dr
        while 0 <= f + df < 8 and 0 <= r + dr < 8:
            out |= 1 << (r * 8 + f)
            f, r = f + df, r + dr
    return out


@njit(cache=CACHE)
def _ray_attacks_jit(sq, occ, dirs):
    out = np.uint64(0)
    for i in range(dirs.shape[0]):
        df, dr = dirs[i, 0], dirs[i, 1]
        f, r = sq % 8 + df, sq // 8 + dr
        while 0 <= f < 8 and 0 <= r < 8:
            bit = np.uint64(1) << np.uint64(r * 8 + f)
            out |= bit
            if occ & bit:
                break
            f, r = f + df, r + dr
    return out


@njit(cache=CACHE)
def _fill_pext(T, sq, mask, base, dirs):
    # Carry-rippler enumerates subsets in increasing order, which is exactly
    # the order of their PEXT indices: the n-th subset has pext(subset) == n.
    sub = np.uint64(0)
    n = 0
    while True:
        T[base + n] = _ray_attacks_jit(sq, sub, dirs)
        n += 1
        sub = (sub - mask) & mask
        if sub == 0:
            break


@njit(cache=CACHE)
def _find_magic(T, sq, mask, base, bits, dirs, seed):
    size = 1 << bits
    occs = np.empty(size, np.uint64)
    atts = np.empty(size, np.uint64)
    sub = np.uint64(0)
    for n in range(size):
        occs[n] = sub
        atts[n] = _ray_attacks_jit(sq, sub, dirs)
        sub = (sub - mask) & mask
    epoch = np.zeros(size, np.int64)
    state = np.uint64(seed)
    shift = np.uint64(64 - bits)
    attempt = 0
    while True:
        # sparse random candidates (AND of three xorshift draws) find magics fast
        magic = np.uint64(ALL)
        for _ in range(3):
            state ^= state >> np.uint64(12)
            state ^= state << np.uint64(25)
            state ^= state >> np.uint64(27)
            magic &= state * np.uint64(2685821657736338717)
        if ((mask * magic) >> np.uint64(56)) == 0 and bits > 8:
            continue
        attempt += 1
        ok = True
        for n in range(size):
            idx = np.int64((occs[n] * magic) >> shift)
            if epoch[idx] < attempt:
                epoch[idx] = attempt
                T[base + idx] = atts[n]
            elif T[base + idx] != atts[n]:
                ok = False
                break
        if ok:
            return magic


def _zobrist(T):
    """Polyglot keys arranged by (side to move, ours/theirs, kind, relative square)."""
    from chess.polyglot import POLYGLOT_RANDOM_ARRAY as R
    for stm in (0, 1):                       # 0: white to move, 1: black to move
        for theirs in (0, 1):
            white_piece = (stm ^ theirs) == 0
            for kind in range(6):
                for sq in range(64):
                    real = sq if stm == 0 else sq ^ 56
                    T[Z_PIECE + ((stm * 2 + theirs) * 6 + kind) * 64 + sq] = \
                        R[64 * (2 * kind + (1 if white_piece else 0)) + real]
        # rights bits: 1 our K-side, 2 our Q-side, 4 their K-side, 8 their Q-side
        order = (0, 1, 2, 3) if stm == 0 else (2, 3, 0, 1)   # Polyglot: wK wQ bK bQ
        for rights in range(16):
            k = 0
            for bit in range(4):
                if rights >> bit & 1:
                    k ^= R[768 + order[bit]]
            T[Z_CASTLE + stm * 16 + rights] = k
    for f in range(8):
        T[Z_EP + f] = R[772 + f]
    T[Z_TURN] = R[780]


def build(mode):
    """Return the flat table for slider mode 'pext' or 'magic'."""
    T = np.zeros(SIZE, np.uint64)
    for sq in range(64):
        T[KNIGHT + sq] = _bb(_steps(sq, ((1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2))))
        T[KING + sq] = _bb(_steps(sq, ((1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0), (-1, -1), (0, -1), (1, -1))))
        T[PAWN_W + sq] = _bb(_steps(sq, ((-1, 1), (1, 1))))
        T[PAWN_B + sq] = _bb(_steps(sq, ((-1, -1), (1, -1))))
    for a in range(64):
        for dirs in (_ROOK_DIRS, _BISHOP_DIRS):
            empty_att = _ray_attacks(a, 0, dirs)
            for b in range(64):
                if a != b and empty_att >> b & 1:
                    T[BETWEEN + a * 64 + b] = _ray_attacks(a, 1 << b, dirs) & _ray_attacks(b, 1 << a, dirs)
                    T[LINE + a * 64 + b] = (empty_att & _ray_attacks(b, 0, dirs)) | (1 << a) | (1 << b)
    # castling rights, relative to the side to move: 1 our K-side, 2 our Q-side,
    # 4 their K-side, 8 their Q-side; a move from or to a corner or king square drops some
    for sq in range(64):
        T[CASTLE_KEEP + sq] = 15 & ~{0: 2, 7: 1, 4: 3, 56: 8, 63: 4, 60: 12}.get(sq, 0)
    _zobrist(T)
    base = SLIDERS
    for mask_at, off_at, magic_at, shift_at, dirs in (
            (ROOK_MASK, ROOK_OFF, ROOK_MAGIC, ROOK_SHIFT, _ROOK_DIRS),
            (BISHOP_MASK, BISHOP_OFF, BISHOP_MAGIC, BISHOP_SHIFT, _BISHOP_DIRS)):
        d = np.array(dirs, np.int64)
        for sq in range(64):
            mask = _relevant_mask(sq, dirs)
            bits = bin(mask).count("1")
            T[mask_at + sq] = mask
            T[mask_at - ROOK_MASK + ROOK_RAYS + sq] = _ray_attacks(sq, 0, dirs)
            T[off_at + sq] = base
            T[shift_at + sq] = 64 - bits
            if mode == "pext":
                _fill_pext(T, sq, np.uint64(mask), base, d)
            else:
                T[magic_at + sq] = _find_magic(T, sq, np.uint64(mask), base, bits, d, 0x9E3779B97F4A7C15 ^ (sq * 7919 + mask_at))
            base += 1 << bits
    for mask_at, att_at, dirs in ((RANK_MASK, RANK_ATT, _RANK_DIRS), (FILE_MASK, FILE_ATT, _FILE_DIRS)):
        d = np.array(dirs, np.int64)
        for sq in range(64):
            mask = _relevant_mask(sq, dirs)
            T[mask_at + sq] = mask
            _fill_pext(T, sq, np.uint64(mask), att_at + sq * 64, d)
    for sq in range(64):
        zone = int(T[KING + sq]) | (_bb((2, 6)) if sq == 4 else 0)
        for table, at in ((ROOK_ZONE, ROOK_RAYS), (BISHOP_ZONE, BISHOP_RAYS), (KNIGHT_ZONE, KNIGHT)):
            T[table + sq] = np.uint64(_union(T, at, zone))
    assert base == PERFT2_KERNELS
    return T
