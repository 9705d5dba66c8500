"""The perft transposition table, shared by every worker without a lock.

An entry is two uint64: `key ^ data` and `data`, where data = count << 6 | depth.
Four entries make a 64-byte bucket (one cache line); a position's bucket is
`key & bucket_mask`. A read probes all four entries and accepts one only if
`word0 ^ word1` gives back the key and the depth matches, so a write torn by
another thread (word0 of one store, word1 of another) reads as a miss, never as
a wrong count. A store takes an empty entry, or the one already holding this
key and depth, or else replaces the entry with the smallest count: big subtrees
are the expensive ones to recompute.

The table is a flat uint64 array of 2 * entries words whose first word sits on
a 64-byte boundary (see `new_table`)."""
import mmap

import numpy as np
from numba import njit

from .cache import CACHE
from ..limits import TABLE_DEPTH_BITS as DEPTH_BITS, TABLE_ENTRY_BYTES as ENTRY_BYTES, \
    TABLE_MIN_EXP as MIN_EXP  # noqa: F401  (the pool and the cluster read the smallest table here)

DEPTH_MASK = np.uint64((1 << DEPTH_BITS) - 1)
MAX_COUNT = np.uint64((1 << (64 - DEPTH_BITS)) - 1)   # larger counts are not stored
ENTRY_WORDS = ENTRY_BYTES // 8
BUCKET_ENTRIES = 4
BUCKET_WORDS = ENTRY_WORDS * BUCKET_ENTRIES
HUGE_PAGE = 2 << 20

# what `store` did
STORED_EMPTY, STORED_REPLACED, STORED_REFRESHED = 0, 1, 2


def aligned_zeros(words: int, align: int = 64) -> np.ndarray:
    """A zeroed uint64 array of `words` elements starting on an `align`-byte boundary."""
    raw = np.zeros(words + align // 8, np.uint64)
    skip = (-raw.ctypes.data % align) // 8
    return raw[skip:skip + words]


def new_table(exp: int) -> np.ndarray:
    """An empty table of 2^exp entries (exp >= MIN_EXP).

    A big table is its own anonymous mapping (page-aligned, zero, given back to the
    system when the array goes), with huge pages asked for: first-touch page faults
    of a 256 MB np.zeros cost over a second here, several times the mapping's."""
    nbytes = ENTRY_BYTES << exp
    if nbytes < HUGE_PAGE:
        return aligned_zeros(ENTRY_WORDS << exp)
    # private: a shared anonymous mapping (mmap's default) is shmem, which gets huge
    # pages only if the system enables them for shmem (Debian does not), so the advice
    # below was silently ignored and every probe paid a TLB miss
    m = mmap.mmap(-1, nbytes, flags=mmap.MAP_PRIVATE | mmap.MAP_ANONYMOUS)
    if hasattr(mmap, "MADV_HUGEPAGE"):
        try:
            m.madvise(mmap.MADV_HUGEPAGE)
        except OSError:
            pass                    # only advice: a kernel without THP still works
    return np.frombuffer(m, np.uint64)


def bucket_mask(table: np.ndarray) -> int:
    return table.shape[0] // BUCKET_WORDS - 1


def filled_entries(table: np.ndarray) -> int:
    """Entries holding something (exact: scans the whole table)."""
    return int(np.count_nonzero(table[1::2]))


@njit(cache=CACHE, _nrt=False, forceinline=True)
def bucket_of(key, mask):
    """Index of the first word of key's bucket."""
    return np.int64(key & np.uint64(mask)) * BUCKET_WORDS


@njit(cache=CACHE, _nrt=False, forceinline=True)
def probe(H, mask, key, depth):
    """The stored count for (key, depth), or -1."""
    b = bucket_of(key, mask)
    d = np.uint64(depth)
    for w in range(b, b + BUCKET_WORDS, ENTRY_WORDS):
        data = H[w + 1]
        if (H[w] ^ data) == key and (data & DEPTH_MASK) == d:
            return np.int64(data >> np.uint64(DEPTH_BITS))
    return np.int64(-1)


@njit(cache=CACHE, _nrt=False, forceinline=True)
def store(H, mask, key, depth, count):
    """Remember count for (key, depth); returns STORED_EMPTY, _REPLACED or _REFRESHED."""
    b = bucket_of(key, mask)
    d = np.uint64(depth)
    victim = b
    smallest = MAX_COUNT
    how = STORED_REPLACED
    for w in range(b, b + BUCKET_WORDS, ENTRY_WORDS):
        data = H[w + 1]
        if data == 0:
            victim = w
            how = STORED_EMPTY
            break
        if (H[w] ^ data) == key and (data & DEPTH_MASK) == d:
            victim = w                               # another worker got here first
            how = STORED_REFRESHED
            break
        c = data >> np.uint64(DEPTH_BITS)
        if c < smallest:
            smallest = c
            victim = w
    data = (count << np.uint64(DEPTH_BITS)) | d
    H[victim] = key ^ data
    H[victim + 1] = data
    return how
