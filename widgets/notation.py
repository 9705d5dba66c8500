"""Moves written for the reader, in one place: SAN (python-chess writes it) or the UCI engines
print, for the board's line of moves, the divide tree's rows, the finder's report and the
Test-engine findings (the notation toggle, app.everyday.Notation, switches them together). A
move the position does not allow (an engine's illegal one) has no SAN and stays in UCI.
"""
from __future__ import annotations

import chess

from perftscope.core.board.position import Position, reads_as_chess960


def san_line(pos: Position, moves) -> list[str]:
    """The moves played from pos in standard algebraic notation (python-chess writes it)."""
    board = chess.Board(pos.fen())
    out = []
    for uci in moves:
        move = chess.Move.from_uci(uci)
        out.append(board.san(move))
        board.push(move)
    return out


def san_or_uci(fen: str, moves, uci: str) -> str:
    """`uci` played after `moves` from `fen`, in SAN; a move the position does not allow (an
    engine's illegal one) stays in UCI: python-chess would write an illegal castling O-O, even O-O+."""
    try:
        board = chess.Board(fen, chess960=reads_as_chess960(fen))
        for m in moves:
            board.push_uci(m)
        move = chess.Move.from_uci(uci)
        return board.san(move) if board.is_legal(move) else uci
    except ValueError:
        return uci


def beside_uci(name):
    """name(fen, moves, uci) made to write "d2d4 (d4)": the UCI the engines print first, the name
    beside it where it differs (an illegal move has no SAN); None: UCI alone."""
    def write(fen, moves, uci):
        text = uci if name is None else name(fen, moves, uci)
        return uci if text == uci else f"{uci} ({text})"
    return write


class SanNames:
    """A tree row's move in SAN (python-chess writes it), remembered per row: the view asks on
    every paint. A move the position does not allow (an engine's illegal one) stays in UCI."""

    def __init__(self, model):
        self.model = model
        self._cache: dict = {}

    def __call__(self, node) -> str:
        key = (self.model.fen, node.moves)
        if key not in self._cache:
            self._cache[key] = san_or_uci(self.model.fen, node.moves[:-1], node.move)
        return self._cache[key]
