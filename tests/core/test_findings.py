"""Failure classes of what the finder finds, for suite --engine, fuzz and the Test-engine tab."""
from perftscope.core.mismatch.finder import find_mismatch
from perftscope.core.mismatch.findings import classify
from perftscope.core.engines.oracles import make_oracle


def test_a_chess960_castling_with_a_pinned_rook_is_a_castling_failure(engine_path):
    """In Chess960 a castling is written king takes rook (g1b1): still a castling, not a king move."""
    report = find_mismatch(make_oracle(f"perftree:{engine_path('c960_pinned_rook')}"), make_oracle("core"),
                           "r3k3/8/8/8/8/8/8/1R4K1 b B - 0 1", [], 3)
    assert report.extra == ["g1b1"] and "pinned along rank 1" in report.explanations["g1b1"]
    assert classify(report) == "castling-attack"

