"""`perftscope gui` on an empty compile cache: the window first, the kernels behind it."""
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import chess

from ..core.python_chess_reference import python_chess_perft

HERE = Path(__file__).parent


# the run panel's step: the hashed worker kernels, compiled by it alone
POOL_KERNELS = ("search.", "hashtable.")


def a_cache_without_the_pool(root: Path) -> Path:
    """A compile cache under `root` holding every step's kernels but the pool's, as the suite's
    own cache holds them: the window still opens before anything is loaded and waits seconds for
    the pool's compile, at a fifth of the CPU of an empty cache (a minute, on a busy host)."""
    from perftscope.app import warmup
    from perftscope.core.kernel_cache import CACHE_DIR
    others = [name for name in warmup.STEPS if name != "pool"]
    # loads them (or compiles them, once, into the suite's cache)
    subprocess.run([sys.executable, "-c", f"from perftscope.app import warmup; warmup.warm(steps={others!r})"],
                   check=True, timeout=1200)
    ours = root / CACHE_DIR.name
    shutil.copytree(CACHE_DIR, ours, ignore=lambda folder, names: [
        n for n in names if n.startswith(POOL_KERNELS) or n == "prepared-pool"])
    assert not any(p.name.startswith(POOL_KERNELS) for p in (ours / "kernels").iterdir())
    return root


def test_the_window_works_while_the_kernels_are_prepared_and_the_run_panel_enables_itself(tmp_path):
    """Slow on purpose (seconds of CPU): a cache without the pool's kernels is the point. The
    driver opens the window as `perftscope gui` does, types a FEN and plays a move with the mouse
    before the kernels are ready, then waits for them and starts a run with the mouse."""
    cache = a_cache_without_the_pool(tmp_path / "cache")
    env = dict(os.environ, PERFTSCOPE_CACHE=str(cache), XDG_CONFIG_HOME=str(tmp_path / "config"),
               QT_QPA_PLATFORM="offscreen")
    # beside other tests (pytest -n), behind them: nothing here is timed, only the order of things
    out = subprocess.run([sys.executable, str(HERE / "launch_driver.py")], env=env, capture_output=True,
                         text=True, timeout=1200, preexec_fn=lambda: os.nice(10))
    assert out.returncode == 0, out.stderr
    seen = json.loads(out.stdout.strip().splitlines()[-1])
    # at once: the run panel says what it waits for, and cannot start
    assert seen["at_open"] == {"panel": "preparing perft: 0 of 5 kernels", "start_enabled": False}
    # the FEN and the move were taken while the pool's kernels were still being prepared
    board = chess.Board("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1")
    board.push_uci("e1g1")
    after = seen["after_move"]
    assert after["fen"] == board.fen(en_passant="fen")
    assert not after["pool_ready"] and after["panel"].startswith("preparing perft: ")
    assert not after["start_enabled"]
    # then everything is loaded, the panel enabled itself, the overlays are there
    assert all(seen["prepared"].values())
    assert seen["after_preparation"] == {"panel": "idle", "start_enabled": True, "overlays": True}
    assert any(p.name.startswith("search.run_worker") for p in cache.rglob("*.nbi"))     # compiled here
    assert seen["run"] == {"fen": board.fen(en_passant="fen"), "nodes": python_chess_perft(board, 3)}
