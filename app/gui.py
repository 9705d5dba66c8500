"""The main window: board and overlays, position library, divide tree against a
reference, perft run with live graphs. This module only wires widgets to core through
app.bridge; the widgets know nothing of each other.
"""
from __future__ import annotations

import os

from PySide6.QtCore import QSettings, Qt
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import (QApplication, QCheckBox, QGroupBox, QLabel, QMainWindow, QScrollArea, QSplitter,
                               QTabWidget, QVBoxLayout, QWidget)

from core.errors import PerftscopeError
from core.position import START_FEN, Position, parse_square
from widgets.board import BoardPanel
from widgets.divide_tree import DivideModel, DivideTreePanel
from widgets.graphs import LiveGraphs
from widgets.library import LibraryPanel
from widgets.overlays import LAYERS, Arrow, Badge, Layer, OverlayLegend, layers_from_analysis
from widgets.reference import ReferenceSelector
from widgets.run_panel import RunPanel

from .bridge import Bridge, DivideService, Job
from .runs import RunController

OVERLAYS_KEY = "board/overlays"

STYLE = """
QGroupBox { font-weight: bold; border: 1px solid #c8c8c8; border-radius: 4px; margin-top: 8px; }
QGroupBox::title { subcontrol-origin: margin; left: 8px; padding: 0 3px; }
QGroupBox > QWidget { font-weight: normal; }
QTabWidget::pane { border: 1px solid #c8c8c8; }
QStatusBar { border-top: 1px solid #d0d0d0; }
"""


