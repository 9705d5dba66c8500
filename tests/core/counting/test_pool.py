"""The worker pool: exact counts with the table and several workers, divide and
statistics that agree with the single-threaded core, live counters that move
during a run, prompt cancellation that never passes off a partial count, and
errors that reach the caller."""
import threading
import time

import pytest

import perftscope.core.counting.perft as single
from perftscope.core.counting.pool import PoolError, start_perft
from perftscope.core.counting.pool import perft as pool_perft
from perftscope.core.board.position import START_FEN, Position

from ..random_positions import affordable_depth, random_positions

# chessprogramming.org "Perft Results"
KIWIPETE = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"
POS3 = "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1"
POS4 = "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1"
POS5 = "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8"
POS6 = "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10"
KIWIPETE_D4_STATS = {"captures": 757163, "ep": 1929, "castles": 128013, "promotions": 15172,
                     "checks": 25523, "discovery_checks": 42, "double_checks": 6, "checkmates": 43}


def test_start_position_depth_7_with_table_and_two_workers():
    r = pool_perft(Position.from_fen(START_FEN), 7, workers=2, hash_exp=20)
    assert not r.cancelled
    assert r.nodes == 3_195_901_860
    assert r.workers == 2
    assert r.hash.entries == 1 << 20
    assert 0 < r.hash.hits < r.hash.probes
    assert 0 < r.hash.fill <= 1
    assert len(r.worker_cpu) == 2 and all(cpu > 0 for cpu in r.worker_cpu)


@pytest.mark.parametrize("fen, depth, nodes", [
    (KIWIPETE, 5, 193_690_690),
    (POS3, 6, 11_030_083),
    (POS4, 5, 15_833_292),
    (POS5, 5, 89_941_194),
    (POS6, 5, 164_075_551),
])
def test_cpw_positions_with_table_and_pool(fen, depth, nodes):
    assert pool_perft(Position.from_fen(fen), depth, workers=2, hash_exp=16).nodes == nodes


@pytest.mark.parametrize("workers, hash_exp", [(1, -1), (2, -1), (2, 12), (3, 4)])
def test_divide_matches_the_single_threaded_core(workers, hash_exp):
    pos = Position.from_fen(KIWIPETE)
    r = pool_perft(pos, 4, workers=workers, hash_exp=hash_exp, divide=True)
    assert r.divide == single.divide(pos, 4)
    assert r.nodes == sum(r.divide.values())


@pytest.mark.parametrize("depth", [0, 1, 2, 3])
def test_shallow_depths_and_no_moves(depth):
    for fen in (START_FEN, "7k/5QQ1/8/8/8/8/8/K7 b - - 0 1", "k7/8/1Q6/8/8/8/8/7K b - - 0 1"):
        pos = Position.from_fen(fen)
        r = pool_perft(pos, depth, workers=2, hash_exp=8, divide=True)
        assert r.nodes == single.perft(pos, depth)
        assert r.divide == single.divide(pos, depth)


def test_random_positions_tiny_shared_table_two_workers():
    # two workers racing over 16 entries: torn writes and evictions all the time
    replacements = 0
    for pos in random_positions(12, seed=11):
        depth = affordable_depth(pos, budget=1_000_000)
        r = pool_perft(pos, depth, workers=2, hash_exp=4)
        assert r.nodes == single.perft(pos, depth), (pos.fen(), depth)
        replacements += r.hash.replacements
    assert replacements > 1000


def test_statistics_on_the_pool():
    r = pool_perft(Position.from_fen(KIWIPETE), 4, workers=2, stats=True)
    assert r.nodes == 4_085_603
    assert r.stats == KIWIPETE_D4_STATS


