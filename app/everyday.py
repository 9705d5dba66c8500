"""The board's everyday commands: load a FEN (a bad one is a message naming the field, the board
unchanged), paste one, set a position up in the editor, copy the FEN, start over, Chess960 on or
off; and the notation toggle, SAN or UCI in every move list.

Commands in git-cola's sense: each is given what it acts on (the board, the window's
app.model.MainModel for what it says), and the menus and panels call them.
"""
from __future__ import annotations

from PySide6.QtCore import QObject, Signal
from PySide6.QtWidgets import QApplication, QDialog

from perftscope.core.board.position import START_FEN
from perftscope.core.errors import PerftscopeError

SAN_KEY = "board/san"


class BoardCommands:
    """`board` the widgets.board.BoardPanel, `model` the MainModel, `parent` the window (dialogs)."""

    def __init__(self, board, model, parent=None):
        self.board, self.model, self.parent = board, model, parent

    def set_fen(self, fen: str) -> bool:
        """Show a FEN; a bad one is reported in the window, the board stays as it was."""
        try:
            self.board.set_fen(fen)
        except PerftscopeError as e:
            self.model.say(str(e), error=True)
            return False
        return True

    def load(self, fen: str, title: str):
        """A position chosen by name (the library's)."""
        if self.set_fen(fen):
            self.model.say(f"Loaded {title}")

    def start_position(self):
        self.set_fen(START_FEN)

    def copy_fen(self):
        QApplication.clipboard().setText(self.board.position.fen())

    def set_chess960(self, on: bool):
        """Castling as king takes rook, the FEN in Shredder-FEN (off: X-FEN)."""
        self.board.set_position(self.board.position.with_options(
            chess960=on, fen_style="shredder" if on else "xfen"))

    def paste_fen(self) -> bool:
        """Load the clipboard's FEN; a bad one is a message naming the field, the board unchanged."""
        text = " ".join(QApplication.clipboard().text().split())
        if not text:
            self.model.say("Paste FEN: the clipboard holds no text", error=True)
            return False
        if self.set_fen(text):
            self.model.say("Pasted FEN loaded")
            return True
        return False

    def edit_position(self, dialog_hook=None) -> QDialog:
        """Open the board editor on the board's position; OK puts the result on the board.
        dialog_hook(dialog) is called before it runs (tests answer it there)."""
        from perftscope.widgets.board_editor import BoardEditor
        dialog = BoardEditor(self.board.position.fen(), self.parent)
        if dialog_hook is not None:
            dialog_hook(dialog)
        else:
            dialog.exec()
        if dialog.result() == QDialog.Accepted and self.set_fen(dialog.fen()):
            self.model.say("Position set up in the editor")
        return dialog


class Notation(QObject):
    """Every move list in SAN or UCI: the board's moves, the divide tree's rows, the finder's
    report and the Test-engine findings (the engine log shows what was really sent and read, so
    it stays as it is). Remembered with QSettings."""
    changed = Signal(bool)             # SAN on

    def __init__(self, settings, board, tree_model, finder_panel, test_engine, parent=None):
        super().__init__(parent)
        self.settings = settings
        self.board, self.tree_model, self.finder_panel, self.test_engine = board, tree_model, finder_panel, test_engine
        self.san = True

    def set_san(self, on: bool, remember: bool = True):
        from perftscope.widgets.notation import SanNames, san_or_uci
        self.san = on
        self.board.set_san(on)
        self.finder_panel.set_move_name(san_or_uci if on else None)
        self.test_engine.set_move_name(san_or_uci if on else None)
        self.tree_model.move_text = SanNames(self.tree_model) if on else None
        self.tree_model.layoutChanged.emit()
        if remember:
            self.settings.setValue(SAN_KEY, on)
        self.changed.emit(on)

    def restore(self):
        san = self.settings.value(SAN_KEY, True)
        self.set_san(san if isinstance(san, bool) else str(san).lower() == "true", remember=False)
