"""Oracles: agreement between the core, python-chess and a real Stockfish, and every way an
engine can fail (missing, killed, garbage, hung, duplicate lines, broken perftree output)."""
import os
import threading
import time

import pytest

from perftscope.core.engines import oracles
from perftscope.core.engines import stockfish as stockfish_module
from perftscope.core.errors import CalibrationError, EngineError, EngineUnreadable, FenError, MoveError
from perftscope.core.engines.oracles import make_oracle
from perftscope.core.board.position import START_FEN
from perftscope.core.engines.oracle import Request

KIWIPETE = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"
POSITION_3 = "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1"
POSITION_4 = "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1"


@pytest.fixture(scope="module")
def stockfish():
    with make_oracle("stockfish") as sf:
        yield sf


@pytest.fixture(scope="module")
def core_oracle():
    return make_oracle("core")


@pytest.mark.parametrize("fen, moves, depth", [
    (START_FEN, [], 3),
    (KIWIPETE, [], 2),
    (POSITION_3, ["e2e4"], 3),          # en passant into a rank pin becomes possible
    (POSITION_4, [], 2),                # promotions, castling rights, checks
    (START_FEN, ["E2E4", "c7c5", "g1f3"], 2),
])
def test_core_python_chess_and_stockfish_agree(stockfish, core_oracle, fen, moves, depth):
    reference = make_oracle("python-chess").divide(Request.of(fen, moves), depth)
    assert reference, "the position has moves"
    assert core_oracle.divide(Request.of(fen, moves), depth) == reference
    assert stockfish.divide(Request.of(fen, moves), depth) == reference


def test_deep_core_divides_run_on_the_pool_and_agree(stockfish, core_oracle):
    from perftscope.core.counting import shallow
    request = Request.of(POSITION_3, ["e2e4"])
    depth = 7                                   # 215 M nodes: no small request
    assert not shallow.is_small(request.position, depth)
    assert core_oracle.divide(request, depth) == stockfish.divide(request, depth)
    assert core_oracle.divide(request, 4) == stockfish.divide(request, 4)    # a small one


def test_published_total_from_kiwipete(stockfish):
    # chessprogramming.org: perft(3) of "Kiwipete" is 97862
    assert stockfish.perft(Request.of(KIWIPETE), 3) == 97862


def test_depth_zero_is_answered_without_asking(engine_path):
    # the hanging engine would never answer: depth 0 must not reach it
    with oracles.UciOracle(engine_path("uci_hang"), timeout=30) as hang:
        start = time.monotonic()
        assert hang.divide(Request.of(START_FEN, ["e2e4"]), 0) == {}
        assert hang.perft(Request.of(START_FEN, ["e2e4"]), 0) == 1
        assert time.monotonic() - start < 5


def test_bad_fen_and_illegal_moves_are_rejected_before_sending(stockfish, engine_path):
    pid = stockfish.pid
    with pytest.raises(FenError, match="side to move"):
        stockfish.divide(Request.of("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1"), 2)
    with pytest.raises(MoveError, match="e2e5"):
        stockfish.divide(Request.of(START_FEN, ["e2e4", "e7e5", "e2e5"]), 2)
    with pytest.raises(FenError, match="kings"):
        stockfish.divide(Request.of("8/8/8/8/8/8/8/8 w - - 0 1"), 1)
    # the same process is still there and answers properly
    assert stockfish.pid == pid
    assert stockfish.perft(Request.of(START_FEN, ["e2e4"]), 2) == 600
    with oracles.UciOracle(engine_path("uci_hang"), timeout=30) as hang:
        start = time.monotonic()
        with pytest.raises(MoveError):
            hang.divide(Request.of(START_FEN, ["e1e2"]), 3)
        assert time.monotonic() - start < 5


def test_stockfish_killed_between_requests_is_restarted():
    with make_oracle("stockfish") as sf:
        before = sf.pid
        os.kill(before, 9)
        deadline = time.monotonic() + 5
        while sf.running and time.monotonic() < deadline:    # every thread of it has exited
            time.sleep(0.02)
        assert sf.perft(Request.of(START_FEN), 3) == 8902
        assert sf.pid != before and sf.restarts == 1


