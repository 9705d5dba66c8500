"""The `perftscope` command. Each subcommand lives in app/commands/<name>.py and
exposes `register(subparsers)`; adding a command means adding a module to COMMANDS."""
from __future__ import annotations

import argparse
import importlib
import sys

from core.errors import PerftscopeError

COMMANDS = ("perft", "suite", "bench", "gui", "analyze", "compare", "perftree", "engine")


def build_parser(only: str | None = None) -> argparse.ArgumentParser:
    """The parser; `only` registers that one command: importing a command module may compile
    kernels (those with explicit signatures compile at import), which `gui` does behind its
    splash screen rather than before it."""
    parser = argparse.ArgumentParser(
        prog="perftscope",
        description="A workbench for chess move-generator authors: perft, divide, suites, "
                    "reference engines and a mismatch finder.")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    for name in (only,) if only in COMMANDS else COMMANDS:
        importlib.import_module(f"app.commands.{name}").register(sub)
    return parser


def main(argv=None) -> int:
    argv = sys.argv[1:] if argv is None else list(argv)
    parser = build_parser(only=argv[0] if argv and argv[0] == "gui" else None)
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
