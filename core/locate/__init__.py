"""Spectrum-based fault localisation on an engine's own source: `perftscope locate`.

runs.py (covered engine calls, judged against the reference), coverage.py (per-process line
coverage of Python, Node and native programs), sources.py (where the source is, and what to say
when no coverage comes back), spectra.py (Ochiai, DStar, ties, the feature contrast), job.py
(the Job that drives the finder, shrink, children and a focused fuzz).
"""
