"""Slider attacks, by PEXT or by magic multiplication (picked once, at import)."""
import numpy as np
from numba import njit

from .cache import CACHE, SLIDER_MODE
from .bits import at, pext
from .tables import BISHOP_MAGIC, BISHOP_MASK, BISHOP_OFF, BISHOP_SHIFT, FILE_ATT, FILE_MASK, RANK_ATT, RANK_MASK, \
    ROOK_MAGIC, ROOK_MASK, ROOK_OFF, ROOK_SHIFT

if SLIDER_MODE == "pext":
    @njit(cache=CACHE, _nrt=False)
    def rook_attacks(T, sq, occ):
        # rank and file apart: two lookups in 64 KB rather than one in 800 KB
        base = sq * 64
        return (at(T, RANK_ATT + base + np.int64(pext(occ, at(T, RANK_MASK + sq))))
                | at(T, FILE_ATT + base + np.int64(pext(occ, at(T, FILE_MASK + sq)))))

    @njit(cache=CACHE, _nrt=False)
    def bishop_attacks(T, sq, occ):
        return at(T, np.int64(at(T, BISHOP_OFF + sq)) + np.int64(pext(occ, at(T, BISHOP_MASK + sq))))
else:
    @njit(cache=CACHE, _nrt=False)
    def rook_attacks(T, sq, occ):
        idx = ((occ & T[ROOK_MASK + sq]) * T[ROOK_MAGIC + sq]) >> T[ROOK_SHIFT + sq]
        return T[np.int64(T[ROOK_OFF + sq]) + np.int64(idx)]

    @njit(cache=CACHE, _nrt=False)
    def bishop_attacks(T, sq, occ):
        idx = ((occ & T[BISHOP_MASK + sq]) * T[BISHOP_MAGIC + sq]) >> T[BISHOP_SHIFT + sq]
        return T[np.int64(T[BISHOP_OFF + sq]) + np.int64(idx)]
