#!/usr/bin/env python2
"""perftree adapter for Chessnut (Python 2): Chessnut's own FEN reader, get_moves and apply_move."""
import os
import sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from Chessnut import Game


def moves_of(game):
    # Chessnut names promotions in lower case already: e7e8q
    return game.get_moves()


def perft(fen, depth):
    game = Game(fen)
    moves = moves_of(game)
    if depth == 1:
        return len(moves)
    total = 0
    for move in moves:
        child = Game(fen)
        child.apply_move(move)
        total += perft(str(child), depth - 1)
    return total


def main():
    depth, fen = int(sys.argv[1]), sys.argv[2]
    game = Game(fen)
    for move in (sys.argv[3].split() if len(sys.argv) > 3 else []):
        game.apply_move(move)
    fen = str(game)
    total = 0
    for move in moves_of(game):
        n = 1
        if depth > 1:
            child = Game(fen)
            child.apply_move(move)
            n = perft(str(child), depth - 1)
        print("%s %d" % (move, n))
        total += n
    print("")
    print(total)


main()
