"""One-line mutants of an engine's source lines, from universalmutator's rules.

    for m in mutants_of("/src/movegen.py", {118, 119}):
        m.line, m.after, m.change        # 118, '    if x >= 0:\\n', '`>` to `>=`'

universalmutator (regular-expression rules per language: universal.rules, then the language's
own, then c_like.rules for the C family) gives relational, arithmetic, logical and bitwise
operator replacement, constants to 0, 1, -1 and +-1, negated conditions, a statement commented
out or replaced by `pass`, a guard made always true or false, swapped arguments. Every mutant
stays on its line, which is what the ranking is per. Rules of ours sit beside them
(core/locate/rules: a Python guard made always true or false, as c_like.rules does for C; in
the C family a loop's `break` and `continue` written for each other, as python.rules has it,
a real engine's one-token slip, and a plain assignment written bitwise and back), and so do the
bracketed readings of a C-family mix of `|` and `&` left unbracketed (core.locate.precedence).
A constant's `(5+1)` is written `6`, so the change reads as the one-token edit it is. A Python
mutant that does not compile is dropped here; others are dropped where they are built or run
(core.locate.mutation).

A statement missing is out of reach of any edit of an existing line. Most fixes' code already
exists elsewhere in the same file (the plastic surgery hypothesis, Barr et al., FSE 2014;
GenProg's insert operator, Le Goues et al., TSE 2012), so a line's mutants also hold a statement
of its function written above it, or below it (_insertions), re-indented as the line is:

- Donors are whole statements on one line that update state (is_donor): an assignment, a
  compound assignment (`x &= ~(240);`, `x |= y`), an increment; in Python an `=` or augmented
  assignment alone. Not a declaration (`int x = 0;` declares again, or shadows to no effect),
  not a jump (`return`, `break`, `goto`, `raise`: a copy ends a path, which a missing update
  does not), not a condition or a call (calls are many and mostly read; updates are what a
  forgotten case lacks), not a line continuing a statement.
- It goes above a line that begins a statement of its block (not `else`, `elif`, `case`, nor the
  body of a brace-less `if` or `else` above, which would take the copy as its body), and below a
  line that is itself a simple statement: there it runs exactly when the line runs, so the runs
  that never reached the line need not be run (core.locate.mutation). Not beside its own copy.
- Nearest first, the line's function before the rest of the file (REACH lines either side),
  INSERTS a line: a line's insertions come after its one-token slips (Mutant.likeness), so they
  spend the time only once the slips were tried. One kind goes before them, into the first pass:
  the statement of the final `else` of an `if` chain the line begins, hoisted above the chain
  ('default'). An `else` is what the chain does in every other case; a case that forgets the
  update every other case gets (a rook's move keeping the en-passant square each other move
  clears) is fixed by doing it before the chain, and a wide tie's lines are rarely deepened.

An inserted statement is a mutant like any other: a C one that does not compile is dropped
where it is built, and a candidate is checked beyond the runs as every candidate is.
"""
from __future__ import annotations

import contextlib
import difflib
import io
import os
import re
from dataclasses import dataclass, replace
from functools import lru_cache

from .precedence import readings

RULES = os.path.join(os.path.dirname(os.path.abspath(__file__)), "rules")
LANGUAGES = {".py": "python", ".c": "c", ".h": "c", ".cc": "cpp", ".cpp": "cpp", ".cxx": "cpp", ".hpp": "cpp",
             ".hh": "cpp", ".hxx": "cpp", ".js": "javascript", ".mjs": "javascript", ".cjs": "javascript",
             ".ts": "javascript", ".rs": "rust", ".go": "go", ".java": "java"}
C_LIKE = {"c", "cpp", "javascript", "rust", "go", "java"}
_FOLDED = re.compile(r"\((-?\d+)([+-])1\)")
_INLINE_COMMENT = re.compile(r"/\*.*?\*/")
_TOKENS = re.compile(r"\w+|[^\w\s]+")
# the one-token slips by kind, with how like a real slip each is (Mutant.likeness; a comparison
# turned round instead of one `=` apart is 4): an assignment plain for bitwise or back is a
# bitwise operator's slip
_LIKE = (({"<", "<=", ">", ">=", "==", "!=", "===", "!=="}, "comparison", 1), ({"&&", "||", "and", "or"}, "logical", 2),
         ({"&", "|", "^"}, "bitwise", 3), ({"=", "|=", "&=", "^="}, "assignment", 3),
         ({"+", "-", "*", "/", "%", "//"}, "arithmetic", 4), ({"break", "continue"}, "jump", 5))


