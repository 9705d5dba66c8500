"""Engine specs: the one parser for every string that names an engine.

    >>> parse_spec("perftree:/home/me/my-perft.sh").short_name
    'my-perft.sh'
    >>> parse_spec("cmd:./engine divide {depth} {fen} {moves}").short_name
    'engine'

Kinds: `core`, `python-chess` (also `chess`), `stockfish`, `uci:PATH`, `xboard:PATH`, `perftree:PATH`,
`cmd:TEMPLATE` (a command run per divide, placeholders {depth} {fen} {fen_after} {moves}
{fen_moves}, and {threads} {hash_mb} for core.engines.mode)
and `file:ENGINE.toml` (an engine file, see core.engines.engine_file). A program's kind may carry
options in brackets: `perftree[chess960=false]:PATH` says it does not take Chess960 positions
(they are then never sent to it), as `chess960 = false` does in an engine file.
"""
from __future__ import annotations

import os
import shlex
from dataclasses import dataclass

from ..errors import EngineError

SPECS = ("core, python-chess, stockfish, uci:PATH, xboard:PATH, perftree:PATH, cmd:TEMPLATE "
         "or file:ENGINE.toml")
BUILTIN = ("core", "python-chess", "stockfish")
WITH_TARGET = ("uci", "xboard", "perftree", "cmd", "file")
OPTIONS = {"chess960": ("false",)}          # option: the values it may take


@dataclass(frozen=True)
class Spec:
    """A parsed spec: `kind` is one of BUILTIN or WITH_TARGET, `target` the path, template or
    file after the colon ('' for built-in engines), `text` the spec as written; `chess960`
    False when an option says the program does not take Chess960 (None: not said)."""
    kind: str
    target: str
    text: str
    chess960: bool | None = None

    @property
    def short_name(self) -> str:
        """What the user calls it: the program's file name, an engine file's stem (the oracle
        made from the file takes the `name` written in it)."""
        if self.kind in BUILTIN:
            return self.kind
        if self.kind == "cmd":
            try:
                words = shlex.split(self.target)
            except ValueError:
                words = self.target.split()
            return os.path.basename(words[0]) if words else "cmd"
        if self.kind == "file":
            return os.path.splitext(os.path.basename(self.target))[0] or self.target
        return os.path.basename(self.target.rstrip("/")) or self.target

    def __str__(self):
        return self.text


def parse_spec(text) -> Spec:
    """A Spec, or EngineError naming what is wrong with `text`."""
    if isinstance(text, Spec):
        return text
    text = (text or "").strip()
    if text in ("python-chess", "chess"):
        return Spec("python-chess", "", text)
    if text in BUILTIN:
        return Spec(text, "", text)
    kind, colon, target = text.partition(":")
    kind, options = _options(kind.strip().lower(), text)
    if colon and kind in WITH_TARGET:
        target = target.strip()
        if not target:
            what = "a command template" if kind == "cmd" else "a path"
            raise EngineError(f"engine {text!r}: nothing after '{kind}:' (expected {what})")
        if kind == "cmd":
            try:
                words = shlex.split(target)
            except ValueError as e:
                raise EngineError(f"engine {text!r}: cannot split the command template: {e}") from None
            if not words:
                raise EngineError(f"engine {text!r}: empty command template")
        return Spec(kind, target, text, **options)
    raise EngineError(f"unknown engine {text!r}: expected {SPECS}")


def _options(kind: str, text: str) -> tuple[str, dict]:
    """`perftree[chess960=false]` -> ('perftree', {'chess960': False})."""
    if "[" not in kind:
        return kind, {}
    kind, _, written = kind.partition("[")
    if not written.endswith("]") or kind not in WITH_TARGET:
        raise EngineError(f"engine {text!r}: options are written KIND[OPTION=VALUE]:TARGET, for "
                          f"{', '.join(WITH_TARGET)}")
    options = {}
    for item in filter(None, (x.strip() for x in written[:-1].split(","))):
        key, _, value = (x.strip() for x in item.partition("="))
        if value not in OPTIONS.get(key, ()):
            raise EngineError(f"engine {text!r}: unknown option {item!r} (expected "
                              f"{', '.join(f'{k}={v}' for k, vs in OPTIONS.items() for v in vs)})")
        options[key] = False
    return kind, options
