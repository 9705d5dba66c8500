"""core.locate.shadow's bytecode: a Python engine's modules are compiled in the shadow copy once,
as hash-checked .pyc files, and its processes read them instead of compiling each time; a
mutant's module once it is run a second time. Every answer is the one the source gives (a mutant
of the same size as the text before it is never read from the other's .pyc), and the user's
folder is left byte for byte as it was."""
import importlib.util
import os
import subprocess
import sys
from pathlib import Path

from perftscope.core.folder_digest import tree_digest
from perftscope.core.locate.mutants import Mutant
from perftscope.core.locate.shadow import Shadow

HERE = Path(__file__).resolve().parents[2] / "engines" / "locate"
PROMOTES = "4k3/P7/8/8/8/8/8/4K3 w - - 0 1"    # the planted engine never promotes to a knight
SCRIPT = """#!/usr/bin/env python3
import os
import sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import movegen
movegen.main()
"""


def planted_package(folder: Path) -> tuple[Path, Path]:
    """(script, module): a perftree script importing the planted engine as a module."""
    module = folder / "movegen.py"
    module.write_text((HERE / "movegen.py").read_text())
    script = folder / "perft.py"
    script.write_text(SCRIPT)
    script.chmod(0o755)
    return script, module


def ask(shadow: Shadow, script: str, module: str) -> tuple[str, bool]:
    """(the engine's answer, whether its module was read from a .pyc) at PROMOTES, depth 1."""
    done = subprocess.run([sys.executable, "-v", script, "1", PROMOTES], capture_output=True, text=True,
                          env={**os.environ, **shadow.env}, timeout=60)
    assert done.returncode == 0, done.stderr[-400:]
    pyc = importlib.util.cache_from_source(module, optimization="")
    return done.stdout, f"code object from '{pyc}'" in done.stderr


def test_a_python_engine_s_modules_are_read_compiled_in_the_copy_and_answer_as_their_source(tmp_path):
    user = tmp_path / "engine"
    user.mkdir()
    script, module = planted_package(user)
    before = tree_digest(user)
    shadow = Shadow([str(user)], f"perftree:{script}", str(tmp_path / "shadow"), ran=[str(script), str(module)])
    try:
        copy, copied_module = shadow.path(str(script)), shadow.path(str(module))
        answer, compiled = ask(shadow, copy, copied_module)
        assert compiled                              # compiled when the copy was made, not by the process
        assert "a7a8q 1" in answer and "a7a8n" not in answer
        # the same size as the line it replaces, so a .pyc checked by time and size would pass for it
        line = next(n for n, text in enumerate(module.read_text().splitlines(), 1) if 'in "qrb":  ' in text)
        before_text = module.read_text().splitlines(keepends=True)[line - 1]
        after_text = before_text.replace('"qrb":  ', '"qrbn": ')
        assert len(after_text) == len(before_text)
        mutant = Mutant(str(module), line, before_text, after_text)
        with shadow.applied(mutant):
            first, compiled = ask(shadow, copy, copied_module)
            assert not compiled and "a7a8n 1" in first      # the mutant's own answer
            shadow.compile_mutant()                  # a second run: compiled once for the rest
            again, compiled = ask(shadow, copy, copied_module)
            assert compiled and again == first
        restored, compiled = ask(shadow, copy, copied_module)
        assert compiled and restored == answer       # the text and its bytecode back as they were
    finally:
        shadow.close()
    assert tree_digest(user) == before and not (user / "__pycache__").exists()


def test_a_module_in_a_linked_virtual_environment_is_not_compiled_into_the_user_s_folder(tmp_path):
    user = tmp_path / "engine"
    venv = user / ".venv"
    venv.mkdir(parents=True)
    (venv / "pyvenv.cfg").write_text("home = /usr/bin\n")      # linked into the copy, not copied
    (venv / "helper.py").write_text("HELP = 1\n")
    script, module = planted_package(user)
    before = tree_digest(user)
    shadow = Shadow([str(user)], f"perftree:{script}", str(tmp_path / "shadow"),
                    ran=[str(module), str(venv / "helper.py")])
    try:
        assert os.path.islink(os.path.dirname(shadow.path(str(venv / "helper.py"))))
        assert os.path.exists(importlib.util.cache_from_source(shadow.path(str(module)), optimization=""))
    finally:
        shadow.close()
    assert tree_digest(user) == before and not (venv / "__pycache__").exists()
