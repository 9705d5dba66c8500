#!/usr/bin/env -S python3 -S
"""Planted hang: a correct generator that never answers when the position asked about has a
legal en-passant capture (a loop real engines fall into), so a session must time it out,
restart it and go on."""
import sys
import time

import chess

from perftree_protocol import legal, run

board = chess.Board(sys.argv[2])
for uci in (sys.argv[3].split() if len(sys.argv) > 3 else []):
    board.push_uci(uci)
if board.has_legal_en_passant():
    time.sleep(3600)
run(legal)
