#!/usr/bin/env -S python3 -S
"""A UCI 'engine' that answers `go perft` right (so perftscope can learn how it prints) except on
positions of three pieces or fewer, where it never answers."""
import time

from fake_uci import divide_lines, serve


def answer(board, depth, moves):
    if len(board.piece_map()) <= 3:
        time.sleep(3600)
    print("\n".join(divide_lines(board, depth)), flush=True)


serve("hang", answer)