def test_live_counters_increase_during_a_run_and_match_at_the_end():
    run = start_perft(Position.from_fen(START_FEN), 6, workers=2)
    seen = []
    while not run.done():
        seen.append(run.snapshot().nodes)
        time.sleep(0.02)
    r = run.result()
    final = run.snapshot()
    assert final.done and not final.cancelled
    assert final.nodes == r.nodes == 119_060_324          # no table: every leaf counted once
    assert final.items_done == final.items_total > 1
    assert sum(w.nodes for w in final.workers) == final.nodes
    run.cancel()                                         # too late: the answer stands
    assert run.result() is r and not run.snapshot().cancelled
    moving = [n for n in seen if 0 < n < r.nodes]
    assert len(moving) >= 2 and moving == sorted(moving) and moving[0] < moving[-1]


def test_live_counters_are_readable_from_another_thread_mid_run():
    run = start_perft(Position.from_fen(START_FEN), 10, workers=2, hash_exp=16)
    try:
        samples = []
        reader = threading.Thread(target=lambda: [samples.append(run.snapshot()) or time.sleep(0.1)
                                                  for _ in range(4)])
        reader.start()
        reader.join()
        assert not samples[-1].done
        assert samples[0].nodes < samples[-1].nodes
        assert samples[0].hash.probes < samples[-1].hash.probes
        assert samples[-1].elapsed > samples[0].elapsed
        assert all(w.nodes > 0 for w in samples[-1].workers)   # both workers are working
    finally:
        run.cancel()
        run.result(timeout=5)


@pytest.mark.alone           # a bound of 1 s on a run of two workers
@pytest.mark.parametrize("hash_exp, stats", [(-1, False), (18, False), (-1, True)])
def test_cancel_ends_a_deep_run_promptly_and_says_so(hash_exp, stats):
    run = start_perft(Position.from_fen(START_FEN), 12, workers=2, hash_exp=hash_exp, stats=stats)
    time.sleep(0.3)
    assert not run.done()
    t0 = time.perf_counter()
    run.cancel()
    r = run.result(timeout=5)
    assert time.perf_counter() - t0 < 1.0               # the benchmark doc has the real figure
    assert r.cancelled
    assert r.nodes is None and r.divide is None and r.stats is None
    assert run.snapshot().cancelled


def test_result_timeout_while_running():
    run = start_perft(Position.from_fen(START_FEN), 12, workers=1)
    try:
        with pytest.raises(TimeoutError):
            run.result(timeout=0.05)
    finally:
        run.cancel()
        assert run.result(timeout=5).cancelled


@pytest.mark.parametrize("kwargs, words", [
    ({"depth": -1}, "depth"),
    ({"depth": 3, "workers": 0}, "workers"),
    ({"depth": 3, "hash_exp": 40}, r"2\^40"),
    ({"depth": 3, "hash_exp": 31}, "GiB"),
])
def test_bad_arguments_raise_at_start(kwargs, words):
    with pytest.raises(PoolError, match=words):
        start_perft(Position.from_fen(START_FEN), **kwargs)


def test_an_error_inside_the_run_reaches_result():
    run = start_perft("not a position", 3, workers=2)
    with pytest.raises(AttributeError):
        run.result(timeout=10)
    assert run.done()


@pytest.mark.parametrize("workers, hash_exp, divide, stats", [
    (1, -1, False, False), (2, -1, False, False), (1, 16, True, False), (2, 16, True, False),
    (1, -1, False, True), (2, -1, True, True),
])
def test_a_prepared_pool_never_enters_the_compiler_during_a_run(workers, hash_exp, divide, stats):
    """A run's seconds hold the count alone: every kernel it calls is loaded and its dispatch
    resolved before its clock starts (numba takes its compiler lock for a cache load too)."""
    from perftscope.core.counting.pool import prepare

    from ..compiler_lock import compiler_entries

    prepare(stats)
    with compiler_entries() as entered:
        r = pool_perft(Position.from_fen(KIWIPETE), 3, workers=workers, hash_exp=hash_exp,
                       divide=divide, stats=stats)
        # promotions at the root: a divide writes them in UCI with a decoder of their own
        promoting = pool_perft(Position.from_fen("n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1"), 2, workers=workers,
                               hash_exp=hash_exp, divide=divide, stats=stats)
    assert r.nodes == 97_862 and promoting.nodes == 496
    assert not divide or "g2g1q" in promoting.divide
    assert entered == []
