"""State bugs traced to the move that breaks them: an engine whose make forgets to clear a
castling right when its rook is captured, found by the finder, bisected to the capture and named
by the FEN one field away that it counts like."""
from pathlib import Path

import pytest

from perftscope.core.engines.oracles import make_oracle
from perftscope.core.mismatch.findings import classify, investigate
from perftscope.core.mismatch.finder import find_mismatch
from perftscope.core.mismatch.state_trace import _rights_difference, trace_state
from perftscope.core.engines.oracle import Request

ENGINES = Path(__file__).parents[2] / "engines"
# black's bishop takes the a1 rook, the b1 rook takes it back on a1: white has no right left,
# but an engine that keeps 'Q' castles e1c1 with the new rook
CAPTURED_CORNER = "4k3/8/8/8/8/8/1b6/RR2K3 b Q - 0 1"
PLANTED = "rook_capture_keeps_right"


@pytest.fixture(scope="module")
def core():
    return make_oracle("core")


def test_a_make_that_keeps_a_captured_rooks_right_is_traced_to_the_capture(core, engine_path):
    engine = make_oracle(f"perftree:{engine_path(PLANTED)}")
    report = find_mismatch(engine, core, Request.of(CAPTURED_CORNER), 4)
    assert report.extra == ["e1c1"] and report.path[:2] == ["b2a1", "b1a1"]
    trace = report.state_trace
    assert (trace.move, trace.index, trace.field) == ("b2a1", 0, "castling rights")
    assert trace.true_fen == "4k3/8/8/8/8/8/8/bR2K3 w - - 0 2"
    assert trace.like_fen == "4k3/8/8/8/8/8/8/bR2K3 w Q - 0 2"
    assert trace.sentence(engine.name) == (
        f"after b2a1 (move 1 of the path) {PLANTED}.py's position counts like "
        f"`4k3/8/8/8/8/8/8/bR2K3 w Q - 0 2` (castling right Q; the true position has lost it)")
    # one engine call per level still; the trace's own calls are counted apart
    assert report.engine_calls == len(report.levels) and report.trace_calls >= 2


def test_an_engine_that_prints_only_totals_is_traced_too(core, engine_path):
    totals = make_oracle(f"cmd:{ENGINES / 'formats.py'} totals {ENGINES / PLANTED}.py {{depth}} {{fen}} {{moves}}")
    # from after the recapture (moves given, so the path still holds them): fewer totals to ask,
    # each a process reprinting another's answer
    report = find_mismatch(totals, core, Request.of(CAPTURED_CORNER, ["b2a1", "b1a1"]), 2)
    assert report.totals_only and report.note
    trace = report.state_trace
    assert (trace.move, trace.like_fen) == ("b2a1", "4k3/8/8/8/8/8/8/bR2K3 w Q - 0 2")


def test_a_wrong_move_list_whatever_the_route_is_no_state_bug(core, engine_path):
    engine = make_oracle(f"perftree:{engine_path('ep_rank_pin')}")
    report = find_mismatch(engine, core, Request.of("8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1"), 3)
    assert report.extra and report.state_trace is None
    assert report.trace_calls == 1          # its own FEN answers the same: nothing to trace
    assert trace_state(engine, Request.of(report.root_fen), 1) is None


def test_a_count_that_depends_on_the_search_order_says_so(core, engine_path):
    kiwipete = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"
    report = find_mismatch(make_oracle(f"perftree:{engine_path('inconsistent')}"), core, Request.of(kiwipete), 2)
    assert report.state_trace is None
    assert report.note.endswith("asked as the root FEN + the moves and as this position's own FEN it "
                                "answers alike, so what it depends on is the moves searched before this "
                                "one (state an unmake does not restore, or a hash table collision)")


