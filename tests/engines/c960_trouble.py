#!/usr/bin/env -S python3 -S
"""A correct standard-chess generator that cannot play Chess960, in a way real programs have
shown: `c960_trouble.py MODE DEPTH FEN [MOVES]` in perftree's protocol, where a Chess960 FEN
(castling rights for a king or rooks off their standard squares) gets, by MODE:

- `standard`: the divide of the FEN read as standard chess (its castling rights dropped);
- `malformed`: that divide with the king's first move listed twice (a program that writes its
  castling with a rook as a plain king move);
- `hang`: a traceback on stderr, and then no answer and no exit (a runtime kept alive by a timer).

Every standard position is answered right."""
import sys
import time

import chess

from perftree_protocol import legal, perft, request

mode = sys.argv.pop(1)
chess960 = chess.Board(sys.argv[2], chess960=True).has_chess960_castling_rights()
if chess960 and mode == "hang":
    print("Traceback (most recent call last):\n  File \"engine.py\", line 1, in <module>\n"
          "ValueError: no rook on h1 for the castling right K", file=sys.stderr, flush=True)
    time.sleep(3600)
depth, board = request()
rows = []
for move in legal(board):
    board.push(move)
    rows.append((move.uci(), perft(board, depth - 1, legal)))
    board.pop()
if chess960 and mode == "malformed":
    king = chess.square_name(board.king(board.turn))
    rows.append(next(row for row in rows if row[0].startswith(king)))
for move, count in rows:
    print(move, count)
print()
print(sum(count for _, count in rows))