def test_stockfish_killed_mid_run_gives_a_clear_error_then_recovers():
    with make_oracle("stockfish") as sf:
        failure = []

        def deep():
            try:
                sf.divide(Request.of(START_FEN), 8)
            except EngineError as e:
                failure.append(str(e))

        worker = threading.Thread(target=deep)
        worker.start()
        time.sleep(0.5)
        os.kill(sf.pid, 9)
        worker.join(timeout=10)
        assert not worker.is_alive()
        assert len(failure) == 1
        assert failure[0].startswith("stockfish was killed by signal 9")
        assert "go perft 8" in failure[0]
        assert sf.divide(Request.of(START_FEN, ["e2e4"]), 1)["e7e5"] == 1


def test_lines_not_understood_are_ignored_and_kept(engine_path, core_oracle):
    with oracles.UciOracle(engine_path("uci_garbage")) as garbage:
        assert garbage.name == "uci_garbage.py"
        assert garbage.divide(Request.of(START_FEN, ["e2e4"]), 2) == core_oracle.divide(Request.of(START_FEN, ["e2e4"]), 2)
        assert garbage.last.parsed.ignored == ["the moon is made of cheese"]
        sent = [t for _, d, t in garbage.log.entries() if d == ">"]
        assert sent[-3:] == ["position fen " + START_FEN + " moves e2e4", "go perft 2", "isready"]


def test_an_answer_with_nothing_understood_names_engine_request_and_line(tmp_path):
    broken = _script(tmp_path, 'echo "the moon is made of cheese"\n')
    with pytest.raises(EngineError) as err:
        broken.divide(Request.of(START_FEN, ["e2e4"]), 2)
    message = str(err.value)
    assert message.startswith("perft.sh: no rows (rows look like `{move} {count}{rest}` or `{move}: {count}{rest}`) "
                              "in its answer to perft.sh 2 ")
    assert "e2e4" in message and "the first 'the moon is made of cheese'" in message


def test_hung_engine_times_out_and_is_stopped(engine_path):
    # it answers right (so it can be read), and hangs on positions of three pieces
    with oracles.UciOracle(engine_path("uci_hang_endgame"), timeout=3.0) as hang:
        assert hang.perft(Request.of(START_FEN), 2) == 400
        pid = hang.pid
        start = time.monotonic()
        with pytest.raises(EngineError, match=r"no answer within 3 s to .*go perft 2"):
            hang.divide(Request.of("4k3/8/8/8/8/8/8/4K2R w K - 0 1"), 2)
        assert time.monotonic() - start < 8
        assert not hang.running
        with pytest.raises(ProcessLookupError):      # stopped and reaped, not left behind
            os.kill(pid, 0)


def test_duplicate_move_lines_are_a_broken_answer(engine_path):
    with oracles.UciOracle(engine_path("uci_duplicates")) as dup:
        assert dup.perft(Request.of(START_FEN), 2) == 400
        with pytest.raises(EngineUnreadable, match="move g8h6 listed twice in its answer to .*go perft 1': 'G8H6: 1' and 'g8h6: 1'"):
            dup.divide(Request.of(START_FEN, ["e2e4"]), 1)


def test_missing_engines_say_so(monkeypatch, tmp_path):
    with pytest.raises(EngineError, match="does not exist"):
        make_oracle("uci:/nonexistent/engine")
    with pytest.raises(EngineError, match="not a file and not a program on PATH"):
        make_oracle("perftree:no-such-perft-script")
    with pytest.raises(EngineError, match="unknown engine 'fish'"):
        make_oracle("fish")
    monkeypatch.setenv("PATH", str(tmp_path))
    monkeypatch.setattr(stockfish_module, "DEBIAN_PATH", str(tmp_path / "stockfish"))
    with pytest.raises(EngineError, match="stockfish is not installed"):
        make_oracle("stockfish")
    assert not oracles.stockfish_available()


def test_not_executable_script_is_named(tmp_path):
    script = tmp_path / "perft.sh"
    script.write_text("#!/bin/sh\n")
    with pytest.raises(EngineError, match="not executable"):
        make_oracle(f"perftree:{script}")


def test_one_engine_serves_several_threads(stockfish):
    results = {}

    def ask(moves):
        results[moves] = stockfish.perft(Request.of(START_FEN, moves.split()), 3)

    threads = [threading.Thread(target=ask, args=(m,)) for m in ("e2e4", "d2d4", "g1f3", "a2a3")]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=30)
    core = make_oracle("core")
    assert results == {m: core.perft(Request.of(START_FEN, m.split()), 3) for m in results}


# --- perftree scripts ---------------------------------------------------------------------

def _script(tmp_path, body):
    path = tmp_path / "perft.sh"
    path.write_text("#!/bin/sh\n" + body)
    path.chmod(0o755)
    return make_oracle(f"perftree:{path}")


