"""One module per perftscope subcommand; each exposes `register(subparsers)`.

COMMANDS lists every command with its module and its one-line help, so `perftscope --help`
can list them all without importing a command module: those import the numba kernels, which
costs most of a second. Adding a command means adding a module and a line here.
"""
COMMANDS = {
    "perft": ("perft", "count leaf nodes"),
    "divide": ("perft", "perft of each legal move (Stockfish's format)"),
    "suite": ("suite", "check a perft suite (EPD or .perft), with the core or an engine"),
    "bench": ("bench", "perft speed against Stockfish"),
    "gui": ("gui", "open the desktop workbench"),
    "analyze": ("analyze", "checkers, pins, attacked squares, king zones, en passant"),
    "compare": ("compare", "find the first position where an engine and a reference differ"),
    "engine": ("engine", "learn how an engine prints its divide, and check it agrees"),
    "fuzz": ("fuzz", "fuzz an engine with random play and edge positions"),
    "shrink": ("shrink", "reduce a failing position to a minimal one"),
    "perftree": ("perftree", "divide in perftree's script protocol"),
    "locate": ("locate", "rank your engine's source lines: which one is wrong"),
    "race": ("race", "race engines on perft, counts checked; A/B two builds"),
}


def add_parser(sub, name: str, **kwargs):
    """`sub.add_parser(name)` with the command's help from COMMANDS."""
    return sub.add_parser(name, help=COMMANDS[name][1], **kwargs)
