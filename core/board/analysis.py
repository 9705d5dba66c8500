"""The friendly view of what the generator sees: checkers, pins, discovered-check
candidates, the squares the opponent attacks, both king zones, en-passant verdicts
with reasons, and whether the position can arise in a real game, in real square
coordinates (the kernels work mirrored when black is to move).

    >>> a = analyze(Position.from_fen("4k3/3n4/8/1B6/8/8/8/4K3 b - - 0 1"))
    >>> a.pinned
    [Pin(square=51, pinner=33, ray=(42, 33))]
    >>> explain_move(Position.from_fen("4k3/3n4/8/1B6/8/8/8/4K3 b - - 0 1"), "d7f6")
    'the knight on d7 is pinned to the king on e8 by the bishop on b5 along a diagonal'

`explain_move` says in one sentence why a move is illegal (or what a legal one is):
the mismatch finder annotates missing and extra moves with it."""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .. import kernels
from ..kernels import overlay_masks as _k
from ..kernels.attacks import bishop_attacks, rook_attacks
from ..kernels.board import FLAG_CASTLE, FLAG_EP, FLAG_PROMOTION, make, move_flag, move_to
from ..kernels.movegen import _K_EMPTY, _Q_EMPTY, king_safety
from ..kernels.tables import BETWEEN, KING, KNIGHT, LINE, PAWN_W
from .position import _UCI, Position, as_state, parse_square, square_name

PIECE_NAMES = {"P": "pawn", "N": "knight", "B": "bishop", "R": "rook", "Q": "queen", "K": "king"}
_MAX_LINES = 8           # one blocker per direction from the king at most


@dataclass(frozen=True)
class Pin:
    """Our piece on `square` is pinned to our king by `pinner`; `ray` runs from the
    square next to the pinned piece out to the pinner (included)."""
    square: int
    pinner: int
    ray: tuple


@dataclass(frozen=True)
class Shield:
    """The opponent's piece on `square` alone shields our king from its own `slider`:
    moving it gives discovered check. `ray` as in Pin."""
    square: int
    slider: int
    ray: tuple


@dataclass(frozen=True)
class KingZone:
    """A king's square and neighbours, with how many opposing pieces attack each
    (squares nobody attacks are left out of `attacks`)."""
    king: int
    squares: tuple
    attacks: dict


@dataclass(frozen=True)
class EpCapture:
    move: str
    legal: bool
    reason: str
    checks: tuple = ()       # real squares giving check once a legal capture is made: the pawn, or
                             # sliders the two vanished pawns uncover (one move lifts two blockers)


@dataclass(frozen=True)
class EpVerdict:
    square: int
    captures: tuple


@dataclass(frozen=True)
class Analysis:
    fen: str
    checkers: list
    pinned: list
    discovered: list
    attacked: list
    king_zone: dict
    ep: EpVerdict | None
    legal: list
    unreachable: list

    def to_json(self) -> dict:
        """The issue's JSON shape, squares as names (plus the unreachable notes)."""
        names = _names

        def line(x, other):
            return {"square": square_name(x.square), other: square_name(getattr(x, other)), "ray": names(x.ray)}

        return {
            "fen": self.fen,
            "checkers": names(self.checkers),
            "pinned": [line(p, "pinner") for p in self.pinned],
            "discovered": [line(d, "slider") for d in self.discovered],
            "attacked": names(self.attacked),
            "king_zone": {colour: {"king": square_name(z.king), "squares": names(z.squares),
                                   "attacks": {square_name(q): n for q, n in z.attacks.items()}}
                          for colour, z in self.king_zone.items()},
            "ep": None if self.ep is None else {
                "square": square_name(self.ep.square),
                "captures": [{"move": c.move, "legal": c.legal, "reason": c.reason} for c in self.ep.captures]},
            "legal": list(self.legal),
            "unreachable": list(self.unreachable),
        }


def _names(squares):
    return [square_name(q) for q in squares]


