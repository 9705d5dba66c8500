#!/usr/bin/env -S python3 -S
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
  lan           long algebraic with piece letters (`Nb1-a3`, `Ne5xg6`, `e7-e8=Q`, `O-O`), right-aligned,
                and `perft(3) = N (0.01 s)`
  per_depth     one block per depth 1..D, each `Nb1-a3  20  400` (count, running sum) then
                ` D  N  0.00  123.45nps`, as Sjaak II's `perft D 1` prints
  pseudo        every pseudo-legal move, those it does not generate with 0, a blank line and a bare total
  raw_nodes     only `Raw nodes for depth D: N` and `Time : 0.00`, as Sjeng prints
  bare_total    only the total, a bare number, as Ethereal's `perft D` prints
  grouped       counts with digits grouped (`e2e4: 8,902`) and `Total: 8,902 | Time spent: 0.000137 seconds`
  stderr        stockfish's format on stderr, a banner on stdout (Laser prints its perft on stderr)
"""
import json
import sys

import chess

from perftree_protocol import answer, long_algebraic, rows_of


def divide(engine, depth, fen, moves):
    return rows_of(answer(engine, depth, fen, moves))


def main():
    fmt, engine, depth, fen = sys.argv[1:5]
    moves = sys.argv[5] if len(sys.argv) > 5 else ""
    rows = divide(engine, depth, fen, moves)
    total = sum(c for _, c in rows)
    board = chess.Board(fen)
    for uci in moves.split():
        board.push_uci(uci)
    if fmt == "per_depth":
        for d in range(1, int(depth) + 1):
            block = rows if d == int(depth) else divide(engine, str(d), fen, moves)
            running = 0
            for m, c in block:
                running += c
                print(f"  {long_algebraic(board, m):>8} {c:>10} {running:>10}")
            print(f" {d} {running:>10}  0.00 {running * 1000.25:>12.2f}nps")
        return
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
    elif fmt == "lan":
        print("\n".join(f"{long_algebraic(board, m):>8} {c:>9}" for m, c in rows) +
              f"\nperft({depth}) = {total} (0.01 s)")
    elif fmt == "pseudo":
        listed = {m for m, _ in rows}
        rejected = [m.uci() for m in board.generate_pseudo_legal_moves()
                    if m.uci() not in listed and not board.is_legal(m)]
        print("\n".join(f"{m} {c}" for m, c in rows + [(m, 0) for m in rejected]) + f"\n\n{total}")
    elif fmt == "raw_nodes":
        print(f"Sjeng: \nRaw nodes for depth {depth}: {total}\nTime : 0.00")
    elif fmt == "bare_total":
        print(total)
    elif fmt == "stderr":
        print(f"my-engine 1.0, depth {depth}")
        print("\n".join(f"{m}: {c}" for m, c in rows) + f"\n\nNodes searched: {total}", file=sys.stderr)
    elif fmt == "grouped":
        print("\n".join(f"{m}: {c:,}" for m, c in rows) + f"\nTotal: {total:,} | Time spent: 0.000137 seconds")
    else:
        sys.exit(f"formats.py: unknown format {fmt!r}")


main()
