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


def test_the_gui_command_hands_the_window_the_specs_it_read(qtbot, monkeypatch, engine_path, tmp_path):
    """`perftscope gui --engine --reference` reads each spec once, checking it, and the window
    takes those Specs (the remembered reference is read when the window's settings are)."""
    from PySide6.QtCore import QSettings

    from perftscope.app.cli import build_parser
    from perftscope.app.commands.gui import _checked
    from perftscope.app.gui import MainWindow
    engine = f"perftree[chess960=false]:{engine_path('correct')}"
    argv = ["gui", "--engine", engine, "--reference", "python-chess"]
    reads = count_spec_reads(monkeypatch)
    fen, (chosen, reference), _ = _checked(build_parser(argv).parse_args(argv))
    assert [r.text for r in reads] == ["python-chess", engine], reads
    settings = QSettings(str(tmp_path / "settings.ini"), QSettings.IniFormat)
    w = MainWindow(fen, reference=reference, engine=chosen, settings=settings)
    qtbot.addWidget(w)
    pair = w.engines.pair()
    assert pair.engine.chess960 is False and pair.engine.text == engine and pair.reference.kind == "python-chess"
    assert [r.text for r in reads] == ["python-chess", engine, "core"], reads
