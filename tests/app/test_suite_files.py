"""Suite files as users have them: lines that cannot be read are named with their line number
while the good lines still run (exit 2 at the end), files that are not suites are one line, and
a suite of any length is read as a stream."""
import gc
import json
import os
import weakref

import pytest

from perftscope.core.counting.suites import read
from perftscope.core.engines.pair import EnginePair
from perftscope.core.mismatch.suite_run import IN_FLIGHT, SuiteRun, SuiteSettings

from .cli_run import run

BAD_EPD = (b"8/8/8/8/8/8/8/K6k w - - ;D1 3\n"
           b"8/8/8/8/8/8/8/K6k w - - ;Dx 3\n"
           b"\xff\xfe bad bytes ;D1 3\n"
           b"4k3/8/8/8/8/8/8/4K2R w K - ;D1 15\n"
           + b"8/8/8/8/8/8/8/K6k w - - ;D1 3 ; " + b"x" * 20_000 + b"\n"
           + b"not a fen ;D1 3\n")
BAD_PERFT = (b"id one\nepd 8/8/8/8/8/8/8/K6k w - -\nperft 1 3\nperft x 9\nbogus line\n"
             b"id two\nperft 1 5\nid three\nepd 4k3/8/8/8/8/8/8/4K2R w K -\nperft 1 15\n")


def test_bad_epd_lines_are_named_and_the_good_lines_still_run(tmp_path, capsys):
    suite = tmp_path / "bad.epd"
    suite.write_bytes(BAD_EPD)
    code, out, err = run(capsys, "suite", str(suite))
    assert code == 2
    assert [line.split()[1] for line in out.splitlines() if line.startswith("ok")] == ["bad.epd:1", "bad.epd:4"]
    assert "FAIL  bad.epd:6: FEN field 1 (piece placement)" in out
    assert out.splitlines()[-1] == "2 passed, 1 failed, 3 unreadable lines"
    assert err.splitlines() == [
        "perftscope: bad.epd line 2: cannot read depth field 'Dx 3' (expected 'D<depth> <nodes>')",
        "perftscope: bad.epd line 3: not UTF-8 text (invalid start byte at byte 1)",
        "perftscope: bad.epd line 5: longer than 10000 characters"]


def test_bad_perft_lines_are_named_and_the_good_entries_still_run(tmp_path, capsys):
    suite = tmp_path / "bad.perft"
    suite.write_bytes(BAD_PERFT)
    code, out, err = run(capsys, "suite", str(suite))
    assert code == 2
    assert [line.split()[1] for line in out.splitlines() if line.startswith("ok")] == ["one", "three"]
    assert err.splitlines() == [
        "perftscope: bad.perft line 4: cannot read 'perft x 9' (expected 'perft <depth> <nodes>' after an 'epd' line)",
        "perftscope: bad.perft line 5: unknown keyword 'bogus' (expected id, epd, perft or variant)",
        "perftscope: bad.perft:6: entry 'two' has no 'epd' line"]


def test_an_engine_suite_names_bad_lines_and_runs_the_good_ones(tmp_path, capsys):
    suite = tmp_path / "bad.epd"
    suite.write_bytes(BAD_EPD)
    code, out, err = run(capsys, "suite", str(suite), "--engine", "python-chess", "--json")
    assert code == 2
    assert "bad.epd line 2: cannot read depth field" in err and "bad.epd line 5: longer than" in err
    cases = json.loads(out)["cases"]
    assert [c["name"] for c in cases if c["passed"]] == ["bad.epd:1", "bad.epd:4"]


@pytest.mark.parametrize("make, message", [
    (lambda d: d, "cannot read suite {path}: Is a directory"),
    (lambda d: (d / "x.epd", (d / "x.epd").write_bytes(b"\x7fELF\0\0\0\x01"))[0],
     "{path} is not a text file (a NUL byte in its first 8 KiB)"),
    (lambda d: (d / "only-comments.epd", (d / "only-comments.epd").write_text("# nothing\n\n"))[0],
     "{path}: no positions found"),
])
def test_a_file_that_is_not_a_suite_is_one_line_and_exit_2(tmp_path, capsys, make, message):
    path = make(tmp_path)
    code, out, err = run(capsys, "suite", str(path))
    assert code == 2
    assert len(err.strip().splitlines()) == 1 and out == ""
    assert err.startswith(f"perftscope: error: {message.format(path=path)}")


def test_a_suite_is_read_as_a_stream(tmp_path):
    # 100 000 positions: what was handed out is not kept by the reader
    suite = tmp_path / "long.epd"
    with open(suite, "w") as f:
        for i in range(100_000):
            f.write(f"8/8/8/8/8/8/8/K6k w - - ;D1 3 ; position {i}\n")
    entries = read(suite)
    first = [weakref.ref(next(entries)) for _ in range(10)]
    count = 10 + sum(1 for _ in entries)
    gc.collect()
    assert count == 100_000
    assert all(ref() is None for ref in first)


def test_an_engine_suite_pulls_only_a_few_positions_ahead(tmp_path):
    pulled = []

    def positions():
        for i in range(200):
            pulled.append(i)
            yield from read_one(tmp_path, i)

    seen_ahead = []
    run_ = SuiteRun(positions(), EnginePair.parse("python-chess", "core"), SuiteSettings("200 lines", max_depth=1),
                    on_case=lambda case: seen_ahead.append(len(pulled) - case.index))
    run_.run()
    assert len(run_.cases) == 200 and all(c.passed for c in run_.cases)
    assert max(seen_ahead) <= IN_FLIGHT * 2 + 3


def read_one(tmp_path, i):
    path = tmp_path / f"{i}.epd"
    path.write_text(f"8/8/8/8/8/8/8/K6k w - - ;D1 3 ; [p{i}]\n")
    yield from read(path)
    os.remove(path)
