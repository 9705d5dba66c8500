"""Dynamic data dependence for the mutation step (as in slicing-based fault localisation): where
mutants of a line change a failing answer, the state that line and the condition holding it read
may have been written wrong elsewhere (a move's making that updates a right wrongly, read only
when the next moves are generated). The suspect lines that write a name read there, and the
conditions holding those writes, are the likely culprits too, whatever their spectrum rank: a
line of the move-making code runs in every run and ties with dozens.

Names are tokens (no scopes are resolved): a line writes the name its lvalue ends in, the
variable or the field it assigns, compound-assigns or increments (`castling[us] ^= f` writes
`castling`, `self.rights &= m` `rights`, `pos->castle = 0` `castle`, not `pos`: every field of
the position is written through it); a declaration (`var x =`, `int x =`, `let x =`) is a
local's birth, not state, and writes nothing here."""
from __future__ import annotations

import re

from .mutants import _NOT_NAMES, _code, _indent, _masked, _statement_start

WRITERS = 12              # lines tried for the state the effects read, at most, in one mutation
PER_EFFECT = 6            # of them for one line whose mutants changed a failing answer
HOLDERS = 3               # conditions holding a write tried with it, innermost first

_CONTROL = re.compile(r"^(?:\}\s*)?(?:if|elif|else\s+if|while|for|switch|case|match)\b")
_ELSE = re.compile(r"^(?:\}\s*)?else\b(?!\s+if)")
_IDENT = re.compile(r"(?<![\w$])([A-Za-z_]\w*)(?![\w$])")
_CALLED = re.compile(r"\s*\(")
_SUBSCRIPT = re.compile(r"\[[^\[\]]*\]")
_CHAIN = r"[A-Za-z_]\w*(?:\s*(?:->|\.|::)\s*[A-Za-z_]\w*|\s*\[[^\[\]]*\])*"
_C_WRITE = re.compile(rf"^(?:(?:\+\+|--)\s*\*?\s*({_CHAIN})"                     # ++x, --p->n
                      rf"|\*?\s*({_CHAIN})\s*(?:(?:<<|>>>?|[-+*/%&|^])?=(?!=)|\+\+|--))")   # x = , x ^= , x++
_PY_WRITE = re.compile(rf"^((?:{_CHAIN})(?:\s*,\s*(?:{_CHAIN}))*)\s*(?:(?://|\*\*|<<|>>|[-+*/%&|^@])?=(?!=))")
_FUNCTION = re.compile(r"^(?:async\s+)?def\s|\bfn\s+\w|\bfunction\b|=>\s*\{?$|^[\w:<>,*&\s]*\b\w+\s*\([^;]*\)\s*"
                       r"(?:const\s*)?(?:noexcept\s*)?(?:->\s*[^{;]*)?\{?$")
# a local's declaration: `var x`, `let mut x`, `const x`, `auto x`, `int x =`, `Bitboard *x;`
_DECLARED = re.compile(r"(?<![\w$.])(?:var|let(?:\s+mut)?|const|auto)\s+([A-Za-z_]\w*)"
                       r"|^(?:(?:const|static|unsigned|signed|struct)\s+)*[A-Za-z_][\w:<>]*[\s*&]+"
                       r"([A-Za-z_]\w*)\s*(?:=(?!=)|;|\[|,)")
_LOOP_NAMES = re.compile(r"(?<![\w$])([A-Za-z_]\w*)\s*(?:=(?!=)|\+\+|--|\s+(?:in|of)\b|\s*:(?!:))")


def _names(text: str) -> set[str]:
    """The names `text` uses: identifiers not called, not keywords."""
    return {m.group(1) for m in _IDENT.finditer(text)
            if m.group(1) not in _NOT_NAMES and not _CALLED.match(text, m.end())}


def writes(line: str, language: str) -> set[str]:
    """The names line `line` (one source line) writes: the name each lvalue a statement beginning
    on it assigns, compound-assigns or increments ends in (subscripts aside); none for a declaration."""
    code = _masked(_code(line, language), language).strip().lstrip("}").strip()
    match = (_PY_WRITE if language == "python" else _C_WRITE).match(code)
    if match is None:
        return set()
    out = set()
    for chain in next(g for g in match.groups() if g is not None).split(","):            # Python's `a, b.c = ...`
        while _SUBSCRIPT.search(chain):                # `a[b[i]].c`: the subscripts are read, not written
            chain = _SUBSCRIPT.sub(" ", chain)
        out |= set(_names(chain.split(".")[-1].split("->")[-1].split("::")[-1]))
    return out


def _statement(source: list[str], number: int, language: str) -> tuple[int, str]:
    """(first line, masked code from it to line `number`) of the statement line `number` is part of."""
    start = _statement_start(source, number, language)
    return start, " ".join(_masked(_code(line, language), language) for line in source[start - 1:number])


def control(source: list[str], number: int, language: str) -> int | None:
    """The first line of the nearest condition (if, elif, while, for, switch, case, match) whose
    block holds line `number`, by indentation; None where the line stands in a function's body
    itself. An `else` block's condition is its `if`'s."""
    start = _statement_start(source, number, language)
    depth = _indent(source[start - 1])
    for above in range(start - 1, 0, -1):
        code = _code(source[above - 1], language)
        if not code or code.startswith(("//", "/*", "*", "#")) and language != "python" or (
                language == "python" and code.startswith("#")):
            continue
        if _indent(source[above - 1]) >= depth:
            continue
        head = _statement_start(source, above, language)
        code = _code(source[head - 1], language)
        if _ELSE.match(code):
            depth = _indent(source[head - 1]) + 1      # its `if` stands at the else's indentation
            continue
        if code in ("{", "}"):
            continue
        return head if _CONTROL.match(code) else None
    return None


