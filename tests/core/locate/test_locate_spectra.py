"""core.locate.spectra on runs written out by hand: Ochiai and DStar, lines that always run
together as one suspect, ties said as ties, the feature contrast breaking an Ochiai tie."""
import math

import pytest

from perftscope.core.locate.runs import Run
from perftscope.core.locate.spectra import Twins, dstar, ochiai, rank

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


def file_run(path: str, failed: bool, lines, verdict: str = "x") -> Run:
    """A run of the source file at `path` (a real one: the ranking reads its lines)."""
    return Run("test", "8/8/8/8/8/8/8/K6k w - - 0 1", (), 1, failed, verdict if failed else "agrees",
               {path: frozenset(lines)})


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


def test_lines_on_the_way_to_the_wrong_move_rank_above_and_tie_where_its_runs_cannot_tell_them_apart():
    # the failing run (0) and its twin without the castling right (1): lines 40-42 ran only on the
    # way to the wrong move. Run 2 is a passing one where the same move is at stake (made right),
    # run 3 the other colour's castling, not at stake, which ran the shared line 42 but not 40.
    # Line 7 ran in the failing run and its twin only, so plain Ochiai puts it above them all.
    runs = [run(True, [1, 7, 40, 42]), run(False, [1, 7]), run(False, [1, 40, 42]), run(False, [1, 42]),
            run(False, [1, 2]), run(False, [1, 2])]
    runs[0].stake = runs[2].stake = True
    plain = {s.line: s for s in rank(runs, [ROOT])}
    assert plain[7].rank == 1 and plain[40].rank < plain[42].rank
    suspects = rank(runs, [ROOT], twins=[Twins(0, (1,), "e8g8", "the castling right k")])
    by_line = {s.line: s for s in suspects}
    assert by_line[40].rank == by_line[42].rank == 1 and by_line[40].way == 1.0
    assert by_line[7].rank == 3 and by_line[7].way == 0.0
    assert by_line[40].evidence == "ran on the way to e8g8 (not without the castling right k) (tie)"
    assert by_line[7].evidence.startswith("spectrum")


def test_a_condition_whose_body_is_a_lone_jump_is_ranked_with_the_jump(tmp_path):
    source = tmp_path / "gen.py"
    source.write_text("def moves(board):\n"                      # 1
                      "    for m in board:\n"                    # 2
                      "        if m.king and \\\n"               # 3
                      "                (m.far or\n"              # 4
                      "                 m.near):\n"              # 5
                      "            continue\n"                   # 6
                      "        yield m\n")                       # 7
    path = str(source)
    runs = [file_run(path, True, [1, 2, 3, 4, 6, 7]), file_run(path, False, [1, 2, 3, 4, 7]),
            file_run(path, False, [1, 2, 3, 7]), file_run(path, False, [1, 2, 3, 7])]
    suspects = rank(runs, [str(tmp_path)])
    condition = next(s for s in suspects if s.line == 3)
    jump = next(s for s in suspects if s.line == 6)
    assert (condition.line, condition.last) == (3, 5) and condition.rank == jump.rank == 1
    assert (condition.failed, condition.passed) == (1, 0)
    assert condition.evidence.startswith("its branch to line 6: ")
    assert not any(s.line == 4 for s in suspects)         # within the condition: one suspect


def test_a_condition_evaluated_in_every_run_ranks_by_its_branch_above_its_body(tmp_path):
    """Chessnut's en-passant update: `if pawn and ep_square:` runs for every move made; its body
    runs in the failing run and in a few passing ones. The condition carries its branch's runs
    and ranks first, alone, above the body's lines, where its own spectrum (every run) tied it
    with the code every run executes."""
    source = tmp_path / "game.py"
    source.write_text("def apply(self, move):\n"                       # 1
                      "    self.board.move(move)\n"                    # 2
                      "    if self.pawn(move) and self.ep != '-':\n"   # 3
                      "        # the captured pawn\n"                  # 4
                      "        self.board.remove(move.end + 8)\n"      # 5
                      "    self.turn = not self.turn\n")               # 6
    path = str(source)
    runs = [file_run(path, True, [1, 2, 3, 5, 6]), file_run(path, False, [1, 2, 3, 5, 6])] + \
        [file_run(path, False, [1, 2, 3, 6]) for _ in range(4)]
    suspects = rank(runs, [str(tmp_path)])
    assert [(s.line, s.last, s.rank) for s in suspects[:2]] == [(3, 3, 1), (5, 5, 1)], suspects[:3]
    assert (suspects[0].failed, suspects[0].passed) == (1, 1)
    assert suspects[0].evidence.startswith("its branch to line 5: ")
    assert {(s.line, s.last) for s in suspects[2:]} == {(1, 2), (6, 6)}   # every run: below, the condition taken out


