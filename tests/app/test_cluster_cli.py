"""`perftscope perft/divide --split K`: JSON fields, divide's format, clear errors,
and a client killed mid-run that resumes from its journal without recomputing the
tasks it had finished."""
import json
import signal
import sqlite3
import subprocess
import sys
import time

import pytest

import perftscope.core.counting.perft as single
from perftscope.app.cli import main
from perftscope.core.board.position import Position

from ..cluster_workers import paced, tasks_in_journal, warmed

KIWIPETE = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"


def _address(client):
    return client.scheduler.address


def test_perft_json_reports_the_split(dask_client, capsys):
    assert main(["perft", "-d", "5", "--split", "3", "--cluster", _address(dask_client), "--tasks", "8",
                 "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["nodes"] == 4_865_609
    assert (out["split"], out["tasks"], out["workers"]) == (3, 8, 2)
    assert (out["unique_positions"], out["total_positions"]) == (5362, 8902)
    assert out["merge_ratio"] == round(5362 / 8902, 6)


def test_divide_prints_stockfish_format_and_progress_on_stderr(dask_client, capsys):
    assert main(["divide", "-d", "4", "-f", KIWIPETE, "--split", "2", "--cluster", _address(dask_client),
                 "--tasks", "6"]) == 0
    cap = capsys.readouterr()
    lines = cap.out.splitlines()
    want = single.divide(Position.from_fen(KIWIPETE), 4)
    assert lines[:-2] == [f"{m}: {c}" for m, c in sorted(want.items())]
    assert lines[-1] == f"Nodes searched: {sum(want.values())}"
    assert "cluster: 2 workers" in cap.err
    assert "tasks 6/6" in cap.err


@pytest.mark.parametrize("argv, message", [
    (["perft", "-d", "3", "--journal", "j.sqlite"], "--journal needs --split K"),
    (["perft", "-d", "3", "--split", "2", "--stats"], "--stats cannot run on a cluster"),
    (["perft", "-d", "3", "--split", "5"], "--split must be between 0 and 3"),
    (["divide", "-d", "3", "--split", "0"], "divide on a cluster needs --split"),
    (["perft", "-d", "3", "--split", "1", "--cluster", "nowhere"], "is not HOST:PORT"),
])
def test_bad_cluster_arguments_exit_2_with_one_line(argv, message, capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert main(argv) == 2
    err = capsys.readouterr().err.strip()
    assert message in err and len(err.splitlines()) == 1


def _journal_rows(path, writer_gone=False):
    # While the run goes, read-only (never creates the file). Once its writer is gone, open
    # it for writing: a client killed by SIGKILL can leave a committed WAL frame that only a
    # read-write connection recovers (a read-only one may read the stale WAL index).
    target = str(path) if writer_gone else f"file:{path}?mode=ro"
    with sqlite3.connect(target, uri=not writer_gone) as db:
        return {tid: (session, blob) for tid, session, blob in
                db.execute("SELECT id, session, counts FROM tasks")}


@pytest.mark.parametrize("how", [signal.SIGKILL, signal.SIGINT], ids=["SIGKILL", "SIGINT"])
def test_an_interrupted_client_resumes_from_its_journal_without_redoing_tasks(how, dask_client, tmp_path,
                                                                             capsys):
    workers = warmed(dask_client, 2)
    # depth 7: about 17 ms of counting a task, longer than a paced slice
    journal = tmp_path / "d7.sqlite"
    argv = ["perft", "-d", "7", "--split", "3", "--cluster", _address(dask_client), "--tasks", "128",
            "--journal", str(journal)]
    # Ctrl-C must reach the child even when this test runs where SIGINT is ignored
    proc = subprocess.Popen([sys.executable, "-m", "perftscope", *argv], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True,
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    try:
        with paced(workers, lambda: tasks_in_journal(journal), 3, running=lambda: proc.poll() is None):
            assert proc.poll() is None, proc.communicate()
            proc.send_signal(how)
            out, err = proc.communicate(timeout=30)
    finally:
        if proc.poll() is None:
            proc.kill()
    if how == signal.SIGINT:
        assert proc.returncode == 130 and out == ""
        assert f"tasks done when interrupted; the journal {journal} keeps them" in err
    before = _journal_rows(journal, writer_gone=True)
    assert 3 <= len(before) < 128
    assert {session for session, _ in before.values()} == {1}

    assert main(argv + ["--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["nodes"] == 3_195_901_860
    assert (out["tasks_from_journal"], out["tasks_run"]) == (len(before), 128 - len(before))
    assert out["nps"] * out["seconds"] < 3_195_901_860      # the journal's nodes were not counted again
    after = _journal_rows(journal, writer_gone=True)
    assert len(after) == 128
    assert {tid: after[tid] for tid in before} == before          # untouched, still session 1
    assert {after[tid][0] for tid in after.keys() - before.keys()} == {2}


def test_tasks_failing_on_every_worker_give_no_total_and_exit_2(dask_client, capsys):
    # the test cluster's workers have 4 GiB each: a table of 2^28 entries (4 GiB) is refused
    # on the worker, every try of every task fails, and the run says so instead of summing
    code = main(["perft", "-d", "4", "--split", "2", "--cluster", _address(dask_client), "--tasks", "4",
                 "-h", "28"])
    cap = capsys.readouterr()
    assert code == 2
    assert cap.out == ""
    last = cap.err.strip().splitlines()[-1]
    assert "0 of 4 tasks done, 4 missing" in last and "no total" in last
    assert "memory limit" in last and "use a smaller -h" in last      # core's hash_exp, in this command's flag


@pytest.fixture
def empty_scheduler():
    """A Dask scheduler (in this process) that starts with no worker."""
    from distributed import LocalCluster

    cluster = LocalCluster(n_workers=0, processes=False, protocol="tcp", dashboard_address=None)
    yield cluster.scheduler_address
    cluster.close()


def test_a_scheduler_without_workers_says_so_and_gives_up(empty_scheduler, capsys):
    start = time.monotonic()
    code = main(["perft", "-d", "3", "--split", "1", "--cluster", empty_scheduler, "--wait-workers", "3"])
    elapsed = time.monotonic() - start
    err = capsys.readouterr().err.strip().splitlines()
    assert code == 2
    assert "has no worker; waiting up to 3 s" in err[0] and f"dask worker {empty_scheduler}" in err[0]
    assert f"no worker at the scheduler {empty_scheduler} for 3 s (--wait-workers)" in err[-1]
    assert 3 <= elapsed < 40


# A worker that joins the scheduler, keeps its one thread busy so it never finishes a
# task, and dies 0.3 s later; its nanny starts it again, and again.
CRASHING_WORKER = """
import os, threading, time

def dask_setup(worker):
    worker.executors["default"].submit(time.sleep, 30)
    threading.Timer(0.3, lambda: os._exit(3)).start()
"""


def test_workers_dying_at_start_up_are_reported_not_waited_on(empty_scheduler, tmp_path, capsys):
    from distributed import Client

    preload = tmp_path / "crashing_worker.py"
    preload.write_text(CRASHING_WORKER)
    worker = subprocess.Popen([sys.executable, "-m", "distributed.cli.dask_worker", empty_scheduler,
                               "--nthreads", "1", "--no-dashboard", "--preload", str(preload)],
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        with Client(empty_scheduler, timeout=10) as watcher:
            deadline = time.monotonic() + 90
            while not any(msg.get("action") == "remove-worker" for _, msg in watcher.get_events("all")):
                assert time.monotonic() < deadline, "the crashing worker never joined"
                time.sleep(0.2)
        code = main(["perft", "-d", "3", "--split", "1", "--cluster", empty_scheduler, "--wait-workers", "3"])
    finally:
        worker.kill()
        worker.wait()
    last = capsys.readouterr().err.strip().splitlines()[-1]
    assert code == 2
    assert f"workers keep dying at the scheduler {empty_scheduler}" in last
    # which form depends on when the deaths are seen: before any task went out ("during this
    # run"), while tasks wait ("... no total"), or after --wait-workers of no worker at all
    assert any(form in last for form in ("during this run", "no total", "none is there after 3 s")), last


SCHEDULER_PROCESS = """
import sys, time
from distributed import LocalCluster
cluster = LocalCluster(n_workers=0, processes=False, scheduler_port=int(sys.argv[1]), dashboard_address=None)
print(cluster.scheduler_address, flush=True)
time.sleep(600)
"""


def test_a_killed_scheduler_ends_the_run_with_exit_2_and_the_same_command_resumes(tmp_path, capsys):
    # > 5 s: the scheduler to kill is a process of its own, and starting one here takes 3 to 8 s;
    # its worker is another, held between slices of work so that the kill comes mid-run; the
    # scheduler that takes its place runs in this process, on the same port
    import socket
    import threading
    from distributed import Client, LocalCluster
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    scheduler = subprocess.Popen([sys.executable, "-c", SCHEDULER_PROCESS, str(port)], stdout=subprocess.PIPE,
                                 stderr=subprocess.DEVNULL, text=True)
    worker = None
    try:
        address = scheduler.stdout.readline().strip()
        assert address == f"tcp://127.0.0.1:{port}"
        worker = subprocess.Popen([sys.executable, "-m", "distributed.cli.dask_worker", address, "--nthreads", "1",
                                   "--no-nanny", "--no-dashboard"],
                                  stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        with Client(address, timeout=30) as warming:
            held = warmed(warming, 1)
        journal = tmp_path / "d6.sqlite"
        argv = ["perft", "-d", "6", "--split", "3", "--cluster", address, "--tasks", "128", "--journal",
                str(journal)]

        def kill_after_three_tasks():
            with paced(held, lambda: tasks_in_journal(journal), 3):
                scheduler.send_signal(signal.SIGKILL)

        threading.Thread(target=kill_after_three_tasks, daemon=True).start()
        assert main(argv) == 2
    finally:
        for process in (scheduler, worker):
            if process is not None:
                process.kill()
                process.wait()
    cap = capsys.readouterr()
    last = cap.err.strip().splitlines()[-1]
    assert cap.out == "" and f"lost the Dask scheduler at {address}" in last
    assert f"tasks done, no total; run again with --journal {journal} to compute only those" in last
    done = _journal_rows(journal, writer_gone=True)
    assert 3 <= len(done) < 128 and f"{len(done)} of 128 tasks done" in last

    with LocalCluster(n_workers=1, threads_per_worker=1, processes=False, scheduler_port=port,
                      dashboard_address=None):
        assert main(argv + ["--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["nodes"] == 119_060_324
    assert (out["tasks_from_journal"], out["tasks_run"]) == (len(done), 128 - len(done))
