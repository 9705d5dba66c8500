"""core.locate.spectra on runs written out by hand: Ochiai and DStar, lines that always run
together as one suspect, ties said as ties, the feature contrast breaking an Ochiai tie."""
import math

import pytest

from perftscope.core.locate.runs import Run
from perftscope.core.locate.spectra import dstar, ochiai, rank

ROOT = "/src"


def run(failed: bool, lines, kinds=()):
    return Run("test", "8/8/8/8/8/8/8/K6k w - - 0 1", (), 1, failed, "x" if failed else "agrees",
               {f"{ROOT}/gen.c": frozenset(lines)}, frozenset(kinds))


def test_scores():
    assert ochiai(2, 1, 4) == pytest.approx(2 / math.sqrt(4 * 3))
    assert ochiai(0, 3, 4) == 0.0
    assert dstar(2, 1, 4) == pytest.approx(4 / 3)
    assert dstar(4, 0, 4) > 1e6       # every failing run and no passing one: nothing against it


def test_lines_that_run_together_are_one_suspect_and_ties_share_a_rank():
    runs = [run(True, [1, 2, 3, 10, 20]), run(True, [1, 2, 3, 10, 21]),
            run(False, [1, 20, 21]), run(False, [1, 30])]
    suspects = rank(runs, [ROOT])
    by_line = {s.line: s for s in suspects}
    # 2 and 3 ran in exactly the same runs, and next to each other: one suspect, lines 2-3
    assert by_line[2].last == 3 and by_line[2].where == "gen.c:2-3"
    # 10 has the same spectrum but is not next to them: its own suspect, the same rank
    assert by_line[10].rank == by_line[2].rank == 1 and by_line[10].evidence == "spectrum (tie)"
    assert (by_line[2].failed, by_line[2].passed) == (2, 0)
    # 1 ran in every run (2 of 2 failing, 2 passing): Ochiai 2/sqrt(2*4) above 20 and 21's 1/sqrt(2*2)
    assert by_line[1].rank == 3 and by_line[1].failed == 2 and by_line[1].passed == 2
    assert by_line[20].rank == by_line[21].rank == 4 and by_line[20].score == 0.5
    assert 30 not in by_line          # no failing run ran it
    assert [s.rank for s in suspects] == sorted(s.rank for s in suspects)


def test_the_feature_contrast_breaks_an_ochiai_tie_and_says_so():
    # 5 and 6 ran in the one failing run and in one passing run each: Ochiai ties them; 5 is the
    # en-passant code (it ran where en passant was possible), 6 ran in a run without it
    runs = [run(True, [5, 6], {"en passant"}), run(False, [5], {"en passant"}), run(False, [6]),
            run(False, [], {"en passant"})]
    suspects = rank(runs, [ROOT], focus="en passant")
    first, second = suspects
    assert (first.line, second.line) == (5, 6)
    assert first.score == second.score and first.rank == 1 and second.rank == 2
    assert first.evidence == "spectrum, then en passant contrast"
