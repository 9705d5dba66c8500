"""The perftree script protocol around a move generator, for the test engines in this folder.

Each engine script is `run(moves_of)` where `moves_of(board)` lists the chess.Move objects its
generator produces; the perft below uses that generator at every ply, so a planted bug shows
wherever its position occurs in the tree."""
import sys

import chess


def perft(board, depth, moves_of):
    if depth == 0:
        return 1
    moves = moves_of(board)
    if depth == 1:
        return len(moves)
    total = 0
    for move in moves:
        board.push(move)
        total += perft(board, depth - 1, moves_of)
        board.pop()
    return total


def request(chess960=False):
    """(depth, board) from the command line: DEPTH FEN [MOVES]."""
    depth, fen = int(sys.argv[1]), sys.argv[2]
    board = chess.Board(fen, chess960=chess960)
    for uci in (sys.argv[3].split() if len(sys.argv) > 3 else []):
        board.push_uci(uci)
    return depth, board


def run(moves_of, chess960=False):
    depth, board = request(chess960)
    total = 0
    for move in moves_of(board):
        board.push(move)
        count = perft(board, depth - 1, moves_of)
        board.pop()
        total += count
        print(move.uci(), count)
    print()
    print(total)


def legal(board):
    return list(board.legal_moves)
