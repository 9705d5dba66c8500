"""The distribution installs one importable name, `perftscope`, and works beside a package called `core`."""
import shutil
import site
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

import chess

from perftscope.app.cli import main
from perftscope.core.kernel_cache import CACHE_DIR

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def wheel(tmp_path_factory) -> Path:
    # built from a copy: setuptools writes build/ and the egg-info into the tree it builds, and
    # under pytest -n this module's two tests can build at once in two workers
    source = tmp_path_factory.mktemp("source") / "perftscope"
    shutil.copytree(ROOT, source, ignore=shutil.ignore_patterns(
        ".venv", ".git", "build", "*.egg-info", "__pycache__", ".pytest_cache"))
    out = tmp_path_factory.mktemp("wheel")
    subprocess.run([sys.executable, "-m", "pip", "wheel", "-q", "--no-deps",
                    "-w", str(out), str(source)], check=True, capture_output=True)
    (path,) = out.glob("perftscope-*.whl")
    return path


def test_wheel_has_one_top_level_package(wheel):
    names = zipfile.ZipFile(wheel).namelist()
    tops = {name.split("/")[0] for name in names}
    assert tops == {"perftscope", f"{wheel.name.split('-')[0]}-{wheel.name.split('-')[1]}.dist-info"}
    for room in ("app", "core", "widgets", "resources"):
        assert f"perftscope/{room}/__init__.py" in names
    assert "perftscope/__main__.py" in names
    assert "perftscope/core/kernels/movegen.py" in names
    assert "perftscope/resources/perftsuite.epd" in names


def cache_files(cache: Path) -> dict:
    return {p: p.stat().st_mtime_ns for p in cache.rglob("*") if p.is_file()}


def test_installed_beside_a_package_named_core(wheel, tmp_path):
    env_dir = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(env_dir)], check=True)
    python = env_dir / "bin" / "python"
    purelib = Path(subprocess.run([str(python), "-c", "import sysconfig; print(sysconfig.get_path('purelib'))"],
                                  check=True, capture_output=True, text=True).stdout.strip())
    # The dependencies (numba, python-chess, pip...) come from this venv's site-packages, added as a
    # plain path: its own .pth files, our editable install's finder among them, are not run there.
    deps = [p for p in site.getsitepackages() if Path(p, "chess").is_dir()]
    assert deps and Path(chess.__file__).is_relative_to(deps[0])
    (purelib / "deps.pth").write_text(deps[0] + "\n")
    # Somebody else's package named `core`: importing it instead of ours fails loudly.
    (purelib / "core").mkdir()
    (purelib / "core" / "__init__.py").write_text("raise ImportError('this is another project called core')\n")
    subprocess.run([str(python), "-m", "pip", "install", "-q", "--no-deps", "--no-index", "--ignore-installed",
                    str(wheel)], check=True, capture_output=True)
    assert (purelib / "perftscope" / "core" / "board" / "position.py").is_file()

    # The same sources installed elsewhere find the kernels this checkout compiled: the two commands
    # run here first (compiled or loaded), then the installed copy is given a copy of this cache and
    # must add nothing to it. (Compiling from an empty cache is core/kernels/test_compile_cache.py's
    # and test_launch.py's subject.)
    for argv in (["perft", "-d", "3", "--json"], ["divide", "-d", "1", "-m", "e2e4"]):
        assert main(argv) == 0
    cache = tmp_path / "cache"
    shutil.copytree(CACHE_DIR, cache / CACHE_DIR.name)
    before = cache_files(cache)
    env = {"PATH": str(env_dir / "bin"), "HOME": str(tmp_path), "PERFTSCOPE_CACHE": str(cache)}
    proc = subprocess.run([str(env_dir / "bin" / "perftscope"), "perft", "-d", "3", "--json"], cwd=tmp_path,
                          env=env, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    assert '"nodes": 8902' in proc.stdout
    proc = subprocess.run([str(python), "-m", "perftscope", "divide", "-d", "1", "-m", "e2e4"], cwd=tmp_path,
                          env=env, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.rstrip().endswith("Nodes searched: 20")
    assert cache_files(cache) == before                 # loaded every kernel, compiled none
    # and the other `core` is still the one a plain import finds
    proc = subprocess.run([str(python), "-c", "import core"], cwd=tmp_path, env=env, capture_output=True,
                          text=True)
    assert "another project called core" in proc.stderr
