"""What the locate tests share: the planted-bug engines' folder and the C one built with --coverage."""
import os
import shutil
import subprocess
from pathlib import Path

import pytest

from perftscope.core.engines.oracle import Request
from perftscope.core.engines.oracles import make_oracle
from perftscope.core.locate.confirmation import Confirmation
from perftscope.core.locate.mutants import Mutant
from perftscope.core.locate.mutation import Fix, Mutation
from perftscope.core.locate.shadow import Shadow

HERE = Path(__file__).resolve().parents[2] / "engines" / "locate"
BUILD = "gcc --coverage -O0 -o movegen movegen.c"     # movegen.c's build, as an engine file's `build`


@pytest.fixture
def c_engine(tmp_path):
    """movegen.c built in a folder of its own with `gcc --coverage`."""
    shutil.copy(HERE / "movegen.c", tmp_path / "movegen.c")
    subprocess.run(["gcc", "--coverage", "-O0", "-o", "movegen", "movegen.c"], cwd=tmp_path, check=True)
    return tmp_path / "movegen"


@pytest.fixture
def checking(engine, tmp_path):
    """One Mutation of the module's `engine` (a movegen.c built with BUILD) and two shadow copies
    of it, for candidates checked directly: (mutation, [the candidate's, the engine as it is])."""
    spec = f"perftree:{engine}"
    mutation = Mutation(spec, [str(engine.parent)], [], os.path.basename, BUILD, dialect=make_oracle(spec))
    shadows = [Shadow([str(engine.parent)], spec, str(tmp_path / name), BUILD) for name in ("w0", "w1")]
    yield mutation, shadows
    for s in shadows:
        s.close()


def checked_beyond(checking, engine, line: int, after: str, asked: str, *edges: str, third_ply=()) -> Fix:
    """Line `line` of the `engine`'s movegen.c written `after` (a whole line), checked beyond the
    runs (Mutation._confirm) on `asked` at depth 1, `edges` (in order) and `third_ply` ((topic,
    FEN), ...), the engine as it is asked where it is wrong."""
    mutation, (shadow, original) = checking
    before = (engine.parent / "movegen.c").read_text().splitlines(keepends=True)[line - 1]
    mutant = Mutant(str(engine.parent / "movegen.c"), line, before, after)
    fix = Fix("movegen.c", line, mutant.path, mutant.change, "", 1, 1)
    c = Confirmation(make_oracle("core"), Request.of(asked), 1,
                     tuple((f"edge {i}", Request.of(fen)) for i, fen in enumerate(edges)),
                     third_ply=tuple((topic, Request.of(fen)) for topic, fen in third_ply))
    mutation._confirm(shadow, fix, mutant, c, original)
    return fix
