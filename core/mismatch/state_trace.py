"""A state bug traced to the move that breaks it and the field the engine's position gets wrong.

    >>> trace = trace_state(make_oracle("perftree:tests/engines/rook_capture_keeps_right.py"),
    ...                     "4k3/8/8/8/8/8/1b6/RR2K3 b Q - 0 1", ["b2a1", "b1a1", "e8e7"], 1)
    >>> trace.move, trace.like_fen, trace.engine_value, trace.true_value
    ('b2a1', '4k3/8/8/8/8/8/8/bR2K3 w Q - 0 2', 'castling rights Q', 'none')

An engine whose move list at a position depends on how the position was reached keeps state its
make does not update (or updates wrongly). Asked about the position as the root FEN + the moves
and as the position's own FEN, it answers differently; starting from the true FEN after each
prefix of the path and playing the rest, the answers switch from the wrong one to the right one
after exactly one move: bisection finds it in log2(plies) engine calls. What the engine's position
then holds is named by asking about FENs one field away from the true one (castling rights, the
en-passant square, the side to move, what stands on a square the move touched) until one gives
the engine's wrong answer.
"""
from __future__ import annotations

from dataclasses import dataclass
from itertools import combinations

from ..board.position import FILES, PIECES, Position, parse_square, placement, square_name
from ..engines.lenient_fen import lenient_fen
from ..engines.oracle import Answer, Oracle
from ..errors import EngineFailed, FenError, MoveError

MAX_CANDIDATE_CALLS = 60     # engine calls spent naming the field, after the bisection
_PIECE_NAMES = {"p": "pawn", "n": "knight", "b": "bishop", "r": "rook", "q": "queen", "k": "king"}


@dataclass(frozen=True)
class StateTrace:
    """`move` (path[index]) is the first move after which the engine's position is not the true
    one; `like_fen` is the FEN one field away from the true position after it that the engine
    counts like (empty when none did), `field` which field ('castling rights', 'en passant',
    'side to move', or a square), `engine_value` what the engine's position holds ("castling
    rights Q") and `true_value` what the true one has ("none")."""
    move: str
    index: int
    true_fen: str
    like_fen: str = ""
    field: str = ""
    engine_value: str = ""
    true_value: str = ""
    calls: int = 0

    def sentence(self, engine: str) -> str:
        where = f"after {self.move} (move {self.index + 1} of the path)"
        if not self.like_fen:
            return (f"{where} {engine}'s position is not the true one ({self.true_fen}): from that FEN "
                    f"it counts right, reached by the moves it does not; no FEN one field away counts "
                    f"like it")
        return (f"{where} {engine}'s position counts like `{self.like_fen}` ({self.engine_value}; "
                f"the true position has {self.true_value})")

    def to_json(self) -> dict:
        return {"move": self.move, "index": self.index, "true_fen": self.true_fen, "like_fen": self.like_fen,
                "field": self.field, "engine_value": self.engine_value, "true_value": self.true_value,
                "calls": self.calls}


def same_answer(a: Answer, b: Answer) -> bool:
    """Equal divides, or equal totals where either side printed only a total."""
    if a.moves is not None and b.moves is not None:
        return a.moves == b.moves
    return a.total == b.total


def trace_state(engine: Oracle, root_fen: str, path, depth: int, reached: Answer | None = None,
                cancelled=None) -> StateTrace | None:
    """Why the engine answers differently at root + path than at that position's own FEN:
    the move that breaks its state and what its position holds instead. None when the two
    answers agree (its answer there does not depend on how the position was reached) or when
    `cancelled()` turns true. `reached` is the engine's answer at root + path when the caller
    has it. EngineError from the engine passes through."""
    path = list(path)
    if not path:
        return None
    normal, _ = lenient_fen(root_fen)
    fens = [Position.from_fen(normal)]
    for move in path:
        fens.append(fens[-1].push(move))
    fens = [p.fen() for p in fens]
    calls = 0

    def ask(fen: str, moves) -> Answer:
        nonlocal calls
        calls += 1
        return engine.answer(fen, list(moves), depth, as_written=True)

    def stop() -> bool:
        return cancelled is not None and cancelled()

    if reached is None or normal != root_fen:
        reached = ask(normal, path)       # the truth's root: a right the FEN could not hold is no state bug
    own = ask(fens[-1], [])
    if same_answer(reached, own) or stop():
        return None
    # f(i): from the true FEN after i moves, the rest of the path; f(0) is wrong, f(n) is right
    lo, hi, wrong = 0, len(path), reached
    while hi - lo > 1:
        if stop():
            return None
        mid = (lo + hi) // 2
        answer = ask(fens[mid], path[mid:])
        if same_answer(answer, own):
            hi = mid
        else:
            lo, wrong = mid, answer
    found = StateTrace(path[lo], lo, fens[hi])
    budget = MAX_CANDIDATE_CALLS
    for like, field, engine_value, true_value in _one_field_away(fens[hi], path[lo], fens[lo], path[hi:]):
        if budget == 0 or stop():
            break
        budget -= 1
        try:
            answer = ask(like, path[hi:])
        except EngineFailed:             # a FEN it cannot read (a right with no rook, say): not this one
            continue
        if same_answer(answer, wrong):
            return StateTrace(found.move, found.index, found.true_fen, like, field, engine_value, true_value,
                              calls)
    return StateTrace(found.move, found.index, found.true_fen, calls=calls)


