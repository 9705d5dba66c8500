"""Position analysis against python-chess: checkers, pins and their pinners, discovered-check
candidates, attacked squares with the king removed, king-zone attacker counts, en-passant
verdicts, unreachable positions, and explain_move's reasons."""
import random

import chess
import pytest

from perftscope import resources
from perftscope.core import kernels
from perftscope.core.board.analysis import analyze, explain_move
from perftscope.core.kernels import overlay_masks as ka
from perftscope.core.board.position import Position
from perftscope.core.counting.suites import load

from ..random_positions import random_boards

KIWIPETE = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"
STARTS = (chess.STARTING_FEN, KIWIPETE,
          "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
          "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
          "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8")


def fen_of(board):
    # keep the en-passant square whenever a capture onto it is pseudo-legal, legal or not
    return board.fen(en_passant="xfen")


def line_blockers(board):
    """(ours pinned, theirs shielding) as {blocker: slider}, Stockfish's slider_blockers
    written with python-chess primitives."""
    king = board.king(board.turn)
    them = not board.turn
    ours, theirs = {}, {}
    for slider in chess.SquareSet(board.pieces_mask(chess.QUEEN, them) | board.pieces_mask(chess.ROOK, them) |
                                  board.pieces_mask(chess.BISHOP, them)):
        piece = board.piece_type_at(slider)
        straight = chess.square_rank(slider) == chess.square_rank(king) or \
            chess.square_file(slider) == chess.square_file(king)
        if not chess.ray(king, slider) or (piece == chess.BISHOP and straight) or \
                (piece == chess.ROOK and not straight):
            continue
        between = chess.between(king, slider) & board.occupied
        if chess.popcount(between) == 1:
            sq = chess.lsb(between)
            (ours if board.color_at(sq) == board.turn else theirs)[sq] = slider
    return ours, theirs


def test_masks_match_python_chess_on_random_play():
    boards = random_boards(3, 300, plies=90, starts=STARTS)
    for b in boards:
        a = analyze(Position.from_fen(fen_of(b)))
        assert a.checkers == sorted(b.checkers()), b.fen()
        ours, theirs = line_blockers(b)
        assert {p.square: p.pinner for p in a.pinned} == ours, b.fen()
        assert {p.square for p in a.pinned} == {sq for sq in chess.SQUARES
                                                 if b.color_at(sq) == b.turn and b.is_pinned(b.turn, sq)
                                                 and sq != b.king(b.turn)}
        assert {d.square: d.slider for d in a.discovered} == theirs, b.fen()
        for p in a.pinned + a.discovered:
            slider = p.pinner if hasattr(p, "pinner") else p.slider
            assert set(p.ray) == set(chess.SquareSet(chess.between(p.square, slider))) | {slider}
        no_king = b.copy()
        no_king.remove_piece_at(b.king(b.turn))
        assert a.attacked == [sq for sq in chess.SQUARES if no_king.is_attacked_by(not b.turn, sq)], b.fen()
        for colour, name in ((chess.WHITE, "white"), (chess.BLACK, "black")):
            z = a.king_zone[name]
            king = b.king(colour)
            zone = sorted(chess.SquareSet(chess.BB_KING_ATTACKS[king]) | {king})
            assert z.king == king and list(z.squares) == zone
            counts = {sq: len(b.attackers(not colour, sq)) for sq in zone}
            assert z.attacks == {sq: n for sq, n in counts.items() if n}, (b.fen(), name)
        assert sorted(a.legal) == sorted(m.uci() for m in b.legal_moves)
        assert a.unreachable == [], (b.fen(), a.unreachable)


def test_single_square_attack_test_matches_python_chess():
    T = kernels.table()
    for b in random_boards(11, 60, plies=90, starts=STARTS):
        pos = Position.from_fen(fen_of(b))
        P, N, D, O, K, us, occ = pos.state()[:7]
        flip = 0 if b.turn else 56
        got = [sq for sq in chess.SQUARES if ka.is_attacked(T, P, N, D, O, K, occ ^ us, sq ^ flip, occ)]
        assert got == [sq for sq in chess.SQUARES if ka.attackers_to(T, pos.state(), sq ^ flip, occ)]
        assert got == [sq for sq in chess.SQUARES if b.is_attacked_by(not b.turn, sq)], b.fen()


