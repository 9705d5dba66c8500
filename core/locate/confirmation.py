"""Where a candidate fix is checked beyond the runs before it is called a fix.

A mutant that turns every failing run to pass may only switch the faulty rule off: a guard made
`True`, a condition `False`, a check deleted. The runs and a few random positions rarely hold
the case the guard is for, so a wrong fix would pass them. The positions built square by square
for the failing kind of move (core.mismatch.edge_positions, both colours) and the bundled edge
suites hold exactly those cases; with the asked position one deeper and a longer focused fuzz
they are what a fix must agree on.

    c = confirmation(reference, request, depth=3, focus="en passant", fuzz=fuzz_requests)
    c.edges              # ((topic, Request), ...): every edge position with an en-passant move
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Callable, Iterable

import chess

from perftscope import resources
from ..counting.suites import load
from ..engines.oracle import Request
from ..errors import PerftscopeError
from ..mismatch.edge_positions import edge_positions
from ..mismatch.shrink import mirror
from .runs import position_kinds

EDGE_SUITES = ("ep_edge_cases.epd", "edge_cases.epd")
EDGE_DEPTHS = (1, 2)       # an edge position's case is its first move or the answer to it
FUZZ_SECONDS = 20.0        # the focused fuzz a candidate is checked on (depth 2), after all else agrees
FUZZ_LEAST = 8             # fuzz positions checked however short the time
# A change to how a move updates the position (castling rights, the king's square) shows only
# when the side that moved moves again: two plies later, deeper than the edges and the fuzz go.
# These are the cheapest positions where a king or rook move meets its own side's castling then
# (13,744 nodes at depth 3); a mutant switching off the rights a rook move voids passed all else.
THIRD_PLY = tuple(("castling two plies after a king or rook move", f"r3k2r/8/8/8/8/8/8/R3K2R {side} KQkq - 0 1")
                  for side in "wb")
THIRD_PLY_DEPTH = 3


@dataclass(frozen=True)
class Confirmation:
    """Where a candidate is checked beyond the runs, against `reference`: `asked` at `depth` and
    `depth` + 1; each of `edges` at EDGE_DEPTHS; each of `third_ply` at THIRD_PLY_DEPTH; then
    positions of `fuzz()` at depth 2 for `fuzz_seconds` (FUZZ_LEAST at least)."""
    reference: object
    asked: Request
    depth: int
    edges: tuple[tuple[str, Request], ...] = ()
    fuzz: Callable[[], Iterable[Request]] = lambda: ()
    fuzz_seconds: float = FUZZ_SECONDS
    third_ply: tuple[tuple[str, Request], ...] = ()     # checked at THIRD_PLY_DEPTH, after the edges


def confirmation(reference, asked: Request, depth: int, focus: str | None,
                 fuzz: Callable[[], Iterable[Request]], fuzz_seconds: float = FUZZ_SECONDS) -> Confirmation:
    third_ply = tuple((topic, Request.of(fen)) for topic, fen in THIRD_PLY)
    return Confirmation(reference, asked, depth, edges_of(focus), fuzz, fuzz_seconds, third_ply)


def edges_of(focus: str | None) -> tuple[tuple[str, Request], ...]:
    """(topic, request) of every constructed edge position and bundled edge-suite position where
    the side to move has a move of the `focus` kind (all of them where there is no focus)."""
    return tuple((topic, Request.of(fen)) for topic, fen, kinds in _edges() if focus is None or focus in kinds)


@lru_cache(maxsize=1)
def _edges() -> tuple[tuple[str, str, frozenset], ...]:
    out, seen = [], set()
    found = [(p.topic, p.fen) for p in edge_positions()]     # both colours already
    for name in EDGE_SUITES:
        for entry in load(resources.path(name)):
            try:
                position = Request.of(entry.full_fen).position
            except PerftscopeError:
                continue          # a Chess960 line and the like: not a standard position
            # the suites' positions, some of which no game reaches, with the colours flipped too
            topic = (entry.note or name).replace("; ", ", ")     # the evidence's parts are split at '; '
            found += [(topic, position.fen()), (topic, mirror(position).fen())]
    for topic, fen in found:
        board = chess.Board(fen)
        if board.fen() not in seen:
            seen.add(board.fen())
            out.append((topic, fen, frozenset(position_kinds(board))))
    return tuple(out)
