"""Placeholders in what is sent to an engine: `{depth}`, `{fen}`, `{moves}`, `{fen_moves}`,
`{fen_after}` (the FEN after the moves, for programs that cannot play a move) and `{move}` (one
move, in a line sent for each)."""
from __future__ import annotations

import re


def fill_template(words: list[str], fen: str, moves: list[str], depth: int, after=None) -> list[str]:
    """Fill a command split like a shell line: each placeholder fills exactly one argument, so
    `{fen}` stays one argument with its spaces and `{moves}` is one (possibly empty) argument.
    `after`: the Position after the moves, for `{fen_after}`."""
    values = {"depth": str(depth), "fen": fen, "moves": " ".join(moves),
              "fen_moves": fen + (" moves " + " ".join(moves) if moves else ""),
              "fen_after": after.fen() if after is not None else fen}
    return [PLACEHOLDER.sub(lambda m: values[m.group(1)], word) for word in words]


PLACEHOLDER = re.compile(r"\{(depth|fen_moves|fen_after|fen|moves)\}")


def fill_line(template: str, fen: str, moves: list[str], depth: int, after=None) -> str:
    """A line for an interactive engine; ` moves {moves}` is dropped when there are none."""
    if not moves:
        template = re.sub(r"\s+moves\s+\{moves\}", "", template)
    return fill_template([template], fen, moves, depth, after)[0]
