"""A failing run where the side to move has no move (mate, stalemate: the reference's divide is
empty) is a run mutants are tried on like any other: an engine that gives a stalemated king a
move is located by mutants, not left with 'no failing run to try mutants on'."""
from pathlib import Path

from perftscope.core.locate.mutation import Mutation
from perftscope.core.locate.spectra import Suspect

from .test_locate_insertions import run_on
from .test_locate_mutants import line_of, planted_python

# the attack test forgets the king: its loop over the knight's and the king's steps stops after the knight's
KING_FORGOTTEN = ('    for steps, piece in ((KNIGHT, "N"), (KING, "K")):\n',
                  '    for steps, piece in ((KNIGHT, "N"), (KING, "K"))[:1]:\n')
STALEMATE = "7k/8/6K1/8/8/8/Q7/8 b - - 0 1"     # g7 and h7 are guarded by the king on g6 alone


def test_a_stalemated_side_given_a_move_is_tried_with_mutants_and_the_slip_undone(tmp_path):
    folder = tmp_path / "engine"
    folder.mkdir()
    engine = planted_python(folder, KING_FORGOTTEN)
    runs = [run_on(STALEMATE, (), "generates illegal h8h7 h8g7"),
            run_on("4k3/8/8/8/8/8/8/4K3 w - - 0 1", ()),
            run_on("4k3/8/8/8/8/8/8/R3K2R w KQ - 0 1", ()),
            run_on("4k3/8/3n4/8/8/8/8/4K3 w - - 0 1", ())]
    assert runs[0].expected == {} and runs[0].failed
    mutation = Mutation(f"perftree:{engine}", [str(folder)], runs, lambda p: Path(p).name)
    planted = line_of(engine, "(KING, \"K\"))[:1]")
    suspects = [Suspect("movegen.py", planted, planted, 1, 1.0, 1.0, 0.0, 1, 3, "", "", str(engine))]
    result = mutation.run(suspects, lambda: False)
    assert not result.note, result.note
    best = result.evidence[(str(engine), planted)].best
    assert (best.fixed, best.broke) == (1, 0), best
    assert any(f.line == planted and f.change == "`1` to `2`" for f in result.fixes), result.fixes
