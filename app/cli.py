"""The `perftscope` command. Each subcommand lives in app/commands/<module>.py and exposes
`register(subparsers)`; app.commands.COMMANDS lists them. Only the module of the command being
run is imported, so `perftscope --help` does not load numba."""
from __future__ import annotations

import argparse
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
    parser = build_parser(argv)
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


if __name__ == "__main__":
    sys.exit(main())
