"""Placeholders in what is sent to an engine: `{depth}`, `{fen}`, `{moves}`, `{fen_moves}`."""
from __future__ import annotations

import re


def fill_template(words: list[str], fen: str, moves: list[str], depth: int) -> list[str]:
    """Fill a command split like a shell line: each placeholder fills exactly one argument, so
    `{fen}` stays one argument with its spaces and `{moves}` is one (possibly empty) argument."""
    values = {"depth": str(depth), "fen": fen, "moves": " ".join(moves),
              "fen_moves": fen + (" moves " + " ".join(moves) if moves else "")}
    return [PLACEHOLDER.sub(lambda m: values[m.group(1)], word) for word in words]


PLACEHOLDER = re.compile(r"\{(depth|fen_moves|fen|moves)\}")


def fill_line(template: str, fen: str, moves: list[str], depth: int) -> str:
    """A line for an interactive engine; ` moves {moves}` is dropped when there are none."""
    if not moves:
        template = re.sub(r"\s+moves\s+\{moves\}", "", template)
    return fill_template([template], fen, moves, depth)[0]