def test_perftree_script_in_python_chess_agrees_with_core(core_oracle, engine_path):
    script = make_oracle(f"perftree:{engine_path('correct')}")
    for fen, moves, depth in ((KIWIPETE, [], 2), (POSITION_3, ["e2e4"], 2), (START_FEN, ["g1f3", "b8c6"], 2)):
        assert script.divide(Request.of(fen, moves), depth) == core_oracle.divide(Request.of(fen, moves), depth)


def test_perftree_arguments_exactly_like_perftree(tmp_path):
    # perftree leaves the moves argument out when there are none
    args = _script(tmp_path, '[ $# -eq 2 ] || { echo "got $# arguments" >&2; exit 3; }\n'
                             '[ "$1" = 1 ] && [ "$2" = "' + START_FEN + '" ] || exit 4\n'
                             'echo "a2a3 1"; echo; echo 1\n')
    assert args.divide(Request.of(START_FEN), 1) == {"a2a3": 1}
    with pytest.raises(EngineError, match="^perft.sh exited with code 3 .*: got 3 arguments$"):
        args.divide(Request.of(START_FEN, ["e2e4"]), 1)
    # upper-case promotions, extra words and lines after the total are read as perftree reads them
    moves = _script(tmp_path, '[ $# -eq 3 ] && [ "$3" = "e2e4 e7e5" ] || exit 3\n'
                              'echo "a7b8Q 1"; echo "g1f3 2 (0.1 s)"; echo; echo 3; echo "took 1 ms"\n')
    assert moves.divide(Request.of(START_FEN, ["e2e4", "e7e5"]), 2) == {"a7b8q": 1, "g1f3": 2}


@pytest.mark.parametrize("output, complaint", [
    ('echo "e2e4 20"; echo "e2e4 20"; echo; echo 40', "e2e4 listed twice"),
    ('echo "e2e4 20"; echo; echo 21', "the moves add up to 20 but it reports 21"),
    ('echo "Nf3 20"; echo "g1f3 20"; echo; echo 40', "g1f3 listed twice"),
    ('echo "e2e4 20"; echo "20 Nf3"; echo; echo 40', "is not a row as learned"),      # never dropped
    ('echo "e2e4 20"; echo "Nf9 20"; echo; echo 20', "nothing"),       # not a move at all: ignored
])
def test_perftree_broken_answers(tmp_path, output, complaint):
    broken = _script(tmp_path, output + "\n")
    if complaint == "nothing":
        assert broken.divide(Request.of(START_FEN), 2) == {"e2e4": 20}
        assert broken.last.parsed.ignored == ["Nf9 20"]
        return
    with pytest.raises(EngineError) as err:
        broken.divide(Request.of(START_FEN), 2)
    assert complaint in str(err.value)
    assert str(err.value).startswith("perft.sh: ") and "perft.sh 2 'rnbqkbnr" in str(err.value)


def test_perftree_script_timeout(tmp_path):
    slow = _script(tmp_path, "sleep 30\n")
    slow.timeout = 0.5
    start = time.monotonic()
    with pytest.raises(EngineError, match="no answer within 0.5 s"):
        slow.divide(Request.of(START_FEN), 1)
    assert time.monotonic() - start < 5


# --- stopping a request from another thread ------------------------------------------------

@pytest.mark.parametrize("kind", ["stockfish", "core", "python-chess", "perftree"])
def test_cancel_stops_a_running_divide_at_once(engine_path, kind):
    spec = f"perftree:{engine_path('correct')}" if kind == "perftree" else kind
    oracle = make_oracle(spec)
    failure = []

    def deep():        # hours of work for any of them
        try:
            oracle.divide(Request.of(KIWIPETE), 9)
        except oracles.OracleCancelled as e:
            failure.append(str(e))

    worker = threading.Thread(target=deep)
    worker.start()
    time.sleep(0.5)
    start = time.monotonic()
    oracle.cancel()
    worker.join(timeout=10)
    assert not worker.is_alive() and time.monotonic() - start < 5
    assert len(failure) == 1 and failure[0].startswith(f"{oracle.name}: cancelled while answering")
    assert oracle.divide(Request.of(START_FEN, ["e2e4"]), 1)["e7e5"] == 1      # and it still works
    oracle.close()


