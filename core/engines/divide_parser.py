"""Reading an engine's answer in the dialect calibration learned for it, and nothing else.

    >>> stockfish = Dialect(rows=("{move}: {count}",), total="Nodes searched: {total}")
    >>> read_divide(["e2e4: 20", "g1f3: 20", "", "Nodes searched: 40"], START, stockfish).moves
    {'e2e4': 20, 'g1f3': 20}

Each line is a row (a move and its count, in one of the learned row shapes), the total line,
or something else. Something else with a move and a number in it is an error quoting the line:
a row is never dropped silently, because a dropped row would be reported as a legal move the
engine does not generate. Other lines are ignored and listed in `ignored`. Counts are read
whole with the learned digit separator. A row of 0 for a move that is not legal is dropped
(its total is right without it), and said in `notes`: at depth 1 as a pseudo-legal move the
engine rejects, deeper only as a move with nothing below it (an illegal move it plays may have
none; the finder asks at depth 1 before saying more). A promotion printed without its piece once is kept as written (`b7b8`, a finding about
the engine); printed more than once it is ambiguous, an error. Errors are EngineUnreadable,
or EngineRefused when the rows are moves of the other side after moves were sent.
"""
from __future__ import annotations

import json
import re
from dataclasses import dataclass, field

import chess

from ..errors import EngineRefused, EngineUnreadable
from .dialect import Dialect, normalize
from .notation import MOVE_WORD, is_bare_promotion, read_move, wrong_side
from .numbers import NUMBER, read_whole
from .pipes import UNREADABLE, quoted, unreadable

_JSON_TOTAL_KEYS = ("total", "nodes", "count", "perft")


@dataclass
class ParsedDivide:
    """`moves`: {uci: count} in the engine's order, or None when it printed only a total;
    `total`: the total it printed (None if none); `ignored`: lines neither rows nor total;
    `notes`: what the reader did that the user may want to know; `dropped`: moves listed with
    0 that are not legal; `bare_promotions`: promotions printed without their piece (once)."""
    moves: dict[str, int] | None
    total: int | None
    ignored: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    dropped: list[str] = field(default_factory=list)
    bare_promotions: list[str] = field(default_factory=list)

    @property
    def nodes(self) -> int:
        return self.total if self.moves is None else sum(self.moves.values())


def read_divide(lines, fen: str, dialect: Dialect, name: str = "engine", what: str = "the request",
                depth: int | None = None, chess960: bool = False, moves_sent=()) -> ParsedDivide:
    """The answer `lines` to a divide of `fen` (the position after the moves, `depth` asked)."""
    board = chess.Board(fen, chess960=chess960)
    lines = [x.rstrip("\r\n") for x in lines]
    if dialect.json:
        rows, total = _json_rows("\n".join(lines).strip(), name, what)
        return _finish(board, rows, total, "\n".join(lines), [], name, what, moves_sent)
    blocks: list[list[tuple[str, str, str]]] = [[]]
    totals: list[tuple[int, int | None, str]] = []
    ignored: list[str] = []
    for raw in lines:
        line = normalize(raw)
        if not line:
            continue
        row = dialect.row_match(line)
        if row is not None and unreadable(line):
            raise EngineUnreadable(f"{name}: a line of its answer to {what} holds {unreadable(line)}: "
                                   f"{quoted(raw)}; its count cannot be trusted")
        if row is not None:
            if dialect.per_depth and totals and blocks[-1] and len(totals) >= len(blocks):
                blocks.append([])
            blocks[-1].append((row.group("move"), _count(row.group("count"), dialect, name, what, raw), raw))
            continue
        total = dialect.total_match(line)
        if total is not None:
            said_depth = total.groupdict().get("depth")
            totals.append((_count(total.group("total"), dialect, name, what, raw),
                           None if said_depth is None else _count(said_depth, dialect, name, what, raw), raw))
            if dialect.per_depth and blocks[-1]:
                blocks.append([])
            continue
        _refuse_corrupt(board, dialect, raw, name, what)
        if not dialect.is_noise(line) and _looks_like_row(board, line):
            raise EngineUnreadable(f"{name}: a line of its answer to {what} has a move and a number but "
                                   f"is not a row as learned ({_rows_said(dialect)}): {quoted(raw, 120)}")
        ignored.append(raw)
    blocks = [b for b in blocks if b]
    if not blocks and not totals and not dialect.totals_only:
        if not any(board.legal_moves):
            return ParsedDivide({}, None, ignored, ["no rows: the position has no move"])
        if not dialect.total_required or dialect.total is None:
            # nothing read where there are moves: never taken as "no moves" (each would be a
            # false "not generated")
            raise EngineUnreadable(f"{name}: no rows ({_rows_said(dialect)}) in its answer to {what}"
                                   + _first_line(ignored))
    total_line = _pick_total(totals, blocks, dialect, depth, name, what, ignored)
    if dialect.totals_only:
        return ParsedDivide(None, total_line[0], ignored)
    if dialect.per_depth and depth is not None and blocks and len(blocks) != depth:
        raise EngineUnreadable(f"{name}: {len(blocks)} blocks of rows in its answer to {what}, "
                               f"expected one per depth 1..{depth}")
    rows = blocks[-1] if blocks else []
    if not rows and total_line is not None and total_line[0] != 0:
        raise EngineUnreadable(f"{name}: its answer to {what} has a total of {total_line[0]} but no rows: "
                               f"{total_line[2]!r}")
    parsed = _finish(board, rows, None if total_line is None else total_line[0],
                     None if total_line is None else total_line[2], ignored, name, what, moves_sent, depth)
    if total_line is None:
        parsed.notes.append("no total line: the sum of the moves is used")
    return parsed


