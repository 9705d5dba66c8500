#!/usr/bin/env -S python3 -S
"""Lists every pseudo-legal move, as Sjaak II does: below depth 1 an illegal one with 0 (it is
tested when made), but at depth 1 each pseudo-legal move counts 1 (the bulk count tests none):
its depth-1 divide holds illegal moves, while its deeper divides are right."""
from perftree_protocol import legal, perft, request

depth, board = request()
total = 0
for move in board.pseudo_legal_moves:
    if depth == 1:
        count = 1
    elif not board.is_legal(move):
        count = 0
    else:
        board.push(move)
        count = perft(board, depth - 1, legal)
        board.pop()
    total += count
    print(move.uci(), count)
print()
print(total)