def _span(text: str, tokens: list) -> str:
    """The text from the first of `tokens` (regex matches in `text`) to the end of the last."""
    return text[tokens[0].start():tokens[-1].end()] if tokens else ""


@dataclass(frozen=True)
class Mutant:
    """Line `line` of `path` (absolute) written `after` instead of `before` (both end with a
    newline; `after` may hold a line inserted below)."""
    path: str
    line: int
    before: str
    after: str
    rule: str = ""          # "name": one name written for its peer (_name_swaps); "insert", "default": a
                            # statement of the same function inserted (_insertions); else universalmutator's

    @property
    def inserted(self) -> str:
        """The statement inserted above or below the line (an insertion mutant), else ''."""
        if self.rule not in INSERTIONS:
            return ""
        first, second = self.after.split("\n", 1)
        return (second if self.below else first).strip()

    @property
    def below(self) -> bool:
        """An insertion written below its line (the line first), not above it."""
        return self.after.startswith(self.before)

    @property
    def change(self) -> str:
        """The edit in words: '`>` to `>=`', '`qrb` to `qrbn`', 'line deleted', '`x &= ~(240);`
        added above line 98'."""
        if self.rule in INSERTIONS:
            where = "below" if self.below else "above"
            return f"`{self.inserted}` added {where} line {self.line}"
        after = self.after.strip()
        if after in ("pass", "") or (after.startswith("/*") and after.endswith("*/")):
            return "the statement deleted"
        if self.rule == "precedence":
            return f"`{_bracketed(self.before, self.after)}` bracketed"
        a, b = list(_TOKENS.finditer(self.before)), list(_TOKENS.finditer(after))
        matcher = difflib.SequenceMatcher(a=[t.group() for t in a], b=[t.group() for t in b], autojunk=False)
        parts = []
        for op, i1, i2, j1, j2 in matcher.get_opcodes():
            if op == "equal":
                continue
            # the tokens as written, spaces between them kept: `"qrb":`, not `" qrb ":`
            old, new = _span(self.before, a[i1:i2]), _span(after, b[j1:j2])
            parts.append(f"`{old}` to `{new}`" if old and new else f"`{old}` deleted" if old else f"`{new}` added")
        return ", ".join(parts) or "whitespace"

    @property
    def likeness(self) -> int:
        """How like a slip of one token it is, 0 first: a constant off by one (not a bit `1 << n`
        written `0 << n`, which zeroes the term: a constant to 0), a comparison
        with or without its `=` (`<` for `<=`, `==` for `!=`), `and`/`or`, a bitwise operator or
        an assignment plain for bitwise (`=` for `|=`) or back, an arithmetic one, a comparison
        turned round (`<` for `>`), `break` for `continue` or back, a constant to 0 or 1 or a
        name for its peer or a chain's default done for every case (a 'default' insertion), the
        rest (deleted, swapped, negated, jumps added), then a statement inserted from elsewhere."""
        return self._slip[0]

    @property
    def kind(self) -> str:
        """Which kind of slip: 'constant', 'comparison', 'logical', 'bitwise', 'assignment',
        'arithmetic', 'jump', 'precedence' (brackets added), 'name' (one where its peer is meant),
        'default' (an `else`'s statement inserted above its chain), 'insert' (a statement of the
        function inserted) or 'other'."""
        return self._slip[1]

    @property
    def _slip(self) -> tuple[int, str]:
        if self.rule == "default":
            return 5, "default"
        if self.rule == "insert":
            return 7, "insert"
        if self.rule == "precedence":       # a mix gcc's -Wparentheses warns of
            return 1, "precedence"
        a, b = _TOKENS.findall(self.before), _TOKENS.findall(self.after.strip())
        changed = [i for i, (x, y) in enumerate(zip(a, b)) if x != y] if len(a) == len(b) else []
        if len(changed) != 1:
            return 6, "other"
        at = changed[0]
        x, y = a[at], b[at]
        if x.isdigit() and y.isdigit():
            # a bit `1 << n` made `0 << n` is the term zeroed (a switch-off), not a count off by one
            shifted = {x, y} == {"0", "1"} and at + 1 < len(a) and a[at + 1].startswith("<<")
            return (0 if abs(int(x) - int(y)) == 1 and not shifted else 5), "constant"
        if self.rule == "name":
            return 5, "name"
        for group, kind, rank in _LIKE:
            if x in group and y in group:
                return (rank if rank != 1 or _equals_slip(x, y) else 4), kind
        return 6, "other"

    def diff(self, text: str, label: str) -> str:
        """The unified diff of `text` (the file as it is) to the mutant, files labelled `label`."""
        before = text.splitlines(keepends=True)
        after = before[:self.line - 1] + self.after.splitlines(keepends=True) + before[self.line:]
        return "".join(difflib.unified_diff(before, after, f"a/{label}", f"b/{label}", n=2))

    def apply(self, text: str) -> str:
        lines = text.splitlines(keepends=True)
        return "".join(lines[:self.line - 1] + [self.after] + lines[self.line:])


