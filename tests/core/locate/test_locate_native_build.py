"""A native engine's mutants rebuilt in its shadow copy: the user's build command is run once and
recorded, then a mutant recompiles only the translation units holding the file it changed (a
header's: those including it) and relinks; a build that cannot be read so runs whole for each."""
import os
import subprocess
from pathlib import Path

from perftscope.core.folder_digest import tree_digest
from perftscope.core.locate.mutants import Mutant
from perftscope.core.locate.shadow import Shadow

FILES = {
    "main.c": '#include <stdio.h>\n#include "value.h"\nint other(void);\n'
              'int main(void) { printf("%d %d\\n", VALUE + 0, other()); return 0; }\n',
    "other.c": "int other(void) {\n    return 7;\n}\n",
    "value.h": "#define VALUE 40\n",
}
BUILD = "gcc -O0 --coverage -o prog main.c other.c"


def program(tmp_path: Path) -> Path:
    folder = tmp_path / "src"
    folder.mkdir()
    for name, text in FILES.items():
        (folder / name).write_text(text)
    subprocess.run(BUILD, shell=True, cwd=folder, check=True)
    return folder


def output(shadow: Shadow) -> str:
    prog = Path(next(iter(shadow.copies.values()))) / "prog"
    env = dict(os.environ, **{k: v for k, v in shadow.env.items() if k.startswith("GCOV")})
    return subprocess.run([str(prog)], capture_output=True, text=True, env=env, check=True).stdout.strip()


def objects(shadow: Shadow) -> dict[str, int]:
    """{source file name: its object's modification time}."""
    return {os.path.basename(step.argv[step.argv.index("-c") + 1]): os.stat(step.argv[step.argv.index("-o") + 1]).st_mtime_ns
            for step in shadow.plan.compiles}


def test_a_mutant_recompiles_only_the_units_holding_its_file(tmp_path):
    folder = program(tmp_path)
    before = tree_digest(folder)
    shadow = Shadow([str(folder)], f"perftree:{folder / 'prog'}", str(tmp_path / "shadow"), BUILD)
    try:
        assert shadow.build() and shadow.plan is not None
        assert output(shadow) == "40 7"
        # recorded without compiling (the plan compiled it): the engine is not built twice
        assert os.listdir(tmp_path / "shadow" / "build" / "dry")
        assert not (tmp_path / "shadow" / "build" / "recorded").exists()
        built = objects(shadow)
        assert set(built) == {"main.c", "other.c"}
        # a mutant of other.c: main.c's object is not rebuilt, the program holds the mutant
        with shadow.applied(Mutant(str(folder / "other.c"), 2, "    return 7;\n", "    return 8;\n")):
            assert shadow.build()
            assert output(shadow) == "40 8"
        again = objects(shadow)
        assert again["main.c"] == built["main.c"] and again["other.c"] != built["other.c"]
        # a header's mutant: the unit including it is rebuilt; the copy restored builds as it was
        with shadow.applied(Mutant(str(folder / "value.h"), 1, "#define VALUE 40\n", "#define VALUE 41\n")):
            assert shadow.build()
            assert output(shadow) == "41 7"
        assert shadow.build() and output(shadow) == "40 7"
        # a mutant that does not compile is dropped, and the next build still rebuilds its unit
        with shadow.applied(Mutant(str(folder / "other.c"), 2, "    return 7;\n", "    return 7\n")):
            assert not shadow.build()
        assert shadow.build() and output(shadow) == "40 7"
    finally:
        shadow.close()
    assert tree_digest(folder) == before


def test_a_build_it_cannot_read_runs_whole_for_each_mutant(tmp_path):
    folder = program(tmp_path)
    # the compiler named by its absolute path is not seen through PATH: no plan, the command runs whole
    gcc = subprocess.run(["sh", "-c", "command -v gcc"], capture_output=True, text=True).stdout.strip()
    build = f"{gcc} -O0 -o prog main.c other.c"
    shadow = Shadow([str(folder)], f"perftree:{folder / 'prog'}", str(tmp_path / "shadow"), build)
    try:
        assert shadow.build() and shadow.plan is None
        with shadow.applied(Mutant(str(folder / "other.c"), 2, "    return 7;\n", "    return 9;\n")):
            assert shadow.build()
            assert output(shadow) == "40 9"
    finally:
        shadow.close()


