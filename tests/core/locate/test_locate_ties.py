"""core.locate's ranking where mutants of several lines do alike: what tells the faulty line from
the lines on the failing move's way (MUSE, Metallaxis: a mutant of the faulty line turns failing
runs to pass; a mutant of a correct line breaks passing runs). The engines are the planted ones of
tests/engines/locate, their mutants made by core.locate.mutants and run in shadow copies."""
from dataclasses import replace
from pathlib import Path

import chess
import pytest

from perftscope.core.locate.job import LocateJob, LocateSettings
from perftscope.core.locate.mutants import Mutant, mutants_of
from perftscope.core.locate.mutation import (BREAKS, Fix, LineEvidence, Mutation, MutationResult, Outcome,
                                             refuted_score, rerank)
from perftscope.core.locate.runs import Run
from perftscope.core.locate.shadow import Shadow
from perftscope.core.locate.spectra import Suspect

HERE = Path(__file__).resolve().parents[2] / "engines" / "locate"
LONG_CASTLING_THROUGH_CHECK = "3rk3/8/8/8/8/8/8/R3K3 w Q - 0 1"    # e1c1 is illegal: d1 is attacked
LONG_CASTLES = ["4k3/8/8/8/8/8/8/R3K3 w Q - 0 1", "7k/8/8/8/8/8/8/R3K3 w Q - 0 1", "k7/8/8/8/8/8/P7/R3K3 w Q - 0 1"]
SHORT_CASTLES = ["4k3/8/8/8/8/8/8/4K2R w K - 0 1", "6k1/8/8/8/8/8/8/4K2R w K - 0 1", "k7/8/8/8/8/8/7P/4K2R w K - 0 1",
                 "3k4/8/8/8/8/8/8/4K2R w K - 0 1"]


def planted(folder: Path, old: str, new: str) -> Path:
    """movegen.py with its own planted bug fixed (a knight promotion) and `old` written `new`."""
    text = (HERE / "movegen.py").read_text().replace('for promo in "qrb":  ', 'for promo in "qrbn": ')
    assert text.count(old) == 1, old
    engine = folder / "movegen.py"
    engine.write_text(text.replace(old, new))
    engine.chmod(0o755)
    return engine


def line_of(path: Path, text: str) -> int:
    return next(n for n, line in enumerate(path.read_text().splitlines(), 1) if text in line)


def run_on(fen: str, failed: bool, verdict: str = "agrees") -> Run:
    """A depth-1 run on `fen` judged against python-chess's moves (no coverage kept: every mutant
    is run on it)."""
    expected = {m.uci(): 1 for m in chess.Board(fen).legal_moves}
    return Run("test", fen, (), 1, failed, verdict, expected=expected)


@pytest.fixture(scope="module")
def switched_off(tmp_path_factory):
    """Long castling tested for an attack on c1 only (d1 is not looked at), its runs (the failing
    one, then three passing long castlings, four short ones) and what two lines' mutants that
    switch castling off do on them: the king's guard's (every castling gone) and the queen's
    rook's (long castling gone), each run on every run, and the king's guard's once more with the
    time up after the failing run."""
    folder = tmp_path_factory.mktemp("castling")
    engine = planted(folder, "attacked(board, row + 3, not white)", "attacked(board, row + 2, not white)")
    runs = ([run_on(LONG_CASTLING_THROUGH_CHECK, True, "generates illegal e1c1")]
            + [run_on(fen, False) for fen in LONG_CASTLES + SHORT_CASTLES])
    mutation = Mutation(f"perftree:{engine}", [str(folder)], runs, lambda p: Path(p).name)
    shadow = Shadow(mutation.sources, mutation.spec, str(tmp_path_factory.mktemp("shadow")))
    king = line_of(engine, "if board.get(row + 4) != king")
    rook = line_of(engine, "if long in castling and board.get(row) == rook")
    guard = line_of(engine, "attacked(board, row + 2, not white)")
    every = next(m for m in mutants_of(str(engine), [king]) if m.change == "`!=` to `==`")
    long_only = next(m for m in mutants_of(str(engine), [rook]) if m.change == "`==` to `!=`")
    inverse = next(m for m in mutants_of(str(engine), [guard]) if m.change == "`2` to `3`")
    calls = []
    try:
        yield {"passing": len(mutation.passing), "engine": engine, "lines": (king, rook, guard),
               "every": mutation._try(shadow, every, lambda: False),
               "long only": mutation._try(shadow, long_only, lambda: False),
               "inverse": mutation._try(shadow, inverse, lambda: False),
               # over() is asked before each run: the failing run, then the time is up
               "every, cut": mutation._try(shadow, every, lambda: calls.append(1) or len(calls) > 1)}
    finally:
        shadow.close()


