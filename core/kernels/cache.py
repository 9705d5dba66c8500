"""Points numba's on-disk cache at core.kernel_cache.CACHE_DIR (where compiled kernels are kept,
and in which slider mode they are built: known there without importing numba), or, when that
folder cannot be written, says so once on stderr and has every kernel compiled in memory.
Every kernel is decorated with `cache=CACHE`, so this runs first.
"""
import sys

import numba

from ..kernel_cache import CACHE_DIR, HAS_BMI2, SLIDER_MODE, cannot_write, is_new  # noqa: F401

_new = is_new(CACHE_DIR)
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
