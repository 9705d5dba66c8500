"""Counting engine-spec readings at run time: every call of core.engines.spec.parse_spec on a text
(a Spec handed to it is not read again), with the text and who read it, so that a test can say
"one reading per engine entering" of any workflow, as tests/fen_readings.py does for FENs.

    reads = count_spec_reads(monkeypatch)
    ... run the workflow ...
    assert sorted(r.text for r in reads) == ["core", "perftree:..."]   # each read where it entered
"""
from __future__ import annotations

import sys

from perftscope.core.engines import spec as spec_module

from .fen_readings import Reading, reader_frames


def count_spec_reads(monkeypatch) -> list[Reading]:
    """A list that every parse_spec call on a text appends its Reading to, until the test ends.
    parse_spec is replaced in core.engines.spec and in every loaded module that imported it."""
    parse_spec = spec_module.parse_spec
    reads: list[Reading] = []

    def counted(text):
        if not isinstance(text, spec_module.Spec):
            reads.append(Reading(text, reader_frames()))
        return parse_spec(text)
    for module in list(sys.modules.values()):
        if getattr(module, "__name__", "").startswith("perftscope") and \
                getattr(module, "parse_spec", None) is parse_spec:
            monkeypatch.setattr(module, "parse_spec", counted)
    return reads