def sparse_ep_boards(seed, count):
    """Random sparse positions where black has just double-pushed beside a white pawn:
    rank pins, diagonal pins, checks, and some positions no game can reach."""
    rng = random.Random(seed)
    out = []
    while len(out) < count:
        b = chess.Board(None)
        f = rng.randrange(8)
        b.set_piece_at(chess.square(f, 6), chess.Piece(chess.PAWN, chess.BLACK))
        for side in (-1, 1):
            if 0 <= f + side < 8 and rng.random() < 0.7:
                b.set_piece_at(chess.square(f + side, 4), chess.Piece(chess.PAWN, chess.WHITE))
        free = [sq for sq in chess.SQUARES if b.piece_at(sq) is None and sq not in
                (chess.square(f, 5), chess.square(f, 4))]
        rng.shuffle(free)
        # kings favour rank 5, where the rank pin lives
        rank_pin = rng.random() < 0.5
        kings = [sq for sq in free if chess.square_rank(sq) == 4] if rank_pin else free
        b.set_piece_at(kings[0], chess.Piece(chess.KING, chess.WHITE))
        free.remove(kings[0])
        if rank_pin:
            sq = next(sq for sq in free if chess.square_rank(sq) == 4)
            free.remove(sq)
            b.set_piece_at(sq, chess.Piece(rng.choice((chess.ROOK, chess.QUEEN)), chess.BLACK))
        b.set_piece_at(free.pop(), chess.Piece(chess.KING, chess.BLACK))
        for _ in range(rng.randrange(1, 5)):
            b.set_piece_at(free.pop(), chess.Piece(rng.choice((chess.ROOK, chess.BISHOP, chess.QUEEN, chess.KNIGHT)),
                                                   rng.choice((chess.WHITE, chess.BLACK))))
        b.turn = chess.BLACK
        push = chess.Move(chess.square(f, 6), chess.square(f, 4))
        if not b.is_valid() or push not in b.legal_moves:
            continue
        b.push(push)
        if chess.BB_PAWN_ATTACKS[chess.BLACK][b.ep_square] & b.pawns & b.occupied_co[chess.WHITE]:
            out.append(b)
    return out


def test_ep_verdicts_match_python_chess():
    boards = sparse_ep_boards(7, 400)
    seen = set()
    for b in boards:
        a = analyze(Position.from_fen(fen_of(b)))
        assert a.ep is not None and a.ep.square == b.ep_square
        legal = {m.uci() for m in b.legal_moves}
        capturers = chess.SquareSet(chess.BB_PAWN_ATTACKS[chess.BLACK][b.ep_square] & b.pawns & b.occupied_co[chess.WHITE])
        assert {c.move[:2] for c in a.ep.captures} == {chess.square_name(sq) for sq in capturers}
        for c in a.ep.captures:
            assert c.legal == (c.move in legal), (b.fen(), c)
            legal_phrases = ("lifting both pawns opens no line", "captures the checking pawn", "lands on ")
            assert c.reason.startswith(legal_phrases) == c.legal, c
            seen.add(c.reason.split(" ")[1] if not c.legal else "legal")
            if not c.legal:
                assert explain_move(Position.from_fen(fen_of(b)), c.move) == c.reason.split(" (this")[0]
            # what checks the other king once the capture is made: python-chess's checkers after it
            after = b.copy()
            if c.legal:
                after.push_uci(c.move)
            assert set(c.checks) == (set(after.checkers()) if c.legal else set()), (b.fen(), c)
    # the generator met every kind of verdict: legal, rank pin, pinned capturer, unresolved check
    assert {"legal", "passant", "capturing", "not"} <= seen, seen


def test_ep_edge_cases_file():
    entries = load(resources.path("ep_edge_cases.epd"))
    assert len(entries) >= 9
    for e in entries:
        b = chess.Board(e.full_fen)
        a = analyze(Position.from_fen(e.full_fen))
        legal = {m.uci() for m in b.legal_moves}
        assert a.ep is not None and a.ep.captures
        for c in a.ep.captures:
            assert c.legal == (c.move in legal), e.note
        note = e.note.lower()
        reasons = " ".join(c.reason for c in a.ep.captures)
        if "horizontal pin" in note:
            assert "exposes king" in reasons and "along rank" in reasons
        if "diagonally pinned" in note:
            assert "is pinned to king" in reasons and "diagonal" in reasons
        if "unreachable" in note or "impossible" in note:
            assert a.unreachable and "cannot arise in a real game" in reasons
        else:
            assert a.unreachable == [], e.note
    cpw3 = analyze(Position.from_fen("8/2p5/3p4/KP5r/1R2Pp1k/8/6P1/8 b - e3 0 1"))
    assert cpw3.ep.captures[0].reason == "en passant f4e3 exposes king h4 to rook b4 along rank 4"
    pinned = analyze(Position.from_fen("8/8/4k3/8/2pP4/8/B5K1/8 b - d3 0 1"))
    assert pinned.ep.captures[0].reason == "the capturing pawn c4 is pinned to king e6 by bishop a2 on a diagonal"


