#!/usr/bin/env python3
"""Any perftree-protocol engine in this folder, its divide reprinted in the format of another
kind of real engine: `formats.py FORMAT ENGINE DEPTH FEN [MOVES]`.

Formats (each seen in real move generators):
  stockfish     `e2e4: 20` lines, a blank line, `Nodes searched: N`
  spaces        `e2e4 20` lines and no total at all
  footer        `e2e4: 20` lines then `Total: N | Time spent: 0.1 s`, no blank line before it
  numbered      `1. e2e4 20`, a chatty header and `Perft 3: N` at the end
  san           `Nf3: 20` (SAN), `Nodes: N`
  dash, equals  `e2e4 - 20`, `e2e4 = 20`, with trailing words
  json          one JSON map of moves with a "total" key
  king_rook     stockfish's format, castling written king-takes-rook (`e1h1`)
  bare_promo    stockfish's format, promotions without their piece letter
  totals        only `Nodes searched: N`
"""
import json
import subprocess
import sys

import chess


def divide(engine, depth, fen, moves):
    args = [engine, depth, fen] + ([moves] if moves else [])
    out = subprocess.run(args, capture_output=True, text=True, check=True).stdout
    rows = []
    for line in out.splitlines():
        if not line.strip():
            break
        move, count = line.split()
        rows.append((move, int(count)))
    return rows


def main():
    fmt, engine, depth, fen = sys.argv[1:5]
    moves = sys.argv[5] if len(sys.argv) > 5 else ""
    rows = divide(engine, depth, fen, moves)
    total = sum(c for _, c in rows)
    board = chess.Board(fen)
    for uci in moves.split():
        board.push_uci(uci)
    if fmt == "stockfish":
        print("\n".join(f"{m}: {c}" for m, c in rows) + f"\n\nNodes searched: {total}\n")
    elif fmt == "spaces":
        print("\n".join(f"{m} {c}" for m, c in rows))
    elif fmt == "footer":
        print("\n".join(f"{m}: {c}" for m, c in rows) + f"\nTotal: {total} | Time spent: 0.1 s")
    elif fmt == "numbered":
        print(f"perft of {board.fen()} to depth {depth}")
        print("\n".join(f"{i}. {m} {c}" for i, (m, c) in enumerate(rows, 1)))
        print(f"Perft {depth}: {total}")
    elif fmt == "san":
        print("\n".join(f"{board.san(chess.Move.from_uci(m))}: {c}" for m, c in rows) + f"\nNodes: {total}")
    elif fmt == "dash":
        print("\n".join(f"{m} - {c} nodes" for m, c in rows) + f"\n\nTotal nodes: {total}")
    elif fmt == "equals":
        print("\n".join(f"{m} = {c} (0 ms)" for m, c in rows) + f"\nNodes searched = {total}")
    elif fmt == "json":
        print(json.dumps({**dict(rows), "total": total}))
    elif fmt == "king_rook":
        rook = {"e1g1": "e1h1", "e1c1": "e1a1", "e8g8": "e8h8", "e8c8": "e8a8"}
        king = board.king(board.turn)
        print("\n".join(f"{rook.get(m, m) if king in (chess.E1, chess.E8) else m}: {c}" for m, c in rows)
              + f"\n\nNodes searched: {total}")
    elif fmt == "bare_promo":
        print("\n".join(f"{m[:4]}: {c}" for m, c in rows) + f"\n\nNodes searched: {total}")
    elif fmt == "totals":
        print(f"Nodes searched: {total}")
    else:
        sys.exit(f"formats.py: unknown format {fmt!r}")


main()
