"""The pool's perft: hashed, cancellable, reporting live counters, run by worker
threads without the GIL.

A run is a list of work items (positions a few plies below the root, all with
the same remaining depth). Each worker calls `run_worker` once: it takes the
next item from a shared counter with an atomic add, counts it, writes the count
into `out[item]`, and goes on until the items run out or the stop flag is set.
Nothing here allocates: each worker brings its own move stack.

Live counters: every worker owns a slot of SLOT int64 in `ctr` (64 bytes, so two
workers never write the same cache line) and bumps them as it goes; another
thread may read them at any moment. The stop flag is read with an atomic load
at every interior node: a plain load would be hoisted out of the recursion.

The table is probed only at remaining depth >= min_depth: below that a subtree
is cheaper to recount than a cache miss is to pay (see docs/BENCHMARKS.md).
Pass a min_depth above the run's depth to run without a table."""
import numpy as np
from numba import njit, types

from .cache import CACHE
from .bits import atomic_add, atomic_load, prefetch
from .board import CASTLING, make
from .expand import row_state
from .hashtable import MAX_COUNT, STORED_EMPTY, STORED_REPLACED, bucket_of, probe, store
from .movegen import count_moves, generate_moves
from .perft import MAX_MOVES, MOVES, STATE, TABLE, _perft

# counter slot layout; PROBES_AT + d and HITS_AT + d count the table's probes and hits
# at remaining depth d (d < DEPTHS; deeper ones are counted at DEPTHS - 1)
NODES, PROBES, HITS, STORES, REPLACEMENTS, FILLS, ITEMS = range(7)
DEPTHS = 16
PROBES_AT = 8
HITS_AT = PROBES_AT + DEPTHS
SLOT = HITS_AT + DEPTHS                # 320 bytes: whole cache lines, never shared by two workers

DEFAULT_MIN_DEPTH = 2
NO_TABLE = 1 << 30                 # a min_depth no run reaches

HASH = types.Array(types.uint64, 1, "C")
COUNTERS = types.Array(types.int64, 1, "C")
FLAG = types.Array(types.int64, 1, "C")


@njit(cache=CACHE, _nrt=False, forceinline=True)
def remember(H, mask, key, depth, total, ctr, slot, stop):
    """Store a finished subtree's count, and count what the store did."""
    # a stopped subtree's count is partial: never remember it
    if total > MAX_COUNT or atomic_load(stop, 0):
        return
    how = store(H, mask, key, depth, total)
    ctr[slot + STORES] += 1
    if how == STORED_REPLACED:
        ctr[slot + REPLACEMENTS] += 1
    elif how == STORED_EMPTY:
        ctr[slot + FILLS] += 1


@njit(cache=CACHE, _nrt=False, forceinline=True)
def take_item(next_item, n, stop):
    """Index of the next work item from the shared queue head, or -1 when the items
    are gone or the run is stopped."""
    if atomic_load(stop, 0):
        return -1
    i = atomic_add(next_item, 0, 1)
    return i if i < n else -1


@njit(types.uint64(TABLE, STATE, types.int64, MOVES, types.int64, HASH, types.int64,
                   types.int64, COUNTERS, types.int64, FLAG), cache=CACHE, _nrt=False)
def _search(T, s, depth, buf, ply, H, mask, min_depth, ctr, slot, stop):
    # depth >= 2 here, as in core.kernels.perft._perft
    if atomic_load(stop, 0):
        return np.uint64(0)
    hashed = depth >= min_depth
    if hashed:
        at = min(depth, DEPTHS - 1)
        ctr[slot + PROBES] += 1
        ctr[slot + PROBES_AT + at] += 1
        hit = probe(H, mask, s[9], depth)
        if hit >= 0:
            ctr[slot + HITS] += 1
            ctr[slot + HITS_AT + at] += 1
            ctr[slot + NODES] += hit
            return np.uint64(hit)
    if depth == 2:
        # the leaf parents' bulk count is the plain perft's own
        total = _perft(T, s, 2, buf, ply)
        ctr[slot + NODES] += np.int64(total)
        if hashed:
            remember(H, mask, s[9], depth, total, ctr, slot, stop)
        return total
    base = ply * MAX_MOVES
    end = generate_moves(T, s, buf, base)
    total = np.uint64(0)
    if depth - 1 >= min_depth:
        # every child's bucket is requested before the first is probed, so that their
        # cache misses overlap one another (the child is built twice: the first make
        # reduces to its key once inlined)
        for i in range(base, end):
            prefetch(H, bucket_of(make(T, s, buf[i])[9], mask))
    for i in range(base, end):
        total += _search(T, make(T, s, buf[i]), depth - 1, buf, ply + 1, H, mask, min_depth,
                         ctr, slot, stop)
    if hashed:
        remember(H, mask, s[9], depth, total, ctr, slot, stop)
    return total


@njit(nogil=True, cache=CACHE, _nrt=False)
def run_worker(T, items, depth, out, next_item, buf, H, mask, min_depth, ctr, slot, stop):
    """Count items (rows of 11 uint64) until none are left or stop[0] is set, hashed and
    interruptible (a stopped item counts 0: check the flag). next_item[0] is the shared
    queue head; out[i] receives item i's count. (One function: each jitted function is
    compiled with all it calls linked in, so a helper between this and _search would
    compile the generator once more.)"""
    i = take_item(next_item, items.shape[0], stop)
    while i >= 0:
        s = row_state(items, i)
        if depth <= 0:
            n = np.uint64(1)
        elif depth == 1:
            n = count_moves(T, s, CASTLING)
        else:
            n = _search(T, s, depth, buf, 0, H, mask, min_depth, ctr, slot, stop)
        if depth <= 1:
            ctr[slot + NODES] += np.int64(n)
        out[i] = n
        ctr[slot + ITEMS] += 1
        i = take_item(next_item, items.shape[0], stop)
