"""Threads and hash size asked of an engine, and how each kind of engine is told.

    >>> fill_mode("./perft -t {threads} -H {hash_mb} {depth}", Mode(threads=2))
    ('./perft -t 2 -H 0 {depth}', {'threads': 2})

A `cmd:` template or an engine file's lines take `{threads}` and `{hash_mb}`; a UCI engine (or an
engine file speaking UCI) gets `setoption name Threads/Hash value N` when its `uci` reply offers
the option with that value in its range. What each engine took is kept as `taken`: an engine that
cannot take a setting runs as it is, and says so.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

NAMES = {"threads": "Threads", "hash_mb": "Hash"}        # our name -> the UCI option's
DEFAULTS = {"threads": 1, "hash_mb": 0}                  # a placeholder nobody set: one thread, no table
PLACEHOLDER = re.compile(r"\{(threads|hash_mb)\}")
_UCI_OPTION = re.compile(r"^option\s+name\s+(?P<name>\S+)\s+type\s+spin\b(?P<rest>.*)$", re.I)


@dataclass(frozen=True)
class Mode:
    """What is asked: `threads` worker threads, a `hash_mb` MiB table; None leaves the engine's own."""
    threads: int | None = None
    hash_mb: int | None = None

    def asked(self) -> dict[str, int]:
        return {k: v for k, v in (("threads", self.threads), ("hash_mb", self.hash_mb)) if v is not None}


def fill_mode(text: str, mode: Mode | None) -> tuple[str, dict[str, int]]:
    """`text` with `{threads}` and `{hash_mb}` filled (DEFAULTS where the mode says nothing), and
    the settings it asked for that the text takes."""
    asked = mode.asked() if mode is not None else {}
    found = set(PLACEHOLDER.findall(text))
    filled = PLACEHOLDER.sub(lambda m: str(asked.get(m.group(1), DEFAULTS[m.group(1)])), text)
    return filled, {k: v for k, v in asked.items() if k in found}


def _offered(greeting: list[str]) -> dict[str, tuple]:
    """{lower-case name: (name, default, min, max)} of the spin options in a `uci` reply."""
    offered = {}
    for line in greeting:
        m = _UCI_OPTION.match(line.strip())
        if m:
            found = [re.search(rf"\b{word}\s+(-?\d+)", m["rest"]) for word in ("default", "min", "max")]
            offered[m["name"].lower()] = (m["name"], *(int(x[1]) if x else None for x in found))
    return offered


def uci_defaults(greeting: list[str]) -> dict[str, int]:
    """The engine's own Threads and Hash, from its `uci` reply: what it runs with when not told."""
    offered = _offered(greeting)
    return {key: offered[name.lower()][1] for key, name in NAMES.items()
            if name.lower() in offered and offered[name.lower()][1] is not None}


def uci_setoptions(greeting: list[str], mode: Mode | None) -> tuple[list[str], dict[str, int]]:
    """The `setoption` lines for what `mode` asks that the engine's `uci` reply offers as a spin
    option taking that value, and what they set."""
    offered = _offered(greeting)
    lines, taken = [], {}
    for key, value in (mode.asked() if mode is not None else {}).items():
        name, _, low, high = offered.get(NAMES[key].lower(), (None, None, None, None))
        if name is None or (low is not None and value < low) or (high is not None and value > high):
            continue
        lines.append(f"setoption name {name} value {value}")
        taken[key] = value
    return lines, taken


def describe(mode: Mode | None, taken: dict[str, int], defaults: dict[str, int] | None = None) -> str:
    """'2 threads, 64 MiB hash': what was taken; what was asked and not taken ('threads not
    settable'); else the engine's own `defaults` ('1 thread by default')."""
    asked = mode.asked() if mode is not None else {}
    parts = []
    for key in ("threads", "hash_mb"):
        value = taken.get(key, (defaults or {}).get(key))
        if key in asked and key not in taken:
            parts.append(f"{key.replace('_mb', '')} not settable")
        elif value is not None:
            parts.append((f"{value} thread{'s' * (value != 1)}" if key == "threads" else
                          f"{value} MiB hash" if value else "no hash") + ("" if key in taken else " by default"))
    return ", ".join(parts)