def _count(text: str, dialect: Dialect, name: str, what: str, line: str) -> int:
    try:
        return read_whole(text, dialect.separator)
    except ValueError:
        grouped = f" (digits grouped with {dialect.separator!r})" if dialect.separator else ""
        raise EngineUnreadable(f"{name}: the number {text!r} in its answer to {what} cannot be read "
                               f"whole{grouped}: {line!r}") from None


def _first_line(ignored: list[str]) -> str:
    return f"; it printed {len(ignored)} other line{'s' if len(ignored) != 1 else ''}, the first {ignored[0]!r}" \
        if ignored else "; it printed nothing"


def _pick_total(totals, blocks, dialect: Dialect, depth, name, what, ignored):
    """The total line that answers `depth`: the one saying that depth, else the last one."""
    if not totals:
        if dialect.total is not None and dialect.total_required:
            rows = "" if blocks or dialect.totals_only else f"no rows ({_rows_said(dialect)}) and "
            raise EngineUnreadable(f"{name}: {rows}no total line in its answer to {what} "
                                   f"(expected a line like `{dialect.total}`)" + _first_line(ignored))
        return None
    if depth is not None and any(d is not None for _, d, _ in totals):
        said = [t for t in totals if t[1] == depth]
        if not said:
            raise EngineUnreadable(f"{name}: its answer to {what} has no total for depth {depth}: "
                                   f"{totals[-1][2]!r}")
        return said[-1]
    if dialect.per_depth:
        if depth is not None and len(totals) != depth:
            raise EngineUnreadable(f"{name}: {len(totals)} total lines in its answer to {what}, "
                                   f"expected one per depth 1..{depth}: {totals[-1][2]!r}")
        return totals[-1]
    if len({t[0] for t in totals}) > 1:
        raise EngineUnreadable(f"{name}: {len(totals)} different totals in its answer to {what}: "
                               f"{totals[0][2]!r} and {totals[-1][2]!r}")
    return totals[-1]


def _finish(board: chess.Board, rows, total, total_line, ignored, name, what, moves_sent,
            depth: int | None = None) -> ParsedDivide:
    parsed = ParsedDivide({}, total, ignored)
    legal = {board.uci(m) for m in board.legal_moves}
    written_as: dict[str, str] = {}
    bare: dict[str, int] = {}
    for written, count, line in rows:
        read = read_move(board, written)
        if read is None:
            raise EngineUnreadable(f"{name}: cannot read the move {written!r} in {board.fen()} "
                                   f"in its answer to {what}: {line!r}")
        uci = read.uci
        if count == 0 and uci not in legal:
            parsed.dropped.append(uci)
            continue
        if is_bare_promotion(board, uci):
            bare[uci] = bare.get(uci, 0) + 1
        elif uci in written_as:
            raise EngineUnreadable(f"{name}: move {uci} listed twice in its answer to {what}: "
                                   f"{written_as[uci]!r} and {line!r}")
        written_as[uci] = line
        parsed.moves[uci] = parsed.moves.get(uci, 0) + count
    for uci, times in bare.items():
        if times > 1:
            raise EngineUnreadable(
                f"{name}: ambiguous promotion {uci} (no piece letter) listed {times} times in its answer "
                f"to {what}: which piece each count is for cannot be told; print it as "
                f"{uci}q, {uci}r, {uci}b, {uci}n")
        parsed.bare_promotions.append(uci)
    _check_side(board, parsed.moves, name, what, moves_sent)
    if parsed.dropped:
        parsed.notes.append(zero_rows_note(parsed.dropped, depth))
    if total is not None and total != sum(parsed.moves.values()):
        raise EngineUnreadable(f"{name}: the moves add up to {sum(parsed.moves.values())} but it reports "
                               f"{total} in its answer to {what}: {total_line!r}")
    return parsed