def test_a_build_that_runs_what_it_compiled_is_recorded_compiling(tmp_path):
    """The first recording compiles nothing; a build that runs a program it built (a generated
    header) fails so, and is recorded again with the compiler called."""
    folder = program(tmp_path)
    (folder / "gen.c").write_text('#include <stdio.h>\nint main(void) { puts("#define VALUE 50"); return 0; }\n')
    build = f"gcc -o gen gen.c && ./gen > value.h && {BUILD} && rm gen"
    subprocess.run(build, shell=True, cwd=folder, check=True)
    shadow = Shadow([str(folder)], f"perftree:{folder / 'prog'}", str(tmp_path / "shadow"), build)
    try:
        assert shadow.build() and shadow.plan is not None
        assert output(shadow) == "50 7"
        assert os.listdir(tmp_path / "shadow" / "build" / "recorded")      # the second, compiling recording
        with shadow.applied(Mutant(str(folder / "other.c"), 2, "    return 7;\n", "    return 6;\n")):
            assert shadow.build() and output(shadow) == "50 6"
    finally:
        shadow.close()


def test_a_native_first_pass_spends_its_builds_on_one_token_slips(tmp_path):
    """A deleted statement or an added `break;` is a build that mostly does not compile: a native
    engine's first pass leaves them after every line's slips."""
    from perftscope.core.locate.mutants import mutants_of
    from perftscope.core.locate.mutation import plan, slips_first
    source = tmp_path / "gen.c"
    source.write_text("int f(int a, int b) {\n    int c = a + b;\n    g(a, b);\n    return c < b;\n}\n")
    by_line = {(str(source), n): mutants_of(str(source), [n]) for n in (2, 3, 4)}
    first, rest = plan(by_line, {key: 1 for key in by_line}, 300)
    assert any(m.line == 3 for m in first)              # a call: its deletion, swaps and names for peers
    slips, after = slips_first(first, rest)
    assert slips and all(m.likeness < 6 for m in slips) and {m.line for m in slips} == {2, 3, 4}
    assert all(m.kind == "name" for m in slips if m.line == 3)      # the call's only slip: `a` for `b`
    assert sorted(map(id, slips + after)) == sorted(map(id, first + rest))     # none lost, the rest after
    assert after[:len(first) - len(slips)] == [m for m in first if m.likeness >= 6]


MAKEFILE = """prog: main.o other.o
\t$(CC) --coverage -o prog main.o other.o
%.o: %.c value.h
\t$(CC) -O0 --coverage -c $< -o $@
"""


def test_a_makefile_build_up_to_date_in_its_folder_is_recorded_whole(tmp_path):
    """The copy of a folder built by make is up to date: its sources are made newer in the copy,
    so every rule runs and is recorded; a mutant of other.c then rebuilds other.o alone."""
    folder = program(tmp_path)
    (folder / "Makefile").write_text(MAKEFILE)
    subprocess.run(["make", "-s"], cwd=folder, check=True)
    before = tree_digest(folder)
    shadow = Shadow([str(folder)], f"perftree:{folder / 'prog'}", str(tmp_path / "shadow"), "make")
    try:
        assert shadow.build() and shadow.plan is not None
        built = objects(shadow)
        assert set(built) == {"main.c", "other.c"}
        with shadow.applied(Mutant(str(folder / "other.c"), 2, "    return 7;\n", "    return 5;\n")):
            assert shadow.build() and output(shadow) == "40 5"
        again = objects(shadow)
        assert again["main.c"] == built["main.c"] and again["other.c"] != built["other.c"]
    finally:
        shadow.close()
    assert tree_digest(folder) == before
