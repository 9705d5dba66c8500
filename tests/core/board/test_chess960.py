"""Chess960 end to end: X-FEN and Shredder-FEN castling fields, king-takes-rook notation,
the Polyglot key, and divides against python-chess's chess960 mode on random Chess960 games
that castle with king and rook on every kind of file arrangement."""
import random

import chess
import chess.polyglot
import pytest

from perftscope import resources
from perftscope.core.errors import FenError, SuiteError
from perftscope.core.counting.perft import divide, perft
from perftscope.core.board.position import START_FEN, Position, is_chess960, reads_as_chess960
from perftscope.core.counting.suites import load
from perftscope.core.engines.oracle import Request

from ..python_chess_reference import python_chess_divide

SUITE = load(resources.path("python-chess_chess960.perft"))


@pytest.mark.parametrize("entry", SUITE[::97], ids=lambda e: e.name)
def test_castling_fields_read_and_written_like_python_chess(entry):
    board = chess.Board(entry.full_fen, chess960=True)
    pos = Position.from_fen(entry.full_fen)
    assert pos.fen() == entry.full_fen                       # written in the style read
    assert pos.castling_field("shredder") == board.castling_shredder_fen().replace("-", "")
    assert pos.castling_field("xfen") == board.castling_xfen().replace("-", "")
    # X-FEN with the kings on e1/e8 reads as standard chess: --960 says otherwise
    again = Position.from_fen(pos.castling_field("xfen").join(entry.full_fen.split(pos.castling_field())),
                              chess960=True)
    assert again.state() == pos.state()


def test_xfen_uses_a_file_letter_only_where_ambiguous():
    # two white rooks on the king's h-side: the inner one (e1) must be named by its file
    pos = Position.from_fen("1r3k1r/8/8/8/8/8/8/2K1R2R w Ek - 0 1")
    assert pos.chess960 and pos.castling == "Kk" and pos.castling_rooks[0] == 4
    assert pos.fen().split()[2] == "Ek"
    assert pos.castling_field("shredder") == "Eh"
    board = chess.Board(pos.fen(), chess960=True)
    assert board.castling_xfen() == "Ek"
    assert sorted(pos.legal_moves()) == sorted(m.uci() for m in board.legal_moves)


def test_standard_positions_stay_standard():
    pos = Position.from_fen(START_FEN)
    assert not pos.chess960 and pos.fen() == START_FEN
    # Shredder-FEN marks Chess960, so a standard position keeps KQkq whatever the style asked
    assert Position.from_fen(START_FEN, fen_style="shredder").fen() == START_FEN
    assert Position.from_fen(START_FEN).castling_field("shredder") == "HAha"
    castle = Position.from_fen("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1")
    assert {"e1g1", "e1c1"} <= set(castle.legal_moves())
    assert not is_chess960(START_FEN) and is_chess960(START_FEN.replace("KQkq", "HAha"))


def test_king_takes_rook_notation_in_chess960():
    fen = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1"
    pos = Position.from_fen(fen, chess960=True)
    moves = set(pos.legal_moves())
    assert {"e1h1", "e1a1"} <= moves and not {"e1g1", "e1c1"} & moves
    # python-chess reads e1g1 in chess960 mode when king and rook stand on e1 and h1: so do we
    assert pos.push("e1g1") == pos.push("e1h1")
    after = pos.push("e1h1")
    # black's rights look standard, so the FEN says Chess960 the only way it can: Shredder-FEN
    assert after.fen() == "r3k2r/8/8/8/8/8/8/R4RK1 b ha - 1 1"
    assert after.chess960 and "e8a8" in after.legal_moves()
    assert Position.from_fen(after.fen()).chess960
    assert divide(pos, 2) == python_chess_divide(chess.Board(fen, chess960=True), 2)


@pytest.mark.parametrize("fen, message", [
    ("4k3/8/8/8/8/8/8/4K3 w K - 0 1", "'K' needs the white king on e1 and a white rook on h1"),
    ("4k3/8/8/8/8/8/8/R3K3 w B - 0 1", "'B' needs the white king on rank 1 and a white rook on b1"),
    ("4k3/8/8/8/8/8/4K3/R6R w H - 0 1", "'H' needs the white king on rank 1"),
    ("r3k3/8/8/8/8/8/8/4K3 w e - 0 1", "'e' needs the black king on rank 8 and a black rook on e8"),
    ("4k3/8/8/8/8/8/8/RR2K3 w QA - 0 1", "gives white two queen-side castling rights"),
    ("4k3/8/8/8/8/8/8/4K2R w Kx - 0 1", "unexpected 'x'"),
])
def test_bad_castling_fields_name_the_right_and_the_piece(fen, message):
    with pytest.raises(FenError, match="FEN field 3 \\(castling\\)") as e:
        Position.from_fen(fen)
    assert message in str(e.value)


