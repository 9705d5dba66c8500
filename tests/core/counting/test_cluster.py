"""Deep perft on a Dask cluster: the split merges only identical positions, tasks are
balanced, the cluster's sums are exact (also with a worker killed mid-run), and the
journal refuses another run's file."""
import os
import signal
import sqlite3
import threading

import numpy as np
import pytest

import perftscope.core.counting.perft as single
from perftscope.core.counting.perft import child_state
from perftscope.core import kernels
from perftscope.core.counting.cluster import ClusterError, ClusterRun, count_task, make_tasks, run_perft, split_positions
from perftscope.core.kernels import expand as _x
from perftscope.core.board.position import START_FEN, Position

from ...cluster_workers import paced, tasks_in_journal, warmed

# chessprogramming.org "Perft Results"
KIWIPETE = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"
POS3 = "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1"


def _raw_and_kept(before: Position, uci: str):
    """The kernel's state after one move as make() leaves it, and the row the split keeps."""
    raw = np.array([child_state(before, uci)], np.uint64)
    kept = raw.copy()
    _x.forget_dead_ep(kernels.table(), kept)
    return raw[0], kept[0]


def test_distinct_positions_after_each_ply_of_the_start_position():
    # OEIS A083276: distinct positions after n plies, en passant counted only when possible
    for plies, unique, total in [(1, 20, 20), (2, 400, 400), (3, 5362, 8902), (4, 72078, 197281)]:
        sp = split_positions(Position.from_fen(START_FEN), plies)
        assert (sp.unique, sp.total) == (unique, total)
        assert int(sp.mult.sum()) == single.perft(Position.from_fen(START_FEN), plies)


def test_a_dead_en_passant_square_does_not_separate_transpositions():
    start = Position.from_fen(START_FEN)
    raw_a, a = _raw_and_kept(start.play("e2e4 g8f6"), "g1f3")
    raw_b, b = _raw_and_kept(start.play("g1f3 g8f6"), "e2e4")   # e3 set, no black pawn can take
    assert raw_a[_x.EP_COL] == 0 and raw_b[_x.EP_COL] != 0
    assert np.array_equal(a, b)


def test_a_live_en_passant_square_keeps_positions_apart():
    start = Position.from_fen(START_FEN)
    raw_a, a = _raw_and_kept(start.play("e2e4 a7a6 e4e5"), "d7d5")  # exd6 is possible
    raw_b, b = _raw_and_kept(start.play("e2e4 d7d5 e4e5"), "a7a6")  # same board, no ep
    assert a[_x.EP_COL] != 0 and b[_x.EP_COL] == 0
    assert np.array_equal(np.delete(a, [_x.EP_COL, _x.KEY_COL]), np.delete(b, [_x.EP_COL, _x.KEY_COL]))
    assert not np.array_equal(a, b)


@pytest.mark.parametrize("fen, plies, depth", [(KIWIPETE, 2, 4), (POS3, 3, 5), (START_FEN, 3, 5)])
def test_multiplicity_times_count_is_perft_and_rows_are_distinct(fen, plies, depth):
    pos = Position.from_fen(fen)
    for divide in (False, True):
        sp = split_positions(pos, plies, divide)
        keyed = {(int(o), r.tobytes()) for o, r in zip(sp.owner, sp.rows)}
        assert len(keyed) == sp.unique                   # merged: nothing left twice
        counts, _, _ = count_task(sp.rows, depth - plies)      # what a worker runs, here
        assert int((counts * sp.mult).sum()) == single.perft(pos, depth)
        if divide:
            per_root = np.zeros(len(pos.legal_moves()), np.uint64)
            np.add.at(per_root, sp.owner, counts * sp.mult)
            assert dict(zip(pos.legal_moves(), per_root.tolist())) == single.divide(pos, depth)


def test_tasks_cover_every_position_once_with_balanced_cost():
    sp = split_positions(Position.from_fen(START_FEN), 4)
    tasks = make_tasks(sp, 7, 64)
    assert len(tasks) == 64
    assert sum(t.rows.shape[0] for t in tasks) == sp.unique
    seen = np.concatenate([t.rows for t in tasks])
    assert len({r.tobytes() for r in seen}) == sp.unique
    costs = [t.cost for t in tasks]
    assert max(costs) <= 1.05 * min(costs)
    assert len({t.digest for t in tasks}) == 64
    again = make_tasks(split_positions(Position.from_fen(START_FEN), 4), 7, 64)
    assert [t.digest for t in again] == [t.digest for t in tasks]


def test_start_position_depth_6_on_two_workers(dask_client):
    r = run_perft(ClusterRun(START_FEN, "", 6, 3, tasks=32), dask_client)
    assert r.nodes == 119_060_324
    assert (r.tasks, r.tasks_run, r.tasks_from_journal) == (32, 32, 0)
    assert (r.unique_positions, r.total_positions) == (5362, 8902)
    assert r.workers == 2


def test_kiwipete_depth_5_divide_with_each_workers_table(dask_client):
    r = run_perft(ClusterRun(KIWIPETE, "", 5, 2, divide=True, tasks=24, hash_exp=16), dask_client)
    assert r.nodes == 193_690_690
    assert r.divide == single.divide(Position.from_fen(KIWIPETE), 5)


