"""The `perftscope` command. Each subcommand lives in app/commands/<module>.py and exposes
`register(subparsers)`; app.commands.COMMANDS lists them. Only the module of the command being
run is imported, so `perftscope --help` does not load numba."""
from __future__ import annotations

import argparse
import gc
import importlib
import sys

from perftscope.core.errors import PerftscopeError

from .commands import COMMANDS


def build_parser(argv=()) -> argparse.ArgumentParser:
    """The parser for `argv`: the full arguments of the command it names, a one-line entry for
    every other command (enough for `perftscope --help` and for argparse's own errors)."""
    parser = argparse.ArgumentParser(
        prog="perftscope",
        description="A workbench for chess move-generator authors: perft, divide, suites, "
                    "reference engines, a mismatch finder, fuzzing and shrinking.")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    first = next((a for a in argv if not a.startswith("-")), None)      # no global option takes a value
    chosen = COMMANDS[first][0] if first in COMMANDS else None
    for name, (module, summary) in COMMANDS.items():
        if module != chosen:
            sub.add_parser(name, help=summary)
        elif name not in sub.choices:              # one module may register several commands
            importlib.import_module(f"perftscope.app.commands.{module}").register(sub)
    return parser


def main(argv=None) -> int:
    argv = sys.argv[1:] if argv is None else list(argv)
    # numba's import builds a large graph of objects that lives as long as the process: the
    # collector's passes over it cost about a tenth of a short command's imports, and the
    # interpreter's collections at exit were 0.3-0.5 s of a warm `perftscope divide -d 1`.
    # Frozen objects are never scanned again (nor freed, which they would not be anyway).
    gc.disable()
    try:
        parser = build_parser(argv)
    finally:
        gc.freeze()
        gc.enable()
    args = parser.parse_args(argv)
    try:
        return int(args.run(args) or 0)
    except PerftscopeError as e:
        print(f"perftscope: error: {e}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("perftscope: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0
    finally:
        gc.freeze()       # what the command built goes with the process: no collection at exit


if __name__ == "__main__":
    sys.exit(main())
