"""A state bug traced to the move that breaks it and the field the engine's position gets wrong.

    >>> trace = trace_state(make_oracle("perftree:tests/engines/rook_capture_keeps_right.py"),
    ...                     Request.of("4k3/8/8/8/8/8/1b6/RR2K3 b Q - 0 1", ["b2a1", "b1a1", "e8e7"]), 1)
    >>> trace.move, trace.like_fen, trace.engine_value, trace.true_value
    ('b2a1', '4k3/8/8/8/8/8/8/bR2K3 w Q - 0 2', 'castling rights Q', 'none')

An engine whose move list at a position depends on how the position was reached keeps state its
make does not update (or updates wrongly). Asked about the position as the root FEN + the moves
and as the position's own FEN, it answers differently; starting from the true FEN after each
prefix of the path and playing the rest, the answers switch from the wrong one to the right one
after exactly one move: bisection finds it in log2(plies) engine calls. What the engine's position
then holds is named by asking about FENs one field away from the true one until one gives the
engine's wrong answer: first, at that move and at every move after it, the fields a make or an
unmake leaves stale (an en-passant square kept or not set, a castling right kept or lost, the
castled rook left in its corner, the side to move, the halfmove clock); then, at that move, any
castling rights, any en-passant square and what stands on each square the move touched. A
stale field may only be written as a FEN some moves later (an en-passant square kept while the
other side moves is no FEN field): the trace names the first move after which one counts like it.
"""
from __future__ import annotations

from dataclasses import dataclass
from itertools import combinations

import chess

from ..board.position import FILES, PIECES, Position, parse_square, placement, square_name
from ..engines.oracle import Answer, Oracle, Request
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
    at_move: str = ""        # the move after which the position counts like `like_fen` ("": `move`)
    at_index: int = -1

    def sentence(self, engine: str) -> str:
        where = f"after {self.move} (move {self.index + 1} of the path)"
        if not self.like_fen:
            return (f"{where} {engine}'s position is not the true one ({self.true_fen}): from that FEN "
                    f"it counts right, reached by the moves it does not; no FEN one field away counts "
                    f"like it")
        like = f"counts like `{self.like_fen}` ({self.engine_value}; the true position has {self.true_value})"
        if self.at_index <= self.index:
            return f"{where} {engine}'s position {like}"
        return (f"{where} {engine}'s position is not the true one (from the true FEN after it, it counts "
                f"right); after {self.at_move} (move {self.at_index + 1}) it {like}")

    def to_json(self) -> dict:
        return {"move": self.move, "index": self.index, "true_fen": self.true_fen, "like_fen": self.like_fen,
                "field": self.field, "engine_value": self.engine_value, "true_value": self.true_value,
                "calls": self.calls, "at_move": self.at_move or self.move,
                "at_index": self.index if self.at_index < 0 else self.at_index}


def same_answer(a: Answer, b: Answer) -> bool:
    """Equal divides, or equal totals where either side printed only a total."""
    if a.moves is not None and b.moves is not None:
        return a.moves == b.moves
    return a.total == b.total


