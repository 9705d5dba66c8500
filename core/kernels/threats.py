"""Timing loops for the king-threat micro-benchmark (core.bench.threats).

Each loop answers `reps` passes over a small set of states, stored one after the
other in a flat uint64 array (WORDS words each). The word that changes the answer
(the square, or the occupancy) is read with an atomic load: a plain load of
unchanging data lets LLVM hoist the whole query out of the loop, and the benchmark
would time an empty loop. Compiled without NRT like the generator, so no reference
counting of the table is timed."""
import numpy as np
from numba import njit

from .cache import CACHE
from .overlay_masks import king_zones
from .bits import atomic_load, popcnt
from .movegen import attacks_of, is_attacked

WORDS = 11            # a state's uint64 words, one row of `states`


@njit(cache=CACHE, _nrt=False)
def square_test_loop(T, flat, squares, reps):
    """reps x len(squares) single-square tests (is the square attacked by the side not
    to move?); returns how many said yes, so the work cannot be dropped."""
    hits = 0
    for _ in range(reps):
        for i in range(squares.shape[0]):
            sq = atomic_load(squares, i)
            b = i * WORDS
            occ = flat[b + 6]
            if is_attacked(T, flat[b], flat[b + 1], flat[b + 2], flat[b + 3], flat[b + 4], occ ^ flat[b + 5], sq, occ):
                hits += 1
    return hits


@njit(cache=CACHE, _nrt=False)
def king_zone_loop(T, flat, n, reps):
    """reps x n bulk king-zone passes (both sides' attack counts); returns the total
    attacker count on both zones, summed over all passes."""
    total = np.uint64(0)
    for _ in range(reps):
        for i in range(n):
            b = i * WORDS
            occ = atomic_load(flat, b + 6)
            z = king_zones(T, (flat[b], flat[b + 1], flat[b + 2], flat[b + 3], flat[b + 4], flat[b + 5], occ,
                               flat[b + 7], flat[b + 8], flat[b + 9], flat[b + 10]))
            for k in range(5):
                total += popcnt(z[2 + k]) << np.uint64(k)
                total += popcnt(z[7 + k]) << np.uint64(k)
    return total


@njit(cache=CACHE, _nrt=False)
def attack_map_loop(T, flat, n, reps):
    """reps x n full attack maps of the side not to move (what a generator without
    per-square tests builds at every node); returns the xor of all maps."""
    acc = np.uint64(0)
    for _ in range(reps):
        for i in range(n):
            b = i * WORDS
            occ = atomic_load(flat, b + 6)
            acc ^= attacks_of(T, flat[b], flat[b + 1], flat[b + 2], flat[b + 3], flat[b + 4], occ ^ flat[b + 5],
                              occ, False)
    return acc
