"""FEN in and out, validation messages, UCI moves and Zobrist keys."""
import chess
import chess.polyglot
import numpy as np
import pytest

from perftscope.core import kernels
from perftscope.core.errors import FenError, MoveError
from perftscope.core.kernels.board import full_key, make
from perftscope.core.board.position import START_FEN, Position, as_state

from ..random_positions import random_boards

KIWIPETE = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"


@pytest.mark.parametrize("fen", [START_FEN, KIWIPETE, "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
                                 "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3"])
def test_fen_round_trip(fen):
    assert Position.from_fen(fen).fen() == fen


def test_fen_without_counters_gets_defaults():
    assert Position.from_fen("8/8/8/8/8/8/8/K6k w - -").fen() == "8/8/8/8/8/8/8/K6k w - - 0 1"


@pytest.mark.parametrize("fen, words", [
    ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP w KQkq - 0 1", "field 1 (piece placement): expected 8 ranks"),
    ("rnbqkbnr/pppppppp/9/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "rank 6 ('9') describes 9 squares, expected 8"),
    ("rnbqkbnr/pppppppp/44p/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "rank 6 ('44p') describes 9 squares"),
    ("rnbqkbnr/ppppxppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "unknown piece 'x'"),
    ("rnbq1bnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "black has 0 kings"),
    ("rnbqkbnP/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "white pawn on h8"),
    ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1", "field 2 (side to move)"),
    ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQxq - 0 1", "field 3 (castling): unexpected 'x'"),
    ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN1 w KQkq - 0 1", "'K' needs the white king on e1"),
    ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq e3 0 1", "field 4 (en passant): e3 is not on rank 6"),
    ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq d6 0 1", "d6 needs a black pawn on d5"),
    ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq z9 0 1", "field 4 (en passant): expected '-' or a square"),
    ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - x 1", "field 5 (halfmove clock)"),
    ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 -3", "field 6 (fullmove number)"),
    ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR", "needs 4 to 6 fields"),
    ("4k3/8/8/8/8/8/8/4K2r b - - 0 1", "white is not to move but is in check"),
    ("8/8/8/8/8/8/k7/K6r w - - 0 1", "the kings stand side by side on a1 and a2"),
])
def test_bad_fen_names_the_field(fen, words):
    with pytest.raises(FenError) as e:
        Position.from_fen(fen)
    assert words in str(e.value)
    assert "\n" not in str(e.value)


def test_move_errors_name_the_move_and_position():
    pos = Position.from_fen(START_FEN)
    with pytest.raises(MoveError, match="malformed move 'e2e9'"):
        pos.push("e2e9")
    with pytest.raises(MoveError, match=r"illegal move 'e2e5' in position rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w"):
        pos.push("e2e5")
    with pytest.raises(MoveError, match="move 3 of the move list: illegal move 'e4e6'"):
        pos.play("e2e4 e7e6 e4e6")


def test_moves_are_case_insensitive():
    assert Position.from_fen(START_FEN).play("E2E4 e7e5 G1F3").fen() == \
        "rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2"


def test_legal_moves_match_python_chess_on_random_positions():
    for board in random_boards(11, 150, plies=80):
        pos = Position.from_fen(board.fen())
        assert sorted(pos.legal_moves()) == sorted(m.uci() for m in board.legal_moves), board.fen()


def test_push_matches_python_chess_fen_and_polyglot_key():
    T = kernels.table()
    for board in random_boards(12, 150, plies=80):
        pos = Position.from_fen(board.fen())
        assert pos.key == chess.polyglot.zobrist_hash(board), board.fen()
        for move in list(board.legal_moves)[:6]:
            child = pos.push(move.uci())
            board.push(move)
            assert child.fen() == board.fen(en_passant="fen"), (pos.fen(), move.uci())
            # the kernel's incremental key equals the key computed from scratch and Polyglot's
            state = as_state(make(T, pos.state(), np.uint16(pos.kernel_move(move.uci()))))
            assert int(state[9]) == int(full_key(T, state)) == chess.polyglot.zobrist_hash(board)
            board.pop()


def test_push_keeps_the_kernels_child_state_and_its_incremental_key(monkeypatch):
    import perftscope.core.board.position as position
    pos = Position.from_fen(START_FEN)
    assert pos.state() is pos.state()                      # built once per position
    calls = []
    monkeypatch.setattr(position._k()[1], "full_key", lambda *a: calls.append(a) or 0)
    child = pos.push("e2e4").push("e7e5")
    assert calls == []                                     # no full key recomputed along a game
    monkeypatch.undo()
    assert child.key == Position.from_fen(child.fen()).key


def _rules_answers(pos: Position):
    """What the board asks the rules, as the rules in force answer it."""
    moves = sorted(pos.legal_moves())
    return moves, pos.castling_moves(), pos.in_check(), {uci: pos.push(uci) for uci in moves}


def _chess960_games(seed, count, plies):
    import random
    rng = random.Random(seed)
    for _ in range(count):
        board = chess.Board.from_chess960_pos(rng.randrange(960))
        for _ in range(rng.randrange(plies)):
            moves = list(board.legal_moves)
            if not moves:
                break
            castles = [m for m in moves if board.is_castling(m)]
            board.push(rng.choice(castles) if castles and rng.random() < 0.5 else rng.choice(moves))
        yield Position.from_fen(board.fen(), chess960=True)


def test_python_chess_answers_the_rules_move_for_move_as_the_kernels_do():
    """The GUI's first seconds on an empty compile cache: python-chess answers the board's rules
    until the kernels are loaded. Every answer must be the kernels' own: legal moves, castlings,
    check, and the position after each move (board, rights and rook files, en passant, clocks)."""
    import threading

    import perftscope.core.board.position as position
    positions = [Position.from_fen(b.fen()) for b in random_boards(13, 60, plies=80, pawn_bias=0.4)]
    positions += list(_chess960_games(14, 30, plies=40))
    loaded = threading.Event()
    for pos in positions:
        by_kernels = _rules_answers(pos)
        position.python_chess_until(loaded)
        try:
            by_python_chess = _rules_answers(pos)
            with pytest.raises(MoveError) as illegal:
                pos.push("a1a1")
        finally:
            position.python_chess_until(None)
        assert by_python_chess == by_kernels, pos.fen()
        with pytest.raises(MoveError) as same:
            pos.push("a1a1")
        assert str(illegal.value) == str(same.value)


def test_python_chess_answers_only_until_the_kernels_are_loaded():
    import threading

    import perftscope.core.board.position as position
    loaded = threading.Event()
    position.python_chess_until(loaded)
    try:
        assert isinstance(Position.from_fen(START_FEN).moves()[0].token, chess.Move)
        loaded.set()
        assert isinstance(Position.from_fen(START_FEN).moves()[0].token, int)
    finally:
        position.python_chess_until(None)
