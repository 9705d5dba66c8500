"""`perftscope analyze`: JSON per position, the text report, --epd, and bad input."""
import json
import subprocess
import sys
from pathlib import Path

import chess

from perftscope import resources
from perftscope.core.counting.suites import load

from .cli_run import run

PERFTSCOPE = str(Path(sys.executable).parent / "perftscope")
CPW3_EP = "8/2p5/3p4/KP5r/1R2Pp1k/8/6P1/8 b - e3 0 1"


def test_json_after_moves_matches_python_chess(capsys):
    moves = "c2c3 e7e6 d2d4 f8b4 e2e4 b4a5 e4e5 d7d5"
    code, out, err = run(capsys, "analyze", "-m", moves, "--json")
    assert code == 0 and err == ""
    obj = json.loads(out)
    board = chess.Board()
    for m in moves.split():
        board.push_uci(m)
    assert obj["fen"] == board.fen(en_passant="xfen")
    assert sorted(obj["legal"]) == sorted(m.uci() for m in board.legal_moves)
    assert obj["ep"] == {"square": "d6", "captures": [{"move": "e5d6", "legal": True,
                                                       "reason": "lifting both pawns opens no line to king e1"}]}
    assert obj["king_zone"]["white"]["king"] == "e1"
    assert obj["pinned"] == [{"square": "c3", "pinner": "a5", "ray": ["b4", "a5"]}]


def test_epd_gives_one_json_line_per_position(capsys):
    entries = load(resources.path("ep_edge_cases.epd"))
    code, out, _ = run(capsys, "analyze", "--epd", "ep_edge_cases.epd", "--json")
    lines = out.splitlines()
    assert code == 0 and len(lines) == len(entries)
    for line, entry in zip(lines, entries):
        obj = json.loads(line)
        legal = {m.uci() for m in chess.Board(entry.full_fen).legal_moves}
        assert obj["fen"].split()[:4] == entry.fen.split()[:4]
        for c in obj["ep"]["captures"]:
            assert c["legal"] == (c["move"] in legal), entry.note


def test_text_report(capsys):
    code, out, _ = run(capsys, "analyze", "-f", CPW3_EP)
    assert code == 0
    assert "en passant f4e3 exposes king h4 to rook b4 along rank 4" in out
    assert "f4e3 illegal" in out
    board_rows = [line for line in out.splitlines() if line.startswith("5 K P")]
    assert len(board_rows) == 1 and board_rows[0].count("5 ") == 4      # four boards side by side
    assert "legal      16:" in out


def test_text_report_of_pins_and_checks(capsys):
    code, out, _ = run(capsys, "analyze", "-f", "4k3/3n4/8/1B6/8/8/4R3/4K3 b - - 0 1")
    assert code == 0
    assert "pinned     nd7 by Bb5 (ray c6 b5)" in out
    assert "checkers   Re2" in out


def test_bad_fen_is_one_line_and_exit_2(capsys):
    code, out, err = run(capsys, "analyze", "-f", "8/8/8/8 w - -")
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and "FEN field 1 (piece placement)" in err


def test_bad_move_and_missing_file(capsys):
    code, _, err = run(capsys, "analyze", "-m", "e2e5")
    assert code == 2 and "illegal move 'e2e5'" in err
    code, _, err = run(capsys, "analyze", "--epd", "no-such-file.epd")
    assert code == 2 and "no such suite file" in err


def test_bad_fen_in_epd_names_the_line(tmp_path):
    epd = tmp_path / "mixed.epd"
    epd.write_text("4k3/8/8/8/8/8/8/4K3 w - - ;D1 5\n4k3/8/8/8/8/8/8/4K3 x - - ;D1 5\n")
    proc = subprocess.run([PERFTSCOPE, "analyze", "--epd", str(epd), "--json"], capture_output=True, text=True)
    assert proc.returncode == 2
    assert len(proc.stdout.splitlines()) == 1                     # the good first line was analyzed
    assert proc.stderr.startswith("perftscope: error: mixed.epd:2: FEN field 2 (side to move)")
    assert proc.stderr.count("\n") == 1
