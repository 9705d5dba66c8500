"""Small requests through the move list (core.counting.shallow): the same counts as the pool and
python-chess (Chess960, en passant and pins included), which requests count as small, no compile
inside a run's clock, cancel, and a small request that never loads the pool's kernels."""
import json
import os
import subprocess
import sys
import time

import chess
import pytest

from perftscope import resources
from perftscope.core.board.position import START_FEN, Position
from perftscope.core.counting import shallow
from perftscope.core.counting.pool import perft as pool_perft
from perftscope.core.counting.suites import load

from ..compiler_lock import compiler_entries
from ..python_chess_reference import python_chess_divide
from ..random_positions import KIWIPETE, POSITION_4, random_boards
from .test_perft import suite_cases

POSITION_3 = "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1"
POSITION_5 = "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8"
# en passant and pins: the rank pin through both pawns, a pinned capturer, a check the capture
# resolves, a pinned piece that may move along its ray, and promotions with capture
TRICKY = ("8/8/8/KPp4r/8/8/8/7k w - c6 0 2", "4k3/8/8/1b6/2pP4/8/8/6K1 b - d3 0 1",
          "8/8/3k4/8/2pP4/8/B7/7K b - d3 0 1", "4k3/4r3/8/8/8/8/4R3/4K3 w - - 0 1",
          "r3k2r/1P6/8/8/8/8/8/R3K2R w KQkq - 0 1", "n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1")


def shallow_run(pos, depth, divide=False):
    shallow.prepare(depth)
    return shallow.start_shallow(pos, depth, divide=divide).result(timeout=60)


@pytest.mark.parametrize("fen, depth, nodes", [
    *suite_cases("perftsuite.epd", 5_000_000), *suite_cases("ep_edge_cases.epd", 5_000_000),
    *suite_cases("python-chess_tricky.perft", 5_000_000), *suite_cases("chess960.perft", 1_000_000)])
def test_published_counts(fen, depth, nodes):
    assert shallow_run(Position.from_fen(fen), depth).nodes == nodes


@pytest.mark.parametrize("seed", range(3))
def test_divide_is_the_pools_and_python_chess(seed):
    boards = random_boards(seed, 25, plies=60, starts=(chess.STARTING_FEN, KIWIPETE, POSITION_4, *TRICKY),
                           pawn_bias=0.5)
    for board in boards:
        pos = Position.from_fen(board.fen())
        ours = shallow_run(pos, 2, divide=True)
        assert ours.divide == python_chess_divide(board, 2), board.fen()
        assert ours.nodes == sum(ours.divide.values())
        deeper = shallow_run(pos, 3, divide=True)
        assert deeper.divide == pool_perft(pos, 3, workers=2, divide=True).divide, board.fen()


def test_chess960_divides_are_python_chess():
    entries = load(resources.path("python-chess_chess960.perft"), chess960=True)[:40]
    assert entries
    for e in entries:
        pos = Position.from_fen(e.full_fen, chess960=True)
        board = chess.Board(e.full_fen, chess960=True)
        ours = shallow_run(pos, 2, divide=True).divide
        theirs = python_chess_divide(board, 2)
        # python-chess writes a Chess960 castling as king takes rook, as the core does
        assert ours == theirs, e.full_fen


def test_depth_zero_and_one():
    pos = Position.from_fen(KIWIPETE)
    r = shallow_run(pos, 0, divide=True)
    assert (r.nodes, r.divide) == (1, {})
    assert shallow_run(pos, 0).nodes == 1
    r = shallow_run(pos, 1, divide=True)
    assert r.nodes == 48 and set(r.divide.values()) == {1} and len(r.divide) == 48
    mate = Position.from_fen("7k/6Q1/6K1/8/8/8/8/8 b - - 0 1")
    assert shallow_run(mate, 1, divide=True).divide == {} and shallow_run(mate, 4).nodes == 0


@pytest.mark.parametrize("fen, depth, nodes", [
    (START_FEN, 4, 197_281), (START_FEN, 5, 4_865_609), (START_FEN, 6, 119_060_324),
    (KIWIPETE, 4, 4_085_603), (KIWIPETE, 5, 193_690_690), (POSITION_3, 6, 11_030_083),
    (POSITION_3, 7, 178_633_661), (POSITION_4, 5, 15_833_292), (POSITION_5, 4, 2_103_487)])
def test_the_estimate_and_what_counts_as_small(fen, depth, nodes, monkeypatch):
    pos = Position.from_fen(fen)
    guess = shallow.estimate(pos, depth)
    assert nodes / 2 <= guess <= nodes * 2, guess
    # before the pool's kernels are cached, the trees of a 20 M estimate or less are counted
    # here, the much bigger ones go to the pool
    monkeypatch.setattr(shallow, "pool_is_cached", lambda: False)
    assert shallow.is_small(pos, depth) == (guess <= shallow.SHALLOW_LEAVES) == (nodes < 30_000_000)
    # once they are, a tree of a million leaves or more is theirs
    monkeypatch.setattr(shallow, "pool_is_cached", lambda: True)
    assert shallow.is_small(pos, depth) == (guess <= shallow.WARM_LEAVES) == (nodes < 1_000_000)


def test_depth_three_or_less_is_always_small_and_counts_nothing_to_say_so():
    assert all(shallow.is_small(Position.from_fen(KIWIPETE), d) for d in range(4))


