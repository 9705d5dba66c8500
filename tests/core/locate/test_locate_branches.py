"""Finer than a line: the branch data of a C program built with gcc's --coverage (gcov) or
clang's profiles (llvm-cov). A condition that runs in every run but goes into its block only in
the failing ones ranks with its block, above the lines that merely ran."""
import subprocess

import pytest

from perftscope.core.locate.coverage import collect, run_environment
from perftscope.core.locate.runs import Run
from perftscope.core.locate.spectra import TAKEN, rank

PROGRAM = """#include <stdlib.h>
int main(int argc, char **argv) {
    int x = atoi(argv[1]);
    int y = x * 2;
    if (x > 2 && y > 0)
        y = y + 1;
    return y > 100;
}
"""
CONDITION, BLOCK = 5, 6


BUILDS = {"gcov": ["gcc", "--coverage", "-O0", "-o", "prog", "prog.c"],
          "llvm": ["clang", "-fprofile-instr-generate", "-fcoverage-mapping", "-O0", "-o", "prog", "prog.c"]}


@pytest.mark.parametrize("kind", sorted(BUILDS))
def test_a_condition_that_goes_into_its_block_only_in_failing_runs_ranks_with_its_block(tmp_path, kind):
    source = tmp_path / "prog.c"
    source.write_text(PROGRAM)
    subprocess.run(BUILDS[kind], cwd=tmp_path, check=True)
    runs = []
    for x in range(5):
        folder = tmp_path / f"run{x}"
        folder.mkdir()
        subprocess.run([str(tmp_path / "prog"), str(x)], cwd=tmp_path, env=run_environment(str(folder), [str(tmp_path)]))
        branches = {}
        lines, kinds = collect(str(folder), [str(tmp_path)], [str(tmp_path / "prog")], branches=branches)
        assert kinds == {kind}
        path = str(source.resolve())
        # the condition ran in every run; its branch outcomes say which way it went
        assert CONDITION in lines[path] and CONDITION in branches[path]
        failed = x > 2
        runs.append(Run("test", "8/8/8/8/8/8/8/K6k w - - 0 1", (), 1, failed, "x" if failed else "agrees",
                        {path: frozenset(lines[path])},
                        branches={path: {n: frozenset(w) for n, w in branches[path].items()}}))
    suspects = rank(runs, [str(tmp_path)])
    by_line = {s.line: s for s in suspects}
    condition, block = by_line[CONDITION], by_line[BLOCK]
    assert condition.last == CONDITION and condition.evidence.startswith(TAKEN), condition
    assert condition.rank == block.rank == 1
    assert (condition.failed, condition.passed) == (2, 0)
    # the lines before it ran in every run: below, as one suspect
    assert [(s.line, s.last, s.rank) for s in suspects if s.line < CONDITION] == [(2, 4, 3)], suspects
