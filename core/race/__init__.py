"""Engines raced on perft: speed by iterative deepening with every count checked against the core
(runner), what the OS says each call cost (measure), the contestants (racers), two builds timed in
alternation (duel) with a verdict beyond the noise (stats), and the tables (report)."""
