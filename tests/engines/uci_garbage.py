#!/usr/bin/env -S python3 -S
"""A UCI 'engine' whose right answers to `go perft` carry a line of nonsense."""
from fake_uci import divide_lines, serve


def answer(board, depth, moves):
    lines = divide_lines(board, depth)
    print("\n".join(lines[:1] + ["the moon is made of cheese"] + lines[1:]), flush=True)


serve("garbage", answer)