# --- property: divides equal python-chess's on random Chess960 games -------------------------
def _arrangement(board, move):
    """What is special about a castling move's king and rook files."""
    king, rook = move.from_square, move.to_square
    kingside = rook > king
    king_to, rook_to = (6, 5) if kingside else (2, 3)
    kinds = {"king-side" if kingside else "queen-side"}
    kf, rf = chess.square_file(king), chess.square_file(rook)
    if kf == king_to:
        kinds.add("king stays")
    if rf == rook_to:
        kinds.add("rook stays")
    if rf == king_to:
        kinds.add("king lands on the rook's square")
    if kf == rook_to:
        kinds.add("rook lands on the king's square")
    if abs(kf - rf) == 1:
        kinds.add("king and rook side by side")
    if kf != 4 or rf not in (0, 7):
        kinds.add("not the standard files")
    return kinds


def test_random_chess960_games_match_python_chess():
    rng = random.Random(960)
    seen = set()
    checked = 0
    for game in range(60):
        board = chess.Board.from_chess960_pos(rng.randrange(960))
        pos = Position.from_fen(board.fen(), chess960=True)
        for ply in range(rng.randrange(4, 40)):
            legal = list(board.legal_moves)
            assert sorted(pos.legal_moves()) == sorted(m.uci() for m in legal), board.fen()
            assert pos.key == chess.polyglot.zobrist_hash(board), board.fen()
            if not legal:
                break
            castles = [m for m in legal if board.is_castling(m)]
            for m in castles:
                seen |= _arrangement(board, m)
            # castle when possible, half the time: castling is what this test is about
            move = rng.choice(castles) if castles and rng.random() < 0.5 else rng.choice(legal)
            if castles and ply % 3 == 0:      # the divide where castling is on the board
                assert divide(pos, 2) == python_chess_divide(board, 2), board.fen()
                checked += 1
            board.push(move)
            pos = pos.push(move.uci())
            assert pos.with_options(fen_style="shredder").fen() == board.fen(shredder=True, en_passant="fen")
            assert Position.from_fen(pos.fen()).chess960 or not pos.castling
    assert checked >= 20
    assert seen >= {"king-side", "queen-side", "king stays", "rook stays", "king lands on the rook's square",
                    "rook lands on the king's square", "king and rook side by side", "not the standard files"}


# --- the finder and the references ------------------------------------------------------------
@pytest.mark.parametrize("reference", ["core", "stockfish"])
def test_finder_localises_a_pinned_castling_rook(engine_path, reference):
    from perftscope.core.mismatch.finder import find_mismatch
    from perftscope.core.engines.oracles import make_oracle
    # black's a8a1 pins the castling rook b1 to the king on g1 along rank 1
    with make_oracle(f"perftree:{engine_path('c960_pinned_rook')}") as engine, make_oracle(reference) as ref:
        report = find_mismatch(engine, ref, Request.of("r3k3/8/8/8/8/8/8/1R4K1 b B - 0 1"), 3)
    assert report.path == ["a8a1"] and report.extra == ["g1b1"] and report.missing == []
    assert report.explanations["g1b1"] == "castling g1b1: the rook on b1 is pinned along rank 1 by the rook on a1"


def test_stockfish_and_python_chess_divide_chess960_like_the_core():
    from perftscope.core.engines.oracles import make_oracle
    fen = "r3k2r/8/8/8/8/8/8/R3K2R w HAha - 0 1"          # Shredder-FEN: Chess960 with corner rooks
    expected = divide(Position.from_fen(fen), 2)
    assert "e1h1" in expected and "e1g1" not in expected
    with make_oracle("stockfish") as sf, make_oracle("python-chess") as pc:
        assert sf.divide(Request.of(fen), 2) == expected
        assert pc.divide(Request.of(fen), 2) == expected
        # and back to standard chess on the same engine process: e1g1 again
        assert "e1g1" in sf.divide(Request.of("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1"), 1)