def trace_state(engine: Oracle, request: Request, depth: int, reached: Answer | None = None,
                cancelled=None) -> StateTrace | None:
    """Why the engine answers differently at `request` (its root + its moves, the path) than at
    that position's own FEN: the move that breaks its state and what its position holds instead.
    None when the two answers agree (its answer there does not depend on how the position was
    reached) or when `cancelled()` turns true. `reached` is the engine's answer to `request` as
    written when the caller has it. EngineError from the engine passes through."""
    path = list(request.moves)
    if not path:
        return None
    positions = [request.start]          # the true position after each prefix of the path, played on
    for move in path:
        positions.append(positions[-1].push(move))
    fens = [p.fen() for p in positions]
    calls = 0

    def ask(asked: Request, as_written: bool = True) -> Answer:
        nonlocal calls
        calls += 1
        return engine.answer(asked, depth, as_written=as_written)

    def stop() -> bool:
        return cancelled is not None and cancelled()

    if reached is None or request.warnings:
        # the truth's root: a right the FEN could not hold is no state bug
        reached = ask(request.from_root().then(*path), as_written=False)
    own = ask(Request.at(positions[-1]))
    if same_answer(reached, own) or stop():
        return None
    # f(i): from the true FEN after i moves, the rest of the path; f(0) is wrong, f(n) is right
    lo, hi, wrong = 0, len(path), reached
    while hi - lo > 1:
        if stop():
            return None
        mid = (lo + hi) // 2
        answer = ask(Request.at(positions[mid], path[mid:]))
        if same_answer(answer, own):
            hi = mid
        else:
            lo, wrong = mid, answer
    found = StateTrace(path[lo], lo, fens[hi])
    budget, tried = MAX_CANDIDATE_CALLS, set()
    for at, like, asked, field, engine_value, true_value in _suspects(positions, fens, path, lo):
        if budget == 0 or stop():
            break
        if (at, like) in tried:
            continue
        tried.add((at, like))
        budget -= 1
        try:
            answer = ask(asked)
        except EngineFailed:             # a FEN it cannot read (a right with no rook, say): not this one
            continue
        if same_answer(answer, wrong):
            return StateTrace(found.move, found.index, found.true_fen, like, field, engine_value, true_value,
                              calls, path[at], at)
    return StateTrace(found.move, found.index, found.true_fen, calls=calls)


def _suspects(positions: list[Position], fens: list[str], path: list[str], lo: int):
    """(index of the move after which, FEN, its Request with the rest of the path, field, engine's
    value, true value): the stale fields after path[lo] and after every later move, then every
    field one away after path[lo]."""
    for at in range(lo, len(path)):
        for like in _stale_fields(positions, fens, path, at):
            yield (at, *like)
    for like in _one_field_away(positions[lo + 1], path[lo], positions[lo], path[lo + 1:]):
        yield (lo, *like)


def _stale_fields(positions: list[Position], fens: list[str], path: list[str], at: int):
    """FENs after path[at] with one field a make or an unmake can leave wrong: an en-passant
    square of an earlier position kept (or the true one not set), a castling right lost on the
    path kept (or one the position has, lost), a castled rook back in its corner, the other side
    to move (where no moves follow), the halfmove clock not reset (or reset)."""
    fen, rest = fens[at + 1], path[at + 1:]
    fields = fen.split()
    earlier = [f.split() for f in fens[:at + 1]]
    # en passant: a square an earlier position had, for the side to move now; or none set
    rank = "6" if fields[1] == "w" else "3"
    kept = []
    for old in reversed(earlier):
        if old[3] != "-" and old[3][1] == rank and old[3] != fields[3] and old[3] not in kept:
            kept.append(old[3])
    for ep in kept + (["-"] if fields[3] != "-" else []):
        yield from _if_playable([*fields[:3], ep, *fields[4:]], rest, "en passant",
                                f"en passant {_none(ep)}", _none(fields[3]))
    # castling: each right lost on the way kept, each right the position has lost
    have = "" if fields[2] == "-" else fields[2]
    if all(c in "KQkq" for c in have):
        lost = [c for c in "KQkq" if c not in have and any(c in old[2] for old in earlier)]
        for rights, value, true in ([(have + c, f"castling right {c}", "lost it") for c in lost] +
                                    [(have.replace(c, ""), f"no castling right {c}", c) for c in have]):
            rights = "".join(c for c in "KQkq" if c in rights) or "-"
            yield from _if_playable([*fields[:2], rights, *fields[3:]], rest, "castling rights", value, true)
    # the castled rook: still in its corner
    yield from _castled_rook(positions, path, at, rest)
    if not rest:
        side = "b" if fields[1] == "w" else "w"
        yield from _if_playable([fields[0], side, *fields[2:]], rest, "side to move",
                                _side(side), _side(fields[1]))
    # the halfmove clock: not reset by a capture or pawn move, or reset by another
    before = int(earlier[-1][4]) if earlier[-1][4].isdigit() else 0
    clock = str(before + 1) if fields[4] == "0" else "0"
    yield from _if_playable([*fields[:4], clock, *fields[5:]], rest, "halfmove clock",
                            f"halfmove clock {clock}", fields[4])


