#!/usr/bin/env -S python3 -S
"""A perftree script that dies the way a Node.js program does: asked about the root it answers
like ep_rank_pin (so the finder descends), asked about any position after a move it prints a
JavaScript stack trace, a blank line and the runtime's version on stderr, and exits 1."""
import sys

if len(sys.argv) > 3:
    sys.stderr.write("""/home/dev/perft/src/movegen.js:212
    const piece = board.squares[to].piece;
                                    ^

TypeError: Cannot read properties of undefined (reading 'piece')
    at generateEnPassant (/home/dev/perft/src/movegen.js:212:37)
    at perft (/home/dev/perft/src/perft.js:18:15)
    at Object.<anonymous> (/home/dev/perft/src/cli.js:9:1)

Node.js v20.11.0
""")
    sys.exit(1)

import runpy  # noqa: E402
from pathlib import Path  # noqa: E402

runpy.run_path(str(Path(__file__).with_name("ep_rank_pin.py")), run_name="__main__")