_CONDITION = re.compile(r"^\s*(?:}\s*)?(?:if|elif|else\s+if|while|for|case|switch|assert)\b"
                        r"|==|!=|<=|>=|&&|\|\||\band\b|\bor\b|\bnot\b|[^<>=-]>[^>=]|[^<]<[^<=]")
_ASSIGNMENT = re.compile(r"[^=!<>]=[^=]|\+\+|--|[-+*/%&|^]=")


def line_kind(line: str) -> int:
    """Which kind of line it is, as mutants are tried within a wide tie: 0 a condition or a
    comparison, 1 an assignment or an expression, 2 a call, a return or a jump."""
    code = line.split("//")[0] if "//" in line and "http" not in line else line
    code = code.split("#")[0] if code.lstrip()[:1] != "#" else code
    if _CONDITION.search(code):
        return 0
    if _ASSIGNMENT.search(code):
        return 1
    return 2


CONTINUED = 20            # lines looked back through for the start of a statement a line continues


def statement_kind(source: list[str], number: int, language: str) -> int:
    """line_kind of the statement line `number` (1-based) of `source` belongs to: a line that
    continues a statement begun above (inside a bracket opened there, or after a line ending in
    a backslash) is of its statement's kind, as Chessnut's `56: 'Q', ...}.get(start, '')` is the
    end of an assignment, not a call. Only `(` and `[` count in the C family and JavaScript,
    where `{` opens a block; in Python `{` too."""
    return line_kind(" ".join(line.strip() for line in source[_statement_start(source, number, language) - 1:number]))


def _statement_start(source: list[str], number: int, language: str) -> int:
    opening, closing = ("([{", ")]}") if language == "python" else ("([", ")]")
    if number > 1 and _masked(source[number - 2], language).rstrip().endswith("\\"):
        return _statement_start(source, number - 1, language)
    depth = 0
    for above in range(number - 1, max(0, number - 1 - CONTINUED), -1):
        code = _masked(source[above - 1], language)
        depth += sum(map(code.count, opening)) - sum(map(code.count, closing))
        if depth > 0:                   # a bracket opened on `above` is still open at `number`
            return _statement_start(source, above, language)
    return number


_NAME = re.compile(r"(?<![\w.$])([A-Za-z_]\w*)(?![\w$]|\s*\()")
_PEERS = re.compile(r"(?<![\w.$])([A-Za-z_]\w*)\s*(?:[-+*/%<>,]|[<>=!]=)\s*([A-Za-z_]\w*)(?![\w$(])")
_NOT_NAMES = frozenset("""and or not in is if else elif for while return def class lambda None True False self
    this var let const function new typeof null undefined true false int char long unsigned bool void auto
    static struct sizeof break continue pass yield await async of""".split())
NAME_SWAPS = 4            # mutants of one line that use one name where another is meant, at most


def _name_swaps(source: list[str], number: int, code: str, language: str) -> list[str]:
    """`code` (line `number`) with one name written where a peer is meant: names used together
    in an expression nearby (`start + end`, `from, to`, `x < y`) are peers, as `start` and `end`
    where Chessnut's rook capture voided the rights of the move's start square only. A variable
    replaced by another of the same kind in scope, found cheaply."""
    peers: dict[str, set[str]] = {}
    for line in source[max(0, number - 41):number + 40]:
        for a, b in _PEERS.findall(_masked(line, language)):
            if a != b and a not in _NOT_NAMES and b not in _NOT_NAMES:
                peers.setdefault(a, set()).add(b)
                peers.setdefault(b, set()).add(a)
    out = []
    for match in _NAME.finditer(_masked(code, language)):
        name = match.group(1)
        for other in sorted(peers.get(name, ())):
            out.append(code[:match.start(1)] + other + code[match.end(1):])
    return out[:NAME_SWAPS]


