from PySide6.QtCore import QPoint, Qt

from perftscope.core.board.position import START_FEN, Position, parse_square
from perftscope.widgets.board import BoardPanel


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


def test_a_typed_standard_fen_is_standard_chess_and_its_impossible_right_is_dropped(qtbot):
    # king on e1, 'Q', the rook on c1: standard chess has no such right; Chess960 does
    fen = "8/8/8/4B2b/6nN/8/5P2/2R1K2k w Q - 0 1"
    panel = make_panel(qtbot)
    panel.fen_edit.clear()
    qtbot.keyClicks(panel.fen_edit, fen)
    assert panel.fen_error.text() == "castling right 'Q' dropped: no white rook on a1"
    qtbot.keyClick(panel.fen_edit, Qt.Key_Return)
    assert panel.position.fen() == "8/8/8/4B2b/6nN/8/5P2/2R1K2k w - - 0 1" and not panel.position.chess960
    # with the board in Chess960 (the status bar's box ticked) the same FEN is the c1 rook's right
    panel.set_position(panel.position.with_options(chess960=True))
    panel.fen_edit.clear()
    qtbot.keyClicks(panel.fen_edit, fen)
    qtbot.keyClick(panel.fen_edit, Qt.Key_Return)
    assert panel.position.chess960 and "e1c1" in panel.position.legal_moves()
    assert panel.position.fen() == "8/8/8/4B2b/6nN/8/5P2/2R1K2k w C - 0 1" and not panel.fen_error.isVisible()


def test_promotion_asks_which_piece(qtbot):
    panel = make_panel(qtbot, "8/4P1k1/8/8/8/8/8/4K3 w - - 0 1")
    offered = []
    panel.view.promotion_chooser = lambda choices: offered.extend(choices) or "e7e8n"
    qtbot.mouseClick(panel.view, Qt.LeftButton, pos=centre(panel, "e7"))
    qtbot.mouseClick(panel.view, Qt.LeftButton, pos=centre(panel, "e8"))
    assert sorted(offered) == ["e7e8b", "e7e8n", "e7e8q", "e7e8r"]
    assert panel.position.board[parse_square("e8")] == "N"


def test_undo_restores_the_fen_and_redo_replays(qtbot):
    panel = make_panel(qtbot)
    start = panel.position.fen()
    panel.play("e2e4")
    panel.play("e7e5")
    kiwipete = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"
    panel.set_fen(kiwipete)
    assert panel.can_undo() and not panel.can_redo()
    panel.undo()
    assert panel.fen_edit.text() == Position.from_fen(start).push("e2e4").push("e7e5").fen()
    assert panel.moves == ["e2e4", "e7e5"]
    panel.undo()
    panel.undo()
    assert panel.position.fen() == start and panel.moves == [] and not panel.can_undo()
    panel.redo()
    assert panel.moves == ["e2e4"]
    panel.play("d7d5")                       # a new change drops what could be redone
    assert not panel.can_redo() and panel.moves == ["e2e4", "d7d5"]


def test_moves_read_in_san_or_uci(qtbot):
    panel = make_panel(qtbot)
    for uci in ("e2e4", "e7e5", "g1f3", "b8c6", "f1b5"):
        panel.play(uci)
    assert panel.move_texts() == ["e4", "e5", "Nf3", "Nc6", "Bb5"]
    assert "1. e4 e5 2. Nf3 Nc6 3. " in panel.moves_label.text()
    panel.set_san(False)
    assert panel.move_texts()[-1] == "f1b5" and "3. <b><u>f1b5</u></b>" in panel.moves_label.text()


def test_f_flips_once_the_board_is_clicked(qtbot):
    panel = make_panel(qtbot)
    panel.activateWindow()
    qtbot.waitActive(panel)
    qtbot.mouseClick(panel.view, Qt.LeftButton, pos=centre(panel, "e4"))     # an empty square
    qtbot.keyClick(panel.view, Qt.Key_F)
    assert panel.view.flipped
    assert "F once the board is clicked" in panel.buttons["flip"].toolTip()


def test_the_board_grows_square_with_its_panel(qtbot):
    panel = make_panel(qtbot)
    for w, h in ((480, 560), (900, 1000), (1200, 700)):
        panel.resize(w, h)
        qtbot.wait(10)
        side = panel.view.square_rect(0).width() * 8
        # square, and as large as the panel allows after the rows below it
        below = panel.height() - panel.view.height()
        assert abs(side - min(w, h - below)) <= 2, (w, h, side)
        assert panel.view.height() > h - 160


def test_a_fen_is_readable_in_its_field_and_the_move_list_has_its_own_row(qtbot):
    from PySide6.QtGui import QFontMetrics
    panel = make_panel(qtbot)
    panel.resize(360, 560)                 # the board column of a 1024x700 window
    qtbot.waitUntil(lambda: panel.fen_edit.width() <= 360)
    panel._fit_fen()
    text = panel.fen_edit.text()            # the start position: whole, in a font that can be read
    assert QFontMetrics(panel.fen_edit.font()).horizontalAdvance(text) <= panel.fen_edit.width() - 14
    assert panel.fen_edit.font().pixelSize() >= 10 and panel.fen_edit.toolTip() == ""
    kiwipete = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"
    panel.set_fen(kiwipete)                 # too long for 10 px: it scrolls, never smaller, whole in its tooltip
    assert panel.fen_edit.font().pixelSize() == 10 and panel.fen_edit.toolTip() == kiwipete
    # "no moves played" on one line, under the navigation row rather than squeezed beside it
    label = panel.moves_label
    assert label.height() < 2 * QFontMetrics(label.font()).height()
    assert label.y() > panel.turn_label.y()
