"""The mismatch finder against small engines with one planted legality bug each: it must land
on a position whose move lists differ by exactly the planted moves, with one engine call per level."""
import json
import threading

import pytest

from perftscope.core.board.analysis import explain_move
from perftscope.core.errors import EngineError, MoveError
from perftscope.core.mismatch.finder import Report, find_mismatch
from perftscope.core.engines.oracles import make_oracle
from perftscope.core.board.position import START_FEN, Position
from perftscope.core.engines.oracle import Request

KIWIPETE = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"
POSITION_3 = "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1"


def perftree(path):
    return make_oracle(f"perftree:{path}")


@pytest.fixture(scope="module")
def core():
    return make_oracle("core")


def _consistent(report, depth):
    """Invariants of every finished descent."""
    assert report.engine_calls == report.reference_calls == len(report.levels)
    assert [lv.depth for lv in report.levels] == list(range(depth, depth - len(report.levels), -1))
    for parent, child in zip(report.levels, report.levels[1:]):
        assert parent.chosen in {r.move for r in parent.differing}
        assert child.fen == Position.from_fen(parent.fen).push(parent.chosen).fen()
    assert report.fen == report.levels[-1].fen


def test_en_passant_through_a_rank_pin(core, engine_path):
    # three root moves open an en passant that would expose a king along its rank
    report = find_mismatch(perftree(engine_path("ep_rank_pin")), core, Request.of(POSITION_3), 3)
    _consistent(report, 3)
    planted = {"e2e4": "f4e3", "g2g4": "f4g3", "c7c5": "b5c6"}
    assert not report.agree and report.missing == []
    assert report.extra == [planted[report.path[-1]]]
    assert len(report.levels) in (2, 3)


def test_en_passant_rank_pin_with_stockfish_as_reference(engine_path):
    with make_oracle("stockfish") as sf:
        report = find_mismatch(perftree(engine_path("ep_rank_pin")), sf, Request.of("8/8/8/8/k3p2Q/8/3P4/3K4 w - - 0 1"), 2)
    assert report.path == ["d2d4"] and report.extra == ["e4d3"] and report.missing == []
    assert report.fen == "8/8/8/8/k2Pp2Q/8/8/3K4 b - d3 0 1"
    assert report.engine_calls == report.reference_calls == 2
    _consistent(report, 2)
    why = report.explanations["e4d3"]
    assert why == explain_move(Position.from_fen(report.fen), "e4d3")
    assert "king a4" in why and "queen h4" in why and "rank 4" in why
    assert report.unreachable == []


def test_pinned_piece_leaving_its_line(core, engine_path):
    report = find_mismatch(perftree(engine_path("pinned_leaves_line")), core, Request.of("k2r4/8/8/8/8/8/4N3/4K3 b - - 0 1"), 3)
    _consistent(report, 3)
    assert report.path == ["d8e8"]
    assert sorted(report.extra) == ["e2c1", "e2c3", "e2d4", "e2f4", "e2g1", "e2g3"]
    assert report.missing == []


def test_every_difference_is_explained(core, engine_path):
    for name, fen in (("pinned_leaves_line", "k2r4/8/8/8/8/8/4N3/4K3 b - - 0 1"),
                      ("no_underpromotion", "8/2P5/8/8/8/8/k7/7K b - - 0 1")):
        report = find_mismatch(perftree(engine_path(name)), core, Request.of(fen), 2)
        landing = Position.from_fen(report.fen)
        assert set(report.explanations) == set(report.missing + report.extra)
        assert all(why and why == explain_move(landing, m) for m, why in report.explanations.items())


def test_position_that_cannot_arise_is_flagged(core, engine_path):
    report = find_mismatch(perftree(engine_path("correct")), core, Request.of("4k3/8/8/8/8/P7/PPPPPPPP/4K3 w - - 0 1"), 2)
    assert report.agree
    assert len(report.unreachable) == 1 and "9 pawns" in report.unreachable[0]


def test_castling_through_an_attacked_square(core, engine_path):
    report = find_mismatch(perftree(engine_path("castle_through_attack")), core, Request.of("4k3/8/8/8/2b5/8/8/4K2R b K - 0 1"), 3)
    _consistent(report, 3)
    assert report.extra == ["e1g1"] and report.missing == []
    landing = Position.from_fen(report.fen)
    assert landing.white_to_move and "e1g1" not in landing.legal_moves()