def apply_style(app):
    """Fusion looks the same on every desktop and under xvfb; a light frame around groups."""
    import resources
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
    def __init__(self, fen: str = START_FEN, reference: str | None = None,
                 settings: QSettings | None = None):
        super().__init__()
        self.setWindowTitle("perftscope")
        self.settings = settings or QSettings("perftscope", "perftscope")
        self.bridge = Bridge(parent=self)

        self.board = BoardPanel()
        self.legend = OverlayLegend()
        self.library = LibraryPanel()
        self.selector = ReferenceSelector(self.settings)
        if reference:
            self.selector.set_spec(reference)
        self.divides = DivideService(self.bridge, reference=self.selector.spec())
        self.model = DivideModel(self.divides.fetch)
        self.tree = DivideTreePanel(self.model, self.selector)
        self.run_panel = RunPanel()
        self.graphs = LiveGraphs()
        self.runs = RunController(self.bridge, self.run_panel, self.graphs, lambda: self.board.position)
        self.mismatch_layer: Layer | None = None
        self.analysis = None
        self.finder: Job | None = None          # the running finder, if any
        self.finder_path: list[str] = []        # moves it has descended so far
        self.report = None                      # the last finder report
        remembered = self.settings.value(OVERLAYS_KEY)          # "checkers,pins", "" for none
        if isinstance(remembered, str):
            on = set(remembered.split(","))
            for key, *_ in LAYERS:
                self.legend.set_enabled(key, key in on)
        self._layout()
        self._menus()
        self._connect()
        self.set_fen(fen)

    # --- layout ----------------------------------------------------------------------
    def _layout(self):
        legend = QScrollArea()
        legend.setWidget(self.legend)
        legend.setWidgetResizable(True)
        legend.setFrameShape(QScrollArea.NoFrame)
        centre = QSplitter(Qt.Vertical)
        centre.addWidget(self.board)
        centre.addWidget(boxed("Overlays", legend))
        centre.setStretchFactor(0, 1)
        centre.setSizes([640, 200])

        run_tab = QWidget()
        run_box = QVBoxLayout(run_tab)
        run_box.setContentsMargins(0, 0, 0, 0)
        run_box.addWidget(self.run_panel)
        run_box.addWidget(self.graphs, 1)
        self.tabs = QTabWidget()
        self.tabs.addTab(self.tree, "Divide against a reference")
        self.tabs.addTab(run_tab, "Perft run")

        main = QSplitter(Qt.Horizontal)
        main.addWidget(boxed("Position library", self.library))
        main.addWidget(centre)
        main.addWidget(self.tabs)
        main.setStretchFactor(1, 3)
        main.setStretchFactor(2, 2)
        main.setSizes([300, 620, 640])
        self.setCentralWidget(main)
        self.message = QLabel()
        self.statusBar().addWidget(self.message, 1)
        self.chess960 = QCheckBox("Chess960")
        self.chess960.setToolTip("Castling is king takes rook (e1h1); the FEN is written in Shredder-FEN")
        self.statusBar().addPermanentWidget(self.chess960)
        self.resize(1560, 900)

    def _menus(self):
        menu = self.menuBar().addMenu("&Position")
        for text, key, slot in (("&Start position", "Ctrl+N", lambda: self.set_fen(START_FEN)),
                                ("&Flip board", "Ctrl+F", self.board.flip),
                                ("&Copy FEN", "Ctrl+Shift+C", self._copy_fen)):
            action = QAction(text, self)
            action.setShortcut(QKeySequence(key))
            action.triggered.connect(slot)
            menu.addAction(action)
        menu.addSeparator()
        quit_action = QAction("&Quit", self)
        quit_action.setShortcut(QKeySequence.Quit)
        quit_action.triggered.connect(self.close)
        menu.addAction(quit_action)

    def _connect(self):
        self.board.positionChanged.connect(self._position_changed)
        self.legend.toggled.connect(self._show_layers)
        self.legend.toggled.connect(
            lambda: self.settings.setValue(OVERLAYS_KEY, ",".join(sorted(self.legend.enabled()))))
        self.library.positionChosen.connect(self._library_chosen)
        self.chess960.toggled.connect(lambda on: self.board.set_position(self.board.position.with_options(
            chess960=on, fen_style="shredder" if on else "xfen")))
        self.selector.changed.connect(self.divides.set_reference)
        self.tree.divideRequested.connect(self.divide)
        self.tree.findRequested.connect(self.find_mismatch)
        self.tree.positionSelected.connect(self._row_selected)
        self.tree.stopRequested.connect(self.stop_divides)
        self.bridge.add_hook(lambda: self.tree.stop_button.setEnabled(
            self.finder is not None or self.model.loading()))
        self.model.failed.connect(lambda message: self.show_message("divide stopped") if message == "stopped"
                                  else self.show_error(f"divide failed: {message}"))
        self.model.loaded.connect(lambda index: None if index.isValid() else self._divide_done())
        self.run_panel.startRequested.connect(lambda *_: self.tabs.setCurrentIndex(1))
        self.runs.message.connect(self.show_message)
        self.runs.error.connect(self.show_error)

    # --- messages ----------------------------------------------------------------------
    def show_message(self, text: str):
        self.message.setStyleSheet("")
        self.message.setText(text)

    def show_error(self, text: str):
        self.message.setStyleSheet("color:#a01010; font-weight:bold;")
        self.message.setText(f"⚠ {text}")

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
        from core.analysis import analyze
        self.mismatch_layer = None
        self.chess960.blockSignals(True)
        self.chess960.setChecked(pos.chess960)
        self.chess960.blockSignals(False)
        try:
            self.analysis = analyze(pos)       # microseconds: masks the generator computes anyway
        except PerftscopeError as e:
            self.analysis = None
            self.show_error(str(e))
        self._show_layers()

    def _show_layers(self):
        layers = layers_from_analysis(self.analysis) if self.analysis is not None else {}
        self.legend.show_notes(layers)
        shown = [layers[k] for k in self.legend.enabled() if k in layers]
        if self.mismatch_layer is not None:
            shown.append(self.mismatch_layer)
        self.board.view.set_layers(shown)

    # --- divide tree ---------------------------------------------------------------------
    def _abandon(self):
        """A new divide or search replaces the old one: its engines stop instead of
        computing answers nobody will see."""
        if self.finder is not None:
            self.finder.cancel()
            self.finder, self.finder_path = None, []
            self.tree.find_button.setEnabled(True)
        self.divides.cancel()

    def divide(self, depth: int):
        self._abandon()
        self.tree.depth.setValue(depth)
        self.divides.set_reference(self.selector.spec())
        self.model.set_root(self.board.position.fen(), depth)
        self.tabs.setCurrentWidget(self.tree)
        self.show_message(f"Dividing at depth {depth} against {self._reference_name()}…")

    def _reference_name(self) -> str:
        kind, _, path = self.divides.reference_spec.partition(":")
        return os.path.basename(path) if path else kind

    def _divide_done(self):
        ours, ref = self.model.totals()
        depth, name = self.model.root.depth, self._reference_name()
        if ours == ref:
            self.show_message(f"divide {depth}: ours and {name} agree ({ours:,} nodes)")
        else:
            self.show_error(f"divide {depth}: ours {ours:,}, {name} {ref:,} "
                            f"({ours - ref:+,}): expand the marked rows or press Find first mismatch")

    def _row_selected(self, moves):
        """Show the row's position; a move one side does not play is drawn from the position
        before it, with a mark saying which side lists it."""
        root = Position.from_fen(self.model.fen)
        index = self.model.find(moves)
        node = self.model.node(index) if index is not None else None
        if node is not None and node.kind in ("missing", "extra"):
            self.board.set_position(root, moves[:-1])
            self.mismatch_layer = _mismatch_layer(node.move, node.kind)
            self._show_layers()
            self.show_message(self._explain(root.play(moves[:-1]), node.move, node.kind))
            return
        self.board.set_position(root, moves)

    @staticmethod
    def _explain(pos: Position, move: str, kind: str) -> str:
        from core.analysis import explain_move
        who = "only the reference plays" if kind == "missing" else "only our generator plays"
        try:
            why = explain_move(pos, move)
        except PerftscopeError as e:
            why = str(e)
        return f"{move}: {who} it; {why}"

    def find_mismatch(self, depth: int):
        """Run core.finder in the background; each level it divides is inserted in the tree
        as it arrives, and the row where the move lists differ ends up selected."""
        from core.finder import find_mismatch
        self._abandon()
        self.tree.depth.setValue(depth)
        self.divides.set_reference(self.selector.spec())
        fen = self.board.position.fen()
        self.model.set_root(fen, depth, fetch=False)
        self.tabs.setCurrentWidget(self.tree)
        self.tree.find_button.setEnabled(False)
        self.show_message(f"Looking for the first mismatch at depth {depth} against {self._reference_name()}…")
        self.finder, self.finder_path = self.divides.track(Job()), []
        job, divides = self.finder, self.divides

        def work():
            return find_mismatch(divides.oracle(divides.ours_spec), divides.oracle(divides.reference_spec),
                                 fen, [], depth, progress=lambda level: self.bridge.post(job, self._level, level),
                                 cancelled=lambda: job.cancelled)

        self.bridge.submit(work, self._found, self._finder_failed, job=job)

    def _level(self, level):
        """One level of the finder: the divides of the position reached so far."""
        index = self.model.find(self.finder_path)
        if index is None:
            return
        node = self.model.node(index)
        ours = {r.move: r.engine for r in level.rows if r.engine is not None}
        ref = {r.move: r.reference for r in level.rows if r.reference is not None}
        self.model.insert_divides(node, ours, ref)
        if level.chosen:
            self.finder_path.append(level.chosen)
            self.tree.reveal(self.finder_path)

    def _finder_failed(self, message):
        index = self.model.find(self.finder_path)
        if index is not None and self.model.node(index).state == "loading":
            self.model.mark_failed(self.model.node(index), message)
        self.finder, self.finder_path = None, []
        self.tree.find_button.setEnabled(True)
        self.show_error(f"finder: {message}")

    def _found(self, report):
        self.finder, self.finder_path = None, []
        self.tree.find_button.setEnabled(True)
        self.report = report
        if report.agree or not (report.missing or report.extra):
            self.show_message(report.note or f"✔ no mismatch: both agree at depth {report.depth}")
            return
        where = " ".join(report.path) or "the root"
        self.tree.reveal(report.path)
        odd = (report.missing + report.extra)[0]
        row = self.model.find(list(report.path) + [odd])
        if row is not None:
            self.tree.view.setCurrentIndex(row)          # shows it on the board with its mark
            self.tree.view.scrollTo(row)
        kinds = [f"missing {', '.join(report.missing)}" if report.missing else "",
                 f"extra {', '.join(report.extra)}" if report.extra else ""]
        why = report.explanations.get(odd, "")
        self.show_error(f"first mismatch after {where}: {'; '.join(k for k in kinds if k)}"
                        + (f" — {odd}: {why}" if why else ""))

    def start_perft(self, depth: int):
        """Start a run with the run panel's settings, as its Start button does."""
        self.run_panel.depth.setValue(depth)
        self.run_panel.start_button.click()

    def stop_divides(self):
        """Stop the finder and every divide still running; the tree keeps what it has."""
        self._abandon()
        self.model.stop_loading("stopped")

    def busy(self) -> bool:
        """A divide, the finder or a perft run is still working."""
        return self.finder is not None or self.runs.running or self.model.root.state == "loading"

    def closeEvent(self, event):
        if self.finder is not None:
            self.finder.cancel()
        self.runs.stop()
        self.divides.close()
        self.bridge.shutdown()
        super().closeEvent(event)


def _mismatch_layer(move: str, kind: str) -> Layer:
    a, b = parse_square(move[:2]), parse_square(move[2:4])
    text = "missing" if kind == "missing" else "extra"
    return Layer("mismatch", "Mismatch", "#882020",
                 [Arrow(a, b, "#882020", dashed=kind == "missing"), Badge(b, "✗ " + text, "#882020")],
                 [f"{move}: {text}"])
