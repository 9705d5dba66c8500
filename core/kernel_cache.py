"""Where the compiled kernels are kept, and which slider tables they are compiled for: known
without importing numba (core.kernels imports it, a third of a second), so that a launch can
ask what its cache holds before it pays for that.

The folder is keyed on a hash of the kernel sources, core/limits.py (whose table constants the
kernels compile in), numba's version, the package's own name and the slider mode: numba only
notices edits to a function's own file, so without the key a change in a callee in another
file would leave users running stale machine code.

Environment:
  PERFTSCOPE_SLIDERS   'pext' or 'magic' (default: pext where the CPU has BMI2)
  PERFTSCOPE_CACHE     cache root (default: ~/.cache/perftscope)
"""
from __future__ import annotations

import hashlib
import os
import tempfile
from importlib.metadata import version
from pathlib import Path

import llvmlite.binding as _llvm

KERNELS = Path(__file__).parent / "kernels"
KERNELS_PACKAGE = __name__.rpartition(".")[0] + ".kernels"

HAS_BMI2 = bool(_llvm.get_host_cpu_features().get("bmi2", False)) and \
    os.environ.get("NUMBA_CPU_NAME", "") not in ("generic",)


def _slider_mode():
    mode = os.environ.get("PERFTSCOPE_SLIDERS", "auto").strip().lower()
    if mode == "auto":
        return "pext" if HAS_BMI2 else "magic"
    if mode not in ("pext", "magic"):
        raise RuntimeError(f"PERFTSCOPE_SLIDERS must be 'pext', 'magic' or 'auto', not {mode!r}")
    if mode == "pext" and not HAS_BMI2:
        # A PEXT instruction on a CPU without BMI2 aborts the process: refuse early.
        raise RuntimeError("PERFTSCOPE_SLIDERS=pext but this CPU has no BMI2")
    return mode


SLIDER_MODE = _slider_mode()


def _sources_digest():
    h = hashlib.sha256()
    # the kernels' own sources and the pure constants they compile in
    for path in [*sorted(KERNELS.glob("*.py")), KERNELS.parent / "limits.py"]:
        h.update(path.name.encode())
        h.update(path.read_bytes())
    h.update(version("numba").encode())
    # a cached function names its module: code cached as another package (before the one
    # installable name, say) must not be loaded as this one
    h.update(KERNELS_PACKAGE.encode())
    return h.hexdigest()[:16]


CACHE_DIR = Path(os.environ.get("PERFTSCOPE_CACHE", Path.home() / ".cache" / "perftscope")) / \
    f"numba-{_sources_digest()}-{SLIDER_MODE}"


def is_new(folder: Path) -> bool:
    try:
        return not folder.exists()
    except OSError:         # before Python 3.12 a folder we may not look into raises
        return True


# the preparation step of the pool's kernels (app.warmup), which every fast count calls: once it is
# in the cache, a request of a few million leaves counts with them, not through the move list
POOL_STEP = "pool"


def prepared_marker(step: str) -> Path:
    """The file that says a preparation step's kernels (app.warmup.STEPS) are in the cache."""
    return CACHE_DIR / f"prepared-{step}"


def is_prepared(step: str) -> bool:
    """Whether step's kernels are in the cache: loading them compiles nothing."""
    return not is_new(prepared_marker(step))


def mark_prepared(step: str) -> None:
    """Say that step's kernels are in the cache (after they were compiled or loaded)."""
    try:
        prepared_marker(step).touch()
    except OSError:
        pass                    # a cache that cannot be written: this process compiled in memory


def cannot_write(folder: Path = CACHE_DIR) -> str | None:
    """Why `folder` cannot hold the cache (None: it can); creates it."""
    try:
        folder.mkdir(parents=True, exist_ok=True)
        tempfile.TemporaryFile(dir=folder).close()
    except OSError as e:
        return e.strerror or type(e).__name__
    return None
