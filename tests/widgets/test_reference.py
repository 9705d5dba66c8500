from PySide6.QtCore import QSettings

from widgets.reference import ReferenceSelector


def test_the_reference_is_remembered_between_sessions(qtbot, tmp_path):
    settings = QSettings(str(tmp_path / "perftscope.ini"), QSettings.IniFormat)
    first = ReferenceSelector(settings)
    qtbot.addWidget(first)
    assert first.spec() == "python-chess"                  # the default on a first run
    assert not first.path.isVisibleTo(first)
    first.set_spec("perftree:engines/my-perft.sh")
    assert first.path.isVisibleTo(first) and first.path.text() == "engines/my-perft.sh"
    settings.sync()
    again = ReferenceSelector(QSettings(str(tmp_path / "perftscope.ini"), QSettings.IniFormat))
    qtbot.addWidget(again)
    assert again.spec() == "perftree:engines/my-perft.sh"


def test_choosing_a_kind_announces_the_new_spec(qtbot, tmp_path):
    selector = ReferenceSelector(QSettings(str(tmp_path / "s.ini"), QSettings.IniFormat))
    qtbot.addWidget(selector)
    with qtbot.waitSignal(selector.changed) as signal:
        selector.kind.setCurrentIndex(selector.kind.findData("uci"))
    assert signal.args == ["uci:"]
    # Stockfish is installed here, so it is offered with where it was found
    i = selector.kind.findData("stockfish")
    assert i >= 0 and "stockfish" in selector.kind.itemText(i).lower()