def test_missing_under_promotion_with_moves_before(core, engine_path):
    # the caller's moves come first in the path
    report = find_mismatch(perftree(engine_path("no_underpromotion")), core, Request.of("8/2P5/8/8/8/8/k7/7K w - - 0 1", ["h1g1", "a2b2"]), 3)
    assert report.path[:2] == ["h1g1", "a2b2"]
    assert report.missing == ["c7c8n"] and report.extra == []
    assert Position.from_fen(report.fen).white_to_move


def test_correct_engine_agrees_in_one_call(core, engine_path):
    report = find_mismatch(perftree(engine_path("correct")), core, Request.of(KIWIPETE), 2)
    assert report.agree and report.engine_calls == 1
    assert report.missing == report.extra == [] and report.note == ""
    assert report.levels[0].differing == [] and len(report.levels[0].rows) == 48


def test_agreement_with_stockfish_on_the_core():
    with make_oracle("stockfish") as sf:
        report = find_mismatch(make_oracle("core"), sf, Request.of(POSITION_3, ["e2e4"]), 4)
    assert report.agree and report.engine_calls == 1 and report.fen == Position.from_fen(POSITION_3).push("e2e4").fen()


def test_engine_whose_counts_depend_on_the_route_is_reported(core, engine_path):
    report = find_mismatch(perftree(engine_path("inconsistent")), core, Request.of(KIWIPETE), 2)
    assert not report.agree and report.missing == report.extra == []
    assert len(report.levels) == 2 and report.levels[-1].differing == []
    assert "depends on how the position was reached" in report.note
    assert report.levels[0].chosen in report.note


def test_depth_zero_agrees_without_calls(core, engine_path):
    report = find_mismatch(perftree(engine_path("ep_rank_pin")), core, Request.of(POSITION_3), 0)
    assert report.agree and report.engine_calls == 0 and report.levels == []


def test_progress_and_cancel(core, engine_path):
    seen = []
    report = find_mismatch(perftree(engine_path("ep_rank_pin")), core, Request.of(POSITION_3), 3,
                           progress=seen.append, cancelled=lambda: len(seen) >= 1)
    assert report.cancelled and not report.agree
    assert seen == report.levels and len(seen) == 1 and report.engine_calls == 1


def test_cancelling_an_oracle_mid_divide_ends_the_descent(core):
    slow = make_oracle("python-chess")
    stopper = threading.Timer(0.5, slow.cancel)
    stopper.start()
    report = find_mismatch(slow, core, Request.of(KIWIPETE), 5)       # python-chess would take many minutes
    stopper.join()
    assert report.cancelled and not report.agree
    assert report.engine_calls == report.reference_calls == 0 and report.levels == []


def test_bad_requests_and_failing_engines(core, engine_path):
    with pytest.raises(MoveError, match="e2e5"):
        find_mismatch(core, core, Request.of(POSITION_3, ["e2e5"]), 2)
    # an answer listing a move twice is a finding about the engine (its answer cannot be read), not a crash
    report = find_mismatch(make_oracle(f"uci:{engine_path('uci_duplicates')}"), core, Request.of(START_FEN, ["e2e4"]), 2)
    assert (report.failure.side, report.failure.kind) == ("engine", "unreadable") and report.crash
    assert report.path == ["e2e4"] and report.levels == [] and not report.agree
    assert report.error.startswith("uci_duplicates.py answered what cannot be read at path e2e4 (FEN ")
    assert "move g8h6 listed twice" in report.error
    assert report.raise_unless_finding() is report
    # an engine that cannot be calibrated (no go perft): an error of the comparison, not a finding
    report = find_mismatch(make_oracle(f"uci:{engine_path('uci_no_perft')}"), core, Request.of(START_FEN), 2)
    assert (report.failure.side, report.failure.kind) == ("engine", "error") and not report.crash
    with pytest.raises(EngineError, match="uci_no_perft.py has no `go perft`"):
        report.raise_unless_finding()


