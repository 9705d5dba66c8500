"""Failure classes of what the finder finds, for suite --engine, fuzz and the Test-engine tab."""
import pytest

from perftscope.core.mismatch.finder import find_mismatch
from perftscope.core.errors import EngineTimeout
from perftscope.core.race.runner import CRASHED, HUNG
from perftscope.core.mismatch.findings import classify, investigate, merge, timeout_finding
from perftscope.core.mismatch.fuzz import Fuzzer, FuzzSettings
from perftscope.core.engines.oracles import make_oracle
from perftscope.core.engines.pair import EnginePair
from perftscope.core.engines.oracle import Request


def test_a_chess960_castling_with_a_pinned_rook_is_a_castling_failure(engine_path):
    """In Chess960 a castling is written king takes rook (g1b1): still a castling, not a king move."""
    report = find_mismatch(make_oracle(f"perftree:{engine_path('c960_pinned_rook')}"), make_oracle("core"),
                           Request.of("r3k3/8/8/8/8/8/8/1R4K1 b B - 0 1"), 3)
    assert report.extra == ["g1b1"] and "pinned along rank 1" in report.explanations["g1b1"]
    assert classify(report) == "castling-attack"



def test_findings_alike_are_merged_with_a_count(engine_path):
    # a position and its colour mirror shrink to the same minimal position and moves; a queen for
    # the rook, or the king and the slider changing sides of the pawns, is the same bug
    engine, core = make_oracle(f"perftree:{engine_path('ep_rank_pin')}"), make_oracle("core")
    found = [investigate(engine, core, Request.of(fen), 2, shrink_calls=60)
             for fen in ("4k3/8/8/K2pP2r/8/8/8/8 w - d6 0 1", "8/8/8/8/k2Pp2R/8/8/4K3 b - d3 0 1",
                         "4k3/8/8/K2pP2q/8/8/8/8 w - d6 0 1", "4k3/8/8/q2pP2K/8/8/8/8 w - d6 0 1")]
    assert found[0].example_fen == found[1].example_fen != found[2].example_fen != found[3].example_fen
    kept: list = []
    assert [merge(kept, f) for f in found] == [found[0]] * 4
    assert kept == [found[0]] and found[0].count == 4 and found[0].to_json()["count"] == 4
    # another bug of the same engine's class stays a row of its own: a rook for the queen is not a
    # bishop, nor a rank a diagonal
    other = investigate(make_oracle(f"perftree:{engine_path('ep_pinned_pawn')}"), core,
                        Request.of("4k3/4b3/8/2Pp4/8/K7/8/8 w - d6 0 2"), 1)
    assert other.kind == "ep-pinned" and merge(kept, other) is other and len(kept) == 2


def test_a_fuzz_session_gives_one_row_for_one_bug(engine_path):
    # seed 1041's first seven positions hold three en passants through a rank pin: black to move
    # with a queen, white with a queen on the other side, black with a rook, each already as small as
    # it gets (kings, two pawns, the slider): one bug, one row
    fuzzer = Fuzzer(EnginePair.parse(f"perftree:{engine_path('ep_rank_pin')}", "core"),
                    FuzzSettings(seed=1041, seconds=None, positions=7, depth=1, shrink_calls=0))
    result = fuzzer.run()
    assert [(f.kind, f.count) for f in result.findings] == [("ep-rank-pin", 3)]
    assert result.findings[0].summary().startswith("en passant through a rank pin: illegal ")


def test_a_missing_en_passant_by_a_pawn_pinned_along_a_diagonal_is_named_by_its_kind(engine_path):
    # the pawn on c5 is pinned to a3 by the bishop on e7; capturing d5 en passant keeps it on the line
    report = find_mismatch(make_oracle(f"perftree:{engine_path('ep_pinned_pawn')}"), make_oracle("core"),
                           Request.of("4k3/4b3/8/2Pp4/8/K7/8/8 w - d6 0 2"), 1)
    assert report.missing == ["c5d6"] and report.extra == []
    assert classify(report) == "ep-pinned"


def test_one_bug_reached_by_two_routes_is_one_finding_with_the_class_of_its_minimal_position(engine_path):
    # e8g8 is never generated: reached after a1a7 where e8c8 is (a route that once made it "castling
    # rights after a rook moves") and where no castle is; both shrink to the same position
    engine, core = make_oracle(f"perftree:{engine_path('no_kingside_castling')}"), make_oracle("core")
    found = [investigate(engine, core, Request.of(fen), 2, shrink_calls=60)
             for fen in ("r3k2r/8/8/8/8/8/8/R3K3 w Qkq - 0 1", "4k2r/8/8/8/8/8/8/R3K3 w Qk - 0 1")]
    assert [f.report.path for f in found] == [["a1a7"], ["a1a7"]]
    assert found[0].example_fen == found[1].example_fen == "4k3/8/8/8/8/8/8/4K2R w K - 0 1"
    assert [f.kind for f in found] == ["castling-missing", "castling-missing"]
    kept: list = []
    assert [merge(kept, f) for f in found] == [found[0], found[0]] and found[0].count == 2


