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

import re
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



# An operand (a name, a field, an index: nothing called, so it reads the same twice) compared
# with a literal, standing alone between `(`, `&&`, `||`, `and`, `or`, `,`, `?`, `:` or the ends.
_COMPARED = re.compile(r"([A-Za-z_][\w.]*(?:\[[\w.]*\])*)\s*(===|!==|==|!=)\s*('[^'\\]*'|\"[^\"\\]*\"|-?[1-9]\d*|0)")
_BEFORE = re.compile(r"(?:^|[(,?:]|&&|\|\||\b(?:and|or|if|elif|while|return))\s*$")
_AFTER = re.compile(r"^\s*(?:$|[),?:;{]|&&|\|\||(?:and|or)\b)")
_JOINS = {"&&": "and", "and": "and", "||": "or", "or": "or"}


def fixed_condition(line: str) -> str:
    """The part of `line` whose value no input changes, in words ("`x == 'w' && x == 'b'` is never
    true"), '' if none seen: the same operand equal to two different literals at once, or unequal
    to one or the other (`x != 'w' || x != 'b'` is always true). A candidate that writes one has switched its
    condition off (or on) for good: where that is the fix, the fix deletes the condition; as
    written it leaves a check that can never fire, so it is no fix to offer. Only what is
    certain is seen: comparisons standing alone (no `+ b` beside them, no `not` before), literals
    of one kind ('a' and 97 may be one char), an `||` pair not inside an `&&`."""
    found = [m for m in _COMPARED.finditer(line)
             if _BEFORE.search(line[:m.start()]) and _AFTER.match(line[m.end():])]
    for first, second in zip(found, found[1:]):
        join = _JOINS.get(line[first.end():second.start()].strip())
        (left, op1, a), (right, op2, b) = first.groups(), second.groups()
        quoted = a[0] in "'\"", b[0] in "'\""
        if join is None or left != right or a == b or quoted[0] != quoted[1] or (quoted[0] and a[0] != b[0]):
            continue
        unequal = {op1.startswith("!"), op2.startswith("!")}
        # `&&` binds tighter than `||`: an `||` pair beside an `&&` is no subexpression of its own
        inside_and = (line[:first.start()].rstrip().endswith(("&&", " and"))
                      or re.match(r"\s*(?:&&|and\b)", line[second.end():]) is not None)
        if join == "and" and unequal == {False}:
            return f"`{line[first.start():second.end()]}` is never true"
        if join == "or" and unequal == {True} and not inside_and:
            return f"`{line[first.start():second.end()]}` is always true"
    return ""
