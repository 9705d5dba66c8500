"""Engine files: a few lines of TOML describing how to talk to an interactive program.

    name = "my-engine"
    command = ["./my-engine", "--no-book"]     # or one string, split like a shell line
    cwd = "."                                   # relative to this file (default: its folder)
    env = { RUST_BACKTRACE = "1" }
    start = ["uci"]                             # sent once when the program starts
    start_until = "^uciok$"                     # ... and the line that ends its reply
    ready = ["isready", "readyok"]              # sent before each request, awaited
    position = ["position fen {fen} moves {moves}"]   # ` moves {moves}` dropped with no moves
    divide = "go perft {depth}"                 # or `totals = "perft {depth}"` for totals only
    end = "^Nodes searched"                     # a regex ending the answer (default: a total line)
    sentinel = "echo done"                      # or: a command sent after the request ...
    sentinel_reply = "done"                     # ... whose reply ends the answer
    quit = "quit"
    timeout = 60                                # seconds per call
    protocol = "xboard"                         # xboard's defaults instead of UCI's (see core.engines.xboard)
    moves_each = "{move}"                       # a line for each move played, after the position lines
    fen_after = true                            # {fen} is the FEN after the moves; no moves are sent
    illegal = "^Illegal move"                   # a line refusing a move or a position
    chess960 = false                            # it does not take Chess960 positions
    source = ["src"]                            # its source folders, for `perftscope locate`
    coverage = "gcov"                           # how it leaves line coverage: python, node, gcov, llvm
    build = "make"                              # how it is rebuilt (in a copy of its source) for locate's mutants

    [dialect]                                   # how it prints its divide (else learned by calibration)
    rows = ["{move} {count}{rest}"]
    total = "Nodes searched: {total}"

Only `command` is required: the rest defaults to UCI's `go perft` (or xboard's `perft`). One
process is kept alive across calls and restarted when it dies. `{threads}` and `{hash_mb}` in the
command and the lines take `perftscope race --threads/--hash` (core.engines.mode); a UCI engine
gets `setoption` instead.
"""
from __future__ import annotations

import difflib
import os
import re
import shlex
from dataclasses import dataclass

from dataclasses import replace

from ..errors import EngineError
from .dialect import Dialect
from .dialogue import UCI, Dialogue
from .process import executable
from .xboard import XBOARD

try:
    import tomllib
except ImportError:             # Python 3.10
    tomllib = None

_KEYS = {"name", "command", "cwd", "env", "start", "start_until", "ready", "position", "divide",
         "totals", "end", "sentinel", "sentinel_reply", "quit", "timeout", "protocol", "moves_each",
         "fen_after", "illegal", "chess960", "dialect", "source", "coverage", "build"}
COVERAGE = ("python", "node", "gcov", "llvm")
PROTOCOLS = {"uci": UCI, "xboard": XBOARD}


def read_engine_file(path: str) -> dict:
    """The TOML table of an engine file; EngineError naming the file and what is wrong."""
    if tomllib is None:
        raise EngineError(f"file:{path}: engine files need Python 3.11 or later (tomllib)")
    try:
        with open(path, "rb") as f:
            data = tomllib.load(f)
    except OSError as e:
        raise EngineError(f"file:{path}: cannot read the engine file: {e.strerror or e}") from None
    except tomllib.TOMLDecodeError as e:
        raise EngineError(f"file:{path}: not valid TOML: {e}") from None
    unknown = sorted(set(data) - _KEYS)
    if unknown:
        close = difflib.get_close_matches(unknown[0], _KEYS, n=1)
        hint = f"did you mean {close[0]!r}? " if close else ""
        raise EngineError(f"file:{path}: unknown key {unknown[0]!r} ({hint}expected some of "
                          f"{', '.join(sorted(_KEYS))})")
    return data


@dataclass(frozen=True)
class EngineFile:
    """What an engine file says: the engine's name (its `name`, else the file's stem), how to
    talk to it, its own timeout (None when it sets none) and its protocol ('uci', 'xboard')."""
    name: str
    dialogue: Dialogue
    timeout: float | None
    protocol: str = "uci"
    source: tuple[str, ...] = ()      # absolute folders (`source`, relative to the file)
    coverage: str = ""                # one of COVERAGE, or "" when not said
    build: str = ""                   # the shell command that rebuilds it, run in a copy of its first source folder


def _strings(data: dict, key: str, path: str, default=()) -> tuple[str, ...]:
    value = data.get(key, default)
    if isinstance(value, str):
        value = [value]
    if not isinstance(value, (list, tuple)) or not all(isinstance(x, str) for x in value):
        raise EngineError(f"file:{path}: {key!r} must be a string or a list of strings, got {value!r}")
    return tuple(value)


def _string(data: dict, key: str, path: str, default=None):
    value = data.get(key, default)
    if value is not None and not isinstance(value, str):
        raise EngineError(f"file:{path}: {key!r} must be a string, got {value!r}")
    return value


