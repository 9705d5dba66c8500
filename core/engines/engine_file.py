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

Only `command` is required: the rest defaults to UCI's `go perft`. One process is kept alive
across calls and restarted when it dies. `{threads}` and `{hash_mb}` in the command and the lines
take `perftscope race --threads/--hash` (core.engines.mode); a UCI engine gets `setoption` instead.
"""
from __future__ import annotations

import difflib
import os
import re
import shlex
from dataclasses import dataclass

from ..errors import EngineError
from .dialogue import UCI, Dialogue
from .process import executable

try:
    import tomllib
except ImportError:             # Python 3.10
    tomllib = None

_KEYS = {"name", "command", "cwd", "env", "start", "start_until", "ready", "position", "divide",
         "totals", "end", "sentinel", "sentinel_reply", "quit", "timeout"}


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
    talk to it, and its own timeout (None when it sets none)."""
    name: str
    dialogue: Dialogue
    timeout: float | None


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
    divide, totals = _string(data, "divide", path), _string(data, "totals", path)
    if divide is None and totals is None:
        divide = UCI.divide
    uci_like = "start" not in data and "position" not in data
    dialogue = Dialogue(
        command=tuple(command), cwd=cwd, env=tuple((str(k), str(v)) for k, v in env.items()),
        start=_strings(data, "start", path, UCI.start if uci_like else ()),
        start_until=_string(data, "start_until", path, UCI.start_until if uci_like else None),
        ready=tuple(ready) if ready else (UCI.ready if uci_like else None),
        position=_strings(data, "position", path, UCI.position),
        divide=divide, totals=totals if divide is None else None,
        end_regex=_string(data, "end", path), sentinel=_string(data, "sentinel", path),
        sentinel_reply=_string(data, "sentinel_reply", path),
        quit=_string(data, "quit", path, UCI.quit))
    for key in ("end", "start_until"):
        try:
            re.compile(data.get(key) or "")
        except re.error as e:
            raise EngineError(f"file:{target}: {key!r} is not a valid regular expression: {e}") from None
    seconds = data.get("timeout")
    if seconds is not None and (isinstance(seconds, bool) or not isinstance(seconds, (int, float))
                                or seconds <= 0):
        raise EngineError(f"file:{target}: 'timeout' must be a number of seconds above 0")
    return EngineFile(name, dialogue, float(seconds) if seconds is not None else None)
