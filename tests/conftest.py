import os
import sys
import tempfile
from pathlib import Path

import pytest

# Qt must know before any QApplication exists that there is no screen here.
os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
# Dialects learned by calibration are kept for the session in a folder of its own, never the user's.
os.environ["PERFTSCOPE_DIALECTS"] = tempfile.mkdtemp(prefix="perftscope-dialects-")


@pytest.fixture(autouse=True)
def _private_settings(tmp_path_factory):
    """QSettings (native and ini formats alike) in a directory of the test's own: the window
    remembers its size, splitters and choices, and no test may read or change the user's."""
    try:
        from PySide6.QtCore import QSettings
    except ImportError:
        return
    where = str(tmp_path_factory.mktemp("settings"))
    for kind in (QSettings.NativeFormat, QSettings.IniFormat):
        QSettings.setPath(kind, QSettings.UserScope, where)


@pytest.fixture
def engine_path(monkeypatch):
    """engine_path("ep_rank_pin") -> the path of tests/engines/ep_rank_pin.py, ready to run:
    the engines start with `#!/usr/bin/env python3` and need this venv's python-chess."""
    monkeypatch.setenv("PATH", os.path.dirname(sys.executable) + os.pathsep + os.environ.get("PATH", ""))
    return lambda name: str(Path(__file__).parent / "engines" / f"{name}.py")


@pytest.fixture(scope="session")
def dask_client():
    """One local Dask cluster of 2 nanny-managed worker processes for every cluster test
    (starting one costs seconds); tests that kill a worker wait for its restart."""
    from distributed import Client, LocalCluster

    cluster = LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None,
                           memory_limit="4GiB")
    client = Client(cluster)
    yield client
    client.close()
    cluster.close()