INSERTIONS = ("insert", "default")
INSERTS = 6               # statements inserted at one line at most (above it, and below where that stands), nearest first
REACH = 80                # lines looked through either side of a line for statements to insert there
_JUMP = re.compile(r"^\s*(?:return|break|continue|goto|throw|raise|yield|pass)\b")
# a C-family statement that updates state: an lvalue (`x`, `*p`, `b->f[i].g`) assigned, compound
# assigned or incremented, and nothing declared (`int x = 0;` has a type before its name)
_LVALUE = r"\*?\s*[A-Za-z_]\w*(?:\s*(?:->|\.)\s*[A-Za-z_]\w*|\s*\[[^\[\]]*\])*"
_C_UPDATE = re.compile(rf"^(?:{_LVALUE}\s*(?:<<|>>>?|[-+*/%&|^])?=(?!=).*|(?:\+\+|--)\s*{_LVALUE}\s*|{_LVALUE}\s*(?:\+\+|--)\s*);$")
_C_NOT_DONOR = re.compile(r"^(?:if|else|for|while|do|switch|case|default|return|break|continue|goto|throw|typedef|"
                          r"static|const|extern|struct|enum|union|auto|register|let|var|using|delete|new)\b")
_C_BETWEEN = (";", "{", "}", ":")       # how the code line above a statement a C-family block holds ends
_C_NOT_ABOVE = re.compile(r"^(?:else|case|default|[{})\]:?.,|&+\-*/%<>=^!])")
_PY_NOT_ABOVE = re.compile(r"^(?:elif|else|except|finally)\b")
# JavaScript written without semicolons: a line ending so goes on below, a line beginning so
# continues the line above, and a brace-less header above takes the next statement as its body
_OPEN_END = re.compile(r"[-+*/%&|^<>=?:,.(\[{!~]$")
_CONTINUES = re.compile(r"^(?:[-+*/%&|^<>=?:,.)\]([`]|in\b|instanceof\b)")
_JS_HEADER = re.compile(r"^(?:\}\s*)?(?:else|do|(?:else\s+)?(?:if|for|while|with)\s*\(.*\))$")


def _indent(line: str) -> int:
    return len(line.expandtabs(4)) - len(line.expandtabs(4).lstrip())


def _code(line: str, language: str) -> str:
    """`line`'s code, its trailing comment off, stripped (strings kept as written)."""
    masked = _masked(line, language)
    for mark in ("/*",) if language != "python" else ():
        if mark in masked:
            masked = masked[:masked.index(mark)]
    return line[:len(masked.rstrip())].strip()


def is_donor(source: list[str], number: int, language: str) -> bool:
    """Whether line `number` (1-based) of `source` is a statement that may be inserted elsewhere:
    a whole statement on one line (not a continuation of one begun above, its brackets closed,
    in JavaScript without a semicolon not continued by the line below) that updates state
    (_updates)."""
    code = _code(source[number - 1], language)
    if not code or _statement_start(source, number, language) != number or not _updates(code, language):
        return False
    if language == "javascript" and not code.endswith(";"):
        below = next((_code(line, language) for line in source[number:] if _code(line, language)), "")
        return not _CONTINUES.match(below)
    return True


def _statement(code: str, language: str) -> str:
    """A donor as it is written where it is inserted: in JavaScript with its semicolon (a file
    written without them relies on the line breaks, and a copy must not join the line below)."""
    return code + ";" if language == "javascript" and not code.endswith(";") else code


def _updates(code: str, language: str) -> bool:
    """Whether `code` is one statement that updates state: an assignment, a compound assignment,
    an increment; not a declaration (a copy would declare a name again, or shadow it to no
    effect) nor a jump (a `return` or a `break` copied ends a path, which no missing update does)."""
    if _JUMP.match(code):
        return False
    if language == "python":
        import ast
        try:
            body = ast.parse(code).body
        except SyntaxError:
            return False
        return len(body) == 1 and isinstance(body[0], (ast.Assign, ast.AugAssign))
    if language == "javascript" and not code.endswith(";"):
        if _OPEN_END.search(code):
            return False                    # `x = a +`: the statement goes on below
        code += ";"
    masked = _masked(code, language)
    if _C_NOT_DONOR.match(code) or masked.count(";") != 1 or "{" in masked or "}" in masked:
        return False
    if any(masked.count(a) != masked.count(b) for a, b in ("()", "[]")):
        return False
    return bool(_C_UPDATE.match(code))


