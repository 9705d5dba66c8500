"""The Race tab: engines (the engine selector, then Add), yardsticks, positions, the budget or a
fixed depth, threads and hash; Start, Stop, export; the graphs and a row per engine and position.
It only shows things: app/race.py runs the race and feeds it."""
from __future__ import annotations

from PySide6.QtCore import QEvent, Qt, Signal
from PySide6.QtWidgets import (QAbstractItemView, QCheckBox, QDoubleSpinBox, QFileDialog, QFormLayout,
                               QGridLayout, QHBoxLayout, QHeaderView, QLabel, QLineEdit, QListWidget,
                               QListWidgetItem, QPushButton, QRadioButton, QTableWidget, QTableWidgetItem,
                               QVBoxLayout, QWidget)

from perftscope.core.limits import RUN_DEPTH_LIMIT
from perftscope.core.race.race_job import RaceSettings
from perftscope.core.race.runner import WRONG
from perftscope.core.units import format_rate

from .race_graphs import RaceGraphs
from .reference import SpecSelector, short_name
from .spin import spin_box as _spin
from .start_stop import StartStop

# the result beside the engine, where a narrow window still shows it; the figures may scroll
COLUMNS = ("Position", "Engine", "Result", "Depth", "Nodes", "Speed", "CPU s", "Peak MiB")
RESULT = COLUMNS.index("Result")
RESULT_MIN_WIDTH = 170      # px: a verdict wraps onto a second line rather than being cut


