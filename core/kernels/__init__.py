"""Numba kernels: plain uint64 arrays and scalars in, numbers out. No Qt, no Python objects.

Importing this package points numba's on-disk cache at core.kernel_cache.CACHE_DIR (keyed on a
hash of these sources and the slider mode), or, when that folder cannot be written, says so once
on stderr and has every kernel compiled in memory.
"""
import os
import sys

import numba
import numpy as np

from ..kernel_cache import CACHE_DIR, HAS_BMI2, SLIDER_MODE, cannot_write  # noqa: F401

_new = not CACHE_DIR.exists()
_problem = cannot_write(CACHE_DIR)
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

from . import tables  # noqa: E402  (after the cache directory is set)

_T = None


def table():
    """The flat attack/Zobrist table for this process, built once and kept on disk."""
    global _T
    if _T is None:
        path = CACHE_DIR / "tables.npy"
        try:
            T = np.load(path)
            if T.shape != (tables.SIZE,) or T.dtype != np.uint64:
                raise ValueError("stale table")
        except (OSError, ValueError):
            T = tables.build(SLIDER_MODE)
            try:
                CACHE_DIR.mkdir(parents=True, exist_ok=True)
                tmp = path.with_suffix(f".{os.getpid()}.tmp.npy")
                np.save(tmp, T)
                os.replace(tmp, path)
            except OSError:
                pass  # a read-only home still works, just builds each time
        T.setflags(write=False)
        _T = T
    return _T
