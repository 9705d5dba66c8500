"""Where perft's time goes, for one position: interior generation and make, the leaf parents'
legality masks, their king tests and the rest of their counting, by timing staged walks
of the same tree and subtracting."""
from __future__ import annotations

import time

from .. import kernels
from ..kernels import perft as _k
from ..kernels.profile import STAGE_FULL, STAGE_KING, STAGE_MASKS, STAGE_NOTHING, staged_walk
from ..board.position import Position


def _best_time(fn, repeat):
    best = float("inf")
    for _ in range(repeat):
        start = time.thread_time()
        fn()
        best = min(best, time.thread_time() - start)
    return best


def profile_perft(pos: Position, depth: int, repeat: int = 3) -> dict:
    """A breakdown of perft(pos, depth) (depth >= 2), one thread, no hash table."""
    if depth < 2:
        raise ValueError("profiling needs depth 2 or more (leaf parents below an interior node)")
    T, s, buf = kernels.table(), pos.state(), _k.new_move_stack()
    counts = [int(_k.perft(T, s, d, buf)) for d in range(depth + 1)]
    leaves, leaf_parents = counts[depth], counts[depth - 1]
    interior = sum(counts[:depth - 1])
    staged_walk(T, s, 2, buf, 0, STAGE_FULL)          # compile or load first
    stage_times = [_best_time(lambda st=stage: staged_walk(T, s, depth, buf, 0, st), repeat)
                   for stage in (STAGE_NOTHING, STAGE_MASKS, STAGE_KING, STAGE_FULL)]
    total = _best_time(lambda: _k.perft(T, s, depth, buf), repeat)
    parts = [
        ("interior nodes: generate moves and make each child", stage_times[0]),
        ("leaf parents: checkers, evasion mask, pin rays", stage_times[1] - stage_times[0]),
        ("leaf parents: king destinations and castling", stage_times[2] - stage_times[1]),
        ("leaf parents: pawn, piece and en-passant counting", stage_times[3] - stage_times[2]),
    ]
    return {"fen": pos.fen(), "depth": depth, "leaves": leaves, "leaf_parents": leaf_parents,
            "interior_nodes": interior, "moves_per_leaf_parent": leaves / max(leaf_parents, 1),
            "perft_seconds": total, "nps": leaves / total,
            "ns_per_leaf_parent": total / max(leaf_parents, 1) * 1e9,
            "parts": [{"what": what, "seconds": max(sec, 0.0), "share": max(sec, 0.0) / stage_times[3]}
                      for what, sec in parts]}


def format_profile(p: dict) -> str:
    lines = [f"profile of perft depth {p['depth']} from {p['fen']}",
             f"  leaves {p['leaves']:,}   leaf parents {p['leaf_parents']:,}   interior nodes {p['interior_nodes']:,}",
             f"  moves counted per leaf-parent call {p['moves_per_leaf_parent']:.1f}   "
             f"{p['ns_per_leaf_parent']:.1f} ns per leaf parent   {p['nps'] / 1e6:,.0f} Mnps",
             f"  {'where the time goes':<54}{'seconds':>9}{'share':>8}"]
    for part in p["parts"]:
        lines.append(f"  {part['what']:<54}{part['seconds']:>9.3f}{part['share'] * 100:>7.1f}%")
    lines.append(f"  {'(perft itself, for reference)':<54}{p['perft_seconds']:>9.3f}")
    return "\n".join(lines)
