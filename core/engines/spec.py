"""Engine specs: the one table of engine kinds, and the one parser for every string that names an engine.

    >>> parse_spec("perftree:/home/me/my-perft.sh").short_name
    'my-perft.sh'
    >>> parse_spec("cmd:./engine divide {depth} {fen} {moves}").short_name
    'engine'
    >>> parse_spec("cmd:node --stack-size=9000 perft.mjs {depth} {fen}").short_name
    'perft.mjs'

KINDS is every kind of engine perftscope can talk to, each with how a spec writes it, what the
window's selector calls it, what follows its colon, and one phrase saying what it is. The parser,
make_oracle's dispatch (core.engines.oracles), the window's selectors (widgets.reference), the
CLI's help (SPECS) and the window's Help are all read from it, so a kind is added in one place.
A program's kind may carry options in brackets: `perftree[chess960=false]:PATH` says it does not
take Chess960 positions (they are then never sent to it), as `chess960 = false` does in an engine
file.
"""
from __future__ import annotations

import os
import shlex
from dataclasses import dataclass

from ..errors import EngineError


@dataclass(frozen=True)
class Kind:
    """One kind of engine. `name` is the spec itself for a built-in engine, the word before the
    colon otherwise; `written` how help writes a spec of it; `label` what the window's selector
    shows; `needs` what follows the colon: "" (nothing), "file" (a path the selector can browse
    to) or "text" (a command template); `about` one phrase for the help; `aliases` other names a
    spec may use; `in_process` whether it runs inside perftscope (no program of its own)."""
    name: str
    written: str
    label: str
    needs: str
    about: str
    aliases: tuple[str, ...] = ()
    in_process: bool = False

    @property
    def builtin(self) -> bool:
        return not self.needs


KINDS = (
    Kind("core", "core", "core (perftscope)", "", "the jitted core", in_process=True),
    Kind("python-chess", "python-chess", "python-chess", "", "python-chess in process: slow, trusted",
         aliases=("chess",), in_process=True),
    Kind("stockfish", "stockfish", "Stockfish", "", "Stockfish's go perft, found on PATH"),
    Kind("uci", "uci:PATH", "UCI engine…", "file", "a UCI engine speaking go perft N"),
    Kind("xboard", "xboard:PATH", "xboard engine…", "file", "an xboard engine with a perft command"),
    Kind("perftree", "perftree:PATH", "perftree script…", "file",
         "a script in perftree's protocol, run unchanged"),
    Kind("cmd", "cmd:TEMPLATE", "command template…", "text",
         "a program run once per divide, placeholders {depth} {fen} {fen_after} {moves} {fen_moves} "
         "(and {threads} {hash_mb})"),
    Kind("file", "file:ENGINE.toml", "engine file (.toml)…", "file",
         "an interactive program described by an engine file"),
)
BY_NAME = {k.name: k for k in KINDS}
# what an engine's speed is measured against: the core, and Stockfish where it is installed
YARDSTICKS = ("core", "stockfish")
SPECS = ", ".join(k.written for k in KINDS[:-1]) + f" or {KINDS[-1].written}"
BUILTIN = tuple(k.name for k in KINDS if k.builtin)
WITH_TARGET = tuple(k.name for k in KINDS if not k.builtin)
IN_PROCESS = tuple(k.name for k in KINDS if k.in_process)
_ALIASES = {alias: k.name for k in KINDS for alias in (k.name, *k.aliases) if k.builtin}
OPTIONS = {"chess960": ("false",)}          # option: the values it may take
# a template starting with one of these runs the script it names: the script is the engine's name
# (`cmd:node perft.mjs ...` is perft.mjs in every report, not "node", and two scripts raced apart)
RUNNERS = {"node", "nodejs", "deno", "bun", "npx", "tsx", "ts-node", "run", "python", "python3", "pypy",
           "pypy3", "uv", "ruby", "perl", "php", "lua", "sh", "bash", "dash", "zsh", "julia", "Rscript"}


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
        if BY_NAME[self.kind].needs == "text":
            try:
                words = shlex.split(self.target)
            except ValueError:
                words = self.target.split()
            return _program_name(words)
        if self.kind == "file":
            return os.path.splitext(os.path.basename(self.target))[0] or self.target
        return os.path.basename(self.target.rstrip("/")) or self.target

    def __str__(self):
        return self.text


def spec_of(kind: str, target: str = "", chess960: bool | None = None) -> Spec:
    """A Spec from its parts, its text written as the parser reads it: the one place a spec's
    text is made rather than read (a program's default spec, the selector's normalized choice)."""
    options = "[chess960=false]" if chess960 is False else ""
    return Spec(kind, target, f"{kind}{options}:{target}" if kind in WITH_TARGET else kind, chess960)


def _program_name(words: list[str]) -> str:
    """A command line's program: the script an interpreter runs (past its options), else the
    first word."""
    if not words:
        return "cmd"
    script = words[0]
    for word in words:
        if "{" in word:
            break
        if os.path.basename(word) in RUNNERS or word.startswith("-"):
            continue
        script = word
        break
    return os.path.basename(script)


def parse_spec(text) -> Spec:
    """A Spec, or EngineError naming what is wrong with `text`."""
    if isinstance(text, Spec):
        return text
    text = (text or "").strip()
    if text in _ALIASES:
        return Spec(_ALIASES[text], "", text)
    kind, colon, target = text.partition(":")
    kind, options = _options(kind.strip().lower(), text)
    if colon and kind in WITH_TARGET:
        target = target.strip()
        if not target:
            what = "a command template" if BY_NAME[kind].needs == "text" else "a path"
            raise EngineError(f"engine {text!r}: nothing after '{kind}:' (expected {what})")
        if BY_NAME[kind].needs == "text":
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
