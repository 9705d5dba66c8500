"""Counting the truth: perft on one thread, the worker pool with its hash table, the split into
tasks, the Dask cluster, and the suites of published counts."""