class RacePanel(StartStop, QWidget):
    """`startRequested(settings)`: a core.race.race_job.RaceSettings (engines, yardsticks, positions,
    seconds or depth, threads and hash_mb, timeout); it watches the window's "race" JobState.
    `exportRequested(kind, path)` with kind 'markdown' or 'json'. `selection` is the window's
    widgets.reference.EngineSelection: its engine is the one offered first."""
    startRequested = Signal(object)        # core.race.race_job.RaceSettings
    stopRequested = Signal()
    exportRequested = Signal(str, str)
    locateRequested = Signal(int)          # *Which line?* on a row whose count was wrong (its index)

    def __init__(self, selection, positions=(), chess960=lambda: False, parent=None):
        super().__init__(parent)
        self.positions = list(positions)
        self.chess960 = chess960        # the window's Chess960 box: a FEN typed while it is ticked reads as Chess960
        self._row_positions: list[int] = []     # the position (its index in the graphs) of each row
        self._race = self._revealed = None      # the race shown, the race whose first engine out was selected
        self._index: dict = {}                  # (racer, position name) -> its row
        self._seen = 0                          # the watched state's events shown so far
        self._wrong: set[int] = set()           # the rows whose count was wrong
        self.selector = SpecSelector(selection.kinds(allow_none=False))
        self.selector.set_spec(selection.engine or "python-chess")
        self.add_button = QPushButton("Add")
        self.add_button.setToolTip("Race the engine chosen above")
        self.engines = QListWidget()
        self.engines.setMaximumHeight(110)
        self.remove_button = QPushButton("Remove")
        self.core = QCheckBox("core")
        self.core.setChecked(True)
        self.core.setToolTip("The core as a yardstick, with the threads and hash below")
        self.stockfish = QCheckBox("Stockfish")
        self.stockfish.setChecked(selection.stockfish is not None)     # found by the selection, once
        self.stockfish.setEnabled(selection.stockfish is not None)
        self.stockfish.setToolTip("Stockfish's go perft as a yardstick" if selection.stockfish
                                  else "Stockfish is not installed")
        self.position_list = QListWidget()
        self.position_list.setMaximumHeight(110)
        self.position_list.setMinimumWidth(80)
        for position in list(self.positions):
            self._list_position(position)
        self.fen = QLineEdit()
        self.fen.setPlaceholderText("a FEN of your own, then Enter")
        self.fen.setToolTip("Race on this position too (it is added to the list, ticked)")
        self.by_seconds = QRadioButton("per position")
        self.by_seconds.setChecked(True)
        self.by_seconds.setToolTip("Deepen each engine on each position within this many seconds")
        self.by_depth = QRadioButton("to depth")
        self.seconds = QDoubleSpinBox()
        self.seconds.setRange(0.5, 24 * 3600)
        self.seconds.setValue(5)
        self.seconds.setSuffix(" s")
        self.depth = _spin(1, RUN_DEPTH_LIMIT, 4, "every engine to this depth", "")
        self.threads = _spin(0, 1024, 0, "threads for every engine that can take them (default: each "
                             "engine's own)", "")
        self.threads.setSpecialValueText("default")          # short: the tab fits a 1024 px window
        self.hash = _spin(-1, 1 << 20, -1, "hash table for every engine that can take it, 0: none (default: "
                          "each engine's own)", " MiB")
        self.hash.setSpecialValueText("default")
        self.timeout = QDoubleSpinBox()
        self.timeout.setRange(1, 24 * 3600)
        self.timeout.setDecimals(0)
        self.timeout.setValue(selection.timeout)
        self.timeout.setSuffix(" s")
        self.timeout.setToolTip("Longest wait for one engine call before the engine counts as hung")
        self.start_button = QPushButton("Start race")
        self.stop_button = QPushButton("Stop")
        self.stop_button.setEnabled(False)
        self.markdown_button = QPushButton("Markdown…")
        self.markdown_button.setToolTip("Export the race's tables as Markdown, for an engine's README")
        self.json_button = QPushButton("JSON…")
        self.json_button.setToolTip("Export everything the race measured as JSON")
        for button in (self.markdown_button, self.json_button):
            button.setEnabled(False)
        self.status = QLabel("Add engines, then Start race: each is raced on each position beside the "
                             "yardsticks, every count checked against the core.")
        self.status.setWordWrap(True)
        self.status.setTextInteractionFlags(Qt.TextSelectableByMouse)
        self.graphs = RaceGraphs()
        self.table = QTableWidget(0, len(COLUMNS))
        self.table.setHorizontalHeaderLabels(COLUMNS)
        self.table.setEditTriggers(QAbstractItemView.NoEditTriggers)
        self.table.setSelectionBehavior(QAbstractItemView.SelectRows)
        self.table.verticalHeader().setVisible(False)
        self.table.setWordWrap(True)
        self.table.setTextElideMode(Qt.ElideNone)
        header = self.table.horizontalHeader()
        header.setSectionResizeMode(QHeaderView.ResizeToContents)
        header.setSectionResizeMode(RESULT, QHeaderView.Fixed)     # the room the others leave (_fit_result)
        header.setStretchLastSection(False)
        header.sectionResized.connect(lambda section, *_: section != RESULT and self._fit_result())
        self.table.installEventFilter(self)
        self._layout()
        self.add_button.clicked.connect(self._add)
        self.remove_button.clicked.connect(self._remove)
        self.fen.returnPressed.connect(lambda: self.add_fen(self.fen.text(), self.chess960()))
        self.start_button.clicked.connect(self._start)
        self.stop_button.clicked.connect(self.stopRequested)
        self.table.currentCellChanged.connect(lambda row, *_: self._show_row(row))
        self.table.setContextMenuPolicy(Qt.CustomContextMenu)
        self.table.customContextMenuRequested.connect(self._row_menu)
        self.markdown_button.clicked.connect(lambda: self._export("markdown", "Markdown (*.md)", ".md"))
        self.json_button.clicked.connect(lambda: self._export("json", "JSON (*.json)", ".json"))

    def _layout(self):
        listed = QHBoxLayout()
        listed.addWidget(self.engines, 1)
        side = QVBoxLayout()
        side.addWidget(self.add_button)
        side.addWidget(self.remove_button)
        side.addWidget(self.core)
        side.addWidget(self.stockfish)
        side.addStretch(1)
        listed.addLayout(side)
        budget = QGridLayout()             # one column of settings: the tab stays narrow
        for row, (label, box) in enumerate(((self.by_seconds, self.seconds), (self.by_depth, self.depth),
                                            ("Threads", self.threads), ("Hash", self.hash),
                                            ("Timeout", self.timeout))):
            budget.addWidget(QLabel(label) if isinstance(label, str) else label, row, 0)
            budget.addWidget(box, row, 1)
        budget.setRowStretch(5, 1)
        chosen = QVBoxLayout()
        chosen.addWidget(self.position_list)
        chosen.addWidget(self.fen)
        options = QHBoxLayout()
        options.addLayout(chosen, 1)
        options.addLayout(budget)
        buttons = QHBoxLayout()
        for button in (self.start_button, self.stop_button):
            buttons.addWidget(button)
        buttons.addStretch(1)                 # then the exports (their tooltips say so)
        for button in (self.markdown_button, self.json_button):
            buttons.addWidget(button)
        form = QFormLayout()
        form.addRow("Engine", self.selector)
        form.addRow("Racing", listed)
        form.addRow("Positions", options)
        layout = QVBoxLayout(self)
        layout.addLayout(form)
        layout.addLayout(buttons)
        layout.addWidget(self.status)
        layout.addWidget(self.graphs, 2)
        layout.addWidget(self.table, 1)

    def eventFilter(self, watched, event):
        if watched is self.table and event.type() == QEvent.Resize:
            self._fit_result()
        return super().eventFilter(watched, event)

    def _fit_result(self):
        """The Result column takes what the other columns leave, at least RESULT_MIN_WIDTH; a
        verdict longer than that wraps, whole, and its row grows."""
        header = self.table.horizontalHeader()
        others = sum(header.sectionSize(c) for c in range(len(COLUMNS)) if c != RESULT)
        width = max(RESULT_MIN_WIDTH, self.table.viewport().width() - others)
        if header.sectionSize(RESULT) != width:
            header.resizeSection(RESULT, width)
        self.table.resizeRowsToContents()

    # --- asked by the user ----------------------------------------------------------------
    def add_engine(self, spec: str):
        if spec and spec not in self.specs():
            item = QListWidgetItem(racer_label(spec))
            item.setData(Qt.UserRole, spec)
            item.setToolTip(spec)
            self.engines.addItem(item)

    def _list_position(self, position):
        if position not in self.positions:
            self.positions.append(position)
        item = QListWidgetItem(position.name)
        item.setFlags(item.flags() | Qt.ItemIsUserCheckable)
        item.setCheckState(Qt.Checked)
        item.setToolTip(position.fen)
        self.position_list.addItem(item)

    def add_fen(self, fen: str, chess960: bool = False):
        """A position of the user's own, checked by the core (as Chess960 with `chess960`): a bad
        FEN is a message."""
        from perftscope.core.board.position import Position
        from perftscope.core.errors import FenError, PerftscopeError
        from perftscope.core.race.runner import RacePosition
        try:
            fen = Position.from_fen(fen.strip(), chess960=chess960).fen()
        except FenError as e:
            self.show_error(e.spelled("tick Chess960 in the status bar"))
            return
        except PerftscopeError as e:
            self.show_error(str(e))
            return
        if all(p.fen != fen for p in self.positions):
            self._list_position(RacePosition(f"fen {len(self.positions) + 1}", fen))
        self.fen.clear()

    def specs(self) -> list[str]:
        return [self.engines.item(i).data(Qt.UserRole) for i in range(self.engines.count())]

    def _add(self):
        self.add_engine(self.selector.spec())

    def _remove(self):
        for item in self.engines.selectedItems():
            self.engines.takeItem(self.engines.row(item))

    def settings(self) -> RaceSettings:
        chosen = tuple(p for i, p in enumerate(self.positions)
                       if self.position_list.item(i).checkState() == Qt.Checked)
        by_seconds = self.by_seconds.isChecked()
        return RaceSettings(
            engines=tuple(self.specs()),
            yardsticks=tuple(name for name, box in (("core", self.core), ("stockfish", self.stockfish))
                             if box.isChecked()),
            positions=chosen, seconds=float(self.seconds.value()) if by_seconds else None,
            depth=None if by_seconds else self.depth.value(),
            threads=self.threads.value() or None,
            hash_mb=None if self.hash.value() < 0 else self.hash.value(),
            timeout=float(self.timeout.value()))

    def choices(self) -> dict:
        """What the user chose, as plain data to remember between sessions (app.memory): the
        engines, the yardsticks, each position (name, FEN, ticked) and the budget."""
        return {"engines": self.specs(), "core": self.core.isChecked(), "stockfish": self.stockfish.isChecked(),
                "positions": [[p.name, p.fen, self.position_list.item(i).checkState() == Qt.Checked]
                              for i, p in enumerate(self.positions)],
                "by_depth": self.by_depth.isChecked(), "seconds": float(self.seconds.value()),
                "depth": self.depth.value(), "threads": self.threads.value(), "hash": self.hash.value()}

    def set_choices(self, choices: dict):
        """Put back what choices() returned; what this copy cannot use (a position that no
        longer reads, Stockfish gone) is left as it is."""
        from perftscope.core.board.position import Position
        from perftscope.core.errors import PerftscopeError
        from perftscope.core.race.runner import RacePosition
        self.engines.clear()
        for spec in choices.get("engines", []):
            self.add_engine(str(spec))
        self.core.setChecked(bool(choices.get("core", True)))
        if self.stockfish.isEnabled():
            self.stockfish.setChecked(bool(choices.get("stockfish", True)))
        for name, fen, ticked in choices.get("positions", []):
            known = [i for i, p in enumerate(self.positions) if p.fen == fen]
            if not known:
                try:
                    Position.from_fen(str(fen))
                except PerftscopeError:
                    continue
                self._list_position(RacePosition(str(name), str(fen)))
                known = [len(self.positions) - 1]
            self.position_list.item(known[0]).setCheckState(Qt.Checked if ticked else Qt.Unchecked)
        (self.by_depth if choices.get("by_depth") else self.by_seconds).setChecked(True)
        for box, key in ((self.seconds, "seconds"), (self.depth, "depth"), (self.threads, "threads"),
                         (self.hash, "hash")):
            if key in choices:
                box.setValue(type(box.value())(choices[key]))

    def _start(self):
        settings = self.settings()
        if not settings.engines and not settings.yardsticks:
            self.show_error("Add an engine to race (or tick a yardstick)")
        elif not settings.positions:
            self.show_error("Tick at least one position")
        else:
            self.startRequested.emit(settings)

    def _export(self, kind: str, pattern: str, suffix: str):
        path, _ = QFileDialog.getSaveFileName(self, f"Export the race as {kind}", f"race{suffix}", pattern)
        if path:
            self.exportRequested.emit(kind, path)

    # --- the state watched ---------------------------------------------------------------------
    def show_state(self, state):
        """The "race" JobState: its `given` (the core.race.runner.Race run) laid out as rows once,
        each RaceEvent among its items shown as it arrives, and once it ends the first engine out
        selected, or, when the race could not run, its rows saying so."""
        super().show_state(state)
        race = state.given
        if race is not None and race is not self._race:
            self._race, self._seen = race, 0
            self._index = {(h.racer, h.position.name): i for i, h in enumerate(race.heats)}
            self.show_race(race.heats, [r.name for r in race.racers], race_caption(race, state.subject))
        for event in state.items[self._seen:]:
            self._event(event)
        self._seen = len(state.items)
        if state.running or race is None:
            return
        if state.result is race and self._revealed is not race:
            self._revealed = race
            out = [i for i, h in enumerate(race.heats) if h.out]
            if out:
                self.reveal(out[0])
        elif state.error and state.result is None:
            self.not_run(state.status)

    def _event(self, event):
        """A RaceEvent: its heat's row, and its depth or result in the graphs."""
        heat, lap = event.heat, event.lap
        row = self._index.get((heat.racer, heat.position.name))
        if row is None:
            return
        self.show_heat(row, heat)
        position = self._race.positions.index(heat.position)
        if event.kind == "lap":
            if not heat.out:               # a wrong count has no speed to show
                self.graphs.add_lap(heat.racer, position, lap.depth, lap.nps)
        elif heat.status != "running" and (heat.out or heat.best is not None):   # a depth too quick to time has no bar
            self.graphs.set_result(heat.racer, position, None if heat.out else heat.best.nps)

    # --- shown --------------------------------------------------------------------------------
    def set_running(self, running: bool):
        self.start_button.setEnabled(not running)
        self.stop_button.setEnabled(running)
        for button in (self.markdown_button, self.json_button):
            button.setEnabled(not running and self.table.rowCount() > 0)

    def row_menu(self, row: int):
        """A row's context menu: *Which line?* where the engine's count was wrong (None elsewhere)."""
        if row not in self._wrong:
            return None
        from PySide6.QtWidgets import QMenu
        menu = QMenu(self.table)
        menu.addAction("Which line? Locate the engine's suspect lines here", lambda: self.locateRequested.emit(row))
        return menu

    def _row_menu(self, point):
        menu = self.row_menu(self.table.rowAt(point.y()))
        if menu is not None:
            menu.exec(self.table.viewport().mapToGlobal(point))

    def show_race(self, heats, labels: list[str], caption: str):
        """A row per heat (engine on position), waiting; the graphs cleared for these engines."""
        self.table.setRowCount(0)
        self._wrong.clear()
        positions = _unique(h.position for h in heats)
        self._row_positions = [positions.index(h.position) for h in heats]
        for heat in heats:
            self._row(self.table.rowCount(), heat)
        self.graphs.set_race(labels, [p.name for p in positions], caption)

    def not_run(self, why: str):
        """The race failed (an engine could not start): each heat that never ran says so, `why`
        in its tooltip."""
        for row in range(self.table.rowCount()):
            item = self.table.item(row, RESULT)
            if item is not None and item.text() in ("waiting", "running"):
                item.setText("not run")
                item.setToolTip(f"{item.toolTip()}\nnot run: {why}")

    def show_heat(self, index: int, heat):
        self._row(index, heat)
        if heat.status == WRONG:
            self._wrong.add(index)

    def reveal(self, index: int):
        """Select a row (a disqualification when the race ends): its position in the depth plot."""
        self.table.setCurrentCell(index, RESULT)
        self.table.scrollToItem(self.table.item(index, RESULT))

    def _show_row(self, row: int):
        if 0 <= row < len(self._row_positions):
            self.graphs.show_position(self._row_positions[row])
            self.graphs.refresh()

    def _row(self, row: int, heat):
        from perftscope.core.race.report import short_verdict
        if row >= self.table.rowCount():
            self.table.insertRow(row)
        lap = heat.laps[-1] if heat.laps else None          # the deepest depth finished
        result = short_verdict(heat) if heat.out else (heat.note or heat.status or "waiting")
        speed = ("" if lap is None or heat.out or lap.net is None else format_rate(lap.nps) if lap.nps
                 else "too quick")          # its net time is within the start-up's noise
        cells = (heat.position.name, heat.engine, result, str(lap.depth) if lap else "",
                 f"{lap.nodes:,}" if lap else "", speed, _num(lap.cpu if lap else None, ".3f"),
                 _num(lap.peak / 2 ** 20 if lap and lap.peak else None, ".1f"))
        tip = f"{heat.engine} on {heat.position.name}: {heat.position.fen}" + \
              (f"\n{heat.status}: {heat.verdict}" if heat.verdict else "")
        for col, text in enumerate(cells):
            item = QTableWidgetItem(text)
            item.setToolTip(tip)
            if col > RESULT:
                item.setTextAlignment(Qt.AlignRight | Qt.AlignVCenter)
            if col == RESULT and heat.out:
                item.setForeground(Qt.darkRed)
            if col == COLUMNS.index("Speed") and text == "too quick":
                item.setToolTip(f"{tip}\ndepth {lap.depth} took no longer than the start-up's own noise "
                                f"({lap.noise * 1000:.1f} ms): too quick to time")
            self.table.setItem(row, col, item)
        self._fit_result()


def racer_label(spec: str) -> str:
    """A racer as the list names it: its name and its kind ("my-perft.sh · perftree"), so two builds
    of one program driven two ways, or one remembered from an earlier session, say how each is run."""
    from perftscope.core.engines.spec import BY_NAME, parse_spec
    from perftscope.core.errors import EngineError
    try:
        kind = parse_spec(spec).kind
    except EngineError:
        return spec                   # a spec this copy cannot read: shown whole
    name = short_name(spec)
    return name if BY_NAME[kind].builtin else f"{name} · {kind}"


def race_caption(race, subject) -> str:
    """Above the race's plots: what it races on, under which budget, and that every count is checked."""
    from perftscope.core.race.report import settings_text
    chess960 = " · Chess960" if any(p.request.start.chess960 for p in race.positions) else ""
    what = f"{subject.what} · " if subject is not None and subject.what else ""
    return f"{what}{settings_text(race)}{chess960} · every count checked against the core"


def _num(value, fmt: str) -> str:
    return "" if value is None else format(value, fmt)


def _unique(items):
    seen = []
    for item in items:
        if item not in seen:
            seen.append(item)
    return seen
