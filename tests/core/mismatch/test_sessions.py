"""Suite and fuzz sessions are one kind of thing to whoever runs them: made from an EnginePair,
run until stopped from another thread, saying which engine call runs, telling each position
and finding as it goes."""
import threading
import time

import pytest

from perftscope.core.counting.suites import load, read
from perftscope.core.engines.pair import EnginePair
from perftscope.core.errors import EngineError
from perftscope.core.mismatch.fuzz import Fuzzer, FuzzSettings
from perftscope.core.mismatch.suite_run import SuiteRun, SuiteSettings

START = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"


@pytest.fixture
def suite(tmp_path):
    path = tmp_path / "one.epd"
    path.write_text(f"{START} ;D1 20 ;D2 400\n")
    return load(path)


def make(kind, pair, suite):
    return SuiteRun(suite, pair, SuiteSettings("one.epd", max_depth=None, jobs=1)) if kind == "suite" else Fuzzer(pair, FuzzSettings(seconds=60))


@pytest.mark.parametrize("kind", ["suite", "fuzz"])
def test_a_session_says_which_call_runs_and_stops_at_once(engine_path, suite, kind):
    pair = EnginePair.parse(f"uci:{engine_path('uci_hang')}", "core", timeout=60)
    session = make(kind, pair, suite)
    assert (session.engine_name, session.reference_name) == ("uci_hang.py", "core")
    runner = threading.Thread(target=session.run)
    runner.start()
    deadline = time.monotonic() + 20
    while session.activity() is None and time.monotonic() < deadline:
        time.sleep(0.05)
    assert session.activity().call == 1
    stopped = time.monotonic()
    session.stop()
    runner.join(10)
    assert not runner.is_alive() and time.monotonic() - stopped < 5
    assert session.stopped.is_set() and session.findings == [] and "(stopped)" in session.summary()
    if kind == "suite":      # the Test tab's line: words, not counts()'s keys
        assert session.summary().startswith("0 passed, 0 failed, 0 differ where engines may differ, 0 skipped")


@pytest.mark.parametrize("kind", ["suite", "fuzz"])
def test_a_session_tells_each_position_and_finding(engine_path, tmp_path, kind):
    seen, found = [], []
    pair = EnginePair.parse(f"perftree:{engine_path('no_underpromotion')}", "core")
    hooks = dict(on_position=lambda: seen.append(1), on_finding=found.append)
    promotion = tmp_path / "promotion.epd"
    promotion.write_text("8/2P5/8/8/8/8/k7/7K w - - 0 1\n")        # counted by the reference
    session = (SuiteRun(load(promotion), pair, SuiteSettings("promotion.epd", max_depth=1, jobs=1, shrink_calls=0), **hooks) if kind == "suite" else
               Fuzzer(pair, FuzzSettings(seconds=None, positions=40, first=True, shrink_calls=0), **hooks))
    session.run()
    assert seen and found and found == session.findings
    assert {f.kind for f in found} == {"promotion"}


def test_a_spec_that_cannot_start_fails_when_the_session_is_made(suite):
    with pytest.raises(EngineError, match="/nonexistent/engine"):
        Fuzzer(EnginePair.parse("uci:/nonexistent/engine", "core"))
    with pytest.raises(EngineError, match="/nonexistent/engine"):
        SuiteRun(suite, EnginePair.parse("core", "uci:/nonexistent/engine"), SuiteSettings("one.epd"))


def test_a_suite_kept_for_a_text_report_holds_only_what_did_not_pass(tmp_path):
    # a text report prints each case as it ends: a suite of any length then holds its failures
    # alone in memory, the passes counted (the JSON and JUnit reports keep every case)
    path = tmp_path / "long.epd"
    path.write_text(f"{START} ;D1 20\n" * 1500 + f"{START} ;D1 21\n" + f"{START} ;D1 20\n" * 500)
    pair = EnginePair.parse("core", "python-chess")
    for keep_passed, kept in ((False, 1), (True, 2001)):
        run = SuiteRun(read(path), pair, SuiteSettings("long.epd", max_depth=None, jobs=1, shrink_calls=0,
                                                       keep_passed=keep_passed))
        run.run()
        assert run.counts() == {"passed": 2000, "failed": 1, "may_differ": 0, "skipped": 0}
        assert len(run.cases) == kept
        assert [c.index for c in run.cases if not c.passed] == [1500] and len(run.findings) == 1