def test_a_failure_says_which_side_failed_and_how(core, engine_path):
    # the engine under test crashing below the root: a finding, with the level found before it
    crash = make_oracle(f"perftree:{engine_path('node_crash')}")
    report = find_mismatch(crash, core, Request.of("8/8/8/8/k3p2Q/8/3P4/3K4 w - - 0 1"), 2)
    failure = report.failure
    assert (failure.side, failure.kind) == ("engine", "crash") and failure.is_finding and report.crash
    assert report.raise_unless_finding() is report and report.levels
    assert failure.path == tuple(report.path) and failure.own_error in report.error
    # the reference failing: never a finding about the engine
    report = find_mismatch(core, crash, Request.of("8/8/8/8/k3p2Q/8/3P4/3K4 w - - 0 1"), 2)
    assert (report.failure.side, report.failure.kind) == ("reference", "crash") and not report.crash
    with pytest.raises(EngineError, match="node_crash.py"):
        report.raise_unless_finding()
    # a report read back from JSON keeps its failure
    again = Report.from_json(json.loads(json.dumps(report.to_json())))
    assert again.failure == report.failure and again.to_json() == report.to_json()


def test_a_refused_move_is_a_move_not_generated_and_the_divide_keeps_the_rest(refusing_engine):
    # a totals-only engine that answers `Illegal move: e1g1` to a castle it does not generate
    fen = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1"
    with make_oracle(refusing_engine) as engine, make_oracle("core") as core:
        rows, refused = engine.divide_refused(Request.of(fen), 2)
        assert refused == {"e1g1": "Illegal move: e1g1", "e1c1": "Illegal move: e1c1"}
        assert len(rows) == 24 and rows["a1b1"] == 24
        report = find_mismatch(engine, core, Request.of(fen), 2)
    assert report.failure is None and not report.crash
    assert report.missing == ["e1g1", "e1c1"] and report.path == []
    assert report.explanations["e1g1"] == ("castling king-side; asked to play it, the engine refused it "
                                           "('Illegal move: e1g1')")
    level = report.levels[0]
    assert len(level.rows) == 26
    assert [r.move for r in level.rows if r.refused] == ["e1g1", "e1c1"]
    assert level.to_json()["rows"][[r.move for r in level.rows].index("e1g1")]["refused"] == "Illegal move: e1g1"


def test_the_find_job_says_which_call_it_waits_for_and_stop_ends_that_call(tmp_path, core):
    """The finder as a Job like the others: activity() names the engine call running, each level
    is followed by a Progress, and stop() ends the call running (the engine killed, not waited
    for): the report so far, cancelled."""
    import sys
    import time

    from perftscope.core.job import Progress
    from perftscope.core.mismatch.find_job import FindJob, FindSettings
    hang = tmp_path / "hang.py"
    # answers the root (one count off, so the finder goes down), then hangs one level below
    hang.write_text(f"#!{sys.executable}\nimport sys, time, chess\n"
                    "if len(sys.argv) > 3:\n    time.sleep(3600)\n"
                    "b = chess.Board(sys.argv[2])\nmoves = list(b.legal_moves)\n"
                    "for i, m in enumerate(moves):\n    print(m.uci(), 1 + (i == 0))\n"
                    "print()\nprint(len(moves) + 1)\n")
    hang.chmod(0o755)
    engine = perftree(hang)
    job = FindJob(FindSettings(Request.of(START_FEN), 2), lambda: (engine, core), ("hang.py", "core"))
    assert job.activity() is None
    events, result = [], []
    worker = threading.Thread(target=lambda: result.append(job.run(events.append)))
    worker.start()
    deadline = time.monotonic() + 20
    while "call 2" not in (job.activity() or "") and time.monotonic() < deadline:
        time.sleep(0.05)
    assert (job.activity() or "").startswith("waiting for hang.py: call 2, ")
    assert "(timeout " in job.activity()
    assert [type(e).__name__ for e in events] == ["Level", "Progress"] and events[1] == Progress(1, 2, "")
    job.stop()
    worker.join(5)
    assert not worker.is_alive() and result[0].cancelled and len(result[0].levels) == 1
    assert job.activity() is None
    engine.close()
