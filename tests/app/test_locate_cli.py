"""`perftscope locate`: the text and JSON reports, a correct engine, bad input."""
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import time
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
                         "--runs", "40", "--seconds", "120", "--top", "3", "--mutants", "30",
                         "--build", "gcc -O0 -o movegen movegen.c", "--fix-fuzz-seconds", "1")
    assert code == 0 and err == ""
    # the fix, its evidence and its diff
    assert re.search(r"^mutants    \d+ run of \d+ made, [\d.]+ per second", out, re.M)
    assert re.search(r"^fix        movegen\.c:112: `1` to `2` turns (\d+) of \1 failing runs(?: tried \(of \d+\))? to "
                     r"pass, keeps (\d+) of \2 passing runs(?: tried \(of \d+\))?, and agrees at "
                     r"r3k3/8/8/8/8/8/8/4K3 b q - 0 1 depth 2, depth 3", out, re.M), out
    assert "           +        add(out, n, row + 4, row + 2, 'c');   /* PLANTED" in out
    assert "`1` to `2` here is a fix" in out
    assert f"failing    {CASTLES}\n" in out
    assert "misses e8c8; generates illegal e8b8 (castling)" in out
    assert "runs       " in out and " failing, " in out and "(gcov coverage)" in out
    rows = [line for line in out.splitlines() if re.match(r"^ *\d+[.=]", line)]
    assert len(rows) == 3
    planted = next(n for n, line in enumerate((HERE / "movegen.c").read_text().splitlines(), 1) if "/* PLANTED:" in line)
    # the rank, '=' and the tie's size when tied, '*' when the move-aware step ranked it
    first = re.match(r"^\s*(\d+)([.=])(?: of (\d+))?(\*?) +(\S+) +(\S+) +(\S+) +(.*)$", rows[0])
    assert first and first[1] == "1" and first[5].startswith("movegen.c:"), rows[0]
    ties = [row for row in rows if row.lstrip().startswith("1=")]
    assert (first[2] == "=") == (first[3] is not None) and (first[3] is None or int(first[3]) >= len(ties))
    lo, _, hi = first[5].split(":")[1].partition("-")
    assert int(lo) <= planted <= int(hi or lo)
    source = (HERE / "movegen.c").read_text().splitlines()
    assert "/" in first[7] and rows[0].endswith(source[int(lo) - 1].strip())   # failing/passing, the line
    # the move-aware step: the planted line ran on the way to the wrong castling, which its twin
    # (the position without the right q) does not make; the rows it ranked are marked
    assert first[4] == "*"
    # e8c8 is missed (the king goes to b8): its lines ran where it should have been generated
    assert "*: ran where e8c8 should have been generated, not in the same position without the castling right q" in out


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


def _counts(fen, depth):
    import chess

    def perft(board, d):
        if d == 0:
            return 1
        total = 0
        for move in list(board.legal_moves):
            board.push(move)
            total += perft(board, d - 1)
            board.pop()
        return total
    return perft(chess.Board(fen), depth)


def test_locate_starts_from_a_saved_session_with_its_engines(capsys, tmp_path):
    from perftscope.app.session_files import report_json, save
    from perftscope.core.engines.oracles import make_oracle
    from perftscope.core.engines.oracle import Request
    from perftscope.core.mismatch.finder import find_mismatch
    spec = build(tmp_path)
    with make_oracle(spec) as engine, make_oracle("core") as reference:
        report = find_mismatch(engine, reference, Request.of(CASTLES), 2)
    assert report.missing or report.extra
    session = tmp_path / "bug.json"
    save(str(session), {"fen": CASTLES, "moves": [], "engine": spec, "reference": "core", "timeout": None,
                        "divide": None, "finder": report_json(report)})
    code, out, err = run(capsys, "locate", "--session", str(session), "--runs", "12", "--seconds", "120", "--json")
    assert code == 0, err
    data = json.loads(out)
    # the session's engines and its finder's failing position, at depth 1
    assert data["engine"] == "movegen" and data["reference"] == "core"
    assert data["fen"] == report.root_fen and data["moves"] == list(report.path)
    assert data["example"]["failed"] and data["suspects"][0]["file"] == "movegen.c"
    # a session without a finding says so
    save(str(session), {"fen": CASTLES, "moves": [], "engine": spec, "reference": "core", "timeout": None,
                        "divide": None, "finder": None})
    code, out, err = run(capsys, "locate", "--session", str(session))
    assert code == 2 and "holds no finding" in err and err.count("\n") == 1


def test_locate_starts_from_a_suite_finding(capsys, tmp_path):
    spec = build(tmp_path)
    suite = tmp_path / "castles.epd"
    suite.write_text(f"4k3/8/8/8/8/8/8/4K3 w - - 0 1 ;D1 5 ;D2 25\n"
                     f"{CASTLES} ;D1 {_counts(CASTLES, 1)} ;D2 {_counts(CASTLES, 2)}\n")
    code, out, err = run(capsys, "suite", str(suite), "--engine", spec, "--json")
    assert code == 1
    findings = tmp_path / "suite.json"
    findings.write_text(out)
    code, out, err = run(capsys, "locate", "--finding", str(findings), "--engine", spec, "--runs", "12",
                         "--seconds", "120", "--json")
    assert code == 0, err
    data = json.loads(out)
    assert data["example"]["failed"] and Position_of(data) == CASTLES.split(" ")[:2]
    # the file holds one finding: asking for a second, or leaving out the engine, is one line
    code, out, err = run(capsys, "locate", "--finding", f"{findings}:2", "--engine", spec)
    assert code == 2 and "holds 1 finding, not a number 2" in err and err.count("\n") == 1
    code, out, err = run(capsys, "locate", "--finding", str(findings))
    assert code == 2 and "--engine" in err and err.count("\n") == 1


def Position_of(data):
    """The board and side to move of the locate's starting position, after its moves."""
    import chess
    board = chess.Board(data["fen"])
    for move in data["moves"]:
        board.push_uci(move)
    return board.fen().split(" ")[:2]


def test_a_killed_locate_removes_its_copies_and_folders(tmp_path):
    """`kill` (SIGTERM) stops a locate as Ctrl-C does: its engine calls end, the folder of its
    mutants' copies is removed, and it exits 143. The default action left the copies behind."""
    scratch = tmp_path / "tmp"
    scratch.mkdir()
    shutil.copy(HERE / "movegen.py", tmp_path / "movegen.py")
    proc = subprocess.Popen([os.path.join(os.path.dirname(sys.executable), "perftscope"), "locate",
                             "--engine", f"perftree:{tmp_path / 'movegen.py'}", "-f", "8/4P3/8/8/8/8/k7/4K3 w - - 0 1",
                             "-d", "1", "--seconds", "120", "--runs", "8"], cwd=tmp_path, env=os.environ | {"TMPDIR": str(scratch)},
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + 60
        while not any(scratch.glob("perftscope-mutants-*")) and time.monotonic() < deadline and proc.poll() is None:
            time.sleep(0.05)
        assert any(scratch.glob("perftscope-mutants-*")), proc.poll()      # the mutants are running
        proc.send_signal(signal.SIGTERM)
        out, err = proc.communicate(timeout=60)
    finally:
        proc.kill()
    assert proc.returncode == 143 and "perftscope: interrupted" in err and out == "", (proc.returncode, err)
    assert not any(scratch.iterdir()), list(scratch.iterdir())
