"""Engines that print what no engine should: random bytes, bytes that are not UTF-8, NUL bytes,
`\\r` line ends, half a line and then silence, everything on stderr, nothing at all; engines that
close their input, leave processes behind or ignore being told to quit. Each ends within its
timeout in one line naming the engine and what it printed, and leaves no process running."""
import time

import pytest

from perftscope.core.engines import dialogue
from perftscope.core.engines.oracles import make_oracle
from perftscope.core.engines.pipes import QUEUE_BYTES, QUEUE_LINES, _Output, _Lines, quoted
from perftscope.core.errors import EngineCrashed, EngineError, EngineFailed, EngineTimeout
from perftscope.core.engines.oracle import Request

from ...processes import alive, marker, with_marker

PAWNS = "8/8/8/8/8/8/PP6/K6k w - - 0 1"        # a2a3 a2a4 b2b3 b2b4 a1b1
PAWNS_DIVIDE = {"a2a3": 1, "a2a4": 1, "b2b3": 1, "b2b4": 1, "a1b1": 1}
MATED = "7k/8/8/8/8/8/5PPP/r5K1 w - - 0 1"      # white is checkmated: no move to list


def _script(tmp_path, body, name="my-perft.sh"):
    path = tmp_path / name
    path.write_text("#!/bin/sh\n" + body)
    path.chmod(0o755)
    return path


def _uci(tmp_path, on_go, before="", name="my-uci.sh"):
    """A UCI engine in sh: shakes hands and runs `on_go` for every `go`."""
    return _script(tmp_path, f"{before}\nwhile read line; do case \"$line\" in\n"
                             f"  uci) echo uciok;; isready) echo readyok;;\n"
                             f"  go*) {on_go};; quit) exit 0;; esac; done\n", name)


def _told(tmp_path, engine) -> str:
    """An engine file for `engine` that gives its dialect (Stockfish's divide), so the tests of
    its life are not spent calibrating a program that prints the same answer to everything."""
    toml = tmp_path / f"{engine.name}.toml"
    toml.write_text(f'command = ["{engine}"]\n\n[dialect]\nrows = ["{{move}}: {{count}}"]\n'
                    'total = "Nodes searched: {total}"\n')
    return f"file:{toml}"


def _printf(text: str) -> str:
    """A shell line printing `text` (printf escapes: \\n, \\r, \\377 ...)."""
    return f"printf '{text}'"


def _running(mark: str, count: int = 0) -> list[int]:
    """The processes marked `mark`, waiting (2 s at most) for `count` of them: a background
    program may not have been exec'ed yet."""
    deadline = time.monotonic() + 2
    while len(found := with_marker(mark)) < count and time.monotonic() < deadline:
        time.sleep(0.02)
    return found


def _gone(pids, within: float = 3.0) -> bool:
    deadline = time.monotonic() + within
    while time.monotonic() < deadline:
        if not any(map(alive, pids)):
            return True
        time.sleep(0.02)
    return False


def _divide(spec, timeout=5.0, fen=PAWNS):
    with make_oracle(spec, timeout=timeout) as engine:
        return engine.divide(Request.of(fen), 1)


def _one_line(error) -> str:
    text = str(error)
    assert "\n" not in text and "\r" not in text and len(text) < 400, text
    return text


def test_random_bytes_are_called_binary_data_not_a_wall_of_garbage(tmp_path):
    spec = f"perftree:{_script(tmp_path, 'head -c 3000 /dev/urandom')}"
    with pytest.raises(EngineFailed) as err:
        _divide(spec)
    text = _one_line(err.value)
    assert text.startswith("my-perft.sh printed binary data, not text, while answering my-perft.sh 1 ")


@pytest.mark.parametrize("printed, bad", [
    (r"a2a3: 1\nb2b3: 1\377\n", "bytes that are not UTF-8"),
    (r"a2a3: 1\nb2\000b3: 1\n", "a NUL byte"),
    (r"a2a3: 1\n\376\377: 1\n", "bytes that are not UTF-8"),
])
def test_a_move_line_with_bytes_that_are_not_text_is_refused_not_left_out(tmp_path, printed, bad):
    # leaving the line out would report b2b3 as not generated: a false finding
    spec = f"perftree:{_script(tmp_path, _printf(printed))}"
    with pytest.raises(EngineError) as err:
        _divide(spec)
    assert f"holds {bad}: " in _one_line(err.value) and "its count cannot be trusted" in str(err.value)