def test_moves_are_played_before_the_split(dask_client):
    r = run_perft(ClusterRun(START_FEN, "e2e4 e7e5", 4, 2, tasks=8), dask_client)
    assert r.fen == Position.from_fen(START_FEN).play("e2e4 e7e5").fen()
    assert r.nodes == single.perft(Position.from_fen(START_FEN).play("e2e4 e7e5"), 4)


def test_a_journal_made_for_another_run_is_refused(tmp_path, dask_client):
    journal = tmp_path / "run.sqlite"
    first = run_perft(ClusterRun(START_FEN, "", 4, 2, tasks=4, journal=journal), dask_client)
    assert first.nodes == 197_281
    with pytest.raises(ClusterError, match="another run.*depth 4.*not this one.*depth 5"):
        run_perft(ClusterRun(START_FEN, "", 5, 2, tasks=4, journal=journal), dask_client)
    again = run_perft(ClusterRun(START_FEN, "", 4, 2, tasks=4, journal=journal), dask_client)
    assert (again.nodes, again.tasks_run, again.tasks_from_journal) == (197_281, 0, 4)
    (tmp_path / "junk.sqlite").write_text("not a database")
    with pytest.raises(ClusterError, match="junk.sqlite cannot be used"):
        run_perft(ClusterRun(START_FEN, "", 4, 2, journal=tmp_path / "junk.sqlite"), dask_client)


def test_bad_splits_are_refused_before_any_work():
    with pytest.raises(ClusterError, match="split must be between 0 and 3") as refused:
        run_perft(ClusterRun(START_FEN, "", 3, 4))
    # core names its parameter; a front end writes it as it calls it
    assert str(refused.value) == "split must be between 0 and 3 for depth 3, got 4"
    assert refused.value.spelled({"split": "--split"}) == "--split must be between 0 and 3 for depth 3, got 4"
    with pytest.raises(ClusterError, match="divide on a cluster needs split"):
        run_perft(ClusterRun(START_FEN, "", 3, 0, divide=True))
    with pytest.raises(ClusterError, match="either local N or address"):
        run_perft(ClusterRun(START_FEN, "", 3, 1, local=2, address="tcp://127.0.0.1:1"))


def test_an_unreachable_scheduler_is_a_clear_error():
    with pytest.raises(ClusterError, match="cannot reach the Dask scheduler at tcp://127.0.0.1:9"):
        run_perft(ClusterRun(START_FEN, "", 3, 1, address="tcp://127.0.0.1:9"))


def test_killing_a_worker_mid_run_still_gives_the_exact_answer(dask_client, tmp_path):
    pids = dask_client.run(os.getpid)                  # {worker address: pid}
    held_workers = warmed(dask_client, 2)
    lost = []                                          # (pid, tasks it held when killed)
    journal = tmp_path / "d7.sqlite"

    def kill_one_holding_work():
        # the workers held after the first finished task: both still hold work, whatever the load
        with paced(held_workers, lambda: tasks_in_journal(journal), 1):
            held = {w: keys for w, keys in dask_client.processing().items() if keys}
            victim = sorted(held)[0]
            os.kill(pids[victim], signal.SIGKILL)
            lost.append((pids[victim], held[victim]))

    killer = threading.Thread(target=kill_one_holding_work, daemon=True)
    killer.start()
    r = run_perft(ClusterRun(START_FEN, "", 7, 3, tasks=48, journal=journal), dask_client)
    killer.join(timeout=60)
    assert lost and lost[0][1]                         # killed holding work
    assert r.nodes == 3_195_901_860
    assert r.tasks_run == 48
    # the journal holds each task once, as it finished: the killed worker's tries left nothing
    with sqlite3.connect(journal) as db:
        rows = db.execute("SELECT id, nodes FROM tasks").fetchall()
    assert sorted(tid for tid, _ in rows) == list(range(48))
    assert sum(int(nodes) for _, nodes in rows) == 3_195_901_860
    assert lost[0][0] not in dask_client.run(os.getpid).values()
    dask_client.wait_for_workers(2, timeout=60)       # the nanny brings it back for later tests


def _listening(pids) -> set[tuple[str, int]]:
    """(address, port) of every socket the processes `pids` listen on."""
    import psutil
    out = set()
    for pid in pids:
        try:
            connections = psutil.Process(pid).net_connections(kind="inet")
        except psutil.NoSuchProcess:
            continue
        out |= {(c.laddr.ip, c.laddr.port) for c in connections if c.status == psutil.CONN_LISTEN}
    return out


def test_a_local_cluster_listens_on_the_loopback_only():
    import psutil
    from perftscope.core.counting.cluster import ClusterJob
    heard = []

    def up(event):          # the cluster is up: its scheduler, HTTP server and workers listen now
        if not heard:
            me = psutil.Process()
            heard.append(_listening([me.pid] + [p.pid for p in me.children(recursive=True)]))
    result = ClusterJob(ClusterRun(START_FEN, "", 3, 1, local=1, tasks=2)).run(up)
    assert result.nodes == 8902 and result.dashboard is None          # no dashboard unless asked
    addresses = {address for address, _ in heard[0]}
    assert len(heard[0]) >= 3 and addresses <= {"127.0.0.1", "::1"}, heard[0]