def _flag(data: dict, key: str, path: str, default=None):
    value = data.get(key, default)
    if value is not None and not isinstance(value, bool):
        raise EngineError(f"file:{path}: {key!r} must be true or false, got {value!r}")
    return value


def load_engine_file(target: str) -> EngineFile:
    """The engine file at `target` (the path after `file:`), checked key by key; EngineError
    naming the file and what is wrong."""
    path = os.path.abspath(os.path.expanduser(target))
    data = read_engine_file(path)
    here = os.path.dirname(path)
    command = data.get("command")
    if isinstance(command, str):
        command = shlex.split(command)
    if not command or not isinstance(command, list) or not all(isinstance(x, str) for x in command):
        raise EngineError(f"file:{target}: 'command' must name the program to run "
                          f"(a string or a list of strings)")
    cwd = os.path.normpath(os.path.join(here, _string(data, "cwd", path, ".")))
    if not os.path.isdir(cwd):
        raise EngineError(f"file:{target}: cwd {cwd} is not a folder")
    program = command[0]
    if os.sep in program and not os.path.isabs(program):
        program = os.path.join(cwd, program)
    name = _string(data, "name", path) or os.path.splitext(os.path.basename(path))[0]
    command = [executable(program, name)] + list(command[1:])
    env = data.get("env", {})
    if not isinstance(env, dict) or not all(isinstance(v, (str, int, float)) for v in env.values()):
        raise EngineError(f"file:{target}: 'env' must be a table of NAME = \"value\"")
    ready = data.get("ready")
    if ready is not None and (not isinstance(ready, list) or len(ready) != 2
                              or not all(isinstance(x, str) for x in ready)):
        raise EngineError(f"file:{target}: 'ready' must be [\"line to send\", \"line awaited\"]")
    protocol = _string(data, "protocol", path, "uci")
    if protocol not in PROTOCOLS:
        raise EngineError(f"file:{target}: 'protocol' must be \"uci\" or \"xboard\", got {protocol!r}")
    base = PROTOCOLS[protocol]
    divide, totals = _string(data, "divide", path), _string(data, "totals", path)
    if divide is None and totals is None:
        divide = base.divide
    # a file describing its own start-up or position lines is not UCI's handshake
    own_lines = protocol == "uci" and ("start" in data or "position" in data)
    table = data.get("dialect")
    if table is not None and not isinstance(table, dict):
        raise EngineError(f"file:{target}: [dialect] must be a table (see docs/connect-your-engine.md)")
    dialect = None if table is None else Dialect.from_dict(table, f"file:{target} [dialect]")
    dialogue = replace(
        base, command=tuple(command), cwd=cwd, env=tuple((str(k), str(v)) for k, v in env.items()),
        start=_strings(data, "start", path, () if own_lines else base.start),
        start_until=_string(data, "start_until", path, None if own_lines else base.start_until),
        ready=tuple(ready) if ready else (None if own_lines else base.ready),
        position=_strings(data, "position", path, base.position),
        divide=divide, totals=totals if divide is None else None,
        end_regex=_string(data, "end", path), sentinel=_string(data, "sentinel", path),
        sentinel_reply=_string(data, "sentinel_reply", path),
        quit=_string(data, "quit", path, base.quit),
        moves_each=_string(data, "moves_each", path, base.moves_each),
        fen_after=_flag(data, "fen_after", path, False),
        illegal=_string(data, "illegal", path, base.illegal) or None,
        chess960=_flag(data, "chess960", path), dialect=dialect)
    if dialogue.moves_each is not None and "{move}" not in dialogue.moves_each:
        raise EngineError(f"file:{target}: 'moves_each' must contain {{move}}, got {dialogue.moves_each!r}")
    if dialogue.chess960 is True:
        raise EngineError(f"file:{target}: 'chess960' can only be false (calibration finds out whether it "
                          f"takes Chess960)")
    for key in ("end", "start_until", "illegal"):
        try:
            re.compile(data.get(key) or "")
        except re.error as e:
            raise EngineError(f"file:{target}: {key!r} is not a valid regular expression: {e}") from None
    seconds = data.get("timeout")
    if seconds is not None and (isinstance(seconds, bool) or not isinstance(seconds, (int, float))
                                or seconds <= 0):
        raise EngineError(f"file:{target}: 'timeout' must be a number of seconds above 0")
    source = tuple(os.path.normpath(os.path.join(here, s)) for s in _strings(data, "source", path))
    coverage = _string(data, "coverage", path, "")
    if coverage and coverage not in COVERAGE:
        raise EngineError(f"file:{target}: 'coverage' must be one of {', '.join(COVERAGE)}, got {coverage!r}")
    return EngineFile(name, dialogue, float(seconds) if seconds is not None else None, protocol, source, coverage,
                      _string(data, "build", path, ""))
