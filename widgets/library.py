"""The position library: the bundled suites from resources/, grouped by file, each
position with its note; one click loads it (`positionChosen(fen, title)`).
"""
from __future__ import annotations

import re
from pathlib import Path

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import QHeaderView, QLabel, QLineEdit, QTreeWidget, QTreeWidgetItem, QVBoxLayout, QWidget

from perftscope import resources
from perftscope.core.board.position import Position
from perftscope.core.counting.suites import SuiteEntry, load

RESOURCES = resources.DIR

# the suites a person browses; the large random sets are for tests and benchmarks
LIBRARY_FILES = (("standard.epd", "Standard positions"),
                 ("edge_cases.epd", "Edge cases"),
                 ("ep_edge_cases.epd", "En-passant edge cases"),
                 ("perftsuite.epd", "Perft suite (126 positions)"),
                 ("chess960.perft", "Chess960"))


def title_of(entry: SuiteEntry) -> str:
    """The note up to its first colon or bracket: 'Position 3', 'Illegal ep move #1'."""
    text = re.split(r"[:\[]", entry.note, maxsplit=1)[0].strip() if entry.note else ""
    return text or entry.fen.split()[0]


def load_library(root: Path = RESOURCES) -> dict[str, list[SuiteEntry]]:
    """{group title: suite entries} for the library files present under root."""
    groups = {}
    for name, title in LIBRARY_FILES:
        if (root / name).exists():
            groups[title] = load(root / name)
    return groups


class LibraryPanel(QWidget):
    positionChosen = Signal(str, str)      # fen, title

    def __init__(self, root: Path = RESOURCES, parent=None):
        super().__init__(parent)
        self.filter = QLineEdit()
        self.filter.setPlaceholderText("Filter by note or FEN…")
        self.filter.setClearButtonEnabled(True)
        self.tree = QTreeWidget()
        self.tree.setHeaderLabels(["Position", "Published"])
        self.tree.setRootIsDecorated(True)
        self.tree.setAlternatingRowColors(True)
        self.tree.setUniformRowHeights(True)
        self.note = QLabel()
        self.note.setWordWrap(True)
        self.note.setTextInteractionFlags(Qt.TextSelectableByMouse)
        self.note.setStyleSheet("color:#333; padding:4px;")
        box = QVBoxLayout(self)
        box.setContentsMargins(4, 4, 4, 4)
        box.addWidget(self.filter)
        box.addWidget(self.tree, 1)
        box.addWidget(self.note)
        self.groups = load_library(root)
        self._positions: dict = {}       # an entry's FEN -> its Position, read when first compared
        self._fill()
        self.tree.itemClicked.connect(self._chosen)
        self.tree.currentItemChanged.connect(lambda item, _: self._describe(item))
        self.filter.textChanged.connect(self._apply_filter)

    def _fill(self):
        for name, entries in self.groups.items():
            group = QTreeWidgetItem([f"{name} ({len(entries)})", ""])
            group.setFlags(Qt.ItemIsEnabled)
            self.tree.addTopLevelItem(group)
            for e in entries:
                depths = sorted(e.expected)
                known = f"D{depths[0]}–{depths[-1]}" if len(depths) > 1 else f"D{depths[0]}" if depths else ""
                item = QTreeWidgetItem([title_of(e), known])
                item.setData(0, Qt.UserRole, e)
                counts = "\n".join(f"perft {d}: {n:,}" for d, n in sorted(e.expected.items()))
                item.setToolTip(0, "\n".join(x for x in (e.note, e.full_fen, counts) if x))
                group.addChild(item)
        if self.tree.topLevelItemCount():
            self.tree.topLevelItem(0).setExpanded(True)
        header = self.tree.header()
        header.setStretchLastSection(False)
        header.setSectionResizeMode(0, QHeaderView.Stretch)
        header.setSectionResizeMode(1, QHeaderView.ResizeToContents)

    def entries(self) -> list[SuiteEntry]:
        return [e for entries in self.groups.values() for e in entries]

    def _entry(self, item) -> SuiteEntry | None:
        return item.data(0, Qt.UserRole) if item is not None else None

    def _describe(self, item):
        e = self._entry(item)
        self.note.setText(f"<b>{title_of(e)}</b><br>{e.note}<br><tt>{e.full_fen}</tt>" if e else "")

    def _chosen(self, item, _column=0):
        e = self._entry(item)
        if e is not None:
            self._describe(item)
            self.positionChosen.emit(e.full_fen, title_of(e))

    def show_position(self, position):
        """The board shows `position` (a core.board.position.Position): the entry of that position
        stays selected, another one is deselected (its note would name a position not shown)."""
        current = self.tree.currentItem()
        if current is not None and self._position(current) == position:
            return
        self.tree.setCurrentItem(None)
        self.tree.clearSelection()
        self.note.clear()

    def _position(self, item):
        """The entry's Position, read once."""
        e = self._entry(item)
        if e is None:
            return None
        if e.full_fen not in self._positions:
            self._positions[e.full_fen] = Position.from_fen(e.full_fen)
        return self._positions[e.full_fen]

    def _apply_filter(self, text: str):
        needle = text.strip().lower()
        for i in range(self.tree.topLevelItemCount()):
            group = self.tree.topLevelItem(i)
            shown = 0
            for j in range(group.childCount()):
                e = self._entry(group.child(j))
                hit = not needle or needle in e.note.lower() or needle in e.fen.lower() \
                    or needle in e.name.lower()
                group.child(j).setHidden(not hit)
                shown += hit
            group.setHidden(shown == 0)
            if needle and shown:
                group.setExpanded(True)