def test_a_banner_that_is_not_utf8_is_noise_like_any_other(tmp_path):
    # Latin-1 in an author line (no count in it) does not stop the divide from being read
    body = r"printf 'Auteur: J\351r\364me\na2a3: 1\na2a4: 1\nb2b3: 1\nb2b4: 1\na1b1: 1\n'"
    assert _divide(f"perftree:{_script(tmp_path, body)}") == PAWNS_DIVIDE


def test_nul_bytes_only_are_binary_data(tmp_path):
    with pytest.raises(EngineFailed, match=r"printed binary data, not text.*starting '\\x00\\x00"):
        _divide(f"perftree:{_script(tmp_path, 'head -c 200 /dev/zero')}")


@pytest.mark.parametrize("end", [r"\r", r"\r\n"], ids=["cr", "crlf"])
def test_carriage_return_line_ends_read_every_line(tmp_path, end):
    rows = end.join(["a2a3: 1", "a2a4: 1", "b2b3: 1", "b2b4: 1", "a1b1: 1", "", "5", ""])
    assert _divide(f"perftree:{_script(tmp_path, _printf(rows))}") == PAWNS_DIVIDE


def test_carriage_returns_split_across_reads_are_one_line_end():
    lines = _Lines(100)
    assert lines.feed(b"a2a3: 1\r") == [b"a2a3: 1"]
    assert lines.feed(b"\nb2b3: 1\r\r") == [b"b2b3: 1", b""]
    assert lines.feed(b"x") == [] and lines.pending == b"x"
    assert lines.feed(b"\r") == [b"x"] and lines.feed(b"\n") == [] and lines.feed(b"\n") == [b""]


def test_half_a_line_then_silence_times_out_naming_the_half_line(tmp_path):
    spec = f"perftree:{_script(tmp_path, _printf('a2a3: 1') + f'; sleep {marker()}')}"
    start = time.monotonic()
    with pytest.raises(EngineTimeout) as err:
        _divide(spec, timeout=1)
    assert time.monotonic() - start < 3
    assert "no answer within 1 s" in _one_line(err.value)
    assert "it printed 'a2a3: 1' with no line end" in str(err.value)


def test_a_divide_printed_on_stderr_says_stdout_was_empty_and_quotes_stderr(tmp_path):
    body = "printf 'a2a3: 1\\na2a4: 1\\n' >&2"
    with pytest.raises(EngineFailed) as err:
        _divide(f"perftree:{_script(tmp_path, body)}")
    assert _one_line(err.value) == (
        f"my-perft.sh exited with code 0 but printed nothing on stdout while answering my-perft.sh 1 "
        f"'{PAWNS}'; its stderr ends with 'a2a4: 1' (2 lines)")


def test_a_uci_engine_answering_on_stderr_times_out_quoting_its_stderr(tmp_path, monkeypatch):
    monkeypatch.setattr(dialogue, "HANDSHAKE_TIMEOUT", 1.0)
    engine = _script(tmp_path, "while read line; do case \"$line\" in uci) echo uciok >&2;; esac; done")
    with pytest.raises(EngineTimeout, match=r"nothing on stdout, its stderr ends with 'uciok'"):
        make_oracle(f"uci:{engine}", timeout=1)


def test_exit_0_with_nothing_printed_is_a_failure_where_there_are_moves(tmp_path):
    spec = f"perftree:{_script(tmp_path, 'exit 0')}"
    with pytest.raises(EngineFailed, match="exited with code 0 but printed nothing on stdout .*; nothing on stderr$"):
        _divide(spec)
    assert _divide(spec, fen=MATED) == {}          # where there is no move, silence is the answer


def test_a_uci_engine_that_closes_its_input_is_stopped_and_says_so(tmp_path):
    mark = marker()
    engine = _script(tmp_path, "read line; echo uciok; read line; echo readyok\n"
                               f"exec 0<&-\nsleep {mark}\n", "closer")
    # it closes its input after readyok: what comes next finds the pipe closed (EngineCrashed),
    # or, sent before it closed, is never read (the timeout says why)
    started = time.monotonic()
    with pytest.raises((EngineCrashed, EngineTimeout)) as err:
        _divide(f"uci:{engine}", timeout=1)
    assert time.monotonic() - started < 3
    text = _one_line(err.value)
    assert (text.startswith("closer closed its input (stdin) while answering ")
            and "but kept running; it was stopped" in text) or (
        text.startswith("closer: no answer within 1 s") and "; it closed its input (stdin)" in text), text
    assert _gone(_running(mark))


