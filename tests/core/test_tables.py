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
