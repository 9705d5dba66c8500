#!/usr/bin/env -S python3 -S
"""Planted bug: make clears a castling right when its king or rook moves, but not when the rook
is captured on its corner; castling then needs the rook, so the bug shows once another rook
has come to that corner."""
from own_rights import run

run(capture_clears=False)
