"""Words that wrap, shown whole where there is room and scrolled where there is not. A layout
sizes a wrapped QLabel by its width hint's height, so in a narrow window the Suspect lines tab's
word on a fix (the checks it passed, the engine's other bug) was cut off under the diff."""
from __future__ import annotations

from PySide6.QtCore import QSize, Qt
from PySide6.QtWidgets import QFrame, QLabel, QScrollArea


class WrappedWords(QScrollArea):
    """`label`, word-wrapped, asking for the height its text needs at the width given, and
    settling for `lines` lines and a scroll bar when the window has no more room."""

    def __init__(self, lines: int = 2, parent=None):
        super().__init__(parent)
        self.label = QLabel()
        self.label.setWordWrap(True)
        self.label.setAlignment(Qt.AlignLeft | Qt.AlignTop)
        self.setWidget(self.label)
        self.setWidgetResizable(True)
        self.setFrameShape(QFrame.NoFrame)
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarAlwaysOff)
        self.lines = lines

    def setText(self, text: str):
        self.label.setText(text)
        self.updateGeometry()

    def text(self) -> str:
        return self.label.text()

    def needed(self) -> int:
        """The height the whole text needs at the width it has."""
        return self.label.heightForWidth(self.viewport().width())

    def sizeHint(self) -> QSize:
        return QSize(super().sizeHint().width(), self.needed())

    def minimumSizeHint(self) -> QSize:
        return QSize(0, min(self.needed(), self.lines * self.label.fontMetrics().lineSpacing()))

    def resizeEvent(self, event):
        super().resizeEvent(event)
        if event.size().width() != event.oldSize().width():     # its height follows its width only
            self.updateGeometry()
