#!/usr/bin/env -S python3 -S
"""Planted bug: asked about the root itself (no moves given), the first move's count is one
too high; asked about any position through a move list, every count is right. Real engines do
this with hash collisions or state an unmake forgets to restore."""
import sys

from perftree_protocol import legal, perft, run

if len(sys.argv) > 3 or int(sys.argv[1]) < 2:
    run(legal)
else:
    import chess
    depth, board = int(sys.argv[1]), chess.Board(sys.argv[2])
    total = 0
    for i, move in enumerate(legal(board)):
        board.push(move)
        count = perft(board, depth - 1, legal) + (1 if i == 0 else 0)
        board.pop()
        total += count
        print(move.uci(), count)
    print()
    print(total)
