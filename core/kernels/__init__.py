"""Numba kernels: plain uint64 arrays and scalars in, numbers out. No Qt, no Python objects.

The compile cache and the slider mode are settled in kernels.cache, which every kernel module
imports first; this package adds the flat table they all take as an argument.

Environment:
  PERFTSCOPE_SLIDERS   'pext' or 'magic' (default: pext where the CPU has BMI2)
  PERFTSCOPE_CACHE     cache root (default: ~/.cache/perftscope); one that cannot be written
                       is said once on stderr, and the kernels are then compiled in memory
"""
import os

import numpy as np

from .cache import CACHE, CACHE_DIR, HAS_BMI2, SLIDER_MODE  # noqa: F401  (set before any kernel is decorated)
from . import tables

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
        # handed out read-only (the kernels' signatures say so), as a view: its owner stays
        # writeable, for two_ply.bind to write the kernel addresses without changing T's type
        # under a thread that is calling a kernel with it
        view = T.view()
        view.setflags(write=False)
        _T = view
    return _T
