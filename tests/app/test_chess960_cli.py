"""Chess960 in every command that takes positions: `suite`, `fuzz` and `race` take --960 as
`perft`, `compare` and `analyze` do, the engines are told (Stockfish's UCI_Chess960), and a FEN
that only Chess960 reads names --960."""
import json

import chess
import pytest

from perftscope import resources
from perftscope.core.board.position import Position
from perftscope.core.counting.suites import load
from perftscope.core.engines.pair import EnginePair
from perftscope.core.mismatch.edge_positions import chess960_edge_positions
from perftscope.core.mismatch.fuzz import Fuzzer, FuzzSettings
from perftscope.core.mismatch.shrink import can_arise
from perftscope.core.engines.oracle import Request

from .cli_run import run


@pytest.fixture(scope="module")
def xfen_epd(tmp_path_factory):
    """A user's Chess960 EPD in X-FEN: kings on e1/e8, `KQkq` naming rooks off the corners, so
    standard chess refuses every line (positions and counts from python-chess_chess960.perft)."""
    lines = []
    for entry in load(resources.path("python-chess_chess960.perft")):
        board = chess.Board(entry.full_fen, chess960=True)
        fen = board.fen()
        if board.king(chess.WHITE) == chess.E1 and board.king(chess.BLACK) == chess.E8 \
                and fen.split()[2] == "KQkq" and "R" not in fen.split()[0][-8:][::7]:
            counts = " ".join(f";D{d} {entry.expected[d]}" for d in (1, 2, 3))
            lines.append(f"{' '.join(fen.split()[:4])} {counts}")
        if len(lines) == 4:
            break
    path = tmp_path_factory.mktemp("c960") / "mine960.epd"
    path.write_text("\n".join(lines) + "\n")
    return path


def test_a_fen_only_chess960_reads_names_960(capsys, xfen_epd):
    fen = xfen_epd.read_text().splitlines()[0].split(";")[0].strip()
    code, _, err = run(capsys, "perft", "-d", "1", "-f", fen)
    assert code == 2 and err.strip().endswith("it is a valid Chess960 position: add --960"), err
    assert run(capsys, "perft", "-d", "1", "--960", "-f", fen)[0] == 0
    # a FEN Chess960 cannot read either says nothing of --960
    code, _, err = run(capsys, "perft", "-d", "1", "-f", "4k3/8/8/8/8/8/8/4K3 w K - 0 1")
    assert code == 2 and "--960" not in err and "needs the white king on e1" in err


def test_suite_960_reads_a_users_xfen_epd(capsys, xfen_epd):
    code, out, _ = run(capsys, "suite", str(xfen_epd))
    assert code == 1 and out.count("it is a valid Chess960 position: add --960") == 4
    code, out, _ = run(capsys, "suite", str(xfen_epd), "--960")
    assert code == 0 and out.splitlines()[-1] == "4 passed, 0 failed"
    # the engine is told: Stockfish gets UCI_Chess960 and every count agrees
    code, out, _ = run(capsys, "suite", str(xfen_epd), "--960", "--engine", "stockfish", "--max-depth", "3",
                       "--json")
    report = json.loads(out)
    assert code == 0 and report["passed"] == 4 and report["failed"] == 0
    code, out, _ = run(capsys, "suite", str(xfen_epd), "--engine", "stockfish", "--max-depth", "1")
    assert code == 0 and out.count("\nskip  ") == 4 and out.count("add --960") == 4     # not its bug


def test_race_960(capsys, xfen_epd):
    code, _, err = run(capsys, "race", "--engine", "stockfish", "--positions", str(xfen_epd), "--depth", "2",
                       "--yardsticks", "none")
    assert code == 2 and "add --960" in err
    code, out, _ = run(capsys, "race", "--engine", "stockfish", "--positions", str(xfen_epd), "--depth", "3",
                       "--yardsticks", "core", "--960", "--json")
    report = json.loads(out)
    assert code == 0, report
    heats = report["heats"]
    # every count checked against the core's, which agrees with the file
    assert len(heats) == 8 and all(h["status"] == "done" and h["laps"][-1]["depth"] == 3 for h in heats), heats
    expected = {f"mine960.epd:{i + 1}": int(line.split(";D3 ")[1])
                for i, line in enumerate(xfen_epd.read_text().splitlines())}
    assert all(h["laps"][-1]["nodes"] == expected[h["position"]] for h in heats)
    # each position sent as Chess960 (X-FEN with the kings on e1/e8 would read as standard chess)
    assert all(Position.from_fen(h["fen"]).chess960 for h in heats)