class _View:
    """A position with its kernel state and the mirroring between the two coordinates."""

    def __init__(self, pos: Position):
        self.pos = pos
        self.T = kernels.table()
        self.s = pos.state()
        self.flip = 0 if pos.white_to_move else 56
        self.us_name = "white" if pos.white_to_move else "black"
        self.them_name = "black" if pos.white_to_move else "white"

    def real(self, sq: int) -> int:
        return int(sq) ^ self.flip

    def squares(self, bb) -> list:
        """Real squares of a kernel bitboard, in a1..h8 order."""
        bb = int(bb)
        return sorted(self.real(q) for q in range(64) if bb >> q & 1)

    def piece(self, sq: int) -> str:
        """'the bishop on b5' for a kernel square."""
        letter = self.pos.board[self.real(sq)]
        return f"the {PIECE_NAMES[letter.upper()]} on {square_name(self.real(sq))}"

    def short(self, sq: int) -> str:
        """'bishop b5' for a kernel square."""
        letter = self.pos.board[self.real(sq)]
        return f"{PIECE_NAMES[letter.upper()]} {square_name(self.real(sq))}"

    def name(self, sq: int) -> str:
        return square_name(self.real(sq))

    def safety(self):
        return king_safety(self.T, self.s)

    def blockers(self, theirs: bool):
        out = np.zeros((_MAX_LINES, 3), np.uint64)
        n = _k.line_blockers(self.T, self.s, theirs, out)
        return [(int(out[i, 0]), int(out[i, 1]), int(out[i, 2])) for i in range(n)]

    def ray_out(self, blocker: int, slider: int) -> tuple:
        """Real squares from beside the blocker out to the slider (included), nearest first."""
        ray = int(self.T[BETWEEN + blocker * 64 + slider]) | 1 << slider
        sqs = sorted((q for q in range(64) if ray >> q & 1), key=lambda q: _distance(q, blocker))
        return tuple(self.real(q) for q in sqs)


def _distance(a: int, b: int) -> int:
    return max(abs((a & 7) - (b & 7)), abs((a >> 3) - (b >> 3)))


def _line_kind(a: int, b: int) -> str:
    if a >> 3 == b >> 3:
        return "rank"
    if a & 7 == b & 7:
        return "file"
    return "diagonal"


def analyze(pos: Position) -> Analysis:
    """Everything the overlays show for pos, computed by the generator's own kernels."""
    v = _View(pos)
    ksq, checkers, evasion, pin_o, pin_d, banned = v.safety()
    pinned = [Pin(v.real(b), v.real(p), v.ray_out(b, p)) for b, p, ray in v.blockers(False)]
    discovered = [Shield(v.real(b), v.real(p), v.ray_out(b, p)) for b, p, ray in v.blockers(True)]
    unreachable = _unreachable(v, checkers)
    return Analysis(
        fen=pos.fen(),
        checkers=v.squares(checkers),
        pinned=sorted(pinned, key=lambda p: p.square),
        discovered=sorted(discovered, key=lambda d: d.square),
        attacked=v.squares(banned),
        king_zone=_king_zones(v),
        ep=_ep(v, unreachable),
        legal=pos.legal_moves(),
        unreachable=unreachable,
    )


def _king_zones(v: _View) -> dict:
    z = _k.king_zones(v.T, v.s)
    zones = {}
    for colour_is_us, zone, planes in ((True, z[0], z[2:7]), (False, z[1], z[7:12])):
        zone, planes = int(zone), [int(p) for p in planes]
        king = int(v.s[4]) & zone & (int(v.s[5]) if colour_is_us else int(v.s[6]) ^ int(v.s[5]))
        attacks = {}
        for q in range(64):
            n = sum(((planes[i] >> q) & 1) << i for i in range(5))
            if n:
                attacks[v.real(q)] = n
        colour = v.us_name if colour_is_us else v.them_name
        zones[colour] = KingZone(v.real(king.bit_length() - 1), tuple(v.squares(zone)),
                                 dict(sorted(attacks.items())))
    return {"white": zones["white"], "black": zones["black"]}


