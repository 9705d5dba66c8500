"""State bugs traced to the move that breaks them: an engine whose make forgets to clear a
castling right when its rook is captured, found by the finder, bisected to the capture and named
by the FEN one field away that it counts like."""
from pathlib import Path

import pytest

from perftscope.core.engines.oracles import make_oracle
from perftscope.core.mismatch.findings import investigate
from perftscope.core.mismatch.finder import find_mismatch
from perftscope.core.mismatch.state_trace import trace_state

ENGINES = Path(__file__).parent.parent / "engines"
# black's bishop takes the a1 rook, the b1 rook takes it back on a1: white has no right left,
# but an engine that keeps 'Q' castles e1c1 with the new rook
CAPTURED_CORNER = "4k3/8/8/8/8/8/1b6/RR2K3 b Q - 0 1"
PLANTED = "rook_capture_keeps_right"


@pytest.fixture(scope="module")
def core():
    return make_oracle("core")


def test_a_make_that_keeps_a_captured_rooks_right_is_traced_to_the_capture(core, engine_path):
    engine = make_oracle(f"perftree:{engine_path(PLANTED)}")
    report = find_mismatch(engine, core, CAPTURED_CORNER, [], 4)
    assert report.extra == ["e1c1"] and report.path[:2] == ["b2a1", "b1a1"]
    trace = report.state_trace
    assert (trace.move, trace.index, trace.field) == ("b2a1", 0, "castling rights")
    assert trace.true_fen == "4k3/8/8/8/8/8/8/bR2K3 w - - 0 2"
    assert trace.like_fen == "4k3/8/8/8/8/8/8/bR2K3 w Q - 0 2"
    assert trace.sentence(engine.name) == (
        f"after b2a1 (move 1 of the path) {PLANTED}.py's position counts like "
        f"`4k3/8/8/8/8/8/8/bR2K3 w Q - 0 2` (castling rights Q; the true position has none)")
    # one engine call per level still; the trace's own calls are counted apart
    assert report.engine_calls == len(report.levels) and report.trace_calls >= 2


def test_an_engine_that_prints_only_totals_is_traced_too(core, engine_path):
    totals = make_oracle(f"cmd:{ENGINES / 'formats.py'} totals {ENGINES / PLANTED}.py {{depth}} {{fen}} {{moves}}")
    # from after the recapture (moves given, so the path still holds them): fewer totals to ask,
    # each a process reprinting another's answer
    report = find_mismatch(totals, core, CAPTURED_CORNER, ["b2a1", "b1a1"], 2)
    assert report.totals_only and report.note
    trace = report.state_trace
    assert (trace.move, trace.like_fen) == ("b2a1", "4k3/8/8/8/8/8/8/bR2K3 w Q - 0 2")


def test_a_wrong_move_list_whatever_the_route_is_no_state_bug(core, engine_path):
    engine = make_oracle(f"perftree:{engine_path('ep_rank_pin')}")
    report = find_mismatch(engine, core, "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", [], 3)
    assert report.extra and report.state_trace is None
    assert report.trace_calls == 1          # its own FEN answers the same: nothing to trace
    assert trace_state(engine, report.root_fen, [], 1) is None


def test_a_count_that_depends_on_the_search_order_says_so(core, engine_path):
    kiwipete = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"
    report = find_mismatch(make_oracle(f"perftree:{engine_path('inconsistent')}"), core, kiwipete, [], 2)
    assert report.state_trace is None
    assert report.note.endswith("asked as the root FEN + the moves and as this position's own FEN it "
                                "answers alike, so what it depends on is the moves searched before this "
                                "one (state an unmake does not restore, or a hash table collision)")


def test_the_finding_carries_the_trace(core, engine_path):
    engine = make_oracle(f"perftree:{engine_path(PLANTED)}")
    finding = investigate(engine, core, CAPTURED_CORNER, 4)
    assert finding.kind == "castling-rights"
    assert finding.summary().endswith("after b2a1 (move 1 of the path) the engine's position counts like "
                                      "`4k3/8/8/8/8/8/8/bR2K3 w Q - 0 2` (castling rights Q; the true "
                                      "position has none)")
