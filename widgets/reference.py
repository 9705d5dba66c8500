"""The two engine selectors: the *Engine* being debugged and the *Reference* it is checked
against, each an oracle spec (`core`, `python-chess`, `stockfish`, `uci:PATH`,
`perftree:PATH`, `cmd:TEMPLATE`, `file:ENGINE.toml`) remembered between sessions, plus the
longest wait for one engine call.
"""
from __future__ import annotations

from PySide6.QtCore import QSettings, Signal
from PySide6.QtWidgets import (QComboBox, QDoubleSpinBox, QFileDialog, QGridLayout, QHBoxLayout, QLabel,
                               QLineEdit, QToolButton, QWidget)

from perftscope.core.engines.stockfish import find_stockfish

ENGINE_KEY, REFERENCE_KEY, TIMEOUT_KEY = "divide/engine", "divide/reference", "divide/timeout"
DEFAULT_TIMEOUT = 60.0           # the GUI's default wait per call: a hung engine shows up in a minute
NO_ENGINE = ""                   # the engine selector's "none": divide shows the reference alone

# kind, label, what follows the colon ("" when nothing does)
KINDS = (("core", "core (perftscope)", ""),
         ("python-chess", "python-chess", ""),
         ("stockfish", "Stockfish", ""),
         ("perftree", "perftree script…", "file"),
         ("uci", "UCI engine…", "file"),
         ("cmd", "command template…", "text"),
         ("file", "engine file (.toml)…", "file"))


def split_spec(spec: str) -> tuple[str, str]:
    """('perftree', '/x/my-perft.sh'); a spec the parser refuses (half typed) is split as written."""
    from perftscope.core.errors import EngineError
    from perftscope.core.engines.oracles import parse_spec
    try:
        parsed = parse_spec(spec)
        return parsed.kind, parsed.target
    except EngineError:
        kind, _, rest = spec.partition(":")
        return kind, rest


def short_name(spec: str) -> str:
    """What a column header or a message calls an engine: 'my-perft.sh', 'eng', 'core'."""
    from perftscope.core.errors import EngineError
    from perftscope.core.engines.oracles import parse_spec
    if not spec:
        return "no engine"
    try:
        return parse_spec(spec).short_name
    except EngineError:
        return spec


class SpecSelector(QWidget):
    """One engine choice: a kind, and a path or command template when the kind needs one."""
    changed = Signal(str)          # the new spec ("" for no engine)

    def __init__(self, settings: QSettings, key: str, default: str, allow_none: bool, parent=None):
        super().__init__(parent)
        self.settings, self.key = settings, key
        self.stockfish = find_stockfish()
        self.kind = QComboBox()
        if allow_none:
            self.kind.addItem("none: show the reference alone", NO_ENGINE)
        for kind, label, _ in KINDS:
            if kind == "stockfish" and not self.stockfish:
                continue
            self.kind.addItem(f"Stockfish ({self.stockfish})" if kind == "stockfish" else label, kind)
        self.path = QLineEdit()
        self.browse = QToolButton()
        self.browse.setText("…")
        self.browse.setToolTip("Choose the file")
        row = QHBoxLayout(self)
        row.setContentsMargins(0, 0, 0, 0)
        row.addWidget(self.kind)
        row.addWidget(self.path, 1)
        row.addWidget(self.browse)
        self.set_spec(str(settings.value(key, default)))
        self.kind.currentIndexChanged.connect(self._kind_changed)
        self.path.editingFinished.connect(self._store)
        self.browse.clicked.connect(self._choose_file)

    def spec(self) -> str:
        kind = self.kind.currentData()
        return f"{kind}:{self.path.text().strip()}" if self._needs(kind) else kind

    def name(self) -> str:
        return short_name(self.spec())

    def set_spec(self, spec: str):
        kind, rest = split_spec(spec or NO_ENGINE)
        i = self.kind.findData(kind)
        self.kind.blockSignals(True)
        self.kind.setCurrentIndex(i if i >= 0 else 0)
        self.kind.blockSignals(False)
        self.path.setText(rest)
        self._show_path()
        self._store()

    @staticmethod
    def _needs(kind) -> str:
        return next((needs for k, _, needs in KINDS if k == kind), "")

    def _show_path(self):
        needs = self._needs(self.kind.currentData())
        self.path.setVisible(bool(needs))
        self.browse.setVisible(needs == "file")
        self.path.setPlaceholderText("./engine perft {depth} \"{fen}\" {moves}" if needs == "text"
                                     else "path to the engine, script or .toml file")

    def _kind_changed(self):
        self._show_path()
        self._store()

    def _store(self):
        self.settings.setValue(self.key, self.spec())
        self.changed.emit(self.spec())

    def _choose_file(self):
        path, _ = QFileDialog.getOpenFileName(self, "Engine, perftree script or engine file", self.path.text())
        if path:
            self.path.setText(path)
            self._store()


class EngineChoice(QWidget):
    """Engine, Reference and the per-call timeout, as `perftscope gui --engine --reference`."""
    changed = Signal()

    def __init__(self, settings: QSettings | None = None, parent=None):
        super().__init__(parent)
        self.settings = settings or QSettings("perftscope", "perftscope")
        self.engine = SpecSelector(self.settings, ENGINE_KEY, NO_ENGINE, allow_none=True)
        self.engine.setToolTip("The engine you are debugging: its moves are judged against the reference")
        self.reference = SpecSelector(self.settings, REFERENCE_KEY, "core", allow_none=False)
        self.reference.setToolTip("The truth the engine is checked against")
        self.timeout = QDoubleSpinBox()
        self.timeout.setRange(1, 24 * 3600)
        self.timeout.setDecimals(0)
        self.timeout.setSuffix(" s")
        self.timeout.setToolTip("Longest wait for one engine call before the engine counts as hung")
        self.timeout.setValue(float(self.settings.value(TIMEOUT_KEY, DEFAULT_TIMEOUT)))
        grid = QGridLayout(self)
        grid.setContentsMargins(0, 0, 0, 0)
        grid.addWidget(QLabel("Engine"), 0, 0)
        grid.addWidget(self.engine, 0, 1)
        grid.addWidget(QLabel("Reference"), 1, 0)
        grid.addWidget(self.reference, 1, 1)
        wait = QHBoxLayout()
        wait.addWidget(QLabel("timeout per call"))
        wait.addWidget(self.timeout)
        wait.addStretch(1)
        grid.addLayout(wait, 2, 1)
        grid.setColumnStretch(1, 1)
        self.engine.changed.connect(self.changed)
        self.reference.changed.connect(self.changed)
        self.timeout.valueChanged.connect(self._store_timeout)

    def _store_timeout(self, value: float):
        self.settings.setValue(TIMEOUT_KEY, value)
        self.changed.emit()

    def specs(self) -> tuple[str, str]:
        """(engine spec or "", reference spec)."""
        return self.engine.spec(), self.reference.spec()

    def seconds(self) -> float:
        return float(self.timeout.value())