# --- en passant -----------------------------------------------------------------
def _ep(v: _View, unreachable: list) -> EpVerdict | None:
    if v.pos.ep_square is None:
        return None
    out = np.zeros((2, 3), np.int64)
    n = _k.ep_verdicts(v.T, v.s, out)
    captures = []
    for i in range(n):
        frm, code, who = (int(x) for x in out[i])
        uci = v.name(frm) + square_name(v.pos.ep_square)
        reason = _ep_reason(v, uci, frm, code, who)
        if unreachable:
            reason += f" (this position cannot arise in a real game: {unreachable[0]}; engines disagree here)"
        legal = code <= _k.EP_BLOCKS_CHECK
        captures.append(EpCapture(uci, legal, reason, _checkers_after(v.pos, uci) if legal else ()))
    return EpVerdict(v.pos.ep_square, tuple(captures))


def _checkers_after(pos: Position, uci: str) -> tuple:
    after = _View(pos.push(uci))
    return tuple(after.squares(after.safety()[1]))


def _ep_reason(v: _View, uci: str, frm: int, code: int, who: int) -> str:
    ksq = int(v.safety()[0])
    king = square_name(v.real(ksq))
    victim = square_name(v.pos.ep_square + (-8 if v.pos.white_to_move else 8))
    # reasons read after "legal: " or "illegal: " in the report and the overlay legend
    if code == _k.EP_LEGAL:
        return f"lifting both pawns opens no line to king {king}"
    if code == _k.EP_CAPTURES_CHECKER:
        return f"captures the checking pawn {victim}"
    if code == _k.EP_BLOCKS_CHECK:
        return f"lands on {square_name(v.pos.ep_square)} between king {king} and the checking {v.short(who)}"
    if code == _k.EP_CHECK_NOT_RESOLVED:
        checkers = [q for q in range(64) if int(v.safety()[1]) >> q & 1]
        if len(checkers) > 1:
            return "does not resolve the double check from " + " and ".join(v.short(q) for q in checkers)
        return f"does not resolve the check from {v.short(who)}"
    line = _line_kind(ksq, who)
    where = f"rank {(v.real(ksq) >> 3) + 1}" if line == "rank" else f"a {line}"
    if code == _k.EP_RANK_PIN:
        return f"en passant {uci} exposes king {king} to {v.short(who)} along {where}"
    if code == _k.EP_CAPTURER_PINNED:
        return f"the capturing pawn {v.name(frm)} is pinned to king {king} by {v.short(who)} on {where}"
    return f"the captured pawn {victim} shields king {king} from {v.short(who)} on {where}"


# --- positions that cannot arise ---------------------------------------------------
_START_COUNTS = {"N": 2, "B": 2, "R": 2, "Q": 1}


def _unreachable(v: _View, checkers) -> list:
    """Why the position cannot arise in a real game (empty when nothing is known to be
    wrong). Covers python-chess's too-many-checkers and impossible-check flags, and the
    en-passant square whose double push was made with our king already in check."""
    notes = []
    board = v.pos.board
    for colour, case in (("white", str.upper), ("black", str.lower)):
        mine = [p for p in board if p and case(p) == p]
        pawns = mine.count(case("P"))
        if len(mine) > 16:
            notes.append(f"{colour} has {len(mine)} pieces (at most 16)")
        if pawns > 8:
            notes.append(f"{colour} has {pawns} pawns (at most 8)")
        promoted = sum(max(0, mine.count(case(k)) - n) for k, n in _START_COUNTS.items())
        if pawns <= 8 and promoted > 8 - pawns:
            notes.append(f"{colour} has {promoted} pieces beyond the starting set but only "
                         f"{8 - pawns} pawns missing to have promoted")
    checks = [q for q in range(64) if int(checkers) >> q & 1]
    who = " and ".join(v.short(q) for q in checks)
    ksq = int(v.safety()[0])
    if len(checks) > 2:
        notes.append(f"{len(checks)} pieces give check ({who}): one move gives at most two checks")
    elif len(checks) == 2:
        a, b = checks
        line = int(v.T[LINE + a * 64 + b])
        sliders = int(v.s[2]) | int(v.s[3])
        if line >> ksq & 1:
            notes.append(f"impossible double check: {who} check along the same line")
        elif not (sliders >> a & 1 or sliders >> b & 1):
            notes.append(f"impossible double check: {who} are not sliders, and only a slider's "
                         f"check can be discovered")
        elif v.pos.ep_square is not None:
            notes.append(f"double check ({who}) right after a double pawn push cannot happen")
    before = int(_k.check_before_double_push(v.T, v.s))
    if before:
        ep = v.pos.ep_square
        origin, dest = (ep + 8, ep - 8) if v.pos.white_to_move else (ep - 8, ep + 8)
        # the pushed pawn, put back on its origin, is not on the board any more
        culprits = " and ".join(f"pawn {square_name(origin)}" if v.real(q) == origin else v.short(q)
                                for q in range(64) if before >> q & 1)
        notes.append(f"before {v.them_name}'s double push {square_name(origin)}{square_name(dest)} the "
                     f"{v.us_name} king on {square_name(v.real(ksq))} was already in check from {culprits}")
    return notes


