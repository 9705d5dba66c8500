"""The menu bar, built from the collaborators it calls: File (sessions, quit), Position and Edit
(the board and its commands), View (the notation), Divide (the tree's exports) and Help. Help's
table of shortcuts is read back from these menus (app.help), so it cannot drift from them.
"""
from __future__ import annotations

from PySide6.QtGui import QAction, QKeySequence

from . import help as help_dialogs


class Menus:
    """`window` the QMainWindow (its menu bar, the parent of dialogs and actions), `board` the
    BoardPanel, `commands` app.everyday.BoardCommands, `sessions` app.session_files.SessionController,
    `exports` widgets.divide_export.DivideActions, `notation` app.everyday.Notation."""

    def __init__(self, window, board, commands, sessions, exports, notation):
        self.window = window
        bar = window.menuBar()
        files = bar.addMenu("&File")
        self._add(files, "&Open session…", QKeySequence.Open, lambda: sessions.ask_open(window))
        self._add(files, "&Save session…", QKeySequence.Save, lambda: sessions.ask_save(window))
        files.addSeparator()
        self._add(files, "&Quit", QKeySequence.Quit, window.close)

        position = bar.addMenu("&Position")
        self._add(position, "&Start position", "Ctrl+N", commands.start_position)
        self._add(position, "&Flip board", "Ctrl+F", board.flip)
        self._add(position, "&Copy FEN", "Ctrl+Shift+C", commands.copy_fen)

        edit = bar.addMenu("&Edit")
        self.undo = self._add(edit, "&Undo board change", QKeySequence.Undo, board.undo)
        self.redo = self._add(edit, "&Redo board change", QKeySequence.Redo, board.redo)
        edit.addSeparator()
        self._add(edit, "&Paste FEN", QKeySequence.Paste, commands.paste_fen)
        self._add(edit, "&Edit position…", "Ctrl+E", commands.edit_position)

        view = bar.addMenu("&View")
        self.san = self._add(view, "Moves in &SAN (off: UCI)", "Ctrl+U", notation.set_san, checkable=True)
        notation.changed.connect(self._show_san)

        divide = bar.addMenu("&Divide")
        self._add(divide, "&Copy divide (Stockfish format)", "Ctrl+Shift+D", lambda: exports.copy_stockfish())
        self._add(divide, "&Save divide as CSV or JSON…", "", lambda: exports.save(parent_widget=window))

        helps = bar.addMenu("&Help")
        self._add(helps, "perftscope &Help", QKeySequence.HelpContents,
                  lambda: help_dialogs.show_text(window, "perftscope help", help_dialogs.help_html(window)))
        self._add(helps, "&About perftscope", "",
                  lambda: help_dialogs.show_text(window, "About perftscope", help_dialogs.about_html(), (520, 360)))

        board.historyChanged.connect(lambda: self._history(board))
        self._history(board)

    def _add(self, menu, text, keys, slot, checkable=False) -> QAction:
        action = QAction(text, self.window)
        if keys:
            action.setShortcut(QKeySequence(keys))
        action.setCheckable(checkable)
        if checkable:
            action.triggered.connect(slot)
        else:
            action.triggered.connect(lambda _checked=False: slot())
        menu.addAction(action)
        return action

    def _history(self, board):
        self.undo.setEnabled(board.can_undo())
        self.redo.setEnabled(board.can_redo())

    def _show_san(self, on: bool):
        self.san.blockSignals(True)
        self.san.setChecked(on)
        self.san.blockSignals(False)
