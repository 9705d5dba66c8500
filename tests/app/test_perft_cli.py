"""perft and divide on the pool: -h and -w do what they say, --json and -s carry the
workers and hash counters, a terminal gets a live progress line on stderr and
stdout stays clean, Ctrl-C cancels."""
import json
import os
import pty
import select
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

import perftscope.core.counting.perft as single
from perftscope.core.board.position import Position

from .cli_run import run

KIWIPETE = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"
PERFTSCOPE = str(Path(sys.executable).parent / "perftscope")
POSITION_4 = "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1"
HASH_KEYS = {"entries", "probes", "hits", "stores", "replacements", "fill", "by_depth"}


def test_perft_json_with_table_and_workers(capsys):
    code, out, err = run(capsys, "perft", "-d", "5", "-f", KIWIPETE, "-h", "16", "-w", "2", "--json")
    obj = json.loads(out)
    assert code == 0 and err == ""                      # not a terminal: no progress line
    assert obj["nodes"] == 193_690_690 and obj["workers"] == 2
    h = obj["hash"]
    assert set(h) == HASH_KEYS and h["entries"] == 1 << 16
    assert 0 < h["hits"] < h["probes"] and h["stores"] > 0 and 0 < h["fill"] <= 1
    # probes and hits by remaining depth add up to the totals; depth 1 is never probed
    assert sum(d["probes"] for d in h["by_depth"]) == h["probes"]
    assert sum(d["hits"] for d in h["by_depth"]) == h["hits"]
    assert min(d["depth"] for d in h["by_depth"]) == 2


def test_perft_json_defaults_all_cores_and_no_table(capsys):
    # position 4 depth 6: 706 M nodes, estimated far beyond a small request's 20 M
    code, out, _ = run(capsys, "perft", "-d", "6", "-f", POSITION_4, "--json")
    obj = json.loads(out)
    assert obj["nodes"] == 706_045_033
    assert obj["workers"] == os.cpu_count() and obj["hash"] is None
    assert len(obj["worker_cpu"]) == obj["workers"] and sum(obj["worker_cpu"]) > 0


def test_a_small_request_counts_on_one_thread_and_says_so(capsys):
    """Without a table or statistics, a small tree is counted through the move list on one
    thread (core.counting.shallow): the same JSON, naming the one worker and the path that counted."""
    code, out, _ = run(capsys, "perft", "-d", "3", "-f", KIWIPETE, "-w", "2", "--json")
    small = json.loads(out)
    code, out, _ = run(capsys, "perft", "-d", "3", "-f", KIWIPETE, "-w", "2", "-h", "10", "--json")
    pooled = json.loads(out)
    assert small["nodes"] == pooled["nodes"] == 97_862
    assert set(small) == set(pooled) and small["workers"] == 1 and small["hash"] is None
    assert small["path"] == "move list" and pooled["path"] == "pool"
    # each worker's CPU seconds: what the count cost, whatever the neighbours took of the wall clock
    assert len(small["worker_cpu"]) == 1 and len(pooled["worker_cpu"]) == 2
    assert all(c >= 0 for c in small["worker_cpu"] + pooled["worker_cpu"])
    assert pooled["workers"] == 2 and pooled["hash"]["entries"] == 1 << 10
    code, out, _ = run(capsys, "divide", "-d", "3", "-f", KIWIPETE, "--json")
    obj = json.loads(out)
    assert obj["moves"] == single.divide(Position.from_fen(KIWIPETE), 3) and obj["nodes"] == 97_862


def test_divide_with_table_and_workers_is_stockfish_format(capsys):
    code, out, _ = run(capsys, "divide", "-d", "4", "-f", KIWIPETE, "-h", "12", "-w", "2")
    lines = out.splitlines()
    assert code == 0 and lines[-2] == "" and lines[-1] == "Nodes searched: 4085603"
    rows = {m: int(c) for m, c in (line.split(": ") for line in lines[:-2])}
    assert rows == single.divide(Position.from_fen(KIWIPETE), 4)
    code, out, _ = run(capsys, "divide", "-d", "4", "-f", KIWIPETE, "-h", "12", "-w", "2", "--json")
    obj = json.loads(out)
    assert obj["moves"] == rows and obj["workers"] == 2 and set(obj["hash"]) == HASH_KEYS