def _castled_rook(positions: list[Position], path: list[str], at: int, rest):
    """After path[at], each castling on the path so far whose rook still stands where castling
    put it, with the rook in its corner instead (standard chess: a Chess960 rook has no corner)."""
    if positions[0].chess960:
        return
    board = positions[0].chess_board()
    rooks = []                   # (where castling put it, its corner)
    for uci in path[:at + 1]:
        move = chess.Move.from_uci(uci)
        if board.is_castling(move):
            kingside = chess.square_file(move.to_square) > chess.square_file(move.from_square)
            rank = chess.square_rank(move.from_square)
            rooks.append((chess.square(5 if kingside else 3, rank), chess.square(7 if kingside else 0, rank)))
        board.push(move)
    pos = positions[at + 1]
    fields = pos.fen().split()
    for went, corner in rooks:
        if pos.board[went].upper() != "R" or pos.board[corner]:
            continue
        changed = list(pos.board)
        changed[corner], changed[went] = changed[went], ""
        yield from _if_playable([placement(changed), *fields[1:]], rest, "castled rook",
                                f"the castled rook on {square_name(corner)}",
                                f"it on {square_name(went)}")


def _one_field_away(pos: Position, move: str, before: Position, rest):
    """(FEN, its Request, field, its value there, the true value) for FENs one field away from
    `pos` (the position after `move` was played from `before`) on which the rest of the path can
    be played and that some tool would accept: castling rights, the en-passant square, the side to
    move (only where no moves follow), then what stands on each square the move touched."""
    fields = pos.fen().split()
    true_rights = fields[2]
    letters = "KQkq"
    have = "" if true_rights == "-" else true_rights
    # castling rights: the nearest first (one right more or less), every subset in the end
    subsets = ["".join(c) for n in range(5) for c in combinations(letters, n)]
    subsets.sort(key=lambda s: (len(set(s) ^ set(have)), s))
    for rights in subsets:
        if rights != have and all(c in letters for c in have):
            yield from _if_playable([*fields[:2], rights or "-", *fields[3:]], rest, "castling rights",
                                    *_rights_difference(rights, have))
    # the en-passant square: each square of the rank a double push leaves it on
    rank = "6" if fields[1] == "w" else "3"
    for ep in ([f + rank for f in FILES] + ["-"]):
        if ep != fields[3]:
            yield from _if_playable([*fields[:3], ep, *fields[4:]], rest, "en passant",
                                    f"en passant {_none(ep)}", _none(fields[3]))
    if not rest:
        side = "b" if fields[1] == "w" else "w"
        yield from _if_playable([fields[0], side, *fields[2:]], rest, "side to move",
                                _side(side), _side(fields[1]))
    board = list(pos.board)
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
    """A FEN built one field away, read into its Request (the engine is asked about it as
    written) when some tool accepts it and the rest of the path can be played on it."""
    fen = " ".join(fields)
    try:
        request = Request.of(fen, rest)
    except (FenError, MoveError):
        return
    yield (fen, request, *what)


def _touched(move: str, pos: Position) -> list[int]:
    """The squares a move changes (played in `pos`): from, to, a pawn taken en passant, a castling
    rook's two."""
    frm, to = parse_square(move[:2]), parse_square(move[2:4])
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


def _rights_difference(rights: str, have: str) -> tuple[str, str]:
    """(what the engine's rights hold, what the true ones have), said by what differs: a count
    that cannot tell whether another right is kept too makes no claim about it."""
    more = [c for c in rights if c not in have]
    fewer = [c for c in have if c not in rights]
    engine = ([f"castling right{'s' * (len(more) > 1)} {' and '.join(more)}"] if more else []) + \
             ([f"no castling right {' or '.join(fewer)}"] if fewer else [])
    true = ([f"lost {'them' if len(more) > 1 else 'it'}"] if more else []) + \
           ([f"{' and '.join(fewer)}"] if fewer else [])
    return " but ".join(engine), " and ".join(true)


def _none(ep: str) -> str:
    return "none" if ep == "-" else ep


def _side(letter: str) -> str:
    return "white to move" if letter == "w" else "black to move"


def _piece(letter: str) -> str:
    if not letter:
        return "nothing"
    return f"a {'white' if letter.isupper() else 'black'} {_PIECE_NAMES[letter.lower()]}"