def test_chess960_edge_positions_are_what_they_say():
    edges = chess960_edge_positions()
    families = {e.family for e in edges}
    assert families == {"chess960_layouts", "chess960_blocked", "chess960_attacked", "chess960_pinned_rook"}
    for edge in edges:
        pos = Position.from_fen(edge.fen)
        assert pos.chess960 and pos.castling and can_arise(pos), edge
    topics = " ".join(e.topic for e in edges)
    for words in ("king g1, rooks", "with the king in check", "a square only the rook crosses attacked",
                  "a piece on", "pinned along the back rank by a queen on a8"):
        assert words in topics
    # the rook pinned along the back rank: castling is illegal there, and legal with the pinner gone
    for edge in (e for e in edges if e.family == "chess960_pinned_rook"):
        board = chess.Board(edge.fen, chess960=True)
        assert not any(board.is_castling(m) for m in board.legal_moves), edge
        pinner = next(sq for sq in chess.SquareSet(board.occupied_co[not board.turn] & chess.BB_BACKRANKS)
                      if board.piece_type_at(sq) != chess.KING)
        board.remove_piece_at(pinner)
        assert any(board.is_castling(m) for m in board.legal_moves), edge
    # the king already on its target square: a castling where only the rook moves is legal somewhere
    on_target = [e for e in edges if e.family == "chess960_layouts" and "king g1" in e.topic]
    assert any(chess.Board(e.fen, chess960=True).has_kingside_castling_rights(chess.WHITE) and
               any(m.from_square == chess.G1 and chess.Board(e.fen, chess960=True).is_castling(m)
                   for m in chess.Board(e.fen, chess960=True).legal_moves) for e in on_target)


@pytest.mark.parametrize("planted, kind", [("c960_pinned_rook", "castling-attack"),
                                           ("c960_king_on_target", "castling-missing")])
def test_fuzz_960_finds_a_planted_chess960_castling_bug(capsys, engine_path, planted, kind):
    code, out, _ = run(capsys, "fuzz", "--960", "--engine", f"perftree:{engine_path(planted)}", "--seed", "1",
                       "--positions", "40", "--depth", "1", "--first", "--shrink-calls", "0", "--json")
    report = json.loads(out)
    assert code == 1 and report["chess960"] and len(report["findings"]) == 1
    finding = report["findings"][0]
    assert finding["kind"] == kind, finding
    assert Position.from_fen(finding["fen"]).chess960 and "Chess960" in finding["name"]


def test_fuzz_960_on_correct_chess960_engines_finds_nothing():
    # the core against python-chess, then Stockfish with UCI_Chess960, on the same seeded positions
    python_chess = Fuzzer(EnginePair.parse("python-chess", "core"), FuzzSettings(seed=3, seconds=None, positions=40, chess960=True)).run()
    assert python_chess.tested == 40 and python_chess.findings == []
    # every Chess960 castling position and as many from play: Stockfish reads king-takes-rook
    # castling only with UCI_Chess960
    result = Fuzzer(EnginePair.parse("stockfish", "core"), FuzzSettings(seed=3, seconds=None, positions=1040, chess960=True)).run()
    assert result.tested == 1040 and result.findings == []


def test_shrink_keeps_a_chess960_position_chess960(engine_path):
    """With the king on e1 and a right naming the b1 rook, a step that wrote the position as
    standard chess could not stand: the start was the minimal example, ten pieces."""
    from perftscope.core.engines.oracles import make_oracle
    from perftscope.core.mismatch.shrink import shrink
    shrunk = shrink(make_oracle(f"perftree:{engine_path('c960_pinned_rook')}"), make_oracle("core"),
                    Request.of("r3k3/pp6/8/8/8/8/PP6/qR2K2R w HB - 0 1"), depth=1, move_pieces=False)
    assert shrunk.fen == "4k3/8/8/8/8/8/8/qR2K3 w B - 0 1" and Position.from_fen(shrunk.fen).chess960
    # mirrored colours keep their rook files too
    black = shrink(make_oracle(f"perftree:{engine_path('c960_pinned_rook')}"), make_oracle("core"),
                   Request.of("Qr2k3/8/8/8/8/8/8/4K2R b Hb - 0 1"), depth=1, move_pieces=False)
    assert black.fen == "4k3/8/8/8/8/8/8/qR2K3 w B - 0 1", black.steps


def test_gui_960_opens_the_position_as_chess960(xfen_epd):
    from perftscope.app.cli import build_parser
    from perftscope.app.commands.gui import _checked
    fen = xfen_epd.read_text().splitlines()[0].split(";")[0].strip()
    argv = ["gui", "--960", "--fen", fen]
    opened, _, _ = _checked(build_parser(argv).parse_args(argv))
    assert Position.from_fen(opened).chess960 and opened.split()[2] != "KQkq"
    argv = ["gui", "--960"]
    opened, _, _ = _checked(build_parser(argv).parse_args(argv))
    assert opened.split()[2] == "HAha"          # the start position, as Chess960