def _function_start(source: list[str], number: int, language: str) -> int:
    """The header line of the function holding line `number`, by indentation (1: none found)."""
    depth = _indent(source[_statement_start(source, number, language) - 1])
    for above in range(number - 1, 0, -1):
        code = _code(source[above - 1], language)
        if not code or _indent(source[above - 1]) >= depth:
            continue
        depth = _indent(source[above - 1])
        if _FUNCTION.search(code) and not _CONTROL.match(code):
            return above
        if not depth:
            break
    return 1


def _locals(source: list[str], number: int, language: str) -> set[str]:
    """The names the function holding line `number` makes its own above it: declared (C family,
    JavaScript, Rust), or in Python assigned as a bare name. Another function's write of the same
    name is another variable."""
    out: set[str] = set()
    for line in source[_function_start(source, number, language) - 1:number - 1]:
        code = _masked(_code(line, language), language).strip()
        if language == "python":
            match = _PY_WRITE.match(code)
            if match is not None:
                out |= {t.strip() for t in match.group(1).split(",") if re.fullmatch(r"\s*[A-Za-z_]\w*\s*", t)}
        else:
            out |= {a or b for a, b in _DECLARED.findall(code)}
            for decl in re.finditer(r"(?<![\w$.])(?:var|let|const)\s+([^;]*)", code):    # `var i = 0, len = n`
                out |= set(re.findall(r"(?:^|,)\s*([A-Za-z_]\w*)\s*(?:=(?!=)|,|$)", decl.group(1)))
    return out


def reads(source: list[str], number: int, language: str) -> tuple[set[str], int | None]:
    """(the names line `number`'s statement and the condition holding it read, that condition's
    line): a loop's own variables (written by its header) and the function's locals left out."""
    _, text = _statement(source, number, language)
    names = _names(text)
    held = control(source, number, language)
    if held is not None:
        end = held
        while end < len(source) and _statement_start(source, end + 1, language) == held:
            end += 1
        _, header = _statement(source, end, language)
        loop = set(_LOOP_NAMES.findall(header)) if re.match(r"^\W*for\b", header.strip()) else set()
        names |= _names(header) - loop
        names -= loop
    return names - _locals(source, number, language), held


class DataFlow:
    """Which suspect lines write what the lines whose mutants changed a failing answer read:
    `after(effect)` the next of them to try, each once, WRITERS at most in one mutation."""

    def __init__(self, split: dict[str, list[str]], keys, ranks: dict[tuple[str, int], int], language_of):
        self.split, self.ranks, self.language_of = split, ranks, language_of
        self.keys = list(keys)
        self._writes = {key: writes(split[key[0]][key[1] - 1], language_of(key[0])) for key in self.keys}
        self._writers: dict[str, int] = {}                  # name: the suspect lines writing it
        for names in self._writes.values():
            for name in names:
                self._writers[name] = self._writers.get(name, 0) + 1
        self.chosen: dict[tuple[str, int], str] = {}       # line: why it was tried
        self._effects: set[tuple[str, int]] = set()

    def after(self, effect: tuple[str, int], relative, done=lambda line: False) -> list[tuple[tuple[str, int], str]]:
        """The suspect lines (and the conditions holding them) that write a name `effect` or its
        condition reads, not chosen before nor `done` (its first mutants taken already): [(line,
        why)], PER_EFFECT of them, WRITERS in all over the mutation. The writers of the name
        written in the fewest places first (the narrowest lead: a name every routine assigns says
        little), then by spectrum rank, then nearest `effect`. `relative` names a file in the why."""
        if effect in self._effects or len(self.chosen) >= WRITERS:
            return []
        self._effects.add(effect)
        path, number = effect
        source, language = self.split[path], self.language_of(path)
        names, held = reads(source, number, language)
        where = f"{relative(path)}:{number}" + (f", under line {held}" if held is not None else "")
        found = [(key, sorted(self._writes[key] & names)) for key in self.keys
                 if key != effect and self._writes[key] & names]
        found.sort(key=lambda kw: (min(self._writers[n] for n in kw[1]), self.ranks[kw[0]], kw[0][0] != path,
                                   abs(kw[0][1] - number)))
        out: list[tuple[tuple[str, int], str]] = []
        for key, shared in found:
            said = ", ".join(f"`{n}`" for n in shared)
            why = f"writes {said}, read where mutants changed a failing answer ({where})"
            lines = [(key, why)]
            holder = key[1]
            for _ in range(HOLDERS):            # a write's guard may be its `if`, the loop above, the test above that
                holder = control(self.split[key[0]], holder, self.language_of(key[0]))
                if holder is None:
                    break
                if (key[0], holder) in self.ranks:
                    lines.append(((key[0], holder), f"holds the write of {said} at line {key[1]}, read where "
                                                    f"mutants changed a failing answer ({where})"))
            for line, reason in lines:
                if (line not in self.chosen and line not in self._effects and not done(line)
                        and len(self.chosen) < WRITERS and len(out) < PER_EFFECT):
                    self.chosen[line] = reason
                    out.append((line, reason))
        return out
