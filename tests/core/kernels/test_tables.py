"""The precomputed tables the generator trusts without re-deriving, checked against
python-chess's geometry."""
import chess

from perftscope.core import kernels
from perftscope.core.kernels.tables import BISHOP_ZONE, KNIGHT_ZONE, ROOK_ZONE


def _zone(ksq):
    """The squares the king-ban map is read at: the king's neighbours, and the castling
    destinations for a king on e1."""
    squares = chess.BB_KING_ATTACKS[ksq]
    if ksq == chess.E1:
        squares |= chess.BB_C1 | chess.BB_G1
    return squares


def _reaches(frm, squares, rook: bool):
    """Does a rook (or bishop) on frm attack any of `squares` on an empty board?"""
    for to in chess.scan_forward(squares):
        df = abs(chess.square_file(frm) - chess.square_file(to))
        dr = abs(chess.square_rank(frm) - chess.square_rank(to))
        if frm != to and ((df == 0 or dr == 0) if rook else df == dr):
            return True
    return False


def test_zones_hold_exactly_the_pieces_that_can_reach_the_kings_neighbourhood():
    T = kernels.table()
    for ksq in chess.SQUARES:
        zone = _zone(ksq)
        for sq in chess.SQUARES:
            bit = 1 << sq
            assert bool(int(T[ROOK_ZONE + ksq]) & bit) == _reaches(sq, zone, True), (ksq, sq)
            assert bool(int(T[BISHOP_ZONE + ksq]) & bit) == _reaches(sq, zone, False), (ksq, sq)
            assert bool(int(T[KNIGHT_ZONE + ksq]) & bit) == bool(chess.BB_KNIGHT_ATTACKS[sq] & zone), (ksq, sq)


def test_slider_lookups_match_python_chess_on_random_occupancies():
    """rook_attacks (in PEXT mode a rank and a file lookup) and bishop_attacks against
    python-chess's attack sets, every square, occupancies from empty to crowded."""
    import random

    import numpy as np

    from perftscope.core.kernels.attacks import bishop_attacks, rook_attacks
    T = kernels.table()
    rng = random.Random(33)
    for sq in chess.SQUARES:
        for density in (0, 1, 2, 3):
            occ = (1 << 64) - 1
            for _ in range(density):
                occ &= rng.getrandbits(64)
            if density == 0:
                occ = 0
            ortho = int(chess.BB_RANK_ATTACKS[sq][chess.BB_RANK_MASKS[sq] & (occ | 1 << sq)]
                        | chess.BB_FILE_ATTACKS[sq][chess.BB_FILE_MASKS[sq] & (occ | 1 << sq)])
            diag = int(chess.BB_DIAG_ATTACKS[sq][chess.BB_DIAG_MASKS[sq] & (occ | 1 << sq)])
            assert int(rook_attacks(T, np.int64(sq), np.uint64(occ))) == ortho, (sq, hex(occ))
            assert int(bishop_attacks(T, np.int64(sq), np.uint64(occ))) == diag, (sq, hex(occ))