def _previous_code(source: list[str], number: int, language: str) -> str:
    """The code of the nearest line above line `number` holding any ('' at the top)."""
    for above in range(number - 1, 0, -1):
        code = _code(source[above - 1], language)
        if code and not (language != "python" and code.startswith(("*", "/*"))):
            return code
    return ""


def _stands_above(source: list[str], number: int, language: str) -> bool:
    """Whether a statement inserted right above line `number` stands as a statement of the block
    holding the line, run whenever the line is: the line begins a statement of its own, not a
    branch of one (`else`, `elif`, `case`), and (C family) the code above it ends a statement or
    opens or closes a block, so no brace-less `if` or `else` above takes the inserted statement
    as its body."""
    code = _code(source[number - 1], language)
    if not code or _statement_start(source, number, language) != number:
        return False
    if language == "python":
        return not _PY_NOT_ABOVE.match(code) and not code.startswith(("#", "@", ")", "]", "}"))
    if code.startswith("#") or _C_NOT_ABOVE.match(code):
        return False
    above = _masked(_previous_code(source, number, language), language).rstrip()
    if not above:
        return True
    if language == "javascript" and not above.endswith(_C_BETWEEN):
        # a statement ended by its line break: not one going on, not a brace-less header
        return re.search(r"[\w)\]'\"`]$", above) is not None and not _JS_HEADER.match(above)
    return above.endswith(_C_BETWEEN) and not re.search(r"\b(?:case|default)\b[^;]*:$|\?[^;]*:$", above)


def _stands_below(source: list[str], number: int, language: str) -> bool:
    """Whether a statement inserted right below line `number` runs whenever the line does: the
    line is a whole simple statement of a block (as a donor is), that is not a jump."""
    return _stands_above(source, number, language) and is_donor(source, number, language)


def _depths(source: list[str], language: str, memo: dict) -> list[int]:
    """The brace depth at the start of each line of a C-family file (kept in `memo`)."""
    if "depths" not in memo:
        memo["depths"], depth = [], 0
        for line in source:
            memo["depths"].append(depth)
            code = _masked(line, language)
            depth += code.count("{") - code.count("}")
    return memo["depths"]


_NAMES = re.compile(r"(?<![\w.>])(?<!::)([A-Za-z_]\w*)(?!\w)")


def _in_scope(source: list[str], donor: str, number: int, first: int, last: int, language: str, memo: dict) -> bool:
    """Whether every name a C-family donor uses (not a member) is in scope at line `number`:
    declared nowhere in the function (a parameter, a global, a constant), or declared above the
    line in a block still open there. A copy of a statement that uses a variable of another
    block does not compile, and each such mutant costs a native build."""
    if language == "python":
        return True
    depths = _depths(source, language, memo)
    for name in set(_NAMES.findall(_masked(donor, language))):
        declared = re.compile(rf"[\w>*&]\s+\**\s*{re.escape(name)}\s*(?:=[^=]|;|\[|,|\))")
        found = [n for n in range(first, last + 1)
                 if n != number and name in source[n - 1] and declared.search(_masked(source[n - 1], language))]
        if found and not any(n < number and all(depths[k - 1] >= depths[n - 1] for k in range(n + 1, number + 1))
                             for n in found):
            return False
    return True


def _function(source: list[str], number: int, language: str, memo: dict) -> tuple[int, int]:
    """(first, last) line numbers of the function holding line `number`, roughly: in Python the
    outermost `def` above it at a lower indentation and its indented body; in the C family the
    lines around it whose brace depth stays above the file's (a function's body, or a class's)."""
    n = len(source)
    if language == "python":
        depth, first = _indent(source[number - 1]), 1
        for above in range(number - 1, 0, -1):
            line = source[above - 1]
            if line.strip() and _indent(line) < depth:
                depth = _indent(line)
                if _DEF.match(line):
                    first = above
                if depth == 0:
                    break
        if first == 1 and not _DEF.match(source[0]):
            return max(1, number - REACH), min(n, number + REACH)
        indent, last = _indent(source[first - 1]), first
        for below in range(first + 1, n + 1):
            line = source[below - 1]
            if line.strip() and _indent(line) <= indent:
                break
            last = below
        return first, last
    depths = _depths(source, language, memo)
    if depths[number - 1] < 1:
        return number, number
    first = number
    while first > 1 and depths[first - 2] >= 1:
        first -= 1
    last = number
    while last < n and depths[last] >= 1:
        last += 1
    return first, last


