"""`perftscope locate`: the text and JSON reports, a correct engine, bad input."""
import json
import subprocess
from pathlib import Path

from .cli_run import run

HERE = Path(__file__).resolve().parent.parent / "engines" / "locate"
CASTLES = "r3k3/8/8/8/8/8/8/4K3 b q - 0 1"


def build(tmp_path, planted=True):
    source = (HERE / "movegen.c").read_text()
    if not planted:
        source = source.replace("row + 4, row + 1, 'c'", "row + 4, row + 2, 'c'")
    (tmp_path / "movegen.c").write_text(source)
    subprocess.run(["gcc", "--coverage", "-O0", "-o", "movegen", "movegen.c"], cwd=tmp_path, check=True)
    return f"perftree:{tmp_path / 'movegen'}"


def test_text_report(capsys, tmp_path):
    code, out, err = run(capsys, "locate", "--engine", build(tmp_path), "-f", CASTLES, "-d", "2",
                         "--runs", "40", "--seconds", "120", "--top", "3")
    assert code == 0 and err == ""
    assert f"failing    {CASTLES}\n" in out
    assert "misses e8c8; generates illegal e8b8 (castling)" in out
    assert "runs       " in out and " failing, " in out and "(gcov coverage)" in out
    rows = [line for line in out.splitlines() if ".c:" in line]
    assert len(rows) == 3
    planted = next(n for n, line in enumerate((HERE / "movegen.c").read_text().splitlines(), 1) if "/* PLANTED:" in line)
    first = rows[0].split()
    assert first[0] in ("1.", "1=") and first[1].startswith("movegen.c:")
    lo, _, hi = first[1].split(":")[1].partition("-")
    assert int(lo) <= planted <= int(hi or lo)
    source = (HERE / "movegen.c").read_text().splitlines()
    assert "/" in first[3] and rows[0].endswith(source[int(lo) - 1].strip())   # failing/passing, the line


def test_json_report(capsys, tmp_path):
    code, out, err = run(capsys, "locate", "--engine", build(tmp_path), "-f", CASTLES, "-d", "2",
                         "--runs", "20", "--seconds", "120", "--top", "4", "--json")
    data = json.loads(out)
    assert code == 0 and len(data["suspects"]) == 4
    assert set(data["suspects"][0]) >= {"file", "line", "score", "failed", "passed", "text"}
    assert data["suspects"][0]["file"] == "movegen.c"
    assert data["runs"]["failed"] >= 1 and data["runs"]["passed"] >= 1
    assert len(data["positions"]) == data["runs"]["failed"] + data["runs"]["passed"]
    assert data["positions"][0]["fen"] == CASTLES and data["positions"][0]["failed"]


def test_a_correct_engine_says_so_and_exits_zero(capsys, tmp_path):
    code, out, err = run(capsys, "locate", "--engine", build(tmp_path, planted=False), "-f", CASTLES, "-d", "2")
    assert code == 0
    assert "agree at depth 2: no failing run, nothing to locate" in out


def test_bad_input_is_one_line_and_exit_two(capsys, tmp_path):
    code, out, err = run(capsys, "locate", "--engine", "core", "-d", "2")
    assert code == 2 and "core runs inside perftscope" in err and err.count("\n") == 1
    code, out, err = run(capsys, "locate", "--engine", build(tmp_path), "-d", "2", "--source", str(tmp_path / "nope"))
    assert code == 2 and "not a folder" in err
    code, out, err = run(capsys, "locate", "--engine", build(tmp_path), "-d", "0")
    assert code == 2 and "depth of at least 1" in err
