"""The engine log: what was sent to each engine and what came back (stdout, stderr, errors),
as the oracle records it, in a read-only text that can be copied.
"""
from __future__ import annotations

from PySide6.QtGui import QFont
from PySide6.QtWidgets import QApplication, QHBoxLayout, QLabel, QPlainTextEdit, QPushButton, QVBoxLayout, QWidget


class EngineLogPanel(QWidget):
    def __init__(self, parent=None):
        super().__init__(parent)
        self.view = QPlainTextEdit()
        self.view.setReadOnly(True)
        self.view.setFont(QFont("DejaVu Sans Mono", 9))
        self.view.setLineWrapMode(QPlainTextEdit.NoWrap)
        self.view.setPlaceholderText("Nothing sent to an engine yet.")
        self.copy_button = QPushButton("Copy")
        self.copy_button.setToolTip("Copy the whole log to the clipboard")
        note = QLabel("'>' sent, '<' the engine's output, '!' its errors")
        row = QHBoxLayout()
        row.addWidget(note, 1)
        row.addWidget(self.copy_button)
        box = QVBoxLayout(self)
        box.setContentsMargins(4, 4, 4, 4)
        box.addLayout(row)
        box.addWidget(self.view, 1)
        self.copy_button.clicked.connect(lambda: QApplication.clipboard().setText(self.text()))
        self._shown = None

    def show_logs(self, logs: dict[str, str]):
        """Each engine's log under its spec; redrawn only when it changed (called every tick)."""
        text = "\n\n".join(f"== {spec}\n{log or '(nothing yet)'}" for spec, log in logs.items())
        if text != self._shown:
            self._shown = text
            bar = self.view.verticalScrollBar()
            at_end = bar.value() >= bar.maximum() - 2
            self.view.setPlainText(text)
            if at_end:
                bar.setValue(bar.maximum())

    def text(self) -> str:
        return self.view.toPlainText()
