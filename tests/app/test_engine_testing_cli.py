"""`suite --engine`, `fuzz` and `shrink`: planted bugs found and classified, a correct engine
passes, a crash reported with the engine's own error, JUnit that a CI can read."""
import json
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from tests.processes import interrupted, marker, with_marker
from .cli_run import run

PERFTSCOPE = str(Path(sys.executable).parent / "perftscope")


# planted engine -> the class its bug must be reported as
PLANTED = {
    "ep_rank_pin": "ep-rank-pin",
    "castle_through_attack": "castling-attack",
    "no_underpromotion": "promotion",
    "pinned_leaves_line": "pin",
    "inconsistent": "state",
}


@pytest.fixture
def spec(engine_path):
    return lambda name: f"perftree:{engine_path(name)}"


@pytest.mark.parametrize("name", list(PLANTED) + ["correct"])
def test_suite_finds_and_classifies_each_planted_bug(capsys, spec, name):
    code, out, err = run(capsys, "suite", "edge_cases.epd", "--engine", spec(name), "--max-depth", "2",
                         "--jobs", "2", "--shrink-calls", "0", "--json")
    report = json.loads(out)
    assert err == ""
    assert report["engine"] == f"{name}.py" and report["reference"] == "core"
    if name == "correct":
        assert code == 0 and report["failed"] == 0 and report["passed"] == 14
        assert report["classes"] == {} and report["first_differ_depth"] == {}
        return
    assert code == 1 and report["failed"] >= 1
    assert PLANTED[name] in report["classes"]
    kinds = {c["finding"]["kind"] for c in report["cases"] if c["finding"]}
    assert kinds == {PLANTED[name]}, kinds
    for case in report["cases"]:
        if case["finding"] and PLANTED[name] != "state":
            finding = case["finding"]
            assert finding["first_differ_depth"] == len(finding["path"]) + 1
            assert finding["report"]["extra"] or finding["report"]["missing"]


def test_suite_text_summary_and_histogram(capsys, spec):
    code, out, _ = run(capsys, "suite", "ep_edge_cases.epd", "--engine", spec("ep_rank_pin"), "--max-depth", "1",
                       "--shrink-calls", "20")
    assert code == 1
    # 1b1k4/8/8/1rPpK3/8/8/8/8 w - d6: white in check from b8 before black's d7d5 could be played
    assert "6 passed, 2 failed, 1 differ where engines may differ (positions that cannot arise)" in out
    assert ("DIFF  ep_edge_cases.epd:9  D1 expected 5, got 6  1b1k4/8/8/1rPpK3/8/8/8/8 w - d6 0 1\n"
            "      en passant through a rank pin: illegal c5d6") in out
    assert "      engines may differ here: this position cannot arise in a game (" in out
    assert "en passant through a rank pin: illegal c5d6 (en passant c5d6 exposes king a5 to rook h5 along rank 5)" in out
    summary = out.split("failures by class (shortest example of each):\n")[1].splitlines()
    assert summary[0].split()[:7] == ["en", "passant", "through", "a", "rank", "pin", "2"]
    assert summary[0].endswith("(c5d6)")
    assert "minimal " in out                   # 8/2p5/3p4/KP5r/1R2Pp1k/... shrinks
    assert "depth at which the move lists first differ:" in out
    assert out.rstrip().endswith("2")          # both failures at depth 1: ####... 2


def test_junit_names_the_failing_positions(capsys, spec, tmp_path):
    junit = tmp_path / "perft.xml"
    code, _, _ = run(capsys, "suite", "ep_edge_cases.epd", "--engine", spec("ep_rank_pin"), "--max-depth", "1",
                     "--shrink-calls", "0", "--junit", str(junit))
    assert code == 1
    suite = ET.parse(junit).getroot().find("testsuite")
    assert suite.get("tests") == "9" and suite.get("failures") == "2" and suite.get("errors") == "0"
    failing = {tc.get("name") for tc in suite.iter("testcase") if tc.find("failure") is not None}
    assert failing == {"ep_edge_cases.epd:1: 3k4/8/8/K1Pp3r/8/8/8/8 w - d6 0 2",
                       "ep_edge_cases.epd:2: 8/2p5/3p4/KP5r/1R2Pp1k/8/6P1/8 b - e3 0 1"}
    may_differ = [tc.find("skipped").get("message") for tc in suite.iter("testcase")
                  if tc.find("skipped") is not None and tc.get("name").startswith("ep_edge_cases.epd:9:")]
    assert may_differ and may_differ[0].startswith("engines may differ here: this position cannot arise")
    failure = next(tc.find("failure") for tc in suite.iter("testcase") if tc.find("failure") is not None)
    assert failure.get("type") == "ep-rank-pin" and "c5d6" in failure.get("message")


def test_a_crash_is_reported_with_the_engines_own_error(capsys, spec, tmp_path):
    junit = tmp_path / "crash.xml"
    code, out, _ = run(capsys, "suite", "ep_edge_cases.epd", "--engine", spec("node_crash_ep"), "--max-depth", "1",
                       "--shrink-calls", "0", "--junit", str(junit))
    assert code == 1
    own = "TypeError: Cannot read properties of undefined (reading 'piece')"
    line = next(x for x in out.splitlines() if "crash:" in x)
    # the first position with a legal en passant (the others' captures are illegal: no crash)
    assert line.strip() == ("crash: the engine crashed at the root (FEN 8/8/8/2k5/2pP4/8/B7/4K3 b - d3 0 3): "
                            + own)
    assert "Node.js v20" not in out
    errors = [tc.find("error") for tc in ET.parse(junit).getroot().iter("testcase") if tc.find("error") is not None]
    assert len(errors) == 4 and all(e.get("type") == "crash" and own in e.get("message") for e in errors)


