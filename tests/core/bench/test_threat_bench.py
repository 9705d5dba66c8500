"""The threat micro-benchmark answers correctly (checked with python-chess) and reports
a time for every scenario; how fast is never asserted."""
import math

import chess

from perftscope.core.bench.threats import SCENARIOS, format_threat_table, run_threat_bench, scenario_positions


def zone_attackers(board):
    total = 0
    for colour in (chess.WHITE, chess.BLACK):
        king = board.king(colour)
        for sq in chess.SquareSet(chess.BB_KING_ATTACKS[king]) | {king}:
            total += len(board.attackers(not colour, sq))
    return total


def test_every_scenario_answers_like_python_chess():
    rows = run_threat_bench(queries=2000, repeat=1)
    assert [r["scenario"] for r in rows] == [name for name, _, _ in SCENARIOS]
    for row, (name, fen, _) in zip(rows, SCENARIOS):
        boards = [chess.Board(p.fen()) for p in scenario_positions(name, fen)]
        assert row["positions"] == len(boards)
        assert row["king_attacked"] == sum(b.is_attacked_by(not b.turn, b.king(b.turn)) for b in boards), name
        assert row["zone_attackers"] == sum(zone_attackers(b) for b in boards), name
        for key in ("square_test_ns", "king_zone_ns", "attack_map_ns"):
            assert row[key] > 0 and math.isfinite(row[key])
    by_name = {r["scenario"]: r for r in rows}
    assert by_name["not-threatened"]["king_attacked"] == 0 and by_name["threatened"]["king_attacked"] == 1
    assert by_name["king-sweep"]["positions"] == 63
    assert 0 < by_name["king-sweep"]["king_attacked"] < 63
    table = format_threat_table(rows)
    assert all(name in table for name, _, _ in SCENARIOS) and table.count(" ns") >= 12
