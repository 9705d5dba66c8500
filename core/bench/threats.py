"""King-threat micro-benchmark: what one attack query costs, in nanoseconds.

Four scenarios engine authors use: the king not threatened, the king in check, the
king swept over every square of a middlegame board, and a board full of queens.
Each is timed for the generator's single-square test (movegen.is_attacked, asked
about the king's square), the bulk king-zone pass (both sides' attack counts on
both zones, core.kernels.overlay_masks.king_zones) and, for scale, the full attack map
of the opponent (movegen.attacks_of). The clock runs around a jitted loop of many
queries; the best of `repeat` runs counts.

    >>> print(format_threat_table(run_threat_bench()))
"""
from __future__ import annotations

import time

import numpy as np

from .. import kernels
from ..kernels.threats import attack_map_loop, king_zone_loop, square_test_loop
from ..board.position import Position

KIWIPETE = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"
SCENARIOS = (
    ("not-threatened", KIWIPETE, "Kiwipete, white king e1 not attacked"),
    ("threatened", "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
     "chessprogramming position 4: white king g1 in check from the bishop on b6"),
    ("king-sweep", KIWIPETE, "Kiwipete with the white king put on each square not holding the black king"),
    ("many-queens", "R6R/3Q4/1Q4Q1/4Q3/2Q4Q/Q4Q2/pp1Q4/kBNN1KB1 b - - 0 1",
     "the 218-move position with black to move: nine white queen-like sliders round the black king"),
)


def _row(pos: Position) -> np.ndarray:
    return np.array([int(x) for x in pos.state()], np.uint64)


def _king_sweep(fen: str) -> list[Position]:
    """The position with our king moved to every square but the enemy king's (whatever
    stood there is removed)."""
    base = Position.from_fen(fen)
    king = "K" if base.white_to_move else "k"
    out = []
    for sq in range(64):
        if base.board[sq] in ("k", "K") and base.board[sq] != king:
            continue
        board = ["" if p == king else p for p in base.board]
        board[sq] = king
        out.append(Position(tuple(board), base.white_to_move, "", None))
    return out


def scenario_positions(name: str, fen: str) -> list[Position]:
    return _king_sweep(fen) if name == "king-sweep" else [Position.from_fen(fen)]


def _best_seconds(fn, repeat: int) -> float:
    best = float("inf")
    for _ in range(max(1, repeat)):
        start = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - start)
    return best


def run_threat_bench(queries: int = 1_000_000, repeat: int = 3) -> list[dict]:
    """One row per scenario: ns per single-square test, per bulk king-zone pass and per
    full attack map, with the answers (so a caller can check them)."""
    T = kernels.table()
    rows = []
    for name, fen, note in SCENARIOS:
        positions = scenario_positions(name, fen)
        states = np.stack([_row(p) for p in positions])
        flat = np.ascontiguousarray(states.reshape(-1))
        # kernel coordinates: the king's square as the side to move sees it
        squares = np.array([int(s[4] & s[5]).bit_length() - 1 for s in states], np.int64)
        n = len(positions)
        reps = max(1, queries // n)
        zone_reps = max(1, reps // 10)              # a king-zone pass costs more than ten square tests
        # the first calls compile (or load from the cache) before any clock starts
        hits = square_test_loop(T, flat, squares, 1)
        zone_attackers = int(king_zone_loop(T, flat, n, 1))
        attack_map_loop(T, flat, n, 1)
        square_s = _best_seconds(lambda: square_test_loop(T, flat, squares, reps), repeat)
        zone_s = _best_seconds(lambda: king_zone_loop(T, flat, n, zone_reps), repeat)
        map_s = _best_seconds(lambda: attack_map_loop(T, flat, n, zone_reps), repeat)
        rows.append({
            "scenario": name, "fen": fen, "note": note, "positions": n,
            "king_attacked": hits, "zone_attackers": zone_attackers,
            "square_test_ns": square_s / (reps * n) * 1e9,
            "king_zone_ns": zone_s / (zone_reps * n) * 1e9,
            "attack_map_ns": map_s / (zone_reps * n) * 1e9,
            "queries": reps * n,
        })
    return rows


def format_threat_table(rows: list[dict]) -> str:
    """The rows as a text table, nanoseconds per query."""
    head = f"{'scenario':<16}{'positions':>10}{'king hit':>10}{'square test':>13}{'king zones':>12}{'attack map':>12}"
    lines = [head, "-" * len(head)]
    for r in rows:
        lines.append(f"{r['scenario']:<16}{r['positions']:>10}{r['king_attacked']:>10}"
                     f"{r['square_test_ns']:>10.1f} ns{r['king_zone_ns']:>9.1f} ns{r['attack_map_ns']:>9.1f} ns")
    lines.append("square test: is the king's square attacked (early exit); king zones: attacker counts on "
                 "both kings' zones in one bulk pass; attack map: the opponent's full attack set")
    return "\n".join(lines)