@pytest.mark.parametrize("fen, move, reason", [
    ("4k3/8/8/8/8/6n1/8/1K5R w H - 0 1", "b1h1", "castling through f1, attacked by the knight on g3"),
    ("4k3/8/8/8/8/8/8/RK2N2R w HA - 0 1", "b1h1", "castling b1h1 is blocked by the knight on e1"),
    ("4k3/8/8/8/8/8/6r1/RK5R w HA - 0 1", "b1h1",
     "castling b1h1: the king would land on g1, attacked by the rook on g2"),
    ("4k3/8/8/8/8/8/8/RK5R w A - 0 1", "b1h1", "white has no king-side castling right"),
    ("4k3/8/8/8/8/8/8/4K2R w H - 0 1", "e1g1", "in Chess960 castling is written king takes rook: e1h1, not e1g1"),
    ("4k3/8/8/8/8/8/8/RK5R w HA - 0 1", "b1a1", "castling queen-side (Chess960: king b1 to c1, rook a1 to d1)"),
])
def test_chess960_castling_explained(fen, move, reason):
    from perftscope.core.board.analysis import explain_move
    assert explain_move(Position.from_fen(fen), move).startswith(reason)


def test_cli_960_and_fen_style():
    import json
    import subprocess
    import sys
    out = subprocess.run([sys.executable, "-m", "perftscope", "analyze", "--960", "--json",
                          "-f", "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1"], capture_output=True, text=True, check=True)
    report = json.loads(out.stdout)
    assert report["fen"] == "r3k2r/8/8/8/8/8/8/R3K2R w HAha - 0 1"
    assert {"e1h1", "e1a1"} <= set(report["legal"]) and "e1g1" not in report["legal"]
    bad = subprocess.run([sys.executable, "-m", "perftscope", "perft", "-d", "1", "-f", "4k3/8/8/8/8/8/8/4K3 w B - 0 1"],
                         capture_output=True, text=True)
    assert bad.returncode == 2
    assert "FEN field 3 (castling): 'B' needs the white king on rank 1 and a white rook on b1" in bad.stderr


def test_a_standard_fen_is_standard_chess_unless_it_says_otherwise():
    # king on e1, 'Q', a rook on c1 and none on a1: X-FEN would take c1's rook, standard chess
    # has no such right
    fen = "8/8/8/4B2b/6nN/8/5P2/2R1K2k w Q - 0 1"
    with pytest.raises(FenError, match=r"FEN field 3 \(castling\): 'Q' needs the white king on e1 "
                                       r"and a white rook on a1"):
        Position.from_fen(fen)
    assert not reads_as_chess960(fen)
    chess960 = Position.from_fen(fen, chess960=True)         # --960 or the GUI's box
    assert "e1c1" in chess960.legal_moves() and len(chess960.legal_moves()) == 34
    # written so that it reads as Chess960 again: Shredder-FEN names the c1 rook
    assert chess960.fen() == "8/8/8/4B2b/6nN/8/5P2/2R1K2k w C - 0 1"
    assert Position.from_fen(chess960.fen()).state() == chess960.state()
    # a king with a right off e1/e8 is Chess960 on its own, and so are rook-file letters
    assert reads_as_chess960("r2r3k/p7/3p4/8/8/P6P/8/R3K2R b KQq - 0 1")
    assert Position.from_fen("r2r3k/p7/3p4/8/8/P6P/8/R3K2R b KQq - 0 1").chess960
    assert reads_as_chess960(START_FEN.replace("KQkq", "HAha"))


def test_a_suite_marks_its_chess960_entries_that_read_as_standard():
    entry = next(e for e in load(resources.path("chess960.perft")) if e.name == "xfen-02")
    assert entry.chess960 and entry.full_fen == "8/8/8/4B2b/6nN/8/5P2/2R1K2k w C - 0 1"
    assert perft(Position.from_fen(entry.full_fen), 1) == entry.expected[1] == 34


def test_a_suite_names_a_variant_it_cannot_play(tmp_path):
    bad = tmp_path / "atomic.perft"
    bad.write_text("id a\nepd 4k3/8/8/8/8/8/8/4K3 w - -\nvariant atomic\nperft 1 5\n")
    with pytest.raises(SuiteError, match=r"atomic.perft line 3: variant 'atomic' is not one perftscope plays"):
        load(bad)