def test_unreachable_agrees_with_python_chess_status():
    flags = chess.STATUS_TOO_MANY_CHECKERS | chess.STATUS_IMPOSSIBLE_CHECK
    fens = [e.full_fen for e in load(resources.path("python-chess_tricky.perft"))
            if not e.name.startswith("xfen") and e.name != "asymmetrical-and-king-on-h"]
    fens += [fen_of(b) for b in sparse_ep_boards(19, 150)]
    fens += ["4k3/8/8/8/8/8/8/R3K2R b KQ - 0 1",                # plain single check
             "r3k3/8/8/8/8/8/3n4/4K3 w - - 0 1",                # rook + knight: fine
             "4k3/8/8/8/8/5n2/3p4/4K3 w - - 0 1",               # pawn + knight double check
             "4k3/8/8/8/8/2b5/8/r3K2r w - - 0 1",               # three checkers
             "4k3/4r3/8/8/8/8/8/4K2r w - - 0 1"]                # rook e7 with a rook h1: two rooks
    flagged = 0
    for fen in fens:
        board = chess.Board(fen)
        a = analyze(Position.from_fen(fen))
        if board.status() & flags:
            flagged += 1
            assert a.unreachable, fen
    assert flagged >= 4
    assert any("neither" in n or "not sliders" in n for n in analyze(
        Position.from_fen("4k3/8/8/8/8/5n2/3p4/4K3 w - - 0 1")).unreachable)
    assert analyze(Position.from_fen("r3k3/8/8/8/8/8/3n4/4K3 w - - 0 1")).unreachable == []


def test_json_shape():
    a = analyze(Position.from_fen("4k3/3n4/8/1B6/8/8/8/4K3 b - - 0 1")).to_json()
    assert a["pinned"] == [{"square": "d7", "pinner": "b5", "ray": ["c6", "b5"]}]
    assert set(a) >= {"fen", "checkers", "pinned", "discovered", "attacked", "king_zone", "ep", "legal"}
    assert a["ep"] is None and set(a["king_zone"]) == {"white", "black"}
    assert a["king_zone"]["black"]["attacks"] == {"d7": 1}       # the bishop behind the pinned knight
    ep = analyze(Position.from_fen("3k4/8/8/K1Pp3r/8/8/8/8 w - d6 0 2")).to_json()["ep"]
    assert ep == {"square": "d6", "captures": [
        {"move": "c5d6", "legal": False, "reason": "en passant c5d6 exposes king a5 to rook h5 along rank 5"}]}


