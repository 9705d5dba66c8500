"""A one-line label that never asks for more width than it is given: a long text is drawn elided
("…") and whole in its tooltip, and text() is always the whole text. The status bar's message is
one: a long message ran on under the Chess960 box beside it."""
from __future__ import annotations

from PySide6.QtCore import QSize, Qt
from PySide6.QtGui import QGuiApplication, QPainter
from PySide6.QtWidgets import QLabel, QMenu, QSizePolicy


class ElidedLabel(QLabel):
    def __init__(self, text: str = "", parent=None):
        super().__init__(text, parent)
        self.setSizePolicy(QSizePolicy.Ignored, QSizePolicy.Preferred)
        self.setContextMenuPolicy(Qt.CustomContextMenu)
        self.customContextMenuRequested.connect(self._menu)

    def setText(self, text: str):
        super().setText(text)
        self.setToolTip(text if self.elided() else "")

    def elided(self) -> bool:
        """The whole text does not fit: what is drawn ends in '…'."""
        return self.fontMetrics().horizontalAdvance(self.text()) > self.contentsRect().width()

    def shown(self) -> str:
        """What is drawn: the text, elided to the label's width."""
        return self.fontMetrics().elidedText(self.text(), Qt.ElideRight, self.contentsRect().width())

    def minimumSizeHint(self) -> QSize:
        return QSize(0, super().minimumSizeHint().height())

    def sizeHint(self) -> QSize:
        return QSize(0, super().sizeHint().height())

    def resizeEvent(self, event):
        super().resizeEvent(event)
        self.setToolTip(self.text() if self.elided() else "")

    def paintEvent(self, _event):
        painter = QPainter(self)
        painter.setPen(self.palette().color(self.foregroundRole()))
        painter.setFont(self.font())
        painter.drawText(self.contentsRect(), int(self.alignment() | Qt.AlignVCenter), self.shown())
        painter.end()

    def _menu(self, point):
        menu = QMenu(self)
        menu.addAction("Copy message", lambda: QGuiApplication.clipboard().setText(self.text()))
        menu.exec(self.mapToGlobal(point))
