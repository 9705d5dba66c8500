"""The UCI handshake for the fake engines in this folder: each one only decides how to answer
`go perft N` for the position set with `position` (a python-chess board)."""
import sys

import chess

from perftree_protocol import legal, perft


def divide_lines(board, depth):
    """A correct divide in Stockfish's words."""
    rows = []
    for move in legal(board):
        board.push(move)
        rows.append(f"{move.uci()}: {perft(board, depth - 1, legal)}")
        board.pop()
    total = sum(int(r.split(": ")[1]) for r in rows)
    return rows + ["", f"Nodes searched: {total}"]


def serve(name, answer_go):
    """answer_go(board, depth, moves) prints the answer to `go perft depth`."""
    board, moves, chess960 = chess.Board(), [], False
    for line in sys.stdin:
        words = line.split()
        word = words[0] if words else ""
        if word == "uci":
            print(f"id name {name}\nuciok", flush=True)
        elif word == "isready":
            print("readyok", flush=True)
        elif word == "setoption" and "UCI_Chess960" in words:
            chess960 = words[-1] == "true"
        elif word == "position":
            rest = line.split(None, 1)[1]
            fen, _, played = rest.partition(" moves ")
            board = chess.Board(chess960=chess960) if fen.strip() == "startpos" else \
                chess.Board(fen.strip()[4:], chess960=chess960)
            moves = played.split()
            for move in moves:
                board.push_uci(move)
        elif word == "go":
            answer_go(board, int(words[-1]), moves)
        elif word == "quit":
            break
