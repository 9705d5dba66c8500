"""A fix for this bug where the engine as it is cannot be asked the position a candidate is wrong
at: movegen.c (tests/engines/locate) made to refuse every FEN with black to move (its reader's
test written `== 'b'` where `!= 'b'` is meant), with a second bug that is the same for both
colours (a pawn's push never promotes to a knight). The real fix is wrong where a black pawn
promotes, as the engine would be if it read the position; the engine as it is refuses it, but
answers it with the colours swapped, wrong exactly so: the candidate is judged there. A change
that also breaks black's side is not excused by the mirror, and one that switches the reader's
test off (`x == 'w' && x == 'b'`) is no fix to offer, though it answers as the real fix does."""
import subprocess

import pytest

from perftscope.core.engines.oracle import Request
from perftscope.core.engines.oracles import make_oracle
from perftscope.core.locate.confirmation import fixed_condition
from perftscope.core.locate.mutation import FIXES_THIS_BUG, Fix

from .conftest import BUILD, HERE, checked_beyond

READS = '    sscanf(fen, "%99s %3s %7s %3s", place, side, rights, ep);\n'
REFUSES = "    if (side[0] != 'w' && side[0] == 'b') exit(1);\n"      # the first bug: black to move refused
MENDED = REFUSES.replace("== 'b'", "!= 'b'")
PUSH = 'if (t >> 4 == last) { for (const char *p = "qrbn"; *p; p++) add(out, n, sq, t, *p); }'
ASKED = "4k3/8/8/8/8/8/8/4K3 b - - 0 1"                    # what the runs failed on: black to move
PROMOTES = "4k3/8/8/8/8/8/p7/4K3 b - - 0 1"                 # a2a1n missed (the second bug)
PROMOTES_WHITE = "4k3/P7/8/8/8/8/8/4K3 w - - 0 1"           # its mirror: a7a8n missed
PROMOTES_CASTLES = "r3k3/8/8/8/8/8/p7/4K3 b q - 0 1"        # the same, and black may castle long


@pytest.fixture(scope="module")
def engine(tmp_path_factory):
    """movegen.c with its planted castling bug mended, the reader refusing black to move, and a
    push never promoting to a knight (for either colour)."""
    folder = tmp_path_factory.mktemp("refuses-black")
    text = (HERE / "movegen.c").read_text()
    for old, new in ((READS, READS + REFUSES), ("row + 4, row + 1, 'c'", "row + 4, row + 2, 'c'"),
                     (PUSH, PUSH.replace('"qrbn"', '"qrb"', 1))):
        assert old in text, old
        text = text.replace(old, new, 1)
    (folder / "movegen.c").write_text(text)
    subprocess.run(BUILD, shell=True, cwd=folder, check=True)
    return folder / "movegen"


def checked(checking, engine, after: str, *edges: str) -> Fix:
    """The reader's test written `after`, checked beyond the runs on ASKED and `edges`."""
    line = (engine.parent / "movegen.c").read_text().splitlines(keepends=True).index(REFUSES) + 1
    return checked_beyond(checking, engine, line, after, ASKED, *edges)


def test_a_position_the_engine_refuses_is_judged_by_its_mirror(checking, engine):
    """The real fix is wrong at PROMOTES (a2a1n missed) as the engine is at its mirror: a fix for
    this bug, the engine having another, said with the position, its mirror and why."""
    oracle = make_oracle(f"perftree:{engine}")
    with pytest.raises(Exception):                 # the engine as it is cannot be asked there
        oracle.divide(Request.of(PROMOTES), 1)
    assert "a7a8n" not in oracle.divide(Request.of(PROMOTES_WHITE), 1)
    fix = checked(checking, engine, MENDED, PROMOTES)
    assert fix.status == FIXES_THIS_BUG and not fix.refuted and not fix.confirmed, (fix.status, fix.doubt)
    assert [e.depth for e in fix.mirrored] == [1, 2]           # the edges' depths
    judged = fix.mirrored[0]
    assert (judged.fen, judged.mirror) == (PROMOTES, PROMOTES_WHITE) and "misses a2a1n" in judged.verdict
    # the other bug to locate is the mirror, where the engine as it is answers as the candidate
    assert fix.other_bug.fen == PROMOTES_WHITE and fix.other_bug.alone and not fix.other_bug.mirror
    said = fix.another()
    assert f"for instance at {PROMOTES_WHITE} depth 1: misses a7a8n" in said, said
    assert f"{PROMOTES} depth 1: misses a2a1n (the engine as it is refuses this position" in said, said
    assert "judged by its mirror" in said and "the same for both colours" in said
    assert fix.to_json()["judged_by_mirror"][0] == {"fen": PROMOTES, "depth": 1, "verdict": judged.verdict,
                                                    "mirror": PROMOTES_WHITE}


def test_a_change_that_also_breaks_black_is_not_excused_by_the_mirror(checking, engine):
    """It reads black to move but drops black's castling rights: at PROMOTES_CASTLES it misses
    e8c8 beside a2a1n, where the mirror shows the engine missing only a7a8n. Refuted; the
    candidate's answer at the mirror alone (as the engine's) would not have told it."""
    drops_rights = MENDED.rstrip("\n") + " if (side[0] == 'b') strcpy(rights, \"-\");\n"
    fix = checked(checking, engine, drops_rights, PROMOTES_CASTLES)
    assert fix.refuted and fix.status == "refuted" and not fix.mirrored, (fix.status, fix.shared)
    assert PROMOTES_CASTLES in fix.doubt and "e8c8" in fix.doubt, fix.doubt


def test_a_test_switched_off_is_no_fix_though_it_answers_as_the_fix(checking, engine):
    """`side[0] == 'w' && side[0] == 'b'` is never true: the engine reads every side, as the real
    fix does, but the check can never fire. Not offered, and said why."""
    fix = checked(checking, engine, REFUSES.replace("!= 'w'", "== 'w'"), PROMOTES)
    assert fix.refuted and fix.status == "refuted" and not fix.fixes_this_bug, (fix.status, fix.doubt)
    assert "`side[0] == 'w' && side[0] == 'b'` is never true" in fix.why_not, fix.why_not


@pytest.mark.parametrize("line, fixed", [
    ("  if (fen[i] == 'w' && fen[i] == 'b')", "`fen[i] == 'w' && fen[i] == 'b'` is never true"),
    ("    if side == 'w' or side != 'b':", ""),
    ("if a.b != 3 or a.b != 4:", "`a.b != 3 or a.b != 4` is always true"),
    ("if (p && x != 1 || x != 2)", ""),            # (p && x != 1) || x != 2: no pair of its own
    ("if (x == 1 && x == 2 + b)", ""),             # 2 + b is no literal
    ("if (c == 97 && c == 'b')", ""),              # a char and a number may be one value
    ("if (f(x) == 1 && f(x) == 2)", ""),           # a call may answer otherwise the second time
    ("q = p == 1 && x === 2 && x === 3", "`x === 2 && x === 3` is never true"),
])
def test_a_condition_no_input_changes_is_told_only_where_certain(line, fixed):
    assert fixed_condition(line) == fixed