def test_timeouts_merge_like_other_findings(engine_path):
    # hang_on_ep.py hangs wherever en passant is legal: two positions, one finding counted twice
    engine, _ = EnginePair.parse(f"perftree:{engine_path('hang_on_ep')}", "core", 1.0).make_both()
    kept: list = []
    for fen in ("7k/4b3/8/2Pp4/1K6/8/8/8 w - d6 0 1", "8/8/8/1k6/2pP4/8/4B3/7K b - d3 0 1"):
        with pytest.raises(EngineTimeout) as hung:
            engine.answer(Request.of(fen), 2)
        merge(kept, timeout_finding(engine, Request.of(fen), 2, hung.value))
    engine.close()
    assert len(kept) == 1 and kept[0].kind == "timeout" and kept[0].count == 2
    # one wording of a failure: the finding, the finder's report and a race heat all say "hung"
    hung = kept[0]
    assert hung.summary().startswith("timeout: the engine hung at the root (FEN 7k/4b3/8/2Pp4/1K6/8/8/8 w - d6 0 1)")
    assert hung.report.failure.word == "hung" and hung.report.error.startswith("hang_on_ep.py hung at the root")
    assert HUNG == "hung" and CRASHED == "crashed"


def test_a_hanging_engine_is_a_timeout_finding_and_the_session_goes_on(engine_path):
    # hang_on_ep.py never answers where en passant is legal; 1 s per call, then it is killed
    fuzzer = Fuzzer(EnginePair.parse(f"perftree:{engine_path('hang_on_ep')}", "core", 1.0),
                    FuzzSettings(seed=1, seconds=None, positions=16))
    engine = fuzzer.engine
    result = fuzzer.run()
    assert result.tested == 16 and len(result.findings) == 1
    hung = result.findings[0]
    assert hung.kind == "timeout" and hung.name.startswith("#13 ") and hung.path == []
    assert "no answer within 1 s" in hung.error
    assert engine.calls == 16                     # it was not asked (and waited for) again


KIWIPETE = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"
CASTLES = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1"


@pytest.mark.parametrize("planted, fen, depth, kind, said", [
    # no castling move at all: not "castling through or into attack"
    ("never_castles", CASTLES, 3, "castling-missing",
     "castling not generated: not generated e1g1 (castling king-side); not generated e1c1 (castling queen-side)"),
    # the rook left in its corner: not "the king walking into attack" (the king's moves are what shows it)
    ("castle_rook_stays", CASTLES, 3, "castling-rook", "castling moves the rook wrong: illegal e1d2 "),
    ("castle_rook_stays", KIWIPETE, 3, "castling-rook", "castling moves the rook wrong: illegal c3d1 "),
    # once, where four promotions are legal: a finding about the engine, not an error
    ("queen_promotions_bare", "8/1P6/8/8/8/8/k7/7K w - - 0 1", 2, "promotion",
     "promotions: b7b8 printed without its piece; b7b8q, b7b8r, b7b8b, b7b8n are legal"),
])
def test_classes_are_decided_from_what_differs(engine_path, planted, fen, depth, kind, said):
    finding = investigate(make_oracle(f"perftree:{engine_path(planted)}"), make_oracle("core"), Request.of(fen), depth)
    assert finding.kind == kind and finding.summary().startswith(said), finding.summary()


def test_crash_only_for_a_process_that_died(engine_path):
    core = make_oracle("core")
    # a row listed twice: an answer that cannot be read
    dup = investigate(make_oracle(f"uci:{engine_path('uci_duplicates')}"), core, Request.of(KIWIPETE[:-1] + "60"), 2)
    assert dup.kind == "unreadable" and dup.label == "answer that cannot be read"
    assert "listed twice" in dup.summary() and "crash" not in dup.summary()
    # the same promotion row four times: ambiguous, unreadable
    four = (f"cmd:{engine_path('formats')} bare_promo {engine_path('correct')} {{depth}} {{fen}} {{moves}}")
    ambiguous = investigate(make_oracle(four), core, Request.of("8/1P6/8/8/8/8/k7/7K w - - 0 1"), 1)
    assert ambiguous.kind == "unreadable" and "ambiguous promotion b7b8" in ambiguous.summary()
    # the process dying: crash
    crash = investigate(make_oracle(f"perftree:{engine_path('node_crash')}"), core,
                        Request.of("8/8/8/8/k3p2Q/8/3P4/3K4 w - - 0 1"), 2)
    assert crash.kind == "crash" and crash.engine_failed


def test_a_failure_is_worded_and_labelled_by_the_one_table():
    from perftscope.core.errors import EngineError
    from perftscope.core.mismatch.failures import ENGINE_FAILED, FAILURE_KINDS, Failure, finding_kind
    from perftscope.core.mismatch.findings import CLASSES
    assert all(CLASSES[kind] == FAILURE_KINDS[kind].label for kind in ENGINE_FAILED)
    # an engine under test failing otherwise than a call breaking off: one class, wherever it is met
    failed = Failure.of(EngineError("mine.sh: cannot be started"), "mine.sh", "at the root")
    assert (failed.kind, failed.finding_kind, finding_kind("error")) == ("error", "unreadable", "unreadable")
    assert failed.message == "mine.sh failed at the root: cannot be started"
