"""A fix for this bug in an engine that has another: movegen.c (tests/engines/locate) with its
planted bug (castling queen-side puts the king on the b-file) and a second, independent one the
runs never reach (black castles king-side through an attacked f8). locate offers the planted
change's inverse as a fix for this bug, names a position of the other bug and how to locate it;
a change that fixes the runs but is wrong where the engine is not, or fixes this bug for one
side only, never gets that word."""
import json
import shutil
import subprocess

import pytest

from perftscope.app.commands.locate import json_of, print_text
from perftscope.core.engines.oracle import Request
from perftscope.core.engines.oracles import make_oracle
from perftscope.core.locate.confirmation import THIRD_PLY
from perftscope.core.locate.job import LocateJob, LocateSettings
from perftscope.core.locate.mutation import FIXES_THIS_BUG, Fix

from .conftest import BUILD, HERE, checked_beyond

CASTLES = "r3k3/8/8/8/8/8/8/4K3 b q - 0 1"          # e8c8, written e8b8 by movegen.c
PLANTED = "add(out, n, row + 4, row + 1, 'c');"
SECOND = ("!b[row + 6] && !attacked(pos, row + 5, !white))",
          "!b[row + 6] && (!white || !attacked(pos, row + 5, !white)))")
BLACK_CASTLES_THROUGH_F8 = "4k2r/8/8/8/8/8/8/4KR2 b k - 0 1"     # e8g8 is illegal: the rook on f1 holds f8
WHITE_CASTLES_LONG = "4k3/8/8/8/8/8/8/R3K3 w Q - 0 1"           # e1c1 is legal; e1g1 is no move at all


def built(folder, *changes):
    """movegen.c in `folder` with the second bug and `changes` made, built as the engine is."""
    folder.mkdir(parents=True, exist_ok=True)
    text = (HERE / "movegen.c").read_text()
    for old, new in (SECOND,) + changes:
        assert text.count(old) == 1, old
        text = text.replace(old, new)
    (folder / "movegen.c").write_text(text)
    subprocess.run(BUILD, shell=True, cwd=folder, check=True)
    return folder / "movegen"


def planted_line(folder) -> int:
    return next(n for n, line in enumerate((folder / "movegen.c").read_text().splitlines(), 1) if PLANTED in line)


@pytest.fixture(scope="module")
def engine(tmp_path_factory):
    return built(tmp_path_factory.mktemp("two-bugs"))


@pytest.fixture(scope="module")
def located(engine):
    settings = LocateSettings(f"perftree:{engine}", fen=CASTLES, depth=2, runs=16, seconds=120.0, mutants=16,
                              mutant_seconds=300.0, build=BUILD, fix_fuzz_seconds=0.0)
    return settings, LocateJob(settings).run()


def wrong_at(program, fen: str, depth: int) -> dict:
    """{move: (the program's count, the reference's)} where `program` differs from the reference."""
    request = Request.of(fen)
    mine = make_oracle(f"perftree:{program}").divide(request, depth)
    theirs = make_oracle("core").divide(request, depth)
    return {m: (mine.get(m), theirs.get(m)) for m in set(mine) | set(theirs) if mine.get(m) != theirs.get(m)}


def test_the_planted_change_undone_fixes_this_bug_and_the_other_bug_is_named(located, engine, tmp_path, capsys):
    settings, result = located
    line = planted_line(engine.parent)
    [fix] = [f for f in result.fixes if f.line == line and f.change == "`1` to `2`"]
    assert fix.status == FIXES_THIS_BUG and fix.fixes_this_bug, (fix.status, fix.doubt)
    assert not fix.confirmed and not fix.refuted          # `confirmed` keeps meaning: agrees everywhere checked
    assert fix.checked_by[:2] == [f"{CASTLES} depth 2", "depth 3"] and "edge positions" in fix.checked_by[2]
    assert "-        add(out, n, row + 4, row + 1, 'c');" in fix.diff and "+        add(out, n, row + 4, row + 2, 'c');" \
        in fix.diff
    # the position named is the other bug's: the engine with this fix is wrong there, at moves where
    # the engine is wrong the same way, and with the other bug fixed too it agrees
    other = fix.other_bug
    assert other is not None and fix.other_positions >= 1
    as_is = wrong_at(engine, other.fen, other.depth)
    this_fixed = built(tmp_path / "this-fixed", (PLANTED, PLANTED.replace("row + 1", "row + 2")))
    still = wrong_at(this_fixed, other.fen, other.depth)
    assert still and all(as_is.get(m) == counts for m, counts in still.items()), (still, as_is)
    both_fixed = tmp_path / "both-fixed"
    both_fixed.mkdir()
    shutil.copy(this_fixed.parent / "movegen.c", both_fixed / "movegen.c")
    text = (both_fixed / "movegen.c").read_text().replace(SECOND[1], SECOND[0])
    (both_fixed / "movegen.c").write_text(text)
    subprocess.run(BUILD, shell=True, cwd=both_fixed, check=True)
    assert wrong_at(both_fixed / "movegen", other.fen, other.depth) == {}

    # said as a fix for this bug, with the other bug's position and the command that locates it
    print_text(result, settings, 5)
    text = capsys.readouterr().out
    said = next(row for row in text.splitlines() if row.startswith("fix "))
    assert f"movegen.c:{line}: `1` to `2` fixes this bug (the engine has another)" in said
    assert f"agrees at {CASTLES} depth 2 and depth 3" in said and "becomes right" in said
    assert f"another    the engine is also wrong at {fix.other_positions} of the positions checked" in text
    assert f"{other.fen} depth {other.depth}: {other.verdict}" in text
    nxt = next(row for row in text.splitlines() if row.startswith("next "))
    assert f"perftscope locate --engine perftree:{engine}" in nxt and f"-f '{other.fen}' -d {other.depth}" in nxt
    # where this bug shows too, the engine as it is would be located to this bug there: apply the fix first
    assert ("with this fix applied" in nxt) == bool(set(as_is) - set(still)) != other.alone
    assert "no fix " not in text and "not offered as a fix" not in text
    first = [s for s in result.suspects if s.rank == 1]
    assert [(s.file, s.line) for s in first] == [("movegen.c", line)] and "fixes this bug" in first[0].evidence

    shown = json.loads(json.dumps(json_of(result, settings, 5)))
    [data] = [f for f in shown["fixes"] if f["line"] == line and f["change"] == "`1` to `2`"]
    assert data["status"] == FIXES_THIS_BUG and data["fixes_this_bug"] is True and data["confirmed"] is False
    assert data["other_bug"]["fen"] == other.fen and data["other_bug"]["depth"] == other.depth
    assert data["other_bug"]["locate"].endswith(f"-d {other.depth}")


