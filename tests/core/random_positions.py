"""Random but reproducible test positions for property tests."""
import random

import chess

from perftscope.core.board.position import START_FEN, Position

KIWIPETE = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"
POSITION_4 = "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1"


def random_boards(seed, count, plies, starts=(chess.STARTING_FEN, KIWIPETE, POSITION_4), pawn_bias=0.0):
    """count python-chess boards reached by seeded random play from `starts` in turn, fewer
    than `plies` moves each (so every one can arise in a game). With pawn_bias, that share of
    the moves is a pawn move when there is one: promotions, en passant and castling-rights
    changes come up more often."""
    rng = random.Random(seed)
    boards = []
    for game in range(count):
        board = chess.Board(starts[game % len(starts)])
        for _ in range(rng.randrange(plies)):
            moves = list(board.legal_moves)
            if not moves:
                break
            if pawn_bias:
                pawn_moves = [m for m in moves if board.piece_type_at(m.from_square) == chess.PAWN]
                if pawn_moves and rng.random() < pawn_bias:
                    moves = pawn_moves
            board.push(rng.choice(moves))
        boards.append(board)
    return boards


def random_positions(n, seed):
    """n positions reached by random legal walks (deterministic for a seed) from the
    start position and three CPW positions."""
    rng = random.Random(seed)
    starts = [START_FEN, "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
              "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
              "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1"]
    out = []
    while len(out) < n:
        pos = Position.from_fen(rng.choice(starts))
        for _ in range(rng.randrange(0, 30)):
            moves = pos.legal_moves()
            if not moves:
                break
            pos = pos.push(rng.choice(moves))
        out.append(pos)
    return out


def affordable_depth(pos, budget=2_000_000):
    """The deepest depth (3 to 6) whose tree is about `budget` leaves: deep enough for
    transpositions with two or more plies left below them."""
    branching = max(len(pos.legal_moves()), 2)
    depth = 3
    while depth < 6 and branching ** (depth + 1) <= budget:
        depth += 1
    return depth
