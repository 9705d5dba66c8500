"""Arguments and helpers shared by several subcommands."""
from __future__ import annotations

import argparse
import json
import sys
from typing import TYPE_CHECKING

from perftscope.core.errors import FenError, PerftscopeError
from perftscope.core.limits import DEPTH_LIMIT

if TYPE_CHECKING:
    from perftscope.core.board.position import Position


def add_position_args(parser: argparse.ArgumentParser, depth: bool = True):
    # imported here: core.board.position compiles kernels on an empty cache, which `gui` does
    # only once its splash screen is up
    from perftscope.core.board.position import START_FEN
    if depth:
        parser.add_argument("-d", "--depth", type=depth_arg, required=True, metavar="DEPTH",
                            help="plies to count (0 counts 1)")
    parser.add_argument("-f", "--fen", default=START_FEN, metavar="FEN",
                        help="position (default: the start position)")
    parser.add_argument("-m", "--moves", default="", metavar="MOVES",
                        help='UCI moves played from FEN first, e.g. "e2e4 e7e5"')
    add_chess960_args(parser)


def add_engine_args(parser: argparse.ArgumentParser, reference: str | None = "core",
                    reference_help: str = "the truth (default core)", timeout_help: str | None = None,
                    engine_required: bool = True, engine_help: str = "the engine under test"):
    """--engine, --reference and --timeout: the engine under test, the truth it is checked
    against, and how long one call may take before the engine counts as hung. A command that
    can name the engine otherwise (locate --session) passes engine_required=False and checks."""
    from perftscope.core.engines.oracles import DEFAULT_TIMEOUT, SPECS
    parser.add_argument("--engine", required=engine_required, default=None, metavar="SPEC",
                        help=f"{engine_help}: {SPECS}")
    parser.add_argument("--reference", default=reference, metavar="SPEC", help=reference_help)
    parser.add_argument("--timeout", type=seconds_arg, default=DEFAULT_TIMEOUT, metavar="S",
                        help=timeout_help or f"longest wait for one engine call (default {DEFAULT_TIMEOUT:g})")


def add_chess960_args(parser: argparse.ArgumentParser):
    """--960 and --fen-style. args.fen is rewritten right after parsing (parse_known_args is
    wrapped), so every command and engine sees it: in the style asked for, and with --960 in
    a form that says Chess960 by itself (Shredder-FEN where X-FEN would read as standard)."""
    from perftscope.core.board.position import FEN_STYLES, Position
    parser.add_argument("--960", dest="chess960", action="store_true",
                        help="Chess960: castling is king takes rook (e1h1) even with the rooks in the "
                             "corners (X-FEN or Shredder-FEN rights that need Chess960 imply it)")
    parser.add_argument("--fen-style", choices=FEN_STYLES, default=None,
                        help="how Chess960 FENs are written: xfen (KQkq, a file letter where "
                             "ambiguous) or shredder (rook files, HAha); default: the style read. "
                             "Standard positions stay KQkq (Shredder-FEN marks Chess960)")
    parse = parser.parse_known_args

    def parse_and_rewrite(args=None, namespace=None):
        ns, rest = parse(args, namespace)
        fen = getattr(ns, "fen", None)
        if fen and (ns.chess960 or ns.fen_style):
            try:
                ns.fen = Position.from_fen(fen, chess960=ns.chess960, fen_style=ns.fen_style).fen()
            except PerftscopeError:
                pass                   # the command reports the bad FEN as usual
        return ns, rest
    parser.parse_known_args = parse_and_rewrite


def add_960_arg(parser: argparse.ArgumentParser, help: str):
    """--960 for a command whose positions come from a file or are built (suite, fuzz, race):
    args.chess960 says every position is Chess960."""
    parser.add_argument("--960", dest="chess960", action="store_true", help=help)


def int_arg(what: str, low: int, high: int):
    """An argparse type: a whole number from low to high, the error naming `what`."""
    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{what} must be a whole number, got {text!r}") from None
        if value < low or value > high:
            raise argparse.ArgumentTypeError(f"{what} must be between {low} and {high}, got {value}")
        return value
    parse.__name__ = what          # argparse names the type in some messages
    return parse


depth_arg = int_arg("depth", 0, DEPTH_LIMIT)


def seconds_arg(text: str, zero: bool = False) -> float:
    """An argparse type: seconds, more than 0 (argparse names the option before the message)."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"a number of seconds is needed, got {text!r}") from None
    if not (value >= 0 if zero else value > 0) or value != value:
        raise argparse.ArgumentTypeError(f"must be {'0 or more' if zero else 'more than 0'} seconds, got {text!r}")
    return value


def seconds_or_zero_arg(text: str) -> float:
    """An argparse type: seconds, 0 or more."""
    return seconds_arg(text, zero=True)


def position_from_args(args) -> Position:
    from perftscope.core.board.position import Position
    pos = Position.from_fen(args.fen, chess960=getattr(args, "chess960", False),
                            fen_style=getattr(args, "fen_style", None))
    return pos.play(args.moves)


def spelled(e: PerftscopeError) -> str:
    """An error as the command line says it: a FEN that standard chess refuses but that is valid
    Chess960 names --960 (every command that takes positions has it)."""
    return e.spelled("add --960") if isinstance(e, FenError) else str(e)


def print_json(obj):
    print(json.dumps(obj), flush=True)


def fail(message: str):
    raise PerftscopeError(message)


def stderr_is_terminal() -> bool:
    return sys.stderr.isatty()
