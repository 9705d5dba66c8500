"""Tabs whose titles all stay readable: each tab has a title and a short one ("Finder report",
"Finder"), and when the full titles do not fit the bar's width the short ones are shown, whole,
rather than every title cut to "Di…". The tooltip keeps the full title."""
from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QTabWidget, QWidget


class FittingTabs(QTabWidget):
    def __init__(self, parent=None):
        super().__init__(parent)
        self._titles: list[tuple[str, str]] = []
        self.setUsesScrollButtons(False)     # every tab stays in sight
        self.setElideMode(Qt.ElideRight)     # only when even the short titles cannot fit

    def add(self, widget: QWidget, title: str, short: str, tip: str | None = None) -> int:
        index = self.addTab(widget, title)
        self._titles.append((title, short))
        self.setTabToolTip(index, tip or title)
        self._fit()
        return index

    def title(self, index: int) -> str:
        """The full title of tab `index`, whichever is shown."""
        return self._titles[index][0]

    def _needed(self, which: int) -> int:
        """The bar's width with every tab's full (0) or short (1) title."""
        bar = self.tabBar()
        metrics = bar.fontMetrics()
        width = 0
        for i, titles in enumerate(self._titles):
            padding = bar.tabSizeHint(i).width() - metrics.horizontalAdvance(bar.tabText(i))
            width += metrics.horizontalAdvance(titles[which]) + padding
        return width

    def _fit(self):
        which = 0 if self._needed(0) <= self.width() - 4 else 1
        for i, titles in enumerate(self._titles):
            if self.tabText(i) != titles[which]:
                self.setTabText(i, titles[which])

    def resizeEvent(self, event):
        super().resizeEvent(event)
        self._fit()