# --- explaining one move ----------------------------------------------------------
def explain_move(pos: Position, uci: str) -> str:
    """One short sentence: why a move is illegal in pos, or what kind of legal move it is."""
    text = uci.strip().lower()
    if not _UCI.match(text):
        return f"malformed move {uci!r}: expected UCI like e2e4 or e7e8q"
    if text in pos.legal_moves():
        return _describe_legal(_View(pos), text)
    return _why_illegal(_View(pos), text)


def _kernel_squares(v: _View, text: str):
    return parse_square(text[:2]) ^ v.flip, parse_square(text[2:4]) ^ v.flip


def _describe_legal(v: _View, text: str) -> str:
    frm, to = _kernel_squares(v, text)
    kind = v.pos.board[v.real(frm)].upper()
    target = v.pos.board[v.real(to)]
    m = v.pos.kernel_move(text)
    flag = move_flag(m)
    if flag == FLAG_CASTLE:
        what = "castling king-side" if move_to(m) == 6 else "castling queen-side"
        if v.pos.chess960:
            rook = v.pos.castling_rook(move_to(m) == 6)
            what += (f" (Chess960: king {v.name(frm)} to {v.name(move_to(m))}, rook {square_name(rook)} "
                     f"to {v.name(5 if move_to(m) == 6 else 3)})")
    elif flag == FLAG_EP:
        what = f"legal en passant capturing {v.name(to - 8)}"
    elif flag == FLAG_PROMOTION:
        promo = PIECE_NAMES[text[4].upper()]
        what = ("promotion to queen" if promo == "queen" else f"under-promotion to {promo}")
        if target:
            what += f", capturing {v.piece(to)}"
    elif target:
        what = f"legal capture of {v.piece(to)} by the {PIECE_NAMES[kind]}"
    elif kind == "P" and to - frm == 16:
        what = f"legal double push, leaving {v.name(frm + 8)} as the en-passant square"
    else:
        what = f"legal {PIECE_NAMES[kind]} move"
    if king_safety(v.T, as_state(make(v.T, v.s, np.uint16(m))))[1]:
        what += ", giving check"
    return what