def test_the_finding_carries_the_trace(core, engine_path):
    engine = make_oracle(f"perftree:{engine_path(PLANTED)}")
    finding = investigate(engine, core, Request.of(CAPTURED_CORNER), 4)
    assert finding.kind == "castling-rights"
    assert finding.summary().endswith("after b2a1 (move 1 of the path) the engine's position counts like "
                                      "`4k3/8/8/8/8/8/8/bR2K3 w Q - 0 2` (castling right Q; the true "
                                      "position has lost it)")


# A stale field is often no FEN of the position right after the move that breaks it (an
# en-passant square kept while the other side moves; a right kept with no rook on its corner,
# which a strict FEN reader drops): the trace searches the stale fields after every later move.
STALE = [
    # the double push's square kept one move too long: d4e3 after e8d8 e1d1
    ("ep_kept_too_long", "4k3/8/8/8/3p4/8/4P3/4K3 w - - 0 1", 4, ["e2e4", "e8d8", "e1d1"], ["d4e3"],
     ("e8d8", "e1d1", "en passant", "3k4/8/8/8/3pP3/8/8/3K4 b - e3 2 2", "en passant e3", "none")),
    # the captured h8 rook's right kept, read strictly from a FEN: only once a rook is back on h8
    ("capture_keeps_right_strict", "4k2r/7r/8/8/8/8/8/B3K3 w k - 0 1", 4, ["a1h8", "h7h8", "e1d1"], ["e8g8"],
     ("a1h8", "h7h8", "castling rights", "4k2r/8/8/8/8/8/8/4K3 w k - 0 2", "castling right k", "lost it")),
    # castling leaves the rook in its corner
    ("castle_rook_stays", "4k3/8/8/8/8/8/8/4K2R w K - 0 1", 3, ["e1g1"], None,
     ("e1g1", "e1g1", "castled rook", "4k3/8/8/8/8/8/8/6KR b - - 1 1", "the castled rook on h1", "it on f1")),
]


@pytest.mark.parametrize("name, fen, depth, path, extra, traced", STALE, ids=[s[0] for s in STALE])
def test_a_stale_field_is_named_at_the_first_move_a_fen_can_show_it(core, engine_path, name, fen, depth, path,
                                                                      extra, traced):
    report = find_mismatch(make_oracle(f"perftree:{engine_path(name)}"), core, Request.of(fen), depth)
    assert report.path[:len(path)] == path
    if extra is not None:
        assert report.extra == extra
    trace = report.state_trace
    move, at_move, field, like, engine_value, true_value = traced
    assert (trace.move, trace.at_move, trace.field, trace.like_fen) == (move, at_move, field, like)
    assert (trace.engine_value, trace.true_value) == (engine_value, true_value)
    data = report.to_json()["state_trace"]
    assert (data["at_move"], data["field"], data["like_fen"]) == (at_move, field, like)
    # a wrong move that only the route explains is a state bug (castling's own class for a right)
    assert classify(report) == {"ep_kept_too_long": "state", "capture_keeps_right_strict": "castling-rights",
                                "castle_rook_stays": "castling-rook"}[name]


def test_a_later_move_is_said_apart_from_the_one_that_breaks_the_state(core, engine_path):
    report = find_mismatch(make_oracle(f"perftree:{engine_path('ep_kept_too_long')}"), core,
                           Request.of("4k3/8/8/8/3p4/8/4P3/4K3 w - - 0 1"), 4)
    assert report.state_trace.sentence("x") == (
        "after e8d8 (move 2 of the path) x's position is not the true one (from the true FEN after it, it "
        "counts right); after e1d1 (move 3) it counts like `3k4/8/8/8/3pP3/8/8/3K4 b - e3 2 2` (en passant "
        "e3; the true position has none)")


def test_castling_rights_are_said_by_what_differs():
    # a count that shows white's queen-side right kept says nothing of the king-side one
    assert _rights_difference("Qkq", "kq") == ("castling right Q", "lost it")
    assert _rights_difference("kq", "Kkq") == ("no castling right K", "K")
    assert _rights_difference("KQq", "Kk") == ("castling rights Q and q but no castling right k", "lost them and k")
