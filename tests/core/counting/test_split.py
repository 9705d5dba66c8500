"""The one split of the pool and the cluster: positions merged by the whole position,
never by key alone, multiplicities and owners that give back perft and divide."""
import numpy as np
import pytest

import perftscope.core.counting.perft as single
from perftscope.core import kernels
from perftscope.core.kernels import expand as _x
from perftscope.core.kernels import perft as _k
from perftscope.core.kernels import search as _s
from perftscope.core.counting.pool import perft as pool_perft
from perftscope.core.counting.pool import start_perft
from perftscope.core.board.position import START_FEN, Position
from perftscope.core.counting.split import split_positions

KIWIPETE = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"
ONE_KEY = np.uint64(0x9E3779B97F4A7C15)


def _colliding(expand):
    def colliding(T, rows, offsets, out, parent, move_index):
        expand(T, rows, offsets, out, parent, move_index)
        out[:, _x.KEY_COL] = ONE_KEY
    return colliding


@pytest.fixture
def every_key_the_same(monkeypatch):
    """Give every position the split makes one and the same key: the worst collision."""
    monkeypatch.setattr(_x, "expand", _colliding(_x.expand))


def _positions(sp):
    # the rows without their keys, as a set, each with its multiplicity and owner
    rows = np.delete(sp.rows, _x.KEY_COL, axis=1)
    return sorted((tuple(int(v) for v in r), int(m), int(o)) for r, m, o in zip(rows, sp.mult, sp.owner))


@pytest.mark.parametrize("divide", [False, True])
def test_positions_sharing_a_key_are_still_told_apart(divide, every_key_the_same):
    colliding = split_positions(Position.from_fen(START_FEN), 3, divide=divide)
    assert (colliding.rows[:, _x.KEY_COL] == ONE_KEY).all()
    assert colliding.total == 8902
    if not divide:
        assert colliding.unique == 5362          # the published distinct positions after 3 plies


def test_a_forced_collision_merges_exactly_what_the_real_keys_merge(monkeypatch):
    pos = Position.from_fen(KIWIPETE)
    real = split_positions(pos, 3, divide=True)
    monkeypatch.setattr(_x, "expand", _colliding(_x.expand))
    forced = split_positions(pos, 3, divide=True)
    assert _positions(forced) == _positions(real)


def test_the_pools_merge_compares_whole_positions(every_key_the_same):
    # with a table asked for, the pool merges its cut; min_depth out of reach keeps the
    # table itself from reading the forced keys, so only the merge is under test: a
    # merge on the key alone would fold all 5,362 positions into one
    pos = Position.from_fen(START_FEN)
    r = start_perft(pos, 6, workers=2, hash_exp=4, divide=True, min_depth=_s.NO_TABLE).result()
    assert r.nodes == 119_060_324
    assert r.divide == single.divide(pos, 6)


@pytest.mark.parametrize("fen, plies, depth", [(START_FEN, 3, 5), (KIWIPETE, 2, 4)])
def test_per_root_and_total_give_back_divide_and_perft(fen, plies, depth):
    pos = Position.from_fen(fen)
    T = kernels.table()
    for merge in (False, True):
        sp = split_positions(pos, plies, divide=True, merge=merge)
        buf = _k.new_move_stack()
        counts = np.array([_perft_row(T, sp.rows[i], depth - plies, buf) for i in range(sp.unique)],
                          np.uint64)
        want = single.divide(pos, depth)
        assert sp.total_nodes(counts) == sum(want.values())
        assert [int(c) for c in sp.per_root(counts)] == [want[m] for m in pos.legal_moves()]
        assert sp.root_moves == len(want)
        if not merge:
            assert sp.unique == sp.total


def _perft_row(T, row, depth, buf):
    return int(_k.perft(T, tuple(np.uint64(v) for v in row), depth, buf))


def test_a_split_too_big_to_hold_is_refused():
    from perftscope.core.counting.split import SplitError
    with pytest.raises(SplitError, match="ply 3 has 8,902 positions"):
        split_positions(Position.from_fen(START_FEN), 3, max_rows=5000)


def test_the_pool_with_a_table_counts_its_merged_cut_exactly():
    r = pool_perft(Position.from_fen(KIWIPETE), 4, workers=2, hash_exp=12, divide=True)
    assert r.nodes == 4_085_603
    assert r.divide == single.divide(Position.from_fen(KIWIPETE), 4)
