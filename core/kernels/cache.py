"""Where compiled kernels are kept, and in which slider mode they are built.

Importing this module picks the slider-attack mode and points numba's on-disk cache at a
directory keyed on a hash of the kernels' sources and that mode: numba only notices edits to a
function's own file, so without the key a change in a callee in another file would leave users
running stale machine code. Every kernel is decorated with `cache=CACHE`, so this runs first.
"""
import hashlib
import os
import sys
import tempfile
from pathlib import Path

import llvmlite.binding as _llvm
import numba

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
    for path in [*sorted(Path(__file__).parent.glob("*.py")), Path(__file__).parent.parent / "limits.py"]:
        h.update(path.name.encode())
        h.update(path.read_bytes())
    h.update(numba.__version__.encode())
    # a cached function names its module: code cached as another package (before the one
    # installable name, say) must not be loaded as this one
    h.update(__package__.encode())
    return h.hexdigest()[:16]


CACHE_DIR = Path(os.environ.get("PERFTSCOPE_CACHE", Path.home() / ".cache" / "perftscope")) / \
    f"numba-{_sources_digest()}-{SLIDER_MODE}"


def _cannot_write(folder: Path) -> str | None:
    """Why `folder` cannot hold the cache (None: it can)."""
    try:
        folder.mkdir(parents=True, exist_ok=True)
        tempfile.TemporaryFile(dir=folder).close()
    except OSError as e:
        return e.strerror or type(e).__name__
    return None


def _is_new(folder: Path) -> bool:
    try:
        return not folder.exists()
    except OSError:         # before Python 3.12 a folder we may not look into raises
        return True


_new = _is_new(CACHE_DIR)
_problem = _cannot_write(CACHE_DIR)
# Every kernel is @njit(cache=CACHE). Without a cache numba would write next to the sources,
# keyed on each file alone (stale code after an edit in another file) and often not writable
# either: when ours cannot be written, the kernels are compiled in memory for this process.
CACHE = _problem is None
if CACHE:
    numba.config.CACHE_DIR = str(CACHE_DIR)      # before any kernel below is decorated
    if _new and sys.stderr.isatty():
        # the first run compiles (seconds): say so rather than seem to hang
        print("perftscope: compiling the move generator for this CPU (first run only)...",
              file=sys.stderr, flush=True)
else:
    print(f"perftscope: the compile cache {CACHE_DIR} cannot be written ({_problem}): the kernels are "
          "compiled in memory for this process only (set PERFTSCOPE_CACHE to a writable folder)",
          file=sys.stderr, flush=True)
