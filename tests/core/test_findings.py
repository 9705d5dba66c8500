"""Failure classes of what the finder finds, for suite --engine, fuzz and the Test-engine tab."""
from perftscope.core.mismatch.finder import find_mismatch
from perftscope.core.mismatch.findings import classify, investigate, merge
from perftscope.core.mismatch.fuzz import Fuzzer
from perftscope.core.engines.oracles import make_oracle
from perftscope.core.engines.pair import EnginePair


def test_a_chess960_castling_with_a_pinned_rook_is_a_castling_failure(engine_path):
    """In Chess960 a castling is written king takes rook (g1b1): still a castling, not a king move."""
    report = find_mismatch(make_oracle(f"perftree:{engine_path('c960_pinned_rook')}"), make_oracle("core"),
                           "r3k3/8/8/8/8/8/8/1R4K1 b B - 0 1", [], 3)
    assert report.extra == ["g1b1"] and "pinned along rank 1" in report.explanations["g1b1"]
    assert classify(report) == "castling-attack"



def test_findings_alike_are_merged_with_a_count(engine_path):
    # a position and its colour mirror shrink to the same minimal position and moves
    engine, core = make_oracle(f"perftree:{engine_path('ep_rank_pin')}"), make_oracle("core")
    found = [investigate(engine, core, fen, 2, shrink_calls=60)
             for fen in ("4k3/8/8/K2pP2r/8/8/8/8 w - d6 0 1", "8/8/8/8/k2Pp2R/8/8/4K3 b - d3 0 1",
                         "4k3/8/8/K2pP2q/8/8/8/8 w - d6 0 1")]
    assert found[0].example_fen == found[1].example_fen != found[2].example_fen
    kept: list = []
    assert [merge(kept, f) for f in found] == [found[0], found[0], found[2]]
    assert kept == [found[0], found[2]] and [f.count for f in kept] == [2, 1]
    assert found[0].to_json()["count"] == 2


def test_a_hanging_engine_is_a_timeout_finding_and_the_session_goes_on(engine_path):
    # hang_on_ep.py never answers where en passant is legal; 1 s per call, then it is killed
    fuzzer = Fuzzer(EnginePair.parse(f"perftree:{engine_path('hang_on_ep')}", "core", 1.0), seed=1, positions=16)
    engine = fuzzer.engine
    result = fuzzer.run()
    assert result.tested == 16 and len(result.findings) == 1
    hung = result.findings[0]
    assert hung.kind == "timeout" and hung.name.startswith("#13 ") and hung.path == []
    assert "no answer within 1 s" in hung.error
    assert engine.calls == 16                     # it was not asked (and waited for) again