def _defaults(source: list[str], number: int, language: str) -> list[str]:
    """The statements (code) of the final `else` of the `if` chain line `number` begins: what the
    chain does in every other case. Hoisted above the chain it is done in every case, as where
    one of the chain's cases forgets the update every other case gets (a rook's move that keeps
    the en-passant square every other move clears). Found by indentation: the chain's `else if`,
    `elif` and `else` lines stand at the `if`'s, its bodies deeper."""
    if not re.match(r"^if\b", _code(source[number - 1], language)):
        return []
    indent = _indent(source[number - 1])
    for below in range(number + 1, min(len(source), number + REACH) + 1):
        line = source[below - 1]
        here = _code(line, language)
        if not here or (language != "python" and here.startswith(("*", "/*"))) or _indent(line) > indent:
            continue
        if _indent(line) < indent:
            return []
        branch = here.lstrip("}").strip()
        if branch in ("", "{") or re.match(r"^(?:else\s+if|elif)\b", branch):
            continue
        if not re.match(r"^else\b", branch):
            return []
        rest = re.sub(r"^else\s*:?\s*\{?\s*", "", branch)
        if rest:                                          # `else x = 0;`: the statement on its line
            return [_statement(rest, language)] if language != "python" and _updates(rest, language) else []
        body = []
        for inner in range(below + 1, min(len(source), below + REACH) + 1):
            text = source[inner - 1]
            if not _code(text, language) or _code(text, language) == "{":
                continue
            if _indent(text) <= indent:
                break
            if is_donor(source, inner, language):
                body.append(_statement(_code(text, language), language))
        return body[:2]
    return []


def _insertions(source: list[str], number: int, language: str, memo: dict) -> list[tuple[str, str]]:
    """(the lines written for line `number`, rule) of the statements inserted there: first the
    `else`'s statements of the chain the line begins, hoisted above it ('default'), then the
    donor statements of the same function, nearest first, then those nearby outside it, each
    above the line where that stands and below it where that does, INSERTS in all at most. A
    donor identical to the line or to the neighbour it would stand beside is not inserted. `memo`
    keeps each line's donor code (or None) across the lines of one file."""
    def donor_at(n: int) -> str | None:
        if n not in memo:
            memo[n] = _statement(_code(source[n - 1], language), language) if is_donor(source, n, language) else None
        return memo[n]
    line = source[number - 1]
    original = line if line.endswith("\n") else line + "\n"
    above, below = _stands_above(source, number, language), _stands_below(source, number, language)
    if not (above or below):
        return []
    pad = line[:len(line) - len(line.lstrip())]
    first, last = _function(source, number, language, memo)
    near = [n for n in range(max(1, number - REACH), min(len(source), number + REACH) + 1) if n != number]
    near.sort(key=lambda n: (not first <= n <= last, abs(n - number), n))
    defaults = _defaults(source, number, language) if above else []
    donors = [(code, "default") for code in defaults]
    donors += [(donor_at(n), "insert") for n in near if donor_at(n) is not None]
    mine = _statement(_code(line, language), language)
    neighbours = (_statement(_previous_code(source, number, language), language),
                  _statement(next((_code(source[n - 1], language) for n in range(number + 1, len(source) + 1)
                                   if _code(source[n - 1], language)), ""), language))
    out: list[tuple[str, str]] = []
    seen: set[str] = set()
    for donor, rule in donors:
        if len(out) >= INSERTS:
            break
        if donor == mine or donor in seen or not _in_scope(source, donor, number, first, last, language, memo):
            continue
        seen.add(donor)
        if above and donor != neighbours[0]:
            out.append((pad + donor + "\n" + original, rule))
        if below and rule == "insert" and donor != neighbours[1]:
            out.append((original + pad + donor + "\n", rule))
    return out[:INSERTS]


_STRING = re.compile(r"'(?:\\.|[^'\\])*'|\"(?:\\.|[^\"\\])*\"")


def _masked(line: str, language: str) -> str:
    """`line` with its strings and its comment blanked, every character kept in its place."""
    line = _STRING.sub(lambda m: " " * len(m.group()), line)
    mark = "#" if language == "python" else "//"
    return line[:line.index(mark)] + " " * (len(line) - line.index(mark)) if mark in line else line


