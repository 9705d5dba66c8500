"""core.locate's mutants judged on the passing runs that can tell a fix from a switch-off: where
the passing runs are more than a mutant is tried on, those where the failing run's wrong move is
at stake (Run.stake) go first. The engine is the planted Python one of tests/engines/locate."""
from pathlib import Path

import pytest

from perftscope.core.locate import mutation as mutation_module
from perftscope.core.locate.job import move_aware
from perftscope.core.locate.mutants import mutants_of
from perftscope.core.locate.mutation import Mutation
from perftscope.core.locate.shadow import Shadow

from .test_locate_ties import LONG_CASTLES, LONG_CASTLING_THROUGH_CHECK, SHORT_CASTLES, line_of, planted, run_on


@pytest.fixture
def capped(tmp_path, monkeypatch):
    """Long castling tested for an attack on c1 only; its runs in the order a locate may make
    them, the passing short castlings before the long ones, and room for as many passing runs as
    there are short castlings."""
    monkeypatch.setattr(mutation_module, "PASSING_RUNS", len(SHORT_CASTLES))
    engine = planted(tmp_path, "attacked(board, row + 3, not white)", "attacked(board, row + 2, not white)")
    failing = run_on(LONG_CASTLING_THROUGH_CHECK, True, "generates illegal e1c1")
    failing.wrong = ("e1c1",)
    runs = [failing] + [run_on(fen, False) for fen in SHORT_CASTLES + LONG_CASTLES]
    move_aware(runs)
    return engine, runs


def test_the_passing_runs_where_the_wrong_move_is_at_stake_are_taken_first(capped):
    engine, runs = capped
    mutation = Mutation(f"perftree:{engine}", [str(engine.parent)], runs, lambda p: Path(p).name)
    assert [r.fen for r in runs if r.stake] == [LONG_CASTLING_THROUGH_CHECK] + LONG_CASTLES
    assert len(mutation.passing) == len(SHORT_CASTLES)
    # the runs the cap takes, in the order the locate made them
    assert [r.fen for r in mutation.passing] == SHORT_CASTLES[:1] + LONG_CASTLES


def test_a_switch_off_of_the_wrong_move_is_not_taken_for_a_fix_where_the_cap_left_its_runs_out(capped, tmp_path):
    """The queen's rook's guard written `!=` switches long castling off: it turns the failing run to
    pass and breaks every long castling. Tried on the first passing runs as the locate made them
    (the four short castlings) it would keep them all, a candidate fix; tried where long castling
    is at stake first, it breaks three of the four."""
    engine, runs = capped
    mutation = Mutation(f"perftree:{engine}", [str(engine.parent)], runs, lambda p: Path(p).name)
    rook = line_of(engine, "if long in castling and board.get(row) == rook")
    long_only = next(m for m in mutants_of(str(engine), [rook]) if m.change == "`==` to `!=`")
    shadow = Shadow(mutation.sources, mutation.spec, str(tmp_path / "shadow"))
    try:
        outcome = mutation._try(shadow, long_only, lambda: False)
    finally:
        shadow.close()
    assert (outcome.fixed, outcome.failing) == (1, 1)
    assert (outcome.broke, outcome.passing) == (len(LONG_CASTLES), len(SHORT_CASTLES))