def _one_field_away(fen: str, move: str, before: str, rest):
    """(FEN, field, its value there, the true value) for FENs one field away from `fen` (the
    position after `move` was played from `before`) on which the rest of the path can be played
    and that some tool would accept: castling rights, the en-passant square, the side to move
    (only where no moves follow), then what stands on each square the move touched."""
    fields = fen.split()
    true_rights = fields[2]
    letters = "KQkq"
    have = "" if true_rights == "-" else true_rights
    # castling rights: the nearest first (one right more or less), every subset in the end
    subsets = ["".join(c) for n in range(5) for c in combinations(letters, n)]
    subsets.sort(key=lambda s: (len(set(s) ^ set(have)), s))
    for rights in subsets:
        if rights != have and all(c in letters for c in have):
            yield from _if_playable([*fields[:2], rights or "-", *fields[3:]], rest, "castling rights",
                                    f"castling rights {rights or 'none'}", have or "none")
    # the en-passant square: each square of the rank a double push leaves it on
    rank = "6" if fields[1] == "w" else "3"
    for ep in ([f + rank for f in FILES] + ["-"]):
        if ep != fields[3]:
            yield from _if_playable([*fields[:3], ep, *fields[4:]], rest, "en passant",
                                    f"en-passant square {_none(ep)}", _none(fields[3]))
    if not rest:
        side = "b" if fields[1] == "w" else "w"
        yield from _if_playable([fields[0], side, *fields[2:]], rest, "side to move",
                                _side(side), _side(fields[1]))
    board = list(Position.from_fen(fen).board)
    for sq in _touched(move, before):
        for piece in [""] + list(PIECES):
            if piece == board[sq]:
                continue
            changed = board.copy()
            changed[sq] = piece
            name = square_name(sq)
            yield from _if_playable([placement(changed), *fields[1:]], rest, name,
                                    f"{_piece(piece)} on {name}", f"{_piece(board[sq])} there")


def _if_playable(fields: list[str], rest, *what):
    fen = " ".join(fields)
    try:
        normal, _ = lenient_fen(fen)
        Position.from_fen(normal).play(list(rest))
    except (FenError, MoveError):
        return
    yield (fen, *what)


def _touched(move: str, before: str) -> list[int]:
    """The squares a move changes: from, to, a pawn taken en passant, a castling rook's two."""
    frm, to = parse_square(move[:2]), parse_square(move[2:4])
    pos = Position.from_fen(before)
    squares = [frm, to]
    mover = pos.board[frm].upper()
    if mover == "P" and pos.ep_square == to:
        squares.append(to + (-8 if pos.white_to_move else 8))
    if mover == "K" and (abs(to - frm) == 2 or pos.board[to].upper() == "R" and
                         pos.board[to].isupper() == pos.board[frm].isupper()):
        kingside = to > frm
        rook = pos.castling_rook(kingside)
        rank = frm & 56
        squares += [sq for sq in (rook, rank + (5 if kingside else 3)) if sq not in squares]
    return squares


def _none(ep: str) -> str:
    return "none" if ep == "-" else ep


def _side(letter: str) -> str:
    return "white to move" if letter == "w" else "black to move"


def _piece(letter: str) -> str:
    if not letter:
        return "nothing"
    return f"a {'white' if letter.isupper() else 'black'} {_PIECE_NAMES[letter.lower()]}"
