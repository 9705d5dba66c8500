"""Timing loops for the king-threat micro-benchmark (core.threat_bench).

Each loop answers `reps` passes over a small array of states. The word that
changes the answer (the square, or the occupancy) is read with an atomic load:
a plain load of unchanging data lets LLVM hoist the whole query out of the loop,
and the benchmark would time an empty loop."""
import numpy as np
from numba import njit

from .analysis import king_zones
from .bits import atomic_load, popcnt
from .movegen import attacks_of, is_attacked

WORDS = 11            # a state's uint64 words, one row of `states`


@njit(cache=True)
def square_test_loop(T, states, squares, reps):
    """reps x len(squares) single-square tests (is the square attacked by the side not
    to move?); returns how many said yes, so the work cannot be dropped."""
    hits = 0
    n = squares.shape[0]
    for _ in range(reps):
        for i in range(n):
            sq = atomic_load(squares, i)
            r = states[i]
            if is_attacked(T, r[0], r[1], r[2], r[3], r[4], r[6] ^ r[5], sq, r[6]):
                hits += 1
    return hits


@njit(cache=True)
def king_zone_loop(T, states, reps):
    """reps x len(states) bulk king-zone passes (both sides' attack counts); returns the
    total attacker count on both zones, summed over all passes."""
    total = np.uint64(0)
    flat = states.reshape(-1)
    for _ in range(reps):
        for i in range(states.shape[0]):
            r = states[i]
            occ = atomic_load(flat, i * WORDS + 6)
            z = king_zones(T, (r[0], r[1], r[2], r[3], r[4], r[5], occ, r[7], r[8], r[9], r[10]))
            for k in range(5):
                total += popcnt(z[2 + k]) << np.uint64(k)
                total += popcnt(z[7 + k]) << np.uint64(k)
    return total


@njit(cache=True)
def attack_map_loop(T, states, reps):
    """reps x len(states) full attack maps of the side not to move (what a generator
    without per-square tests builds at every node); returns the xor of all maps."""
    acc = np.uint64(0)
    flat = states.reshape(-1)
    for _ in range(reps):
        for i in range(states.shape[0]):
            r = states[i]
            occ = atomic_load(flat, i * WORDS + 6)
            acc ^= attacks_of(T, r[0], r[1], r[2], r[3], r[4], occ ^ r[5], occ, False)
    return acc
