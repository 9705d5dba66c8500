#!/usr/bin/env -S python3 -S
"""A UCI 'engine' that shakes hands properly and then never answers `go perft`."""
import time

from fake_uci import serve

serve("hang", lambda board, depth, moves: time.sleep(3600))
