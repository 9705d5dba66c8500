#!/usr/bin/env python3
"""movegen.py's generator (its planted bug too) behind an interactive UCI-like loop, for locate's
test of an engine kept alive between calls: `position fen FEN [moves ...]`, `go perft N` answered
in Stockfish's format, `quit` to end (which is when its coverage is written)."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import movegen  # noqa: E402

pos = movegen.parse("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1")
for line in sys.stdin:
    words = line.split()
    if words == ["uci"]:
        print("uciok", flush=True)
    elif words == ["isready"]:
        print("readyok", flush=True)
    elif words[:2] == ["position", "fen"]:
        fen = " ".join(words[2:8])
        pos = movegen.parse(fen)
        for text in words[9:] if words[8:9] == ["moves"] else []:
            pos = movegen.play(pos, text)
    elif words[:2] == ["go", "perft"]:
        depth, total = int(words[2]), 0
        for move in movegen.legal_moves(pos):
            count = 1 if depth == 1 else movegen.perft(movegen.make(pos, move), depth - 1)
            total += count
            print(f"{movegen.uci(move)}: {count}")
        print()
        print(f"Nodes searched: {total}", flush=True)
    elif words == ["quit"]:
        break