def _bracketed(before: str, after: str) -> str:
    """What `after` puts in brackets that `before` had bare (a precedence mutant): the shortest
    balanced span whose bracketing makes `after` from `before`."""
    start = len(os.path.commonprefix([before, after]))
    for end in range(start + 1, len(before) + 1):
        span = before[start:end]
        if (before[:start] + "(" + span + ")" + before[end:] == after
                and all(span.count(o) == span.count(c) for o, c in ("()", "[]", "{}"))):
            return span
    return before.strip()


def _equals_slip(x: str, y: str) -> bool:
    """Two comparisons one `=` apart in meaning: `<`/`<=`, `>`/`>=`, `==`/`!=`, `===`/`!==`."""
    return {x, y} in ({"==", "!="}, {"===", "!=="}) or (x.strip("=") == y.strip("=") != "")


def language_of(path: str) -> str | None:
    return LANGUAGES.get(os.path.splitext(path)[1].lower())


@lru_cache(maxsize=None)
def _rules(language: str):
    """universalmutator's parsed rules for `language` (and ours), read once."""
    from universalmutator import mutator
    files = ["universal.rules", f"{language}.rules"] + (["c_like.rules"] if language in C_LIKE else [])
    ours = [os.path.join(RULES, f"{language}.rules")] + ([os.path.join(RULES, "c_like.rules")] if language in C_LIKE else [])
    files += [f for f in ours if os.path.exists(f)]
    with contextlib.redirect_stdout(io.StringIO()):      # it says which rules it read
        return files, mutator.parseRules(files)


def mutants_of(path: str, lines, text: str | None = None) -> list[Mutant]:
    """The mutants of `lines` (numbers) of the file at `path`, in line order; [] for a language
    without rules."""
    from universalmutator import mutator
    language = language_of(path)
    if language is None:
        return []
    if text is None:
        with open(path, encoding="utf-8", errors="replace") as f:
            text = f.read()
    source = text.splitlines(keepends=True)
    files, _ = _rules(language)
    wanted = sorted(n for n in set(lines) if 0 < n <= len(source))
    out: list[Mutant] = []
    memo: dict = {}                     # the file's donors, read once for all its lines
    for number in wanted:
        original = source[number - 1] if source[number - 1].endswith("\n") else source[number - 1] + "\n"
        code, comment = _split_comment(original, language)
        with contextlib.redirect_stdout(io.StringIO()):
            found = [(after, "") for _, after, _, _ in mutator.mutants_regexp([code], files, ignorePatterns=[])]
        found += [(after, "name") for after in _name_swaps(source, number, code, language)]
        found += [(after, "precedence") for after in readings(code, _masked(code, language), language)]
        seen = set()
        for after, rule in found:
            after = _fold(after)
            if comment:
                first, rest = after.split("\n", 1)
                after = first + comment + "\n" + rest
            if after == original or after in seen or not after.strip():
                continue
            seen.add(after)
            mutant = Mutant(path, number, original, after, rule)
            if language == "python" and not _python_compiles(mutant, source, text, path):
                continue
            out.append(mutant)
        stands: dict[bool, bool] = {}
        for after, rule in _insertions(source, number, language, memo):     # written whole: no folding, no comment moved
            mutant = Mutant(path, number, original, after, rule)
            if after in seen:
                continue
            if language == "python":
                # a donor parses alone (_updates): whether any statement stands there is asked once
                # for the line's place above and once below it, of a stand-in statement
                below = mutant.below
                if below not in stands:
                    pad = original[:len(original) - len(original.lstrip())]
                    stand_in = original + pad + "_ = 0\n" if below else pad + "_ = 0\n" + original
                    stands[below] = _python_compiles(replace(mutant, after=stand_in), source, text, path)
                if not stands[below]:
                    continue
            seen.add(after)
            out.append(mutant)
    out.sort(key=lambda m: (m.line, m.likeness))
    return out


def _split_comment(line: str, language: str) -> tuple[str, str]:
    """(the code, a trailing `/* ... */` comment) of a C-family line: universalmutator skips a line
    holding `/*`, and a comment is nothing to mutate."""
    if language not in C_LIKE:
        return line, ""
    body = line[:-1]
    match = None
    for match in _INLINE_COMMENT.finditer(body):
        pass
    if match is None or body[match.end():].strip():
        return line, ""
    code = body[:match.start()].rstrip()
    return code + "\n", body[len(code):]


def _fold(line: str) -> str:
    """`(5+1)` written `6`: the constant rules' own arithmetic done."""
    return _FOLDED.sub(lambda m: str(int(m.group(1)) + (1 if m.group(2) == "+" else -1)), line)


