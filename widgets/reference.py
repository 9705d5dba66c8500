"""The engine selector: the *Engine* being debugged, the *Reference* it is checked against (each
an oracle spec of a kind in core.engines.spec.KINDS, which the selectors offer, every one) and
the longest wait for one engine call.

`EngineSelection` holds the choice, remembered between sessions, and hands it out as one
core.engines.pair.EnginePair; every `EngineChoice` is a view of it, so the Divide tab's selector
and the Test-engine tab's always show the same engines.
"""
from __future__ import annotations

from PySide6.QtCore import QEvent, QObject, QSettings, Signal
from PySide6.QtWidgets import (QComboBox, QDoubleSpinBox, QFileDialog, QGridLayout, QHBoxLayout, QLabel,
                               QLineEdit, QToolButton, QWidget)

from perftscope.core.engines.spec import BY_NAME, KINDS
from perftscope.core.engines.stockfish import find_stockfish

ENGINE_KEY, REFERENCE_KEY, TIMEOUT_KEY = "divide/engine", "divide/reference", "divide/timeout"
DEFAULT_TIMEOUT = 60.0           # the GUI's default wait per call: a hung engine shows up in a minute
TIMEOUT_RANGE = (1, 24 * 3600)   # whole seconds
NO_ENGINE = ""                   # the engine selector's "none": divide shows the reference alone
DEFAULT_REFERENCE = "core"
KIND_CHARS = 11                  # the kind's box beside a path: "perftree sc…"
PATH_MIN_WIDTH = 120             # a path field shows at least a file name

def read_spec(spec) -> tuple[str, str, object]:
    """(kind, target, the core.engines.spec.Spec or the EngineError saying why it cannot be read)
    of a spec text (read here, where the selector takes it) or of a Spec (not read again): a spec
    the parser refuses (half typed) is split as written."""
    from perftscope.core.engines.spec import Spec, parse_spec
    from perftscope.core.errors import EngineError
    if isinstance(spec, Spec):
        return spec.kind, spec.target, spec
    try:
        parsed = parse_spec(spec)
        return parsed.kind, parsed.target, parsed
    except EngineError as e:
        kind, _, rest = spec.partition(":")
        return kind, rest, e


def split_spec(spec) -> tuple[str, str]:
    """('perftree', '/x/my-perft.sh')."""
    return read_spec(spec)[:2]


def options_of(spec) -> str:
    """The options a spec's kind carries, as written ("[chess960=false]" of
    `perftree[chess960=false]:PATH`; "" for none): kept when its path is edited."""
    kind = str(spec).partition(":")[0]
    return kind[kind.index("["):] if "[" in kind else ""


def short_name(spec: str) -> str:
    """What a column header or a message calls an engine: 'my-perft.sh', 'eng', 'core'."""
    from perftscope.core.engines.spec import parse_spec
    from perftscope.core.errors import EngineError
    if not spec:
        return "no engine"
    try:
        return parse_spec(spec).short_name
    except EngineError:
        return spec


def _needs(kind) -> str:
    """What follows the kind's colon: "" (nothing), "file" or "text" (core.engines.spec.KINDS)."""
    return BY_NAME[kind].needs if kind in BY_NAME else ""


def whole_seconds(seconds: float) -> float:
    """A timeout as the selector's box holds it: whole seconds within TIMEOUT_RANGE."""
    low, high = TIMEOUT_RANGE
    return float(min(high, max(low, int(float(seconds) + 0.5))))