def test_stats_text_names_workers_and_hash(capsys):
    code, out, _ = run(capsys, "perft", "-d", "4", "-f", KIWIPETE, "-w", "2", "-s")
    assert code == 0
    assert "nodes    4085603" in out and "workers  2" in out and "hash     off" in out
    assert "discovery_checks 42" in out and "checkmates       43" in out
    code, out, _ = run(capsys, "perft", "-d", "4", "-f", KIWIPETE, "-w", "2", "-s", "--json")
    obj = json.loads(out)
    assert obj["stats"]["captures"] == 757_163 and obj["workers"] == 2 and obj["hash"] is None


@pytest.mark.parametrize("argv, words", [
    (["-h", "40"], "2^40 entries is too large"),
    (["-h", "31"], "GiB"),
    (["-w", "x"], "workers must be a whole number"),
])
def test_bad_pool_arguments_are_one_line_and_exit_2(argv, words):
    proc = subprocess.run([PERFTSCOPE, "perft", "-d", "3", *argv], capture_output=True, text=True)
    assert proc.returncode == 2 and words in proc.stderr
    assert "Traceback" not in proc.stderr and proc.stdout == ""


def _read_until_exit(proc, fd, limit):
    chunks = []
    deadline = time.monotonic() + limit
    while time.monotonic() < deadline:
        ready, _, _ = select.select([fd], [], [], 0.1)
        if ready:
            try:
                data = os.read(fd, 4096)
            except OSError:
                break
            if not data:
                break
            chunks.append(data)
        elif proc.poll() is not None:
            break
    return b"".join(chunks).decode()


def test_progress_line_on_a_terminal_stays_off_stdout():
    master, slave = pty.openpty()
    # chessprogramming's position 5 at depth 6 with a 16-entry table: 3 G nodes counted with
    # almost no hits, 3 s on two busy cores here and over a second on a machine three times as
    # fast, so the line (shown after 0.5 s) must appear
    proc = subprocess.Popen([PERFTSCOPE, "perft", "-d", "6", "-h", "4", "-w", "2", "-f",
                             "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8"],
                            stdout=subprocess.PIPE, stderr=slave, text=True)
    os.close(slave)
    try:
        err = _read_until_exit(proc, master, 120)
        out = proc.communicate(timeout=120)[0]
    finally:
        os.close(master)
    assert proc.returncode == 0
    assert out.splitlines()[0] == "nodes    3048196529" and "\r" not in out
    assert "\r" in err and "nodes " in err and "nps " in err and "hash hits " in err
    assert err.endswith("\r\x1b[K")                    # the line is wiped at the end


def test_ctrl_c_cancels_a_long_run():
    master, slave = pty.openpty()
    proc = subprocess.Popen([PERFTSCOPE, "perft", "-d", "12", "-w", "2"],
                            stdout=subprocess.PIPE, stderr=slave, text=True)
    os.close(slave)
    try:
        seen = ""
        deadline = time.monotonic() + 60
        while "nodes " not in seen and time.monotonic() < deadline:   # counting has begun
            if select.select([master], [], [], 0.1)[0]:
                seen += os.read(master, 4096).decode()
        assert "nodes " in seen and proc.poll() is None
        proc.send_signal(signal.SIGINT)
        err = seen + _read_until_exit(proc, master, 10)
        out = proc.communicate(timeout=10)[0]
    finally:
        os.close(master)
    assert proc.returncode == 130 and "perftscope: interrupted" in err and out == ""


def test_a_divide_reads_its_fen_once(capsys, fen_reads):
    run(capsys, "divide", "-d", "2")            # the kernels prepared (on a constant position) before counting
    fen_reads.clear()
    code, out, _ = run(capsys, "divide", "-d", "2", "-f", POSITION_4)
    # where it enters (--fen), and nowhere after: the count, the rows and their moves
    assert code == 0 and "Nodes searched: 264" in out
    assert [r.fen for r in fen_reads] == [POSITION_4], fen_reads
