"""How one engine prints its divide: its dialect, learned by calibration (core.engines.calibration),
saved, and then the only way its answers are read (core.engines.divide_parser).

    >>> d = Dialect(rows=("{move} {count}{rest}",), total="{depth} {total}{rest}",
    ...             notation="long algebraic", zero_rows=True, per_depth=True)
    >>> d.row_match("Nb1-a3  20  20").group("count")
    '20'

Lines are compared by their *shape*: the line with runs of blanks made one space (and terminal
colour codes dropped), the move written `{move}`, its count `{count}`, the total `{total}`, the
depth asked `{depth}`, any other number `{n}`, and `{rest}` standing for whatever follows a
count or a total (a time, a speed, possibly nothing). `Raw nodes for depth 5: 4865609` has the shape `Raw nodes for depth {depth}:
{total}`, Stockfish's rows `{move}: {count}`, a bare total `{total}`. Literal braces are doubled.
"""
from __future__ import annotations

import re
from dataclasses import asdict, dataclass, fields
from functools import lru_cache

from ..errors import EngineError
from .notation import MOVE_PATTERN

NOTATIONS = ("uci", "long algebraic", "san")
CASTLINGS = ("", "O-O", "king two squares", "king takes rook")
STREAMS = ("stdout", "stderr")
FIELDS = ("move", "count", "total", "depth", "n", "rest")
_FIELD = re.compile(r"\{\{|\}\}|\{(" + "|".join(FIELDS) + r")\}")
_ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")
_BLANKS = re.compile(r"\s+")
_ANY_NUMBER = r"[-+]?\d(?:[\d,_'.]*\d)?"


def normalize(line: str) -> str:
    """The line as shapes see it: colour codes dropped, blanks collapsed, ends stripped."""
    return _BLANKS.sub(" ", _ANSI.sub("", line)).strip()


@dataclass(frozen=True)
class Dialect:
    """What calibration learned. `rows`: the shapes of a move row (empty: the engine prints
    only totals); `json`: the answer is one JSON map of moves; `total`: the shape of the total
    line (None: there is none, the sum of the rows is used); `notation` and `castling`: how
    moves are written; `separator`: how digits are grouped ('' none); `zero_rows`: pseudo-legal
    moves are listed, the illegal ones with 0; `per_depth`: one block per depth 1..D, the last
    answers; `chess960`: whether it takes Chess960 positions (None: not tried); `noise`: shapes
    of lines with a move in them that are neither rows nor totals (ignored); `total_required`:
    an answer without its total line is an error (a protocol may make it optional); `stream`:
    where its answers are printed, 'stdout' or 'stderr' (Laser prints its perft on stderr)."""
    rows: tuple[str, ...] = ()
    total: str | None = None
    json: bool = False
    notation: str = "uci"
    castling: str = ""
    separator: str = ""
    zero_rows: bool = False
    per_depth: bool = False
    chess960: bool | None = None
    noise: tuple[str, ...] = ()
    total_required: bool = True
    stream: str = "stdout"

    @property
    def totals_only(self) -> bool:
        return not self.rows and not self.json

    def row_match(self, line: str):
        """The match of a normalized line against the row shapes (None when it is no row)."""
        for shape in self.rows:
            match = compiled(shape, self.separator).fullmatch(line)
            if match:
                return match
        return None

    def total_match(self, line: str):
        return None if self.total is None else compiled(self.total, self.separator).fullmatch(line)

    def is_noise(self, line: str) -> bool:
        return any(compiled(shape, self.separator).fullmatch(line) for shape in self.noise)

    def to_dict(self) -> dict:
        """Plain values, for an engine file's [dialect] table or a saved record."""
        out = asdict(self)
        out["rows"], out["noise"] = list(self.rows), list(self.noise)
        return {k: v for k, v in out.items() if v is not None}

    @classmethod
    def from_dict(cls, data: dict, where: str) -> "Dialect":
        """EngineError naming `where` (an engine file, a record) and the key that is wrong."""
        known = {f.name: f for f in fields(cls)}
        values = {}
        for key, value in data.items():
            if key not in known:
                raise EngineError(f"{where}: unknown dialect key {key!r} (expected some of "
                                  f"{', '.join(known)})")
            if key in ("rows", "noise"):
                if isinstance(value, str):
                    value = [value]
                if not isinstance(value, list) or not all(isinstance(x, str) for x in value):
                    raise EngineError(f"{where}: dialect {key!r} must be a list of line shapes")
                for shape in value:
                    _check_shape(shape, where, key)
                value = tuple(value)
            elif key == "total":
                if not isinstance(value, str):
                    raise EngineError(f"{where}: dialect 'total' must be a line shape like "
                                      f"'Nodes searched: {{total}}'")
                _check_shape(value, where, key)
            elif key in ("json", "zero_rows", "per_depth", "chess960", "total_required"):
                if not isinstance(value, bool):
                    raise EngineError(f"{where}: dialect {key!r} must be true or false")
            elif key == "notation" and value not in NOTATIONS:
                raise EngineError(f"{where}: dialect 'notation' must be one of {', '.join(NOTATIONS)}")
            elif key == "castling" and value not in CASTLINGS:
                raise EngineError(f"{where}: dialect 'castling' must be one of {', '.join(map(repr, CASTLINGS))}")
            elif key == "stream" and value not in STREAMS:
                raise EngineError(f"{where}: dialect 'stream' must be \"stdout\" or \"stderr\"")
            elif key == "separator" and value not in ("", ",", ".", "_", "'", " "):
                raise EngineError(f"{where}: dialect 'separator' must be one of '', ',', '.', '_', \"'\", ' '")
            values[key] = value
        return cls(**values)

    def describe(self) -> list[tuple[str, str]]:
        """(what, how) lines for `engine check`."""
        out = []
        if self.stream != "stdout":
            out.append(("stream", f"its answers are printed on {self.stream}"))
        if self.json:
            out.append(("rows", "one JSON map of moves to counts"))
        elif self.rows:
            out.append(("rows", "  or  ".join(f"`{s}`" for s in self.rows)))
        else:
            out.append(("rows", "none: it prints only totals (perftscope bisects by totals)"))
        if not self.totals_only:
            castles = {"O-O": "O-O / O-O-O", "king two squares": "the king's two-square move (e1g1)",
                       "king takes rook": "king takes rook (e1h1)"}.get(self.castling, "not seen")
            out.append(("notation", f"{self.notation}; castling written {castles}"))
        out.append(("total", f"`{self.total}`" if self.total else "no total line: the sum of the rows is used"))
        if self.separator:
            out.append(("counts", f"digits grouped with {self.separator!r}"))
        if self.zero_rows:
            out.append(("illegal", "it lists pseudo-legal moves, the illegal ones with 0: "
                                   "those rows are dropped, not findings"))
        if self.per_depth:
            out.append(("blocks", "one per depth 1..D in each answer; the last one answers"))
        out.append(("Chess960", {True: "takes Chess960 positions", False: "does not take Chess960 positions",
                                 None: "not tried"}[self.chess960]))
        return out