def test_mutants_that_fix_every_failing_run_are_told_apart_by_all_the_passing_runs_they_keep(switched_off):
    """Both mutants turn the failing run to pass and break the three long castlings, the first
    passing runs; stopped at their third break they would tie (none of 3 kept). Tried on every
    passing run, the one keeping the four short castlings scores above the other."""
    every, long_only = switched_off["every"], switched_off["long only"]
    for outcome in (every, long_only):
        assert (outcome.fixed, outcome.failing) == (1, 1)
        assert outcome.passing == switched_off["passing"] == 7 and outcome.broke >= BREAKS
    assert (every.broke, long_only.broke) == (7, 3)
    assert long_only.score(1, 7) > every.score(1, 7)
    assert every.score(1, 7) == (0.0, 0.0)          # it broke every passing run: nothing for its line


def test_a_mutant_cut_short_by_the_time_is_not_sure_to_keep_the_passing_runs_it_never_ran(switched_off):
    """The king's guard switched off, its time up once it turned the failing run to pass ("breaks
    ?, none of the passing runs tried in the time"), has not shown it keeps any: it scores below
    the queen's rook's mutant, tried on all seven and breaking three, not above it as one that
    keeps them all."""
    cut, long_only = switched_off["every, cut"], switched_off["long only"]
    assert (cut.fixed, cut.passing, cut.broke) == (1, 0, 0)
    assert cut.score(1, 7)[0] < long_only.score(1, 7)[0] < 1.0


def _ranked(switched_off, outcomes: dict, fixes=(), spectrum=None):
    """rerank of the planted engine's lines whose `outcomes` ({line: Outcome}) are given, each line a
    suspect of its own, ranked by the spectrum as `spectrum` says ({line: rank}; one tie by default):
    {line: (rank, mutation)}."""
    engine = str(switched_off["engine"])
    spectrum = spectrum or {n: 1 for n in outcomes}
    suspects = [Suspect("movegen.py", n, n, spectrum[n], 0.5, 1.0, 0.0, 1, 1, "", "spectrum (tie)", engine)
                for n in sorted(outcomes, key=spectrum.get)]
    result = MutationResult(fixes=list(fixes))
    for n, outcome in outcomes.items():
        evidence = result.evidence[(engine, n)] = LineEvidence(engine, n, 1, outcome)
        evidence.score = outcome.score(1, switched_off["passing"])
    return {s.line: (s.rank, s.mutation) for s in rerank(suspects, result, 1, switched_off["passing"])}


def test_a_candidate_refuted_beyond_the_runs_weighs_as_a_mutant_breaking_one_more_run(switched_off):
    """The inverse of the planted change turns the failing run to pass and keeps the seven passing
    ones; say the checks beyond the runs refuted it. It is no fix, but it did better on the runs
    than the queen's rook's mutant (three long castlings broken) and the king's guard's (all
    seven): its line ranks above theirs, even where the spectrum ranks it below them, as a
    mutant that broke one of the passing runs it kept would. Before, a refuted candidate weighed
    as a mutant that fixes nothing and went below both. Where another line's mutant broke one
    passing run in the runs themselves, the refuted candidate comes after it."""
    king, rook, guard = switched_off["lines"]
    inverse = switched_off["inverse"]
    assert (inverse.fixed, inverse.failing, inverse.broke, inverse.passing) == (1, 1, 0, 7)
    m = inverse.mutant
    refuted = Fix("movegen.py", guard, m.path, m.change, "", 1, 7, 1, 7, refuted=True,
                  doubt="castling two plies after a king or rook move: ... depth 3: counts differ")
    outcomes = {king: switched_off["every"], rook: switched_off["long only"], guard: inverse}
    ranked = _ranked(switched_off, outcomes, [refuted], {rook: 1, king: 1, guard: 3})
    broke_one = Outcome(inverse.mutant, 1, 1, 1, 1, 7).score(1, 7)[0]
    assert ranked[guard] == (1, broke_one) and ranked[rook][0] == 2 and ranked[king][0] == 3, ranked
    # a line whose mutant broke one passing run in the runs goes first; the refuted one after it
    one = Outcome(switched_off["long only"].mutant, 1, 1, 1, 1, 7)
    ranked = _ranked(switched_off, {rook: one, guard: inverse}, [refuted], {rook: 2, guard: 1})
    assert ranked == {rook: (1, broke_one), guard: (2, broke_one)}, ranked


