"""Points numba's on-disk cache at core.kernel_cache.CACHE_DIR (where compiled kernels are kept,
and in which slider mode they are built: known there without importing numba), or, when that
folder cannot be written, says so once on stderr and has every kernel compiled in memory.
Every kernel is decorated with `cache=CACHE`, so this runs first.

The kernels' files are found in that folder by their content, not by where they are: numba keys
its cache on the folder a source file sits in, so another checkout of the same sources, or the
same version installed in another environment, would compile every kernel again (minutes on a
slow host) although CACHE_DIR is already keyed on exactly those sources.

A cached kernel is loaded without numba's registries of implementations: numba installs all of
them (its typing and lowering of every numpy, math and container function, some 250 templates)
before its first cache load, a third of a warm `divide -d 1`'s CPU, though a load only maps
machine code and its runtime. A compile installs them itself (numba's compiler refreshes both
contexts first), so a kernel missing from the cache still compiles as before.
"""
import functools
import hashlib
import os
import sys
from pathlib import Path

import numba
from numba.core import caching
from numba.core.runtime import rtsys

from ..kernel_cache import CACHE_DIR, HAS_BMI2, SLIDER_MODE, cannot_write, is_new  # noqa: F401

_new = is_new(CACHE_DIR)
_problem = cannot_write(CACHE_DIR)
# Every kernel is @njit(cache=CACHE). Without a cache numba would write next to the sources,
# keyed on each file alone (stale code after an edit in another file) and often not writable
# either: when ours cannot be written, the kernels are compiled in memory for this process.
CACHE = _problem is None
_HERE = Path(__file__).resolve().parent


@functools.lru_cache(maxsize=None)
def _content(path: str, mtime_ns: int, size: int) -> str:
    with open(path, "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()


class _ByContent(caching.UserProvidedCacheLocator):
    """numba's locator for a kernel of this folder: its cache files in CACHE_DIR/kernels wherever
    the sources are, fresh while the file's content is the same (numba before 0.68 compared the
    file's modification time, which a reinstall or a checkout changes)."""

    def __init__(self, py_func, py_file):
        super().__init__(py_func, py_file)
        self._cache_path = str(CACHE_DIR / "kernels")

    def get_source_stamp(self):
        st = os.stat(self._py_file)
        return _content(self._py_file, st.st_mtime_ns, st.st_size)

    @classmethod
    def from_function(cls, py_func, py_file):
        try:
            if Path(py_file).resolve().parent != _HERE:
                return None                  # not one of ours: numba's own locators decide
        except OSError:
            return None
        return super().from_function(py_func, py_file)


_load_with_registries = caching.Cache.load_overload


def _load_overload(self, sig, target_context):
    """numba's Cache.load_overload for one of our kernels, less its target_context.refresh():
    the runtime (NRT: kernels that return arrays allocate) is all a loaded kernel needs."""
    if not isinstance(getattr(getattr(self, "_impl", None), "locator", None), _ByContent):
        return _load_with_registries(self, sig, target_context)
    rtsys.initialize(target_context)
    with self._guard_against_spurious_io_errors():
        return self._load_overload(sig, target_context)


if CACHE:
    numba.config.CACHE_DIR = str(CACHE_DIR)      # before any kernel below is decorated
    caching.CacheImpl._locator_classes.insert(0, _ByContent)
    caching.Cache.load_overload = _load_overload
    if _new and sys.stderr.isatty():
        # the first run compiles (seconds): say so rather than seem to hang
        print("perftscope: compiling the move generator for this CPU (first run only)...",
              file=sys.stderr, flush=True)
else:
    print(f"perftscope: the compile cache {CACHE_DIR} cannot be written ({_problem}): the kernels are "
          "compiled in memory for this process only (set PERFTSCOPE_CACHE to a writable folder)",
          file=sys.stderr, flush=True)
