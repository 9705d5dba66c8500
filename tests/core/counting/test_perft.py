"""Node counts against every published figure a test run can afford (Chess960 included), the chessprogramming
statistics columns, and divide against python-chess on random positions."""
import csv
import random

import chess
import pytest

from perftscope import resources
from perftscope.core.counting.perft import divide, perft, perft_stats
from perftscope.core.board.position import Position
from perftscope.core.counting.suites import load

from ..python_chess_reference import python_chess_divide
from ..random_positions import random_boards

BUDGET = 20_000_000          # largest single expected count checked per position in the suites


def suite_cases(name, budget=BUDGET):
    for entry in load(resources.path(name)):
        for depth, nodes in sorted(entry.expected.items()):
            if nodes <= budget:
                yield pytest.param(entry.full_fen, depth, nodes, id=f"{entry.name}-D{depth}")


@pytest.mark.parametrize("fen, depth, nodes", [
    *suite_cases("perftsuite.epd"), *suite_cases("peterellisjones_gist.epd"),
    *suite_cases("ep_edge_cases.epd"), *suite_cases("python-chess_tricky.perft"),
    *suite_cases("chess960.perft", budget=2_000_000),
    *suite_cases("standard.epd", budget=800_000_000)])
def test_published_node_counts(fen, depth, nodes):
    assert perft(Position.from_fen(fen), depth) == nodes


def test_random_perft_suite_to_depth_3():
    # 6,838 positions from random play (marcelk, Rookie 2.0); deeper levels run in the benchmark
    entries = load(resources.path("python-chess_random.perft"))
    assert len(entries) == 6838
    wrong = [(e.name, d) for e in entries for d in (1, 2, 3)
             if perft(Position.from_fen(e.full_fen), d) != e.expected[d]]
    assert wrong == []


def test_random_perft_suite_sample_to_depth_5():
    entries = load(resources.path("python-chess_random.perft"))
    sample = random.Random(5).sample(entries, 40)
    wrong = [(e.name) for e in sample if perft(Position.from_fen(e.full_fen), 5) != e.expected[5]]
    assert wrong == []


def cpw_statistics():
    rows = csv.DictReader(line for line in open(resources.path("cpw_perft_results.csv")) if not line.startswith("#"))
    limits = {"initial": 5, "kiwipete": 4, "pos3": 5}
    for row in rows:
        if row["position"] in limits and 1 <= int(row["depth"]) <= limits[row["position"]]:
            yield pytest.param(row, id=f"{row['position']}-D{row['depth']}")


@pytest.mark.parametrize("row", list(cpw_statistics()))
def test_cpw_statistics_columns(row):
    fen = row["fen"] if len(row["fen"].split()) == 6 else row["fen"] + " 0 1"
    nodes, stats = perft_stats(Position.from_fen(fen), int(row["depth"]))
    assert nodes == int(row["nodes"])
    published = {k: int(row[k]) for k in stats if row[k] != ""}
    assert published, "the table has statistics for this row"
    assert {k: stats[k] for k in published} == published


# the special moves' own playground: promotions from the seventh rank and both castlings
SPECIAL_STARTS = (chess.STARTING_FEN,
                  "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
                  "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
                  "n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1",
                  "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1")


@pytest.mark.parametrize("seed", range(6))
def test_divide_matches_python_chess_on_random_play(seed):
    features = {"ep": 0, "castling": 0, "promotion": 0}
    for board in random_boards(seed, 50, plies=70, starts=SPECIAL_STARTS, pawn_bias=0.5):
        ours = divide(Position.from_fen(board.fen()), 2)
        assert ours == python_chess_divide(board, 2), board.fen()
        for m in board.legal_moves:          # the special moves inside the divided tree
            board.push(m)
            for reply in board.legal_moves:
                features["ep"] += board.is_en_passant(reply)
                features["castling"] += board.is_castling(reply)
                features["promotion"] += reply.promotion is not None
            board.pop()
    # the sample really exercised the special moves
    assert min(features.values()) > 0, features


def test_depth_zero_counts_one_and_divide_is_empty():
    pos = Position.from_fen(chess.STARTING_FEN)
    assert perft(pos, 0) == 1
    assert divide(pos, 0) == {}
    assert sum(divide(pos, 3).values()) == perft(pos, 3) == 8902


def test_statistics_kernels_load_only_when_asked_for():
    # they are compiled at import: a run without statistics must not pay for them
    import subprocess
    import sys
    code = ("import sys\n"
            "from perftscope.core.counting.perft import perft, divide\n"
            "from perftscope.core.counting.pool import perft as pool_perft\n"
            "from perftscope.core.board.position import Position, START_FEN\n"
            "assert perft(Position.from_fen(START_FEN), 3) == 8902\n"
            "assert pool_perft(Position.from_fen(START_FEN), 4, workers=2).nodes == 197281\n"
            "assert 'perftscope.core.kernels.stats' not in sys.modules, 'statistics kernels imported'\n"
            "r = pool_perft(Position.from_fen(START_FEN), 4, workers=2, stats=True)\n"
            "assert r.stats['checks'] == 469 and r.stats['checkmates'] == 8, r.stats\n")
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stderr[-2000:]
