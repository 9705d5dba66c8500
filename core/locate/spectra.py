"""Ranking source lines by the runs that ran them: Ochiai first, DStar beside it, then the
contrast between runs whose position has the failure's kind of move and runs whose has not;
above them all, where a failing run has twins (its position without what makes its wrong move
possible), the lines that ran only on the way to the wrong move.

    suspects = rank(runs, roots, focus="en passant", twins=move_aware(runs))

A line's spectrum is the set of runs that ran it. Lines with the same spectrum are
indistinguishable to any spectrum-based ranking, so consecutive ones in a file are one suspect
("lines 210-214") and equal scores share a rank: ties are said as ties, never broken by line
order. Where Ochiai ties, the feature contrast (Ochiai again, with "the position has a move of
the focus kind" in place of "the run failed") puts first the lines that run only where that kind
of move is made. `evidence` says what ranked each suspect.
"""
from __future__ import annotations

import math
import os
import re
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
    way: float = 0.0       # the share of the failing runs' twins it ran only on the way to the wrong move in
    at_stake: float = 0.0  # Ochiai over the runs where the wrong move is at stake (for lines on its way)
    mutants: int = 0       # its mutants run (core.locate.mutation)
    mutation: float = 0.0  # its best mutant's share of failing runs turned to pass, times that of passing kept (a refuted candidate as if it broke one more)
    changes: float = 0.0   # the share of failing runs whose answer its mutants change

    @property
    def where(self) -> str:
        return f"{self.file}:{self.line}" + (f"-{self.last}" if self.last != self.line else "")

    def to_json(self) -> dict:
        return {"file": self.file, "line": self.line, "last": self.last, "rank": self.rank,
                "score": round(self.score, 4), "dstar": round(self.dstar, 4) if self.dstar < _DSTAR_TOP else None,
                "contrast": round(self.contrast, 4), "way": round(self.way, 4),
                "at_stake": round(self.at_stake, 4), "failed": self.failed, "passed": self.passed,
                "mutants": self.mutants, "mutation": round(self.mutation, 4), "changes": round(self.changes, 4),
                "text": self.text, "evidence": self.evidence}


def ochiai(ef: int, ep: int, total_failed: int) -> float:
    return ef / math.sqrt(total_failed * (ef + ep)) if ef and total_failed else 0.0


def ochiai_of(ran: set[int], failing: set[int]) -> float:
    """Ochiai of the runs `ran` (indices) against the `failing` ones."""
    return ochiai(len(ran & failing), len(ran - failing), len(failing))


def dstar(ef: int, ep: int, total_failed: int, star: int = 2) -> float:
    below = ep + (total_failed - ef)
    return _DSTAR_TOP if below == 0 else ef ** star / below


@dataclass(frozen=True)
class Twins:
    """The move-aware step's runs: for a failing run (its index), the passing or failing runs of
    its closest twins: its position with only what makes its wrong move possible taken away
    (`without`: 'the right k', 'the en-passant square', 'the rook on a1'), so that the move cannot
    be made there. `move`: the wrong move, as UCI."""
    failing: int
    twins: tuple[int, ...]
    move: str
    without: str


