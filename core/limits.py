"""Every bound a user can meet (depths, workers, the table's size, the cluster's split), each in
one place with its reason.

Pure Python: the command line and the widgets read these before any kernel is loaded.
"""
# perft and divide on the command line: far past anything that finishes (start position
# depth 13 is about 2e18 nodes), so it only keeps a typo such as 400 out
DEPTH_LIMIT = 40

# A perft hash-table entry is two uint64, `key ^ data` and `data`, with data = count << 6 | depth:
# the remaining depth has 6 bits. The kernels compile these in (core.kernels.hashtable), so this
# file is part of the digest that keys their cache.
TABLE_ENTRY_BYTES = 16
TABLE_DEPTH_BITS = 6
TABLE_DEPTH_LIMIT = (1 << TABLE_DEPTH_BITS) - 1
TABLE_MIN_EXP = 2            # one 64-byte bucket of four entries
TABLE_MAX_EXP = 32           # 2^32 entries: 64 GiB, more than a machine here holds


def table_bytes(exp: int) -> int:
    """Memory of a perft table of 2^exp entries."""
    return TABLE_ENTRY_BYTES << max(exp, TABLE_MIN_EXP)


# the run panel's depth box: depth 12 from the start position is about 6e16 nodes, days here
RUN_DEPTH_LIMIT = 12

# the divide tree and the finder: every level is a divide by both engines, and the user's
# engine is often a slow script
DIVIDE_DEPTH_LIMIT = 10

# worker threads of a pool run, worker processes of a local cluster: a typo such as 4000 is
# refused instead of starting thousands
WORKERS_LIMIT = 256

# plies the cluster's split expands on the client before the workers count the rest, and the
# rows one ply of it may hold (88 bytes each): the split's memory is the client's
SPLIT_LIMIT = 8
SPLIT_ROWS_LIMIT = 30_000_000

# a cluster run's defaults, read by the command's help before the cluster module (and the kernels
# it imports) is loaded: tasks fixed, not per worker, so that a journal resumes on any cluster
# size; seconds a run waits while the scheduler has no worker
CLUSTER_TASKS = 256
CLUSTER_WORKER_WAIT = 60.0
