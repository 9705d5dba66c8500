"""Benchmarks and profiling of the core, for `perftscope bench`: the worker pool against
Stockfish, the king-threat micro-benchmarks, and where a perft's time goes."""