def _why_illegal(v: _View, text: str) -> str:
    frm, to = _kernel_squares(v, text)
    fname, tname = text[:2], text[2:4]
    letter = v.pos.board[v.real(frm)]
    if not letter:
        return f"no piece on {fname}"
    if (letter.isupper()) != v.pos.white_to_move:
        return f"{fname} holds a {v.them_name} {PIECE_NAMES[letter.upper()]}, but {v.us_name} is to move"
    kind = letter.upper()
    if frm == to:
        return f"the {PIECE_NAMES[kind]} on {fname} would not move ({fname} to {tname})"
    target = v.pos.board[v.real(to)]
    if v.pos.chess960 and kind == "K" and to < 8 and target and target.upper() == "R" \
            and target.isupper() == v.pos.white_to_move:
        return _why_not_castle_960(v, text, frm, to)
    if kind == "K" and frm == 4 and to in (2, 6):
        castle = [m for m in v.pos._kernel_moves() if move_flag(m) == FLAG_CASTLE and move_to(m) == to]
        if v.pos.chess960 and castle:
            return f"in Chess960 castling is written king takes rook: {v.pos.move_to_uci(castle[0])}, not {text}"
        return _why_not_castle(v, to)
    if target and target.isupper() == v.pos.white_to_move:
        return f"{tname} is occupied by our own {PIECE_NAMES[target.upper()]}"
    promo = len(text) == 5
    if promo and not (kind == "P" and to >= 56):
        return "only a pawn reaching the last rank can promote"
    problem = _movement_problem(v, kind, frm, to)
    if problem:
        return problem
    if kind == "P" and to >= 56 and not promo:
        return f"a pawn reaching the last rank must promote: add q, r, b or n (e.g. {text}q)"
    ksq, checkers, evasion, pin_o, pin_d, banned = v.safety()
    king = v.name(ksq)
    if kind == "K":
        occ = v.s[6] ^ (np.uint64(1) << np.uint64(frm))
        att = int(_k.attackers_to(v.T, v.s, to, occ))
        return f"the king would be in check on {tname} from " + \
            " and ".join(v.piece(q) for q in range(64) if att >> q & 1)
    checks = [q for q in range(64) if int(checkers) >> q & 1]
    if len(checks) > 1:
        return "double check from " + " and ".join(v.piece(q) for q in checks) + ": only the king may move"
    if v.pos.ep_square is not None and kind == "P" and v.real(to) == v.pos.ep_square:
        out = np.zeros((2, 3), np.int64)
        for i in range(_k.ep_verdicts(v.T, v.s, out)):
            if int(out[i, 0]) == frm:
                return _ep_reason(v, text, frm, int(out[i, 1]), int(out[i, 2]))
    if checks and not int(evasion) >> to & 1:
        return f"does not resolve the check from {v.piece(checks[0])}"
    for b, p, ray in v.blockers(False):
        if b == frm and not ray >> to & 1:
            return (f"the {PIECE_NAMES[kind]} on {fname} is pinned to the king on {king} by {v.piece(p)} "
                    f"along a {_line_kind(ksq, p)}")
    return f"illegal for a reason this explainer does not know ({text} in {v.pos.fen()})"


def _movement_problem(v: _View, kind: str, frm: int, to: int) -> str | None:
    """Why the piece cannot go there at all, ignoring checks and pins (None if it can)."""
    T, occ = v.T, int(v.s[6])
    fname, tname = v.name(frm), v.name(to)
    name = PIECE_NAMES[kind]
    if kind == "N":
        return None if int(T[KNIGHT + frm]) >> to & 1 else f"a knight on {fname} cannot reach {tname}"
    if kind == "K":
        return None if int(T[KING + frm]) >> to & 1 else \
            f"a king on {fname} moves one square (castling is e1g1/e1c1 or e8g8/e8c8)"
    if kind in "BRQ":
        straight = _line_kind(frm, to) in ("rank", "file")
        if not int(T[LINE + frm * 64 + to]) or (kind == "B" and straight) or (kind == "R" and not straight):
            how = {"B": "along diagonals", "R": "along ranks and files", "Q": "along ranks, files and diagonals"}
            return f"a {name} on {fname} cannot reach {tname}: it moves {how[kind]}"
        reach = rook_attacks(T, frm, np.uint64(occ)) if straight else bishop_attacks(T, frm, np.uint64(occ))
        if not int(reach) >> to & 1:
            block = int(T[BETWEEN + frm * 64 + to]) & occ
            first = min((q for q in range(64) if block >> q & 1), key=lambda q: _distance(q, frm))
            return f"the {name} on {fname} is blocked by {v.piece(first)}"
        return None
    # pawns: the side to move always plays up the board here
    if to == frm + 8:
        return f"the pawn on {fname} is blocked by {v.piece(to)}" if occ >> to & 1 else None
    if to == frm + 16:
        if frm >> 3 != 1:
            return f"only a pawn on its starting rank can advance two squares ({fname} cannot)"
        for q in (frm + 8, to):
            if occ >> q & 1:
                return f"the pawn on {fname} is blocked by {v.piece(q)}"
        return None
    if int(T[PAWN_W + frm]) >> to & 1:
        ep = v.pos.ep_square
        if not occ >> to & 1 and (ep is None or v.real(to) != ep):
            return f"a pawn captures diagonally only onto a piece or the en-passant square; {tname} is empty"
        return None
    return f"a pawn on {fname} cannot move to {tname}"


