"""The perft table: what it stores it gives back, a torn or forged entry reads as a
miss, a full bucket gives up its smallest count, and tiny tables (every bucket
fought over) still give exact counts."""
import numpy as np
import pytest

from perftscope.core import kernels
from perftscope.core.kernels import hashtable as ht
from perftscope.core.kernels import perft as kp
from perftscope.core.kernels import search
from perftscope.core.counting.perft import perft

from ..random_positions import affordable_depth, random_positions

KEY = np.uint64(0x9D39247E33776D41)


def _table(exp):
    table = ht.new_table(exp)
    return table, ht.bucket_mask(table)


def test_table_is_cache_line_aligned_and_sized():
    for exp in (2, 4, 10, 17):                       # 17: 2 MB, its own mapping
        table, mask = _table(exp)
        assert table.ctypes.data % 64 == 0
        assert table.shape == (2 << exp,)
        assert mask == (1 << exp) // 4 - 1
        assert ht.filled_entries(table) == 0


def test_stored_count_comes_back_only_for_its_depth():
    table, mask = _table(8)
    assert ht.probe(table, mask, KEY, 5) == -1
    assert ht.store(table, mask, KEY, 5, np.uint64(123456789)) == ht.STORED_EMPTY
    assert ht.probe(table, mask, KEY, 5) == 123456789
    assert ht.probe(table, mask, KEY, 4) == -1
    assert ht.probe(table, mask, KEY ^ np.uint64(1 << 40), 5) == -1   # same bucket, other key
    assert ht.store(table, mask, KEY, 5, np.uint64(123456789)) == ht.STORED_REFRESHED
    assert ht.filled_entries(table) == 1


def test_torn_write_reads_as_a_miss():
    table, mask = _table(4)
    other = KEY ^ np.uint64(1 << 50)               # same bucket (low bits equal)
    ht.store(table, mask, KEY, 6, np.uint64(1000))
    w = int(ht.bucket_of(KEY, mask))
    first = table[w:w + 2].copy()
    ht.store(table, mask, other, 6, np.uint64(2000))
    w2 = next(i for i in range(w, w + 8, 2) if table[i + 1] == (2000 << 6 | 6))
    # word 0 of one store beside word 1 of another, as two threads racing would leave it
    table[w2] = first[0]
    assert ht.probe(table, mask, other, 6) == -1
    assert ht.probe(table, mask, KEY, 6) == 1000    # the intact entry still reads


def test_forged_count_reads_as_a_miss():
    table, mask = _table(4)
    ht.store(table, mask, KEY, 6, np.uint64(1000))
    w = int(ht.bucket_of(KEY, mask))
    table[w + 1] = np.uint64(999 << 6 | 6)          # data changed, check word not
    assert ht.probe(table, mask, KEY, 6) == -1


def test_full_bucket_replaces_its_smallest_count():
    table, mask = _table(2)                          # one bucket: every key collides
    keys = [np.uint64(k * 0x1F3A5C7E9B2D4F61 & (2**64 - 1)) for k in range(1, 6)]
    counts = [50, 10, 40, 30]
    for k, c in zip(keys, counts):
        assert ht.store(table, mask, k, 4, np.uint64(c)) == ht.STORED_EMPTY
    assert ht.store(table, mask, keys[4], 4, np.uint64(20)) == ht.STORED_REPLACED
    assert ht.probe(table, mask, keys[1], 4) == -1   # the 10 went
    for k, c in [(keys[0], 50), (keys[2], 40), (keys[3], 30), (keys[4], 20)]:
        assert ht.probe(table, mask, k, 4) == c


@pytest.mark.parametrize("exp", [4, 12])
def test_small_tables_keep_counts_exact_on_random_positions(exp):
    # 16 entries probed from depth 2 on: nearly every store evicts, every bucket is shared.
    # 4096 entries: transpositions survive long enough to be hit.
    T = kernels.table()
    stop = np.zeros(1, np.int64)
    ctr = np.zeros(search.SLOT, np.int64)
    buf = kp.new_move_stack()
    for seed in range(4):
        table, mask = _table(exp)
        for pos in random_positions(10, seed):
            depth = affordable_depth(pos)
            # one work item through the pool's worker kernel: the hashed, interruptible count
            out, next_item = np.zeros(1, np.uint64), np.zeros(1, np.int64)
            search.run_worker(T, np.array([pos.state()], np.uint64), depth, out, next_item, buf, table,
                              mask, 2, ctr, 0, stop)
            got = out[0]
            assert int(got) == perft(pos, depth), (pos.fen(), depth)
    if exp == 4:
        assert ctr[search.REPLACEMENTS] > 0.9 * ctr[search.STORES]
    else:
        assert ctr[search.HITS] > 0
