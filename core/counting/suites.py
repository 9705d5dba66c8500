"""Position suites: EPD (`FEN ;D1 20 ;D2 400 ; note`) and python-chess `.perft` files
(`id NAME` / `epd FEN` / `perft DEPTH NODES` blocks), read as a stream (`read`) or whole (`load`).

A FEN reads as standard chess unless its castling field needs Chess960 (core.board.position);
a Chess960 position whose X-FEN would read as standard (its kings on e1/e8, say) is marked
with `variant chess960` in its block (`; variant chess960` in EPD), or the whole suite is read
as Chess960 (`read(path, chess960=True)`: the CLI's --960, the window's Chess960 box), and
`full_fen` writes it in Shredder-FEN, which every reader takes as Chess960."""
from __future__ import annotations

import itertools
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterator

from ..errors import FenError, SuiteError

_DEPTH = re.compile(r"^D(\d+)\s+(\d+)$")
_VARIANTS = ("chess960", "standard")
MAX_LINE = 10_000         # characters: a FEN with counts and a note is under 200


@dataclass
class SuiteEntry:
    """One position of a suite and its expected counts by depth."""
    fen: str
    expected: dict[int, int] = field(default_factory=dict)
    name: str = ""
    note: str = ""
    source: str = ""          # "file:line", for error messages
    error: str = ""           # a line that could not be read: what is wrong, naming the line
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


def read(path, chess960: bool = False) -> Iterator[SuiteEntry]:
    """The positions of an EPD or .perft suite one at a time, as the file is read: a suite of any
    length in bounded memory. A line that cannot be read comes as an entry whose `error` names
    the file and line, and reading goes on: the good lines still run. SuiteError at once when
    the file cannot be opened or is not text, and at the end when it held no position.
    `chess960`: every position is Chess960 (X-FEN `KQkq` the outermost rooks, castling king
    takes rook), as if each were marked `variant chess960`."""
    path = Path(path)
    try:
        f = path.open("rb")
        binary = b"\0" in f.peek(8192)[:8192]      # a folder opens, and fails here
    except OSError as e:
        raise SuiteError(f"cannot read suite {path}: {e.strerror or e}") from None
    if binary:
        f.close()
        raise SuiteError(f"{path} is not a text file (a NUL byte in its first 8 KiB); "
                         f"expected EPD lines 'FEN ;D1 20' or .perft blocks")
    return _stream(f, path, chess960)


def _stream(f, path: Path, chess960: bool) -> Iterator[SuiteEntry]:
    with f:
        found = False
        for entry in _entries(_lines(f, path.name), path.name):
            found = found or not entry.error
            entry.chess960 = entry.chess960 or chess960
            yield entry
    if not found:
        raise SuiteError(f"{path}: no positions found (expected EPD lines 'FEN ;D1 20' or .perft blocks)")


def load(path, chess960: bool = False) -> list[SuiteEntry]:
    """A whole suite at once (the bundled ones, the library); SuiteError names the first line
    that cannot be read. `chess960` as for read."""
    entries = []
    for entry in read(path, chess960):
        if entry.error:
            raise SuiteError(entry.error)
        entries.append(entry)
    return entries


def _lines(f, name) -> Iterator[tuple[int, str | None, str]]:
    """(line number, text, '') for each line, or (number, None, why) for one that is not UTF-8
    or longer than MAX_LINE (whose rest is skipped)."""
    number = 0
    while raw := f.readline(MAX_LINE + 1):
        number += 1
        if len(raw) > MAX_LINE and not raw.endswith(b"\n"):
            while (rest := f.readline(MAX_LINE)) and not rest.endswith(b"\n"):
                pass
            yield number, None, f"{name} line {number}: longer than {MAX_LINE} characters"
            continue
        try:
            yield number, raw.decode("utf-8"), ""
        except UnicodeDecodeError as e:
            yield number, None, f"{name} line {number}: not UTF-8 text ({e.reason} at byte {e.start + 1})"


def _entries(lines, name) -> Iterator[SuiteEntry]:
    """EPD or .perft, told by the first line that is not blank or a comment."""
    before = []
    for item in lines:
        before.append(item)
        text = item[1]
        if text is not None and text.strip() and not text.lstrip().startswith("#"):
            break
    first = before[-1][1] if before and before[-1][1] is not None else ""
    parse = _parse_perft if first.lstrip().startswith(("epd ", "id ")) else _parse_epd
    yield from parse(itertools.chain(before, lines), name)


def _unreadable(number: int, why: str, name: str) -> SuiteEntry:
    return SuiteEntry("", name=f"{name}:{number}", source=f"{name}:{number}", error=why)


def _parse_epd(lines, name) -> Iterator[SuiteEntry]:
    for number, raw, why in lines:
        if raw is None:
            yield _unreadable(number, why, name)
            continue
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
                entry.chess960, problem = _variant(f[8:].strip(), name, number)
                if problem:
                    entry.error = problem
                    break
            elif re.match(r"^D\w*\s+\S+$", f) and not re.search(r"[a-z]{3}", f):
                entry.error = f"{name} line {number}: cannot read depth field {f!r} (expected 'D<depth> <nodes>')"
                break
            elif f:
                notes.append(f)
        entry.note = "; ".join(notes)
        entry.name = _bracketed_name(entry.note) or f"{name}:{number}"
        yield entry


def _bracketed_name(note: str) -> str:
    m = re.search(r"\[([\w-]+)\]\s*$", note)
    return m.group(1) if m else ""


def _parse_perft(lines, name) -> Iterator[SuiteEntry]:
    current, comment = None, []

    def finished(entry):
        if not entry.fen:
            entry.error = f"{entry.source}: entry {entry.name!r} has no 'epd' line"
        return entry

    for number, raw, why in lines:
        if raw is None:
            yield _unreadable(number, why, name)
            continue
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
        if keyword == "id" or (keyword == "epd" and (current is None or current.fen)):
            if current is not None:
                yield finished(current)
            current = SuiteEntry("", name=rest if keyword == "id" else f"{name}:{number}",
                                 source=f"{name}:{number}")
            if keyword == "id":
                current.note = " ".join(c for c in comment if c)
                comment = []
        if keyword == "epd":
            current.fen = rest
        elif keyword == "perft":
            parts = rest.split()
            if current is None or len(parts) != 2 or not all(p.isdigit() for p in parts):
                yield _unreadable(number, f"{name} line {number}: cannot read {line!r} (expected "
                                          f"'perft <depth> <nodes>' after an 'epd' line)", name)
                continue
            current.expected[int(parts[0])] = int(parts[1])
        elif keyword == "variant" and current is not None:
            current.chess960, problem = _variant(rest, name, number)
            if problem:
                yield _unreadable(number, problem, name)
        elif keyword != "id":
            yield _unreadable(number, f"{name} line {number}: unknown keyword {keyword!r} "
                                      f"(expected id, epd, perft or variant)", name)
    if current is not None:
        yield finished(current)


def _variant(text: str, name: str, number: int) -> tuple[bool, str]:
    """(whether `variant TEXT` marks Chess960, '' or what is wrong: a variant perftscope does
    not play)."""
    if text.lower() not in _VARIANTS:
        return False, (f"{name} line {number}: variant {text!r} is not one perftscope plays "
                       f"(expected {' or '.join(_VARIANTS)})")
    return text.lower() == "chess960", ""
