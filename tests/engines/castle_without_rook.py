#!/usr/bin/env -S python3 -S
"""Planted bug: castling checks the right, the empty squares and the attacks, but not that the
rook is on its corner; a FEN's right whose rook is missing (`2R1K2k w Q`) is trusted."""
from own_rights import run

run(needs_rook=False)
