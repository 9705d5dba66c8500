#!/usr/bin/env -S python3 -S
"""An xboard (CECP) program around a perftree-protocol engine of this folder:
`xboard_engine.py ENGINE [--usermove]`.

It announces its features (setboard, ping, usermove with --usermove), keeps the position set by
`new` / `force` / `setboard FEN` and the moves sent one per line (`usermove e2e4` with
--usermove), answers a move its engine does not generate with `Illegal move: e2e4` (and keeps
the position as it was), and `perft N` with its engine's divide in long algebraic, one move a
line, and `Nodes: N`."""
import sys

import chess

from perftree_protocol import answer, long_algebraic, rows_of

engine, usermove = sys.argv[1], "--usermove" in sys.argv[2:]
fen, moves = chess.STARTING_FEN, []


def divide(depth):
    return rows_of(answer(engine, depth, fen, " ".join(moves)))


def board():
    b = chess.Board(fen)
    for m in moves:
        b.push_uci(m)
    return b


for line in sys.stdin:
    words = line.split()
    if not words:
        continue
    command = words[0]
    if command == "xboard":
        continue
    if command == "protover":
        print(f"feature setboard=1 ping=1 usermove={int(usermove)} myname=\"planted xboard\" "
              "variants=\"normal\"", flush=True)
        print("feature done=1", flush=True)
    elif command == "new":
        fen, moves = chess.STARTING_FEN, []
    elif command in ("force", "accepted", "rejected", "post", "hard", "easy", "random"):
        continue
    elif command == "setboard":
        fen, moves = " ".join(words[1:]), []
    elif command == "ping":
        print(f"pong {words[1]}", flush=True)
    elif command == "perft":
        b = board()
        rows = divide(int(words[1]))
        print("\n".join(f"{long_algebraic(b, m)} {c}" for m, c in rows) + f"\nNodes: {sum(c for _, c in rows)}",
              flush=True)
    elif command == "quit":
        break
    else:
        move = words[1] if command == "usermove" and usermove else command
        if (command == "usermove") != usermove or move not in [m for m, _ in divide(1)]:
            print(f"Illegal move: {move}", flush=True)
        else:
            moves.append(move)