def test_a_condition_with_its_body_on_its_line_is_no_branch_of_the_next_one(tmp_path):
    """kokopu's generator: `if(x) { break; }` closes on its own line; the condition below it,
    whose branch is more suspicious, is one suspect of its own line only."""
    source = tmp_path / "gen.js"
    source.write_text("function gen(p) {\n"                         # 1
                      "  for (;;) {\n"                              # 2
                      "    if (p.x >= 0) { break; }\n"              # 3
                      "  }\n"                                       # 4
                      "  // castling\n"                             # 5
                      "  if (p.king && p.castling !== 0) {\n"       # 6
                      "    castle(p);\n"                            # 7
                      "  }\n"                                       # 8
                      "}\n")                                        # 9
    path = str(source)
    runs = [file_run(path, True, [1, 2, 3, 4, 6, 7]), file_run(path, False, [1, 2, 3, 4, 6, 7]),
            file_run(path, False, [1, 2, 3, 4, 6]), file_run(path, False, [1, 2, 3, 4, 6])]
    suspects = rank(runs, [str(tmp_path)])
    assert [(s.line, s.last, s.rank) for s in suspects[:2]] == [(6, 6, 1), (7, 7, 1)], suspects[:3]
    assert {(s.line, s.last) for s in suspects[2:]} == {(1, 5)}        # the comment above 6 too


def _on_the_way(tmp_path, verdict: str):
    """A generator (lines 2-3) and the function that plays a move (lines 5-6), both run only in the
    failing run (0), not in its twin (1) nor elsewhere."""
    source = tmp_path / "gen.py"
    source.write_text("def castling(board, out):\n"        # 1
                      "    out.append('e1c1')\n"            # 2
                      "\n"                                  # 3
                      "def make(board, move):\n"            # 4
                      "    board.castle(move)\n")           # 5
    path = str(source)
    runs = [file_run(path, True, [1, 2, 4, 5], verdict), file_run(path, False, [1, 4]), file_run(path, False, [1, 4])]
    runs[0].stake = True
    return {s.line: s for s in rank(runs, [str(tmp_path)], twins=[Twins(0, (1,), "e1c1", "the castling right Q")])}


def test_the_lines_that_play_an_illegal_move_come_after_those_that_generate_it(tmp_path):
    by_line = _on_the_way(tmp_path, "generates illegal e1c1")
    assert by_line[2].rank == 1 and by_line[5].rank == 2
    assert by_line[2].evidence == "ran on the way to e1c1 (not without the castling right Q)"
    assert by_line[5].evidence == "ran only because e1c1 was played (in make) (not without the castling right Q)"


def test_a_missing_move_is_said_as_where_it_should_have_been_generated(tmp_path):
    by_line = _on_the_way(tmp_path, "misses e1c1")
    assert by_line[2].rank == by_line[5].rank == 1        # nothing was played: no order between them
    assert by_line[2].evidence == "ran where e1c1 should have been generated (not without the castling right Q) (tie)"


def test_a_statement_whose_coverage_lands_on_its_last_line_is_a_suspect_from_its_first(tmp_path):
    """gcov counts `map =` / `    attacks(sq);` on the call's line: the assignment's line ran in the
    same runs (a statement's later part runs only once it began) and heads the suspect; a block's
    closing brace, and a statement ended on the line above, take nothing."""
    source = tmp_path / "gen.c"
    source.write_text("int gen(int sq) {\n"           # 1
                      "    int map = 0;\n"            # 2: ran in every run
                      "    if (sq > 3)\n"             # 3: ran in every run
                      "        map =\n"               # 4: no count of its own
                      "            attacks(sq);\n"    # 5
                      "    return map;\n"             # 6
                      "}\n")                          # 7
    path = str(source)
    runs = [file_run(path, True, [2, 3, 5, 6, 7]), file_run(path, False, [2, 3, 6, 7]),
            file_run(path, False, [2, 3, 6, 7])]
    suspects = rank(runs, [str(tmp_path)])
    head = next(s for s in suspects if s.last == 5)
    assert (head.line, head.rank, head.failed, head.passed, head.text) == (4, 1, 1, 0, "map =")
    # the condition above is a suspect of its own (its branch), the brace takes no line above it
    assert {(s.line, s.last) for s in suspects} == {(4, 5), (2, 2), (3, 3), (6, 7)}
