"""Delta debugging on positions: each planted bug shrinks to a few pieces that still fail."""
import pytest

from perftscope.core.engines.oracles import make_oracle
from perftscope.core.board.position import Position
from perftscope.core.mismatch.shrink import can_arise, mirror, piece_count, shrink

KIWIPETE = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"
POSITION_3 = "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1"
POSITION_4 = "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1"

# (engine, where its bug shows, depth, most pieces allowed after shrinking)
PLANTED = [
    ("ep_rank_pin", POSITION_3, 2, 5),
    ("castle_through_attack", "r3k2r/8/3Q4/8/8/5q2/8/R3K2R b KQkq - 0 1", 1, 6),
    ("no_underpromotion", POSITION_4, 2, 6),
    ("pinned_leaves_line", KIWIPETE, 2, 6),
    ("inconsistent", KIWIPETE, 2, 6),
]


@pytest.fixture(scope="module")
def core():
    return make_oracle("core")


@pytest.mark.parametrize("name,fen,depth,most", PLANTED, ids=[p[0] for p in PLANTED])
def test_planted_bug_shrinks_to_a_small_position_that_still_fails(engine_path, core, name, fen, depth, most):
    engine = make_oracle(f"perftree:{engine_path(name)}")
    result = shrink(engine, core, fen, depth, move_pieces=False)
    assert result is not None and result.failure == "mismatch"
    assert result.pieces <= most and result.pieces < piece_count(fen)
    assert result.steps and not result.exhausted
    # still failing, on a position that can arise in a game
    assert engine.divide(result.fen, [], result.depth) != core.divide(result.fen, [], result.depth)
    assert can_arise(Position.from_fen(result.fen))
    assert result.engine_calls == result.reference_calls > len(result.steps)


def test_a_correct_engine_has_nothing_to_shrink(engine_path, core):
    engine = make_oracle(f"perftree:{engine_path('correct')}")
    assert shrink(engine, core, POSITION_3, 2) is None


def test_mirror_keeps_perft():
    from perftscope.core.counting.perft import perft
    for fen in (KIWIPETE, POSITION_3, "8/8/8/8/k2Pp2Q/8/8/3K4 b - d3 0 1"):
        pos = Position.from_fen(fen)
        flipped = mirror(pos)
        assert flipped.white_to_move != pos.white_to_move
        assert perft(flipped, 3) == perft(pos, 3)
        assert mirror(flipped).fen().split()[:4] == pos.fen().split()[:4]