def _check_shape(shape: str, where: str, key: str):
    names = _FIELD.findall(shape)
    if key == "rows" and ("move" not in names or "count" not in names):
        raise EngineError(f"{where}: a row shape needs {{move}} and {{count}}: {shape!r}")
    if key == "total" and "total" not in names:
        raise EngineError(f"{where}: the total shape needs {{total}}: {shape!r}")
    leftover = _FIELD.sub("", shape)
    if "{" in leftover or "}" in leftover:
        raise EngineError(f"{where}: {shape!r} has a field perftscope does not know "
                          f"(fields: {', '.join('{' + f + '}' for f in FIELDS)}; write literal braces twice)")


@lru_cache(maxsize=256)
def compiled(shape: str, separator: str = "") -> re.Pattern:
    """The regex of a shape: each blank one or more blanks, counts as digits and separators
    (read whole afterwards, so a count is never cut short), {rest} whatever follows."""
    digits = r"[\d,_'. ]" if separator == " " else r"[\d,_'.]"
    number = rf"\d(?:{digits}*\d)?"
    out, pos, named = [], 0, set()
    for match in _FIELD.finditer(shape):
        out.append(_literal(shape[pos:match.start()]))
        pos = match.end()
        token = match.group(0)
        if token in ("{{", "}}"):
            out.append(re.escape(token[0]))
        elif match.group(1) in named:        # a field seen before (two moves in a noise line)
            out.append(MOVE_PATTERN if match.group(1) == "move" else rf"{number}(?![\d,_'.]?\d)")
        elif match.group(1) == "move":
            named.add("move")
            out.append(rf"(?P<move>{MOVE_PATTERN})")
        elif match.group(1) in ("count", "total", "depth"):
            named.add(match.group(1))
            # never the first digits of a longer number: `8,902` or, for a total, `8 902`
            spaced = r"(?! \d{3}(?![\d,_'.]?\d))" if match.group(1) == "total" and separator != " " else ""
            out.append(rf"(?P<{match.group(1)}>{number})(?![\d,_'.]?\d){spaced}")
        elif match.group(1) == "n":
            out.append(_ANY_NUMBER)
        else:                      # {rest}: whatever follows (the field before ends on a boundary)
            out.append(r"(?P<rest>.*)")
    out.append(_literal(shape[pos:]))
    return re.compile("".join(out))


def _literal(text: str) -> str:
    return "".join(r"\s+" if ch == " " else re.escape(ch) for ch in text)
