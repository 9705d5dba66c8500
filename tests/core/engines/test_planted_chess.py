"""The planted engines' move generator (tests/engines/chess.py, what `import chess` gives them) answers
as python-chess does: for positions reached by random games from standard and Chess960 starts, the
same legal and pseudo-legal moves in the same order, the same FEN, SAN, check, en passant and
castling rights, the same position after each move and after its unmaking, and the same perft."""
import importlib.util
import random
import subprocess
import sys
from pathlib import Path

import chess
import pytest

ENGINES = Path(__file__).parents[2] / "engines"
START = ["rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
         "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
         "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
         "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
         "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
         "r3k2r/8/8/8/3pPp2/8/8/R3K1RR b KQkq e3 0 1",        # en passant beside a rank pin
         "4k3/8/8/2KpP2r/8/8/8/8 w - d6 0 1",
         "8/8/8/8/k2Pp2Q/8/8/3K4 b - d3 0 1",
         "r3k2r/8/8/8/8/8/8/R3K2R w Kq - 0 1",
         "2r1k2r/8/8/8/8/8/8/R3K1R1 w Qk - 0 1"]              # a right without its rook
CHESS960 = [518, 0, 1, 100, 314, 959, 705, 22]
ODD_RIGHTS = ["1rkr4/pppppppp/8/8/8/8/PPPPPPPP/RR2K3 w Bd - 0 1",      # read as Chess960: rights by file
              "r3kr2/8/8/8/8/8/8/1RK1R2R w HBfa - 0 1",
              "4k3/8/8/8/8/8/8/R3KR1R w KQ - 0 1", "3k4/8/8/8/8/8/8/R2RK3 w DA - 0 1"]


def load(name, path):
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def planted():
    return load("planted_chess", ENGINES / "chess.py")


def same_position(theirs, ours, why):
    assert ours.fen() == theirs.fen(), why
    assert [m.uci() for m in ours.legal_moves] == [m.uci() for m in theirs.legal_moves], why
    assert [m.uci() for m in ours.pseudo_legal_moves] == [m.uci() for m in theirs.pseudo_legal_moves], why
    assert ours.castling_rights == theirs.castling_rights, why
    assert ours.clean_castling_rights() == theirs.clean_castling_rights(), why
    assert (ours.ep_square, ours.halfmove_clock, ours.fullmove_number) == \
        (theirs.ep_square, theirs.halfmove_clock, theirs.fullmove_number), why
    assert (ours.is_check(), ours.has_legal_en_passant(), ours.has_chess960_castling_rights()) == \
        (theirs.is_check(), theirs.has_legal_en_passant(), theirs.has_chess960_castling_rights()), why


def random_games(ours_module, seed, games=1, plies=24):
    """(python-chess board, ours) at each ply of random games from each start."""
    rng = random.Random(seed)
    starts = [(fen, False) for fen in START] + \
        [(chess.Board.from_chess960_pos(n).fen(), True) for n in CHESS960] + [(fen, True) for fen in ODD_RIGHTS]
    for fen, chess960 in starts:
        for _ in range(games):
            theirs, ours = chess.Board(fen, chess960=chess960), ours_module.Board(fen, chess960=chess960)
            for _ in range(plies):
                yield theirs, ours
                moves = list(theirs.legal_moves)
                if not moves:
                    break
                move = rng.choice(moves)
                theirs.push(move)
                ours.push_uci(move.uci())


def test_moves_fen_and_san_are_python_chess_s_in_random_games():
    ours_module = planted()
    positions = 0
    for theirs, ours in random_games(ours_module, seed=1):
        why = theirs.fen()
        same_position(theirs, ours, why)
        same_position(chess.Board(why, chess960=theirs.chess960), ours_module.Board(why, chess960=ours.chess960), why)
        assert [ours.san(ours_module.Move.from_uci(m.uci())) for m in theirs.legal_moves] == \
            [theirs.san(m) for m in theirs.legal_moves], why
        for move in list(theirs.pseudo_legal_moves)[:6]:      # made and unmade, legal or not
            ours_move = ours_module.Move.from_uci(move.uci())
            assert ours.is_legal(ours_move) == theirs.is_legal(move), (why, move)
            assert (ours.is_castling(ours_move), ours.is_en_passant(ours_move), ours.is_capture(ours_move)) == \
                (theirs.is_castling(move), theirs.is_en_passant(move), theirs.is_capture(move)), (why, move)
            theirs.push(move)
            ours.push(ours_move)
            assert ours.board_fen() == theirs.board_fen() and ours.castling_rights == theirs.castling_rights, (why, move)
            assert ours.ep_square == theirs.ep_square, (why, move)
            assert ours.pop() == ours_module.Move.from_uci(theirs.pop().uci())
            same_position(theirs, ours, why)
        for sq in ours_module.scan_forward(ours.occupied_co[ours.turn]):
            assert ours.is_pinned(ours.turn, sq) == theirs.is_pinned(theirs.turn, sq), (why, sq)
            assert ours.attackers_mask(not ours.turn, sq) == theirs.attackers_mask(not theirs.turn, sq), (why, sq)
        positions += 1
    assert positions > 400


@pytest.mark.parametrize("fen", START[:5])
def test_perft_is_python_chess_s(fen):
    perft = load("perftree_protocol", ENGINES / "perftree_protocol.py").perft    # the engines' perft
    legal = lambda board: list(board.legal_moves)      # noqa: E731
    assert perft(planted().Board(fen), 2, legal) == perft(chess.Board(fen), 2, legal)


def test_chess960_castling_is_written_king_takes_rook_and_made_as_python_chess_does():
    ours_module = planted()
    fen = "1r2k1r1/pppppppp/8/8/8/8/PPPPPPPP/1R2K1R1 w GBgb - 0 1"
    theirs, ours = chess.Board(fen, chess960=True), ours_module.Board(fen, chess960=True)
    assert {"e1b1", "e1g1"} <= {m.uci() for m in ours.legal_moves}
    for uci in ("e1b1", "e8g8"):
        theirs.push_uci(uci)
        ours.push_uci(uci)
        same_position(theirs, ours, uci)


@pytest.mark.parametrize("fen", ["", "8/8/8 w - - 0 1", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1",
                                 "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkqK - 0 1",
                                 "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq z9 0 1",
                                 "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - x 1",
                                 "rnbqkbnr/pppppppp/9/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"])
def test_a_bad_fen_is_refused_with_python_chess_s_words(fen):
    with pytest.raises(ValueError) as theirs:
        chess.Board(fen)
    with pytest.raises(ValueError) as ours:
        planted().Board(fen)
    assert str(ours.value) == str(theirs.value)


def test_an_engine_imports_this_generator_and_no_python_chess():
    out = subprocess.run([sys.executable, "-c", f"import sys; sys.path.insert(0, {str(ENGINES)!r})\n"
                          "import chess; print(chess.__file__); print('chess.engine' in sys.modules)"],
                         capture_output=True, text=True, check=True, timeout=60).stdout.split()
    assert out == [str(ENGINES / "chess.py"), "False"]
