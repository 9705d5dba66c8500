"""The locate benchmark's scoring: the faulty line's rank, its tie and the lines read before it."""
import os

from core.bench.locate_bench import command_path, is_real_fix, locate_command, placement, real_change


def suspect(line, last, rank, file="movegen.c"):
    return {"file": file, "line": line, "last": last, "rank": rank}


SUSPECTS = [suspect(10, 12, 1), suspect(40, 40, 1), suspect(50, 53, 3), suspect(60, 60, 3),
            suspect(70, 70, 5), suspect(5, 5, 1, file="other.c")]


def test_lines_read_count_every_block_above_and_the_whole_tie():
    where = placement(SUSPECTS, [("movegen.c", 60)])
    # above: 3 + 1 + 1 lines (rank 1), the tie of rank 3: 4 + 1
    assert (where.rank, where.tie, where.read, where.listed) == (3, 2, 10, 4)


def test_a_faulty_line_inside_a_block_is_placed_with_the_block_and_the_best_line_counts():
    where = placement(SUSPECTS, [("movegen.c", 70), ("movegen.c", 11)])
    assert (where.rank, where.tie, where.read) == (1, 3, 5)


def test_an_unranked_line_and_a_line_of_another_file_are_not_placed():
    assert placement(SUSPECTS, [("movegen.c", 99)]) is None
    assert placement(SUSPECTS, [("board.c", 40)]) is None


def test_a_fix_is_the_real_one_only_if_it_removes_and_adds_what_the_real_fix_did():
    buggy = "int f(int x) {\n    return x > 0;\n}\n"
    fixed = "int f(int x) {\n    return x >= 0;\n}\n"
    real = real_change(buggy, fixed)
    assert is_real_fix("--- a\n+++ b\n-    return x > 0;\n+    return x>=0;\n", real)
    assert not is_real_fix("--- a\n+++ b\n-    return x > 0;\n+    return x != 0;\n", real)
    assert not is_real_fix("", real)


BUG = {"name": "x", "engine": "perftree:./driver", "fen": "8/8/8/8/8/8/4p3/K6k b - - 0 1", "depth": 2,
       "folder": "x"}


def test_a_relative_perftscope_path_is_made_absolute_since_each_locate_runs_from_its_bug_folder():
    assert command_path(os.path.join(".venv", "bin", "perftscope")) == os.path.abspath(".venv/bin/perftscope")
    assert command_path("perftscope") == "perftscope"


def test_mutant_seconds_are_passed_on_to_locate(tmp_path):
    cmd = locate_command(BUG, str(tmp_path), "perftscope", None, 300)
    assert cmd[cmd.index("--mutant-seconds") + 1] == "300"
    assert "--mutant-seconds" not in locate_command(BUG, str(tmp_path), "perftscope", None)
