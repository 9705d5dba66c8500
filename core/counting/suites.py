"""Position suites: EPD (`FEN ;D1 20 ;D2 400 ; note`) and python-chess `.perft` files
(`id NAME` / `epd FEN` / `perft DEPTH NODES` blocks)."""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from ..errors import SuiteError

_DEPTH = re.compile(r"^D(\d+)\s+(\d+)$")


@dataclass
class SuiteEntry:
    """One position of a suite and its expected counts by depth."""
    fen: str
    expected: dict[int, int] = field(default_factory=dict)
    name: str = ""
    note: str = ""
    source: str = ""          # "file:line", for error messages

    @property
    def full_fen(self) -> str:
        """EPD lines often omit the move counters: add them."""
        parts = self.fen.split()
        return self.fen if len(parts) >= 6 else " ".join(parts + ["0", "1"][len(parts) - 4:])


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
        else:
            raise SuiteError(f"{name} line {number}: unknown keyword {keyword!r} (expected id, epd or perft)")
    for e in entries:
        if not e.fen:
            raise SuiteError(f"{e.source}: entry {e.name!r} has no 'epd' line")
    return entries
