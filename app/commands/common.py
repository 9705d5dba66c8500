"""Arguments and helpers shared by several subcommands."""
from __future__ import annotations

import argparse
import json
import sys

from core.errors import PerftscopeError
from core.position import START_FEN, Position


def add_position_args(parser: argparse.ArgumentParser, depth: bool = True):
    if depth:
        parser.add_argument("-d", "--depth", type=depth_arg, required=True, metavar="DEPTH",
                            help="plies to count (0 counts 1)")
    parser.add_argument("-f", "--fen", default=START_FEN, metavar="FEN",
                        help="position (default: the start position)")
    parser.add_argument("-m", "--moves", default="", metavar="MOVES",
                        help='UCI moves played from FEN first, e.g. "e2e4 e7e5"')


def depth_arg(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"depth must be a whole number, got {text!r}") from None
    if value < 0 or value > 40:
        raise argparse.ArgumentTypeError(f"depth must be between 0 and 40, got {value}")
    return value


def position_from_args(args) -> Position:
    return Position.from_fen(args.fen).play(args.moves)


def print_json(obj):
    print(json.dumps(obj), flush=True)


def fail(message: str):
    raise PerftscopeError(message)


def stderr_is_terminal() -> bool:
    return sys.stderr.isatty()
