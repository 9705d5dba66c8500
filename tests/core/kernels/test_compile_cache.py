"""The compile cache's faults: two processes filling one empty cache at once, a process killed in
the middle of the first compile, and a cache folder that cannot be written. Each test compiles
from an empty cache on purpose, which is why each takes seconds of CPU."""
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import chess
import pytest

from ..python_chess_reference import python_chess_perft

KIWIPETE = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"
PACKAGE = Path(__file__).resolve().parents[3]
FENS = [KIWIPETE, "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
        "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1"]
# the board's kernels alone (legal moves, make, the key, check): a few seconds to compile, and
# as exposed to each fault as the whole generator
MOVES = ("import sys; from perftscope.core.board.position import Position\n"
         "for fen in sys.argv[1:]:\n"
         "    pos = Position.from_fen(fen)\n"
         "    print(' '.join(sorted(pos.legal_moves())), sum(len(pos.push(m).legal_moves()) for m in pos.legal_moves()))")


def behind_other_tests():
    """In a child: a lower priority. These compiles run beside other tests (pytest -n) and take
    what CPU those leave; the tests that time a user's wait run alone, later."""
    os.nice(10)


def moves(cache, **popen):
    """Every legal move and perft 2 of FENS, by the core, on `cache`: started, not waited for."""
    return subprocess.Popen([sys.executable, "-c", MOVES, *FENS], env=dict(os.environ, PERFTSCOPE_CACHE=str(cache)),
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            preexec_fn=behind_other_tests, **popen)


def answer(proc) -> list[str]:
    out, err = proc.communicate(timeout=600)
    assert proc.returncode == 0, err
    return out.splitlines()


def expected() -> list[str]:
    lines = []
    for fen in FENS:
        board = chess.Board(fen)
        lines.append(" ".join(sorted(m.uci() for m in board.legal_moves)) + f" {python_chess_perft(board, 2)}")
    return lines


def cache_files(cache: Path) -> dict:
    return {p: p.stat().st_mtime_ns for p in cache.rglob("*") if p.is_file()}


def test_two_processes_filling_one_empty_cache_at_once_both_count_right(tmp_path):
    cache = tmp_path / "cache"
    first, second = moves(cache), moves(cache)
    assert answer(first) == answer(second) == expected()
    # the cache they wrote together is whole: a third process loads everything and writes nothing
    written = cache_files(cache)
    assert any(p.suffix == ".nbi" for p in written)
    assert answer(moves(cache)) == expected()
    assert cache_files(cache) == written


def test_a_process_killed_in_the_middle_of_the_first_compile_leaves_a_cache_the_next_one_can_use(tmp_path):
    cache = tmp_path / "cache"
    proc = moves(cache)
    deadline = time.monotonic() + 300
    while not any(cache.rglob("*.nbc")) and time.monotonic() < deadline and proc.poll() is None:
        time.sleep(0.05)             # the first kernels are written, others are being compiled
    assert proc.poll() is None, "the compile finished before it could be interrupted"
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait()
    assert answer(moves(cache)) == expected()


def test_a_cache_that_cannot_be_written_is_said_once_and_the_kernels_compile_in_memory(tmp_path):
    blocker = tmp_path / "a file"
    blocker.write_text("")
    before = {p for p in PACKAGE.rglob("*.nb[ic]")}
    proc = moves(blocker / "cache")
    out, err = proc.communicate(timeout=600)
    assert proc.returncode == 0, err
    lines = err.splitlines()
    assert len(lines) == 1 and "cannot be written" in lines[0] and str(blocker) in lines[0], err
    assert out.splitlines() == expected()
    assert {p for p in PACKAGE.rglob("*.nb[ic]")} == before      # nothing written next to the sources


@pytest.mark.alone           # a bound of 5 s on the wait after Ctrl-C
def test_ctrl_c_during_the_first_compile_is_an_interrupt_not_a_crash(tmp_path):
    # the interrupt can land inside llvmlite's callbacks, which swallow it and leave numba to fail
    # with an error of its own: the user still sees one line and exit code 130, at once
    for delay in (0.0, 1.5):
        cache = tmp_path / f"cache{delay}"
        proc = subprocess.Popen([sys.executable, "-m", "perftscope.app.cli", "perft", "-d", "3"],
                                env=dict(os.environ, PERFTSCOPE_CACHE=str(cache)),
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        deadline = time.monotonic() + 120
        while not any(cache.rglob("*.nbi")) and proc.poll() is None and time.monotonic() < deadline:
            time.sleep(0.02)
        time.sleep(delay)
        assert proc.poll() is None, "the first compile ended before it could be interrupted"
        proc.send_signal(signal.SIGINT)
        sent = time.monotonic()
        out, err = proc.communicate(timeout=60)
        assert (proc.returncode, err, out) == (130, "perftscope: interrupted\n", "")
        assert time.monotonic() - sent < 5


# llvmlite's ObjectRef built without its __init__ (as an interrupt inside it leaves one) fails in
# its destructor: after a Ctrl-C the CLI keeps that echo off the terminal, never before one
HALF_BUILT = """
import sys
from llvmlite.binding.ffi import ObjectRef
from perftscope.app.cli import _Interrupts
_Interrupts.install()
_Interrupts.seen = sys.argv[1] == "after"
ref = ObjectRef.__new__(ObjectRef)
del ref
print("went on")
"""


@pytest.mark.parametrize("when", ["before", "after"])
def test_a_compiler_object_the_interrupt_left_half_built_is_not_a_traceback(when):
    out = subprocess.run([sys.executable, "-c", HALF_BUILT, when], capture_output=True, text=True, timeout=60)
    assert out.returncode == 0 and out.stdout == "went on\n"
    if when == "after":
        assert out.stderr == ""
    else:
        assert "Exception ignored in" in out.stderr and "ObjectRef.__del__" in out.stderr


def test_a_warm_load_installs_none_of_numbas_registries_and_a_compile_after_it_still_works():
    """A kernel loaded from the cache needs its machine code and numba's runtime, not numba's
    registries of implementations (numba.np.arraymath is one: imported by them alone), whose
    installation was a third of a warm `divide -d 1`. A function compiled afterwards in the same
    process installs them itself and runs."""
    code = ("import sys\n"
            "from perftscope.app.cli import main\n"
            "main(['divide', '-d', '2', '-f', sys.argv[1]])\n"
            "print('arraymath' , 'numba.np.arraymath' in sys.modules)\n"
            "import numba, numpy as np\n"
            "print('compiled', numba.njit(lambda n: np.arange(n).sum())(10))\n")
    run = subprocess.run([sys.executable, "-c", code, KIWIPETE], capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stderr[-2000:]
    lines = run.stdout.splitlines()
    assert "Nodes searched: 2039" in lines and "e5f7: 44" in lines
    assert lines[-2:] == ["arraymath False", "compiled 45"]
