from PySide6.QtCore import Qt
from PySide6.QtWidgets import QDialogButtonBox

from perftscope.core.board.position import START_FEN, Position, parse_square, placement
from perftscope.widgets.board_editor import PIECES, BoardEditor


def make_editor(qtbot, fen=START_FEN):
    editor = BoardEditor(fen)
    qtbot.addWidget(editor)
    editor.resize(700, 520)
    editor.show()
    qtbot.waitExposed(editor)
    return editor


def click(qtbot, editor, square, button=Qt.LeftButton):
    point = editor.board.square_rect(parse_square(square)).center().toPoint()
    qtbot.mouseClick(editor.board, button, pos=point)


def pick(editor, piece):
    editor.palette.buttons()[PIECES.index(piece) if piece else len(PIECES)].click()


def ok(editor):
    return editor.buttons.button(QDialogButtonBox.Ok)


def test_placement_round_trips_the_fen_field():
    assert placement(Position.from_fen(START_FEN).board) == START_FEN.split()[0]


def test_set_up_by_hand_from_a_clear_board(qtbot):
    editor = make_editor(qtbot)
    editor.clear()
    assert "king" in editor.error.text() and not ok(editor).isEnabled()
    for piece, square in (("K", "e1"), ("k", "e8"), ("R", "h1"), ("p", "d4"), ("P", "e4")):
        pick(editor, piece)
        click(qtbot, editor, square)
    editor.castling["K"].setChecked(True)
    editor.side.setCurrentIndex(1)
    editor.ep.setCurrentText("e3")
    assert editor.fen() == "4k3/8/8/8/3pP3/8/8/4K2R b K e3 0 1"
    assert editor.error.text() == "" and ok(editor).isEnabled()
    Position.from_fen(editor.fen())                  # the core takes it
    click(qtbot, editor, "d4", Qt.RightButton)       # right-click empties a square
    assert editor.board.board[parse_square("d4")] == ""
    pick(editor, "")                                 # so does the palette's empty square
    click(qtbot, editor, "e4")
    assert editor.fen().split()[0] == "4k3/8/8/8/8/8/8/4K2R"


def test_the_editor_refuses_an_illegal_setup_naming_the_field(qtbot):
    editor = make_editor(qtbot)
    # castling rights without the rook on h1: the castling field is named, as in the FEN box
    pick(editor, "N")
    click(qtbot, editor, "h1")
    click(qtbot, editor, "h1")                       # the same piece again: toggles the square empty
    assert editor.board.board[parse_square("h1")] == ""
    message = editor.error.text()
    assert "castling" in message.lower() and not ok(editor).isEnabled()
    editor.castling["K"].setChecked(False)
    assert ok(editor).isEnabled()
    # a pawn on the eighth rank
    pick(editor, "P")
    click(qtbot, editor, "a8")
    assert "pawn" in editor.error.text().lower() and not ok(editor).isEnabled()
    editor.accept()
    assert editor.result() != BoardEditor.Accepted


def test_start_position_button_and_the_accepted_fen(qtbot):
    editor = make_editor(qtbot, "4k3/8/8/8/8/8/8/4K3 w - - 0 1")
    editor.findChildren(type(ok(editor)))            # buttons exist
    [b for b in editor.findChildren(type(ok(editor))) if b.text() == "Start position"][0].click()
    assert editor.fen() == START_FEN
    editor.accept()
    assert editor.result() == BoardEditor.Accepted


def test_the_board_stays_where_it_is_when_a_message_appears(qtbot):
    # a message under the board must not push it: a drop aimed at a square would land beside it
    editor = make_editor(qtbot)
    before = (editor.board.geometry(), editor.board.square_rect(parse_square("e4")))
    assert editor.error.text() == ""
    click(qtbot, editor, "e1", Qt.RightButton)            # no white king
    qtbot.wait(50)
    assert "king" in editor.error.text()
    assert (editor.board.geometry(), editor.board.square_rect(parse_square("e4"))) == before
    editor.clear()                                        # another message, then none again
    editor.load(START_FEN)
    qtbot.wait(50)
    assert editor.error.text() == ""
    assert (editor.board.geometry(), editor.board.square_rect(parse_square("e4"))) == before