@pytest.mark.parametrize("start", ["", "setsid "], ids=["child", "setsid-child"])
def test_a_child_left_holding_the_output_is_named_and_killed_within_the_timeout(tmp_path, start):
    mark = marker()
    body = f"{start}sleep {mark} &\n" + _printf(r"a2a3: 1\n")
    spec = f"perftree:{_script(tmp_path, body)}"
    started = time.monotonic()
    with pytest.raises(EngineTimeout) as err:
        _divide(spec, timeout=1)
    assert time.monotonic() - started < 3          # stopping it never waits on the pipe it holds
    assert "it exited, but " in _one_line(err.value) and "(sleep) it started kept its output open" in str(err.value)
    assert _gone(_running(mark), within=1)


def test_a_child_left_running_without_the_output_is_killed_after_the_answer(tmp_path):
    mark = marker()
    body = f"sleep {mark} >/dev/null 2>&1 &\nprintf 'a2a3: 1\\na2a4: 1\\nb2b3: 1\\nb2b4: 1\\na1b1: 1\\n'"
    assert _divide(f"perftree:{_script(tmp_path, body)}") == PAWNS_DIVIDE
    assert _gone(_running(mark), within=1)


def test_closing_an_interactive_engine_ends_every_process_it_started(tmp_path):
    mark = marker()
    engine = _uci(tmp_path, "printf 'a2a3: 1\\n\\nNodes searched: 1\\n'",
                  before=f"sleep {mark} &\nsetsid sleep {mark} &\n(setsid sleep {mark} &)\n")
    oracle = make_oracle(_told(tmp_path, engine))
    assert oracle.divide(Request.of(PAWNS), 1) == {"a2a3": 1}
    left = _running(mark, 3)
    assert len(left) == 3
    oracle.close()
    assert _gone(left + [oracle_pid for oracle_pid in [oracle.pid] if oracle_pid])


@pytest.mark.alone           # a bound of 0.2 s
def test_an_engine_ignoring_quit_and_sigterm_is_killed_and_close_does_not_wait(tmp_path):
    engine = _uci(tmp_path, "printf 'a2a3: 1\\n\\nNodes searched: 1\\n'", before="trap '' TERM INT HUP")
    engine.write_text(engine.read_text().replace("quit) exit 0;;", "quit) ;;"))
    oracle = make_oracle(_told(tmp_path, engine))
    oracle.divide(Request.of(PAWNS), 1)
    pid = oracle.pid
    start = time.monotonic()
    oracle.close()
    assert time.monotonic() - start < 0.2
    assert _gone([pid], within=3)


def test_output_read_ahead_is_bounded_in_lines_and_bytes():
    import threading
    out, stop = _Output(), threading.Event()
    line = "x" * 1000
    put = 0
    while put < QUEUE_LINES and out.put(line, 1001, stop) and out._bytes < QUEUE_BYTES:
        put += 1
    stop.set()            # a full buffer refuses more once the engine is stopped, never grows
    assert not out.put(line, 1001, stop)
    assert out._bytes <= QUEUE_BYTES + 1001


def test_messages_quote_engine_text_on_one_short_line():
    assert quoted("a\x00b\ufffd\r") == r"'a\x00b\ufffd\r'"
    assert quoted("x" * 100, 10) == "'xxxxxxxxxx'…"


def test_the_warden_ends_engines_of_a_perftscope_killed_with_sigkill(tmp_path):
    import signal
    import subprocess
    import sys
    mark = marker()
    engine = _uci(tmp_path, "echo 'Nodes searched: 0'", before=f"sleep {mark} &\nsetsid sleep {mark} &\n")
    # a perftscope process that starts the engine and is then killed without any chance to clean up
    code = (f"from perftscope.core.engines.oracles import make_oracle\n"
            f"o = make_oracle('uci:{engine}')\nprint(o.pid, flush=True)\nimport time; time.sleep(60)\n")
    proc = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, text=True)
    engine_pid = int(proc.stdout.readline())
    left = _running(mark, 2)
    assert len(left) == 2 and not _gone([engine_pid], within=0.1)
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    assert _gone(left + [engine_pid], within=3)