def _check_side(board: chess.Board, moves: dict, name: str, what: str, moves_sent):
    """Rows that are all moves of the side not to move: the engine answered for another
    position, most likely the one before a move it refused or ignored."""
    if len(moves) < 2 or not all(wrong_side(board, m) for m in moves):
        return
    shown = " ".join(list(moves)[:4])
    if moves_sent:
        raise EngineRefused(f"{name}: the moves it lists ({shown} ...) are not moves of the side to move "
                            f"after {' '.join(moves_sent)}: it did not play the moves sent (a refused or "
                            f"ignored move) in its answer to {what}")
    raise EngineUnreadable(f"{name}: the moves it lists ({shown} ...) are not moves of the side to move "
                           f"in {board.fen()} in its answer to {what}")


def _looks_like_row(board: chess.Board, line: str) -> bool:
    """A move of this position and a number outside it: what a row looks like."""
    for match in MOVE_WORD.finditer(line):
        if read_move(board, match.group(0)) is not None:
            rest = line[:match.start()] + " " + line[match.end():]
            if NUMBER.search(rest):
                return True
    return False


def _refuse_corrupt(board: chess.Board, dialect: Dialect, raw: str, name: str, what: str):
    """A row or total with bytes in it that are not text (a NUL, bytes that are not UTF-8)
    cannot be ignored like other noise: leaving its move out would report it as not generated."""
    bad = unreadable(normalize(raw))
    if bad:
        clean = normalize(UNREADABLE.sub("", raw))
        if dialect.row_match(clean) or dialect.total_match(clean) or _looks_like_row(board, clean) or \
                re.search(r"[:=]\s*\d+$", clean):
            raise EngineUnreadable(f"{name}: a line of its answer to {what} holds {bad}: {quoted(raw)}; "
                                   f"its count cannot be trusted")


def _rows_said(dialect: Dialect) -> str:
    return "rows look like " + " or ".join(f"`{s}`" for s in dialect.rows) if dialect.rows else \
        "it prints only totals"


def _json_rows(text: str, name: str, what: str):
    try:
        data = json.loads(text)
    except ValueError as e:
        raise EngineUnreadable(f"{name}: its answer to {what} should be JSON but is not: {e}") from None
    if not isinstance(data, dict):
        raise EngineUnreadable(f"{name}: its answer to {what} is JSON but not a map of moves: {text[:80]!r}")
    total = None
    for key in ("moves", "divide"):
        if isinstance(data.get(key), dict):
            total = next((data[k] for k in _JSON_TOTAL_KEYS if isinstance(data.get(k), int)), None)
            data = data[key]
            break
    rows = []
    for move, count in data.items():
        if move.lower() in _JSON_TOTAL_KEYS and isinstance(count, int):
            total = count
        elif isinstance(count, int) and not isinstance(count, bool):
            rows.append((move, count, f"{move!r}: {count}"))
        else:
            raise EngineUnreadable(f"{name}: JSON answer to {what}: {move!r} maps to {count!r}, not a count")
    return rows, total


def zero_rows_note(moves: list[str], depth: int | None, rejected: bool = False) -> str:
    """The note on moves an engine listed with 0 that are not legal (its rows dropped, not a
    finding). Only at depth 1, or once the engine was asked at depth 1 and did not count them
    (`rejected`), is a 0 the engine rejecting a pseudo-legal move; deeper, a 0 may be an illegal
    move it plays with nothing below it, so the note says only what was seen.

        >>> zero_rows_note(["h4h3", "f4e3"], 1)
        '2 moves listed with 0 that are not legal (pseudo-legal moves it rejects): h4h3 f4e3'
    """
    plural = len(moves) != 1
    head = f"{len(moves)} move{'s' if plural else ''} listed with 0 that {'are' if plural else 'is'} not legal"
    if depth == 1 or depth is None or rejected:
        asked = f", and at depth 1 it does not count {'them' if plural else 'it'} either" \
            if rejected and depth != 1 else ""
        return f"{head} (pseudo-legal moves it rejects{asked}): {' '.join(moves)}"
    return f"{head} (nothing below {'them' if plural else 'it'} at depth {depth}): {' '.join(moves)}"