def test_a_candidate_left_unchecked_where_every_one_checked_was_refuted_weighs_as_they_do(switched_off):
    """Say the queen's rook's line had a candidate (every failing run to pass, every passing one
    kept) and the checks beyond the runs refuted it, and the guard's (the inverse of the planted
    change) was never checked, the time up. The runs have not told this locate's fixes from its
    switch-offs: the unchecked one weighs as the refuted one, and the spectrum orders them, where
    it ranked first on the runs alone; so does one the time cut before its last passing runs,
    none broken. Where a candidate checked was not refuted (its check stopped), nothing is
    presumed."""
    king, rook, guard = switched_off["lines"]
    inverse = switched_off["inverse"]
    other = replace(inverse, mutant=switched_off["long only"].mutant)
    refuted = Fix("movegen.py", rook, other.mutant.path, other.mutant.change, "", 1, 7, 1, 7, refuted=True,
                  doubt="castling two plies after a king or rook move: ... depth 3: counts differ")
    ranked = _ranked(switched_off, {rook: other, guard: inverse}, [refuted], {rook: 1, guard: 2})
    assert ranked[rook][0] == 1 and ranked[guard] == (2, ranked[rook][1]), ranked
    # one cut by the time after five of the seven passing runs, none broken, is such a candidate too
    cut = replace(inverse, passing=5)
    ranked = _ranked(switched_off, {rook: other, guard: cut}, [refuted], {rook: 1, guard: 2})
    assert ranked[rook][0] == 1 and ranked[guard] == (2, refuted_score(1, 5, 1, 7)[0]), ranked
    stopped = replace(refuted, refuted=False, doubt="stopped before it was checked beyond the runs")
    ranked = _ranked(switched_off, {rook: other, guard: inverse}, [stopped], {rook: 1, guard: 2})
    assert ranked[guard][1] == inverse.score(1, 7)[0] > refuted_score(1, 7, 1, 7)[0], ranked


def test_lines_whose_mutants_do_alike_go_likelier_slip_first(switched_off, tmp_path):
    """Long castling's path tested on c1 and d1 only (b1 missing from the squares, no one-token fix):
    the path's `3` written `4` (e1, the king's own square, always taken) and the guard's test written
    `False` each switch long castling off, turn the failing run (a knight on b1) to pass and break
    the three long castlings. In one rank of the spectrum, the line whose mutant undoes the likelier
    slip (a constant off by one, Mutant.likeness) goes first; they tied before."""
    engine = planted(tmp_path, "for f in (1, 2, 3)", "for f in (2, 3)")
    runs = ([run_on("4k3/8/8/8/8/8/8/RN2K3 w Q - 0 1", True, "generates illegal e1c1")]
            + [run_on(fen, False) for fen in LONG_CASTLES + SHORT_CASTLES])
    mutation = Mutation(f"perftree:{engine}", [str(tmp_path)], runs, lambda p: Path(p).name)
    path, guard = line_of(engine, "for f in (2, 3)"), line_of(engine, "attacked(board, row + 3, not white)")
    slip = next(m for m in mutants_of(str(engine), [path]) if m.change == "`3` to `4`")
    off = next(m for m in mutants_of(str(engine), [guard]) if m.change.endswith("to `False:`"))
    shadow = Shadow(mutation.sources, mutation.spec, str(tmp_path / "shadow"))
    try:
        outcomes = {path: mutation._try(shadow, slip, lambda: False), guard: mutation._try(shadow, off, lambda: False)}
    finally:
        shadow.close()
    assert [(o.fixed, o.failing, o.broke, o.passing) for o in outcomes.values()] == [(1, 1, 3, 7)] * 2
    assert slip.likeness < off.likeness
    ranked = _ranked(dict(switched_off, engine=engine), outcomes)
    assert ranked[path][0] == 1 and ranked[guard][0] == 2, ranked