_DEF = re.compile(r"^(\s*)(?:async\s+)?def\s")


def _python_compiles(mutant: Mutant, source: list[str], text: str, path: str) -> bool:
    """Whether the file compiles with the mutant in: its line alone where the unmutated line
    compiles alone (a statement, or a header given a body, inside a function's loop), else the
    function holding it where that function compiles alone, else the whole file; a file of
    thousands of lines is not compiled again for each of thousands of mutants."""
    context = _context(source, mutant.line - 1)
    indent = len(mutant.before) - len(mutant.before.lstrip())
    # an inserted statement is compiled with its function (its names' scope), never alone
    alone = None if mutant.rule in INSERTIONS else _alone(mutant.before, indent, *context)
    if alone is not None and _compiles(alone, path):
        if _header(mutant.before) and (not _header(mutant.after) or mutant.after.count("\n") > 1):
            return False          # the block's body below is left without its header, or cut from it
        after = _alone(mutant.after, indent, *context)
        return after is not None and _compiles(after, path)
    chunk = _function_of(tuple(source), mutant.line - 1)
    if chunk is None:
        return _compiles(mutant.apply(text), path)
    start, end, indent = chunk
    after = mutant.after.splitlines(keepends=True)
    if any(line.strip() and not line[:indent].isspace() for line in after if indent):
        return _compiles(mutant.apply(text), path)
    lines = [line[indent:] if line.strip() else "\n" for line in source[start:end]]
    lines[mutant.line - 1 - start] = "".join(line[indent:] for line in after)
    return _compiles("".join(lines), path)


def _header(line: str) -> bool:
    """Whether the (first) line opens a block: the lines below it are its body."""
    return line.split("\n", 1)[0].split("#")[0].rstrip().endswith(":")


_LOOP = re.compile(r"^\s*(?:async\s+)?(?:for|while)\b")


def _context(source: list[str], index: int) -> tuple[bool, bool]:
    """(in a function, in a loop) for line `index`: what `return`, `yield`, `break` and
    `continue` need around them to stand."""
    line = source[index]
    depth = len(line) - len(line.lstrip())
    loop = False
    for above in reversed(source[:index]):
        if not above.strip() or above.lstrip().startswith("#"):
            continue
        indent = len(above) - len(above.lstrip())
        if indent < depth:
            depth = indent
            if _DEF.match(above):
                return True, loop
            loop = loop or bool(_LOOP.match(above))
            if indent == 0:
                break
    return False, loop


def _alone(line: str, indent: int, function: bool, loop: bool) -> str | None:
    """`line` (and a line inserted below it) as a module of its own, in a function and a loop
    where it stands in one, a header given a body; None when its lines are not indented by
    `indent`, the unmutated line's indentation."""
    lines = line.splitlines(keepends=True)
    if any(l.strip() and (len(l) - len(l.lstrip()) != indent) for l in lines):
        return None
    pad = " " * (function + loop)
    body = "".join(pad + l[indent:] if l.strip() else "\n" for l in lines)
    if _header(line):
        first, rest = body.split("\n", 1)
        body = first + "\n" + pad + " pass\n" + rest
    return ("def _():\n" if function else "") + (" " * function + "while 1:\n" if loop else "") + body


@lru_cache(maxsize=4096)
def _function_of(source: tuple[str, ...], index: int) -> tuple[int, int, int] | None:
    """(first, end, indentation) of the innermost function holding line `index` whose lines all
    carry its indentation and which compiles on its own, else None."""
    line = source[index]
    if not line.strip():
        return None
    depth = len(line) - len(line.lstrip())
    for start in range(index, -1, -1):
        match = _DEF.match(source[start])
        here = len(source[start]) - len(source[start].lstrip()) if source[start].strip() else depth
        if match and (start == index or len(match.group(1)) < depth):
            indent = len(match.group(1))
            end = start + 1
            while end < len(source) and (not source[end].strip()
                                         or len(source[end]) - len(source[end].lstrip()) > indent):
                end += 1
            if end <= index:
                return None
            body = source[start:end]
            if any(l.strip() and not l[:indent].isspace() and indent for l in body):
                return None
            if not _compiles("".join(l[indent:] if l.strip() else "\n" for l in body), "<chunk>"):
                return None
            return start, end, indent
        if source[start].strip() and here < depth:
            depth = here
    return None


def _compiles(text: str, path: str) -> bool:
    try:
        compile(text, path, "exec", dont_inherit=True)
    except (SyntaxError, ValueError):
        return False
    return True
