"""Threads and hash asked of engines (core.engines.mode), and what the OS says a per-call engine
process used (kept by core.engines.process when it reaps the process)."""
import os
import sys
import textwrap

import pytest

from perftscope.core.board.position import START_FEN
from perftscope.core.engines.dialogue import with_mode
from perftscope.core.engines.engine_file import load_engine_file
from perftscope.core.engines.mode import Mode, describe, fill_mode, uci_setoptions
from perftscope.core.engines.oracles import make_oracle, stockfish_available
from perftscope.core.engines.usage import peak_memory
from perftscope.core.engines.oracle import Request

# burns 0.3 s of CPU, then answers right (a perftree engine of tests/engines): engines are first
# calibrated on positions whose answers are known, so a fixed answer would not be read
BUSY = ("import os, runpy, sys, time\nend = time.process_time() + 0.3\nwhile time.process_time() < end: pass\n"
        "sys.argv = sys.argv[1:]\nsys.path.insert(0, os.path.dirname(sys.argv[0]))\n"
        "runpy.run_path(sys.argv[0], run_name='__main__')\n")


def test_placeholders_take_what_is_asked_and_default_otherwise():
    assert fill_mode("-t {threads} -H {hash_mb}", Mode(threads=4)) == ("-t 4 -H 0", {"threads": 4})
    assert fill_mode("-t {threads}", None) == ("-t 1", {})
    assert fill_mode("perft {depth}", Mode(threads=2, hash_mb=8)) == ("perft {depth}", {})


def test_uci_options_are_set_only_when_offered_within_their_range():
    greeting = ["id name x", "option name Threads type spin default 1 min 1 max 2",
                "option name Hash type spin default 16 min 1 max 1024", "uciok"]
    lines, taken = uci_setoptions(greeting, Mode(threads=4, hash_mb=64))
    assert lines == ["setoption name Hash value 64"] and taken == {"hash_mb": 64}
    assert describe(Mode(threads=4, hash_mb=64), taken) == "threads not settable, 64 MiB hash"


def test_a_command_template_takes_threads_and_hash(tmp_path, engine_path):
    # the perftree engine reads DEPTH FEN MOVES and leaves what follows alone
    with make_oracle(f"cmd:{sys.executable} {engine_path('correct')} {{depth}} {{fen}} {{moves}} {{threads}} "
                     f"{{hash_mb}}", mode=Mode(threads=3, hash_mb=16)) as oracle:
        assert oracle.taken == {"threads": 3, "hash_mb": 16}
        assert oracle.perft(Request.of(START_FEN), 1) == 20
        assert f" 1 '{START_FEN}' '' 3 16" in oracle.log.text()


def test_a_per_call_process_reports_its_cpu_time(tmp_path, engine_path):
    busy = tmp_path / "busy.py"
    busy.write_text(BUSY)
    script = f"cmd:{sys.executable} {busy} {engine_path('correct')} {{depth}} {{fen}} {{moves}}"
    with make_oracle(script) as oracle:
        oracle.perft(Request.of(START_FEN), 1)
        usage = oracle.last_usage
    assert usage.cpu >= 0.25 and usage.source == "wait4"       # it burned 0.3 s of CPU
    # its own memory, read while it ran: a Python process, not the test process it started from
    assert 2 * 2 ** 20 < usage.peak < peak_memory(os.getpid())


def test_an_engine_file_takes_the_placeholders(tmp_path, engine_path):
    file = tmp_path / "e.toml"
    file.write_text(textwrap.dedent(f"""
        command = ["{sys.executable}", "{engine_path('interactive')}", "{{threads}}"]
        start = ["hello {{hash_mb}}"]
        """))
    dialogue, taken = with_mode(load_engine_file(str(file)).dialogue, Mode(threads=2, hash_mb=32))
    assert dialogue.command[-1] == "2" and dialogue.start == ("hello 32",)
    assert taken == {"threads": 2, "hash_mb": 32}


@pytest.mark.skipif(not stockfish_available(), reason="Stockfish is not installed")
def test_stockfish_gets_setoption_threads_and_hash():
    with make_oracle("stockfish", mode=Mode(threads=2, hash_mb=16)) as sf:
        assert sf.taken == {"threads": 2, "hash_mb": 16}
        assert sf.perft(Request.of(START_FEN), 3) == 8902
        sent = [t for _, d, t in sf.log.entries() if d == ">"]
    assert sent.index("setoption name Threads value 2") < sent.index("isready")
    assert "setoption name Hash value 16" in sent
