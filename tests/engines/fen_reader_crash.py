#!/usr/bin/env -S python3 -S
"""Planted bug in a perftree script (`DEPTH FEN [MOVES]`): its FEN reader takes the en-passant
field for the halfmove clock, as chess-game 0.2.4's `Board.from_fen` does, so every FEN raises
`ValueError: invalid literal for int() with base 10: '-'` before a move is generated."""
import sys

fields = sys.argv[2].split()
halfmove_clock = int(fields[3])        # fields[4] is the clock; fields[3] is the en-passant square
print("never reached", halfmove_clock)
