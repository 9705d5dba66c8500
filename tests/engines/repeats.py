#!/usr/bin/env -S python3 -S
"""A correct generator that does its work TIMES times: `repeats.py TIMES DEPTH FEN [MOVES]`, the
perftree protocol after the first argument. Two of them are two builds of one engine, one
slower by a known factor (for the race and its A/B verdict)."""
import sys

import perftree_protocol

times = int(sys.argv.pop(1))
for _ in range(times - 1):           # the same count, thrown away: the work, not a sleep
    depth, board = perftree_protocol.request()
    perftree_protocol.perft(board, depth, perftree_protocol.legal)
perftree_protocol.run(perftree_protocol.legal)
