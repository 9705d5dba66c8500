from PySide6.QtCore import QSettings

from perftscope.widgets.reference import EngineChoice, EngineSelection, short_name


def settings_at(tmp_path):
    return QSettings(str(tmp_path / "perftscope.ini"), QSettings.IniFormat)


def test_both_choices_and_the_timeout_are_remembered_between_sessions(qtbot, tmp_path):
    first = EngineChoice(EngineSelection(settings_at(tmp_path)))
    qtbot.addWidget(first)
    # a first run: no engine yet, the core is the truth
    assert first.specs() == ("", "core") and first.selection.specs() == ("", "core")
    assert not first.engine.path.isVisibleTo(first)
    first.selection.set(engine="perftree:engines/my-perft.sh", reference="stockfish")
    first.timeout.setValue(12)
    assert first.engine.path.isVisibleTo(first) and first.engine.path.text() == "engines/my-perft.sh"
    first.selection.settings.sync()
    again = EngineChoice(EngineSelection(settings_at(tmp_path)))
    qtbot.addWidget(again)
    assert again.specs() == ("perftree:engines/my-perft.sh", "stockfish")
    assert again.seconds() == 12 and again.selection.timeout == 12
    assert again.engine.name() == "my-perft.sh" and again.reference.name() == "stockfish"
    pair = again.selection.pair()
    assert (pair.engine_name, pair.reference_name, pair.timeout) == ("my-perft.sh", "stockfish", 12)


def test_choosing_a_kind_announces_the_new_spec(qtbot, tmp_path):
    choice = EngineChoice(EngineSelection(settings_at(tmp_path)))
    qtbot.addWidget(choice)
    with qtbot.waitSignal(choice.engine.edited) as signal:
        choice.engine.kind.setCurrentIndex(choice.engine.kind.findData("uci"))
    assert signal.args == ["uci:"]
    assert choice.selection.engine == "uci:"
    # Stockfish is installed here, so it is offered with where it was found
    i = choice.reference.kind.findData("stockfish")
    assert i >= 0 and "stockfish" in choice.reference.kind.itemText(i).lower()
    # the reference is always some engine: it has no "none"
    assert choice.reference.kind.findData("") == -1 and choice.engine.kind.findData("") == 0


def test_every_view_of_one_selection_shows_the_same_engines(qtbot, tmp_path):
    selection = EngineSelection(settings_at(tmp_path))
    one, other = EngineChoice(selection), EngineChoice(selection)
    qtbot.addWidget(one)
    qtbot.addWidget(other)
    one.reference.kind.setCurrentIndex(one.reference.kind.findData("python-chess"))
    other.timeout.setValue(30)
    assert one.specs() == other.specs() == ("", "python-chess") and one.seconds() == other.seconds() == 30
    # a disabled view (a session runs on what it shows) keeps showing it until enabled again
    other.setEnabled(False)
    selection.set(engine="cmd:./engine perft {depth} {fen}")
    assert one.specs()[0] == "cmd:./engine perft {depth} {fen}" and other.specs()[0] == ""
    other.setEnabled(True)
    assert other.specs() == one.specs()


def test_short_names_are_what_headers_and_messages_call_engines():
    assert short_name("perftree:/x/my-perft.sh") == "my-perft.sh"
    assert short_name("uci:/x/eng") == "eng"
    assert short_name("cmd:./engine perft {depth} {fen}") == "engine"
    for builtin in ("core", "stockfish", "python-chess"):
        assert short_name(builtin) == builtin
