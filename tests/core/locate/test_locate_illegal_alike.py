"""A fix for this bug where the engine's other bug generates an illegal move: below that move
this bug shows too, so the engine as it is and the fix count its subtree differently; the
illegal move itself is the same wrong answer in both, and no reference judges what follows it.
A real engine's real fix was refuted so, at the en-passant skewer position. The other bug shows
only at positions no game reaches: the fix is confirmed (it agrees wherever a game can go) and
the other bug named; a change that makes an error of its own there is still refuted."""
import os

from perftscope.core.engines.oracle import Request
from perftscope.core.engines.oracles import make_oracle
from perftscope.core.locate.confirmation import Confirmation
from perftscope.core.locate.mutants import Mutant
from perftscope.core.locate.mutation import Fix, Mutation
from perftscope.core.locate.shadow import Shadow

from .test_locate_mutants import line_of, planted_python

# this bug: the king's loop over its steps stops at the first square its own side holds
KING_STOPS = ('''            if not t & 0x88 and (t not in board or not own(board[t], white)):
                out.append((sq, t, ""))
        return''', '''            if t & 0x88:
                continue
            if t in board and own(board[t], white):
                break
            out.append((sq, t, ""))
        return''')
# the other: en passant is never tested for leaving the king attacked
EP_UNCHECKED = ('''    for move in out:
        after = make(pos, move)''', '''    for move in out:
        if move[2] == "ep":
            legal.append(move)
            continue
        after = make(pos, move)''')
ASKED = "6bk/8/8/3P4/8/1K6/8/8 b - - 0 1"            # h8h7, h8g7 missed: g8 stops the king's loop
SKEWER = "6bk/8/8/3pP3/8/1K6/8/8 w - d6 0 2"        # e5d6 bares b3 to g8; below it this bug shows again


def checked(tmp_path, engine, line: int, after: str) -> Fix:
    spec = f"perftree:{engine}"
    mutation = Mutation(spec, [str(engine.parent)], [], os.path.basename, dialect=make_oracle(spec))
    shadows = [Shadow([str(engine.parent)], spec, str(tmp_path / name)) for name in ("w0", "w1")]
    try:
        before = engine.read_text().splitlines(keepends=True)[line - 1]
        mutant = Mutant(str(engine), line, before, after)
        fix = Fix("movegen.py", line, mutant.path, mutant.change, "", 1, 1)
        checks = Confirmation(make_oracle("core"), Request.of(ASKED), 1, (("en passant skewer", Request.of(SKEWER)),))
        mutation._confirm(shadows[0], fix, mutant, checks, shadows[1])
        return fix
    finally:
        for shadow in shadows:
            shadow.close()


def test_an_illegal_move_both_generate_is_alike_whatever_they_count_below_it(tmp_path):
    folder = tmp_path / "engine"
    folder.mkdir()
    engine = planted_python(folder, KING_STOPS, EP_UNCHECKED)
    line = line_of(engine, "            if t in board and own(board[t], white):") + 1     # its `break`
    fix = checked(tmp_path, engine, line, "                continue\n")
    # the other bug shows only where no game goes: the fix is confirmed, the other bug named
    assert fix.status == "confirmed" and fix.confirmed and not fix.fixes_this_bug, (fix.status, fix.doubt)
    assert {e.fen for e in fix.shared} == {SKEWER} and "e5d6" in str(fix.other_bug), fix.shared
    said = fix.out_of_game()
    assert said.startswith("the engine as it is is also wrong at 1 position no game reaches") and SKEWER in said
    assert "before black's double push d7d5 the white king on b3 was already in check" in said, said
    assert fix.to_json()["out_of_game"] == said and fix.to_json()["status"] == "confirmed"
    # a change with an error of its own below the illegal move is refuted there: the king may
    # step onto its own pieces
    own = line_of(engine, "            if t in board and own(board[t], white):")
    fix = checked(tmp_path, engine, own, "            if t in board and own(board[t], white) and False:\n")
    assert fix.refuted, (fix.status, fix.shared)
