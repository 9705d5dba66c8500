"""What a candidate fix is checked on beyond the runs: a change to how a move updates the
position shows only when the side that moved moves again, two plies later, deeper than the
edge positions (depths 1 and 2) and the fuzz (depth 2) look."""
import os
import subprocess

import pytest

from perftscope.core.engines.oracle import Request
from perftscope.core.engines.oracles import make_oracle
from perftscope.core.locate.confirmation import THIRD_PLY, Confirmation, confirmation
from perftscope.core.locate.mutants import Mutant
from perftscope.core.locate.mutation import Fix, Mutation
from perftscope.core.locate.shadow import Shadow

from .conftest import HERE, checked_beyond

BUILD = "gcc --coverage -O0 -o movegen movegen.c"
VOIDS = "if (corners[i] != m.from && corners[i] != m.to) continue;"
START = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"


def test_a_change_that_keeps_a_moved_rooks_castling_right_is_refuted_two_plies_later(tmp_path):
    """movegen.c with its planted bug mended agrees everywhere; the change voids a corner's
    castling right only when a move lands there, not when the rook leaves it (Chessnut 0.2.9's
    `start` written `end`). It agrees at the start position at depths 1 and 2, so it is refuted
    only by the third-ply positions."""
    folder = tmp_path / "engine"
    folder.mkdir()
    # mended, and trusting its castling rights as many engines do (no look for the rook in its
    # corner): a right kept wrongly then shows as a castling two plies later
    text = (HERE / "movegen.c").read_text().replace("add(out, n, row + 4, row + 1, 'c');",
                                                    "add(out, n, row + 4, row + 2, 'c');")
    for corner in ("row + 7", "row"):
        text = text.replace(f"b[{corner}] == colour('R', white) && ", "")
    (folder / "movegen.c").write_text(text)
    subprocess.run(BUILD, shell=True, cwd=folder, check=True)
    spec = f"perftree:{folder / 'movegen'}"
    line = next(n for n, t in enumerate(text.splitlines(), 1) if VOIDS in t)
    before = text.splitlines(keepends=True)[line - 1]
    mutant = Mutant(str(folder / "movegen.c"), line, before, before.replace("corners[i] != m.from", "m.to != m.from"))
    mutation = Mutation(spec, [str(folder)], [], os.path.basename, BUILD, dialect=make_oracle(spec))
    shadow = Shadow([str(folder)], spec, str(tmp_path / "w0"), BUILD)
    core = make_oracle("core")
    for _, fen in THIRD_PLY:          # the engine itself is right there: what refutes is the change
        assert make_oracle(spec).divide(Request.of(fen), 3) == core.divide(Request.of(fen), 3)
    standard = confirmation(core, Request.of(START), 1, "castling", lambda: ())
    assert [topic for topic, _ in standard.third_ply] == [topic for topic, _ in THIRD_PLY]
    try:
        without = Confirmation(core, Request.of(START), 1)
        fix = Fix("movegen.c", line, mutant.path, mutant.change, "", 1, 1)
        mutation._confirm(shadow, fix, mutant, without)
        assert fix.confirmed, fix.doubt            # what the checks up to depth 2 could not see
        fix = Fix("movegen.c", line, mutant.path, mutant.change, "", 1, 1)
        mutation._confirm(shadow, fix, mutant, Confirmation(core, Request.of(START), 1, third_ply=standard.third_ply))
        assert fix.refuted and not fix.confirmed and fix.status == "refuted", fix.doubt
        assert "castling two plies after a king or rook move: r3k2r/8/8/8/8/8/8/R3K2R" in fix.doubt, fix.doubt
        assert "depth 3" in fix.doubt
    finally:
        shadow.close()


ROOK_KEEPS = "if (corners[i] != m.to && (corners[i] != m.from || i % 3)) continue;"    # a rook leaving keeps its right


@pytest.fixture(scope="module")
def engine(tmp_path_factory):
    """movegen.c mended, trusting its castling rights (no look for the rook in its corner), and a
    rook leaving its corner keeping its side's right (either colour): a bug that shows only two
    plies after the rook's move."""
    folder = tmp_path_factory.mktemp("rook-keeps-right")
    text = (HERE / "movegen.c").read_text().replace("add(out, n, row + 4, row + 1, 'c');",
                                                    "add(out, n, row + 4, row + 2, 'c');")
    for corner in ("row + 7", "row"):
        text = text.replace(f"b[{corner}] == colour('R', white) && ", "")
    assert VOIDS in text
    (folder / "movegen.c").write_text(text.replace(VOIDS, ROOK_KEEPS))
    subprocess.run(BUILD, shell=True, cwd=folder, check=True)
    return folder / "movegen"


def test_a_change_that_mends_a_rights_update_for_one_side_only_is_refuted_two_plies_later(checking, engine):
    """Black's rooks mended, white's not: with white to move at THIRD_PLY it is wrong exactly as the
    engine is (white castles after its rook has left), with black to move it is right where the
    engine is wrong the same way mirrored. Only the third-ply positions show it; the one-side guard,
    once skipped there, tells the half fix, its wrong counts compared move for move below."""
    line = next(n for n, t in enumerate((engine.parent / "movegen.c").read_text().splitlines(), 1) if ROOK_KEEPS in t)
    half = "        " + ROOK_KEEPS.replace("|| i % 3)", "|| (i % 3 && i < 3))") + "\n"
    fix = checked_beyond(checking, engine, line, half, "r3k3/8/8/8/8/8/8/4K3 b q - 0 1", third_ply=THIRD_PLY)
    assert fix.refuted and fix.status == "refuted", (fix.status, fix.doubt)
    assert "fixes this bug for one side only" in fix.doubt and "R3K2R w KQkq" in fix.doubt, fix.doubt
    # the whole mend agrees everywhere
    whole = "        " + VOIDS + "\n"
    fix = checked_beyond(checking, engine, line, whole, "r3k3/8/8/8/8/8/8/4K3 b q - 0 1", third_ply=THIRD_PLY)
    assert fix.confirmed, fix.doubt