def rank(runs: list[Run], roots, focus: str | None = None, twins: list[Twins] = ()) -> list[Suspect]:
    """Every line some failing run ran, best first.

    Plain spectra first: Ochiai over every run. Then the move-aware step, where there are twins:
    a line that ran in a failing run and not in its twins ran only on the way to generating the
    wrong move (or on the way past the missing one); such lines rank above every other, by how many
    of the failing runs' twins show it, then by Ochiai over the runs where the wrong move is at
    stake (`Run.stake`: the move is possible there, made right or wrong). Runs where it is not at
    stake (the other colour's castling, say) say nothing about the lines on its way, so those lines
    tie when the at-stake runs cannot tell them apart; plain Ochiai orders them within the tie.
    The rest: Ochiai, ties broken by the feature contrast. A condition whose only body is a jump
    (`continue`, `return false`) is ranked with the jump's runs: the jump ran because the
    condition sent control there; so is any condition whose branch into its body is more
    suspicious than the condition's own lines (evaluated in every run, taken in the failing ones).
    A condition is listed first among the lines that share its rank: they ran because of it."""
    failing = [i for i, r in enumerate(runs) if r.failed]
    total_failed = len(failing)
    featured = [i for i, r in enumerate(runs) if focus is not None and focus in r.kinds]
    staked = {i for i, r in enumerate(runs) if r.stake}
    spectra: dict[tuple[str, int], set[int]] = {}
    for i, run in enumerate(runs):
        for path, lines in run.lines.items():
            for line in lines:
                spectra.setdefault((path, line), set()).add(i)
    failing_set, featured_set = set(failing), set(featured)
    texts: dict[str, list[str]] = {}
    _statement_heads(spectra, texts)
    def sharper(branch: set[int], own: set[int]) -> bool:
        return ochiai_of(branch, failing_set) > ochiai_of(own, failing_set)
    # where the runtime gave a line's branch outcomes (gcov, llvm-cov), they say it, not its body's coverage
    outcomes = {(path, n) for run in runs for path, lines in run.branches.items() for n in lines}
    groups = _branches(_groups(spectra, lambda path, line: _text(texts, path, line)), texts, spectra, sharper,
                       outcomes)
    groups = _outcomes(groups, runs, spectra, failing_set)
    twins = [t for t in twins if t.twins]
    # a wrong move the engine generates is also played (made, unmade) to test it: the lines that
    # play it ran on its way only because the lines before them generated it
    illegal = bool(twins) and twins[0].move not in missed(runs[twins[0].failing])
    rows = []
    for path, first, last, ran, jump in groups:
        ef = len(ran & failing_set)
        if not ef:
            continue
        ep = len(ran) - ef
        contrast = ochiai_of(ran, featured_set) if featured else 0.0
        way = sum(sum(1 for t in tw.twins if t not in ran) / len(tw.twins)
                  for tw in twins if tw.failing in ran) / len(twins) if twins else 0.0
        at_stake = ochiai(len(ran & failing_set & staked), len((ran - failing_set) & staked),
                          len(failing_set & staked)) if way else 0.0
        played = bool(way) and illegal and bool(_PLAYS.match(_function(texts, path, first)))
        rows.append(_Row(path, first, last, ef, ep, ochiai(ef, ep, total_failed), dstar(ef, ep, total_failed),
                         contrast, way, at_stake, jump, played))
    rows.sort(key=lambda r: (-r.way, r.played, -r.at_stake, -r.score, -r.contrast, r.jump is None, r.path, r.first))
    by_score = Counter(r.key[0] for r in rows if not r.way)
    by_key = Counter(r.key for r in rows)
    by_way = Counter(r.key[:2] for r in rows if r.way)
    moves = twins[0].move if twins else ""
    without = twins[0].without if twins else ""
    suspects = []
    current_rank = 0
    for i, r in enumerate(rows):
        if i == 0 or r.key != rows[i - 1].key:
            current_rank = i + 1
        if r.way:
            evidence = (f"ran only because {moves} was played (in {_function(texts, r.path, r.first)})" if r.played
                        else f"ran on the way to {moves}" if illegal
                        else f"ran where {moves} should have been generated") + f" (not without {without})"
            if by_way[r.key[:2]] > by_key[r.key]:
                evidence += f", then where {moves} is at stake"
            elif by_key[r.key] > 1:
                evidence += " (tie)"
        elif by_score[r.key[0]] == 1:
            evidence = "spectrum"
        elif featured and by_key[r.key] < by_score[r.key[0]]:
            evidence = f"spectrum, then {focus} contrast"
        else:
            evidence = "spectrum (tie)"
        if isinstance(r.jump, str):
            evidence = f"{r.jump}: {evidence}"
        elif r.jump:
            evidence = f"its branch to line {r.jump}: {evidence}"
        suspects.append(Suspect(_relative(r.path, roots), r.first, r.last, current_rank, r.score, r.dstar, r.contrast,
                                r.ef, r.ep, _text(texts, r.path, r.first), evidence, r.path, r.way, r.at_stake))
    return suspects


@dataclass(frozen=True)
class _Row:
    path: str
    first: int
    last: int
    ef: int
    ep: int
    score: float
    dstar: float
    contrast: float
    way: float
    at_stake: float
    jump: int | str | None       # the line its condition jumps to, or how its branch outcome was told
    played: bool = False   # on the way, in the function that plays the wrong move (after those that generate it)

    @property
    def key(self) -> tuple:
        """What ranks it: rows with the same key share a rank."""
        if self.way:
            return round(self.way, 12), self.played, round(self.at_stake, 12)
        return round(self.score, 12), round(self.contrast, 12)


