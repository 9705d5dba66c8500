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
across calls and restarted when it dies.
"""
from __future__ import annotations

import os
import re
import shlex

from ..errors import EngineError

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
        raise EngineError(f"file:{path}: unknown key {unknown[0]!r} (expected some of "
                          f"{', '.join(sorted(_KEYS))})")
    return data


def engine_file_name(path: str) -> str:
    """The file's `name`, else its stem (also when the file cannot be read: the error comes
    when the engine is started)."""
    try:
        name = read_engine_file(path).get("name")
    except EngineError:
        name = None
    return str(name) if name else os.path.splitext(os.path.basename(path))[0]


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


def load_engine_file(spec, timeout: float | None = None):
    """An InteractiveOracle for a `file:` Spec. The file's own timeout wins over the default
    but not over one given explicitly (`timeout` other than DEFAULT_TIMEOUT)."""
    from .oracles import DEFAULT_TIMEOUT, UCI, Dialogue, InteractiveOracle, _executable
    path = os.path.abspath(os.path.expanduser(spec.target))
    data = read_engine_file(path)
    here = os.path.dirname(path)
    command = data.get("command")
    if isinstance(command, str):
        command = shlex.split(command)
    if not command or not all(isinstance(x, str) for x in command):
        raise EngineError(f"file:{spec.target}: 'command' must name the program to run "
                          f"(a string or a list of strings)")
    cwd = os.path.normpath(os.path.join(here, _string(data, "cwd", path, ".")))
    if not os.path.isdir(cwd):
        raise EngineError(f"file:{spec.target}: cwd {cwd} is not a folder")
    program = command[0]
    if os.sep in program and not os.path.isabs(program):
        program = os.path.join(cwd, program)
    name = spec.short_name
    command = [_executable(program, name)] + list(command[1:])
    env = data.get("env", {})
    if not isinstance(env, dict):
        raise EngineError(f"file:{spec.target}: 'env' must be a table of NAME = \"value\"")
    ready = data.get("ready")
    if ready is not None and (not isinstance(ready, list) or len(ready) != 2
                              or not all(isinstance(x, str) for x in ready)):
        raise EngineError(f"file:{spec.target}: 'ready' must be [\"line to send\", \"line awaited\"]")
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
            raise EngineError(f"file:{spec.target}: {key!r} is not a valid regular expression: {e}") from None
    seconds = data.get("timeout")
    if timeout is None or timeout == DEFAULT_TIMEOUT:
        if seconds is not None and (not isinstance(seconds, (int, float)) or seconds <= 0):
            raise EngineError(f"file:{spec.target}: 'timeout' must be a number of seconds above 0")
        timeout = float(seconds) if seconds else DEFAULT_TIMEOUT
    return InteractiveOracle(spec.text, name, dialogue, timeout=timeout)
