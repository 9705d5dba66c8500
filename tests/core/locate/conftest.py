"""What the locate tests share: the planted-bug engines' folder and the C one built with --coverage."""
import shutil
import subprocess
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parents[2] / "engines" / "locate"


@pytest.fixture
def c_engine(tmp_path):
    """movegen.c built in a folder of its own with `gcc --coverage`."""
    shutil.copy(HERE / "movegen.c", tmp_path / "movegen.c")
    subprocess.run(["gcc", "--coverage", "-O0", "-o", "movegen", "movegen.c"], cwd=tmp_path, check=True)
    return tmp_path / "movegen"