def test_a_continuation_line_is_tried_as_its_statement_not_as_a_call(tmp_path):
    """Chessnut's castling rights voided by the move's start square only: the faulty name is on
    the second line of an assignment (`56: 'Q', ...}.get(start, '')`), which alone reads as a
    call. In a tie of calls and assignments its mutants come with the assignments', before the
    calls'; a line opening a C block (`{`) is no bracket left open."""
    from perftscope.core.locate.mutation import plan
    from perftscope.core.locate.mutants import line_kind, statement_kind
    engine = tmp_path / "game.py"
    engine.write_text("def apply(board, start, end):\n"
                      "    board.clear(start)\n"
                      "    board.clear(end)\n"
                      "    void = {0: 'q', 4: 'kq', 7: 'k',\n"
                      "            56: 'Q', 60: 'KQ', 63: 'K'}.get(start, '')\n"
                      "    board.castling = board.castling.strip(void)\n"
                      "    return board\n")
    source = engine.read_text().splitlines()
    assert (line_kind(source[4]), statement_kind(source, 5, "python"), statement_kind(source, 4, "python")) == (2, 1, 1)
    by_line = {(str(engine), n): mutants_of(str(engine), [n]) for n in range(2, 8)}
    first, _ = plan(by_line, {key: 1 for key in by_line}, None,
                    {(path, n): statement_kind(source, n, "python") for path, n in by_line})
    order = [m.line for m in first]
    assert order.index(5) < order.index(2) and order.index(5) < order.index(3)
    c = ["int f(int a,", "      int b) {", "    if (a &&", "        b == 3)", "        return g(a,", "                 b);",
         "    x = y;", "}"]
    assert [statement_kind(c, n, "c") for n in range(1, 9)] == [2, 2, 0, 0, 2, 2, 1, 2]


def test_mutants_capped_by_a_count_do_not_say_no_change_fixes_it():
    """Twenty mutants made of the many the suspect lines have: the others were never tried, so
    it never says that no one-token change fixes the engine, nor where the check belongs."""
    job = LocateJob(LocateSettings(f"perftree:{HERE / 'movegen.py'}", fen="4k3/1P4p1/8/8/8/8/5P2/4K3 w - - 0 1",
                                   depth=1, runs=4, seconds=120.0, mutants=20, mutant_seconds=300.0))
    mutation = job.run().mutation
    assert mutation.made == 20 and mutation.tried == 20, (mutation.made, mutation.tried)
    assert mutation.cut.startswith("capped at 20: ") and "more not made" in mutation.cut, mutation.cut
    said = mutation.no_fix()
    assert "no one-token change" not in said and "may still fix it" in said, said


def test_the_lines_of_a_split_suspect_whose_mutants_changed_nothing_say_how_many_were_tried(tmp_path):
    """A block of lines that always run together is split where one line's mutants do something:
    the others keep their own count of mutants tried, not the block's 0, and say they changed no
    failing run (an author reading "0 mutants" would mutate them by hand)."""
    engine = tmp_path / "engine.py"
    engine.write_text("".join(f"x{n} = {n}\n" for n in range(1, 15)))
    path = str(engine)
    suspects = [Suspect("engine.py", 10, 13, 1, 0.5, 1.0, 0.0, 1, 1, "", "spectrum", path)]
    result = MutationResult()
    for n, tried in ((10, 2), (12, 1), (13, 3)):
        result.evidence[(path, n)] = LineEvidence(path, n, tried, Outcome(Mutant(path, n, f"x{n} = {n}\n", "x = 0\n")))
    slip = Mutant(path, 11, "x11 = 11\n", "x11 = 12\n")
    fixer = result.evidence[(path, 11)] = LineEvidence(path, 11, 4, Outcome(slip, 1, 1, 1, 0, 5))
    fixer.score = fixer.best.score(1, 5)
    rows = {(s.line, s.last): s for s in rerank(suspects, result, 1, 5)}
    assert list(rows) == [(11, 11), (10, 10), (12, 13)]
    assert rows[(11, 11)].mutants == 4
    assert (rows[(10, 10)].mutants, rows[(12, 13)].mutants) == (2, 4)
    assert rows[(12, 13)].evidence.endswith("4 mutants here change no failing run"), rows[(12, 13)].evidence
