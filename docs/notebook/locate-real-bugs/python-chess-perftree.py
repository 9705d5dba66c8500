#!/usr/bin/env python3
"""perftree adapter for a python-chess checkout: its own FEN reader, legal move generator, push/pop."""
import os
import sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import chess


def perft(board, depth):
    moves = list(board.legal_moves)
    if depth == 1:
        return len(moves)
    total = 0
    for move in moves:
        board.push(move)
        total += perft(board, depth - 1)
        board.pop()
    return total


def main():
    depth, fen = int(sys.argv[1]), sys.argv[2]
    board = chess.Board(fen)
    for uci in (sys.argv[3].split() if len(sys.argv) > 3 else []):
        board.push(chess.Move.from_uci(uci))
    total = 0
    for move in list(board.legal_moves):
        n = 1
        if depth > 1:
            board.push(move)
            n = perft(board, depth - 1)
            board.pop()
        print("%s %d" % (move.uci(), n))
        total += n
    print("")
    print(total)


main()
