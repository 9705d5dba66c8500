#!/usr/bin/env python3
"""A UCI 'engine' answering `go perft` right from a root FEN, but listing its first move twice
(the total counting both) when moves were played from it."""
from fake_uci import divide_lines, serve


def answer(board, depth, moves):
    lines = divide_lines(board, depth)
    if moves:
        first = lines[0]
        total = sum(int(x.split(": ")[1]) for x in lines[:-2]) + int(first.split(": ")[1])
        lines = [first.upper()] + lines[:-1] + [f"Nodes searched: {total}"]
    print("\n".join(lines), flush=True)


serve("duplicates", answer)
