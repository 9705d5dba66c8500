"""Position suites: EPD (`FEN ;D1 20 ;D2 400 ; note`) and python-chess `.perft` files
(`id NAME` / `epd FEN` / `perft DEPTH NODES` blocks).

A FEN reads as standard chess unless its castling field needs Chess960 (core.board.position);
a Chess960 position whose X-FEN would read as standard (its kings on e1/e8, say) is marked
with `variant chess960` in its block (`; variant chess960` in EPD), and `full_fen` writes it
in Shredder-FEN, which every reader takes as Chess960."""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from ..errors import FenError, SuiteError

_DEPTH = re.compile(r"^D(\d+)\s+(\d+)$")
_VARIANTS = ("chess960", "standard")


@dataclass
class SuiteEntry:
    """One position of a suite and its expected counts by depth."""
    fen: str
    expected: dict[int, int] = field(default_factory=dict)
    name: str = ""
    note: str = ""
    source: str = ""          # "file:line", for error messages
    chess960: bool = False    # marked `variant chess960`

    @property
    def full_fen(self) -> str:
        """EPD lines often omit the move counters: add them. A marked Chess960 entry is written
        so that it reads as Chess960 everywhere (Shredder-FEN where X-FEN would not say so)."""
        parts = self.fen.split()
        fen = self.fen if len(parts) >= 6 else " ".join(parts + ["0", "1"][len(parts) - 4:])
        if self.chess960:
            from ..board.position import Position     # the kernels: only for the entries that need them
            try:
                return Position.from_fen(fen, chess960=True).fen()
            except FenError:
                return fen               # reported as it stands by whoever reads it
        return fen


def load(path) -> list[SuiteEntry]:
    """Read an EPD or .perft suite; SuiteError names the file and line that cannot be read."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as e:
        raise SuiteError(f"cannot read suite {path}: {e.strerror if isinstance(e, OSError) else e}") from None
    lines = text.splitlines()
    is_perft = any(line.startswith(("epd ", "id ")) for line in lines)
    entries = _parse_perft(lines, path.name) if is_perft else _parse_epd(lines, path.name)
    if not entries:
        raise SuiteError(f"{path}: no positions found (expected EPD lines 'FEN ;D1 20' or .perft blocks)")
    return entries


def _parse_epd(lines, name) -> list[SuiteEntry]:
    entries = []
    for number, raw in enumerate(lines, 1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        fen, *fields = line.split(";")
        entry = SuiteEntry(fen.strip(), source=f"{name}:{number}")
        notes = []
        for f in fields:
            f = f.strip()
            m = _DEPTH.match(f)
            if m:
                entry.expected[int(m.group(1))] = int(m.group(2))
            elif f.startswith("variant "):
                entry.chess960 = _variant(f[8:].strip(), name, number)
            elif re.match(r"^D\w*\s+\S+$", f) and not re.search(r"[a-z]{3}", f):
                raise SuiteError(f"{name} line {number}: cannot read depth field {f!r} (expected 'D<depth> <nodes>')")
            elif f:
                notes.append(f)
        entry.note = "; ".join(notes)
        entry.name = _bracketed_name(entry.note) or f"{name}:{number}"
        entries.append(entry)
    return entries


def _bracketed_name(note: str) -> str:
    m = re.search(r"\[([\w-]+)\]\s*$", note)
    return m.group(1) if m else ""


def _parse_perft(lines, name) -> list[SuiteEntry]:
    entries, current, comment = [], None, []
    for number, raw in enumerate(lines, 1):
        line = raw.strip()
        if not line:
            continue
        if line.startswith("#"):
            text = line.lstrip("# ").strip()
            if any(c.isalnum() for c in text):      # skip ruler lines of dashes
                comment.append(text)
            continue
        keyword, _, rest = line.partition(" ")
        rest = rest.strip()
        if keyword == "id":
            current = SuiteEntry("", name=rest, source=f"{name}:{number}")
            current.note = " ".join(c for c in comment if c)
            comment = []
            entries.append(current)
        elif keyword == "epd":
            if current is None or current.fen:
                current = SuiteEntry("", name=f"{name}:{number}", source=f"{name}:{number}")
                entries.append(current)
            current.fen = rest
        elif keyword == "perft":
            parts = rest.split()
            if current is None or len(parts) != 2 or not all(p.isdigit() for p in parts):
                raise SuiteError(f"{name} line {number}: cannot read {line!r} (expected 'perft <depth> <nodes>' "
                                 f"after an 'epd' line)")
            current.expected[int(parts[0])] = int(parts[1])
        elif keyword == "variant" and current is not None:
            current.chess960 = _variant(rest, name, number)
        else:
            raise SuiteError(f"{name} line {number}: unknown keyword {keyword!r} (expected id, epd, perft "
                             f"or variant)")
    for e in entries:
        if not e.fen:
            raise SuiteError(f"{e.source}: entry {e.name!r} has no 'epd' line")
    return entries


def _variant(text: str, name: str, number: int) -> bool:
    """Whether `variant TEXT` marks Chess960; SuiteError for a variant perftscope does not play."""
    if text.lower() not in _VARIANTS:
        raise SuiteError(f"{name} line {number}: variant {text!r} is not one perftscope plays "
                         f"(expected {' or '.join(_VARIANTS)})")
    return text.lower() == "chess960"
