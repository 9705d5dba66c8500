"""Counting FEN readings at run time: every call of Position.from_fen (the parser every FEN goes
through: Request.of, lenient_position, a suite line, the CLI's --fen), with the FEN read and who
read it, so that a test can say "one reading per position entering" of any workflow (the
`fen_reads` fixture of tests/conftest.py hands one out, counting from then on).

    reads = count_fen_reads(monkeypatch)
    ... run the workflow ...
    assert [r.fen for r in reads] == [FEN]          # read once, where it entered
"""
from __future__ import annotations

import traceback
from dataclasses import dataclass

from perftscope.core.board import position as position_module


@dataclass(frozen=True)
class Reading:
    """A text read (a FEN here, an engine spec in tests/spec_readings.py) and who read it."""
    text: str
    where: str          # the reader's frames, innermost last: what a failing assert shows

    @property
    def fen(self) -> str:
        return self.text

    def __repr__(self):
        return f"Reading({self.text!r} by\n{self.where})"


def reader_frames() -> str:
    """The frames of whoever called the counted function (the counter's own left out)."""
    return "".join(traceback.format_stack(limit=7)[:-2])


def count_fen_reads(monkeypatch) -> list[Reading]:
    """A list that every Position.from_fen call appends its Reading to, until the test ends."""
    from_fen = position_module.Position.from_fen.__func__
    reads: list[Reading] = []

    def counted(cls, fen, *args, **kwargs):
        reads.append(Reading(fen, reader_frames()))
        return from_fen(cls, fen, *args, **kwargs)
    monkeypatch.setattr(position_module.Position, "from_fen", classmethod(counted))
    return reads