def test_a_candidate_wrong_where_the_engine_is_not_is_refuted(located):
    """`1` to `0` puts the king in the corner: it turns the failing runs to pass and keeps the
    passing ones, but is wrong where the engine is right."""
    _, result = located
    for f in result.fixes:
        if f.change != "`1` to `2`":
            assert f.refuted and f.status == "refuted" and not f.fixes_this_bug, f
    assert any(f.change == "`1` to `0`" for f in result.fixes), [(f.line, f.change) for f in result.fixes]


def checked(checking, engine, after: str, *edges: str, third_ply=()) -> Fix:
    """The planted line written `after`, checked beyond the runs on CASTLES and `edges` (in order)."""
    line = planted_line(engine.parent)
    before = (engine.parent / "movegen.c").read_text().splitlines(keepends=True)[line - 1]
    return checked_beyond(checking, engine, line, before.replace(PLANTED, after), CASTLES, *edges, third_ply=third_ply)


def test_a_change_wrong_where_the_engine_is_not_is_refuted_after_sharing_the_other_bug(checking, engine):
    """It fixes the asked position and is wrong at the other bug's position as the engine is; then
    it castles short where no king may: refuted there, never a fix for this bug."""
    fix = checked(checking, engine, "add(out, n, row + 4, row + 2, 'c'); if (white) add(out, n, row + 4, row + 6, 'c');",
                  BLACK_CASTLES_THROUGH_F8, WHITE_CASTLES_LONG)
    assert fix.shared and fix.shared[0].fen == BLACK_CASTLES_THROUGH_F8, fix.shared
    assert fix.refuted and fix.status == "refuted" and not fix.fixes_this_bug and not fix.checked
    assert WHITE_CASTLES_LONG in fix.doubt and "e1g1" in fix.doubt
    # the same checks pass the planted change undone: what refutes the other is its own error
    fix = checked(checking, engine, PLANTED.replace("row + 1", "row + 2"), BLACK_CASTLES_THROUGH_F8, WHITE_CASTLES_LONG)
    assert fix.status == FIXES_THIS_BUG and {e.fen for e in fix.shared} == {BLACK_CASTLES_THROUGH_F8}


def test_a_change_that_fixes_this_bug_for_one_side_only_is_not_called_another_bug(checking, engine):
    """Black's castling fixed, white's left as it was: at a white position it is wrong exactly as
    the engine is, which alone would look like another bug; the same position with the colours
    swapped, which it answers right and the engine does not, tells it is this one."""
    fix = checked(checking, engine, "add(out, n, row + 4, white ? row + 1 : row + 2, 'c');", WHITE_CASTLES_LONG)
    assert not fix.fixes_this_bug and fix.refuted and fix.status == "refuted", (fix.status, fix.doubt)
    assert "fixes this bug for one side only" in fix.doubt and WHITE_CASTLES_LONG in fix.doubt


def test_the_whole_fix_is_not_called_a_half_one_where_two_bugs_meet_at_the_third_ply(checking, engine):
    """At depth 3 with every castling right, the other bug (black castles through f8) and this one
    (the king to b1 or b8) each shift a few leaves: at the position with white to move the fixed
    engine is wrong below a move by the very counts the engine as it is is wrong below its mirror
    with black to move, where the fix answers right. Compared move for move below, the two wrong
    answers are different castlings: the one-side guard, which counts alone made wrong there, now
    looks at these positions too and still calls this a fix for this bug."""
    fix = checked(checking, engine, PLANTED.replace("row + 1", "row + 2"), BLACK_CASTLES_THROUGH_F8,
                  third_ply=THIRD_PLY)
    assert fix.status == FIXES_THIS_BUG, (fix.status, fix.doubt)
    assert {e.topic for e in fix.shared} >= {THIRD_PLY[0][0]}, fix.shared


def test_a_refutation_at_a_position_no_game_reaches_says_so(checking, engine):
    """Engines legitimately disagree where no game can go: the refutation stands, but its words
    say what it rests on; at a position a game can reach they do not."""
    castles_short_too = "add(out, n, row + 4, row + 2, 'c'); if (white) add(out, n, row + 4, row + 6, 'c');"
    nine_pawns = "4k3/pppppppp/p7/8/8/8/8/R3K3 w Q - 0 1"
    fix = checked(checking, engine, castles_short_too, nine_pawns)
    assert fix.refuted and nine_pawns in fix.doubt, fix.doubt
    assert "a position no game reaches: black has 9 pawns" in fix.doubt, fix.doubt
    fix = checked(checking, engine, castles_short_too, WHITE_CASTLES_LONG)
    assert fix.refuted and WHITE_CASTLES_LONG in fix.doubt and "no game reaches" not in fix.doubt, fix.doubt
