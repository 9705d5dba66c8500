"""A position is validated once into a Request: references get the FEN that stands, the engine under
test the FEN as written, and a descent plays each move on the Position it has instead of reading
the FEN and replaying the path again at every level."""
import pytest

from perftscope.core.board import position as position_module
from perftscope.core.board.position import START_FEN, Position
from perftscope.core.engines.oracle import Request
from perftscope.core.engines.oracles import make_oracle
from perftscope.core.errors import FenError, MoveError
from perftscope.core.mismatch.finder import find_mismatch

from ...fen_readings import count_fen_reads

POSITION_3 = "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1"


def test_a_request_holds_both_fens_the_moves_and_the_position():
    # a castling right with no rook on h1: references drop it, the engine under test is sent it
    request = Request.of("4k3/8/8/8/8/8/8/4K3 w K -", ["E1D1 "])
    assert request.root == "4k3/8/8/8/8/8/8/4K3 w - - 0 1"
    assert request.written == "4k3/8/8/8/8/8/8/4K3 w K - 0 1"
    assert len(request.warnings) == 1 and request.moves == ("e1d1",)
    assert request.position == Position.from_fen(request.root).push("e1d1")
    after = request.then("e8d8", "d1c2")
    assert after.moves == ("e1d1", "e8d8", "d1c2") and after.root == request.root
    assert after.position == Position.from_fen(request.root).play(["e1d1", "e8d8", "d1c2"])
    assert Request.of(request) is request and Request.of(request, ["e8d8"]) == request.then("e8d8")


def test_a_bad_request_is_refused_before_any_engine_is_asked():
    with pytest.raises(FenError):
        Request.of("8/8/8/8/8/8/8/8 w - - 0 1")
    with pytest.raises(MoveError, match="move 2 of the move list"):
        Request.of(START_FEN).then("e2e4", "e2e4")


def test_every_oracle_method_takes_a_request_and_nothing_else():
    core, pc = make_oracle("core"), make_oracle("python-chess")
    request = Request.of(START_FEN, ["e2e4"])
    assert core.divide(request, 2) == pc.divide(request, 2) and len(core.divide(request, 2)) == 20
    assert core.perft(request.then("e7e5"), 2) == pc.perft(Request.of(START_FEN, "e2e4 e7e5"), 2) == 835
    assert core.answer(request.then("e7e5"), 1).total == 29
    assert core.divide_refused(request, 1) == (core.divide(request, 1), {})      # no refusal
    # a FEN is read where it enters, into a Request: an oracle given a string says so
    for method in (core.answer, core.divide, core.divide_refused, core.perft):
        with pytest.raises(TypeError, match="Request"):
            method(START_FEN, 1)


def test_a_position_already_read_or_built_becomes_a_request_without_its_fen_read_again(monkeypatch):
    position = Position.from_fen(POSITION_3).push("e2e4")
    reads = count_fen_reads(monkeypatch)
    request = Request.at(position, ["h5h6"])
    assert reads == [] and request.root == request.written == position.fen() and request.warnings == ()
    assert request.start is position and request.position == position.push("h5h6")
    assert request.from_root() == Request.at(position) and request.fen == position.push("h5h6").fen()


def test_the_finder_reads_no_fen_however_deep_it_goes(engine_path, monkeypatch):
    engine, core = make_oracle(f"perftree:{engine_path('ep_rank_pin')}"), make_oracle("core")
    request = Request.of(POSITION_3)          # read where it enters: here
    find_mismatch(engine, core, request, 2)   # the engine's dialect learned before counting
    reads = count_fen_reads(monkeypatch)
    by_levels = {}
    for depth in (2, 4):
        reads.clear()
        report = find_mismatch(engine, core, request, depth)
        by_levels[len(report.levels)] = [r.fen for r in reads]
    # two levels or four: each level is the one above with a move played, never a FEN read again
    assert set(by_levels) == {2, 4} and by_levels[2] == by_levels[4]
    assert len(by_levels[4]) <= 1, by_levels[4]     # at most the analysis of where the lists differ


def test_a_suite_line_is_read_once_whatever_the_run_does_with_it(engine_path, monkeypatch, tmp_path):
    from perftscope.core.counting.suites import load
    from perftscope.core.engines.pair import EnginePair
    from perftscope.core.mismatch.suite_run import SuiteRun, SuiteSettings
    path = tmp_path / "pos3.epd"
    path.write_text(f"{POSITION_3} ;D1 14 ;D2 191 ;D3 2812\n")
    pair = EnginePair.parse(f"perftree:{engine_path('ep_rank_pin')}", "core")
    SuiteRun(load(path), pair, SuiteSettings(path.name, max_depth=None, jobs=1, shrink_calls=0)).run()      # how it prints a divide learned (position 3 among them)
    run = SuiteRun(load(path), pair, SuiteSettings(path.name, max_depth=None, jobs=1, shrink_calls=0))
    reads = count_fen_reads(monkeypatch)
    run.run()
    # every engine and reference call, the finder's descent, the finding and the unreachable
    # check: one reading of the line's FEN
    assert [c.finding.kind for c in run.cases] == ["ep-rank-pin"]
    assert [r.fen for r in reads].count(POSITION_3) == 1, reads


def test_a_find_reads_its_position_once_where_it_enters(engine_path, fen_reads):
    from perftscope.core.mismatch.find_job import FindJob, FindSettings
    engine, core = make_oracle(f"perftree:{engine_path('ep_rank_pin')}"), make_oracle("core")
    engine.prepare()                          # how it prints a divide learned before counting,
    core.divide(Request.at(Position.from_fen(START_FEN)), 2)      # and the core's kernels prepared
    fen_reads.clear()
    report = FindJob(FindSettings(Request.of(POSITION_3), 3), lambda: (engine, core)).run()
    # the FEN entering read once; the descent, the classification and the explanations read none
    assert report.extra == ["f4e3"] and [r.fen for r in fen_reads] == [POSITION_3], fen_reads


def test_a_fuzz_finding_reads_each_position_once(engine_path, fen_reads):
    from perftscope.core.engines.pair import EnginePair
    from perftscope.core.mismatch.fuzz import Fuzzer, FuzzSettings
    pair = EnginePair.parse(f"perftree:{engine_path('ep_rank_pin')}", "core")
    from perftscope.core.mismatch.edge_positions import edge_positions
    from perftscope.core.mismatch.fuzz import start_positions
    fuzzer = Fuzzer(pair, FuzzSettings(seed=1, depth=2, seconds=None, positions=40, first=True, shrink_calls=0))
    fuzzer.engine.prepare()
    fuzzer.reference.divide(Request.at(Position.from_fen(START_FEN)), 2)
    edge_positions(), start_positions(False)      # the positions it draws from, built once per process
    fen_reads.clear()
    try:
        result = fuzzer.run()
    finally:
        fuzzer.close()
    # each generated position enters as a FEN, read once for every call on it; the finding
    # (the finder's descent, the classification) reads none
    assert [f.kind for f in result.findings] == ["ep-rank-pin"]
    fens = [r.fen for r in fen_reads]
    assert len(fens) == result.tested and len(set(fens)) == len(fens), fen_reads
