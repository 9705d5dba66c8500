"""The position library: the bundled suites from resources/, grouped by file, each
position with its note; one click loads it (`positionChosen(fen, title)`).
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import QLabel, QLineEdit, QTreeWidget, QTreeWidgetItem, QVBoxLayout, QWidget

RESOURCES = Path(__file__).resolve().parent.parent / "resources"


@dataclass(frozen=True)
class Entry:
    fen: str
    title: str
    note: str
    counts: dict            # depth -> published perft count
    source: str             # file it came from


def read_epd(path: Path) -> list[Entry]:
    """`FEN ;D1 n ;D2 n ... ; free note` lines (the resources' format)."""
    entries = []
    for number, line in enumerate(path.read_text().splitlines(), 1):
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        fields = [f.strip() for f in line.split(";")]
        fen, counts, notes = fields[0], {}, []
        for f in fields[1:]:
            head, _, value = f.partition(" ")
            if head[:1] == "D" and head[1:].isdigit() and value.strip().isdigit():
                counts[int(head[1:])] = int(value)
            elif f:
                notes.append(f)
        note = "; ".join(notes)
        title = note.split(":")[0] if note else f"{path.stem} #{number}"
        entries.append(Entry(fen, title, note, counts, path.name))
    return entries


def load_library(root: Path = RESOURCES) -> dict[str, list[Entry]]:
    """{group name: entries} for every .epd file under root."""
    groups = {}
    for path in sorted(root.glob("*.epd")):
        entries = read_epd(path)
        if entries:
            groups[path.stem.replace("_", " ")] = entries
    return groups


class LibraryPanel(QWidget):
    positionChosen = Signal(str, str)      # fen, title

    def __init__(self, root: Path = RESOURCES, parent=None):
        super().__init__(parent)
        self.filter = QLineEdit()
        self.filter.setPlaceholderText("Filter by note or FEN…")
        self.filter.setClearButtonEnabled(True)
        self.tree = QTreeWidget()
        self.tree.setHeaderLabels(["Position", "Perft"])
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
                deepest = max(e.counts) if e.counts else None
                perft = f"D{deepest} {e.counts[deepest]:,}" if deepest else ""
                item = QTreeWidgetItem([e.title, perft])
                item.setData(0, Qt.UserRole, e)
                item.setToolTip(0, f"{e.note}\n{e.fen}" if e.note else e.fen)
                group.addChild(item)
        if self.tree.topLevelItemCount():
            self.tree.topLevelItem(0).setExpanded(True)
        self.tree.resizeColumnToContents(1)
        self.tree.setColumnWidth(0, 260)

    def entries(self) -> list[Entry]:
        return [e for entries in self.groups.values() for e in entries]

    def _entry(self, item) -> Entry | None:
        return item.data(0, Qt.UserRole) if item is not None else None

    def _describe(self, item):
        e = self._entry(item)
        self.note.setText(f"<b>{e.title}</b><br>{e.note}<br><tt>{e.fen}</tt>" if e else "")

    def _chosen(self, item, _column=0):
        e = self._entry(item)
        if e is not None:
            self._describe(item)
            self.positionChosen.emit(e.fen, e.title)

    def _apply_filter(self, text: str):
        needle = text.strip().lower()
        for i in range(self.tree.topLevelItemCount()):
            group = self.tree.topLevelItem(i)
            shown = 0
            for j in range(group.childCount()):
                e = self._entry(group.child(j))
                hit = not needle or needle in e.note.lower() or needle in e.fen.lower() \
                    or needle in e.title.lower()
                group.child(j).setHidden(not hit)
                shown += hit
            group.setHidden(shown == 0)
            if needle and shown:
                group.setExpanded(True)
