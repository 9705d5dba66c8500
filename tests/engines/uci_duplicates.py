#!/usr/bin/env -S python3 -S
"""A UCI 'engine' answering `go perft` right (so it can be calibrated), but listing its first move
twice (the total counting both) when moves were played from the FEN or its move number is above 50."""
from fake_uci import divide_lines, serve


def answer(board, depth, moves):
    lines = divide_lines(board, depth)
    if moves or board.fullmove_number > 50:
        first = lines[0]
        total = sum(int(x.split(": ")[1]) for x in lines[:-2]) + int(first.split(": ")[1])
        lines = [first.upper()] + lines[:-1] + [f"Nodes searched: {total}"]
    print("\n".join(lines), flush=True)


serve("duplicates", answer)
