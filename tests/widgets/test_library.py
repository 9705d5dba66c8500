from widgets.library import LibraryPanel, read_epd

EPD = """\
# comment lines are skipped
3k4/8/8/K1Pp3r/8/8/8/8 w - d6 0 2 ;D1 6 ;D2 94 ; ep c5xd6 ILLEGAL: horizontal pin through both pawns
rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 ;D1 20 ;D2 400
"""


def test_read_epd_keeps_counts_and_notes(tmp_path):
    path = tmp_path / "edge.epd"
    path.write_text(EPD)
    first, second = read_epd(path)
    assert first.fen == "3k4/8/8/K1Pp3r/8/8/8/8 w - d6 0 2"
    assert first.counts == {1: 6, 2: 94}
    assert first.title == "ep c5xd6 ILLEGAL"
    assert "horizontal pin" in first.note
    assert second.counts[2] == 400 and second.note == ""


def test_one_click_loads_a_position(qtbot, tmp_path):
    (tmp_path / "edge.epd").write_text(EPD)
    panel = LibraryPanel(tmp_path)
    qtbot.addWidget(panel)
    group = panel.tree.topLevelItem(0)
    assert group.childCount() == 2
    with qtbot.waitSignal(panel.positionChosen) as signal:
        panel.tree.itemClicked.emit(group.child(0), 0)
    assert signal.args == ["3k4/8/8/K1Pp3r/8/8/8/8 w - d6 0 2", "ep c5xd6 ILLEGAL"]
    assert "horizontal pin" in panel.note.text()


def test_filter_hides_positions_whose_note_does_not_match(qtbot, tmp_path):
    (tmp_path / "edge.epd").write_text(EPD)
    panel = LibraryPanel(tmp_path)
    qtbot.addWidget(panel)
    panel.filter.setText("pin")
    group = panel.tree.topLevelItem(0)
    assert [group.child(i).isHidden() for i in range(2)] == [False, True]
