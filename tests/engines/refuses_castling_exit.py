#!/usr/bin/env -S python3 -S
"""Planted bug in a program run once per call that prints only totals (`SCRIPT [HOW] DEPTH FEN
[MOVES]` -> `nodes N`): it never castles, and asked to play a castle it refuses the way scripts
usually do, `Illegal move: e1g1` on stderr and exit code 1. HOW: `--stdout`, the same line on
stdout and exit code 0; `--killed`, the line on stderr, then killed by a signal (a crash, whatever
it said); `--traceback`, an IndexError (a crash that names no refusal); `--every`, every move
refused that way, though it counts them all (it cannot play moves at all)."""
import os
import signal
import sys

import chess

from perftree_protocol import perft

args = sys.argv[1:]
how = args.pop(0) if args[0].startswith("--") else ""


def moves(board):
    return [m for m in board.legal_moves if not board.is_castling(m)]


board = chess.Board(args[1])
for uci in (args[2].split() if len(args) > 2 else []):
    move = chess.Move.from_uci(uci)
    if move not in moves(board) or how == "--every":
        if how == "--traceback":
            raise IndexError("list index out of range")
        print(f"Illegal move: {uci}", file=sys.stdout if how == "--stdout" else sys.stderr, flush=True)
        if how == "--killed":
            os.kill(os.getpid(), signal.SIGKILL)
        sys.exit(0 if how == "--stdout" else 1)
    board.push(move)
print(f"nodes {perft(board, int(args[0]), moves)}")
