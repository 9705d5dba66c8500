import atexit
import os
import shutil
import signal
import sys
import tempfile
import time
from pathlib import Path

import pytest

# Qt must know before any QApplication exists that there is no screen here.
os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
# ... and a screen as large as the largest window a test opens: the window keeps itself inside its
# screen (app.memory.fit_on_screen), and the offscreen platform's own screen is 800x800
if os.environ["QT_QPA_PLATFORM"] == "offscreen":
    os.environ["QT_QPA_PLATFORM"] = f"offscreen:configfile={Path(__file__).parent / 'offscreen_screen.json'}"
# Ctrl-C is what several tests send to the processes they start. A suite started where it is ignored
# (a script's background job: `nohup ... &`) would hand that on to every process it starts, Python
# would install no handler of its own in them, and the interrupt would never arrive: those tests
# would fail for how the suite was started, not for the code. Python's own handler here resets to
# the default in every program it starts, and xdist's workers start after this file is read.
if signal.getsignal(signal.SIGINT) == signal.SIG_IGN:
    signal.signal(signal.SIGINT, signal.default_int_handler)
# The engines tests start (tests/engines, the locate engines, scripts written by a test) run
# `python3` from PATH. This venv's Python first, as an activated venv would have it: where a version
# manager's shim comes first (pyenv's is a bash script running a dozen more), each start cost 70 ms
# of CPU more than the engine's own 10 ms, and the suite starts thousands of them.
os.environ["PATH"] = os.path.dirname(sys.executable) + os.pathsep + os.environ.get("PATH", "")
# Dialects learned by calibration are kept for the session in a folder of its own, never the user's.
os.environ["PERFTSCOPE_DIALECTS"] = tempfile.mkdtemp(prefix="perftscope-dialects-")
atexit.register(shutil.rmtree, os.environ["PERFTSCOPE_DIALECTS"], True)

# Tests that must have the machine to themselves: `make test` runs every other test on all cores
# first (pytest -n), then these alone (-m alone); plain `pytest` runs everything in one process.
# Whole files here: races timing engines, memory, thread counts and the event loop's latency
# over a soak. Single tests elsewhere carry @pytest.mark.alone where they bound what a user waits
# for (a stop, a close, the event loop, the end after Ctrl-C). What times nothing runs beside the
# rest: cold compiles (at a lower priority) and the Dask cluster tests (a cluster for each of
# their modules in each xdist worker that runs one of its tests).
ALONE = {"app/test_gui_race.py", "app/test_race_cli.py", "core/race/test_race.py", "app/test_soak.py"}


def pytest_configure(config):
    config.addinivalue_line("markers", "alone: run with the machine to itself (see tests/conftest.py)")
    if (getattr(config.option, "numprocesses", None) or 0) > 1 and not hasattr(config, "workerinput"):
        capture = config.pluginmanager.getplugin("capturemanager")
        with capture.global_and_fixture_disabled():
            _prepare_kernels()


def _prepare_kernels():
    """On an empty compile cache, `pytest -n N` compiles the kernels before its workers start,
    as `perftscope gui` does (app.warmup: two helper processes, each group once). Left to the
    workers, each compiled what its first tests called, and at first they call the same kernels:
    two cores compiling one thing twice, minutes of CPU on a slow host."""
    from perftscope.app import warmup     # without numba: whether the cache is warm is a file each
    from perftscope.core.kernel_cache import cannot_write
    if warmup.cache_is_warm() or cannot_write() is not None:
        return                            # (a cache nobody can write: each worker compiles in memory)
    start = time.monotonic()
    print(f"conftest: kernels missing from the compile cache: {warmup.MESSAGE}", file=sys.stderr, flush=True)
    preparation = warmup.Preparation(on_error=lambda name, message: print(
        f"conftest: preparing {name} failed here ({message}): its tests will say why", file=sys.stderr))
    preparation.start().wait()
    print(f"conftest: kernels ready in {time.monotonic() - start:.0f} s", file=sys.stderr, flush=True)


# The longest tests, first: each compiles the kernels from an empty cache (a minute or more of
# CPU at a lower priority) while the other workers take the short ones; begun last, one of them
# would be the whole phase's tail.
FIRST = ("app/test_launch.py", "core/kernels/test_compile_cache.py")


def pytest_collection_modifyitems(config, items):
    here = Path(__file__).parent
    for item in items:
        if Path(item.fspath).relative_to(here).as_posix() in ALONE:
            item.add_marker(pytest.mark.alone)
    items.sort(key=lambda item: Path(item.fspath).relative_to(here).as_posix() not in FIRST)


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
def engine_path():
    """engine_path("ep_rank_pin") -> the path of tests/engines/ep_rank_pin.py, ready to run:
    the engines start with `#!/usr/bin/env -S python3 -S`, `python3` being this venv's (above)."""
    return lambda name: str(Path(__file__).parent / "engines" / f"{name}.py")


@pytest.fixture
def fen_reads(monkeypatch):
    """Every FEN read from now on (tests/fen_readings.py): one per position entering, or a test says why not."""
    from .fen_readings import count_fen_reads
    return count_fen_reads(monkeypatch)


@pytest.fixture
def refusing_engine(tmp_path, engine_path):
    """The spec of an engine file around refuses_castling.py: totals only, `Illegal move: e1g1`
    for a castle it does not generate."""
    toml = tmp_path / "refuses.toml"
    toml.write_text(f'''name = "refuses castling"
command = ["{sys.executable}", "{engine_path('refuses_castling')}"]
position = "position fen {{fen}} moves {{moves}}"
totals = "perft {{depth}}"
sentinel = "echo done"
illegal = "^Illegal move"
timeout = 30
''')
    return f"file:{toml}"


@pytest.fixture(scope="module")
def dask_client():
    """One local Dask cluster of 2 nanny-managed worker processes for a module's cluster tests
    (starting one costs seconds); tests that kill a worker wait for its restart. Not one for the
    session: an idle one costs about 15% of a core (its two workers 8%, the scheduler and client 6%),
    and these tests run among the others (pytest -n), so it goes with its module."""
    from distributed import Client, LocalCluster

    cluster = LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None,
                           memory_limit="4GiB")
    client = Client(cluster)
    yield client
    client.close()
    cluster.close()