@pytest.mark.parametrize("depth, divide", [(0, True), (1, False), (1, True), (2, False), (3, True), (5, False)])
def test_a_prepared_run_never_enters_the_compiler(depth, divide):
    """A run's seconds hold the count alone: what it calls is loaded before its clock starts
    (numba takes its compiler lock for a cache load too). Position 4's root has promotions."""
    pos = Position.from_fen(POSITION_4)
    shallow.prepare(depth)
    with compiler_entries() as entered:
        r = shallow.start_shallow(pos, depth, divide=divide).result(timeout=60)
    assert r.nodes == {0: 1, 1: 6, 2: 264, 3: 9_467, 5: 15_833_292}[depth] and r.workers == 1
    assert entered == []


def test_cancel_stops_the_count_and_gives_no_counts():
    shallow.prepare(7)
    run = shallow.start_shallow(Position.from_fen(START_FEN), 7, divide=True)   # 3.2 G nodes: seconds
    time.sleep(0.3)
    assert not run.done() and run.snapshot().nodes > 0
    asked = time.perf_counter()
    run.cancel()
    r = run.result(timeout=5)
    assert time.perf_counter() - asked < 0.5
    assert r.cancelled and r.nodes is None and r.divide is None
    assert run.snapshot().cancelled


def test_snapshot_after_the_run_says_done_with_every_node():
    shallow.prepare(4)
    run = shallow.start_shallow(Position.from_fen(KIWIPETE), 4)
    r = run.result(timeout=60)
    snap = run.snapshot()
    assert snap.done and not snap.cancelled and snap.nodes == r.nodes == 4_085_603
    assert snap.elapsed == pytest.approx(r.seconds, abs=0.05)


def test_a_small_request_loads_no_kernel_of_the_pool():
    """A divide of depth 1 loads the legal moves alone; depth 3 the move-list walk as well;
    neither imports the pool or perft 2's C kernels, which compile at import."""
    code = ("import sys, json\n"
            "from perftscope.app.cli import main\n"
            "seen = {}\n"
            "for depth in ('1', '3'):\n"
            "    main(['divide', '-d', depth])\n"
            "    seen[depth] = sorted(m for m in sys.modules if m.startswith('perftscope.core.'))\n"
            "print(json.dumps(seen))\n")
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stderr[-2000:]
    seen = json.loads(run.stdout.splitlines()[-1])
    pool = {"perftscope.core.counting.pool", "perftscope.core.kernels.perft", "perftscope.core.kernels.two_ply",
            "perftscope.core.kernels.search", "perftscope.core.kernels.expand", "perftscope.core.kernels.stats",
            "perftscope.core.counting.split", "perftscope.core.counting.cluster"}
    assert not pool & set(seen["3"]), seen["3"]
    assert "perftscope.core.kernels.listed" not in seen["1"] and "perftscope.core.kernels.listed" in seen["3"]
    assert "perftscope.core.kernels.movegen" in seen["1"]


def _perft_json(argv, env=None) -> tuple[dict, list[str]]:
    """`perftscope perft ARGV --json` in a process of its own: (its answer, the core modules it imported)."""
    code = ("import sys, json\n"
            "from perftscope.app.cli import main\n"
            f"main({[*argv, '--json']!r})\n"
            "print(json.dumps(sorted(m for m in sys.modules if m.startswith('perftscope.core.'))))\n")
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300, env=env)
    assert run.returncode == 0, run.stderr[-2000:]
    *answer, modules = run.stdout.splitlines()
    return json.loads("".join(answer)), json.loads(modules)


def test_a_request_of_millions_counts_on_the_pools_kernels_once_they_are_cached():
    """Position 4 depth 5 (15.8 M leaves) and position 3 depth 6 (11.0 M): counted by the fast
    kernels (perft 2's C kernels, through the pool) on a cache that holds them, as the suite's
    does, on the workers asked for; a tree of thousands still by the move list."""
    from perftscope.core.counting import pool
    pool.prepare()              # the pool's kernels in the cache (the suite's preparation did it)
    answer, modules = _perft_json(["perft", "-d", "5", "-f", POSITION_4, "-w", "2"])
    assert answer["nodes"] == 15_833_292 and answer["path"] == "pool" and answer["workers"] == 2
    assert "perftscope.core.kernels.two_ply" in modules
    answer, _ = _perft_json(["perft", "-d", "6", "-f", POSITION_3, "-w", "1"])
    assert answer["nodes"] == 11_030_083 and answer["path"] == "pool" and answer["workers"] == 1
    answer, _ = _perft_json(["perft", "-d", "4", "-w", "2"])
    assert answer["nodes"] == 197_281 and answer["path"] == "move list" and answer["workers"] == 1


def test_a_request_of_millions_takes_the_move_list_while_the_pools_kernels_are_not_cached(tmp_path):
    """A cache whose pool step was never prepared (the move generator's kernels are there, so
    that nothing compiles here): position 4 depth 5 is counted through the move list, and
    nothing of the pool is imported, since loading it would compile it."""
    from perftscope.app import warmup
    from perftscope.core.kernel_cache import CACHE_DIR
    warmup.warm(steps=("board", "perft"))      # the move list's kernels: loaded, or compiled once
    ours = tmp_path / CACHE_DIR.name
    ours.mkdir()
    for name in ("kernels", "tables.npy"):
        (ours / name).symlink_to(CACHE_DIR / name)
    answer, modules = _perft_json(["perft", "-d", "5", "-f", POSITION_4, "-w", "2"],
                                  env={**os.environ, "PERFTSCOPE_CACHE": str(tmp_path)})
    assert answer["nodes"] == 15_833_292 and answer["path"] == "move list" and answer["workers"] == 1
    assert "perftscope.core.kernels.two_ply" not in modules and "perftscope.core.counting.pool" not in modules
    assert not (ours / "prepared-pool").exists()
