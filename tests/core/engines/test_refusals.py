"""A legal move refused in a program's own words (`Illegal move: e1g1`, then exit code 1, or the
line on stdout and exit code 0) is a move it does not generate: the divide keeps every other row,
the finder names the move with the line quoted. A program killed by a signal, or one whose
error names no refusal, crashed: nothing it printed turns that into a refusal."""
import re
from pathlib import Path

import pytest

from perftscope.core.engines.oracle import Request
from perftscope.core.engines.oracles import make_oracle
from perftscope.core.errors import EngineCrashed
from perftscope.core.mismatch.finder import find_mismatch

# white: h1g1 h1f1 e1f1 e1d1 and the castle e1g1, every pawn blocked (five engine calls a divide)
CASTLE = "4k3/8/8/8/8/3p1p1p/3P1P1P/4K2R w K - 0 1"


@pytest.fixture(scope="module")
def refusing():
    """make(how) -> the totals-only script refusing castles in the way `how` says, reading its
    answers in the dialect learned once (one calibration for the module)."""
    script = Path(__file__).parent.parent.parent / "engines" / "refuses_castling_exit.py"
    made = []

    def make(how=""):
        # (a standard-chess script: no Chess960 probe to wait for while it is learned)
        oracle = make_oracle(f"cmd[chess960=false]:{script} {how + ' ' if how else ''}{{depth}} {{fen}} {{moves}}", timeout=30)
        if made:
            oracle.adopt_dialect(made[0])
        else:
            oracle.prepare()
        made.append(oracle)
        return oracle
    yield make
    for oracle in made:
        oracle.close()


@pytest.mark.parametrize("how", ["", "--stdout"])
def test_a_legal_move_refused_in_the_programs_words_keeps_the_other_rows(refusing, how):
    engine = refusing(how)
    rows, refused = engine.divide_refused(Request.of(CASTLE), 2)
    assert refused == {"e1g1": "Illegal move: e1g1"}
    assert rows == {"h1g1": 5, "h1f1": 5, "e1f1": 5, "e1d1": 5}
    with make_oracle("core") as core:
        report = find_mismatch(engine, core, Request.of(CASTLE), 2)
    assert report.failure is None and report.missing == ["e1g1"] and report.extra == []
    assert report.explanations["e1g1"].endswith("asked to play it, the engine refused it ('Illegal move: e1g1')")
    assert [(r.move, r.refused) for r in report.levels[0].rows if r.refused] == [("e1g1", "Illegal move: e1g1")]


@pytest.mark.parametrize("how, said, move", [
    ("--killed", "was killed by signal 9 (SIGKILL)", "e1g1"),
    ("--traceback", "exited with code 1", "e1g1"),
    # it refuses every move yet counts leaves below them: it failed on every call, refused none
    ("--every", "exited with code 1", None)])
def test_a_crash_stays_a_crash_whatever_it_printed(refusing, how, said, move):
    engine = refusing(how)
    with pytest.raises(EngineCrashed, match=re.escape(said)):
        engine.divide_refused(Request.of(CASTLE), 2)
    with make_oracle("core") as core:
        report = find_mismatch(engine, core, Request.of(CASTLE), 2)
    failure = report.failure
    assert (failure.side, failure.kind) == ("engine", "crash") and len(failure.path) == 1
    assert failure.path[0] == (move or failure.path[0]) and failure.own_error.endswith(
        "Illegal move: e1g1" if how == "--killed" else "IndexError: list index out of range"
        if how == "--traceback" else f"Illegal move: {failure.path[0]}")
