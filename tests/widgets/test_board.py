from PySide6.QtCore import QPoint, Qt

from core.position import START_FEN, Position, parse_square
from widgets.board import BoardPanel


def centre(panel, name):
    return panel.view.square_rect(parse_square(name)).center().toPoint()


def make_panel(qtbot, fen=START_FEN):
    panel = BoardPanel()
    qtbot.addWidget(panel)
    panel.resize(480, 560)
    panel.show()
    qtbot.waitExposed(panel)
    panel.set_position(Position.from_fen(fen))
    return panel


def test_click_then_click_plays_a_legal_move(qtbot):
    panel = make_panel(qtbot)
    qtbot.mouseClick(panel.view, Qt.LeftButton, pos=centre(panel, "g1"))
    assert panel.view.targets_from(parse_square("g1")) == [parse_square("f3"), parse_square("h3")]
    qtbot.mouseClick(panel.view, Qt.LeftButton, pos=centre(panel, "f3"))
    assert panel.moves == ["g1f3"]
    assert panel.position.board[parse_square("f3")] == "N"
    assert "Black to move" in panel.turn_label.text()
    assert panel.view.last_move == "g1f3"


def test_illegal_target_is_refused(qtbot):
    panel = make_panel(qtbot)
    qtbot.mouseClick(panel.view, Qt.LeftButton, pos=centre(panel, "e2"))
    qtbot.mouseClick(panel.view, Qt.LeftButton, pos=centre(panel, "e5"))
    assert panel.moves == []
    # the opponent's pieces cannot be picked up either
    qtbot.mouseClick(panel.view, Qt.LeftButton, pos=centre(panel, "e7"))
    assert panel.view.selected is None


def test_drag_and_drop_plays_a_move(qtbot):
    panel = make_panel(qtbot)
    start, end = centre(panel, "e2"), centre(panel, "e4")
    qtbot.mousePress(panel.view, Qt.LeftButton, pos=start)
    qtbot.mouseMove(panel.view, start + QPoint(10, -10))
    qtbot.mouseMove(panel.view, end)
    qtbot.mouseRelease(panel.view, Qt.LeftButton, pos=end)
    assert panel.moves == ["e2e4"]


def test_back_and_forward_walk_the_moves_played(qtbot):
    panel = make_panel(qtbot)
    for uci in ("e2e4", "e7e5", "g1f3"):
        panel.play(uci)
    panel.buttons["back"].click()
    panel.buttons["back"].click()
    assert panel.position == Position.from_fen(START_FEN).play("e2e4")
    assert panel.fen_edit.text() == panel.position.fen()
    panel.buttons["forward"].click()
    assert panel.view.last_move == "e7e5"
    # a new move from the middle drops the moves ahead of it
    panel.play("b1c3")
    assert panel.moves == ["e2e4", "e7e5", "b1c3"]
    assert not panel.buttons["forward"].isEnabled()


def test_flip_mirrors_the_square_under_the_mouse(qtbot):
    panel = make_panel(qtbot)
    point = centre(panel, "a1")
    panel.flip()
    assert panel.view.square_at(point) == parse_square("h8")


def test_fen_field_explains_what_is_wrong_and_loads_when_valid(qtbot):
    panel = make_panel(qtbot)
    panel.fen_edit.clear()
    qtbot.keyClicks(panel.fen_edit, "8/8/8/8/8/8/8/8 w - - 0 1")
    assert "kings" in panel.fen_error.text()
    assert panel.fen_error.isVisible()
    fen = "4k3/8/8/8/8/8/8/4K2R w K - 0 1"
    panel.fen_edit.clear()
    qtbot.keyClicks(panel.fen_edit, fen)
    assert not panel.fen_error.isVisible()
    qtbot.keyClick(panel.fen_edit, Qt.Key_Return)
    assert panel.position.fen() == fen


def test_promotion_asks_which_piece(qtbot):
    panel = make_panel(qtbot, "8/4P1k1/8/8/8/8/8/4K3 w - - 0 1")
    offered = []
    panel.view.promotion_chooser = lambda choices: offered.extend(choices) or "e7e8n"
    qtbot.mouseClick(panel.view, Qt.LeftButton, pos=centre(panel, "e7"))
    qtbot.mouseClick(panel.view, Qt.LeftButton, pos=centre(panel, "e8"))
    assert sorted(offered) == ["e7e8b", "e7e8n", "e7e8q", "e7e8r"]
    assert panel.position.board[parse_square("e8")] == "N"
