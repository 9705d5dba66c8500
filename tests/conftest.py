import os
import sys
from pathlib import Path

import pytest

# Qt must know before any QApplication exists that there is no screen here.
os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")


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
