#!/usr/bin/env -S python3 -S
"""Planted bug in an interactive program that prints only totals: it never castles, and asked
to play a castling move (`position fen FEN moves e1g1`) it answers `Illegal move: e1g1`, as
many programs refuse a move their generator does not make. Driven through an engine file:

    position fen FEN [moves M1 M2 ...]
    perft N       ->  `Nodes: N`, or `Illegal move: M` for a move it does not generate
    echo WORDS    ->  WORDS (a sentinel)"""
import sys

import chess

from perftree_protocol import legal, perft


def moves(board):
    return [m for m in legal(board) if not board.is_castling(m)]


fen, played = None, []
for line in sys.stdin:
    words = line.split()
    if not words:
        continue
    if words[:2] == ["position", "fen"]:
        rest = " ".join(words[2:])
        fen, _, after = rest.partition(" moves ")
        fen, played = fen.strip(), after.split()
    elif words[0] == "perft":
        board = chess.Board(fen)
        for uci in played:
            move = chess.Move.from_uci(uci)
            if move not in moves(board):
                print(f"Illegal move: {uci}", flush=True)
                break
            board.push(move)
        else:
            print(f"Nodes: {perft(board, int(words[1]), moves)}", flush=True)
    elif words[0] == "echo":
        print(" ".join(words[1:]), flush=True)
    elif words[0] == "quit":
        break