class EngineSelection(QObject):
    """The chosen engine (NO_ENGINE for none), reference and timeout; `changed` when any of
    them changes. Specs are kept as the selectors write them: a kind the selectors do not
    offer (Stockfish when it is not installed) falls back to the first one offered."""
    changed = Signal()

    def __init__(self, settings: QSettings | None = None, parent=None):
        super().__init__(parent)
        self.settings = settings or QSettings("perftscope", "perftscope")
        self.stockfish = find_stockfish()
        # each spec is read once, where it enters (the settings, a selector, a finding's pair):
        # `read` holds, for the engine and the reference, its Spec or the EngineError saying why not
        self.engine, self._engine = self._offered(str(self.settings.value(ENGINE_KEY, NO_ENGINE)), NO_ENGINE)
        self.reference, self._reference = self._offered(
            str(self.settings.value(REFERENCE_KEY, DEFAULT_REFERENCE)), DEFAULT_REFERENCE)
        self.timeout = whole_seconds(self.settings.value(TIMEOUT_KEY, DEFAULT_TIMEOUT))

    def kinds(self, allow_none: bool) -> list[tuple[str, str]]:
        """(kind, label) the selectors offer, "none" first for the engine."""
        offered = [(NO_ENGINE, "none: show the reference alone")] if allow_none else []
        for kind in KINDS:                     # every kind the parser knows
            label = kind.label
            if kind.name == "stockfish":
                if not self.stockfish:
                    continue
                label = f"Stockfish ({self.stockfish})"
            offered.append((kind.name, label))
        return offered

    def _offered(self, spec, default: str):
        """(the spec as the selectors write it, its Spec or the EngineError saying why it cannot
        be read yet; None for no engine). `spec` is a text (read here) or a Spec."""
        from perftscope.core.engines.spec import spec_of
        if not spec:
            return NO_ENGINE, None
        kind, rest, read = read_spec(spec)
        if kind not in {k for k, _ in self.kinds(allow_none=default == NO_ENGINE)}:
            return default, (spec_of(default) if default else None)
        if isinstance(read, Exception):        # half typed: kept as written until it can be read
            return (f"{kind}{options_of(spec)}:{rest.strip()}" if _needs(kind) else kind), read
        read = spec_of(read.kind, read.target.strip(), read.chess960)      # written as the selectors write it
        return read.text, read

    def set(self, engine=None, reference=None, timeout: float | None = None):
        """Choose any of the three (None: keep it), each a spec text or a Spec; remembered at once."""
        engine = (self.engine, self._engine) if engine is None else self._offered(engine, NO_ENGINE)
        reference = ((self.reference, self._reference) if reference is None
                     else self._offered(reference, DEFAULT_REFERENCE))
        new = (engine[0], reference[0], self.timeout if timeout is None else whole_seconds(timeout))
        if new == (self.engine, self.reference, self.timeout):
            return
        (self.engine, self._engine), (self.reference, self._reference) = engine, reference
        self.timeout = new[2]
        for key, value in zip((ENGINE_KEY, REFERENCE_KEY, TIMEOUT_KEY), new):
            self.settings.setValue(key, value)
        self.changed.emit()

    def set_pair(self, pair):
        """Choose the engines and timeout of a core.engines.pair.EnginePair (a finding's)."""
        self.set(pair.engine or NO_ENGINE, pair.reference, pair.timeout)

    def spec_shown(self, role: str):
        """What a selector shows for "engine" or "reference": its Spec, or its text while it
        cannot be read (NO_ENGINE for none)."""
        text, read = (self.engine, self._engine) if role == "engine" else (self.reference, self._reference)
        return text if read is None or isinstance(read, Exception) else read

    def specs(self) -> tuple[str, str]:
        """(engine spec or NO_ENGINE, reference spec)."""
        return self.engine, self.reference

    def names(self) -> tuple[str | None, str]:
        """Short names of the engine (None when none is chosen) and the reference."""
        return tuple(None if read is None else read.short_name if not isinstance(read, Exception) else text
                     for text, read in ((self.engine, self._engine), (self.reference, self._reference)))

    def readable_pair(self):
        """pair(), or None while a spec cannot be read (half typed)."""
        from perftscope.core.errors import EngineError
        try:
            return self.pair()
        except EngineError:
            return None

    def pair(self):
        """The choice as a core.engines.pair.EnginePair; EngineError naming a spec that is not
        complete yet (a kind chosen, its path still empty)."""
        from perftscope.core.engines.pair import EnginePair
        for read in (self._engine, self._reference):
            if isinstance(read, Exception):
                raise read
        return EnginePair(self._engine, self._reference, self.timeout)