def test_a_request_after_close_does_not_start_the_engine_again():
    # a worker thread still reading its position when the oracle was closed started Stockfish
    # anew, a process nobody would close (the test below met it while the kernels loaded)
    sf = make_oracle("stockfish")
    sf.close()
    with pytest.raises(oracles.OracleCancelled, match="stockfish: cancelled while answering a depth-1 request "
                                                      "after close()"):
        sf.divide(Request.of(START_FEN), 1)
    assert not sf.running and sf.pid is None


@pytest.mark.alone           # a bound of 1 s
def test_close_does_not_wait_for_a_running_request():
    sf = make_oracle("stockfish")
    failure = []

    def deep():
        try:
            sf.divide(Request.of(START_FEN), 9)
        except EngineError as e:
            failure.append(e)

    worker = threading.Thread(target=deep)
    worker.start()
    time.sleep(0.3)
    start = time.monotonic()
    sf.close()
    assert time.monotonic() - start < 1
    worker.join(timeout=10)
    assert not worker.is_alive() and isinstance(failure[0], oracles.OracleCancelled)
    assert not sf.running


# --- specs, cmd: templates, engine files ---------------------------------------------------

@pytest.mark.parametrize("text, kind, short", [
    ("perftree:/x/my-perft.sh", "perftree", "my-perft.sh"),
    ("uci:/x/eng", "uci", "eng"),
    ("cmd:./engine divide {depth} {fen} {moves}", "cmd", "engine"),
    ("cmd:'/opt/my engine/perft' {depth} {fen}", "cmd", "perft"),
    # an interpreter's script names the engine, past the interpreter's options
    ("cmd:node js/chessops-cmd.mjs {depth} {fen} {moves}", "cmd", "chessops-cmd.mjs"),
    ("cmd:/usr/bin/python3 -u tools/perft.py {depth} {fen}", "cmd", "perft.py"),
    ("cmd:deno run --allow-read perft.ts {depth} {fen}", "cmd", "perft.ts"),
    ("cmd:python3 {depth} {fen}", "cmd", "python3"),
    ("file:/nowhere/my-engine.toml", "file", "my-engine"),
    ("core", "core", "core"), ("stockfish", "stockfish", "stockfish"),
    ("python-chess", "python-chess", "python-chess"), ("chess", "python-chess", "python-chess"),
])
def test_one_spec_parser_and_short_names(text, kind, short):
    spec = oracles.parse_spec(text)
    assert (spec.kind, spec.short_name, spec.text) == (kind, short, text)


@pytest.mark.parametrize("text, complaint", [
    ("fish", "unknown engine 'fish': expected core, python-chess, stockfish, uci:PATH"),
    ("uci:", "nothing after 'uci:' (expected a path)"),
    ("cmd:  ", "nothing after 'cmd:' (expected a command template)"),
    ("cmd:./engine 'unclosed {fen}", "cannot split the command template"),
])
def test_bad_specs_say_what_is_wrong(text, complaint):
    with pytest.raises(EngineError, match=complaint.replace("(", r"\(").replace(")", r"\)")):
        oracles.parse_spec(text)


def test_cmd_template_placeholders_fill_one_argument_each(tmp_path, engine_path):
    script = tmp_path / "engine"
    script.write_text('#!/bin/sh\n[ $# -eq 5 ] || { echo "got $# arguments" >&2; exit 3; }\n'
                      '[ "$1" = divide ] || exit 4\n'
                      'echo "fen=$3" >&2; echo "moves=$4" >&2; echo "line=$5" >&2\n'
                      f'exec {engine_path("correct")} "$2" "$3" "$4"\n')
    script.chmod(0o755)
    engine = make_oracle(f"cmd:{script} divide {{depth}} {{fen}} {{moves}} --position={{fen_moves}}")
    assert engine.name == "engine" and engine.divide(Request.of(START_FEN, ["e2e4", "c7c5"]), 1)["g1f3"] == 1
    said = [t for _, d, t in engine.log.entries() if d == "!"]
    assert said[-3:] == [f"fen={START_FEN}", "moves=e2e4 c7c5", f"line=--position={START_FEN} moves e2e4 c7c5"]
    assert engine.divide(Request.of(START_FEN), 1)["e2e4"] == 1            # no moves: still one (empty) argument
    assert [t for _, d, t in engine.log.entries() if d == "!"][-2:] == ["moves=", f"line=--position={START_FEN}"]
    after = make_oracle(f"cmd:{engine_path('correct')} {{depth}} {{fen_after}}")
    assert after.divide(Request.of(START_FEN, ["e2e4"]), 1)["e7e5"] == 1        # the FEN after the moves, computed here
    commands = [t for _, d, t in after.log.entries() if d == ">"]
    assert commands[-1].endswith(" 1 'rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1'")
    with pytest.raises(EngineError, match="has no {depth}, {fen} or {moves}"):
        make_oracle(f"cmd:{script} divide")


