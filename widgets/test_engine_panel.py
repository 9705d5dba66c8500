"""The Test-engine tab: the engine selector (a view of the window's one EngineSelection, so
the engines and the timeout are the Divide tab's), a suite or a fuzz session, Start/Stop, and
the findings table, one row per failing position (class, where, moves, minimal position).
It only shows things: app/engine_tests.py runs the session and feeds it."""
from __future__ import annotations

from PySide6.QtCore import QEvent, Qt, Signal
from PySide6.QtWidgets import (QComboBox, QFormLayout, QHBoxLayout, QHeaderView,
                               QLabel, QMenu, QPushButton, QStackedWidget, QStyle,
                               QTableWidgetItem, QVBoxLayout, QWidget)

from perftscope import resources
from perftscope.core.mismatch.session_job import FuzzSettings, SuiteSettings

from . import palette
from .cells import WrappedCells, row_table
from .notation import beside_uci
from .reference import EngineChoice, EngineSelection
from .spin import spin_box as _spin
from .start_stop import StartStop

COLUMNS = ("Class", "Moves", "Minimal position", "Found at")
SHARES = (0.22, 0.18, 0.36, 0.24)  # of the table's width: the minimal position's FEN gets the most
ROW_LINES = 2                    # a finding's row is at most this many lines tall
MOVES_COLUMN = COLUMNS.index("Moves")


