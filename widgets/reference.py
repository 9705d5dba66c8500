"""The reference selector: which engine the divide tree compares against, as an oracle
spec (`python-chess`, `stockfish`, `uci:PATH`, `perftree:PATH`), remembered between
sessions with QSettings.
"""
from __future__ import annotations

from PySide6.QtCore import QSettings, Signal
from PySide6.QtWidgets import QComboBox, QFileDialog, QHBoxLayout, QLabel, QLineEdit, QToolButton, QWidget

from core.stockfish import find_stockfish

SETTINGS_KEY = "divide/reference"

# kind, label, needs a path
KINDS = (("python-chess", "python-chess", False),
         ("stockfish", "Stockfish", False),
         ("uci", "UCI engine…", True),
         ("perftree", "perftree script…", True))


class ReferenceSelector(QWidget):
    changed = Signal(str)          # the new spec

    def __init__(self, settings: QSettings | None = None, parent=None):
        super().__init__(parent)
        self.settings = settings or QSettings("perftscope", "perftscope")
        self.stockfish = find_stockfish()
        self.kind = QComboBox()
        for kind, label, _ in KINDS:
            if kind == "stockfish" and not self.stockfish:
                continue
            self.kind.addItem(f"Stockfish ({self.stockfish})" if kind == "stockfish" else label, kind)
        self.path = QLineEdit()
        self.path.setPlaceholderText("path to the engine or script")
        self.browse = QToolButton()
        self.browse.setText("…")
        self.browse.setToolTip("Choose the executable")
        row = QHBoxLayout(self)
        row.setContentsMargins(0, 0, 0, 0)
        row.addWidget(QLabel("Reference"))
        row.addWidget(self.kind)
        row.addWidget(self.path, 1)
        row.addWidget(self.browse)
        self.set_spec(str(self.settings.value(SETTINGS_KEY, "python-chess")))
        self.kind.currentIndexChanged.connect(self._kind_changed)
        self.path.editingFinished.connect(self._store)
        self.browse.clicked.connect(self._choose_file)

    def spec(self) -> str:
        kind = self.kind.currentData()
        return f"{kind}:{self.path.text().strip()}" if self._needs_path(kind) else kind

    def set_spec(self, spec: str):
        kind, _, path = spec.partition(":")
        i = self.kind.findData(kind)
        self.kind.blockSignals(True)
        self.kind.setCurrentIndex(i if i >= 0 else 0)
        self.kind.blockSignals(False)
        self.path.setText(path)
        self._show_path()
        self._store()

    @staticmethod
    def _needs_path(kind) -> bool:
        return any(k == kind and needs for k, _, needs in KINDS)

    def _show_path(self):
        needs = self._needs_path(self.kind.currentData())
        self.path.setVisible(needs)
        self.browse.setVisible(needs)

    def _kind_changed(self):
        self._show_path()
        self._store()

    def _store(self):
        self.settings.setValue(SETTINGS_KEY, self.spec())
        self.changed.emit(self.spec())

    def _choose_file(self):
        path, _ = QFileDialog.getOpenFileName(self, "Reference engine or perftree script", self.path.text())
        if path:
            self.path.setText(path)
            self._store()