def _why_not_castle_960(v: _View, text: str, ksq: int, rsq: int) -> str:
    """Why king-takes-rook `text` is not a legal Chess960 castling (kernel squares ksq, rsq)."""
    kingside = rsq > ksq
    side, right = ("king", 1) if kingside else ("queen", 2)
    rank = 1 if v.pos.white_to_move else 8
    rook = v.name(rsq)
    if not int(v.s[8]) & right:
        return f"{v.us_name} has no {side}-side castling right (castling {text} takes the rook on {rook})"
    if v.pos.castling_rook(kingside) != v.real(rsq):
        return (f"{v.us_name} castles {side}-side with the rook on {square_name(v.pos.castling_rook(kingside))}, "
                f"not the one on {rook}")
    checkers = int(v.safety()[1])
    if checkers:
        return f"cannot castle out of check (check from {v.piece(checkers.bit_length() - 1)})"
    T, occ = v.T, int(v.s[6])
    kto, rto = (6, 5) if kingside else (2, 3)
    lifted = occ ^ (1 << ksq) ^ (1 << rsq)
    king_path = int(T[BETWEEN + ksq * 64 + kto]) | 1 << kto
    rook_path = int(T[BETWEEN + rsq * 64 + rto]) | 1 << rto
    blocked = (king_path | rook_path) & lifted
    if blocked:
        q = min((q for q in range(64) if blocked >> q & 1), key=lambda q: _distance(q, ksq))
        return (f"castling {text} is blocked by {v.piece(q)} (every square king and rook cross must be "
                f"empty but for the two of them)")
    for q in sorted((q for q in range(64) if king_path >> q & 1), key=lambda q: _distance(q, ksq)):
        attackers = int(_k.attackers_to(T, v.s, q, np.uint64(lifted)))
        if not attackers:
            continue
        with_rook = int(_k.attackers_to(T, v.s, q, np.uint64(lifted | 1 << rsq)))
        pinners = attackers & ~with_rook
        if pinners:
            return (f"castling {text}: the rook on {rook} is pinned along rank {rank} by "
                    f"{v.piece(pinners.bit_length() - 1)}")
        by = " and ".join(v.piece(a) for a in range(64) if attackers >> a & 1)
        if q == kto:
            return f"castling {text}: the king would land on {v.name(q)}, attacked by {by}"
        return f"castling through {v.name(q)}, attacked by {by}"
    return f"castling {text} is illegal here"


def _why_not_castle(v: _View, to: int) -> str:
    side, right, empty = ("king", 1, _K_EMPTY) if to == 6 else ("queen", 2, _Q_EMPTY)
    ksq, checkers, evasion, pin_o, pin_d, banned = v.safety()
    if not int(v.s[8]) & right:
        corner = 7 if to == 6 else 0
        if v.pos.board[v.real(corner)] != ("R" if v.pos.white_to_move else "r"):
            return f"{v.us_name} has no {side}-side castling right (and no rook on {v.name(corner)})"
        return f"{v.us_name} has no {side}-side castling right"
    if checkers:
        q = int(checkers).bit_length() - 1
        return f"cannot castle out of check (check from {v.piece(q)})"
    blocked = int(v.s[6]) & int(empty)
    if blocked:
        return f"castling {side}-side is blocked by {v.piece((blocked & -blocked).bit_length() - 1)}"
    for q in ((5, 6) if to == 6 else (3, 2)):            # the square crossed, then the landing square
        if int(banned) >> q & 1:
            att = int(_k.attackers_to(v.T, v.s, q, v.s[6]))
            by = " and ".join(v.piece(a) for a in range(64) if att >> a & 1)
            if q == to:
                return f"castling {side}-side: the king would land on attacked square {v.name(q)} ({by})"
            return f"castling through attacked square {v.name(q)} (attacked by {by})"
    return f"castling {side}-side is illegal here"
