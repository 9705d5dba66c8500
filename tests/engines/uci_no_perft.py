#!/usr/bin/env -S python3 -S
"""A UCI program without `go perft`, like many real engines: `uci_no_perft.py [ENGINE] [--silent |
--ignores] [--complains]` (ENGINE: correct.py by default).
`go ...` starts a 'search' (`info depth 1 ...` then `bestmove`; with --silent nothing until
`stop`; with --ignores, `go perft` is a command it does not know and ignores, as UCI says to, and
`stop` then has nothing to stop), while its console command `perft N` prints the total of its engine (a perftree-protocol
engine of this folder) as a bare number, as Ethereal does."""
import os
import sys

import chess

from perftree_protocol import answer

words = [a for a in sys.argv[1:] if not a.startswith("--")]
engine = words[0] if words else os.path.join(os.path.dirname(os.path.abspath(__file__)), "correct.py")
silent = "--silent" in sys.argv[1:]
ignores = "--ignores" in sys.argv[1:]
complains = "--complains" in sys.argv[1:]
fen, moves = chess.STARTING_FEN, []
for line in sys.stdin:
    words = line.split()
    word = words[0] if words else ""
    if word == "uci":
        print("id name no-perft\nuciok", flush=True)
    elif word == "isready":
        print("readyok", flush=True)
    elif word == "position":
        rest = line.split(None, 1)[1]
        where, _, played = rest.partition(" moves ")
        fen = chess.STARTING_FEN if where.strip() == "startpos" else where.strip()[4:]
        moves = played.split()
    elif word == "go" and ignores and "perft" in words:
        pass
    elif word == "go" and not silent:
        print("info depth 1 seldepth 1 score cp 20 nodes 20 nps 20000 pv e2e4\nbestmove e2e4", flush=True)
    elif word == "stop" and not ignores:
        print("bestmove e2e4", flush=True)
    elif word == "perft":
        out = answer(engine, words[1], fen, " ".join(moves))
        print(out.strip().splitlines()[-1], flush=True)
    elif word == "quit":
        break
    elif complains:
        print(f"Unknown command: '{line.strip()}'. Type help for more information.", flush=True)
