"""The failing path's moves made inside the engine from other starts: where a make-move bug shows.

A bug in how a move updates the position (a castling right given back, a pawn removed behind an
ordinary capture, a wrong gives-check flag) shows only in the position reached after the engine
made that move itself: a FEN of the true position after it is answered right, so shrink and the
fuzz find no other failing run. These requests keep the engine making the path's moves:

    path_siblings(failing)    # the path with one ply played otherwise (a8f3 e1d2 -> a8f3 e1e2, a8b7 e1d2)
    other_starts(failing)     # the same moves from the root with one piece added or taken away

Most siblings of a ply after the wrong one fail alike (the state is already wrong); siblings of
the wrong ply itself and starts without a piece the wrong update touches pass: both sides are
evidence, and a mutant that fixes one failing run by accident rarely fixes them all.
"""
from __future__ import annotations

import random
from itertools import zip_longest

import chess

from ..engines.oracle import Request
from ..errors import PerftscopeError

SIBLINGS = 30             # runs of the path with one ply played otherwise, at most
STARTS = 20               # runs of the path from a root with a piece added or taken away, at most
_ADDED = (chess.KNIGHT, chess.BISHOP, chess.ROOK, chess.QUEEN, chess.PAWN)


def path_siblings(failing: Request, most: int = SIBLINGS) -> list[Request]:
    """The failing request's moves with one of them replaced by another legal move at its ply and
    the later moves played as they were (where they stay legal), the plies taken in turn, the
    last ply's first."""
    root, moves = failing.from_root(), failing.moves
    plies = []
    for i in reversed(range(len(moves))):
        before = root.then(*moves[:i])
        others = []
        for move in before.position.legal_moves():
            if move == moves[i]:
                continue
            try:
                others.append(before.then(move, *moves[i + 1:]))
            except PerftscopeError:
                continue              # a later move of the path is not legal after this one
        plies.append(others)
    return [r for turn in zip_longest(*plies) for r in turn if r is not None][:most]


def other_starts(failing: Request, most: int = STARTS, seed: int = 1) -> list[Request]:
    """The failing request's moves from its root with one piece taken away (each one that the
    moves do not move) or one added (on squares the moves neither cross nor land on), where the
    root stays a valid position and every move stays legal: first every removal, then additions
    drawn with `seed`."""
    root = failing.from_root()
    if not failing.moves or root.position.chess960:       # a Chess960 root's FEN is not written back here
        return []
    board = root.position.chess_board()
    used: set[int] = set()
    probe = board.copy(stack=False)
    for uci in failing.moves:
        move = chess.Move.from_uci(uci)
        used |= {move.from_square, move.to_square} | set(chess.SquareSet(chess.between(move.from_square,
                                                                                    move.to_square)))
        if probe.is_en_passant(move):
            used.add(chess.square(chess.square_file(move.to_square), chess.square_rank(move.from_square)))
        if probe.is_castling(move):
            used |= set(chess.SquareSet(chess.BB_RANK_1 if probe.turn else chess.BB_RANK_8))
        probe.push(move)

    def made(changed: chess.Board) -> Request | None:
        if not changed.is_valid():
            return None
        try:
            return Request.of(changed.fen(en_passant="fen"), failing.moves)
        except PerftscopeError:
            return None
    out: list[Request] = []
    for square, piece in sorted(board.piece_map().items()):
        if piece.piece_type == chess.KING or square in used:
            continue
        smaller = board.copy(stack=False)
        smaller.remove_piece_at(square)
        smaller.castling_rights = smaller.clean_castling_rights()
        request = made(smaller)
        if request is not None and request.root.split()[2:4] == root.root.split()[2:4]:
            out.append(request)       # the same rights and en-passant square: only the piece differs
    rng = random.Random(seed)
    empty = [sq for sq in chess.SQUARES if board.piece_at(sq) is None and sq not in used]
    tries = 0
    while len(out) < most and empty and tries < 20 * most:
        tries += 1
        square = rng.choice(empty)
        piece = chess.Piece(rng.choice(_ADDED), rng.choice(chess.COLORS))
        if piece.piece_type == chess.PAWN and chess.square_rank(square) in (0, 7):
            continue
        larger = board.copy(stack=False)
        larger.set_piece_at(square, piece)
        request = made(larger)
        if request is not None and request.root.split()[2:4] == root.root.split()[2:4] \
                and all(request.root != r.root for r in out):
            out.append(request)
    return out[:most]
