#!/usr/bin/env -S python3 -S
"""An interactive program around a perftree-protocol engine of this folder, driven through an
engine file: `interactive.py ENGINE [--stderr]`, then on stdin

    position fen FEN [moves M1 M2 ...]
    divide N      ->  `e2e4: 20` lines, `Total: N`
    perft N       ->  `Nodes: N` only
    echo WORDS    ->  WORDS (a sentinel)
    quit

`crash` in place of ENGINE answers one divide, then dies on the second like a Node.js program.
With --stderr the answers to `divide` and `perft` are printed on stderr, as Laser prints its perft."""
import sys

from perftree_protocol import answer, rows_of

engine = sys.argv[1]
answers = sys.stderr if "--stderr" in sys.argv[2:] else sys.stdout
fen, moves, calls = None, "", 0
print("interactive perft 1.0, type help", flush=True)
for line in sys.stdin:
    words = line.split()
    if not words:
        continue
    if words[0] == "position" and words[1] == "fen":
        rest = " ".join(words[2:])
        fen, _, moves = rest.partition(" moves ")
        fen, moves = fen.strip(), moves.strip()
    elif words[0] in ("divide", "perft"):
        rows = rows_of(answer(engine, words[1], fen, moves))
        total = sum(c for _, c in rows)
        if words[0] == "divide":
            print("\n".join(f"{m}: {c}" for m, c in rows) + f"\nTotal: {total}", flush=True, file=answers)
        else:
            print(f"Nodes: {total}", flush=True, file=answers)
    elif words[0] == "echo":
        print(" ".join(words[1:]), flush=True)
    elif words[0] == "quit":
        break
    else:
        print(f"unknown command {words[0]}", flush=True)