def test_fuzz_finds_each_planted_bug(capsys, spec):
    for name, kind in PLANTED.items():
        code, out, err = run(capsys, "fuzz", "--engine", spec(name), "--seed", "1", "--seconds", "30",
                             "--first", "--shrink-calls", "0", "--json")
        report = json.loads(out)
        assert code == 1, name
        assert report["seconds"] < 30 and report["tested"] >= 1
        assert [f["kind"] for f in report["findings"]] == [kind], name


def test_fuzz_finds_nothing_wrong_with_a_correct_engine(capsys, spec):
    code, out, _ = run(capsys, "fuzz", "--engine", spec("correct"), "--seed", "1", "--positions", "24")
    assert code == 0, out
    tested = int(out.splitlines()[-1].split()[0])
    assert tested == 24                         # edge positions and random play, alternating
    assert "0 findings" in out and "positions/s" in out


def test_fuzz_same_seed_same_run(capsys):
    runs = []
    for _ in range(2):
        code, out, _ = run(capsys, "fuzz", "--engine", "python-chess", "--positions", "40", "--seed", "7",
                           "--depth", "1", "--json")
        assert code == 0
        runs.append(json.loads(out)["tested"])
    assert runs == [40, 40]
    from perftscope.core.mismatch.fuzz import fuzz_positions
    first = [f for _, f in zip(range(60), fuzz_positions(7))]
    assert first == [f for _, f in zip(range(60), fuzz_positions(7))]
    assert first != [f for _, f in zip(range(60), fuzz_positions(8))]


def test_shrink_command(capsys, spec):
    # the bug shows two plies down: shrink walks into the differing subtree, then removes pieces
    code, out, _ = run(capsys, "shrink", "--engine", spec("ep_rank_pin"), "-f", "3k4/3p4/8/K1P4r/8/8/8/8 b - - 0 1",
                       "-d", "3", "--json")
    assert code == 1
    result = json.loads(out)
    shrunk, report = result["shrunk"], result["report"]
    assert shrunk["depth"] == 1 and shrunk["pieces"] <= 5
    # the engine is also asked about a position's own FEN where the finder walked down to it
    assert shrunk["engine_calls"] >= shrunk["reference_calls"] > len(shrunk["steps"])
    assert result["examples"][0]["shrunk"] == shrunk
    assert report["fen"] == shrunk["fen"] and not report["missing"] and len(report["extra"]) == 1
    assert "along rank" in report["explanations"][report["extra"][0]]


def test_shrink_when_they_agree_and_bad_input(capsys, spec):
    code, out, _ = run(capsys, "shrink", "--engine", spec("correct"), "-f", "4k3/8/8/8/8/8/8/4K2R w K - 0 1",
                       "-d", "1")
    assert code == 0 and "nothing to shrink" in out
    code, _, err = run(capsys, "shrink", "--engine", spec("correct"), "-f", "4k3/8/8 w - - 0 1", "-d", "1")
    assert code == 2 and err.count("\n") == 1 and "FEN" in err
    code, _, err = run(capsys, "suite", "edge_cases.epd", "--engine", "uci:/nonexistent/engine")
    assert code == 2 and err.count("\n") == 1 and "nonexistent" in err


def test_an_engine_that_hangs_is_a_timeout_finding_and_the_run_goes_on(capsys, spec, tmp_path):
    suite = tmp_path / "two.epd"
    suite.write_text("4k3/8/8/8/8/8/8/4K2R w K - 0 1 ;D1 15\n8/8/8/8/8/8/8/K1k5 w - - 0 1 ;D1 3\n")
    code, out, err = run(capsys, "suite", str(suite), "--engine", f"uci:{spec('uci_hang_endgame')[len('perftree:'):]}",
                         "--timeout", "0.5", "--shrink-calls", "0", "--json")
    report = json.loads(out)
    assert code == 1 and err == ""
    assert report["failed"] == 2 and set(report["classes"]) == {"timeout"}
    assert all(c["finding"]["kind"] == "timeout" for c in report["cases"])


def test_shrink_gives_one_minimal_example_per_bug(capsys, spec):
    code, out, _ = run(capsys, "shrink", "--engine", spec("two_bugs"), "-f", "r3k2r/1P6/8/8/8/5q2/8/R3K2R w KQkq - 0 1",
                       "-d", "1", "--max-calls", "12")
    assert code == 1
    assert "bug 1 of 2: castling through or into attack (illegal castling)" in out
    assert "bug 2 of 2: promotions (not generated promotion to n)" in out


def test_ctrl_c_ends_a_suite_at_once_and_its_engine_with_it(tmp_path):
    # an engine deep in a call (Ethereal at depth 6 of a suite line took 14 s to be left): Ctrl-C
    # kills it and exits, rather than waiting for the call to end
    mark = marker()
    slow = tmp_path / "slow.sh"
    slow.write_text(f"#!/bin/sh\nsleep {mark}\n")
    slow.chmod(0o755)
    code, err, took = interrupted([PERFTSCOPE, "suite", "edge_cases.epd", "--engine", f"perftree:{slow}",
                                   "--max-depth", "1", "--timeout", "30"], mark)
    assert code == 130 and err.strip().endswith("perftscope: interrupted")
    assert took < 5, took                    # not the engine's call (here the 30-second timeout)
    assert with_marker(mark) == []
