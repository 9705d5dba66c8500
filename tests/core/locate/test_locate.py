"""core.locate end to end: planted-bug engines (tests/engines/locate) in Python under a Python of
their own started by a shell launcher, in JavaScript under Node, and in C built here with
`gcc --coverage`; each located to its planted line, a correct one found to agree."""
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from perftscope.core.errors import PerftscopeError
from perftscope.core.locate.job import LocateJob, LocateSettings
from perftscope.core.locate.sources import program_of

HERE = Path(__file__).resolve().parents[2] / "engines" / "locate"
PROMOTES = "4k3/1P4p1/8/8/8/8/5P2/4K3 w - - 0 1"          # b7b8n missing in movegen.py
CAPTURE_PROMOTES = "4k3/8/8/8/8/8/1p4P1/R3K3 b Q - 0 1"  # b2a1r/b/n missing in movegen.js
CASTLES = "r3k3/8/8/8/8/8/8/4K3 b q - 0 1"               # e8c8 written e8b8 by movegen.c


def planted(name: str, marker: str) -> int:
    """The line of `name` holding `marker`."""
    for number, line in enumerate((HERE / name).read_text().splitlines(), 1):
        if marker in line:
            return number
    raise AssertionError(f"no {marker} in {name}")


def first_holds(result, file: str, line: int) -> bool:
    """The planted line is in a suspect ranked first (alone or tied)."""
    return any(s.rank == 1 and s.file == file and s.line <= line <= s.last for s in result.suspects)


def locate(spec, fen, depth=2, runs=16, **more):
    """A locate bounded by its number of runs, not by time: the same ranking on a busy machine
    (the spectrum's ranking: no mutants, test_locate_mutants tries them)."""
    return LocateJob(LocateSettings(spec, fen=fen, depth=depth, runs=runs, seconds=120.0, mutants=0, **more)).run()


@pytest.fixture
def python_launcher(tmp_path):
    """movegen.py beside a shell launcher that execs it under a venv of its own (not this
    test's Python, and with nothing installed in it)."""
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
    shutil.copy(HERE / "movegen.py", tmp_path / "movegen.py")
    launcher = tmp_path / "engine.sh"
    launcher.write_text(f'#!/bin/sh\nexec "{venv}/bin/python" "$(dirname "$0")/movegen.py" "$@"\n')
    launcher.chmod(0o755)
    return launcher, venv


def test_python_engine_under_its_own_python_is_located_to_its_planted_line(python_launcher):
    launcher, venv = python_launcher
    result = locate(f"perftree:{launcher}", PROMOTES)
    assert result.coverage == ("python",)
    assert result.example.fen == PROMOTES and "b7b8n" in result.example.verdict
    assert result.focus == "promotion"
    assert result.failed >= 1 and result.passed >= 1
    assert first_holds(result, "movegen.py", planted("movegen.py", "# PLANTED:")), result.suspects[:5]
    # the source is the launcher's folder, found on its own; nothing of the venv's Python is ranked
    assert result.sources == (os.path.realpath(launcher.parent),)
    assert all(s.file == "movegen.py" for s in result.suspects)


def test_javascript_engine_under_node_is_located_to_its_planted_line():
    result = locate(f"perftree:{HERE / 'movegen.js'}", CAPTURE_PROMOTES)
    assert result.coverage == ("node",)
    assert first_holds(result, "movegen.js", planted("movegen.js", "// PLANTED:")), result.suspects[:5]
    top = [s for s in result.suspects if s.rank == 1]
    assert all(s.failed == result.failed and s.passed == 0 for s in top)


def test_c_engine_built_with_coverage_is_located_to_its_planted_line(c_engine):
    result = locate(f"perftree:{c_engine}", CASTLES, runs=40)
    assert result.coverage == ("gcov",)
    assert first_holds(result, "movegen.c", planted("movegen.c", "/* PLANTED:")), result.suspects[:5]
    # the runs' data went to folders of their own, not beside the objects
    assert not list(c_engine.parent.glob("*.gcda"))
    assert program_of(f"perftree:{c_engine}").objects == (str(c_engine.parent / "movegen.gcda"),)


def test_a_correct_engine_gives_no_failing_run(tmp_path):
    fixed = tmp_path / "movegen.py"
    fixed.write_text((HERE / "movegen.py").read_text().replace('"qrb":', '"qrbn":'))
    fixed.chmod(0o755)
    result = locate(f"perftree:{fixed}", PROMOTES)
    assert result.agree and result.suspects == [] and result.runs == []


def test_a_program_without_coverage_says_how_to_build_it(tmp_path):
    shutil.copy(HERE / "movegen.c", tmp_path / "movegen.c")
    subprocess.run(["gcc", "-O0", "-o", "movegen", "movegen.c"], cwd=tmp_path, check=True)
    with pytest.raises(PerftscopeError, match=r"--coverage.*-C instrument-coverage") as caught:
        locate(f"perftree:{tmp_path / 'movegen'}", CASTLES, runs=4, sources=(str(tmp_path),))
    assert "\n" not in str(caught.value)


