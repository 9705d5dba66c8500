"""`perftscope perftree DEPTH FEN [MOVES]`: the core speaking perftree's script protocol, so
perftscope can stand in on either side of any perftree-style tool."""
from __future__ import annotations

from perftscope.core.engines.oracles import Request, make_oracle

from . import add_parser
from .common import depth_arg


def register(sub):
    p = add_parser(sub, "perftree",
                       description="Print `move count` lines, a blank line and the total, exactly "
                                   "as perftree expects from a user's perft script.")
    p.add_argument("depth", type=depth_arg, metavar="DEPTH", help="plies to count")
    p.add_argument("fen", metavar="FEN", help="the base position")
    p.add_argument("moves", nargs="?", default="", metavar="MOVES",
                   help='space-separated UCI moves played from FEN first, e.g. "e2e4 e7e5"')
    p.set_defaults(run=run)


def run(args) -> int:
    rows = make_oracle("core").divide(Request.of(args.fen, args.moves), args.depth)
    for move, count in rows.items():
        print(move, count)
    print()
    print(sum(rows.values()) if args.depth > 0 else 1)
    return 0