# --- explain_move ------------------------------------------------------------------
@pytest.mark.parametrize("fen, move, expected", [
    ("4k3/3n4/8/1B6/8/8/8/4K3 b - - 0 1", "d7f6",
     "the knight on d7 is pinned to the king on e8 by the bishop on b5 along a diagonal"),
    ("4k3/8/8/8/8/8/8/r3K3 w - - 0 1", "e1d1", "the king would be in check on d1 from the rook on a1"),
    ("4k3/8/8/8/8/8/4q3/4K3 w - - 0 1", "e1f1", "the king would be in check on f1 from the queen on e2"),
    ("4k3/8/8/8/2b5/8/8/4K2R w K - 0 1", "e1g1", "castling through attacked square f1 (attacked by the bishop on c4)"),
    ("4k3/8/8/8/8/8/8/4K2R w - - 0 1", "e1g1", "white has no king-side castling right"),
    ("4k3/8/8/8/8/8/8/R3K1NR w KQ - 0 1", "e1g1", "castling king-side is blocked by the knight on g1"),
    ("4k3/8/8/8/8/8/4r3/R3K2R w KQ - 0 1", "e1c1", "cannot castle out of check (check from the rook on e2)"),
    ("4k3/8/8/8/8/8/6r1/4K2R w K - 0 1", "e1g1",
     "castling king-side: the king would land on attacked square g1 (the rook on g2)"),
    ("8/2p5/3p4/KP5r/1R2Pp1k/8/6P1/8 b - e3 0 1", "f4e3", "en passant f4e3 exposes king h4 to rook b4 along rank 4"),
    ("4k3/8/8/8/8/5n2/8/3RK3 w - - 0 1", "d1d5", "does not resolve the check from the knight on f3"),
    ("4k3/8/8/8/8/8/8/4K3 w - - 0 1", "e2e4", "no piece on e2"),
    ("4k3/8/8/8/8/8/8/4K3 w - - 0 1", "e8e7", "e8 holds a black king, but white is to move"),
    ("4k3/8/8/8/8/8/8/4K3 w - - 0 1", "e2e4x", "malformed move 'e2e4x': expected UCI like e2e4 or e7e8q"),
    ("4k3/8/8/8/8/8/8/4KN2 w - - 0 1", "f1f3", "a knight on f1 cannot reach f3"),
    ("4k3/8/8/8/8/8/3P4/2B1K3 w - - 0 1", "c1e3", "the bishop on c1 is blocked by the pawn on d2"),
    ("4k3/8/8/8/8/8/8/2B1K3 w - - 0 1", "c1c4", "a bishop on c1 cannot reach c4: it moves along diagonals"),
    ("4k3/P7/8/8/8/8/8/4K3 w - - 0 1", "a7a8", "a pawn reaching the last rank must promote: add q, r, b or n (e.g. a7a8q)"),
    ("4k3/P7/8/8/8/8/8/4K3 w - - 0 1", "a7a8n", "under-promotion to knight"),
    ("4k3/P7/8/8/8/8/8/4K3 w - - 0 1", "a7a8q", "promotion to queen, giving check"),
    ("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 2", "e5d6", "legal en passant capturing d5"),
    ("4k3/8/8/8/8/8/8/4K2R w K - 0 1", "e1g1", "castling king-side"),
    ("4k3/8/8/8/8/3p4/8/4K3 w - - 0 1", "e1e2", "the king would be in check on e2 from the pawn on d3"),
    ("4k3/8/8/8/4p3/8/4P3/4K3 w - - 0 1", "e2e3", "legal pawn move"),
    ("4k3/8/8/8/8/4p3/4P3/4K3 w - - 0 1", "e2e4", "the pawn on e2 is blocked by the pawn on e3"),
    ("4k3/8/8/8/8/8/4P3/4K3 w - - 0 1", "e2d3",
     "a pawn captures diagonally only onto a piece or the en-passant square; d3 is empty"),
    ("4k3/8/8/8/8/8/8/4K3 b - - 0 1", "e8g8", "black has no king-side castling right (and no rook on h8)"),
])
def test_explain_move(fen, move, expected):
    assert explain_move(Position.from_fen(fen), move) == expected


def test_explain_double_check():
    text = explain_move(Position.from_fen("4k3/8/8/8/8/5n2/8/3RK2r w - - 0 1"), "d1d2")
    assert text.startswith("double check from") and text.endswith("only the king may move")


def test_explain_every_rejected_move_of_random_positions():
    """Every pseudo-legal move python-chess rejects gets a king-safety reason, every other
    from-to pair a movement reason, and no move falls through to the unknown case."""
    rng = random.Random(23)
    safety = ("check", "pinned", "castl", "en passant", "exposes", "shields", "resolve")
    for b in random_boards(29, 40, plies=90, starts=STARTS):
        pos = Position.from_fen(fen_of(b))
        legal = {m.uci() for m in b.legal_moves}
        pseudo = {m.uci() for m in b.generate_pseudo_legal_moves()} - legal
        for uci in pseudo:
            text = explain_move(pos, uci)
            assert any(word in text for word in safety), (b.fen(), uci, text)
        ours = [sq for sq in chess.SQUARES if b.color_at(sq) == b.turn]
        for frm in rng.sample(ours, min(4, len(ours))):
            for to in chess.SQUARES:
                uci = chess.square_name(frm) + chess.square_name(to)
                text = explain_move(pos, uci)
                assert "does not know" not in text, (b.fen(), uci, text)
                says_legal = text.startswith(("legal", "promotion", "under-promotion")) or \
                    text.split(",")[0] in ("castling king-side", "castling queen-side")
                assert says_legal == (uci in legal) or uci + "q" in legal, (b.fen(), uci, text)


def test_king_zone_planes_count_every_attacker():
    # eight queens round the king: a count of 8 needs the fourth bit plane
    fen = "8/8/8/2QQQ3/2QkQ3/2QQQ3/8/K7 b - - 0 1"
    a = analyze(Position.from_fen(fen))
    b = chess.Board(fen)
    zone = a.king_zone["black"]
    assert zone.attacks == {sq: len(b.attackers(chess.WHITE, sq)) for sq in zone.squares}
    assert zone.attacks[chess.D4] == 8
    assert a.unreachable and len(a.checkers) == 8
