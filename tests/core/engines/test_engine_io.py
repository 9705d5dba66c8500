"""Engine I/O that cannot hurt the app: floods cut off with bounded memory, hangs timed out,
crashes reported with the engine's own error line, and the log and activity the GUI shows."""
import os
import sys
import threading
import time

import pytest

from perftscope.core.engines.pipes import EngineLog, own_error
from perftscope.core.errors import EngineCrashed, EngineFlood, EngineTimeout, OracleCancelled
from perftscope.core.engines.oracles import make_oracle
from perftscope.core.board.position import START_FEN
from perftscope.core.engines.oracle import Request

NODE_STDERR = """/home/dev/perft/src/movegen.js:212
    const piece = board.squares[to].piece;
                                    ^

TypeError: Cannot read properties of undefined (reading 'piece')
    at generateEnPassant (/home/dev/perft/src/movegen.js:212:37)
    at Object.<anonymous> (/home/dev/perft/src/cli.js:9:1)

Node.js v20.11.0
"""


def _script(tmp_path, body, name="my-perft.sh"):
    path = tmp_path / name
    path.write_text("#!/bin/sh\n" + body)
    path.chmod(0o755)
    return path


def _rss_mb() -> float:
    with open("/proc/self/status") as f:
        kb = next(int(line.split()[1]) for line in f if line.startswith("VmRSS:"))
    return kb / 1024


