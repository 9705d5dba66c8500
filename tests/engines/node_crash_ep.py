#!/usr/bin/env -S python3 -S
"""Planted crash: asked about a position where en passant is possible, it dies the way a Node.js
program does: the source line, a caret, the error, a stack trace, and the runtime's version as
the last line of stderr. The error worth reporting is the TypeError, not 'Node.js v20.11.0'."""
import sys

import chess

from perftree_protocol import legal, run

TRACE = """/home/dev/perft/movegen.js:212
    const victim = board.squares[ep.square].piece;
                                            ^

TypeError: Cannot read properties of undefined (reading 'piece')
    at enPassantMoves (/home/dev/perft/movegen.js:212:45)
    at generateMoves (/home/dev/perft/movegen.js:88:5)
    at divide (/home/dev/perft/perft.js:31:17)
    at Object.<anonymous> (/home/dev/perft/perft.js:60:1)
    at Module._compile (node:internal/modules/cjs/loader:1376:14)
    at Module._extensions..js (node:internal/modules/cjs/loader:1435:10)
    at Module.load (node:internal/modules/cjs/loader:1207:32)
    at Module._load (node:internal/modules/cjs/loader:1023:12)
    at Function.executeUserEntryPoint [as runMain] (node:internal/modules/run_main:135:12)
    at node:internal/main/run_main_module:28:49

Node.js v20.11.0
"""

board = chess.Board(sys.argv[2])
for uci in (sys.argv[3].split() if len(sys.argv) > 3 else []):
    board.push_uci(uci)
if any(board.is_en_passant(m) for m in board.legal_moves):
    sys.stderr.write(TRACE)
    sys.exit(1)
run(legal)
