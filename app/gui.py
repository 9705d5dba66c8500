"""The main window: board and overlays, position library, the user's engine divided against
a reference, the finder's report, the engine log, a perft run with live graphs. This module
only wires widgets to controllers (app.bridge, app.finding, app.runs); the widgets know
nothing of each other.

Every result remembers the position it was computed for: when the board shows another one
the result is greyed, with a button that puts its position back.
"""
from __future__ import annotations

from PySide6.QtCore import QSettings, Qt
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import (QApplication, QCheckBox, QFileDialog, QGroupBox, QLabel, QMainWindow,
                               QScrollArea, QSplitter, QTabWidget, QVBoxLayout, QWidget)

from perftscope.core.errors import PerftscopeError
from perftscope.core.board.position import START_FEN, Position
from perftscope.core.mismatch.verdicts import ILLEGAL, NOT_GENERATED
from perftscope.widgets import palette
from perftscope.widgets.board import BoardPanel
from perftscope.widgets.context import ContextBar
from perftscope.widgets.divide_tree import DivideModel, DivideTreePanel
from perftscope.widgets.engine_log import EngineLogPanel
from perftscope.widgets.finder_panel import FinderPanel
from perftscope.widgets.graphs import LiveGraphs
from perftscope.widgets.library import LibraryPanel
from perftscope.widgets.overlays import LAYERS, Layer, OverlayLegend, layers_from_analysis, mismatch_layer
from perftscope.widgets.race_panel import RacePanel
from perftscope.widgets.reference import EngineChoice, short_name
from perftscope.widgets.run_panel import RunPanel
from perftscope.widgets.test_engine_panel import TestEnginePanel

from . import everyday, session
from .bridge import Bridge, DivideService
from .engine_tests import EngineTestController
from .finding import FinderController
from .race import RaceController
from .runs import RunController

OVERLAYS_KEY = "board/overlays"

STYLE = """
QGroupBox { font-weight: bold; border: 1px solid %(frame)s; border-radius: 4px; margin-top: 8px; }
QGroupBox::title { subcontrol-origin: margin; left: 8px; padding: 0 3px; }
QGroupBox > QWidget { font-weight: normal; }
QTabWidget::pane { border: 1px solid %(frame)s; }
QStatusBar { border-top: 1px solid %(rule)s; }
""" % {"frame": palette.FRAME, "rule": palette.RULE}


def apply_style(app):
    """Fusion looks the same on every desktop and under xvfb; a light frame around groups."""
    from perftscope import resources
    from PySide6.QtGui import QIcon

    app.setStyle("Fusion")
    app.setStyleSheet(STYLE)
    app.setWindowIcon(QIcon(str(resources.DIR / "icons" / "perftscope.svg")))


def boxed(title: str, widget: QWidget) -> QGroupBox:
    box = QGroupBox(title)
    layout = QVBoxLayout(box)
    layout.setContentsMargins(4, 6, 4, 4)
    layout.addWidget(widget)
    return box


