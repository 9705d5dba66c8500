"""Counts as engines print them, read whole or not at all.

    >>> read_whole("8,902", ","), read_whole("8.902.000", "."), read_whole("8902", "")
    (8902, 8902000, 8902)

Engines group digits with `,` `.` `_` `'` or a space. Which one a program uses is learned by
calibration (a known total such as 8902 shows it), so `8.902` is 8902 for a program that writes
`8.902.000` and nothing for one that does not. A number is never read in part: `8,90` or
`8,902` from a program that groups nothing is an error naming the number, so a total of 8902
can never become 8.
"""
from __future__ import annotations

import re

SEPARATORS = (",", ".", "_", "'", " ")
# a number as it may stand in a line: digits, with group separators between digits
NUMBER = re.compile(r"(?<![\w.,'])\d(?:[\d,_'.]*\d)?(?![\d,_'.]?\d)")
# numbers grouped by single spaces: `8 902`, `1 234 567`
SPACED = re.compile(r"(?<![\w.,'])\d{1,3}(?: \d{3})+(?![\d,_'.]?\d)")


def read_whole(text: str, separator: str) -> int:
    """The count `text` says when digits are grouped by `separator` ('' for none): ValueError
    unless every group after the first has exactly three digits (or there is no separator)."""
    text = text.strip()
    if text.isdigit():
        return int(text)
    if separator and re.fullmatch(rf"\d{{1,3}}(?:{re.escape(separator)}\d{{3}})+", text):
        return int(text.replace(separator, ""))
    raise ValueError(f"{text!r} is not a whole count" +
                     (f" with digits grouped by {separator!r}" if separator else ""))


def readings(text: str) -> dict[str, int]:
    """{separator: value} for every way `text` reads whole: {'': value} for plain digits, {}
    for what is no count at all (a time such as 0.25)."""
    if text.isdigit():
        return {"": int(text)}
    out = {}
    for separator in SEPARATORS:
        try:
            out[separator] = read_whole(text, separator)
        except ValueError:
            pass
    return out
