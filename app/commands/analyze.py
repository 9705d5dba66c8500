"""`perftscope analyze`: what the generator sees in a position (checkers, pins,
discovered-check candidates, attacked squares, king zones, en passant), as a text
report with small boards or as one JSON object per position."""
from __future__ import annotations

from perftscope.core.board.analysis import Analysis, analyze
from perftscope.core.errors import FenError
from perftscope.core.board.position import Position, square_name
from perftscope.core.counting.suites import load

from . import add_parser
from .common import add_position_args, print_json
from .suite import resolve


def register(sub):
    p = add_parser(sub, "analyze",
                       description="Show what the move generator computes before it generates: checkers, "
                                   "pinned pieces and their pinners, discovered-check candidates, the squares "
                                   "the opponent attacks (our king removed), both king zones with attacker "
                                   "counts, en-passant verdicts with reasons, and the legal moves.")
    add_position_args(p, depth=False)
    p.add_argument("--epd", metavar="FILE", help="analyze the FEN of every line of an EPD file (or a bundled "
                                                  "suite) instead of -f; -m is played from each")
    p.add_argument("--json", action="store_true", help="one JSON object per position per line")
    p.set_defaults(run=run_analyze)


def _positions(args):
    if not args.epd:
        yield Position.from_fen(args.fen).play(args.moves)
        return
    for entry in load(resolve(args.epd), args.chess960):
        try:
            yield Position.from_fen(entry.full_fen).play(args.moves)
        except FenError as e:
            raise FenError(f"{entry.source}: {e.template}", e.chess960) from None


def run_analyze(args) -> int:
    for i, pos in enumerate(_positions(args)):
        a = analyze(pos)
        if args.json:
            print_json(a.to_json())
        else:
            if i:
                print()
            print(report(pos, a))
    return 0


# --- text report ---------------------------------------------------------------
def _board(cell) -> list[str]:
    """Eight ranks (8 first) of `cell(square)` characters, with coordinates."""
    rows = [f"{r + 1} " + " ".join(cell(r * 8 + f) for f in range(8)) for r in range(7, -1, -1)]
    return rows + ["  a b c d e f g h"]


def _side_by_side(titles, boards, width=20) -> str:
    lines = ["   ".join(t.ljust(width) for t in titles).rstrip()]
    for row in zip(*boards):
        lines.append("   ".join(r.ljust(width) for r in row).rstrip())
    return "\n".join(lines)


def report(pos: Position, a: Analysis) -> str:
    mover, other = ("white", "black") if pos.white_to_move else ("black", "white")
    marks = {}
    for p in a.pinned:
        marks[p.square] = "p"
    for d in a.discovered:
        marks[d.square] = "d"
    for q in a.checkers:
        marks[q] = "+"
    attacked = set(a.attacked)
    zones = {q: n for z in a.king_zone.values() for q, n in z.attacks.items()}
    zone_squares = {q for z in a.king_zone.values() for q in z.squares}

    def count(q):
        if q not in zone_squares:
            return " "
        n = zones.get(q, 0)
        return str(n) if n < 10 else "*"

    boards = _side_by_side(
        ["position", "+check p pin d disc", f"attacked by {other}", "king zone attackers"],
        [_board(lambda q: pos.board[q] or "."),
         _board(lambda q: marks.get(q, ".")),
         _board(lambda q: "x" if q in attacked else "."),
         _board(lambda q: count(q) if q in zone_squares else ".")])
    lines = [f"fen        {a.fen}", f"to move    {mover}", boards, ""]

    def names(squares):
        return " ".join(square_name(q) for q in squares) or "none"

    def piece(q):
        return f"{pos.board[q]}{square_name(q)}"

    lines.append(f"checkers   {' '.join(piece(q) for q in a.checkers) or 'none'}")
    lines.append("pinned     " + ("; ".join(f"{piece(p.square)} by {piece(p.pinner)} (ray {names(p.ray)})"
                                            for p in a.pinned) or "none"))
    lines.append("discovered " + ("; ".join(f"{piece(d.square)} shields {piece(d.slider)}" for d in a.discovered)
                                  or "none"))
    lines.append(f"attacked   {len(a.attacked)} squares (our king lifted off the board)")
    for colour, z in a.king_zone.items():
        hits = " ".join(f"{square_name(q)}:{n}" for q, n in z.attacks.items()) or "none attacked"
        lines.append(f"king zone  {colour} king {square_name(z.king)}: {hits}")
    if a.ep is None:
        lines.append("en passant none")
    else:
        lines.append(f"en passant {square_name(a.ep.square)}" + ("" if a.ep.captures else ": no pawn can capture"))
        for c in a.ep.captures:
            lines.append(f"           {c.move} {'legal' if c.legal else 'illegal'}: {c.reason}")
    lines.append(f"legal      {len(a.legal)}: {' '.join(a.legal)}")
    for note in a.unreachable:
        lines.append(f"unreachable {note}")
    return "\n".join(lines)