class SpecSelector(QWidget):
    """One engine: a kind, and a path or command template when the kind needs one.
    `edited(spec)` when the user changes it."""
    edited = Signal(str)

    def __init__(self, kinds: list[tuple[str, str]], parent=None):
        super().__init__(parent)
        self.kind = QComboBox()
        for kind, label in kinds:
            self.kind.addItem(label, kind)
        # as wide as its longest label only when nothing follows it: beside a path it leaves the
        # path the room (its list still shows each label whole)
        self.kind.setSizeAdjustPolicy(QComboBox.AdjustToMinimumContentsLengthWithIcon)
        self.kind.setMinimumContentsLength(KIND_CHARS)
        self.path = QLineEdit()
        self.path.setMinimumWidth(PATH_MIN_WIDTH)
        self.options = ""               # the spec's options ("[chess960=false]"), kept as the path changes
        self.options_label = QLabel()
        self.options_label.setToolTip("Options of this engine spec, kept as written")
        self.browse = QToolButton()
        self.browse.setText("…")
        self.browse.setToolTip("Choose the file")
        self.row = QHBoxLayout(self)
        self.row.setContentsMargins(0, 0, 0, 0)
        self.row.addWidget(self.kind)
        self.row.addWidget(self.options_label)
        self.row.addWidget(self.path)
        self.row.addWidget(self.browse)
        self._show_path()
        self.kind.currentIndexChanged.connect(self._kind_changed)
        self.path.editingFinished.connect(self._path_edited)
        self.browse.clicked.connect(self._choose_file)

    def spec(self) -> str:
        """The spec as shown, its options included."""
        kind = self.kind.currentData()
        return f"{kind}{self.options}:{self.path.text().strip()}" if _needs(kind) else kind

    def parsed(self):
        """The spec shown as a core.engines.spec.Spec (options kept); None while it cannot be read."""
        from perftscope.core.engines.spec import parse_spec
        from perftscope.core.errors import EngineError
        try:
            return parse_spec(self.spec()) if self.spec() else None
        except EngineError:
            return None

    def name(self) -> str:
        return short_name(self.spec())

    def set_spec(self, spec):
        """Show `spec`, a text or a core.engines.spec.Spec (nothing is announced)."""
        kind, rest = split_spec(spec or NO_ENGINE)
        self.options = options_of(spec or NO_ENGINE)
        i = self.kind.findData(kind)
        self.kind.blockSignals(True)
        self.kind.setCurrentIndex(i if i >= 0 else 0)
        self.kind.blockSignals(False)
        if self.path.text() != rest:
            self.path.setText(rest)
        self._show_path()

    def _show_path(self):
        needs = _needs(self.kind.currentData())
        self.path.setVisible(bool(needs))
        self.options_label.setText(self.options.strip("[]"))
        self.options_label.setVisible(bool(needs and self.options))
        self.row.setStretch(0, 0 if needs else 1)       # the kind takes the row when it is alone
        self.row.setStretch(1, 1)
        self.browse.setVisible(needs == "file")
        self.path.setPlaceholderText("./engine perft {depth} \"{fen}\" {moves}" if needs == "text"
                                     else "path to the engine, script or .toml file")

    def _path_edited(self):
        """A whole spec typed or pasted in the path field (`xboard:sjeng`, as the command line and
        the guides write it) is read as one: its kind chosen, its target left in the field (it was
        the path `xboard:sjeng` of the kind shown, which no engine has)."""
        text = self.path.text().strip()
        kind = text.partition(":")[0].partition("[")[0]
        if ":" in text and _needs(kind) and self.kind.findData(kind) >= 0:
            self.set_spec(text)
        self.edited.emit(self.spec())

    def _kind_changed(self):
        self._show_path()
        self.edited.emit(self.spec())

    def _choose_file(self):
        path, _ = QFileDialog.getOpenFileName(self, "Engine, perftree script or engine file", self.path.text())
        if path:
            self.path.setText(path)
            self.edited.emit(self.spec())


class EngineChoice(QWidget):
    """Engine, Reference and the per-call timeout, as `perftscope gui --engine --reference
    --timeout`: a view of an EngineSelection. While disabled (a session is running on what it
    shows) it keeps showing that, and catches up when enabled again."""

    def __init__(self, selection: EngineSelection, parent=None):
        super().__init__(parent)
        self.selection = selection
        self.engine = SpecSelector(selection.kinds(allow_none=True))
        self.engine.setToolTip("The engine you are debugging: its moves are judged against the reference")
        self.reference = SpecSelector(selection.kinds(allow_none=False))
        self.reference.setToolTip("The truth the engine is checked against")
        self.timeout = QDoubleSpinBox()
        self.timeout.setRange(*TIMEOUT_RANGE)
        self.timeout.setDecimals(0)
        self.timeout.setSuffix(" s")
        self.timeout.setToolTip("Longest wait for one engine call before the engine counts as hung")
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
        self._show()
        self.engine.edited.connect(lambda spec: selection.set(engine=spec))
        self.reference.edited.connect(lambda spec: selection.set(reference=spec))
        self.timeout.valueChanged.connect(lambda seconds: selection.set(timeout=seconds))
        selection.changed.connect(self._show)

    def _show(self):
        if not self.isEnabled():
            return
        self.engine.set_spec(self.selection.spec_shown("engine"))
        self.reference.set_spec(self.selection.spec_shown("reference"))
        self.timeout.blockSignals(True)
        self.timeout.setValue(self.selection.timeout)
        self.timeout.blockSignals(False)

    def changeEvent(self, event):
        super().changeEvent(event)
        if event.type() == QEvent.EnabledChange:
            self._show()

    def specs(self) -> tuple[str, str]:
        """(engine spec or NO_ENGINE, reference spec) as shown."""
        return self.engine.spec(), self.reference.spec()

    def seconds(self) -> float:
        return float(self.timeout.value())
