"""The perft, divide, suite and bench commands, and how they treat bad input."""
import json
import os
import subprocess
import sys
from pathlib import Path

import chess
import pytest

from perftscope.app.cli import main

from .cli_run import run

KIWIPETE = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"
PERFTSCOPE = str(Path(sys.executable).parent / "perftscope")


def test_perft_json(capsys):
    code, out, _ = run(capsys, "perft", "-d", "4", "-f", KIWIPETE, "--json")
    obj = json.loads(out)
    assert code == 0
    assert obj["nodes"] == 4085603 and obj["depth"] == 4 and obj["fen"] == KIWIPETE
    assert obj["seconds"] > 0 and obj["nps"] == pytest.approx(obj["nodes"] / obj["seconds"], rel=0.01)
    assert "stats" not in obj


def test_perft_stats_json_and_text(capsys):
    code, out, _ = run(capsys, "perft", "-d", "3", "-f", KIWIPETE, "-s", "--json")
    stats = json.loads(out)["stats"]
    assert stats == {"captures": 17102, "ep": 45, "castles": 3162, "promotions": 0, "checks": 993,
                     "discovery_checks": 0, "double_checks": 0, "checkmates": 1}
    code, out, _ = run(capsys, "perft", "-d", "3", "-f", KIWIPETE, "-s")
    assert "nodes    97862" in out and "castles" in out and "3162" in out


def test_perft_after_moves(capsys):
    code, out, _ = run(capsys, "perft", "-d", "2", "-m", "e2e4 e7e5", "--json")
    board = chess.Board()
    board.push_uci("e2e4")
    board.push_uci("e7e5")
    assert json.loads(out)["fen"] == board.fen(en_passant="fen")
    expected = 0
    for m in list(board.legal_moves):
        board.push(m)
        expected += board.legal_moves.count()
        board.pop()
    assert json.loads(out)["nodes"] == expected


def test_divide_is_stockfish_format(capsys):
    code, out, _ = run(capsys, "divide", "-d", "3", "-f", KIWIPETE)
    lines = out.splitlines()
    assert code == 0
    assert lines[-1] == "Nodes searched: 97862" and lines[-2] == ""
    rows = dict(line.split(": ") for line in lines[:-2])
    assert len(rows) == 48 and rows["e1g1"] == "2059" and sum(map(int, rows.values())) == 97862


def test_divide_json_and_depth_zero(capsys):
    code, out, _ = run(capsys, "divide", "-d", "1", "--json")
    obj = json.loads(out)
    assert obj["nodes"] == 20 and set(obj["moves"].values()) == {1}
    code, out, _ = run(capsys, "perft", "-d", "0", "--json")
    assert json.loads(out)["nodes"] == 1


@pytest.mark.parametrize("argv, words", [
    (["perft", "-d", "3", "-f", "8/8/8/8/8/8/8/8 w - - 0 1"], "FEN field 1 (piece placement): white has 0 kings"),
    (["perft", "-d", "3", "-f", chess.STARTING_FEN.replace(" w ", " q ")], "FEN field 2 (side to move)"),
    (["divide", "-d", "2", "-m", "e2e4 e7e5 e1e3"], "move 3 of the move list: illegal move 'e1e3'"),
    (["perft", "-d", "2", "-m", "e2e4 zz"], "malformed move 'zz'"),
    (["suite", "/nonexistent/suite.epd"], "no such suite file: /nonexistent/suite.epd"),
])
def test_bad_input_is_one_line_and_exit_2(capsys, argv, words):
    code, out, err = run(capsys, *argv)
    assert code == 2
    assert err.count("\n") == 1 and words in err and err.startswith("perftscope: error:")
    assert "Traceback" not in err


@pytest.mark.parametrize("depth", ["-1", "x", "99"])
def test_bad_depth_is_rejected(depth):
    proc = subprocess.run([PERFTSCOPE, "perft", "-d", depth], capture_output=True, text=True)
    assert proc.returncode == 2
    assert "depth" in proc.stderr and "Traceback" not in proc.stderr


def test_hash_and_workers_flags_are_validated():
    ok = subprocess.run([PERFTSCOPE, "perft", "-d", "2", "-h", "16", "-w", "2", "--json"],
                        capture_output=True, text=True)
    assert ok.returncode == 0 and json.loads(ok.stdout)["nodes"] == 400
    bad = subprocess.run([PERFTSCOPE, "perft", "-d", "2", "-w", "0"], capture_output=True, text=True)
    assert bad.returncode == 2 and "workers" in bad.stderr


def test_suite_passes_and_fails(tmp_path, capsys):
    code, out, _ = run(capsys, "suite", "ep_edge_cases")
    assert code == 0 and out.splitlines()[-1] == "9 passed, 0 failed"
    wrong = tmp_path / "wrong.epd"
    wrong.write_text("4k3/8/8/8/8/8/8/4K2R w K - 0 1 ;D1 15 ;D2 67\n8/8/8/8/8/8/8/K6k w - - ;D1 3\n")
    code, out, _ = run(capsys, "suite", str(wrong), "--json")
    rows = [json.loads(line) for line in out.splitlines()]
    assert code == 1
    assert [(r["depth"], r["ok"]) for r in rows] == [(1, True), (2, False), (1, True)]
    assert rows[1]["expected"] == 67 and rows[1]["nodes"] == 66


def test_suite_limits_and_perft_format(capsys):
    code, out, _ = run(capsys, "suite", "python-chess_tricky", "--max-depth", "2")
    assert code == 0
    assert out.splitlines()[-1] == "19 passed, 0 failed"          # its Chess960 entries included



def test_console_script_and_help():
    proc = subprocess.run([PERFTSCOPE, "perft", "--help"], capture_output=True, text=True)
    assert proc.returncode == 0 and "-h EXP" in proc.stdout and "--stats" in proc.stdout


def test_bench_json_against_stockfish():
    env = dict(os.environ)
    proc = subprocess.run([PERFTSCOPE, "bench", "--json", "--repeat", "1"], capture_output=True, text=True, env=env)
    assert proc.returncode == 0, proc.stderr
    result = json.loads(proc.stdout)
    assert result["exact"] is True and result["threads"] == 1 and result["hash"] is False
    assert [p["name"] for p in result["positions"]] == ["initial", "kiwipete", "pos3", "pos4", "pos5"]
    for p in result["positions"]:
        # Stockfish walked the same tree: same node count
        assert p["stockfish"]["nodes"] == p["nodes"] == p["expected"]
        assert p["ratio"] > 0


def test_help_lists_every_command_without_loading_the_kernels():
    """`perftscope --help` imports no command module: those load numba (most of a second)."""
    from perftscope.app.commands import COMMANDS
    code = ("import sys, contextlib, io\nfrom perftscope.app.cli import main\nout = io.StringIO()\n"
            "with contextlib.redirect_stdout(out):\n    try: main(['--help'])\n    except SystemExit: pass\n"
            "print(out.getvalue())\nprint('numba loaded' if 'numba' in sys.modules else 'numba not loaded')\n")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert proc.stdout.rstrip().endswith("numba not loaded")
    for name, (_, summary) in COMMANDS.items():
        assert f"    {name} " in proc.stdout and summary.split()[0] in proc.stdout
    # and a command's own help still has its whole set of arguments
    assert "--engine" in subprocess.run([sys.executable, "-m", "perftscope", "compare", "--help"],
                                        capture_output=True, text=True, check=True).stdout
