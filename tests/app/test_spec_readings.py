"""An engine spec is read once where it enters (a CLI argument, the window's selector) and travels
as a core.engines.spec.Spec to the process: counted at run time (tests/spec_readings.py)."""
from __future__ import annotations

import pytest

from perftscope.core.board.position import START_FEN

from ..spec_readings import count_spec_reads
from .cli_run import run


def test_a_compare_reads_each_spec_once(capsys, monkeypatch, engine_path):
    engine = f"perftree:{engine_path('correct')}"
    reads = count_spec_reads(monkeypatch)
    code, out, _ = run(capsys, "compare", "--engine", engine, "--reference", "core", "--depth", "2")
    assert code == 0, out
    assert sorted(r.text for r in reads) == sorted([engine, "core"]), reads


def test_a_divide_in_the_window_reads_each_spec_once(qtbot, monkeypatch, engine_path, tmp_path):
    """The specs enter twice at the window's start: the remembered ones (none saved yet: no engine
    and the default reference) and the ones given; the selectors, each divide and the headers read
    none again."""
    from PySide6.QtCore import QSettings

    from perftscope.app.gui import MainWindow
    engine = f"perftree:{engine_path('correct')}"
    settings = QSettings(str(tmp_path / "settings.ini"), QSettings.IniFormat)
    reads = count_spec_reads(monkeypatch)
    w = MainWindow(START_FEN, reference="core", engine=engine, settings=settings)
    qtbot.addWidget(w)
    w.show()
    for depth in (1, 2):
        w.divider.divide(depth)
        qtbot.waitUntil(lambda: w.model.root.state == "loaded", timeout=30000)
    assert w.model.headers()[1] == "correct.py" and w.divides.pair.engine.text == engine
    assert sorted(r.text for r in reads) == sorted(["core", engine, "core"]), reads