def test_engine_file_errors_name_the_file_and_key(tmp_path):
    toml = tmp_path / "eng.toml"
    for text, complaint in (('command = "no-such-program-here"', "'no-such-program-here' is not a file"),
                            ('comand = "x"', "unknown key 'comand'"),
                            ('command = [', "not valid TOML"),
                            ('name = "x"', "'command' must name the program")):
        toml.write_text(text + "\n")
        with pytest.raises(EngineError, match=complaint):
            make_oracle(f"file:{toml}")
    with pytest.raises(EngineError, match="cannot read the engine file"):
        make_oracle(f"file:{tmp_path / 'missing.toml'}")


def test_an_engine_file_for_a_uci_engine_needs_only_its_command(tmp_path, engine_path):
    toml = tmp_path / "sf.toml"
    toml.write_text(f'command = "{stockfish_module.require_stockfish()}"\ntimeout = 20\n')
    with make_oracle(f"file:{toml}") as sf, make_oracle("python-chess") as truth:
        assert sf.name == "sf" and sf.timeout == 20
        assert sf.divide(Request.of(KIWIPETE, ["e1g1"]), 2) == truth.divide(Request.of(KIWIPETE, ["e1g1"]), 2)
        pid = sf.pid
        os.kill(pid, 9)
        deadline = time.monotonic() + 5
        while sf.running and time.monotonic() < deadline:
            time.sleep(0.02)
        assert sf.perft(Request.of(START_FEN), 3) == 8902 and sf.restarts == 1 and sf.pid != pid


def test_an_engine_file_whose_answers_never_end_says_what_to_set(tmp_path, engine_path):
    # an interactive program printing rows and no total: the end of an answer cannot be told
    script = tmp_path / "chatty"
    script.write_text('#!/bin/sh\nwhile read line; do set -- $line; case "$1" in\n'
                      '  position) shift 2; fen="$1 $2 $3 $4 $5 $6";;\n'
                      f'  divide) {engine_path("correct")} "$2" "$fen" | grep " [0-9]*$" | grep -v "^$" ;;\n'
                      '  echo) echo done;;\n  quit) exit 0;; esac; done\n')
    script.chmod(0o755)
    toml = tmp_path / "chatty.toml"
    toml.write_text('command = "./chatty"\nposition = "position fen {fen}"\ndivide = "divide {depth}"\n'
                    'fen_after = true\ntimeout = 5\n')
    with make_oracle(f"file:{toml}") as chatty:
        with pytest.raises(CalibrationError, match="prints no total line after its divide, so the end of an "
                                                   "answer cannot be told: give it a `sentinel`"):
            chatty.divide(Request.of(START_FEN), 2)
    toml.write_text(toml.read_text() + 'sentinel = "echo"\nsentinel_reply = "done"\n')
    with make_oracle(f"file:{toml}") as chatty, make_oracle("core") as core:
        assert chatty.divide(Request.of(START_FEN), 2) == core.divide(Request.of(START_FEN), 2)
        assert chatty.divide(Request.of(START_FEN, ["e2e4"]), 2) == core.divide(Request.of(START_FEN, ["e2e4"]), 2)   # same process
        assert chatty.dialect.total is None and chatty.dialect.rows == ("{move} {count}",)
    toml.write_text(toml.read_text() + 'end_regex = "x"\n')
    with pytest.raises(EngineError, match="unknown key 'end_regex'"):
        make_oracle(f"file:{toml}")


def test_an_oracle_keeps_the_spec_it_was_made_from(engine_path, tmp_path, monkeypatch):
    """The Spec travels down to the oracle whole (options included), not as its text read again;
    the dialect it learns is saved under that spec."""
    from perftscope.core.engines.spec import parse_spec
    monkeypatch.setenv("PERFTSCOPE_DIALECTS", str(tmp_path))
    for text in ("core", f"perftree[chess960=false]:{engine_path('correct')}"):
        spec = parse_spec(text)
        with make_oracle(spec) as oracle:
            assert oracle.spec is spec and oracle.spec.text == text
    with make_oracle(f"cmd:{engine_path('correct')} {{depth}} {{fen}} {{moves}}") as cmd:
        cmd.calibrate()
        assert cmd.spec.kind == "cmd" and cmd.record and os.path.dirname(cmd.record) == str(tmp_path)
