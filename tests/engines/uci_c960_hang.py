#!/usr/bin/env -S python3 -S
"""A UCI engine with a right `go perft` for standard chess whose search thread ends without a word
on a Chess960 position: no answer ever, while its input loop still answers `isready`."""
import threading

from fake_uci import divide_lines, serve


def answer(board, depth, moves):
    if board.chess960 and board.has_chess960_castling_rights():
        threading.Thread(target=lambda: None, daemon=True).start()      # the search that died
        return
    print("\n".join(divide_lines(board, depth)), flush=True)


serve("c960-hang", answer)