# a function that plays a move on the board (or takes it back), by its name
_PLAYS = re.compile(r"^_*(?:un)?(?:make|do|undo|play|apply|push|pop)(?:_?move)?$", re.I)
_FUNCTION = re.compile(r"^(?:async\s+)?(?:def|function\*?)\s+(\w+)"                    # Python, JavaScript
                       r"|^(?:[\w:<>,*&]+\s+)*[*&]*(\w+)\s*\([^;]*\)\s*(?:const\s*)?\{?$")  # C, C++, a method


def _function(texts, path, line: int) -> str:
    """The name of the function line `line` is in: the nearest definition above it indented
    less than every line between ('' when none is found)."""
    text = _raw(texts, path, line)
    indent = len(text) - len(text.lstrip())
    for n in range(line - 1, 0, -1):
        above = _raw(texts, path, n)
        if not above.strip():
            continue
        depth = len(above) - len(above.lstrip())
        if depth >= indent:
            continue
        match = _FUNCTION.match(above.strip())
        if match and not above.strip().startswith(("if", "for", "while", "switch", "return", "else")):
            return next(g for g in match.groups() if g)
        indent = depth
        if depth == 0:
            return ""
    return ""


def _raw(cache, path, line: int) -> str:
    _text(cache, path, line)
    lines = cache[path]
    return lines[line - 1].rstrip() if 0 < line <= len(lines) else ""


def missed(run: Run) -> set[str]:
    """The moves a failing run's engine did not generate (its verdict's `misses ...`)."""
    return {m for part in run.verdict.split("; ") if part.startswith("misses ") for m in part[7:].split()}


# a statement that only jumps: `continue`, `break`, `pass`, `return` of nothing or of a constant
_JUMP = re.compile(r"^(?:continue|break|pass|return(?:\s+(?:true|false|True|False|None|null|undefined|-?\d+|\[\]|\{\}))?)\s*;?\s*$")
_CONDITION = re.compile(r"^(?:(?:el)?if\b|(?:\}\s*)?(?:else\s+)?if\s*\()")     # its first line
_CONDITION_END = re.compile(r"(?::|\)\s*\{?)$")                                   # its last
_CONTINUED = re.compile(r"(?:\\|&&|\|\||\band|\bor|[(,+\-*/<>=!])$")


def _branches(groups, texts, spectra=None, sharper=lambda branch, own: False, outcomes=frozenset()):
    """`groups` with a suspect added for each condition whose branch into its body says more than
    the condition's own lines (the condition's lines, from its first to its last, taken out of the
    groups holding them): it carries the runs that took the branch and the body's first line. A
    body that is a lone jump always does (the jump ran because the condition sent control
    there); another body where `sharper(its runs, the condition's runs)` (a condition evaluated
    in every run whose outcome differs between failing and passing runs: line coverage of the
    body is that outcome), unless the line is in `outcomes` (branch data says it: _outcomes)."""
    out = [(path, first, last, ran, None) for path, first, last, ran in groups]
    conditions, taken = [], set()
    for path, first, last, ran in groups:
        if first != last or not _JUMP.match(_text(texts, path, first)):
            continue
        end = first - 1
        while end > 0 and NOT_CODE.match(_text(texts, path, end)) and not _text(texts, path, end).startswith(("}", "{")):
            end -= 1
        if end < 1 or not _CONDITION_END.search(_text(texts, path, end)):
            continue
        start = _statement_start(texts, path, end)
        if not _CONDITION.match(_text(texts, path, start)):
            continue
        conditions.append((path, start, end, ran, first))
        taken.add((path, start))
    inside = {(path, n) for path, start, end, _, _ in conditions for n in range(start, end + 1)}
    for path, first, last, ran in groups if spectra is not None else ():
        for start in range(first, last + 1):
            if (path, start) in taken or (path, start) in inside or (path, start) in outcomes \
                    or not _CONDITION.match(_text(texts, path, start)):
                continue
            end = _condition_end(texts, path, start)
            if end is None:
                continue
            body = end + 1
            while body < end + 8 and NOT_CODE.match(_text(texts, path, body)):
                body += 1
            runs = spectra.get((path, body))
            if not _CONDITION_END.search(_text(texts, path, end)) or runs is None or runs == ran \
                    or not sharper(runs, ran):
                continue
            conditions.append((path, start, end, frozenset(runs), body))
            inside |= {(path, n) for n in range(start, end + 1)}
    for path, start, end, _, _ in conditions:
        kept = []
        for g in out:
            if g[0] != path or g[2] < start or g[1] > end or g[4] is not None:
                kept.append(g)
                continue
            if g[1] < start:
                kept.append((g[0], g[1], start - 1, g[3], None))
            if g[2] > end:
                kept.append((g[0], end + 1, g[2], g[3], None))
        out = kept
    return out + conditions


