"""Compile (or load from the cache) every kernel the window calls, before the window needs it.

numba compiles a kernel on its first call; with an empty cache that is tens of seconds
spread over the first FEN parsed, the first overlay and the first perft, which then looks
hung and counts the compile in its time. `warm` makes those first calls itself, on a tiny
position, one step at a time so a splash screen or a terminal line can say how far it is.
With a warm cache the whole thing is a few hundred milliseconds of cache loading.
"""
from __future__ import annotations

import time
from collections.abc import Callable

MESSAGE = "preparing the move generator for this CPU (first run only)…"


def _parse():
    from perftscope.core.board.position import START_FEN, Position
    pos = Position.from_fen(START_FEN)
    pos.push("e2e4").legal_moves()


def _analysis():
    from perftscope.core.board.analysis import analyze, explain_move
    from perftscope.core.board.position import Position
    pos = Position.from_fen("4k3/8/8/2pP4/8/8/8/4K2R w K c6 0 1")
    analyze(pos)
    explain_move(pos, "e1e2")


def _perft():
    from perftscope.core.counting.perft import divide, perft
    from perftscope.core.board.position import START_FEN, Position
    pos = Position.from_fen(START_FEN)
    perft(pos, 3)
    divide(pos, 2)


def _pool():
    from perftscope.core.counting.pool import perft
    from perftscope.core.board.position import START_FEN, Position
    pos = Position.from_fen(START_FEN)
    perft(pos, 4, workers=1)                     # the run panel's kernels, without a table
    perft(pos, 4, workers=1, hash_exp=16)        # and with one
    perft(pos, 3, workers=1, divide=True)


STEPS: tuple[tuple[str, Callable[[], None]], ...] = (
    ("positions and legal moves", _parse),
    ("analysis overlays", _analysis),
    ("perft and divide", _perft),
    ("the parallel perft pool", _pool),
)


def cache_is_warm() -> bool:
    """True when the kernels' cache directory exists: loading from it takes well under a second."""
    from perftscope.core import kernels
    return kernels.CACHE_DIR.exists() and any(kernels.CACHE_DIR.rglob("*.nbi"))


def warm(progress: Callable[[int, int, str], None] = lambda done, total, label: None) -> float:
    """Run every step; progress(done, total, label) before each and once at the end.
    Returns the seconds it took."""
    start = time.perf_counter()
    for i, (label, step) in enumerate(STEPS):
        progress(i, len(STEPS), label)
        step()
    progress(len(STEPS), len(STEPS), "ready")
    return time.perf_counter() - start
