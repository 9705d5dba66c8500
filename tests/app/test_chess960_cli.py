"""Chess960 in every command that takes positions: `suite`, `fuzz` and `race` take --960 as
`perft`, `compare` and `analyze` do, the engines are told (Stockfish's UCI_Chess960), and a FEN
that only Chess960 reads names --960."""
import json

import chess
import pytest

from perftscope import resources
from perftscope.core.board.position import Position
from perftscope.core.counting.suites import load

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