def _condition_end(texts, path, start: int) -> int | None:
    """The last line of the condition starting on line `start`: the first whose brackets close
    what it opened and that is not continued; None when that line does not open a body there
    (`if (x) { break; }` on one line, say)."""
    depth = 0
    for end in range(start, start + 8):
        text = _text(texts, path, end)
        depth += sum(text.count(c) for c in "([{") - sum(text.count(c) for c in ")]}")
        if depth <= 0 and not text.endswith("\\") or depth == 1 and text.endswith("{"):
            return end if _CONDITION_END.search(text) else None
    return None


TAKEN = "the way its condition went (branch data)"


def _outcomes(groups, runs: list[Run], spectra, failing: set[int]):
    """`groups` with a suspect of its own for each line whose branch data (gcov's, `Run.branches`)
    has an outcome whose runs tell failing from passing better (Ochiai) than the runs that ran the
    line: it carries that outcome's runs (an `if` that runs everywhere but goes into its block
    only where the wrong move is made ranks with its block, above the lines that merely ran). The
    line is taken out of the group that held it."""
    ways: dict[tuple[str, int, int], set[int]] = {}
    for i, run in enumerate(runs):
        for path, lines in run.branches.items():
            for line, taken in lines.items():
                for way in taken:
                    ways.setdefault((path, line, way), set()).add(i)
    best: dict[tuple[str, int], tuple[float, frozenset[int]]] = {}
    for (path, line, _), ran in ways.items():
        if (path, line) not in spectra:
            continue
        score = ochiai_of(ran, failing)
        if score > best.get((path, line), (0.0,))[0]:
            best[(path, line)] = (score, frozenset(ran))
    told = {}
    for (path, line), (score, ran) in best.items():
        if score > ochiai_of(spectra[(path, line)], failing) + 1e-12:
            told[(path, line)] = ran
    if not told:
        return groups
    out = []
    for path, first, last, ran, jump in groups:
        cut = [n for n in range(first, last + 1) if (path, n) in told] if jump is None else []
        start = first
        for n in cut:
            if start < n:
                out.append((path, start, n - 1, ran, None))
            out.append((path, n, n, told[(path, n)], TAKEN))
            start = n + 1
        if start <= last:
            out.append((path, start, last, ran, jump))
    return out


HEAD_LINES = 4           # lines looked back through for the head of a statement a ran line continues


def _statement_heads(spectra: dict[tuple[str, int], set[int]], texts):
    """Give the first lines of a statement written over several the runs of its later lines, where
    the coverage left them out: gcov counts `map =` / `    attacks(sq);` on the call's line only,
    so the assignment, the very token a fix may change, ran in no run and could be no suspect. A
    later part of a statement ran only if the statement began. Only lines no run ran, holding code
    and left open (an operator, `=`, a bracket not closed), are looked back through; a line that
    closes a block (`}`) is not a statement's continuation."""
    for (path, line), ran in list(spectra.items()):
        # most ran lines follow a ran line: nothing above them to look back through
        if (path, line - 1) in spectra or NOT_CODE.match(_text(texts, path, line)):
            continue
        start, head = max(_statement_start(texts, path, line), line - HEAD_LINES), line
        while head > start and (path, head - 1) not in spectra:
            before = _text(texts, path, head - 1)
            if NOT_CODE.match(before) or before.endswith((";", "{", "}")):
                break
            head -= 1
        for n in range(head, line):
            spectra.setdefault((path, n), set()).update(ran)


def _statement_start(texts, path, end: int) -> int:
    """The first line of the statement whose last line is `end`: back while the line before it
    is left open (a backslash, an operator, brackets not yet closed)."""
    start, depth = end, 0
    while True:
        text = _text(texts, path, start)
        depth += sum(text.count(c) for c in ")]}") - sum(text.count(c) for c in "([{")
        before = _text(texts, path, start - 1) if start > 1 else ""
        if start > 1 and (depth > 0 or _CONTINUED.search(before)):
            start -= 1
            continue
        return start


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
