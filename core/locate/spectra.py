"""Ranking source lines by the runs that ran them: Ochiai first, DStar beside it, then the
contrast between runs whose position has the failure's kind of move and runs whose has not.

    suspects = rank(runs, roots, focus="en passant")

A line's spectrum is the set of runs that ran it. Lines with the same spectrum are
indistinguishable to any spectrum-based ranking, so consecutive ones in a file are one suspect
("lines 210-214") and equal scores share a rank: ties are said as ties, never broken by line
order. Where Ochiai ties, the feature contrast (Ochiai again, with "the position has a move of
the focus kind" in place of "the run failed") puts first the lines that run only where that kind
of move is made; `evidence` says which of the two ranked each suspect.
"""
from __future__ import annotations

import math
import os
from collections import Counter
from dataclasses import dataclass

from .coverage import NOT_CODE
from .runs import Run

_DSTAR_TOP = 1e9          # DStar with nothing against it (every failing run, no passing one)


@dataclass(frozen=True)
class Suspect:
    file: str              # relative to the source folder holding it
    line: int
    last: int              # the last line of the run of lines with the same spectrum (== line for one)
    rank: int              # 1 + the number of suspects ranked strictly above it (ties share it)
    score: float           # Ochiai
    dstar: float
    contrast: float        # Ochiai of the feature contrast (0 without a focus)
    failed: int            # failing runs that ran it
    passed: int            # passing runs that ran it
    text: str              # the source line (the first of the range)
    evidence: str
    path: str = ""         # absolute

    @property
    def where(self) -> str:
        return f"{self.file}:{self.line}" + (f"-{self.last}" if self.last != self.line else "")

    def to_json(self) -> dict:
        return {"file": self.file, "line": self.line, "last": self.last, "rank": self.rank,
                "score": round(self.score, 4), "dstar": round(self.dstar, 4) if self.dstar < _DSTAR_TOP else None,
                "contrast": round(self.contrast, 4), "failed": self.failed, "passed": self.passed,
                "text": self.text, "evidence": self.evidence}


def ochiai(ef: int, ep: int, total_failed: int) -> float:
    return ef / math.sqrt(total_failed * (ef + ep)) if ef and total_failed else 0.0


def dstar(ef: int, ep: int, total_failed: int, star: int = 2) -> float:
    below = ep + (total_failed - ef)
    return _DSTAR_TOP if below == 0 else ef ** star / below


def rank(runs: list[Run], roots, focus: str | None = None) -> list[Suspect]:
    """Every line some failing run ran, best first."""
    failing = [i for i, r in enumerate(runs) if r.failed]
    total_failed = len(failing)
    featured = [i for i, r in enumerate(runs) if focus is not None and focus in r.kinds]
    spectra: dict[tuple[str, int], set[int]] = {}
    for i, run in enumerate(runs):
        for path, lines in run.lines.items():
            for line in lines:
                spectra.setdefault((path, line), set()).add(i)
    failing_set, featured_set = set(failing), set(featured)
    texts: dict[str, list[str]] = {}
    groups = _groups(spectra, lambda path, line: _text(texts, path, line))
    rows = []
    for path, first, last, ran in groups:
        ef = len(ran & failing_set)
        if not ef:
            continue
        ep = len(ran) - ef
        contrast = ochiai(len(ran & featured_set), len(ran - featured_set), len(featured)) if featured else 0.0
        rows.append((path, first, last, ef, ep, ochiai(ef, ep, total_failed), dstar(ef, ep, total_failed), contrast))
    rows.sort(key=lambda r: (-r[5], -r[7], r[0], r[1]))
    by_score = Counter(round(r[5], 12) for r in rows)
    by_both = Counter((round(r[5], 12), round(r[7], 12)) for r in rows)
    suspects = []
    current_rank = 0
    for i, (path, first, last, ef, ep, score, ds, contrast) in enumerate(rows):
        key = (round(score, 12), round(contrast, 12))
        if i == 0 or key != (round(rows[i - 1][5], 12), round(rows[i - 1][7], 12)):
            current_rank = i + 1
        if by_score[key[0]] == 1:
            evidence = "spectrum"
        elif featured and by_both[key] < by_score[key[0]]:
            evidence = f"spectrum, then {focus} contrast"
        else:
            evidence = "spectrum (tie)"
        suspects.append(Suspect(_relative(path, roots), first, last, current_rank, score, ds, contrast, ef, ep,
                                _text(texts, path, first), evidence, path))
    return suspects


def _groups(spectra: dict[tuple[str, int], set[int]], text):
    """(file, first, last, runs) for each stretch of consecutive ran lines of one file with the
    same spectrum; lines between them that no run ran must hold no code (blank, a comment, a
    brace: `text(path, line)` says), else they end the stretch."""
    out = []
    by_file: dict[str, list[int]] = {}
    for path, line in spectra:
        by_file.setdefault(path, []).append(line)
    for path, lines in by_file.items():
        lines.sort()
        start = prev = lines[0]
        for line in lines[1:] + [None]:
            if (line is not None and spectra[(path, line)] == spectra[(path, start)]
                    and all(NOT_CODE.match(text(path, n)) for n in range(prev + 1, line))):
                prev = line
                continue
            out.append((path, start, prev, frozenset(spectra[(path, start)])))
            if line is not None:
                start = prev = line
    return out


def _relative(path: str, roots) -> str:
    for root in roots:
        if path.startswith(os.path.join(root, "")):
            return os.path.relpath(path, root)
    return path


def _text(cache: dict[str, list[str]], path: str, line: int) -> str:
    """The source line, stripped (None past the end or when the file cannot be read: code, for
    all anyone knows)."""
    if path not in cache:
        try:
            with open(path, encoding="utf-8", errors="replace") as f:
                cache[path] = f.read().split("\n")
        except OSError:
            cache[path] = []
    lines = cache[path]
    return lines[line - 1].strip() if 0 < line <= len(lines) else "?"
