"""What locate copies for its mutants is the engine's, never the machine's: a native program
copied away from its build is not given `/` as its source (the common folder of where it is and
where its objects are), a folder that holds the copies is not copied into itself, and a folder
holding more than a project's files (a script in /tmp, in a home) gives only the files its runs
ran. The user's folder is left as it was."""
import os
import subprocess
import sys

from perftscope.core.folder_digest import tree_digest
from perftscope.core.locate import shadow as shadow_module
from perftscope.core.locate.shadow import Shadow
from perftscope.core.locate.sources import _build_folders, too_wide

from .test_locate_bytecode import PROMOTES, planted_package


def test_a_native_program_copied_away_from_its_build_is_not_given_the_root_as_its_source():
    assert _build_folders("/srv/engine/bin", ["/srv/engine/obj", "/srv/engine/obj/uci"]) == ("/srv/engine",)
    # built in one tree, run from another: the two folders, not their common `/`
    assert _build_folders("/opt/tools/bin", ["/srv/build/obj", "/srv/build/obj/uci"]) == ("/srv/build/obj", "/opt/tools/bin")
    assert too_wide("/") and too_wide("/tmp") and too_wide(os.path.expanduser("~"))
    assert not too_wide("/tmp/engine")


def answers(shadow: Shadow, script: str) -> str:
    done = subprocess.run([sys.executable, shadow.path(script), "1", PROMOTES], capture_output=True, text=True,
                          env={**os.environ, **shadow.env}, timeout=60)
    assert done.returncode == 0, done.stderr[-400:]
    return done.stdout


def test_the_copies_folder_inside_the_source_is_not_copied_into_itself(tmp_path):
    user = tmp_path / "engine"
    user.mkdir()
    script, module = planted_package(user)
    before = tree_digest(user)
    # locate's two workers' copies, each made while the other's is there
    shadows = [Shadow([str(user)], f"perftree:{script}", str(user / "mutants" / f"w{i}"), ran=[str(script), str(module)])
               for i in range(2)]
    try:
        for shadow in shadows:
            copy = os.path.dirname(shadow.path(str(script)))
            assert sorted(os.listdir(copy)) == ["__pycache__", "movegen.py", "perft.py"]   # the bytecode written there
            assert "a7a8q 1" in answers(shadow, str(script))
    finally:
        for shadow in shadows:
            shadow.close()
    assert os.listdir(user / "mutants") == []       # each copy gone; their folder is the caller's
    (user / "mutants").rmdir()
    assert tree_digest(user) == before


def test_a_folder_holding_more_than_a_project_gives_the_files_the_runs_ran(tmp_path, monkeypatch):
    user = tmp_path / "scratch"
    (user / "photos").mkdir(parents=True)
    for i in range(12):
        (user / "photos" / f"{i}.jpg").write_bytes(b"\xff\xd8" * 100)
    script, module = planted_package(user)
    monkeypatch.setattr(shadow_module, "MOST_FILES", 10)
    shadow = Shadow([str(user)], f"perftree:{script}", str(tmp_path / "shadow"), ran=[str(module)])
    try:
        copy = os.path.dirname(shadow.path(str(script)))
        assert sorted(os.listdir(copy)) == ["__pycache__", "movegen.py", "perft.py"]   # the script the spec names too
        assert "a7a8q 1" in answers(shadow, str(script))
    finally:
        shadow.close()
