"""The window's everyday commands and memory: Edit (undo/redo, paste FEN, edit position),
View (SAN or UCI), Divide (copy in Stockfish's format, save), Help and About; and every
setting (window size, splitters, notation, the run panel's choices) kept with QSettings.

`install(window)` adds them to a MainWindow; `remember(window)` saves what it shows.
"""
from __future__ import annotations

from PySide6.QtCore import QByteArray
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QApplication, QDialog

from . import help as help_dialogs

GEOMETRY_KEY = "window/geometry"
SPLITTERS_KEY = "window/splitters/"
SAN_KEY = "board/san"
RUN_KEYS = ("run/depth", "run/workers", "run/hash_exp")


def _action(window, menu, text, keys, slot, checkable=False):
    action = QAction(text, window)
    if keys:
        action.setShortcut(QKeySequence(keys))
    action.setCheckable(checkable)
    action.triggered.connect(slot)
    menu.addAction(action)
    return action


def install(window):
    from perftscope.widgets.divide_export import DivideActions
    from perftscope.widgets.divide_export import install as install_tree_menu

    bar = window.menuBar()
    edit = bar.addMenu("&Edit")
    window.undo_action = _action(window, edit, "&Undo board change", QKeySequence.Undo, window.board.undo)
    window.redo_action = _action(window, edit, "&Redo board change", QKeySequence.Redo, window.board.redo)
    edit.addSeparator()
    _action(window, edit, "&Paste FEN", QKeySequence.Paste, lambda: paste_fen(window))
    _action(window, edit, "&Edit position…", "Ctrl+E", lambda: edit_position(window))

    view = bar.addMenu("&View")
    window.san_action = _action(window, view, "Moves in &SAN (off: UCI)", "Ctrl+U",
                                lambda on: set_san(window, on), checkable=True)

    window.divide_actions = DivideActions(window.model, window)
    window.divide_actions.message.connect(window.show_message)
    window.divide_actions.newRoot.connect(lambda fen: new_root(window, fen))
    install_tree_menu(window.tree, window.divide_actions)
    divide = bar.addMenu("&Divide")
    _action(window, divide, "&Copy divide (Stockfish format)", "Ctrl+Shift+D",
            lambda: window.divide_actions.copy_stockfish())
    _action(window, divide, "&Save divide as CSV or JSON…", "",
            lambda: window.divide_actions.save(parent_widget=window))

    helps = bar.addMenu("&Help")
    _action(window, helps, "perftscope &Help", QKeySequence.HelpContents,
            lambda: help_dialogs.show_text(window, "perftscope help", help_dialogs.help_html(window)))
    _action(window, helps, "&About perftscope", "",
            lambda: help_dialogs.show_text(window, "About perftscope", help_dialogs.about_html(), (520, 360)))

    window.board.historyChanged.connect(lambda: _history(window))
    _history(window)
    restore(window)


def _history(window):
    window.undo_action.setEnabled(window.board.can_undo())
    window.redo_action.setEnabled(window.board.can_redo())


def paste_fen(window) -> bool:
    """Load the clipboard's FEN; a bad one is a message naming the field, the board unchanged."""
    text = " ".join(QApplication.clipboard().text().split())
    if not text:
        window.show_error("Paste FEN: the clipboard holds no text")
        return False
    if window.set_fen(text):
        window.show_message("Pasted FEN loaded")
        return True
    return False


def edit_position(window, dialog_hook=None) -> QDialog:
    """Open the board editor on the board's position; OK puts the result on the board.
    dialog_hook(dialog) is called before it runs (tests answer it there)."""
    from perftscope.widgets.board_editor import BoardEditor
    dialog = BoardEditor(window.board.position.fen(), window)
    if dialog_hook is not None:
        dialog_hook(dialog)
    else:
        dialog.exec()
    if dialog.result() == QDialog.Accepted and window.set_fen(dialog.fen()):
        window.show_message("Position set up in the editor")
    return dialog


def new_root(window, fen: str):
    """A tree row's position becomes the board's, divided at one less depth."""
    depth = max(1, window.tree.depth.value() - 1)
    if window.set_fen(fen):
        window.divide(depth)


def set_san(window, on: bool, remember: bool = True):
    """Every move list in SAN (on) or UCI: the board's moves, the divide tree's rows, the
    finder's report and the Test-engine findings (the engine log shows what was really sent
    and read, so it stays as it is)."""
    from perftscope.widgets.divide_export import SanNames, san_or_uci
    window.board.set_san(on)
    window.finder_panel.set_move_name(san_or_uci if on else None)
    window.test_engine.set_move_name(san_or_uci if on else None)
    window.model.move_text = SanNames(window.model) if on else None
    window.model.layoutChanged.emit()
    if remember:
        window.settings.setValue(SAN_KEY, on)


def _splitters(window):
    from PySide6.QtWidgets import QSplitter
    return {s.objectName(): s for s in window.findChildren(QSplitter) if s.objectName()}


def restore(window):
    s = window.settings
    geometry = s.value(GEOMETRY_KEY)
    if isinstance(geometry, QByteArray):
        window.restoreGeometry(geometry)
    for name, splitter in _splitters(window).items():
        state = s.value(SPLITTERS_KEY + name)
        if isinstance(state, QByteArray):
            splitter.restoreState(state)
    san = s.value(SAN_KEY, True)
    san = san if isinstance(san, bool) else str(san).lower() == "true"
    window.san_action.setChecked(san)
    set_san(window, san, remember=False)
    panel = window.run_panel
    depth, workers, hash_exp = (s.value(k) for k in RUN_KEYS)
    if depth is not None:
        panel.depth.setValue(int(depth))
    if workers is not None:
        panel.workers.setValue(int(workers))
    if hash_exp is not None:
        i = panel.hash_size.findData(int(hash_exp))
        if i >= 0:
            panel.hash_size.setCurrentIndex(i)


def remember(window):
    s = window.settings
    s.setValue(GEOMETRY_KEY, window.saveGeometry())
    for name, splitter in _splitters(window).items():
        s.setValue(SPLITTERS_KEY + name, splitter.saveState())
    panel = window.run_panel
    for key, value in zip(RUN_KEYS, (panel.depth.value(), panel.workers.value(),
                                     int(panel.hash_size.currentData()))):
        s.setValue(key, value)
    s.sync()