def _gone(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    return False


@pytest.mark.parametrize("body, complaint", [
    ('yes "e2e4 1"\n', "printed more than 20000 lines; is it looping?"),
    ("yes | tr -d '\\n'\n", "printed a line longer than 65536 bytes"),
])
def test_a_flooding_engine_is_cut_off_with_bounded_memory(tmp_path, body, complaint):
    flood = make_oracle(f"perftree:{_script(tmp_path, body)}")
    before = _rss_mb()
    start = time.monotonic()
    with pytest.raises(EngineFlood) as err:
        flood.divide(Request.of(START_FEN), 3)
    assert time.monotonic() - start < 10
    assert _rss_mb() - before < 200
    assert str(err.value).startswith("my-perft.sh: ") and complaint in str(err.value)
    assert flood.activity() is None


def test_a_flooding_interactive_engine_is_stopped_and_restarted(tmp_path):
    # a UCI engine that answers `go perft` with an endless stream of move lines
    engine = _script(tmp_path, 'while read line; do case "$line" in\n'
                               '  uci) echo uciok;; isready) echo readyok;;\n'
                               '  go*) yes "a2a3: 1";; quit) exit 0;; esac; done\n', "flood-uci")
    with make_oracle(f"uci:{engine}") as flood:
        first = flood.pid
        before, start = _rss_mb(), time.monotonic()
        with pytest.raises(EngineFlood, match="^flood-uci: printed more than 20000 lines"):
            flood.divide(Request.of(START_FEN), 2)
        assert _rss_mb() - before < 200
        assert time.monotonic() - start < 5       # cut off at once, not after reading its flood again and again
        deadline = time.monotonic() + 5
        while not _gone(first) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert _gone(first) and not flood.running


def test_a_hanging_engine_times_out_with_the_time_it_waited(tmp_path):
    hang = make_oracle(f"cmd:{_script(tmp_path, 'sleep 30')} {{depth}} {{fen}}", timeout=0.5)
    start = time.monotonic()
    with pytest.raises(EngineTimeout) as err:
        hang.divide(Request.of(START_FEN), 2)
    assert time.monotonic() - start < 5
    assert err.value.seconds == 0.5
    assert "no answer within 0.5 s" in str(err.value) and "(waited 0.5 s)" in str(err.value)


def test_a_node_style_crash_is_reported_with_its_own_error(engine_path):
    crash = make_oracle(f"perftree:{engine_path('node_crash')}")
    with pytest.raises(EngineCrashed) as err:
        crash.divide(Request.of(START_FEN, ["e2e4"]), 2)
    e = err.value
    assert e.own_error == "TypeError: Cannot read properties of undefined (reading 'piece')"
    assert str(e).startswith("node_crash.py exited with code 1 while answering node_crash.py 2 ")
    assert str(e).endswith(": TypeError: Cannot read properties of undefined (reading 'piece')")
    assert "Node.js" not in str(e)
    assert e.command.endswith("node_crash.py 2 '" + START_FEN + "' e2e4")
    stderr = [t for _, d, t in crash.log.entries() if d == "!"]
    assert "Node.js v20.11.0" in stderr          # the log keeps everything


@pytest.mark.parametrize("stderr, own", [
    (NODE_STDERR, "TypeError: Cannot read properties of undefined (reading 'piece')"),
    ('Traceback (most recent call last):\n  File "perft.py", line 3, in <module>\n    main()\n'
     "IndexError: list index out of range\n", "IndexError: list index out of range"),
    ("thread 'main' panicked at src/movegen.rs:88:17:\nindex out of bounds: the len is 64 but the index is 64\n"
     "note: run with `RUST_BACKTRACE=1` environment variable to display a backtrace\n",
     "thread 'main' panicked at src/movegen.rs:88:17: index out of bounds: the len is 64 but the index is 64"),
    ('Exception in thread "main" java.lang.ArrayIndexOutOfBoundsException: Index 64 out of bounds for length 64\n'
     "\tat Movegen.gen(Movegen.java:12)\n\tat Perft.main(Perft.java:40)\n",
     'Exception in thread "main" java.lang.ArrayIndexOutOfBoundsException: Index 64 out of bounds for length 64'),
    ("panic: runtime error: index out of range [64] with length 64\n\ngoroutine 1 [running]:\n"
     "main.gen(...)\n\t/home/dev/perft/main.go:12 +0x1d\n",
     "panic: runtime error: index out of range [64] with length 64"),
    ("bad square h9\n\n", "bad square h9"),
    ("", ""),
])
def test_own_error_skips_runtime_trailers_and_stack_frames(stderr, own):
    assert own_error(stderr.splitlines()) == own


def test_activity_and_log_while_a_call_runs(tmp_path):
    slow = make_oracle(f"perftree:{_script(tmp_path, 'echo starting; sleep 1; echo e2e4 1; echo; echo 1')}")
    assert slow.activity() is None and slow.name == "my-perft.sh" and slow.spec.kind == "perftree"
    worker = threading.Thread(target=slow.divide, args=(Request.of(START_FEN), 1))
    worker.start()
    time.sleep(0.5)
    running = slow.activity()
    worker.join(timeout=10)
    assert running is not None and running.call == 1 and 0.2 < running.seconds < 1.5
    assert slow.activity() is None
    entries = slow.log.entries()
    assert entries[0][:2] == (1, ">") and entries[0][2].endswith("my-perft.sh 1 '" + START_FEN + "'")
    assert (1, "<", "starting") in entries and (1, "<", "e2e4 1") in entries
    assert "[1] < e2e4 1\n" in slow.log.text()


def test_the_log_is_bounded():
    log = EngineLog(calls=20, lines=200)
    for call in range(1, 31):
        log.start(call)
        for i in range(300):
            log.add("<", f"line {i}")
    entries = log.entries()
    assert len(entries) == 20 * 200
    assert entries[0] == (11, "<", "line 100") and entries[-1] == (30, "<", "line 299")


def test_timeout_is_settable_per_oracle(tmp_path, engine_path):
    oracle = make_oracle(f"perftree:{_script(tmp_path, 'sleep 5')}")
    oracle.timeout = 0.3
    with pytest.raises(EngineTimeout, match="within 0.3 s"):
        oracle.divide(Request.of(START_FEN), 1)
    assert sys.executable     # the venv python runs the planted engines (see conftest)


def test_calibration_says_which_of_its_positions_it_asks(tmp_path, engine_path):
    # a program met for the first time (a copy nobody calibrated) is asked eight known positions
    # before the first answer: the activity names that, step by step, not "call 1" for all of it
    script = tmp_path / "fresh-perft.sh"
    script.write_text(f"#!/bin/sh\nexec {engine_path('correct')} \"$@\"\n")
    script.chmod(0o755)
    fresh = make_oracle(f"cmd:{script} {{depth}} {{fen}} {{moves}}")
    worker = threading.Thread(target=fresh.divide, args=(Request.of(START_FEN), 1))
    worker.start()
    seen = []
    while worker.is_alive():
        act = fresh.activity()
        said = act.words(fresh.name).split(",")[0] if act is not None else None
        if said is not None and (not seen or seen[-1] != said):
            seen.append(said)
        time.sleep(0.005)
    steps = [s for s in seen if s.startswith("learning")]
    said = [f"learning how fresh-perft.sh prints its divide ({n} of 8)" for n in range(1, 9)]
    assert steps[0] == said[0] and steps[-1] == said[-1] and steps == sorted(set(steps), key=said.index)
    assert seen[-1] == "waiting for fresh-perft.sh: call 1"          # then the divide asked for
    assert fresh.calibration is not None and fresh.activity() is None
    # calibrate() asked outside any call (engine check, a race's start) says so too; then stopped
    ended = []

    def calibrate():
        try:
            fresh.calibrate()
        except OracleCancelled as e:
            ended.append(e)
    worker = threading.Thread(target=calibrate)
    worker.start()
    while worker.is_alive() and fresh.activity() is None:
        time.sleep(0.005)
    during = fresh.activity()
    fresh.cancel()
    worker.join(timeout=60)
    assert during is not None and during.doing == "learning how fresh-perft.sh prints its divide (1 of 8)"
    assert ended and fresh.activity() is None
