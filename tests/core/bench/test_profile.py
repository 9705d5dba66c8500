"""The profiling walk covers the same tree as perft, and the profile reports its shape."""
import pytest

from perftscope.core import kernels
from perftscope.core.kernels.perft import new_move_stack, perft
from perftscope.core.kernels.profile import STAGE_FULL, staged_walk
from perftscope.core.board.position import START_FEN, Position
from perftscope.core.bench.profile import format_profile, profile_perft
from perftscope.app.cli import main

KIWIPETE = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"


@pytest.mark.parametrize("fen, depth", [(START_FEN, 4), (KIWIPETE, 3)])
def test_full_stage_walk_is_perft(fen, depth):
    T, s, buf = kernels.table(), Position.from_fen(fen).state(), new_move_stack()
    assert staged_walk(T, s, depth, buf, 0, STAGE_FULL) == perft(T, s, depth, buf)


def test_profile_reports_tree_shape():
    p = profile_perft(Position.from_fen(START_FEN), 4, repeat=1)
    assert (p["leaves"], p["leaf_parents"], p["interior_nodes"]) == (197281, 8902, 1 + 20 + 400)
    assert p["moves_per_leaf_parent"] == pytest.approx(197281 / 8902)
    assert len(p["parts"]) == 4 and all(part["seconds"] >= 0 for part in p["parts"])
    text = format_profile(p)
    assert "king destinations" in text and "197,281" in text


def test_profile_cli_rejects_depth_one(capsys):
    assert main(["bench", "--profile", "-d", "1"]) == 2
    assert "--profile needs a depth between 2 and 12" in capsys.readouterr().err


def test_bench_threats_cli_lists_the_four_scenarios(capsys):
    import json
    assert main(["bench", "--threats", "--json", "--repeat", "1"]) == 0
    rows = json.loads(capsys.readouterr().out)["threats"]
    assert [r["scenario"] for r in rows] == ["not-threatened", "threatened", "king-sweep", "many-queens"]
    assert all(r["square_test_ns"] > 0 and r["king_zone_ns"] > 0 for r in rows)