class TestEnginePanel(StartStop, QWidget):
    """`startRequested(settings)`: a core.mismatch.session_job.SuiteSettings or FuzzSettings (the engines
    are the selection's); `openRequested(finding)` when a row is activated. It watches the
    window's "test" JobState."""
    startRequested = Signal(object)
    stopRequested = Signal()
    openRequested = Signal(object)
    locateRequested = Signal(object)   # a finding: *Which line?* on its position

    def __init__(self, selection: EngineSelection, parent=None):
        super().__init__(parent)
        self.findings: list = []
        self._counts: dict[int, int] = {}    # id of a finding shown -> its count as shown
        self.move_name = None          # the SAN/UCI toggle: name(fen, moves, uci), None for UCI
        self.selection = selection
        self.choice = EngineChoice(selection)
        self.mode = QComboBox()
        self.mode.setSizeAdjustPolicy(QComboBox.AdjustToMinimumContentsLengthWithIcon)
        self.mode.setMinimumContentsLength(16)
        self.mode.addItem("Suite: every position of a suite", "suite")
        self.mode.addItem("Fuzz: edge positions and random play", "fuzz")
        self.suite = QComboBox()
        self.suite.setSizeAdjustPolicy(QComboBox.AdjustToMinimumContentsLengthWithIcon)
        self.suite.setMinimumContentsLength(16)
        for name in resources.names():
            self.suite.addItem(name)
        self.max_depth = _spin(1, 10, 2, "deepest depth checked (file counts deeper are skipped)")
        self.jobs = _spin(1, 16, 2, "engine processes run in parallel")
        self.depth = _spin(1, 3, 2, "perft depth each position is compared at")
        self.seconds = _spin(1, 24 * 3600, 30, "how long to look", " s")
        self.seed = _spin(0, 2**31 - 1, 1, "the same seed gives the same positions")

        suite_box, fuzz_box = QWidget(), QWidget()
        suite_form = QFormLayout(suite_box)
        suite_form.addRow("Suite", self.suite)
        suite_form.addRow("Max depth", self.max_depth)
        suite_form.addRow("Jobs", self.jobs)
        fuzz_form = QFormLayout(fuzz_box)
        fuzz_form.addRow("Depth", self.depth)
        fuzz_form.addRow("Seconds", self.seconds)
        fuzz_form.addRow("Seed", self.seed)
        self.options = QStackedWidget()
        self.options.addWidget(suite_box)
        self.options.addWidget(fuzz_box)
        for box in (suite_form, fuzz_form):
            box.setContentsMargins(0, 0, 0, 0)

        self.start_button = QPushButton("Start")
        self.stop_button = QPushButton("Stop")
        self.stop_button.setEnabled(False)
        self.status = QLabel("Choose the engine to test, then Start.")
        self.status.setWordWrap(True)
        self.status.setTextInteractionFlags(Qt.TextSelectableByMouse)
        self.found_with = QLabel()      # the engines the findings belong to, marked once others are chosen
        self.found_with.setWordWrap(True)
        self.found_with.hide()
        self.engines_stale = False
        self._given = None              # the EnginePair the findings were found with
        self.table = row_table(COLUMNS)
        header = self.table.horizontalHeader()
        # the columns share the table's width (no sideways scrolling, at 1024 px too), in SHARES:
        # long moves and FENs wrap in their cells, inside a FEN too, on two lines at most (the
        # rest elided), so a row stays compact; each cell's tooltip is its whole text
        header.setSectionResizeMode(QHeaderView.Fixed)
        header.setStretchLastSection(True)
        self.table.setWordWrap(True)
        self.table.setItemDelegate(WrappedCells(ROW_LINES, self.table))
        self.table.viewport().installEventFilter(self)      # its width, once it has it
        self.table.setHorizontalScrollBarPolicy(Qt.ScrollBarAlwaysOff)
        header.sectionResized.connect(lambda *_: self.table.resizeRowsToContents())

        form = QFormLayout()
        form.addRow("Test", self.mode)
        buttons = QHBoxLayout()
        buttons.addWidget(self.start_button)
        buttons.addWidget(self.stop_button)
        buttons.addStretch(1)
        layout = QVBoxLayout(self)
        layout.addWidget(self.choice)
        layout.addLayout(form)
        layout.addWidget(self.options)
        layout.addLayout(buttons)
        layout.addWidget(self.status)
        layout.addWidget(self.found_with)
        layout.addWidget(self.table, 1)
        hint = QLabel("Click a row to open it in the divide tree, the finder's path expanded.")
        hint.setStyleSheet(f"color: {palette.MUTED}")
        hint.setWordWrap(True)            # the tab must not widen the window's minimum
        layout.addWidget(hint)

        self.mode.currentIndexChanged.connect(self.options.setCurrentIndex)
        selection.changed.connect(self._mark_engines)
        self.start_button.clicked.connect(self._start)
        self.stop_button.clicked.connect(self.stopRequested)
        # a click opens the row every time, selected already or not; Enter opens it as well
        self.table.clicked.connect(lambda index: self.open_row(index.row()))
        if not self.table.style().styleHint(QStyle.SH_ItemView_ActivateItemOnSingleClick):
            self.table.activated.connect(lambda index: self.open_row(index.row()))
        self.table.setContextMenuPolicy(Qt.CustomContextMenu)
        self.table.customContextMenuRequested.connect(self._row_menu)

    def row_menu(self, row: int) -> QMenu | None:
        """A finding row's context menu: open it, or locate its suspect lines (None off the rows)."""
        if not 0 <= row < len(self.findings):
            return None
        finding = self.findings[row]
        menu = QMenu(self.table)
        menu.addAction("Open in the divide tree", lambda: self.open_row(row))
        menu.addAction("Which line? Locate the engine's suspect lines here",
                       lambda: self.locateRequested.emit(finding))
        return menu

    def _row_menu(self, point):
        menu = self.row_menu(self.table.rowAt(point.y()))
        if menu is not None:
            menu.exec(self.table.viewport().mapToGlobal(point))

    def eventFilter(self, watched, event):
        if watched is self.table.viewport() and event.type() == QEvent.Resize:
            width = event.size().width()
            for col, share in enumerate(SHARES[:-1]):
                self.table.horizontalHeader().resizeSection(col, int(width * share))
        return super().eventFilter(watched, event)

    def settings(self) -> SuiteSettings | FuzzSettings:
        if self.mode.currentData() == "suite":
            return SuiteSettings(self.suite.currentText(), self.max_depth.value(), self.jobs.value())
        return FuzzSettings(self.seed.value(), self.depth.value(), float(self.seconds.value()))

    def choices(self) -> dict:
        """What the next session does, both modes' numbers, as plain data to remember between
        sessions (app.memory)."""
        return {"mode": self.mode.currentData(), "suite": self.suite.currentText(),
                "max_depth": self.max_depth.value(), "jobs": self.jobs.value(), "depth": self.depth.value(),
                "seconds": float(self.seconds.value()), "seed": self.seed.value()}

    def set_choices(self, choices: dict):
        """Put back what choices() returned (a suite this copy does not have is left as it is)."""
        numbers = {k: choices[k] for k in ("max_depth", "jobs", "depth", "seconds", "seed") if k in choices}
        self.choose(mode=choices.get("mode"), suite=choices.get("suite"), **numbers)

    def choose(self, mode: str | None = None, suite: str | None = None, **numbers):
        """Set what the next session does, as the user would: mode 'suite' or 'fuzz', the suite's
        file name, and any of max_depth, jobs, depth, seconds, seed."""
        if mode is not None and self.mode.findData(mode) >= 0:
            self.mode.setCurrentIndex(self.mode.findData(mode))
        if suite is not None:
            self.suite.setCurrentText(suite)
        for key, value in numbers.items():
            spin = {"max_depth": self.max_depth, "jobs": self.jobs, "depth": self.depth,
                    "seconds": self.seconds, "seed": self.seed}[key]
            spin.setValue(int(value))

    def _start(self):
        if not self.selection.engine:
            self.show_error("Give the engine to test first, e.g. perftree:/path/to/my-perft.sh")
            return
        self.startRequested.emit(self.settings())

    # --- fed by the controller -----------------------------------------------------------
    def show_state(self, state):
        """The tab's JobState: its findings (a row each, a merged one's count updated), the engines
        they were found with."""
        super().show_state(state)
        self._given = state.given
        if not state.items and self.findings:
            self.clear()                           # a new session
        engines = state.subject.engines[:2] if state.subject is not None else ("engine", "reference")
        for finding in state.items:
            if self._counts.get(id(finding)) != finding.count:
                self.add_finding(finding, *engines)
        self._mark_engines()

    def _mark_engines(self):
        """Say which engines the findings belong to; marked, the rows greyed, while the selector
        holds others (opening a finding or Which line? use the finding's, never those)."""
        given = self._given
        if given is None or not self.findings:
            self.engines_stale = False
            self.found_with.hide()
            self.table.setStyleSheet("")
            return
        now = self.selection.readable_pair()
        self.engines_stale = now is None or (now.engine, now.reference) != (given.engine, given.reference)
        found = f"found with {given.engine_name} against {given.reference_name}"
        if self.engines_stale:
            self.found_with.setText(f"<b>{found}</b>, not the engines chosen now: a row opens with its own")
            self.found_with.setStyleSheet(f"color:{palette.STALE}; background:{palette.STALE_BG};")
            self.table.setStyleSheet(f"QTableView {{ color:{palette.STALE}; }}")
        else:
            self.found_with.setText(found)
            self.found_with.setStyleSheet(f"color:{palette.MUTED}")
            self.table.setStyleSheet("")
        self.found_with.show()

    def set_running(self, running: bool):
        super().set_running(running)
        for w in (self.choice, self.mode, self.options):
            w.setEnabled(not running)

    def clear(self):
        self.findings.clear()
        self._counts.clear()
        self.table.setRowCount(0)
        self._mark_engines()

    def add_finding(self, finding, engine: str, reference: str):
        """One row per finding; a finding shown already (merged with another position's, its
        count up) has its row updated. Each cell's tooltip is its whole text, then which
        position and engines the finding belongs to."""
        for row, shown in enumerate(self.findings):
            if shown is finding:
                break
        else:
            self.findings.append(finding)
            row = self.table.rowCount()
            self.table.insertRow(row)
        self._counts[id(finding)] = finding.count
        # the moves of the minimal position, shown beside it (the tooltip has the original's)
        minimal = finding.shrunk.fen if finding.shrunk is not None else "—"
        label = finding.label + (f" ×{finding.count}" if finding.count > 1 else "")
        found_at = f"{finding.name}: {finding.fen}" + (f" and {finding.count - 1} more" if finding.count > 1 else "")
        cells = (label, self._moves(finding), minimal, found_at)
        about = (f"{engine} against {reference}, depth {finding.depth}\n{finding.fen}\n{finding.summary()}"
                 + (f"\nminimal: {finding.shrunk.fen} at depth {finding.shrunk.depth}" if finding.shrunk else "")
                 + (f"\nfound at {finding.count} positions alike" if finding.count > 1 else ""))
        for col, text in enumerate(cells):
            item = QTableWidgetItem(text)
            item.setToolTip(f"{text}\n\n{about}")
            if col == 0:
                item.setForeground(Qt.darkRed)
            self.table.setItem(row, col, item)
        self.table.resizeRowToContents(row)
        self._mark_engines()

    def _moves(self, finding) -> str:
        if finding.engine_failed:
            return finding.error
        return ", ".join(finding.verdict_lines(beside_uci(self.move_name))) or "(counts)"

    def set_move_name(self, name):
        """Write the findings' moves with name(fen, moves, uci) beside the UCI (None: UCI alone),
        the rows already shown included."""
        self.move_name = name
        for row, finding in enumerate(self.findings):
            self.table.item(row, MOVES_COLUMN).setText(self._moves(finding))

    def open_row(self, row: int):
        """Open the finding of `row` in the divide tree (a click does, every time)."""
        if 0 <= row < len(self.findings):
            self.table.selectRow(row)
            self.openRequested.emit(self.findings[row])