def test_a_python_script_run_without_site_says_which_flag_keeps_its_coverage_out(tmp_path):
    """`python3 -S` (as a start-up trim) skips the sitecustomize the coverage comes from: the
    error names the flag on the script's first line rather than guessing."""
    script = tmp_path / "movegen.py"
    text = (HERE / "movegen.py").read_text().split("\n", 1)[1]
    script.write_text("#!/usr/bin/env -S python3 -S\n" + text)
    script.chmod(0o755)
    with pytest.raises(PerftscopeError, match=r"first line runs Python with -S") as caught:
        locate(f"perftree:{script}", PROMOTES, runs=4)
    assert "\n" not in str(caught.value)


def test_a_locate_reads_each_position_once(tmp_path, fen_reads):
    """The runs keep the Request they were run on: ranking, twins and the move-aware step build
    their boards from it, not from the run's FEN read again (15 readings of the failing FEN before)."""
    engine = tmp_path / "movegen.py"
    shutil.copy(HERE / "movegen.py", engine)
    result = locate(f"perftree:{engine}", PROMOTES, runs=12)
    assert result.failed >= 1
    read = [r.fen for r in fen_reads]
    assert read.count(PROMOTES) == 1, [r for r in fen_reads if r.fen == PROMOTES]
    assert len(read) <= len(set(read)) + 2, fen_reads


def test_stop_ends_the_job_with_what_it_has(c_engine):
    import threading
    job = LocateJob(LocateSettings(f"perftree:{c_engine}", fen=CASTLES, depth=2, seconds=60.0, mutants=0))
    seen = []

    def emit(event):
        seen.append(event)
        if len(seen) == 6:
            threading.Thread(target=job.stop).start()
    result = job.run(emit)
    assert result.stopped and 1 <= len(result.runs) < 20


def test_c_engine_built_with_llvm_profiles_is_located_to_its_planted_line(tmp_path):
    shutil.copy(HERE / "movegen.c", tmp_path / "movegen.c")
    subprocess.run(["clang", "-O0", "-fprofile-instr-generate", "-fcoverage-mapping", "-o", "movegen", "movegen.c"],
                   cwd=tmp_path, check=True)
    result = locate(f"perftree:{tmp_path / 'movegen'}", CASTLES, runs=12)
    assert result.coverage == ("llvm",)
    assert result.sources == (str(tmp_path.resolve()),)
    assert first_holds(result, "movegen.c", planted("movegen.c", "/* PLANTED:")), result.suspects[:5]


def test_an_interactive_engine_from_an_engine_file_is_sent_quit_and_located(tmp_path):
    """A process per run, asked to quit so it writes its coverage on the way out; the engine
    file says where its source is."""
    described = tmp_path / "engine.toml"
    described.write_text(f'command = ["python3", "{HERE / "interactive.py"}"]\n'
                         f'source = ["{HERE}"]\ncoverage = "python"\n')
    result = locate(f"file:{described}", PROMOTES, runs=10)
    assert result.sources == (str(HERE),) and result.coverage == ("python",)
    assert all(run.lines for run in result.runs)          # every run's process exited and wrote
    assert first_holds(result, "movegen.py", planted("movegen.py", "# PLANTED:")), result.suspects[:5]


def test_a_program_built_under_a_dot_folder_is_still_read(tmp_path):
    """Its .gcda land under the object's own path, a hidden folder in it (a cache, a .build/ tree)."""
    hidden = tmp_path / ".cache" / "build"
    hidden.mkdir(parents=True)
    shutil.copy(HERE / "movegen.c", hidden / "movegen.c")
    subprocess.run(["gcc", "--coverage", "-O0", "-o", "movegen", "movegen.c"], cwd=hidden, check=True)
    result = locate(f"perftree:{hidden / 'movegen'}", CASTLES, runs=4)
    assert result.coverage == ("gcov",) and all(run.lines for run in result.runs)


def test_a_fen_that_does_not_stand_as_written_is_located_with_a_warning(c_engine):
    """The engine is given the FEN as written (a castling right K with no rook on h1); nothing is
    shrunk below it, and the text warns as compare does."""
    written = "r3k3/8/8/8/8/8/8/4K3 b Kq - 0 1"
    result = locate(f"perftree:{c_engine}", written, runs=6)
    assert result.example.fen == written and "e8c8" in result.example.verdict
    assert not any(run.origin == "shrink" for run in result.runs)
    assert any("castling right" in w and "as written" in w for w in result.warnings), result.warnings
    assert result.suspects and result.to_json()["warnings"] == result.warnings


def test_an_impossible_position_is_ranked_with_a_warning(c_engine):
    """Seven queens with all eight pawns still on the board: no game reaches it."""
    result = locate(f"perftree:{c_engine}", "r3k3/pppppppp/8/8/8/8/PPPPPPPP/QQQQKQQQ b q - 0 1", runs=4)
    assert any("cannot arise in a real game" in w for w in result.warnings), result.warnings


@pytest.mark.parametrize("runs", [3, 6])
def test_no_run_is_started_after_as_many_as_asked(runs):
    """--runs bounds the runs started, though two workers run at once and each batch (twins,
    paths, children, shrink) checks the count before it starts one."""
    result = locate(f"perftree:{HERE / 'movegen.py'}", PROMOTES, depth=1, runs=runs)
    assert len(result.runs) == runs, [r.origin for r in result.runs]
