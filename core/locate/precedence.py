"""Brackets where a C-family expression's precedence is not what its author meant.

In C, C++, Java and JavaScript `&` binds tighter than `|` and `^`, and `==` tighter than `&`:
`1 << ep | 1 << (ep - up) & checkmask` masks only its second term, and `x & mask == 0` tests
`mask == 0`. gcc's -Wparentheses warns of exactly these mixes, and no one-token mutant undoes
them: a bracket pair does. So a line mixing them unbracketed gets a mutant for each reading its
author may have meant, within one bracket level and between the operators that bind looser than
`|` (`&&`, `||`, `?:`, `,`, assignment):

    a | b & c    ->  (a | b) & c        a & b | c    ->  a & (b | c)
    a & b == c   ->  (a & b) == c       a == b & c   ->  a == (b & c)

The equality readings are the C family's only: in Rust and Go `&` binds tighter than `==`.
"""
from __future__ import annotations

import re

BITWISE_LANGUAGES = {"c", "cpp", "java", "javascript", "rust", "go"}
EQUALITY_LANGUAGES = {"c", "cpp", "java", "javascript"}

_TOKEN = re.compile(r"\w+|>>>=|<<=|>>=|===|!==|>>>|<<|>>|&&|\|\||==|!=|<=|>=|->|::|\+\+|--|[-+*/%&|^]=|\S")
# what binds looser than `|`: a reading never reaches across it
_LOOSER = {"&&", "||", "?", ":", ",", ";", "=", "+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=", "<<=", ">>=",
           ">>>=", "return", "and", "or"}
_BITWISE = {"|", "&", "^"}
_EQUALITY = {"==", "!=", "===", "!=="}
_OPEN, _CLOSE = "([{", ")]}"


def readings(code: str, masked: str, language: str) -> list[str]:
    """`code` with brackets added for each other reading of an unbracketed mix of `|` or `^` with
    `&` (and, in the C family, of `&` with `==`); `masked` is `code` with its strings and comment
    blanked, character for character."""
    if language not in BITWISE_LANGUAGES:
        return []
    tokens = [(m.start(), m.end(), m.group()) for m in _TOKEN.finditer(masked)]
    out: list[str] = []
    for level in _levels(tokens):
        for segment in _segments(level, tokens):
            for first, last in _spans(segment, tokens, language in EQUALITY_LANGUAGES):
                start, end = tokens[first][0], tokens[last][1]
                text = code[:start] + "(" + code[start:end] + ")" + code[end:]
                if text not in out:
                    out.append(text)
    return out


def _levels(tokens) -> list[list[int]]:
    """For each bracket level (the line's top level, then each bracket's inside), the indices of
    its tokens; a bracket's own tokens belong to the level around it, its inside to its own."""
    levels, stack = [], [[]]
    for i, (_, _, t) in enumerate(tokens):
        if t in _OPEN:
            stack[-1].append(i)
            stack.append([])
        elif t in _CLOSE and len(stack) > 1:
            levels.append(stack.pop())
            stack[-1].append(i)
        else:
            stack[-1].append(i)
    return levels + stack


def _segments(level: list[int], tokens) -> list[list[int]]:
    """`level` cut at the operators that bind looser than `|`."""
    out, current = [], []
    for i in level:
        if tokens[i][2] in _LOOSER:
            out.append(current)
            current = []
        else:
            current.append(i)
    return [s for s in out + [current] if s]


def _binary(segment: list[int], at: int, tokens) -> bool:
    """Whether the operator at `segment[at]` has an operand before it (not a unary `&`, `-`)."""
    if at == 0:
        return False
    before = tokens[segment[at - 1]][2]
    return bool(re.match(r"\w", before)) or before in _CLOSE


def _spans(segment: list[int], tokens, equality: bool) -> list[tuple[int, int]]:
    """The (first, last) token indices to bracket for each other reading of `segment`."""
    ops = [k for k, i in enumerate(segment) if tokens[i][2] in _BITWISE | _EQUALITY and _binary(segment, k, tokens)]
    out = []
    for n, k in enumerate(ops):
        kind = tokens[segment[k]][2]
        before = [tokens[segment[j]][2] for j in ops[:n]]
        after = [tokens[segment[j]][2] for j in ops[n + 1:]]
        if kind == "&" and before and before[-1] in ("|", "^"):
            # a | b & c: (a | b) & c, from after the nearest `&` or equality before it
            left = next((ops[j] + 1 for j in range(n - 1, -1, -1) if before[j] not in ("|", "^")), 0)
            out.append((segment[left], segment[k - 1]))
        if kind in ("|", "^") and before and before[-1] == "&":
            # a & b | c: a & (b | c), up to the next `&` or equality after it
            right = next((ops[n + 1 + j] - 1 for j, t in enumerate(after) if t not in ("|", "^")), len(segment) - 1)
            out.append((segment[ops[n - 1] + 1], segment[right]))
        if equality and kind in _EQUALITY and before and before[-1] in _BITWISE:
            # a & b == c: (a & b) == c
            left = next((ops[j] + 1 for j in range(n - 1, -1, -1) if before[j] in _EQUALITY), 0)
            out.append((segment[left], segment[k - 1]))
        if equality and kind in _EQUALITY and after and after[0] in _BITWISE:
            # a == b & c: a == (b & c)
            right = next((ops[n + 1 + j] - 1 for j, t in enumerate(after) if t in _EQUALITY), len(segment) - 1)
            out.append((segment[k + 1], segment[right]))
    return out