class MainWindow(QMainWindow):
    def __init__(self, fen: str = START_FEN, reference: str | None = None, engine: str | None = None,
                 settings: QSettings | None = None, timeout: float | None = None):
        super().__init__()
        self.setWindowTitle("perftscope")
        self.settings = settings or QSettings("perftscope", "perftscope")
        self.bridge = Bridge(parent=self)

        self.board = BoardPanel()
        self.legend = OverlayLegend()
        self.library = LibraryPanel()
        self.choice = EngineChoice(self.settings)
        if engine is not None:
            self.choice.engine.set_spec(engine)
        if reference is not None:
            self.choice.reference.set_spec(reference)
        if timeout is not None:
            self.choice.timeout.setValue(timeout)
        self.divides = DivideService(self.bridge, self.choice.reference.spec(), self.choice.engine.spec(),
                                     self.choice.seconds())
        self.model = DivideModel(self.divides.fetch)
        self.tree = DivideTreePanel(self.model, self.choice)
        self.finder = FinderController(self.bridge, self.divides, parent=self)
        self.finder_panel = FinderPanel()
        self.engine_log = EngineLogPanel()
        self.run_panel = RunPanel()
        self.run_context = ContextBar("Runs count the board position with the core.")
        self.graphs = LiveGraphs()
        self.runs = RunController(self.bridge, self.run_panel, self.graphs, self._run_position)
        self.mismatch_layer: Layer | None = None
        self.analysis = None
        self.divide_about: Position | None = None     # the position the divide tree was computed for
        self.run_about: Position | None = None        # the position the last run counted
        self._run_root: tuple[str, tuple] | None = None   # ... as the board's first FEN and moves
        self.row_shown = None                         # moves of the tree row the board shows
        self._showing_row = False
        remembered = self.settings.value(OVERLAYS_KEY)          # "checkers,pins", "" for none
        if isinstance(remembered, str):
            on = set(remembered.split(","))
            for key, *_ in LAYERS:
                self.legend.set_enabled(key, key in on)
        self._layout()
        self._menus()
        self._connect()
        everyday.install(self)                       # Edit, View, Divide, Help menus; remembered settings
        self.set_fen(fen)

    @property
    def report(self):
        """The finder's last report (None before one finished)."""
        return self.finder.report

    # --- layout ----------------------------------------------------------------------
    def _layout(self):
        legend = QScrollArea()
        legend.setWidget(self.legend)
        legend.setWidgetResizable(True)
        legend.setFrameShape(QScrollArea.NoFrame)
        centre = QSplitter(Qt.Vertical)
        centre.setObjectName("centre")              # named splitters are remembered (app.everyday)
        centre.addWidget(self.board)
        centre.addWidget(boxed("Overlays", legend))
        centre.setStretchFactor(0, 1)
        centre.setSizes([640, 200])

        run_tab = QWidget()
        run_box = QVBoxLayout(run_tab)
        run_box.setContentsMargins(0, 0, 0, 0)
        run_box.addWidget(self.run_context)
        run_box.addWidget(self.run_panel)
        run_box.addWidget(self.graphs, 1)
        run_scroll = QScrollArea()                   # a short window scrolls the graphs, never clips them
        run_scroll.setWidget(run_tab)
        run_scroll.setWidgetResizable(True)
        run_scroll.setFrameShape(QScrollArea.NoFrame)
        self.run_tab = run_tab = run_scroll          # the tab's page
        self.tabs = QTabWidget()
        # every tab stays in sight at 1024 px: titles shorten rather than scroll away
        self.tabs.setUsesScrollButtons(False)
        self.tabs.setElideMode(Qt.ElideRight)
        self.tabs.addTab(self.tree, "Divide")
        self.tabs.setTabToolTip(0, "Divide: the engine against the reference, move by move")
        self.tabs.addTab(self.finder_panel, "Finder report")
        self.tabs.addTab(self.engine_log, "Engine log")
        self.tabs.addTab(run_tab, "Perft run")
        # the Test-engine tab: suite and fuzz sessions against the chosen engine (open_finding)
        self.test_engine = TestEnginePanel()
        self.engine_tests = EngineTestController(self.bridge, self.test_engine, self)
        self.test_engine.openRequested.connect(self.open_finding)
        self.tabs.addTab(self.test_engine, "Test engine")
        # the Race tab: engines raced on perft beside the core and Stockfish, counts checked
        from perftscope.core.race.runner import standard_positions
        self.race_panel = RacePanel(self.settings, standard_positions())
        self.races = RaceController(self.bridge, self.race_panel, self)
        self.tabs.addTab(self.race_panel, "Race")
        for i in range(1, self.tabs.count()):
            self.tabs.setTabToolTip(i, self.tabs.tabText(i))

        main = QSplitter(Qt.Horizontal)
        main.setObjectName("main")
        main.addWidget(boxed("Position library", self.library))
        main.addWidget(centre)
        main.addWidget(self.tabs)
        main.setStretchFactor(1, 3)
        main.setStretchFactor(2, 2)
        main.setSizes([260, 640, 660])
        self.setCentralWidget(main)
        self.message = QLabel()
        self._said = ("", "", None)                # text, style, the position it is about
        self.message.setTextInteractionFlags(Qt.TextSelectableByMouse)
        self.waiting = QLabel()
        self.statusBar().addWidget(self.message, 1)
        self.statusBar().addPermanentWidget(self.waiting)
        self.chess960 = QCheckBox("Chess960")
        self.chess960.setToolTip("Castling is king takes rook (e1h1); the FEN is written in Shredder-FEN")
        self.statusBar().addPermanentWidget(self.chess960)
        self.resize(1560, 900)

    def _menus(self):
        files = self.menuBar().addMenu("&File")
        for text, key, slot in (("&Open session…", QKeySequence.Open, self._ask_open_session),
                                ("&Save session…", QKeySequence.Save, self._ask_save_session)):
            action = QAction(text, self)
            action.setShortcut(QKeySequence(key))
            action.triggered.connect(slot)
            files.addAction(action)
        files.addSeparator()
        quit_action = QAction("&Quit", self)
        quit_action.setShortcut(QKeySequence.Quit)
        quit_action.triggered.connect(self.close)
        files.addAction(quit_action)
        menu = self.menuBar().addMenu("&Position")
        for text, key, slot in (("&Start position", "Ctrl+N", lambda: self.set_fen(START_FEN)),
                                ("&Flip board", "Ctrl+F", self.board.flip),
                                ("&Copy FEN", "Ctrl+Shift+C", self._copy_fen)):
            action = QAction(text, self)
            action.setShortcut(QKeySequence(key))
            action.triggered.connect(slot)
            menu.addAction(action)

    def _connect(self):
        self.board.positionChanged.connect(self._position_changed)
        self.legend.toggled.connect(self._show_layers)
        self.legend.toggled.connect(
            lambda: self.settings.setValue(OVERLAYS_KEY, ",".join(sorted(self.legend.enabled()))))
        self.library.positionChosen.connect(self._library_chosen)
        self.choice.changed.connect(
            lambda: self.divides.set_specs(*self.choice.specs(), timeout=self.choice.seconds()))
        self.choice.changed.connect(self._offer_test_engines)
        self._offer_test_engines()
        self.chess960.toggled.connect(lambda on: self.board.set_position(self.board.position.with_options(
            chess960=on, fen_style="shredder" if on else "xfen")))
        self.tree.divideRequested.connect(self.divide)
        self.tree.findRequested.connect(self.find_mismatch)
        self.tree.positionSelected.connect(self._row_selected)
        self.tree.stopRequested.connect(self.stop_divides)
        self.tree.showPositionRequested.connect(self.show_divide_position)
        self.run_context.showRequested.connect(self.show_run_position)
        self.finder.level.connect(self._level)
        self.finder.found.connect(self._found)
        self.finder.failed.connect(self._finder_failed)
        self.bridge.add_hook(self._tick)
        self.model.failed.connect(lambda message: self.show_message("divide stopped") if message == "stopped"
                                  else self.show_error(f"divide failed: {message}"))
        self.model.loaded.connect(lambda index: None if index.isValid() else self._divide_done())
        self.run_panel.startRequested.connect(lambda *_: self.tabs.setCurrentWidget(self.run_tab))
        self.runs.message.connect(self._run_message)
        self.runs.error.connect(self.show_error)

    def _tick(self):
        """Once per bridge tick: what can be asked now, which engine is being waited for, the log."""
        self.tree.set_busy(self.model.loading(), self.finder.running)
        waiting = "   ".join(f"waiting for {name}: call {call}, {seconds:.1f} s (timeout {self.divides.timeout:g} s)"
                               for name, call, seconds in self.divides.waiting())
        if waiting != self.waiting.text():
            self.waiting.setText(waiting)
            self.tree.show_waiting(waiting)
        if self.tabs.currentWidget() is self.engine_log:
            self.engine_log.show_logs(self.divides.logs())

    # --- messages ----------------------------------------------------------------------
    def show_message(self, text: str):
        self._say(text, "")

    def show_error(self, text: str):
        self._say(f"⚠ {text}", f"color:{palette.ERROR}; font-weight:bold;")

    def _say(self, text: str, style: str):
        # a message is about the board's position when it is said: greyed once the board moves
        self._said = (text, style, self.board.position)
        self.message.setStyleSheet(style)
        self.message.setText(text)

    def _grey_message(self):
        text, style, about = self._said
        if not text or about is None:
            return
        if self.board.position == about:
            self.message.setStyleSheet(style)
            self.message.setText(text)
        else:
            self.message.setStyleSheet(f"color:{palette.STALE};")
            self.message.setText(f"(about another position) {text}")

    # --- board and overlays ------------------------------------------------------------
    def set_fen(self, fen: str):
        """Show a FEN; a bad one is reported in the window, the board stays as it was."""
        try:
            self.board.set_fen(fen)
        except PerftscopeError as e:
            self.show_error(str(e))
            return False
        return True

    def _library_chosen(self, fen: str, title: str):
        if self.set_fen(fen):
            self.show_message(f"Loaded {title}")

    def _copy_fen(self):
        QApplication.clipboard().setText(self.board.position.fen())

    def _position_changed(self, pos: Position):
        from perftscope.core.board.analysis import analyze
        if not self._showing_row:
            # the user moved the board: the mark and the row it belonged to no longer apply
            self.mismatch_layer, self.row_shown = None, None
            self.board.set_caption("")
            self.legend.show_mismatch(None)
        self.chess960.blockSignals(True)
        self.chess960.setChecked(pos.chess960)
        self.chess960.blockSignals(False)
        try:
            self.analysis = analyze(pos)       # microseconds: masks the generator computes anyway
        except PerftscopeError as e:
            self.analysis = None
            self.show_error(str(e))
        self._show_layers()
        self._mark_stale()

    def _mark_stale(self):
        """Grey the results computed for another position than the board's."""
        pos = self.board.position
        divide_stale = self.divide_about is not None and self.row_shown is None and pos != self.divide_about
        self.tree.set_stale(divide_stale)
        run_stale = self.run_about is not None and pos != self.run_about
        self.run_context.set_stale(run_stale)
        self.run_panel.set_stale(run_stale)
        self._grey_message()

    def _show_layers(self):
        layers = layers_from_analysis(self.analysis) if self.analysis is not None else {}
        self.legend.show_notes(layers)
        shown = [layers[k] for k in self.legend.enabled() if k in layers]
        if self.mismatch_layer is not None:
            shown.append(self.mismatch_layer)
        self.board.view.set_layers(shown)

    def _board_root(self) -> tuple[str, tuple]:
        """The board's first position and the moves played from it to the one shown."""
        return self.board.positions[0].fen(), tuple(self.board.moves[:self.board.index])

    def _show(self, fen: str, moves):
        self.board.set_position(Position.from_fen(fen), moves)

    def show_divide_position(self):
        """Put the divide tree's position back on the board."""
        if self.model.fen is not None:
            self._show(self.model.fen, self.model.root.moves)

    def show_run_position(self):
        if self.run_about is not None:
            self._show(*self._run_root)

    # --- divide tree ---------------------------------------------------------------------
    def _engines(self) -> tuple[str | None, str]:
        """Short names of the engine (None when none is chosen) and the reference."""
        engine, reference = self.choice.specs()
        return (short_name(engine) if engine else None), short_name(reference)

    def _abandon(self):
        """A new divide or search replaces the old one: its engines stop instead of
        computing answers nobody will see."""
        self.finder.cancel()
        self.divides.cancel()

    def _start_tree(self, depth: int, fetch: bool):
        self._abandon()
        self.tree.set_depth(depth)
        self.divides.set_specs(*self.choice.specs(), timeout=self.choice.seconds())
        fen, moves = self._board_root()
        engine, reference = self._engines()
        self.model.set_root(fen, depth, moves, fetch=fetch, engine=engine, reference=reference)
        self.divide_about = self.board.position
        self.tree.context.set_about(fen, moves, f"{engine} against {reference}" if engine
                                    else f"{reference} alone (no engine chosen)")
        self.mismatch_layer, self.row_shown = None, None
        self.legend.show_mismatch(None)
        self.board.set_caption("")
        self._show_layers()
        self._mark_stale()
        self.tabs.setCurrentWidget(self.tree)
        return fen, moves, engine, reference

    def divide(self, depth: int):
        *_, engine, reference = self._start_tree(depth, fetch=True)
        against = f"{engine} against {reference}" if engine else f"{reference} (no engine chosen)"
        self.show_message(f"Dividing at depth {depth}: {against}…")

    def _divide_done(self):
        engine, ref = self.model.totals()
        depth, name = self.model.root.depth, self.model.engine
        if engine is None:
            self.show_message(f"divide {depth}: {self.model.reference} counts {ref:,} nodes")
        elif engine == ref:
            self.show_message(f"divide {depth}: {name} and {self.model.reference} agree ({engine:,} nodes)")
        else:
            self.show_error(f"divide {depth}: {name} {engine:,}, {self.model.reference} {ref:,} "
                            f"({engine - ref:+,}): expand the marked rows or press Find first mismatch")

    def _row_selected(self, moves):
        """Show the row's position; a move one side does not generate is drawn from the
        position before it, with its verdict. The tree keeps its root."""
        index = self.model.find(moves[len(self.model.root.moves):])
        node = self.model.node(index) if index is not None else None
        if node is None:
            return
        verdict = node.verdict
        odd = verdict in (ILLEGAL, NOT_GENERATED)
        shown = moves[:-1] if odd else moves
        self._showing_row = True
        try:
            self.row_shown = tuple(moves)
            rel = " ".join(moves[len(self.model.root.moves):])
            self.board.set_caption(f"showing the divide row {rel}" + (f" (before {node.move}: {verdict.word})"
                                                                      if odd else ""))
            if odd:
                pos = Position.from_fen(self.model.fen).play(list(shown))
                why = self._why(pos, node.move)
                self.mismatch_layer = mismatch_layer(node.move, verdict, self.model.engine, why)
                self.legend.show_mismatch(self.mismatch_layer)
                self._show(self.model.fen, shown)
                self.show_message(self.mismatch_layer.notes[0])
            else:
                self.mismatch_layer = None
                self.legend.show_mismatch(None)
                self._show(self.model.fen, shown)
        finally:
            self._showing_row = False

    @staticmethod
    def _why(pos: Position, move: str) -> str:
        from perftscope.core.board.analysis import explain_move
        try:
            return explain_move(pos, move)
        except PerftscopeError as e:
            return str(e)

    # --- the finder --------------------------------------------------------------------
    def find_mismatch(self, depth: int):
        """Run the finder in the background; each level it divides is inserted in the tree
        as it arrives, the whole report goes to the Finder report tab."""
        if not self.choice.engine.spec():
            self.show_error("choose the Engine to debug: Find first mismatch compares it with the reference")
            return
        fen, moves, engine, reference = self._start_tree(depth, fetch=False)
        self.finder_panel.set_finding(engine, reference, fen, depth)
        self.show_message(f"Looking for the first mismatch at depth {depth}: {engine} against {reference}…")
        self.finder.start(fen, depth, moves)

    def _level(self, where, level):
        """One level of the finder: the rows of the position reached so far."""
        index = self.model.find(where)
        if index is None:
            return
        self.model.insert_rows(self.model.node(index), level.rows)
        if level.chosen:
            self.model.expect(list(where) + [level.chosen])        # the finder's next level
            self.tree.reveal(list(where) + [level.chosen])

    def _finder_failed(self, message):
        self.model.stop_loading(message)
        self.finder_panel.show_error(message)
        self.show_error(f"finder: {message}")

    def _found(self, report):
        self.finder_panel.show_report(report)
        below = list(report.path[len(self.model.root.moves):])
        if report.error:
            self.model.stop_loading(report.error)
            self.tree.add_note(report.error)
            self.show_error(f"{report.engine} failed during the search: the levels found before are kept; "
                            f"its error is above the tree and in the Finder report")
            return
        if report.cancelled:
            self.model.stop_loading("stopped")
            return
        if report.agree or not (report.missing or report.extra):
            self.model.stop_loading("no mismatch below")
            text = f"✔ no mismatch: {report.engine} agrees with {report.reference} at depth {report.depth}"
            if report.note:
                self.show_error(f"{report.engine} is inconsistent: see the Finder report")
            else:
                self.show_message(text)
            return
        self.tree.reveal(below)
        odd = (report.missing + report.extra)[0]
        self.tree.select(below + [odd])          # shows it on the board with its mark
        verdict = NOT_GENERATED if odd in report.missing else ILLEGAL
        where = " ".join(report.path) or "the root"
        self.show_error(f"first mismatch after {where}: {odd} {verdict.word} — see the Finder report")

    def start_perft(self, depth: int):
        """Start a run at `depth` with the run panel's other settings."""
        self.run_panel.depth.setValue(depth)
        self.tabs.setCurrentWidget(self.run_tab)
        self.runs.start(depth, self.run_panel.workers.value(), int(self.run_panel.hash_size.currentData()))

    def _run_position(self) -> Position:
        """The position a run starts on, remembered: the run reports it whatever the board does."""
        self._run_root = self._board_root()
        self.run_about = self.board.position
        self.run_context.set_about(*self._run_root, "core")
        self._mark_stale()
        return self.run_about

    def _run_message(self, text: str):
        about = self.run_about.fen() if self.run_about is not None else ""
        self.show_message(f"{text} — {about}" if about and not text.endswith("…") else text)

    def stop_divides(self):
        """Stop the finder and every divide still running; the tree keeps what it has."""
        self._abandon()
        self.model.stop_loading("stopped")

    def busy(self) -> bool:
        """A divide, the finder or a perft run is still working."""
        return self.finder.running or self.runs.running or self.model.loading() or self.races.running

    # --- sessions ------------------------------------------------------------------------
    def session_state(self) -> dict:
        fen, moves = self._board_root()
        engine, reference = self.choice.specs()
        report = self.finder.report
        return {"fen": fen, "moves": list(moves), "engine": engine, "reference": reference,
                "timeout": self.choice.seconds(), "divide": session.divide_json(self.model),
                "finder": session.report_json(report) if report is not None else None}

    def save_session(self, path: str):
        session.save(path, self.session_state())
        self.show_message(f"Session saved to {path}")

    def open_session(self, path: str) -> bool:
        """Show a saved session: position, engines, divide rows and finder report; nothing
        is recomputed. A bad file is a message, the window stays as it was."""
        try:
            data = session.load(path)
            Position.from_fen(data["fen"]).play(list(data.get("moves", [])))     # FenError, MoveError
            report = session.report_from_json(data["finder"]) if data.get("finder") else None
        except (PerftscopeError, KeyError, TypeError, ValueError) as e:
            self.show_error(str(e) if isinstance(e, PerftscopeError) else f"{path}: bad session ({e!r})")
            return False
        self._abandon()
        self.choice.engine.set_spec(data.get("engine") or "")
        self.choice.reference.set_spec(data.get("reference") or "core")
        if data.get("timeout"):
            self.choice.timeout.setValue(float(data["timeout"]))
        self._show(data["fen"], data.get("moves", []))
        if data.get("divide"):
            session.fill_divide(self.model, data["divide"])
            divide = data["divide"]
            self.divide_about = Position.from_fen(divide["fen"]).play(list(divide.get("moves", [])))
            engine = divide.get("engine")
            self.tree.context.set_about(divide["fen"], divide.get("moves", ()),
                                        f"{engine} against {divide.get('reference')}" if engine
                                        else f"{divide.get('reference')} alone (no engine chosen)")
        self.finder.report = report
        if report is not None:
            self.finder_panel.show_report(report)
        else:
            self.finder_panel.clear()
        self._mark_stale()
        self.show_message(f"Opened session {path}")
        return True

    def _ask_save_session(self):
        path, _ = QFileDialog.getSaveFileName(self, "Save session", "perftscope-session.json",
                                              "perftscope sessions (*.json)")
        if path:
            try:
                self.save_session(path)
            except PerftscopeError as e:
                self.show_error(str(e))

    def _ask_open_session(self):
        path, _ = QFileDialog.getOpenFileName(self, "Open session", "", "perftscope sessions (*.json)")
        if path:
            self.open_session(path)

    def _offer_test_engines(self):
        engine, reference = self.choice.specs()
        self.test_engine.offer_engines(engine or "", reference)

    def open_finding(self, finding):
        """A Test-engine finding in the divide tree: its engine against its reference, the
        finder's levels inserted along its path (no engine call), the differing row selected."""
        self.choice.engine.set_spec(self.engine_tests.settings["engine"])
        self.choice.reference.set_spec(self.engine_tests.settings["reference"])
        if not self.set_fen(finding.fen):
            return
        fen, _, engine, reference = self._start_tree(finding.depth, fetch=False)
        report = finding.report
        if report is None:
            self.show_error(f"{engine} against {reference}, depth {finding.depth}: {finding.summary()}")
            return
        self.finder_panel.set_finding(engine, reference, fen, finding.depth)
        self.finder.replay(report)                 # the levels into the tree, the differing row selected
        self.show_error(f"{engine} against {reference}, depth {finding.depth}: {finding.summary()}")

    def closeEvent(self, event):
        everyday.remember(self)
        self.engine_tests.close()
        self.races.close()
        self.finder.cancel()
        self.runs.stop()
        self.divides.close()
        self.bridge.shutdown()
        super().closeEvent(event)
