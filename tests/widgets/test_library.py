from perftscope.core.board.position import Position
from perftscope.widgets.library import LibraryPanel, load_library, title_of


def test_bundled_suites_load_with_notes_and_valid_fens():
    groups = load_library()
    assert {"Standard positions", "Edge cases", "En-passant edge cases"} <= set(groups)
    for entries in groups.values():
        for e in entries:
            Position.from_fen(e.full_fen)          # every library position opens on the board
    standard = groups["Standard positions"]
    assert any("Kiwipete" in e.note for e in standard)
    assert all(e.note for e in groups["En-passant edge cases"])


def test_one_click_loads_a_position_with_its_note(qtbot):
    panel = LibraryPanel()
    qtbot.addWidget(panel)
    group = panel.tree.topLevelItem(0)
    item = next(group.child(i) for i in range(group.childCount())
                if "Kiwipete" in group.child(i).text(0))
    entry = panel._entry(item)
    with qtbot.waitSignal(panel.positionChosen) as signal:
        panel.tree.itemClicked.emit(item, 0)
    assert signal.args == [entry.full_fen, title_of(entry)]
    assert "Kiwipete" in panel.note.text()


def test_filter_hides_positions_whose_note_does_not_match(qtbot):
    panel = LibraryPanel()
    qtbot.addWidget(panel)
    panel.filter.setText("kiwipete")
    shown = [panel.tree.topLevelItem(g).child(i)
             for g in range(panel.tree.topLevelItemCount())
             for i in range(panel.tree.topLevelItem(g).childCount())
             if not panel.tree.topLevelItem(g).child(i).isHidden()]
    assert len(shown) == 1 and "Kiwipete" in shown[0].text(0)
